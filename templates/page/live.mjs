/* Live pages: fetch fresh data, keep the view; the header, the notice and
 * the GC figures follow, and the panels are built anew when the data gains
 * some (the first heap lines, the first census, the first GC figures, the
 * first user message). */
import { doc } from './dom.mjs';
import { loadRun } from './decode.mjs';
import { app, runs, setRuns, ui } from './state.mjs';
import { forgetTableStats } from './table.mjs';
import { buildRunPanel } from './runinfo.mjs';
import { build, redraw, showNotice } from './main.mjs';

// What decides the panels a run has.
function shapeOf(r) {
  const t = r.d.ticky;
  return JSON.stringify([r.n > 0, Object.keys(r.lines), r.bands.some(b => b.stack), !!r.tprof, !!r.gc,
    t ? Math.min(2, t.times_us.length) : 0, r.msgs.total > 0]);
}

function header(d) {
  const h1 = doc.querySelector('header h1'), sub = doc.querySelector('header .sub');
  if (d.title && h1 && h1.textContent !== d.title) { h1.textContent = d.title; doc.title = d.title; }
  if (d.subtitle != null && sub) sub.textContent = d.subtitle;
}

function take(d) {
  const shape = shapeOf(runs[0]);
  setRuns([loadRun(d)]);
  window.heapscope.runs = runs;
  header(d);
  forgetTableStats();
  if (shapeOf(runs[0]) !== shape) { build(); return; }
  showNotice(d.notice);
  for (const c of ui.charts || []) c.run = runs[0];
  // the GC tab follows the run
  const old = app.querySelector('.panel[data-tab="run"]');
  if (old) { const p = buildRunPanel(); p.hidden = old.hidden; old.replaceWith(p); }
  redraw();
}

export function startLive(url, ms) {
  let busy = false;
  setInterval(() => {
    if (busy) return;
    busy = true;
    fetch(url, { cache: 'no-store' }).then(r => r.ok ? r.json() : null).then(d => {
      busy = false;
      if (d && d.points != null) take(d);
    }, () => { busy = false; });
  }, ms || 1000);
}
