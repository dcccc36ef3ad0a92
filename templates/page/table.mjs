/* The band table: every band, virtualised, sortable and filtered. */
import { doc, el } from './dom.mjs';
import { fmtBytes, fmtPct, fmtSec } from './format.mjs';
import { runStats, sparkline, windowStats } from './stats.mjs';
import { S, compare, runs, ui, windowOf } from './state.mjs';
import { showTab } from './panels.mjs';

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

export function buildTablePanel() {
  const cols = [['sw', ''], ['name', 'band'], ['pk', 'peak'], ['pt', 'at'], ['bs', 'share'], ['sp', 'over time']];
  ui.thead = el('div', { class: 'trow thead', role: 'row' }, ...cols.map(([k, label]) =>
    el('span', { class: 'c-' + k, role: 'columnheader', text: label, 'data-key': k,
      onclick: () => {
        if (k === 'sw' || k === 'sp') return;
        S.tableSort = S.tableSort[0] === k ? [k, -S.tableSort[1]] : [k, k === 'name' ? 1 : -1];
        drawTable();
      } })));
  ui.tfilter = el('input', { type: 'search', placeholder: 'filter bands', 'aria-label': 'filter the table',
    oninput: () => { S.tableFilter = ui.tfilter.value; drawTable(); } });
  ui.tcount = el('span', { class: 'tcount' });
  ui.tbody = el('div', { class: 'tbody', role: 'rowgroup' });
  ui.tspace = el('div', { class: 'tspace' });
  ui.tscroll = el('div', { class: 'tscroll', role: 'table', 'aria-label': 'bands' }, ui.thead, el('div', { class: 'twrap' }, ui.tspace, ui.tbody));
  ui.tscroll.addEventListener('scroll', () => drawRows(false));
  return el('section', { class: 'panel', 'data-tab': 'bands' },
    el('div', { class: 'tctl' }, ui.tfilter, ui.tcount), ui.tscroll);
}

let tableRows = [], tableKey = '';
// after new data (live pages): the table's figures are computed again
export function forgetTableStats() { tableKey = ''; }
export function drawTable() {
  const run = runs[compare ? 1 : 0];
  const key = JSON.stringify([S.win, S.timeMode]);
  if (key !== tableKey || !run.ws) {
    run.ws = S.win ? windowStats(run, windowOf(run)) : runStats(run);
    tableKey = key;
  }
  const f = S.tableFilter.trim().toLowerCase();
  tableRows = run.ws.filter(x => !f || x.b.name.toLowerCase().includes(f));
  const [k, dir] = S.tableSort;
  const get = { name: x => x.b.name, pk: x => x.pk, pt: x => x.pt, bs: x => x.bs }[k];
  tableRows.sort((a, b) => { const x = get(a), y = get(b); return (x < y ? -1 : x > y ? 1 : 0) * dir; });
  for (const h of ui.thead.children) h.dataset.sorted = h.dataset.key === k ? (dir > 0 ? 'asc' : 'desc') : '';
  ui.tcount.textContent = tableRows.length.toLocaleString('en-US') + ' of ' + run.bands.length.toLocaleString('en-US') +
    ' bands' + (S.win ? ', figures for ' + fmtSec(windowOf(run)[0]) + ' – ' + fmtSec(windowOf(run)[1]) : '');
  ui.tspace.style.height = (tableRows.length * ROW_H) + 'px';
  drawRows(true);
}

let rowsShown = '';
function drawRows(force) {
  const run = runs[compare ? 1 : 0];
  const top = Math.max(0, ui.tscroll.scrollTop - ui.thead.offsetHeight);
  const from = Math.max(0, Math.floor(top / ROW_H) - 5);
  const to = Math.min(tableRows.length, from + Math.ceil((ui.tscroll.clientHeight || 600) / ROW_H) + 10);
  // a scroll within the rows already built costs nothing
  if (!force && rowsShown === from + ':' + to) return;
  rowsShown = from + ':' + to;
  ui.tbody.style.transform = 'translateY(' + (from * ROW_H) + 'px)';
  const rows = [];
  for (let r = from; r < to; r++) {
    const x = tableRows[r], b = x.b;
    rows.push(el('div', { class: 'trow', role: 'row', 'data-band': String(b.i), title: 'click: show only this band in the chart',
      onclick: () => { S.visible = new Set([b.name]); S.search = ''; ui.search.value = ''; S.tab = 'chart'; showTab(); } },
    el('span', { class: 'c-sw' }, el('span', { class: 'sw' + (b.hatched ? ' hatched' : ''), style: 'background-color:' + b.colour })),
    el('span', { class: 'c-name', text: b.name }),
    el('span', { class: 'c-pk', text: fmtBytes(x.pk) }),
    el('span', { class: 'c-pt', text: fmtSec(x.pt) }),
    el('span', { class: 'c-bs', text: fmtPct(x.share) }),
    el('span', { class: 'c-sp' }, svgSpark(sparkline(b, run), b.colour))));
  }
  ui.tbody.replaceChildren(...rows);
}
