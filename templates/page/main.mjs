/*
 * heapscope's report page. Reads the data document embedded in
 * the "hs-data" script element (see include/heapscope/page.h), draws it in
 * canvases and keeps every view (chart, heap lines, legend, band table,
 * GC figures, flame views) in step with one state object. No library, no
 * network: the page's Content-Security-Policy forbids both.
 *
 * This module starts the page; the others under templates/page/ are ES
 * modules that scripts/bundle_page.py joins, from this one, into the one
 * classic inline script the page carries (see docs/ARCHITECTURE.md).
 */
import { doc } from './dom.mjs';
import { reduce, stackUp } from './stats.mjs';
import { S, app, compare, runs, scriptStart, ui, windowOf } from './state.mjs';
import { chooseSeries } from './select.mjs';
import { PAD, drawLines, drawOverview, drawRun } from './chart.mjs';
import { buildChartPanel, buildControls, buildTabs, showTab } from './panels.mjs';
import { clearHover, setWindow } from './hover.mjs';
import { drawLegend, drawMarkerList } from './legend.mjs';
import { buildTablePanel, drawTable } from './table.mjs';
import { buildFlamePanel, buildTimePanel, drawFlame, drawTimeFlame } from './icicle.mjs';
import { buildRunPanel } from './runinfo.mjs';
import { startLive } from './live.mjs';

// Drawing everything, once per animation frame however many changes ask.
let pending = false;
export function redraw() {
  if (pending) return;
  pending = true;
  requestAnimationFrame(() => { pending = false; redrawNow(); });
}

function redrawNow() {
  if (S.tab === 'chart' && ui.charts) {
    for (const c of ui.charts) c.ser = chooseSeries(c.run, S);
    let shared = 0;
    if (compare && S.kind !== 'normalized') {
      for (const c of ui.charts) {
        const [w0, w1] = windowOf(c.run);
        const red = reduce(c.run, c.ser, w0, w1, 400);
        shared = Math.max(shared, stackUp(red, S.kind).ymax);
      }
    }
    for (const c of ui.charts) {
      c.geo = drawRun(c.cv, c.run, c.ser, c.cv.parentNode.clientWidth < 500 ? 260 : 380, shared || 0);
      if (Object.keys(c.run.lines).length) drawLines(c.lc, c.run);
    }
    drawOverview(null);
    drawLegend();
    drawMarkerList();
    const r = runs[0];
    ui.note.textContent = (r.d.exact ? '' : 'This page holds ' + r.n.toLocaleString('en-US') + ' points for ' +
      r.d.samples.toLocaleString('en-US') + ' samples: each point is the largest value of its interval; the CSV has every sample. ') +
      (r.d.complete ? '' : doc.querySelector('meta[name="heapscope-live"]')
        ? 'Live: the page follows the program as its log arrives. '
        : 'The log stops without its end marker: the program was cut short. ');
    ui.note.hidden = !ui.note.textContent;
    clearHover();
  }
  if (S.tab === 'bands') drawTable();
  if (S.tab === 'flame') drawFlame();
  if (S.tab === 'time') drawTimeFlame();
  window.heapscope.drawn = ui.charts ? ui.charts.map(c => c.ser.map(s => s.name)) : [];
  if (window.heapscope.firstDraw == null) window.heapscope.firstDraw = performance.now();
}

// the page's read-only hook (page.h)
window.heapscope = { state: S, runs, redraw: redrawNow, scriptStart, get busy() { return pending; } };
// Start: build the panels the data has, draw, follow a live page.
ui.controls = buildControls();
const panels = [];
if (runs[0].n) panels.push(buildChartPanel(), buildTablePanel());
if (!compare && runs[0].bands.some(b => b.stack)) panels.push(buildFlamePanel());
if (!compare && runs[0].tprof) panels.push(buildTimePanel());
if (!compare) panels.push(buildRunPanel());
app.replaceChildren(buildTabs(), ui.controls, ...panels);
if (!ui.search) ui.search = { value: '' };
showTab();
window.addEventListener('resize', () => redraw());
const live = doc.querySelector('meta[name="heapscope-live"]');
if (live) startLive(live.getAttribute('content'), +live.dataset.interval);
Object.assign(window.heapscope, {
  // for tests and the curious: pixel x (within the plot box) of time t
  xOf: (t, k) => { const c = ui.charts[k || 0], g = c.geo; return PAD.l + (t - g.w0) / (g.w1 - g.w0) * g.pw; },
  yOf: (frac, k) => { const g = ui.charts[k || 0].geo; return PAD.t + frac * g.ph; },
  geo: k => ui.charts[k || 0].geo,
  setWindow
});
