/* The diff page's tables as data: the comparison's bands (the diff's JSON,
 * the rows `heapscope diff` prints) by peak or byte-seconds, and both runs'
 * band figures side by side. Pure: no DOM, unit-tested under node. */

const METRIC = { peak: ['before_peak_bytes', 'after_peak_bytes'], bs: ['before_byte_seconds', 'after_byte_seconds'] };

// One row per band of the comparison: before, after, change, ratio
// (after / before; null for a band new in AFTER), status both|new|gone.
export function changeRows(diff, metric) {
  const [kb, ka] = METRIC[metric] || METRIC.bs;
  return ((diff && diff.bands) || []).map(x => {
    const before = x[kb] || 0, after = x[ka] || 0;
    return { name: x.band, status: x.status, before, after, change: after - before,
      ratio: before > 0 ? after / before : null, normalizedOnly: !!x.normalized_only };
  });
}

// Rows sorted by key (name, before, after, change, ratio; change by its
// size), dir 1 ascending or -1 descending; names break ties.
export function sortChangeRows(rows, key, dir) {
  const get = key === 'name' ? r => r.name : key === 'change' ? r => Math.abs(r.change)
    : key === 'ratio' ? r => (r.ratio == null ? Infinity : r.ratio) : r => r[key];
  return rows.slice().sort((a, b) => {
    const x = get(a), y = get(b);
    return (x < y ? -1 : x > y ? 1 : 0) * dir || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);
  });
}

// The ratio as the text prints it: "0.24x", or new / gone.
export function ratioText(r) {
  if (r.status === 'new' || r.ratio == null) return 'new';
  if (r.status === 'gone' || r.after === 0) return 'gone';
  return r.ratio.toFixed(2) + 'x';
}

// A change's bar: the fraction of half the cell it fills, and its side
// (growth to the right, shrinking to the left).
export function changeBar(change, maxAbs) {
  return { frac: maxAbs > 0 ? Math.min(1, Math.abs(change) / maxAbs) : 0, grows: change > 0 };
}

// Both runs' bands by name, side by side: [{name, a, b}] with each run's
// figure row (stats.mjs's runStats) or null where the run lacks the band,
// largest first by the larger byte-seconds of the two.
export function sideBySide(statsA, statsB) {
  const rows = new Map();
  for (const s of statsA) rows.set(s.b.name, { name: s.b.name, a: s, b: null });
  for (const s of statsB) {
    const r = rows.get(s.b.name);
    if (r) r.b = s; else rows.set(s.b.name, { name: s.b.name, a: null, b: s });
  }
  const size = r => Math.max(r.a ? r.a.bs : 0, r.b ? r.b.bs : 0);
  return [...rows.values()].sort((x, y) => size(y) - size(x) || (x.name < y.name ? -1 : 1));
}
