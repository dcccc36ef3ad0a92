// Numbers as the page shows them (templates/page/format.mjs).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fmtBytes, fmtExact, fmtSec, fmtPct, niceStep, byteTicks, timeTicks, yAxisTop, midCut, shortLabels } from '../../templates/page/format.mjs';

test('fmtBytes: binary units, 3 significant figures', () => {
  assert.equal(fmtBytes(0), '0 B');
  assert.equal(fmtBytes(1023), '1023 B');
  assert.equal(fmtBytes(1024), '1.00 KiB');
  assert.equal(fmtBytes(1536), '1.50 KiB');
  assert.equal(fmtBytes(50 * 1024), '50.0 KiB');
  assert.equal(fmtBytes(500 * 1024), '500 KiB');
  assert.equal(fmtBytes(3 * 1024 ** 3), '3.00 GiB');
  assert.equal(fmtBytes(2048 * 1024 ** 4), '2048 TiB');
  assert.equal(fmtBytes(-2048), '-2.00 KiB');
});

test('fmtExact: every byte, with separators', () => {
  assert.equal(fmtExact(1234567.4), '1,234,567 B');
});

test('fmtSec: ms below a second, s below two minutes, then minutes', () => {
  assert.equal(fmtSec(0), '0 s');
  assert.equal(fmtSec(0.005), '5.00 ms');
  assert.equal(fmtSec(0.25), '250.0 ms');
  assert.equal(fmtSec(1.5), '1.500 s');
  assert.equal(fmtSec(150), '2.50 min');
});

test('fmtPct: one decimal, two for tiny shares', () => {
  assert.equal(fmtPct(0.5), '50.0%');
  assert.equal(fmtPct(0.0005), '0.05%');
});

test('niceStep: 1, 2, 5 times a power of ten', () => {
  assert.equal(niceStep(100, 10), 10);
  assert.equal(niceStep(100, 5), 20);
  assert.equal(niceStep(100, 25), 5);
  assert.equal(niceStep(0.3, 3), 0.1);
});

test('byteTicks: round steps in the unit of the largest value', () => {
  const b = byteTicks(1000, 5);
  assert.equal(b.step, 200);
  assert.equal(b.fmt(400), '400 B');
  const k = byteTicks(10 * 1024 * 1024, 5);
  assert.equal(k.step, 2 * 1024 * 1024);
  assert.equal(k.fmt(4 * 1024 * 1024), '4 MiB');
  const f = byteTicks(1.5 * 1024, 3);
  assert.equal(f.step, 0.5 * 1024);
  assert.equal(f.fmt(512), '0.5 KiB');
});

test('timeTicks: ms for spans under 2 s, else s', () => {
  const ms = timeTicks(0.5, 5);
  assert.equal(ms.step, 0.1);
  assert.equal(ms.fmt(0.2), '200 ms');
  const s = timeTicks(10, 4);
  assert.equal(s.step, 2);
  assert.equal(s.fmt(4), '4 s');
  assert.equal(timeTicks(3, 6).fmt(1.5), '1.5 s');
});

test('labels: cut in the middle, distinct, whole when short', () => {
  assert.equal(midCut('short', 10), 'short');
  assert.equal(midCut('abcdefghijklmnopqrstuvwxyz', 11), 'abcde…vwxyz');
  const hd = ['<Data.Aeson.Parser.Internal.sat_s1abc>', '<Data.Aeson.Parser.Internal.sat_s2abc>',
    '<Data.Aeson.Parser.Internal.jstring_>', '<Data.Aeson.Parser.Internal.value_s1abc>', 'Main.go'];
  const l = shortLabels(hd, 24);
  assert.equal(new Set(l).size, hd.length, 'distinct: ' + l.join(' | '));
  l.forEach((x, k) => assert.ok(x.length <= 24 || x === hd[k], x));
  assert.equal(l[4], 'Main.go');
  assert.ok(l[0].includes('s1') && l[1].includes('s2'), l.join(' | '));
  // names equal at both ends but in the middle: whole names at worst
  const mid = ['aaaaaaaaaaXaaaaaaaaaa', 'aaaaaaaaaaYaaaaaaaaaa'];
  assert.equal(new Set(shortLabels(mid, 12)).size, 2);
});

// The rule's shared test vectors, which tests/test_labels.c checks the C
// chart legend's labels against too: one rule in both.
test('shortLabels: the shared vectors (tests/page/short_labels.txt)', async () => {
  const { readFileSync } = await import('node:fs');
  const text = readFileSync(new URL('./short_labels.txt', import.meta.url), 'utf8');
  let groups = 0;
  for (const block of text.split(/\n\n+/)) {
    const lines = block.split('\n').filter(l => l && !l.startsWith('#'));
    if (!lines.length) continue;
    const max = Number(/^max (\d+)$/.exec(lines[0])[1]);
    const pairs = lines.slice(1).map(l => l.split('\t'));
    assert.deepEqual(shortLabels(pairs.map(p => p[0]), max), pairs.map(p => p[1]), 'max ' + max);
    groups++;
  }
  assert.ok(groups >= 8);
});

test('fitLabels: each label as long as its own room allows, all distinct', async () => {
  const { fitLabels } = await import('../../templates/page/format.mjs');
  const names = ['<GHC.Base.sat_s6PO>', 'MUT_ARR_PTRS_FROZEN_CLEAN', 'I#'];
  // room in characters, the second name's letters twice as wide
  const room = [19, 19, 19], width = (l, k) => (k === 1 ? 2 : 1) * l.length;
  const l = fitLabels(names, (x, k) => width(x, k) <= room[k], 25);
  assert.equal(l[0], '<GHC.Base.sat_s6PO>', 'a short name is not cut for a wide one');
  assert.equal(l[2], 'I#');
  assert.ok(width(l[1], 1) <= 19 && l[1].includes('…'));
  // names sharing both ends: each fits its room, all distinct
  const same = ['aaaaaaaaaaXbbbbbbbbbb', 'aaaaaaaaaaYbbbbbbbbbb', 'aaaaaaaaaaZbbbbbbbbbb'];
  const fits = (x, k) => x.length <= [30, 12, 9][k];
  const m = fitLabels(same, fits, 21);
  assert.equal(new Set(m).size, 3);
  assert.ok(m.every(fits), m.join(' '));
  assert.equal(m[0], same[0]);
});

test('yAxisTop: a round top above the largest value, never on it', () => {
  for (const [ymax, target] of [[450, 8], [10 * 1024 * 1024, 9], [45760, 6], [1000, 5], [9.99, 8], [1, 3], [1024 ** 3, 7]]) {
    const { top, step } = yAxisTop(ymax, target);
    assert.ok(top >= ymax * 1.04, `${ymax}: top ${top} leaves headroom`);
    assert.ok(top <= ymax * 1.04 + step + 1e-6, `${ymax}: top ${top} within a step of it`);
    assert.ok(Math.abs(top / step - Math.round(top / step)) < 1e-9, `${ymax}: top ${top} on a tick of ${step}`);
  }
  assert.equal(yAxisTop(450, 8).top, 500);
  assert.equal(yAxisTop(10 * 1024 * 1024, 5).top, 12 * 1024 * 1024);
  assert.ok(yAxisTop(0, 5).top > 0, 'no data: still an axis');
});
