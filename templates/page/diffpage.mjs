/* A diff page's own tabs: Change (the comparison `heapscope diff` prints:
 * the runs' figures, then every band before, after, change and ratio with
 * a bar, new and gone said) and, for Bands, both runs side by side. */
import { el, option, swatch } from './dom.mjs';
import { fmtBytes, fmtPct, fmtSec } from './format.mjs';
import { runStats, sparkline } from './stats.mjs';
import { S, diffData, runs, ui } from './state.mjs';
import { changeBar, changeRows, ratioText, sideBySide, sortChangeRows } from './diffrows.mjs';
import { showTab } from './panels.mjs';
import { svgSpark } from './table.mjs';

const ROWS_MAX = 2000;
const unitOf = metric => (metric === 'peak' ? fmtBytes : x => fmtBytes(x) + '·s');
const colourOf = name => {
  for (const r of runs) { const b = r.bands.find(x => x.name === name); if (b) return b; }
  return null;
};
const swatchOf = name => swatch(colourOf(name));
// A band's row click: that band alone in both runs' charts.
function isolate(name) { S.visible = new Set([name]); S.search = ''; ui.search.value = ''; S.tab = 'chart'; S.tabChosen = true; showTab(); }
function signed(v, fmt) { return (v > 0 ? '+' : v < 0 ? '−' : '') + fmt(Math.abs(v)); }

export function buildChangePanel() {
  S.changeMetric = S.changeMetric || (diffData.order === 'peak' ? 'peak' : 'bs');
  S.changeSort = S.changeSort || ['change', -1];
  ui.cmetric = el('select', { 'aria-label': 'compare by', onchange: () => { S.changeMetric = ui.cmetric.value; drawChange(); } },
    option('bs', 'by byte-seconds', S.changeMetric), option('peak', 'by peak bytes', S.changeMetric));
  ui.cfilter = el('input', { type: 'search', placeholder: 'filter bands', 'aria-label': 'filter the changes',
    oninput: () => drawChange() });
  ui.ccount = el('span', { class: 'tcount', role: 'status' });
  ui.ctable = el('div', { class: 'scroll' });
  const w = diffData.window, span = x => fmtSec(x.from_s) + ' – ' + fmtSec(x.to_s);
  const note = w ? el('p', { class: 'hint', text: 'The figures are for a window of each run' +
    (w.from_marker ? ' (from marker “' + w.from_marker + '” to “' + w.to_marker + '”)' : '') + ': before ' + span(w.before) +
    ', after ' + span(w.after) + '; the charts show the whole runs.' }) : '';
  return el('section', { class: 'panel', 'data-tab': 'change' }, note, el('div', { class: 'scroll' }, runFigures()),
    el('div', { class: 'tctl' }, ui.cmetric, ui.cfilter, ui.ccount), ui.ctable);
}

// The runs' figures as the text's head: before, after, change.
function runFigures() {
  const a = diffData.before, b = diffData.after;
  const rows = [['peak heap', 'peak_bytes', fmtBytes], ['time of peak', 'peak_time_s', fmtSec],
    ['byte-seconds', 'byte_seconds', x => fmtBytes(x) + '·s'], ['duration', 'duration_s', fmtSec],
    ['heap samples', 'samples', x => String(x)], ['bands', 'bands', x => String(x)]];
  const pct = (x, y) => (x ? ' (' + (y >= x ? '+' : '−') + fmtPct(Math.abs(y - x) / x) + ')' : '');
  return el('table', { class: 'runfig' }, el('thead', {}, el('tr', {}, el('th', {}), el('th', { class: 'n', text: 'before' }),
    el('th', { class: 'n', text: 'after' }), el('th', { class: 'n', text: 'change' }))),
  el('tbody', {}, ...rows.map(([label, k, f]) => el('tr', {}, el('th', { text: label }), el('td', { class: 'n', text: f(a[k]) }),
    el('td', { class: 'n', text: f(b[k]) }), el('td', { class: 'n', text: signed(b[k] - a[k], f) + pct(a[k], b[k]) })))));
}

export function drawChange() {
  const metric = S.changeMetric, fmt = unitOf(metric);
  const all = changeRows(diffData, metric);
  const f = ui.cfilter.value.trim().toLowerCase();
  const rows = sortChangeRows(all.filter(r => !f || r.name.toLowerCase().includes(f)), ...S.changeSort);
  const maxAbs = all.reduce((m, r) => Math.max(m, Math.abs(r.change)), 0);
  const n = s => all.filter(r => r.status === s).length;
  ui.ccount.textContent = rows.length + ' of ' + all.length + ' bands · ' + n('both') + ' in both, ' + n('new') + ' new, ' + n('gone') + ' gone';
  const head = [['name', 'band'], ['before', 'before'], ['after', 'after'], ['change', 'change'], ['ratio', 'ratio'], ['bar', '']];
  const th = ([k, label]) => el('th', { class: k === 'name' || k === 'bar' ? '' : 'n', text: label, 'data-key': k,
    'data-sorted': S.changeSort[0] === k ? (S.changeSort[1] > 0 ? 'asc' : 'desc') : '',
    onclick: () => { if (k === 'bar') return; S.changeSort = S.changeSort[0] === k ? [k, -S.changeSort[1]] : [k, k === 'name' ? 1 : -1]; drawChange(); } });
  const body = rows.slice(0, ROWS_MAX).map(r => {
    const bar = changeBar(r.change, maxAbs);
    return el('tr', { class: 'crow ' + r.status, 'data-name': r.name, title: 'click: this band alone in both charts', onclick: () => isolate(r.name) },
      el('td', { class: 'band' }, swatchOf(r.name), ' ', r.name, r.normalizedOnly ? el('span', { class: 'tag', text: 'matched normalised' }) : ''),
      el('td', { class: 'n', text: fmt(r.before) }), el('td', { class: 'n', text: fmt(r.after) }),
      el('td', { class: 'n', text: signed(r.change, fmt) }),
      el('td', { class: 'n' + (r.status !== 'both' ? ' st' : ''), text: ratioText(r) }),
      el('td', { class: 'cbar' }, el('span', { class: 'bar ' + (bar.grows ? 'up' : 'down'), style: 'width:' + (bar.frac * 50).toFixed(2) + '%' })));
  });
  ui.ctable.replaceChildren(el('table', { class: 'change' }, el('thead', {}, el('tr', {}, ...head.map(th))), el('tbody', {}, ...body)),
    rows.length > ROWS_MAX ? el('p', { class: 'hint', text: '… and ' + (rows.length - ROWS_MAX) + ' more: filter the bands' }) : '');
}

/* Bands, side by side: each band's peak, time of peak and share in both
 * runs, with both sparklines on the runs' own scales. */
export function buildSideBands() {
  ui.sfilter = el('input', { type: 'search', placeholder: 'filter bands', 'aria-label': 'filter the table', oninput: () => drawSideBands() });
  ui.scount = el('span', { class: 'tcount' });
  ui.sbody = el('div', { class: 'scroll' });
  return el('section', { class: 'panel', 'data-tab': 'bands' }, el('div', { class: 'tctl' }, ui.sfilter, ui.scount), ui.sbody);
}

export function drawSideBands() {
  const all = sideBySide(runStats(runs[0]), runStats(runs[1]));
  const f = ui.sfilter.value.trim().toLowerCase();
  const rows = all.filter(r => !f || r.name.toLowerCase().includes(f)).slice(0, ROWS_MAX);
  ui.scount.textContent = rows.length + ' of ' + all.length + ' bands';
  const cells = (s, r) => s
    ? [el('td', { class: 'n', text: fmtBytes(s.pk) }), el('td', { class: 'n', text: fmtSec(s.pt) }),
        el('td', { class: 'n', text: fmtPct(s.share) }), el('td', {}, svgSpark(sparkline(s.b, r), s.b.colour))]
    : [el('td', { class: 'n none', colspan: '4', text: '—' })];
  const grp = k => el('th', { colspan: '4', class: 'grp', text: (k ? 'after: ' : 'before: ') + baseName(runs[k].d.input) });
  const sub = () => ['peak', 'at', 'share', 'over time'].map(t => el('th', { class: t === 'over time' ? '' : 'n', text: t }));
  ui.sbody.replaceChildren(el('table', { class: 'side' },
    el('thead', {}, el('tr', {}, el('th', {}), grp(0), grp(1)), el('tr', {}, el('th', { text: 'band' }), ...sub(), ...sub())),
    el('tbody', {}, ...rows.map(r => el('tr', { 'data-name': r.name, onclick: () => isolate(r.name) },
      el('td', { class: 'band' }, swatchOf(r.name), ' ', r.name), ...cells(r.a, runs[0]), ...cells(r.b, runs[1]))))));
}
function baseName(p) { p = p || ''; return p.slice(p.lastIndexOf('/') + 1); }
