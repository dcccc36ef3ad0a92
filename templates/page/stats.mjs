/* Figures over a run's samples: binary search, the per-pixel reduction
 * and stacking the chart draws, and each band's figures over a window.
 * Pure: unit-tested under node. A run here is what loadRun() returns: n
 * samples at times t (seconds), bands with their values v. */

export function lowerBound(a, x, lo, hi) {
  while (lo < hi) { const m = (lo + hi) >> 1; if (a[m] < x) lo = m + 1; else hi = m; }
  return lo;
}
export function nearest(a, n, x) {
  const i = lowerBound(a, x, 0, n);
  if (i === 0) return 0;
  if (i >= n) return n - 1;
  return x - a[i - 1] <= a[i] - x ? i - 1 : i;
}
// Per pixel column, each series' largest value in it (full detail
// when there are fewer samples than columns).
export function reduce(run, ser, w0, w1, cols) {
  const i0 = Math.max(0, lowerBound(run.t, w0, 0, run.n) - 1);
  const i1 = Math.min(run.n, lowerBound(run.t, w1, 0, run.n) + 1);
  const xs = [], vals = ser.map(() => []);
  if (i1 - i0 <= cols) {
    for (let i = i0; i < i1; i++) {
      xs.push(run.t[i]);
      ser.forEach((s, k) => vals[k].push(s.v[i]));
    }
    return { xs, vals };
  }
  const span = (w1 - w0) || 1;
  let col = -1;
  for (let i = i0; i < i1; i++) {
    const c = Math.floor((run.t[i] - w0) / span * cols);
    if (c !== col) {
      col = c; xs.push(run.t[i]);
      ser.forEach((s, k) => vals[k].push(s.v[i]));
    } else {
      const j = xs.length - 1;
      ser.forEach((s, k) => { if (s.v[i] > vals[k][j]) vals[k][j] = s.v[i]; });
    }
  }
  return { xs, vals };
}

export function stackUp(red, kind) {
  const m = red.xs.length, out = [];
  let base = new Float64Array(m), ymax = 0;
  const tot = new Float64Array(m);
  if (kind === 'normalized') red.vals.forEach(v => { for (let j = 0; j < m; j++) tot[j] += v[j]; });
  for (const v of red.vals) {
    const top = new Float64Array(m);
    for (let j = 0; j < m; j++) {
      const x = kind === 'normalized' ? (tot[j] > 0 ? v[j] / tot[j] : 0) : v[j];
      top[j] = kind === 'line' ? x : base[j] + x;
      if (top[j] > ymax) ymax = top[j];
    }
    out.push({ lo: kind === 'line' ? null : base, hi: top });
    base = top;
  }
  return { layers: out, ymax: kind === 'normalized' ? 1 : ymax };
}
// Each band's share of all the bands' byte-seconds.
function withShares(out) {
  const total = out.reduce((a, x) => a + x.bs, 0);
  for (const x of out) x.share = total > 0 ? x.bs / total : 0;
  return out;
}

// Each band's figures over the window [w0, w1] (seconds, the ends
// included), by the census's rule (src/census/census_stats.h): its peak
// pk, the time pt of its first peak (the window's first sample when it
// never rises above 0), its byte-seconds bs (the trapezoid rule as a
// weighted sum: each sample weighs half the time between its neighbours
// in the window, a lone sample one second) and its share of all the
// bands' byte-seconds. For a zoomed window; the whole run's are runStats'.
export function windowStats(run, [w0, w1]) {
  const i0 = lowerBound(run.t, w0, 0, run.n), i1 = lowerBound(run.t, w1 * (1 + 1e-12) + 1e-12, 0, run.n);
  const t = run.t, w = new Float64Array(Math.max(0, i1 - i0));
  for (let i = i0; i < i1; i++) {
    w[i - i0] = i1 - i0 === 1 ? 1 : (t[Math.min(i + 1, i1 - 1)] - t[Math.max(i - 1, i0)]) / 2;
  }
  return withShares(run.bands.map(b => {
    let pk = 0, pt = i0 < i1 ? t[i0] : 0, bs = 0;
    const v = b.v;
    for (let i = i0; i < i1; i++) {
      if (v[i] > pk) { pk = v[i]; pt = t[i]; }
      bs += v[i] * w[i - i0];
    }
    return { b, pk, pt, bs };
  }));
}

// The whole run's figures as the data document carries them (the C
// library's, from every sample even when the page's points are merged):
// received, not recomputed.
export function runStats(run) {
  return withShares(run.bands.map(b => ({ b, pk: b.peak, pt: b.peakT, bs: b.bs })));
}

// The largest of values v at the samples within [w0, w1].
export function peakWithin(run, v, [w0, w1]) {
  let pk = 0;
  for (let i = 0; i < run.n; i++) if (run.t[i] >= w0 && run.t[i] <= w1 && v[i] > pk) pk = v[i];
  return pk;
}

// The sample at which all the bands together are largest (the first such).
export function peakIndex(run) {
  let best = 0, bi = 0;
  for (let i = 0; i < run.n; i++) {
    let s = 0;
    for (const b of run.bands) s += b.v[i];
    if (s > best) { best = s; bi = i; }
  }
  return bi;
}

export function sparkline(b, run) {
  if (b.spark) return b.spark;
  const W = 80, H = 18, n = run.n;
  let max = 0;
  for (let i = 0; i < n; i++) if (b.v[i] > max) max = b.v[i];
  const cols = new Float64Array(W);
  for (let i = 0; i < n; i++) {
    const c = Math.min(W - 1, Math.floor((run.t[i] / (run.end || 1)) * W));
    if (b.v[i] > cols[c]) cols[c] = b.v[i];
  }
  let d = 'M0 ' + H;
  for (let c = 0; c < W; c++) d += 'L' + c + ' ' + (H - (max ? cols[c] / max * (H - 2) : 0)).toFixed(1);
  d += 'L' + (W - 1) + ' ' + H + 'Z';
  b.spark = d;
  return d;
}
