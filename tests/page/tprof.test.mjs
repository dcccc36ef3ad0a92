// The time profile over time (templates/page/tprof.mjs): the series
// decoded from the data's tprof.iv, interval windows, sums, sorting and
// what the chart stacks.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadTprof, intervalRange, sumRange, ccRows, sortRows, focusRows, chartLayers, barsOf, bucketNote, OTHER_COLOUR } from '../../templates/page/tprof.mjs';
import { encodeColumn } from './helpers.mjs';

// Four intervals of 2 ms: f (M, self 5), main (Main, self 2, everything
// inherited), g (M, self 1), and "other" (self 1).
const frames = [['Main', 'main'], ['M', 'f'], ['M', 'g'], '<cc 9>'];
const cols = {
  self: [[2, 1, 0, 2], [0, 2, 0, 0], [0, 0, 1, 0], [0, 0, 0, 1]],
  inh: [[2, 1, 0, 2], [2, 3, 1, 2], [0, 0, 1, 0], [0, 0, 0, 1]]
};
const tp = () => loadTprof({ iv: {
  n: 4, w_ns: 2000000, other: 1, cc: [[1, 'm.hs:1:1'], [0, 'a.hs:1:1'], [2, null]],
  self: cols.self.map(v => encodeColumn(v, { runs: true })),
  inh: cols.inh.map(v => encodeColumn(v))
} }, frames);

test('loadTprof: names, modules, source locations and columns', () => {
  const ts = tp();
  assert.equal(ts.n, 4);
  assert.equal(ts.w, 0.002);
  assert.deepEqual(ts.cols.map(c => c.name), ['M.f', 'Main.main', 'M.g', '(other cost centres)']);
  assert.deepEqual(ts.cols.map(c => [c.label, c.module, c.srcloc, c.other]),
    [['f', 'M', 'm.hs:1:1', false], ['main', 'Main', 'a.hs:1:1', false], ['g', 'M', '', false], ['(other cost centres)', '', '', true]]);
  assert.deepEqual([...ts.cols[1].inh], [2, 3, 1, 2]);
  assert.deepEqual([...ts.total], [2, 3, 1, 3]);
  assert.equal(loadTprof(null, frames), null);
  assert.equal(loadTprof({ stacks: [] }, frames), null);
});

test('loadTprof: a column for empty stacks is MAIN, as folded names it', () => {
  const ts = loadTprof({ iv: { n: 1, w_ns: 1000, root: 1, other: 1, cc: [[1, 'm.hs:1:1']],
    self: [[1], [2], [1]].map(v => encodeColumn(v)), inh: [[1], [2], [2]].map(v => encodeColumn(v)) } }, frames);
  assert.deepEqual(ts.cols.map(c => [c.name, c.other, c.self[0], c.inh[0]]),
    [['M.f', false, 1, 1], ['MAIN', false, 2, 2], ['(other cost centres)', true, 1, 2]]);
  const { rows, total } = ccRows(ts, 0, 1);
  assert.equal(total, 4);
  assert.deepEqual(sortRows(rows, 'self', -1).map(r => r.c.name), ['MAIN', 'M.f', '(other cost centres)']);
  assert.deepEqual(chartLayers(ts, 0, 1, 5, null).map(x => x.name), ['MAIN', 'M.f', 'other']);
});

test('intervalRange: the intervals a window overlaps, never none', () => {
  const ts = tp();
  assert.deepEqual(intervalRange(ts, null), [0, 4]);
  assert.deepEqual(intervalRange(ts, [0.0025, 0.0041]), [1, 3]);
  assert.deepEqual(intervalRange(ts, [0.002, 0.004]), [1, 2]);
  assert.deepEqual(intervalRange(ts, [0.0021, 0.0021]), [1, 2]);
  assert.deepEqual(intervalRange(ts, [0, 99]), [0, 4]);
  assert.deepEqual(intervalRange(ts, [50, 99]), [3, 4]);
});

test('ccRows: sums over the window; self ticks add up to the total', () => {
  const ts = tp();
  const all = ccRows(ts, 0, 4);
  assert.equal(all.total, 9);
  assert.equal(all.rows.reduce((a, r) => a + r.self, 0), all.total);
  assert.deepEqual(all.rows.map(r => [r.c.label, r.self, r.inh]),
    [['f', 5, 5], ['main', 2, 8], ['g', 1, 1], ['(other cost centres)', 1, 1]]);
  const mid = ccRows(ts, 1, 3);
  assert.equal(mid.total, 4);
  assert.deepEqual(mid.rows.map(r => [r.c.label, r.self, r.inh]), [['f', 1, 1], ['main', 2, 4], ['g', 1, 1]]);
  assert.equal(sumRange(ts.total, 2, 2), 0);
});

test('sortRows: by any column either way, ties by self, other last', () => {
  const { rows } = ccRows(tp(), 0, 4);
  assert.deepEqual(sortRows(rows, 'self', -1).map(r => r.c.label), ['f', 'main', 'g', '(other cost centres)']);
  assert.deepEqual(sortRows(rows, 'self', 1).map(r => r.c.label), ['g', 'main', 'f', '(other cost centres)']);
  assert.deepEqual(sortRows(rows, 'inh', -1).map(r => r.c.label), ['main', 'f', 'g', '(other cost centres)']);
  assert.deepEqual(sortRows(rows, 'name', 1).map(r => r.c.label), ['f', 'g', 'main', '(other cost centres)']);
  // equal modules: most self first
  assert.deepEqual(sortRows(rows, 'module', 1).map(r => r.c.label), ['f', 'g', 'main', '(other cost centres)']);
  assert.deepEqual(sortRows(rows, 'srcloc', -1).map(r => r.c.label), ['f', 'main', 'g', '(other cost centres)']);
  assert.deepEqual(focusRows(rows, 'M.g').map(r => r.c.label), ['g']);
  assert.equal(focusRows(rows, null).length, 4);
});

test('chartLayers: the top cost centres of the window, the rest as other', () => {
  const ts = tp();
  const L = chartLayers(ts, 0, 4, 1, null);
  assert.deepEqual(L.map(x => x.name), ['M.f', 'other']);
  assert.deepEqual([...L[1].v], [0, 2, 1, 1]);
  assert.equal(L[1].colour, OTHER_COLOUR);
  // the window decides who is on top
  assert.deepEqual(chartLayers(ts, 1, 2, 1, null).map(x => x.name), ['Main.main', 'other']);
  // everyone fits: no other layer; heights are the totals
  const all = chartLayers(ts, 0, 4, 10, null);
  assert.deepEqual(all.map(x => x.name), ['M.f', 'Main.main', 'M.g', 'other']);
  assert.equal(barsOf(all, 0, 4, 1).max, 3);
  assert.equal(barsOf(all, 2, 3, 1).max, 1);
});

test('barsOf: intervals summed g a bar, bars aligned to multiples of g', () => {
  const all = chartLayers(tp(), 0, 4, 10, null);
  const b = barsOf(all, 1, 4, 2);
  assert.equal(b.b0, 0);
  assert.deepEqual([...b.tot], [5, 4]);
  assert.deepEqual([...b.v[0]], [3, 2]); // M.f
  assert.equal(b.max, 5);
  const one = barsOf(all, 3, 4, 3);
  assert.equal(one.b0, 1);
  assert.deepEqual([...one.tot], [3]);
  // the bars of the window add up to its ticks when they align
  assert.equal(barsOf(all, 0, 4, 4).tot[0], 9);
});

test('chartLayers: a focus shows its self ticks, what it calls, and the rest', () => {
  const ts = tp();
  const L = chartLayers(ts, 0, 4, 10, 'Main.main');
  assert.deepEqual(L.map(x => x.name), ['Main.main (self)', 'in what Main.main calls', 'everything else']);
  assert.deepEqual([...L[0].v], [0, 2, 0, 0]);
  assert.deepEqual([...L[1].v], [2, 1, 1, 2]);
  assert.deepEqual([...L[2].v], [0, 0, 0, 1]);
  for (let k = 0; k < 4; k++) assert.equal(L[0].v[k] + L[1].v[k] + L[2].v[k], ts.total[k]);
});

test('bucketNote: a window reaching into merged ticks says its precision', () => {
  const tp = { bucket_us: 20000, merged_until_us: 3500000 };
  assert.equal(bucketNote(tp, 1.2), 'at bucket precision: ticks before 3.500 s are counted in 20.0 ms buckets');
  assert.equal(bucketNote(tp, 3.5), null, 'a window after the horizon is exact');
  assert.equal(bucketNote({ bucket_us: 0, merged_until_us: 0 }, 0), null, 'none merged');
  assert.equal(bucketNote({}, 0), null, 'a file\'s profile (older data)');
});
