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
import { doc, el } from './dom.mjs';
import { reduce, stackUp } from './stats.mjs';
import { S, app, compare, diffData, runs, scriptStart, ui, windowOf } from './state.mjs';
import { admittedBands, chooseSeries, whyEmpty } from './select.mjs';
import { PAD, drawLines, drawOverview, drawRun, linesMax, sizeCanvas } from './chart.mjs';
import { buildChartPanel, buildControls, buildTabs, showTab } from './panels.mjs';
import { clearHover, setWindow } from './hover.mjs';
import { drawLegend, drawMarkerList } from './legend.mjs';
import { buildTablePanel, drawTable } from './table.mjs';
import { buildFlamePanel, buildTimePanel, drawFlame, drawTimeFlame } from './icicle.mjs';
import { buildRunPanel } from './runinfo.mjs';
import { drawTprofView } from './tview.mjs';
import { buildTickyPanel, drawTicky } from './tickytab.mjs';
import { startLive } from './live.mjs';
import { anyMessages, buildMsgPanel, drawMsgList, drawTracks } from './trace.mjs';
import { buildChangePanel, buildSideBands, drawChange, drawSideBands } from './diffpage.mjs';

// Drawing everything, once per animation frame however many changes ask.
let pending = false;
export function redraw() {
  if (pending) return;
  pending = true;
  requestAnimationFrame(() => { pending = false; redrawNow(); });
}

// The heap lines' panel: under the bands, or alone (tall) before a census.
function linesHeight(c) { return c.run.n ? 120 : c.lc.parentNode.clientWidth < 500 ? 220 : 300; }

function redrawNow() {
  app.classList.toggle('kline', S.kind === 'line');
  if (S.tab === 'chart' && ui.charts) {
    const bands = runs[0].n > 0;
    for (const c of ui.charts) c.ser = bands ? chooseSeries(c.run, S) : [];
    let shared = 0;
    if (compare && S.kind !== 'normalized') {
      for (const c of ui.charts) {
        const [w0, w1] = windowOf(c.run);
        const red = reduce(c.run, c.ser, w0, w1, 400);
        shared = Math.max(shared, stackUp(red, S.kind).ymax);
      }
    }
    // a compare page's heap lines on one scale, as its bands are
    const linesShared = compare ? Math.max(...ui.charts.map(c => linesMax(c.run))) : 0;
    const why = whyEmpty(S.search, !!S.growing);
    for (const c of ui.charts) {
      if (bands) {
        c.geo = drawRun(c.cv, c.run, c.ser, c.cv.parentNode.clientWidth < 500 ? 260 : 380, shared || 0);
        // the hover layer covers the plot alone, not the track below it
        sizeCanvas(c.over, c.geo.h, c.geo.w);
        // the readout describes what is drawn, or says why nothing is: the
        // one place that says it (not the canvas, not the legend's state; on a
        // compare page under the first empty chart)
        const said = ui.charts.slice(0, ui.charts.indexOf(c)).some(x => !x.ser.length);
        c.read.replaceChildren(c.ser.length || said ? '' : el('span', { class: 'why', role: 'alert', text: why }));
        c.read.dataset.time = c.read.dataset.bytes = '';
      }
      if (Object.keys(c.run.lines).length) c.linesYmax = drawLines(c.lc, c.run, linesHeight(c), linesShared);
    }
    if (bands) { drawOverview(null); drawLegend(); drawMarkerList(); drawTracks(); }
    const r = runs[0], live = isLive();
    ui.note.textContent = (r.d.exact ? '' : 'This page holds ' + r.n.toLocaleString('en-US') + ' points for ' +
      r.d.samples.toLocaleString('en-US') + ' samples: each point is the largest value of its interval; the CSV has every sample. ') +
      (r.d.complete ? '' : live
        ? 'Live: the page follows the program as its log arrives. ' + (bands ? ''
          : 'Heap size and live bytes come from its GC events; the bands come with the first heap census. ')
        : 'The log stops without its end marker: the program was cut short. ');
    ui.note.hidden = !ui.note.textContent;
    if (bands) clearHover();
  }
  if (S.tab === 'bands') (compare ? drawSideBands : drawTable)();
  if (S.tab === 'change') drawChange();
  if (S.tab === 'msgs') drawMsgList();
  if (S.tab === 'flame') drawFlame();
  if (S.tab === 'time') { drawTprofView(); drawTimeFlame(); }
  if (S.tab === 'ticky') drawTicky();
  window.heapscope.drawn = ui.charts ? ui.charts.map(c => c.ser.map(s => s.name)) : [];
  if (window.heapscope.firstDraw == null) window.heapscope.firstDraw = performance.now();
}

export const isLive = () => !!doc.querySelector('meta[name="heapscope-live"]');
// A live run before its first census: its heap lines have the chart alone.
export function hasLinesAlone(r) { return !r.n && isLive() && Object.keys(r.lines).length > 0; }

// The panels the data has, built anew when a live run's data gains some
// (its first heap lines, its first census, its GC figures).
export function build() {
  const r = runs[0];
  ui.charts = null;
  ui.controls = buildControls();
  ui.search.value = S.search;
  const panels = [];
  if (r.n || hasLinesAlone(r)) panels.push(buildChartPanel());
  if (diffData) panels.push(buildChangePanel());
  if (r.n) panels.push(compare ? buildSideBands() : buildTablePanel());
  if (anyMessages()) panels.push(buildMsgPanel());
  if (!compare && r.bands.some(b => b.stack)) panels.push(buildFlamePanel());
  if (!compare && r.tprof) panels.push(buildTimePanel());
  if (!compare && r.d.ticky) panels.push(buildTickyPanel());
  if (!compare) panels.push(buildRunPanel());
  ui.notice = el('p', { class: 'notice', role: 'status' });
  showNotice(r.d.notice);
  app.replaceChildren(ui.notice, buildTabs(), ui.controls, ...panels);
  showTab();
}
export function showNotice(text) {
  ui.notice.textContent = text || '';
  ui.notice.hidden = !text;
}

// the page's read-only hook (page.h)
window.heapscope = { state: S, runs, redraw: redrawNow, scriptStart, get busy() { return pending; } };
// Start: draw, follow a live page.
build();
window.addEventListener('resize', () => redraw());
const live = doc.querySelector('meta[name="heapscope-live"]');
if (isLive()) startLive(live.getAttribute('content'), +live.dataset.interval);
Object.assign(window.heapscope, {
  // for tests and the curious: pixel x (within the plot box) of time t
  xOf: (t, k) => { const c = ui.charts[k || 0], g = c.geo; return PAD.l + (t - g.w0) / (g.w1 - g.w0) * g.pw; },
  yOf: (frac, k) => { const g = ui.charts[k || 0].geo; return PAD.t + frac * g.ph; },
  geo: k => ui.charts[k || 0].geo,
  // the top of run k's heap-lines panel, bytes (one for both on a diff page)
  linesYmax: k => ui.charts[k || 0].linesYmax,
  // the full names of the bands the view admits in run k (the cost-centre
  // subtree, the legend's choice, the search), largest first, before the
  // cut to the largest N
  admitted: k => admittedBands(runs[k || 0], S).map(b => b.name),
  // the message track's buckets of run k as drawn: {t0, t1, n, hits}
  msgBuckets: k => (ui.charts[k || 0].mbuckets || []).map(({ t0, t1, n, hits }) => ({ t0, t1, n, hits })),
  setWindow
});
