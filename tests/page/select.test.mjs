// Which bands a view shows (templates/page/select.mjs).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { searchTest, searchError, chooseSeries, nextVisible, newNode, addPath, candidates, admittedBands, legendEntries, orderEntries, whyEmpty, frameAt } from '../../templates/page/select.mjs';
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

test('series: a legend choice shows its bands, cut to nbands like any', () => {
  assert.deepEqual(names(chooseSeries(run(), view({ nbands: 2, visible: new Set(['GHC.Base', 'Data.Set']) }))), ['Data.Set', 'GHC.Base']);
  const ser = chooseSeries(run(), view({ nbands: 1, visible: new Set(['GHC.Base', 'Data.Set']) }));
  assert.deepEqual(names(ser), ['Data.Set', 'OTHER (1 bands)']);
});

test('series: OTHER follows the choice, not only its size', () => {
  const r = run();
  const a = chooseSeries(r, view({ nbands: 1, visible: new Set(['Main.go', 'Data.Map']) }));
  const b = chooseSeries(r, view({ nbands: 1, visible: new Set(['Main.go', 'GHC.Base']) }));
  assert.deepEqual(Array.from(a[1].v), [10, 20]);
  assert.deepEqual(Array.from(b[1].v), [1, 2]);
});

test('search: the error of a bad /regex/, none for good text', () => {
  assert.match(searchError('/(/'), /./);
  assert.equal(searchError('/a+/i'), null);
  assert.equal(searchError('(plain'), null);
  assert.match(whyEmpty('/(/'), /^bad regular expression: ./);
  assert.equal(whyEmpty('nothing'), 'no band matches');
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
  const offered = ['a', 'b', 'c', 'd'];
  const less = nextVisible(null, 'b', true, offered);
  assert.deepEqual([...less].sort(), ['a', 'c', 'd'], 'from the full view: every offered band but b');
  assert.equal(nextVisible(less, 'b', true, offered), null, 'every band again: no choice');
  assert.deepEqual([...less].sort(), ['a', 'c', 'd'], 'the old choice is left alone');
  const one = nextVisible(null, 'a', false, offered);
  assert.deepEqual([...nextVisible(one, 'c', true, offered)].sort(), ['a', 'c'], 'after isolating a, ctrl-click adds c');
  assert.equal(nextVisible(new Set(['a']), 'a', true, offered), null, 'none left: all');
});

test('legend: entries never disappear, largest first, the choice on', () => {
  const r = run();
  const offered = candidates(r, view());
  assert.deepEqual(offered.map(b => b.name), ['Main.go', 'Data.Map', 'Data.Set', 'GHC.Base']);
  const all = legendEntries(offered, null, 0);
  assert.deepEqual(all.map(e => [e.band.name, e.on]), [['Main.go', true], ['Data.Map', true], ['Data.Set', true], ['GHC.Base', true]]);
  const vis = new Set(['Data.Map']);
  assert.deepEqual(legendEntries(candidates(r, view({ visible: vis })), vis, 0).map(e => [e.band.name, e.on]),
    [['Main.go', false], ['Data.Map', true], ['Data.Set', false], ['GHC.Base', false]]);
  assert.deepEqual(legendEntries(offered, new Set(['GHC.Base']), 2).map(e => [e.band.name, e.on]),
    [['Main.go', false], ['Data.Map', false], ['GHC.Base', true]], 'a chosen band past the cut is listed');
});

test('cost centres: a frame admits its subtree by stack prefix over all samples', () => {
  // frames: 0 Main.CAF, 1 Main.main, 2 Main.lazy, 3 Main.other; stacks innermost first
  const r = makeRun({
    t: [0, 1000000, 2000000],
    frames: ['Main.CAF', 'Main.main', 'Main.lazy', 'Main.other'],
    bands: [
      { n: 'main', v: [5, 50, 5], bs: 20, s: [1, 0] },
      { n: 'lazy/main', v: [9, 0, 0], bs: 9, s: [2, 1, 0] }, // nothing at the peak sample
      { n: 'lazy/other', v: [1, 1, 1], bs: 2, s: [2, 3, 0] }, // the same leaf elsewhere
      { n: 'other', v: [1, 1, 1], bs: 2, s: [3, 0] }
    ]
  });
  const adm = v => admittedBands(r, view(v)).map(b => b.name);
  assert.deepEqual(adm({ ccPath: ['Main.CAF', 'Main.main'] }), ['main', 'lazy/main']);
  assert.deepEqual(adm({ ccPath: ['Main.CAF', 'Main.main', 'Main.lazy'] }), ['lazy/main']);
  assert.deepEqual(adm({ ccPath: ['Main.CAF'] }), ['main', 'lazy/main', 'lazy/other', 'other']);
  assert.deepEqual(adm({ ccPath: ['Main.CAF', 'Main.main'], search: 'lazy' }), ['lazy/main']);
  assert.deepEqual(adm({ ccPath: ['Main.CAF', 'Main.main'], visible: new Set(['main', 'other']) }), ['main']);
  assert.deepEqual(adm({ ccPath: [] }).length, 4);
});

test('cost centres: the icicle tree sums its paths', () => {
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
});

test('legend: largest peak first by size, else the chart\'s order', () => {
  const e = (name, pk, sd) => ({ band: { name, bs: 0, sd }, pk });
  const order = sort => orderEntries([e('b', 1, 3), e('c', 9, 1), e('a', 5, 2)], sort).map(x => x.band.name);
  assert.deepEqual(order('size'), ['c', 'a', 'b']);
  assert.deepEqual(order('name'), ['a', 'b', 'c']);
  assert.deepEqual(order('stddev'), ['b', 'a', 'c']);
});

test('frameAt: a thin frame is reached near it, a wide one under the pointer', () => {
  // 300 px: a wide frame, a 1-px frame at 200 px, blank, a wide one
  const px = 1 / 300, min = 8 * px;
  const row = [{ id: 'a', x0: 0, w: 200 * px }, { id: 'thin', x0: 200 * px, w: px }, { id: 'b', x0: 240 * px, w: 60 * px }];
  const at = x => (frameAt(row, x * px, min) || {}).id;
  assert.equal(at(100), 'a');
  assert.equal(at(200.5), 'thin');
  assert.equal(at(197), 'thin', '3 px left of it, over its wide neighbour');
  assert.equal(at(204), 'thin', '3.5 px right of it, over nothing');
  assert.equal(at(195), 'a', 'farther away the wide frame keeps its edge');
  assert.equal(at(220), undefined, 'blank');
  assert.equal(at(250), 'b');
  // two thin frames: the nearer
  const two = [{ id: 'p', x0: 10 * px, w: px }, { id: 'q', x0: 14 * px, w: px }];
  assert.equal((frameAt(two, 11 * px, min) || {}).id, 'p');
  assert.equal((frameAt(two, 14 * px, min) || {}).id, 'q');
});
