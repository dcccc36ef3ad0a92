/* The page's structure: the controls, the tabs and the chart panel. */
import { el, option } from './dom.mjs';
import { S, app, compare, diffData, runs, ui } from './state.mjs';
import { hookOverview, hookPlot } from './hover.mjs';
import { hasLinesAlone, redraw } from './main.mjs';
import { growingButton } from './table.mjs';
import { anyMessages, buildTrack, msgToggle } from './trace.mjs';

export function buildControls() {
  ui.kind = el('select', { 'aria-label': 'chart kind', onchange: () => { S.kind = ui.kind.value; redraw(); } },
    option('area', 'stacked', S.kind), option('normalized', 'normalized', S.kind), option('line', 'lines', S.kind));
  ui.sort = el('select', { 'aria-label': 'stack order', onchange: () => { S.sort = ui.sort.value; redraw(); } },
    option('size', 'by size', S.sort), option('name', 'by name', S.sort), option('stddev', 'by stddev', S.sort));
  ui.nbands = el('input', { type: 'number', min: '0', value: String(S.nbands), 'aria-label': 'bands drawn', class: 'num',
    onchange: () => { S.nbands = Math.max(0, parseInt(ui.nbands.value, 10) || 0); redraw(); } });
  ui.search = el('input', { type: 'search', placeholder: 'search bands, or /regex/', 'aria-label': 'search bands',
    oninput: () => { S.search = ui.search.value; S.visible = null; redraw(); } });
  ui.all = el('button', { type: 'button', text: 'all', onclick: () => { S.visible = null; S.ccPath = null; S.search = ''; ui.search.value = ''; S.growing = null; redraw(); } });
  ui.reset = el('button', { type: 'button', text: 'reset zoom', onclick: () => { S.win = null; S.markA = null; redraw(); } });
  const bits = [ui.kind, ui.sort, el('label', {}, 'bands ', ui.nbands), ui.search, growingButton(), ui.all, ui.reset, msgToggle()];
  if (compare) {
    ui.time = el('select', { 'aria-label': 'time axis', onchange: () => { S.timeMode = ui.time.value; S.win = null; redraw(); } },
      option('normalised', 'time normalised', S.timeMode), option('absolute', 'time in seconds', S.timeMode));
    bits.push(ui.time);
  }
  return el('div', { class: 'controls' }, ...bits);
}

export function buildTabs() {
  const r = runs[0];
  const tabs = [];
  if (r.n || hasLinesAlone(r)) tabs.push(['chart', 'Chart']);
  if (diffData) tabs.push(['change', 'Change']);
  if (r.n) tabs.push(['bands', 'Bands']);
  if (anyMessages()) tabs.push(['msgs', 'Messages']);
  if (!compare && r.bands.some(b => b.stack)) tabs.push(['flame', 'Cost centres']);
  if (!compare && r.tprof) tabs.push(['time', 'Time profile']);
  if (!compare && r.d.ticky) tabs.push(['ticky', 'Ticky']);
  if (!compare) tabs.push(['run', r.gc ? 'GC and run' : 'Run']);
  // a live page gaining its chart shows it, unless the reader chose a tab
  if (!S.tabChosen || !tabs.some(t => t[0] === S.tab)) S.tab = tabs[0][0];
  ui.tabs = el('nav', { class: 'tabs', role: 'tablist' }, ...tabs.map(([id, label]) =>
    el('button', { type: 'button', role: 'tab', 'data-tab': id, text: label, onclick: () => { S.tab = id; S.tabChosen = true; showTab(); } })));
  return ui.tabs;
}

export function showTab() {
  for (const b of ui.tabs.children) b.setAttribute('aria-selected', b.dataset.tab === S.tab ? 'true' : 'false');
  for (const p of app.querySelectorAll('.panel')) p.hidden = p.dataset.tab !== S.tab;
  ui.controls.hidden = S.tab !== 'chart' || !runs[0].n;
  redraw();
}

export function buildChartPanel() {
  ui.charts = runs.map((r, k) => {
    const box = el('div', { class: 'plot' });
    const cv = el('canvas', { class: 'bands', role: 'img', 'aria-label': 'heap by band' });
    const over = el('canvas', { class: 'overlay' });
    box.append(cv, over);
    const lbox = el('div', { class: 'plot lines' });
    const lc = el('canvas', { class: 'heaplines', role: 'img', 'aria-label': 'heap size, live bytes and blocks' });
    lbox.append(lc);
    const title = compare ? el('h3', { text: (k ? 'after: ' : 'before: ') + (r.d.input || r.d.title || '') }) : null;
    const read = el('div', { class: 'readout', 'aria-live': 'polite' });
    return { run: r, box, cv, over, lbox, lc, read, title, geo: null, ser: [] };
  });
  ui.legend = el('ul', { class: 'legend', 'aria-label': 'bands' });
  ui.lstate = el('p', { class: 'lstate', role: 'status',
    title: 'click a band: it alone (again: all) · ctrl/shift-click or Space: add or take it away' });
  ui.tip = el('div', { class: 'tip', hidden: '' });
  ui.mtip = el('div', { class: 'tip mtip', hidden: '' });
  ui.overview = el('canvas', { class: 'overview', 'aria-label': 'overview: drag to zoom' });
  ui.ovbox = el('div', { class: 'plot ov' }, ui.overview);
  ui.markers = el('ol', { class: 'markers' });
  ui.note = el('p', { class: 'note' });
  const parts = [], bands = runs[0].n > 0;
  for (const c of ui.charts) {
    if (bands) parts.push(c.title, c.box, buildTrack(c), c.read);
    if (Object.keys(c.run.lines).length) parts.push(c.lbox);
  }
  const panel = el('section', { class: 'panel', 'data-tab': 'chart' },
    el('div', { class: 'chartgrid' + (bands ? '' : ' nobands') }, el('div', { class: 'plots' }, ...parts, bands ? ui.ovbox : null),
      bands ? el('div', { class: 'legendbox' }, ui.lstate, ui.legend) : null),
    ui.note, runs[0].markers.length ? el('h2', { text: 'Markers' }) : null, ui.markers, ui.tip, ui.mtip);
  for (const c of ui.charts) hookPlot(c);
  hookOverview();
  return panel;
}
