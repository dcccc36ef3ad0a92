/* The ticky-ticky counters of the data document (page.h, "ticky"): rows
 * for the Ticky tab, its filter and sort, and each counter's figures per
 * sample for its sparkline. Pure: no DOM, unit-tested under node. */

// The columns the table sorts by, with their first direction (numbers
// largest first, text A to Z).
export const TICKY_COLS = [
  ['name', 'counter', 1], ['arity', 'arity', -1], ['kinds', 'kinds', 1],
  ['entries', 'entries', -1], ['allocs', 'allocs', -1], ['allocd', 'allocd', -1]
];

// One row per counter, in the document's order (allocd, then entries).
export function tickyRows(t) {
  if (!t) return [];
  return t.counters.map((c, i) => ({
    i, id: c.id, name: c.defined ? c.name : 'counter 0x' + c.id.toString(16),
    defined: c.defined, arity: c.arity, kinds: c.arg_kinds, entries: c.entries,
    allocs: c.allocs, allocd: c.allocd, samples: c.samples,
    where: [c.module, c.srcloc].filter(Boolean).join(' '),
    points: c.points // null: left out of a large page
  }));
}

// The rows whose name, argument kinds or source location hold `text`
// (any case); every row for an empty text.
export function filterTicky(rows, text) {
  const f = (text || '').trim().toLowerCase();
  if (!f) return rows.slice();
  return rows.filter(r => (r.name + '\n' + r.kinds + '\n' + r.where).toLowerCase().includes(f));
}

// Sorted by column key in direction dir (1 ascending, -1 descending);
// ties keep the document's order.
export function sortTicky(rows, key, dir) {
  return rows.slice().sort((a, b) => {
    const x = a[key], y = b[key];
    const c = x < y ? -1 : x > y ? 1 : 0;
    return c * dir || a.i - b.i;
  });
}

// A counter's figure per sample: which is 1 (entries), 2 (allocs) or 3
// (allocd) of each [sample, entries, allocs, allocd] point; 0 where it did
// not move (or where the page left its points out).
export function tickySeries(row, nsamples, which) {
  const v = new Float64Array(nsamples);
  const p = row.points || [];
  for (let k = 0; k + 3 < p.length; k += 4) if (p[k] < nsamples) v[p[k]] = p[k + which];
  return v;
}

// The sparkline's SVG path, w x h: the samples as columns, the largest
// value the full height (a sample-wide column each when there are fewer
// samples than pixels, else the largest value of each pixel column).
export function tickySpark(v, w, h) {
  const n = v.length;
  let max = 0;
  for (let i = 0; i < n; i++) if (v[i] > max) max = v[i];
  const cols = Math.max(1, Math.min(w, n));
  const col = new Float64Array(cols);
  for (let i = 0; i < n; i++) {
    const c = Math.min(cols - 1, Math.floor(i * cols / n));
    if (v[i] > col[c]) col[c] = v[i];
  }
  const cw = w / cols;
  let d = 'M0 ' + h;
  for (let c = 0; c < cols; c++) {
    const y = (h - (max ? col[c] / max * (h - 2) : 0)).toFixed(1);
    d += 'L' + (c * cw).toFixed(1) + ' ' + y + 'L' + ((c + 1) * cw).toFixed(1) + ' ' + y;
  }
  return d + 'L' + w + ' ' + h + 'Z';
}
