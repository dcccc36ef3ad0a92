// The Ticky tab's pure parts (templates/page/ticky.mjs): rows from the
// data document, filter, sort, per-sample series and sparkline paths.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { TICKY_COLS, filterTicky, sortTicky, tickyRows, tickySeries, tickySpark } from '../../templates/page/ticky.mjs';

const doc = {
  times_us: [10, 20, 30, 40],
  counters: [
    { id: 0x40, name: 'Main.go (fun)', defined: true, arity: 1, arg_kinds: 'M', entries: 5, allocs: 300, allocd: 90,
      samples: 2, module: 'Main', srcloc: 'Main.hs:3:1-9', points: [0, 2, 100, 30, 3, 3, 200, 60] },
    { id: 0x80, name: 'Data.Map.insert', defined: true, arity: 3, arg_kinds: 'ppM', entries: 9, allocs: 10, allocd: 90,
      samples: 1, module: null, srcloc: null, points: [1, 9, 10, 90] },
    { id: 0xc0, name: '', defined: false, arity: 0, arg_kinds: '', entries: 1, allocs: 0, allocd: 0,
      samples: 1, points: [2, 1, 0, 0] }
  ]
};

test('tickyRows: one row per counter, undefined ones named by id', () => {
  const rows = tickyRows(doc);
  assert.equal(rows.length, 3);
  assert.deepEqual(rows.map(r => r.name), ['Main.go (fun)', 'Data.Map.insert', 'counter 0xc0']);
  assert.equal(rows[0].where, 'Main Main.hs:3:1-9');
  assert.equal(rows[1].where, '');
  assert.deepEqual(tickyRows(null), []);
});

test('filterTicky: name, kinds or source location, any case', () => {
  const rows = tickyRows(doc);
  assert.deepEqual(filterTicky(rows, 'MAP').map(r => r.id), [0x80]);
  assert.deepEqual(filterTicky(rows, 'main.hs').map(r => r.id), [0x40]);
  assert.deepEqual(filterTicky(rows, 'ppm').map(r => r.id), [0x80]);
  assert.equal(filterTicky(rows, '  ').length, 3);
  assert.equal(filterTicky(rows, 'nothing').length, 0);
});

test('sortTicky: by any column both ways, ties in document order', () => {
  const rows = tickyRows(doc);
  assert.deepEqual(sortTicky(rows, 'entries', -1).map(r => r.entries), [9, 5, 1]);
  assert.deepEqual(sortTicky(rows, 'entries', 1).map(r => r.entries), [1, 5, 9]);
  assert.deepEqual(sortTicky(rows, 'allocd', -1).map(r => r.id), [0x40, 0x80, 0xc0]);
  assert.deepEqual(sortTicky(rows, 'name', 1).map(r => r.id), [0x80, 0x40, 0xc0]);
  assert.deepEqual(rows.map(r => r.id), [0x40, 0x80, 0xc0], 'the rows given stay as they were');
  for (const [k, , dir] of TICKY_COLS) assert.ok(k in rows[0] && (dir === 1 || dir === -1));
});

test('tickySeries: each sample\'s figure, 0 where the counter did not move', () => {
  const [go] = tickyRows(doc);
  assert.deepEqual([...tickySeries(go, 4, 1)], [2, 0, 0, 3]);
  assert.deepEqual([...tickySeries(go, 4, 2)], [100, 0, 0, 200]);
  assert.deepEqual([...tickySeries(go, 4, 3)], [30, 0, 0, 60]);
  assert.deepEqual([...tickySeries(go, 2, 2)], [100, 0], 'points past the samples are left out');
  assert.deepEqual([...tickySeries({ points: null }, 2, 1)], [0, 0], 'a large page\'s counter without points');
});

test('tickySpark: a column per sample, the largest the full height', () => {
  const d = tickySpark(Float64Array.from([1, 0, 2]), 6, 10);
  assert.equal(d, 'M0 10L0.0 6.0L2.0 6.0L2.0 10.0L4.0 10.0L4.0 2.0L6.0 2.0L6 10Z');
  // more samples than pixels: each pixel column keeps its largest value
  const many = new Float64Array(100); many[99] = 5; many[0] = 5;
  const p = tickySpark(many, 4, 10);
  assert.equal(p, 'M0 10L0.0 2.0L1.0 2.0L1.0 10.0L2.0 10.0L2.0 10.0L3.0 10.0L3.0 2.0L4.0 2.0L4 10Z');
  assert.equal(tickySpark(new Float64Array(3), 3, 10), 'M0 10L0.0 10.0L1.0 10.0L1.0 10.0L2.0 10.0L2.0 10.0L3.0 10.0L3 10Z');
});
