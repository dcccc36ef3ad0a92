// The column decoding of templates/page/decode.mjs against page.h's format.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { decodeColumn, loadRun } from '../../templates/page/decode.mjs';
import { encodeColumn, makeRun, varint } from './helpers.mjs';

const arr = a => Array.from(a);

test('single-digit tokens: zigzag deltas from the previous value', () => {
  // deltas +1, +1, -2, 0: varints 4, 4, 6, 0 ("E", "E", "G", "A")
  assert.deepEqual(arr(decodeColumn('EEGA', 4)), [1, 2, 0, 0]);
});

test('a run token repeats the previous value', () => {
  // 5 (zigzag 10, varint 20), a run of 3 (varint 7 = "H"), then -1
  // (zigzag 1, varint 2 = "C")
  assert.deepEqual(arr(decodeColumn(varint(20) + 'H' + 'C', 5)), [5, 5, 5, 5, 4]);
});

test('multi-digit varints, low digit first', () => {
  assert.equal(varint(32), 'gB');
  assert.deepEqual(arr(decodeColumn(varint(4 * 1000), 1)), [1000]);
});

test('values past 2^30 and up to 2^53 stay exact', () => {
  const vals = [2 ** 30, 2 ** 31 + 7, 2 ** 40 + 3, 2 ** 52 + 1, 5, 2 ** 53 - 1];
  assert.deepEqual(arr(decodeColumn(encodeColumn(vals), vals.length)), vals);
});

test('negative deltas and runs round-trip', () => {
  const vals = [100, 100, 100, 7, 7, 0, 0, 0, 0, 3000000, 12];
  assert.deepEqual(arr(decodeColumn(encodeColumn(vals, { runs: true }), vals.length)), vals);
  assert.deepEqual(arr(decodeColumn(encodeColumn(vals), vals.length)), vals);
});

test('a short column repeats its last value; a long one stops at n', () => {
  assert.deepEqual(arr(decodeColumn(encodeColumn([3, 9]), 5)), [3, 9, 9, 9, 9]);
  assert.deepEqual(arr(decodeColumn(encodeColumn([1, 2, 3, 4]), 2)), [1, 2]);
  assert.deepEqual(arr(decodeColumn('', 3)), [0, 0, 0]);
});

test('decodes into a given buffer', () => {
  const store = new Float64Array(6);
  const out = decodeColumn(encodeColumn([4, 5, 6]), 3, store.subarray(3, 6));
  assert.equal(out.buffer, store.buffer);
  assert.deepEqual(arr(store), [0, 0, 0, 4, 5, 6]);
});

test('loadRun: times in seconds, bands scaled by their divisor', () => {
  const run = makeRun({
    t: [0, 500000, 1500000],
    bands: [{ n: 'a', v: [0, 4096, 8192], g: 4096 }, { n: 'b', v: [3, 2, 1], x: true, s: [1, 0] }],
    frames: ['Main.main', ['Data.Map', 'insert']], end: 2000000
  });
  assert.equal(run.n, 3);
  assert.deepEqual(arr(run.t), [0, 0.5, 1.5]);
  assert.deepEqual(arr(run.bands[0].v), [0, 4096, 8192]);
  assert.deepEqual(arr(run.bands[1].v), [3, 2, 1]);
  assert.equal(run.bands[1].excluded, true);
  assert.deepEqual(run.bands[1].stack, [0, 1]); // outermost first
  assert.deepEqual(run.frames, ['Main.main', 'Data.Map.insert']);
  assert.equal(run.end, 2);
});

test('loadRun: heap lines come out in time order', () => {
  const run = makeRun({
    t: [0, 1000000], bands: [],
    lines: { heap: [[3000000, 1000000, 2000000], [30, 10, 20]] }
  });
  assert.deepEqual(arr(run.lines.heap.t), [1, 2, 3]);
  assert.deepEqual(arr(run.lines.heap.v), [10, 20, 30]);
  assert.equal(run.end, 1);
});
