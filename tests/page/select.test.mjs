// Which bands a view shows (templates/page/select.mjs).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { searchTest, chooseSeries, nextVisible, newNode, addPath, subtreeBands } from '../../templates/page/select.mjs';
import { makeRun } from './helpers.mjs';

const view = o => ({ search: '', visible: null, nbands: 0, sort: 'size', ...o });
const names = ser => ser.map(s => s.name);

// bs (byte-seconds) and sd decide the order; values are per sample
const run = () => makeRun({
  t: [0, 1000000],
  bands: [
    { n: 'Data.Map', v: [10, 20], bs: 15, sd: 1 },
    { n: 'GHC.Base', v: [1, 2], bs: 1.5, sd: 9 },
    { n: 'Main.go', v: [30, 40], bs: 35, sd: 5 },
    { n: 'ARR_WORDS', v: [100, 100], bs: 100, x: true },
    { n: 'Data.Set', v: [4, 6], bs: 5, sd: 3 }
  ]
});

test('search: a case-blind substring', () => {
  const t = searchTest('  data.');
  assert.equal(t('Data.Map'), true);
  assert.equal(t('GHC.Base'), false);
  assert.equal(searchTest('   '), null);
});

test('search: /regex/flags, and a broken regex keeps nothing', () => {
  assert.equal(searchTest('/^Data\\.(Map|Set)$/')('Data.Set'), true);
  assert.equal(searchTest('/^data/')('Data.Map'), false);
  assert.equal(searchTest('/^data/i')('Data.Map'), true);
  assert.equal(searchTest('/(/')('('), false);
});

test('series: by byte-seconds, excluded bands left out', () => {
  assert.deepEqual(names(chooseSeries(run(), view())), ['Main.go', 'Data.Map', 'Data.Set', 'GHC.Base']);
});

test('series: the search chooses, regex or substring', () => {
  assert.deepEqual(names(chooseSeries(run(), view({ search: 'data' }))), ['Data.Map', 'Data.Set']);
  assert.deepEqual(names(chooseSeries(run(), view({ search: '/o$/' }))), ['Main.go']);
});

test('series: past nbands the rest is one OTHER series, summed', () => {
  const ser = chooseSeries(run(), view({ nbands: 2 }));
  assert.deepEqual(names(ser), ['Main.go', 'Data.Map', 'OTHER (2 bands)']);
  assert.deepEqual(Array.from(ser[2].v), [5, 8]);
  assert.equal(ser[2].band, null);
  assert.deepEqual(ser[2].members.map(b => b.name), ['Data.Set', 'GHC.Base']);
});

test('series: a legend choice shows exactly its bands, no OTHER', () => {
  const ser = chooseSeries(run(), view({ nbands: 1, visible: new Set(['GHC.Base', 'Data.Set']) }));
  assert.deepEqual(names(ser), ['Data.Set', 'GHC.Base']);
});

test('series: sorted by name or by standard deviation', () => {
  assert.deepEqual(names(chooseSeries(run(), view({ sort: 'name' }))), ['Data.Map', 'Data.Set', 'GHC.Base', 'Main.go']);
  assert.deepEqual(names(chooseSeries(run(), view({ sort: 'stddev' }))), ['GHC.Base', 'Main.go', 'Data.Set', 'Data.Map']);
});

test('legend: a click shows one band, a second click all again', () => {
  const one = nextVisible(null, 'a', false, ['a', 'b', 'c']);
  assert.deepEqual([...one], ['a']);
  assert.equal(nextVisible(one, 'a', false, ['a']), null);
  assert.deepEqual([...nextVisible(one, 'b', false, ['a'])], ['b']);
});

test('legend: a modified click takes from or adds to the choice', () => {
  const shown = ['a', 'b', 'c'];
  const less = nextVisible(null, 'b', true, shown);
  assert.deepEqual([...less].sort(), ['a', 'c']);
  const more = nextVisible(less, 'b', true, shown);
  assert.deepEqual([...more].sort(), ['a', 'b', 'c']);
  assert.deepEqual([...less].sort(), ['a', 'c'], 'the old choice is left alone');
  assert.equal(nextVisible(new Set(['a']), 'a', true, shown), null, 'none left: all');
});

test('cost centres: a frame admits the bands of its subtree', () => {
  const frames = ['main', 'go', 'loop', 'other'];
  const root = newNode('all', []);
  const b = n => ({ name: n });
  addPath(root, [0, 1], frames, 10, b('main/go'));
  addPath(root, [0, 1, 2], frames, 5, b('main/go/loop'));
  addPath(root, [0, 3], frames, 2, b('main/other'));
  assert.equal(root.w, 17);
  const main = root.kids.get('main'), go = main.kids.get('go');
  assert.equal(main.w, 17);
  assert.equal(go.w, 15);
  assert.deepEqual(go.kids.get('loop').path, ['main', 'go', 'loop']);
  assert.deepEqual([...subtreeBands(go)].sort(), ['main/go', 'main/go/loop']);
  assert.deepEqual([...subtreeBands(root)].sort(), ['main/go', 'main/go/loop', 'main/other']);
  assert.equal(subtreeBands(newNode('x', ['x'])), null);
});
