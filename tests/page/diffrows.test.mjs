// The diff page's tables (templates/page/diffrows.mjs).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { changeRows, sortChangeRows, ratioText, changeBar, sideBySide } from '../../templates/page/diffrows.mjs';

const diff = { bands: [
  { band: 'mkWord', status: 'both', before_peak_bytes: 2000, after_peak_bytes: 500, before_byte_seconds: 100, after_byte_seconds: 10 },
  { band: 'bumpLazy', status: 'gone', before_peak_bytes: 900, after_peak_bytes: 0, before_byte_seconds: 50, after_byte_seconds: 0 },
  { band: 'bumpStrict', status: 'new', before_peak_bytes: 0, after_peak_bytes: 40, before_byte_seconds: 0, after_byte_seconds: 4 },
  { band: 'PINNED', status: 'both', before_peak_bytes: 30, after_peak_bytes: 60, before_byte_seconds: 3, after_byte_seconds: 3 }] };

test('change rows by byte-seconds or by peak', () => {
  const bs = changeRows(diff, 'bs');
  assert.deepEqual(bs.map(r => [r.name, r.before, r.after, r.change]),
    [['mkWord', 100, 10, -90], ['bumpLazy', 50, 0, -50], ['bumpStrict', 0, 4, 4], ['PINNED', 3, 3, 0]]);
  const pk = changeRows(diff, 'peak');
  assert.equal(pk[3].change, 30);
  assert.equal(pk[3].ratio, 2);
  assert.equal(pk[2].ratio, null);
  assert.deepEqual(changeRows(null, 'bs'), []);
});

test('ratios read as the text prints them', () => {
  const r = changeRows(diff, 'peak');
  assert.deepEqual(r.map(ratioText), ['0.25x', 'gone', 'new', '2.00x']);
});

test('sorting: by the size of the change, by name, by ratio', () => {
  const r = changeRows(diff, 'peak');
  assert.deepEqual(sortChangeRows(r, 'change', -1).map(x => x.name), ['mkWord', 'bumpLazy', 'bumpStrict', 'PINNED']);
  assert.deepEqual(sortChangeRows(r, 'name', 1).map(x => x.name), ['PINNED', 'bumpLazy', 'bumpStrict', 'mkWord']);
  // a new band's ratio is the largest
  assert.deepEqual(sortChangeRows(r, 'ratio', -1).map(x => x.name), ['bumpStrict', 'PINNED', 'mkWord', 'bumpLazy']);
});

test('bars: growth right, shrinking left, the largest change fills its half', () => {
  assert.deepEqual(changeBar(-1500, 1500), { frac: 1, grows: false });
  assert.deepEqual(changeBar(30, 1500), { frac: 0.02, grows: true });
  assert.deepEqual(changeBar(5, 0), { frac: 0, grows: true });
});

test('both runs side by side, matched by name, largest first', () => {
  const st = (name, bs) => ({ b: { name }, bs });
  const rows = sideBySide([st('a', 5), st('b', 50)], [st('b', 1), st('c', 20)]);
  assert.deepEqual(rows.map(r => [r.name, r.a && r.a.bs, r.b && r.b.bs]), [['b', 50, 1], ['c', null, 20], ['a', 5, null]]);
});
