/* How bands grow, for leak hunting (the rule is the library's,
 * hs_census_band_growth in census.h): the slope of the least-squares line
 * through a band's bytes at the samples, over the run and over its last
 * third, in bytes per second; still growing at the end when the late slope
 * is above 0 and the last sample's bytes are above the band's mean. The
 * page receives the whole run's figures; a zoomed window's are computed
 * here by the same rule. Pure: unit-tested under node. */
import { lowerBound } from './stats.mjs';
import { fmtBytes } from './format.mjs';

export const GROWING_RULE = 'still growing: the least-squares slope over the last third of the time shown is above 0, ' +
  'and the bytes at its last sample are above the band\'s mean over it';

// The samples [i0, i1) of run at times within [w0, w1] (both included).
function samplesWithin(run, w0, w1) {
  return [lowerBound(run.t, w0, 0, run.n), lowerBound(run.t, w1 * (1 + 1e-12) + 1e-12, 0, run.n)];
}

// The least-squares slope of v over the samples [i0, i1) of times t, 0 for
// fewer than two samples or less than half a byte over their time.
export function slope(t, v, i0, i1) {
  const n = i1 - i0;
  if (n < 2) return 0;
  let st = 0, stt = 0, sv = 0, stv = 0;
  const t0 = t[i0];
  for (let i = i0; i < i1; i++) {
    const x = t[i] - t0;
    st += x; stt += x * x; sv += v[i]; stv += x * v[i];
  }
  const den = n * stt - st * st;
  const k = den > 0 ? (n * stv - st * sv) / den : 0;
  return Math.abs(k * (t[i1 - 1] - t0)) < 0.5 ? 0 : k;
}

// The start of the last third of [t0, t1].
export const lateFrom = (t0, t1) => t0 + (t1 - t0) * 2 / 3;

// Band b's growth over the samples within window [w0, w1] of run:
// {run, late, last, growing}, as the data document's `gr`.
export function growthWithin(run, b, [w0, w1]) {
  const [i0, i1] = samplesWithin(run, w0, w1);
  if (i1 <= i0) return { run: 0, late: 0, last: 0, growing: false };
  const j0 = lowerBound(run.t, lateFrom(run.t[i0], run.t[i1 - 1]) * (1 - 1e-12) - 1e-12, i0, i1);
  const v = b.v;
  let sum = 0;
  for (let i = i0; i < i1; i++) sum += v[i];
  const late = slope(run.t, v, j0, i1), last = v[i1 - 1];
  return { run: slope(run.t, v, i0, i1), late, last, growing: late > 0 && last > sum / (i1 - i0) };
}

// Every band's growth: the received whole-run figures, or a window's.
export function growthOf(run, win) {
  const key = win ? win.join(':') : '';
  if (run.growthKey !== key || !run.growthCache) {
    run.growthCache = new Map(run.bands.map(b => [b, win ? growthWithin(run, b, win) : b.growth]));
    run.growthKey = key;
  }
  return run.growthCache;
}

// A test of bands for the "growing" quick filter over window win (null: the run).
export function growingTest(run, win) {
  const g = growthOf(run, win);
  return b => !!(g.get(b) || {}).growing;
}

// The file of a source location: "Leak.hs:6:34-37" -> "Leak.hs",
// "leak.hs:(57,1)-(62,68)" -> "leak.hs"; "<built-in>" stays.
export function fileOf(src) {
  if (!src) return '';
  const m = /^(.*?):(\d+:\d+|\(\d+,\d+\))/.exec(src);
  return m ? m[1] : src;
}

// A rate in bytes per second, signed, short.
export function fmtRate(r) {
  if (!r) return '0 B/s';
  return (r > 0 ? '+' : '−') + fmtBytes(Math.abs(r)) + '/s';
}
