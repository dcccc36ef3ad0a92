// User messages (templates/page/msgs.mjs): merged by pixel, searched.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadMessages, bucketMessages, searchMessages, bucketWindow, boundNote } from '../../templates/page/msgs.mjs';

const ms = loadMessages({ total: 6, step: 1, cut: 240, list: [
  [100000, 'GC start'], [100500, 'tick 1'], [101000, 'tick 2'], [500000, 'Phase two'], [900000, 'tick 3'], [1000000, 'end']] });

test('messages decode to seconds', () => {
  assert.deepEqual([...ms.t], [0.1, 0.1005, 0.101, 0.5, 0.9, 1]);
  assert.equal(ms.text[3], 'Phase two');
  assert.equal(loadMessages(undefined).t.length, 0);
});

test('messages a few pixels apart merge into one bucket with their count', () => {
  // 1 s over 100 px in buckets of 4 px: 0.1, 0.1005 and 0.101 share one
  const b = bucketMessages(ms.t, 0, 1, 100, 4, null);
  assert.deepEqual(b.map(x => x.n), [3, 1, 1, 1]);
  assert.equal(b.reduce((s, x) => s + x.n, 0), 6);
  assert.deepEqual([b[0].i0, b[0].i1, b[0].t0, b[0].t1], [0, 3, 0.1, 0.101]);
  assert.ok(b.every((x, k) => k === 0 || x.x > b[k - 1].x));
  // the last message, at the window's end, is in the last bucket
  assert.ok(b[3].x <= 100);
});

test('zooming in spreads a bucket out', () => {
  const b = bucketMessages(ms.t, 0, 1, 100, 4, null);
  const [w0, w1] = bucketWindow(b[0], 0, 1);
  assert.ok(w0 < 0.1 && w1 > 0.101);
  const z = bucketMessages(ms.t, w0, w1, 100, 4, null);
  assert.deepEqual(z.map(x => x.n), [1, 1, 1]);
});

test('only the window\'s messages are bucketed', () => {
  const b = bucketMessages(ms.t, 0.2, 0.95, 300, 6, null);
  assert.deepEqual(b.map(x => ms.text[x.i0]), ['Phase two', 'tick 3']);
});

test('search: substring case-blind, /regex/, and the hits per bucket', () => {
  assert.deepEqual(searchMessages(ms, 'TICK'), [1, 2, 4]);
  assert.deepEqual(searchMessages(ms, '/^(GC|end)/'), [0, 5]);
  assert.deepEqual(searchMessages(ms, '/(/'), []);
  assert.equal(searchMessages(ms, ' '), null);
  const b = bucketMessages(ms.t, 0, 1, 100, 4, searchMessages(ms, 'tick'));
  assert.deepEqual(b.map(x => x.hits), [2, 0, 1, 0]);
});

test('the page says when it holds a part of the messages', () => {
  assert.match(boundNote({ total: 25000, step: 3, cut: 240, t: new Float64Array(8334) }), /holds 8,334 of the log’s 25,000 messages, every 3rd/);
  assert.match(boundNote(ms), /Every one of the log’s 6 messages/);
  assert.equal(boundNote(loadMessages(null)), '');
});
