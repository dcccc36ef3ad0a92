/* Live pages: fetch fresh data, keep the view. */
import { loadRun } from './decode.mjs';
import { runs, setRuns, ui } from './state.mjs';
import { forgetTableStats } from './table.mjs';
import { redraw } from './main.mjs';

export function startLive(url, ms) {
  let busy = false;
  setInterval(() => {
    if (busy) return;
    busy = true;
    fetch(url, { cache: 'no-store' }).then(r => r.ok ? r.json() : null).then(d => {
      busy = false;
      if (!d || d.points == null) return;
      setRuns([loadRun(d)]);
      window.heapscope.runs = runs;
      for (const c of ui.charts || []) c.run = runs[0];
      forgetTableStats();
      redraw();
    }, () => { busy = false; });
  }, ms || 1000);
}
