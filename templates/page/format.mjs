/* Numbers as the page shows them: bytes, times, shares, and the round
 * ticks of the chart's axes. Pure: unit-tested under node. */
const UNITS = ['B', 'KiB', 'MiB', 'GiB', 'TiB'];
export function fmtBytes(v) {
  let k = 0;
  while (Math.abs(v) >= 1024 && k < 4) { v /= 1024; k++; }
  if (k === 0) return Math.round(v) + ' B';
  const a = Math.abs(v);
  return v.toFixed(a < 10 ? 2 : a < 100 ? 1 : 0) + ' ' + UNITS[k];
}
export function fmtExact(v) {
  return Math.round(v).toLocaleString('en-US') + ' B';
}
export function fmtSec(s) {
  if (s === 0) return '0 s';
  if (Math.abs(s) < 1) return (s * 1000).toFixed(s < 0.01 ? 2 : 1) + ' ms';
  if (Math.abs(s) < 120) return s.toFixed(3) + ' s';
  return (s / 60).toFixed(2) + ' min';
}
export function fmtPct(x) { return (100 * x).toFixed(x < 0.001 ? 2 : 1) + '%'; }
export function niceStep(range, target) {
  const raw = range / Math.max(1, target);
  const p = Math.pow(10, Math.floor(Math.log10(raw)));
  const m = raw / p;
  return (m < 1.5 ? 1 : m < 3 ? 2 : m < 7 ? 5 : 10) * p;
}
// Ticks at round numbers of the unit the largest value is shown in
// (bytes in KiB/MiB/..., times in ms or s).
export function byteTicks(ymax, target) {
  let k = 0, u = 1;
  while (ymax / u >= 1024 && k < 4) { u *= 1024; k++; }
  const step = niceStep(ymax / u, target) * u;
  const dec = Math.max(0, -Math.floor(Math.log10(step / u) + 1e-9));
  return { step, fmt: y => (k ? (y / u).toFixed(dec) : Math.round(y)) + ' ' + UNITS[k] };
}
// The top of a y axis over data up to ymax: a round number of byteTicks'
// step at least 4% above ymax, so that a band reaching the maximum never
// runs flat along the plot's top edge. { top, step, fmt }
export function yAxisTop(ymax, target) {
  const t = byteTicks(ymax > 0 ? ymax : 1, target);
  const top = Math.max(1, Math.ceil((ymax > 0 ? ymax : 1) * 1.04 / t.step - 1e-9)) * t.step;
  return { top, step: t.step, fmt: t.fmt };
}
export function timeTicks(span, target) {
  const ms = span < 2;
  const u = ms ? 1e-3 : 1;
  const step = niceStep(span / u, target) * u;
  const dec = Math.max(0, -Math.floor(Math.log10(step / u) + 1e-9));
  return { step, fmt: x => (x / u).toFixed(dec) + (ms ? ' ms' : ' s') };
}

// A name cut in the middle to at most max characters, its start and its
// end kept: band names differ at either end (-hc's innermost frame, -hd's
// closure after a long module).
export function midCut(name, max) {
  if (name.length <= max) return name;
  const head = Math.max(1, Math.ceil((max - 1) * 0.45)), tail = Math.max(1, max - 1 - head);
  return name.slice(0, head) + '…' + name.slice(-tail);
}

/* Labels for names (distinct) of at most max characters each, all
 * distinct: cut in the middle; names whose cuts meet lose the prefix they
 * share instead ("…" and what follows it, cut again), and where even that
 * meets, the whole name. */
export function shortLabels(names, max) {
  const labels = names.map(n => midCut(n, max));
  const groups = new Map();
  labels.forEach((l, k) => { if (!groups.has(l)) groups.set(l, []); groups.get(l).push(k); });
  for (const ks of groups.values()) {
    if (ks.length < 2) continue;
    const g = ks.map(k => names[k]);
    let p = 0;
    while (g.every(n => p < n.length && n[p] === g[0][p])) p++;
    const from = Math.max(0, p - 3);
    for (const k of ks) labels[k] = '…' + midCut(names[k].slice(from), max - 1);
  }
  const seen = new Map();
  labels.forEach((l, k) => seen.set(l, (seen.get(l) || 0) + 1));
  return labels.map((l, k) => (seen.get(l) > 1 ? names[k] : l));
}

/* Labels for names (distinct) that each fit their own room (fits(label,
 * k)): each the longest shortLabels gives, from `from` characters down to
 * 8, that fits, so a short or narrow name is not cut for a wide one's sake;
 * where two such labels meet, one length for all, the longest with which
 * every label fits. */
export function fitLabels(names, fits, from) {
  const out = names.map(() => null);
  for (let max = from; max >= 8 && out.some(l => l === null); max--) {
    shortLabels(names, max).forEach((l, k) => { if (out[k] === null && fits(l, k)) out[k] = l; });
  }
  const least = shortLabels(names, 8);
  const mixed = out.map((l, k) => l ?? least[k]);
  if (new Set(mixed).size === mixed.length) return mixed;
  for (let max = from; max > 8; max--) {
    const l = shortLabels(names, max);
    if (l.every(fits)) return l;
  }
  return least;
}
