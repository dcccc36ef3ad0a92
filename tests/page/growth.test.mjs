// Band growth (growth.mjs) and the band table's columns, filter and groups
// (columns.mjs). Over a whole run the page's growth rule must give the C
// library's figures (hs_census_band_growth, the data document's `gr`),
// which the page shows; it computes a zoomed window's itself.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { loadRun } from '../../templates/page/decode.mjs';
import { fileOf, growingTest, growthWithin, slope } from '../../templates/page/growth.mjs';
import { bandTitle, filterTest, filterWord, groupRows, sortValue, tableColumns } from '../../templates/page/columns.mjs';
import { makeRun } from './helpers.mjs';

const tool = process.env.HEAPSCOPE_PAGE_TOOL;
const sample = name => fileURLToPath(new URL('../../samples/' + name, import.meta.url));

test('slope: least squares, 0 under two samples or half a byte', () => {
  const t = [0, 1, 2, 3, 4, 5, 6];
  assert.equal(slope(t, [100, 200, 300, 400, 500, 600, 700], 0, 7), 100);
  assert.ok(Math.abs(slope(t, [0, 0, 1000, 0, 0, 10, 20], 0, 7) - -920 / 28) < 1e-9);
  assert.equal(slope(t, [0, 0, 1000, 0, 0, 10, 20], 4, 7), 10);
  assert.equal(slope(t, [5, 5, 5, 5, 5, 5, 5], 0, 7), 0);
  assert.equal(slope(t, [1, 2], 0, 1), 0);
  assert.equal(slope([0, 10], [0, 0.04], 0, 2), 0); // 0.04 B over the span: rounding
});

// The C unit test's log (tests/test_growth.c) as a page run.
const grow = () => makeRun({
  t: [0, 1e6, 2e6, 3e6, 4e6, 5e6, 6e6], end: 6e6, bands: [
    { n: 'grow', v: [100, 200, 300, 400, 500, 600, 700] }, { n: 'flat', v: [500, 500, 500, 500, 500, 500, 500] },
    { n: 'spike', v: [0, 0, 1000, 0, 0, 10, 20] }, { n: 'gone', v: [300, 300, 300, 300, 0, 0, 0] }]
});

test('growthWithin: the library\'s rule over a window', () => {
  const run = grow(), [g, f, s, z] = run.bands.map(b => growthWithin(run, b, [0, 6]));
  assert.deepEqual(g, { run: 100, late: 100, last: 700, growing: true });
  assert.equal(f.growing, false);
  assert.equal(s.late, 10);
  assert.equal(s.growing, false, 'rises at the end but stays below its mean');
  assert.equal(z.late, 0);
  assert.equal(z.growing, false);
  // a window: 0 s to 3 s, its last third 2 s to 3 s
  const w = growthWithin(run, run.bands[2], [0, 3]);
  assert.equal(w.late, -1000);
  assert.equal(w.growing, false);
  assert.deepEqual(run.bands.filter(growingTest(run, [0, 6])).map(b => b.name), ['grow']);
});

for (const name of ['leak-hc.eventlog', 'manycc-hc.eventlog', 'markers-hc.eventlog']) {
  test('whole run of ' + name + ': the page\'s growth rule gives the C figures', { skip: !tool && 'no page_tool' }, () => {
    const d = JSON.parse(execFileSync(tool, ['data', sample(name)], { encoding: 'utf8', maxBuffer: 1 << 28 }));
    assert.equal(d.exact, true);
    const run = loadRun(d);
    let growing = 0;
    for (const b of run.bands) {
      const mine = growthWithin(run, b, [0, run.end]), theirs = b.growth;
      // slopes are written with 7 significant digits; times in microseconds
      const near = (x, y) => Math.abs(x - y) <= 1e-4 * Math.max(1, Math.abs(y));
      assert.ok(near(mine.run, theirs.run), b.name + ': growth ' + mine.run + ' vs ' + theirs.run);
      assert.ok(near(mine.late, theirs.late), b.name + ': late growth ' + mine.late + ' vs ' + theirs.late);
      assert.equal(mine.last, theirs.last, b.name + ': last bytes');
      assert.equal(mine.growing, theirs.growing, b.name + ': still growing');
      growing += theirs.growing;
    }
    assert.ok(growing > 0, 'some band grows at the end');
  });
}

test('fileOf: the file of a source location', () => {
  assert.equal(fileOf('Leak.hs:6:34-37'), 'Leak.hs');
  assert.equal(fileOf('leak.hs:(57,1)-(62,68)'), 'leak.hs');
  assert.equal(fileOf('src/Data/Cache.hs:20:3-30'), 'src/Data/Cache.hs');
  assert.equal(fileOf('<built-in>'), '<built-in>');
  assert.equal(fileOf(''), '');
});

// A -hi run: IPE fields as columns, filters by column, groups by module.
const hiRun = () => {
  const run = makeRun({ t: [0, 1e6], end: 1e6, bands: [{ n: 'a', v: [1, 2] }, { n: 'b', v: [5, 5] }, { n: 'c', v: [3, 1] }] });
  const ip = [['leaky_info', 'THUNK', 'Map Int [Char]', 'leaky', 'Leak', 'Leak.hs:6:34-37'],
    ['cache_info', 'CONSTR', 'Cache', 'Cache', 'Data.Cache', 'src/Data/Cache.hs:20:3-30'], null];
  run.bands.forEach((b, k) => {
    if (!ip[k]) return;
    const [table, desc, type, label, module, src] = ip[k];
    Object.assign(b, { ipe: { table, desc, type, label, module, src }, module, src });
  });
  return run;
};

test('tableColumns: -hi fields as columns, -hc module and source', () => {
  const keys = tableColumns(hiRun()).map(c => c.key);
  assert.deepEqual(keys, ['sw', 'table', 'desc', 'type', 'label', 'module', 'src', 'pk', 'pt', 'bs', 'gr', 'late', 'grows', 'sp']);
  const plain = makeRun({ t: [0], bands: [{ n: 'x', v: [1] }] });
  assert.deepEqual(tableColumns(plain).map(c => c.key), ['sw', 'name', 'pk', 'pt', 'bs', 'gr', 'late', 'grows', 'sp']);
  const cols = tableColumns(hiRun());
  const table = cols.find(c => c.key === 'table').text;
  assert.deepEqual(hiRun().bands.map(table), ['leaky_info', 'cache_info', 'c'], 'a band without a record keeps its name');
});

test('filterTest: words, key:value, quoted values', () => {
  const run = hiRun(), cols = tableColumns(run);
  const names = q => run.bands.filter(filterTest(cols, q) || (() => true)).map(b => b.name);
  assert.equal(filterTest(cols, '  '), null);
  assert.deepEqual(names('module:data.cache'), ['b']);
  assert.deepEqual(names('file:Leak.hs'), ['a']);
  assert.deepEqual(names('THUNK'), ['a']);
  assert.deepEqual(names('type:"Map Int"'), ['a']);
  assert.deepEqual(names(filterWord('type', 'Map Int [Char]')), ['a']);
  assert.deepEqual(names('module:Leak cache'), []);
  assert.deepEqual(names('leaky_info'), ['a']);
});

test('groupRows: groups by module with summed figures, ordered by the key', () => {
  const run = hiRun();
  const rows = run.bands.map((b, k) => ({ b, pk: [2, 5, 3][k], pt: 0, bs: [1, 5, 2][k], share: [0.125, 0.625, 0.25][k],
    growth: { run: [1, 0, -2][k], late: [1, 0, -2][k], last: 0, growing: k === 0 } }));
  const cols = tableColumns(run);
  const out = groupRows(rows, 'module', sortValue(cols, 'bs'), -1, false);
  assert.deepEqual(out.map(x => (x.group ? '#' + x.name : x.b.name)), ['#Data.Cache', 'b', '#(none)', 'c', '#Leak', 'a']);
  assert.equal(out[0].share, 0.625);
  assert.equal(out[4].growing, 1);
  const byLate = groupRows(rows, '', sortValue(cols, 'late'), -1, false);
  assert.deepEqual(byLate.map(x => x.b.name), ['a', 'b', 'c']);
  const byName = groupRows(rows, 'file', sortValue(cols, 'table'), 1, true);
  assert.deepEqual(byName.map(x => (x.group ? '#' + x.name : x.b.name)), ['#(none)', 'c', '#Leak.hs', 'a', '#src/Data/Cache.hs', 'b']);
});

test('provenance: a -hc band\'s innermost cost centre, a -hi band\'s IPE record', async () => {
  const { provenance } = await import('../../templates/page/decode.mjs');
  const info = [{ module: 'Main', label: 'main', src: 'leak.hs:(57,1)-(62,68)' }, { module: 'Main', label: 'records', src: 'leak.hs:38:1-42' }];
  // stacks are innermost first in the document
  assert.deepEqual(provenance({ s: [1, 0] }, info), { module: 'Main', src: 'leak.hs:38:1-42', cc: 'records' });
  assert.deepEqual(provenance({}, info), { module: '', src: '' });
  const p = provenance({ ip: ['leaky_info', 'THUNK', 'Map Int [Char]', 'leaky', 'Leak', 'Leak.hs:6:34-37'] }, info);
  assert.equal(p.module, 'Leak');
  assert.equal(p.src, 'Leak.hs:6:34-37');
  assert.deepEqual(p.ipe, { table: 'leaky_info', desc: 'THUNK', type: 'Map Int [Char]', label: 'leaky', module: 'Leak', src: 'Leak.hs:6:34-37' });
});

test('bandTitle: the full name, then its module and source as the tooltips give them', () => {
  assert.equal(bandTitle({ name: 'leak/main/Main.CAF', module: 'Main', src: 'Leak.hs:6:34-37' }), 'leak/main/Main.CAF\nMain, Leak.hs:6:34-37');
  assert.equal(bandTitle({ name: 'ARR_WORDS', module: '', src: '' }), 'ARR_WORDS');
  assert.equal(bandTitle({ name: 'x' }), 'x');
});
