/* The time profile over time (the data's tprof.iv, page.h): per interval
 * each cost centre's self and inherited ticks, summed over the intervals
 * a window touches for the table and stacked per interval for the chart.
 * The page sums what the library counted; it never re-derives the
 * figures from stacks. Pure: no DOM, unit-tested under node. */
import { decodeColumn } from './decode.mjs';
import { fmtSec } from './format.mjs';

// Colours of the chart's cost centres, by their rank over the whole run
// (a zoom does not repaint them); "other" is grey.
const PALETTE = ['#4e79a7', '#f28e2b', '#e15759', '#76b7b2', '#59a14f', '#edc948',
  '#b07aa1', '#ff9da7', '#9c755f', '#bcbd22', '#17becf', '#8cd17d'];
export const OTHER_COLOUR = '#bab0ac';
const REST_COLOUR = '#dedad7'; // what a followed cost centre is not in
export function ccColour(j) {
  if (j < PALETTE.length) return PALETTE[j];
  return 'hsl(' + ((j * 47) % 360) + ',45%,62%)';
}

// The series of a run's time profile, or null when the data has none:
// { n intervals, w seconds each, cols: [{ j, name, label, module, srcloc,
// other, self, inh }], total ticks per interval }; cols as the data's:
// named, then MAIN (samples of an empty stack), then other. frames: the data's own
// (each [module, label], or a string for an undefined cost centre).
export function loadTprof(tp, frames) {
  const iv = tp && tp.iv;
  if (!iv || !iv.n) return null;
  const n = iv.n;
  const cols = iv.self.map((col, j) => {
    const named = j < iv.cc.length, root = !named && j === iv.cc.length && !!iv.root;
    const f = named ? frames[iv.cc[j][0]] : null;
    const pair = Array.isArray(f);
    // an empty stack is GHC's MAIN, as folded stacks name it
    const bare = root ? 'MAIN' : '(other cost centres)';
    return {
      j, other: !named && !root,
      name: !named ? bare : pair ? f[0] + '.' + f[1] : String(f),
      label: !named ? bare : pair ? f[1] : String(f),
      module: pair ? f[0] : '', srcloc: named ? iv.cc[j][1] || '' : '',
      self: decodeColumn(col, n), inh: decodeColumn(iv.inh[j], n)
    };
  });
  const total = new Float64Array(n);
  for (const c of cols) for (let k = 0; k < n; k++) total[k] += c.self[k];
  return { n, w: iv.w_ns / 1e9, cols, total };
}

// The intervals [k0, k1) a window [t0, t1] (seconds) overlaps; null:
// every interval. Never empty.
export function intervalRange(ts, win) {
  if (!win) return [0, ts.n];
  const k0 = Math.min(ts.n - 1, Math.max(0, Math.floor(win[0] / ts.w)));
  const k1 = Math.min(ts.n, Math.max(k0 + 1, Math.ceil(win[1] / ts.w)));
  return [k0, k1];
}

export function sumRange(v, k0, k1) {
  let s = 0;
  for (let k = k0; k < k1; k++) s += v[k];
  return s;
}

// The table's rows over intervals [k0, k1): each cost centre with a tick
// there, its self and inherited ticks; total: every tick there.
export function ccRows(ts, k0, k1) {
  const rows = [];
  for (const c of ts.cols) {
    const self = sumRange(c.self, k0, k1), inh = sumRange(c.inh, k0, k1);
    if (self || inh) rows.push({ c, self, inh });
  }
  return { rows, total: sumRange(ts.total, k0, k1) };
}

// Rows sorted by key (name, module, srcloc, self, inh) in direction dir
// (1 up, -1 down), ties most self first then by name; "other" stays last.
const KEY = { name: r => r.c.label, module: r => r.c.module, srcloc: r => r.c.srcloc, self: r => r.self, inh: r => r.inh };
export function sortRows(rows, key, dir) {
  const get = KEY[key] || KEY.self;
  const order = (x, y) => (x < y ? -1 : x > y ? 1 : 0);
  return rows.slice().sort((a, b) => (a.c.other - b.c.other) || order(get(a), get(b)) * dir ||
    (b.self - a.self) || order(a.c.name, b.c.name));
}

// The rows a focus (a cost centre's full name; null: none) keeps.
export function focusRows(rows, focus) {
  return focus ? rows.filter(r => r.c.name === focus) : rows;
}

// What the chart stacks over [k0, k1), bottom first, each { name, colour,
// v: ticks per interval (the whole run's length) }. No focus: the `top`
// cost centres with most self ticks there, the rest as "other". A focus:
// its self ticks, the ticks of what it calls (inherited less self), and
// every other tick.
export function chartLayers(ts, k0, k1, top, focus) {
  if (focus) {
    const cols = ts.cols.filter(c => c.name === focus);
    const self = new Float64Array(ts.n), under = new Float64Array(ts.n), rest = new Float64Array(ts.n);
    for (let k = 0; k < ts.n; k++) {
      let s = 0, i = 0;
      for (const c of cols) { s += c.self[k]; i += c.inh[k]; }
      self[k] = s; under[k] = Math.max(0, i - s); rest[k] = Math.max(0, ts.total[k] - Math.max(i, s));
    }
    const colour = cols.length ? ccColour(cols[0].j) : OTHER_COLOUR;
    return [{ name: focus + ' (self)', colour, v: self },
      { name: 'in what ' + focus + ' calls', colour, hatched: true, v: under },
      { name: 'everything else', colour: REST_COLOUR, v: rest }];
  }
  const ranked = ts.cols.filter(c => !c.other).map(c => ({ c, s: sumRange(c.self, k0, k1) }))
    .filter(x => x.s > 0).sort((a, b) => b.s - a.s || a.c.j - b.c.j).slice(0, top);
  const layers = ranked.map(({ c }) => ({ name: c.name, colour: ccColour(c.j), v: c.self }));
  const rest = Float64Array.from(ts.total);
  for (const L of layers) for (let k = 0; k < ts.n; k++) rest[k] -= L.v[k];
  if (sumRange(rest, k0, k1) > 0) layers.push({ name: 'other', colour: OTHER_COLOUR, v: rest });
  return layers;
}

// The chart's bars over intervals [k0, k1), g intervals a bar (bar b
// holds intervals [b * g, (b + 1) * g), so a pan keeps them): the first
// bar's number b0, per layer its sums (v[layer][b - b0]), per bar the
// total stacked, and the tallest.
export function barsOf(layers, k0, k1, g) {
  const b0 = Math.floor(k0 / g), nb = Math.ceil(k1 / g) - b0;
  const v = layers.map(() => new Float64Array(nb)), tot = new Float64Array(nb);
  layers.forEach((L, j) => {
    for (let b = 0; b < nb; b++) {
      const from = (b0 + b) * g, to = Math.min(from + g, L.v.length);
      for (let k = from; k < to; k++) v[j][b] += L.v[k];
      tot[b] += v[j][b];
    }
  });
  return { g, b0, v, tot, max: tot.reduce((m, x) => Math.max(m, x), 0) };
}

// What a window starting at w0 seconds can trust on a live page whose
// older ticks were merged into buckets (the data's tprof.bucket_us and
// merged_until_us, page.h): a note that its edges there are at bucket
// precision, or null when the window starts after them or none merged.
export function bucketNote(tp, w0) {
  if (!tp || !tp.bucket_us || !tp.merged_until_us || w0 * 1e6 >= tp.merged_until_us) return null;
  return 'at bucket precision: ticks before ' + fmtSec(tp.merged_until_us / 1e6) + ' are counted in ' +
    fmtSec(tp.bucket_us / 1e6) + ' buckets';
}
