// Band figures over a run's samples (templates/page/stats.mjs).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { lowerBound, nearest, runStats, windowStats, peakWithin, peakIndex, reduce, stackUp } from '../../templates/page/stats.mjs';
import { makeRun } from './helpers.mjs';

// samples at 0, 1, 2, 3, 4 s
const run = () => makeRun({
  t: [0, 1e6, 2e6, 3e6, 4e6],
  bands: [
    { n: 'a', v: [0, 100, 300, 300, 0] },
    { n: 'b', v: [50, 50, 50, 50, 50] },
    { n: 'c', v: [0, 0, 0, 0, 400] }
  ],
  end: 4e6
});
const byName = ws => Object.fromEntries(ws.map(x => [x.b.name, x]));

test('search in sorted times', () => {
  const t = [0, 1, 2, 2, 5];
  assert.equal(lowerBound(t, 2, 0, 5), 2);
  assert.equal(lowerBound(t, 6, 0, 5), 5);
  assert.equal(nearest(t, 5, 3.4), 3);
  assert.equal(nearest(t, 5, 3.6), 4);
  assert.equal(nearest(t, 5, -1), 0);
  assert.equal(nearest(t, 5, 9), 4);
});

test('the whole run: peak, its first time, byte-seconds and share', () => {
  const w = byName(windowStats(run(), [0, 4]));
  assert.equal(w.a.pk, 300);
  assert.equal(w.a.pt, 2);
  // trapezoids: 50 + 200 + 300 + 150
  assert.equal(w.a.bs, 700);
  assert.equal(w.b.bs, 200);
  assert.equal(w.c.bs, 200);
  assert.equal(w.c.pt, 4);
  assert.equal(w.a.share, 700 / 1100);
});

test('a window counts only its own samples', () => {
  const w = byName(windowStats(run(), [1, 3]));
  assert.equal(w.a.pk, 300);
  assert.equal(w.a.bs, 200 + 300);
  assert.equal(w.c.pk, 0);
  assert.equal(w.c.pt, 1, 'no peak: the window\'s first time');
  assert.equal(w.c.share, 0);
});

test('a window of one sample: its bytes', () => {
  const w = byName(windowStats(run(), [2, 2]));
  assert.equal(w.a.bs, 300);
  assert.equal(w.a.pk, 300);
  assert.equal(w.b.share, 50 / 350);
});

test('an empty window: zeros, no division by zero', () => {
  for (const x of windowStats(run(), [4.5, 5])) {
    assert.equal(x.pk, 0);
    assert.equal(x.bs, 0);
    assert.equal(x.share, 0);
  }
});

test('the whole run\'s figures are the document\'s, not recomputed', () => {
  // as on a merged page: the points hold each interval's maximum, the
  // document the figures of every sample
  const r = makeRun({
    t: [0, 2e6],
    bands: [{ n: 'a', v: [10, 30], pk: 40, pt: 1e6, bs: 35 }, { n: 'b', v: [5, 5], bs: 15 }],
    end: 2e6
  });
  const w = byName(runStats(r));
  assert.equal(w.a.pk, 40);
  assert.equal(w.a.pt, 1);
  assert.equal(w.a.bs, 35);
  assert.equal(w.a.share, 35 / 50);
  assert.equal(byName(windowStats(r, [0, 2])).a.bs, 40, 'recomputed from the points');
});

test('peak within a window, and the sample of the largest total', () => {
  const r = run();
  assert.equal(peakWithin(r, r.bands[0].v, [3, 4]), 300);
  assert.equal(peakWithin(r, r.bands[2].v, [0, 3.5]), 0);
  assert.equal(peakIndex(r), 4);
});

test('reduce keeps each column\'s largest value; stackUp stacks', () => {
  const r = run();
  const ser = r.bands.map(b => ({ v: b.v }));
  const full = reduce(r, ser, 0, 4, 100);
  assert.deepEqual(full.xs, [0, 1, 2, 3, 4]);
  const two = reduce(r, ser, 0, 4, 2);
  assert.deepEqual(two.xs, [0, 2, 4]);
  assert.deepEqual(two.vals[0], [100, 300, 0]);
  const st = stackUp(full, 'area');
  assert.equal(st.ymax, 450);
  assert.deepEqual(Array.from(st.layers[1].hi), [50, 150, 350, 350, 50]);
  assert.deepEqual(Array.from(st.layers[2].hi), [50, 150, 350, 350, 450]);
  assert.deepEqual(Array.from(stackUp(full, 'normalized').layers[2].hi), [1, 1, 1, 1, 1]);
  assert.equal(stackUp(full, 'line').layers[0].lo, null);
});
