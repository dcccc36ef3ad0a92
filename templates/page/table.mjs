/* The band table: every band, virtualised, sortable, filtered and grouped
 * (columns.mjs), with each band's growth (growth.mjs). */
import { doc, el, option } from './dom.mjs';
import { fmtBytes, fmtPct, fmtSec } from './format.mjs';
import { runStats, sparkline, windowStats } from './stats.mjs';
import { S, compare, runs, ui, windowOf } from './state.mjs';
import { showTab } from './panels.mjs';
import { redraw } from './main.mjs';
import { GROWING_RULE, fmtRate, growingTest, growthOf } from './growth.mjs';
import { bandTitle, filterTest, filterWord, groupKey, groupRows, sortValue, sortable, tableColumns } from './columns.mjs';

const ROW_H = 30;
export function svgSpark(d, colour) {
  const xmlns = 'http://www.w3.org/2000/svg';
  const s = doc.createElementNS(xmlns, 'svg');
  s.setAttribute('viewBox', '0 0 80 18'); s.setAttribute('class', 'spark');
  s.setAttribute('preserveAspectRatio', 'none');
  const p = doc.createElementNS(xmlns, 'path');
  p.setAttribute('d', d); p.setAttribute('fill', colour);
  s.append(p);
  return s;
}

// The chart's "growing" quick filter: the bands still growing at the end
// of the time shown (the whole run, or the zoomed window).
export function growingButton() {
  const b = el('button', { type: 'button', class: 'growing', text: 'growing', 'aria-pressed': S.growing ? 'true' : 'false',
    title: 'show only the bands ' + GROWING_RULE.replace(/^still growing: /, 'still growing at the end: '),
    onclick: () => {
      S.growing = S.growing ? null : (run => growingTest(run, S.win && !compare ? windowOf(run) : null));
      S.visible = null;
      b.setAttribute('aria-pressed', S.growing ? 'true' : 'false');
      redraw();
    } });
  ui.growing = b;
  return b;
}

function tableRun() { return runs[compare ? 1 : 0]; }

export function buildTablePanel() {
  const cols = tableColumns(tableRun());
  ui.tcols = cols;
  ui.thead = el('div', { class: 'trow thead', role: 'row' }, ...cols.map(c =>
    el('span', { class: 'c-' + c.key + (c.narrow ? '' : ' opt'), role: 'columnheader', text: c.head, 'data-key': c.key, title: c.tip,
      tabindex: sortable(c.key) ? '0' : '-1',
      onclick: () => sortBy(c.key), onkeydown: ev => { if (ev.key === 'Enter' || ev.key === ' ') { ev.preventDefault(); sortBy(c.key); } } })));
  ui.tfilter = el('input', { type: 'search', placeholder: 'filter, or module:M src:F', title: 'words that must all match; module:M, src:S, file:F, type:T, label:L match that column', 'aria-label': 'filter the table',
    oninput: () => { S.tableFilter = ui.tfilter.value; drawTable(); } });
  ui.tgroup = el('select', { 'aria-label': 'group the table', onchange: () => { S.tableGroup = ui.tgroup.value; drawTable(); } },
    option('', 'no groups', S.tableGroup), option('module', 'by module', S.tableGroup), option('file', 'by source file', S.tableGroup));
  ui.tcount = el('span', { class: 'tcount' });
  ui.tbody = el('div', { class: 'tbody', role: 'rowgroup' });
  ui.tspace = el('div', { class: 'tspace' });
  ui.tscroll = el('div', { class: 'tscroll', role: 'table', 'aria-label': 'bands' }, ui.thead, el('div', { class: 'twrap' }, ui.tspace, ui.tbody));
  ui.tscroll.style.setProperty('--tcols', cols.map(c => c.width).join(' '));
  ui.tscroll.style.setProperty('--tcols-narrow', cols.filter(c => c.narrow).map(c => c.narrowWidth).join(' '));
  ui.tscroll.addEventListener('scroll', () => drawRows(false));
  return el('section', { class: 'panel', 'data-tab': 'bands' },
    el('div', { class: 'tctl' }, ui.tfilter, ui.tgroup, ui.tcount), ui.tscroll,
    el('p', { class: 'hint' }, 'growth: the slope of the least-squares line through a band\'s bytes, per second, over the time shown ' +
      'and over its last third; ' + GROWING_RULE + '.'));
}

function sortBy(k) {
  if (!sortable(k)) return;
  const text = ui.tcols.find(c => c.key === k).text;
  S.tableSort = S.tableSort[0] === k ? [k, -S.tableSort[1]] : [k, text ? 1 : -1];
  drawTable();
}

let tableRows = [], tableKey = '';
// after new data (live pages): the table's figures are computed again
export function forgetTableStats() { tableKey = ''; }
export function drawTable() {
  const run = tableRun();
  const key = JSON.stringify([S.win, S.timeMode]);
  if (key !== tableKey || !run.ws) {
    const g = growthOf(run, S.win ? windowOf(run) : null);
    run.ws = (S.win ? windowStats(run, windowOf(run)) : runStats(run)).map(x => Object.assign(x, { growth: g.get(x.b) }));
    tableKey = key;
  }
  const test = filterTest(ui.tcols, S.tableFilter);
  const [k, dir] = S.tableSort;
  const textKey = !!(ui.tcols.find(c => c.key === k) || {}).text;
  const shown = run.ws.filter(x => !test || test(x.b));
  tableRows = groupRows(shown, S.tableGroup, sortValue(ui.tcols, k), dir, textKey);
  for (const h of ui.thead.children) h.dataset.sorted = h.dataset.key === k ? (dir > 0 ? 'asc' : 'desc') : '';
  ui.tcount.textContent = shown.length.toLocaleString('en-US') + ' of ' + run.bands.length.toLocaleString('en-US') +
    ' bands' + (S.win ? ', figures for ' + fmtSec(windowOf(run)[0]) + ' – ' + fmtSec(windowOf(run)[1]) : '');
  ui.tspace.style.height = (tableRows.length * ROW_H) + 'px';
  drawRows(true);
}

// One cell of band row x for column c.
function cell(c, x, run) {
  const b = x.b, cls = 'c-' + c.key + (c.narrow ? '' : ' opt');
  if (c.text) {
    const v = c.text(b);
    const filter = c.key === 'name' || c.key === 'table' ? null : ev => {
      ev.stopPropagation(); S.tableFilter = ui.tfilter.value = filterWord(c.key, v); drawTable();
    };
    return el('span', { class: cls + (filter && v ? ' pick' : ''), text: v, title: v + (filter && v ? '\nclick: only bands with this ' + c.head : ''),
      onclick: filter && v ? filter : null });
  }
  const g = x.growth;
  switch (c.key) {
    case 'sw': return el('span', { class: cls }, el('span', { class: 'sw' + (b.hatched ? ' hatched' : ''), style: 'background-color:' + b.colour }));
    case 'pk': return el('span', { class: cls, text: fmtBytes(x.pk) });
    case 'pt': return el('span', { class: cls, text: fmtSec(x.pt) });
    case 'bs': return el('span', { class: cls, text: fmtPct(x.share) });
    case 'gr': return el('span', { class: cls, text: fmtRate(g.run) });
    case 'late': return el('span', { class: cls, text: fmtRate(g.late) });
    case 'grows': return el('span', { class: cls + (g.growing ? ' yes' : ''), text: g.growing ? '▲' : '', title: g.growing ? 'still growing at the end' : '' });
    default: return el('span', { class: cls }, svgSpark(sparkline(b, run), b.colour));
  }
}

// A group's header row: its name, bands and summed figures; a click shows
// its bands in the chart.
function groupRow(h) {
  const names = h.rows.map(x => x.b.name);
  return el('div', { class: 'trow tgroup', role: 'row', 'data-group': h.name, title: 'click: show these ' + names.length + ' bands in the chart',
    onclick: () => { S.visible = new Set(names); S.search = ''; ui.search.value = ''; S.tab = 'chart'; showTab(); } },
  el('span', { class: 'gname', text: h.name }),
  el('span', { class: 'gfig', text: names.length + ' band' + (names.length === 1 ? '' : 's') + ' · ' + fmtPct(h.share) +
    ' · ' + fmtRate(h.late) + ' late' + (h.growing ? ' · ' + h.growing + ' growing' : '') }));
}

let rowsShown = '';
function drawRows(force) {
  const run = tableRun();
  const top = Math.max(0, ui.tscroll.scrollTop - ui.thead.offsetHeight);
  const from = Math.max(0, Math.floor(top / ROW_H) - 5);
  const to = Math.min(tableRows.length, from + Math.ceil((ui.tscroll.clientHeight || 600) / ROW_H) + 10);
  // a scroll within the rows already built costs nothing
  if (!force && rowsShown === from + ':' + to) return;
  rowsShown = from + ':' + to;
  ui.tbody.style.transform = 'translateY(' + (from * ROW_H) + 'px)';
  const rows = [];
  for (let r = from; r < to; r++) {
    const x = tableRows[r];
    if (x.group) { rows.push(groupRow(x)); continue; }
    const b = x.b;
    rows.push(el('div', { class: 'trow', role: 'row', 'data-band': String(b.i), 'data-group': groupKey(S.tableGroup, b),
      title: bandTitle(b) + '\nclick: show only this band in the chart',
      onclick: () => { S.visible = new Set([b.name]); S.search = ''; ui.search.value = ''; S.tab = 'chart'; showTab(); } },
    ...ui.tcols.map(c => cell(c, x, run))));
  }
  ui.tbody.replaceChildren(...rows);
}
