// Test helpers: the column encoding of include/heapscope/page.h written
// again from its description (not from decode.mjs), and runs built from it.
import { loadRun } from '../../templates/page/decode.mjs';

const LAST = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdef';
const MORE = 'ghijklmnopqrstuvwxyz0123456789-_';

// A non-negative integer (exact up to 2^53) as a base-32 varint.
export function varint(x) {
  let s = '';
  while (x >= 32) { s += MORE[x % 32]; x = Math.floor(x / 32); }
  return s + LAST[x];
}

// Values as a column: zigzag deltas, and with `runs` each stretch of
// repeated values as one run token (2n+1).
export function encodeColumn(values, { runs = false } = {}) {
  let s = '', prev = 0;
  for (let i = 0; i < values.length;) {
    let n = 0;
    while (runs && i + n < values.length && values[i + n] === prev) n++;
    if (n) { s += varint(2 * n + 1); i += n; continue; }
    const d = values[i] - prev;
    s += varint(2 * (d >= 0 ? 2 * d : -2 * d - 1));
    prev = values[i++];
  }
  return s;
}

// A run as the page holds it: times in microseconds, bands as
// { n, v, x (excluded), sd, s (stack) }; bs and pk as the document has them.
export function makeRun({ t, bands, frames = [], lines = {}, end = 0 }) {
  const dt = t.map((x, i) => (i ? x - t[i - 1] : x));
  const doc = {
    points: t.length, t: encodeColumn(dt), end_us: end, frames, markers: [], lines: {},
    bands: bands.map(b => ({
      n: b.n, c: '#123456', g: b.g || 1, d: encodeColumn(b.v.map(x => x / (b.g || 1))),
      x: b.x ? 1 : 0, pk: b.pk ?? Math.max(...b.v), pt: b.pt ?? 0, bs: b.bs ?? 0, sd: b.sd ?? 0, s: b.s
    }))
  };
  for (const [k, [lt, lv]] of Object.entries(lines)) {
    doc.lines[k] = [lt.length, encodeColumn(lt.map((x, i) => (i ? x - lt[i - 1] : x))), encodeColumn(lv)];
  }
  return loadRun(doc);
}
