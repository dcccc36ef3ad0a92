/*
 * The Bands table for leak hunting (issue 25, items 7, 8 and 10): module
 * and source columns on a real -hc log, -hi provenance as columns on a
 * written -hi log (tests/hilog.c), every column sortable, grouping by
 * module, growth sorts putting the known growing bands first, and the
 * chart's "growing" quick filter admitting exactly the bands the library
 * says still grow. Called from page_test.js with its helpers.
 */
'use strict';
const path = require('path');
const { execFileSync } = require('child_process');

const heads = page => page.evaluate(() => [...document.querySelectorAll('.thead span')].map(s => s.dataset.key));
// the rows' cells as text, by column key
const rows = page => page.evaluate(() => [...document.querySelectorAll('.tbody .trow')].map(r => (r.classList.contains('tgroup')
  ? { group: r.dataset.group }
  : Object.fromEntries([...r.children].map(c => [c.className.split(' ')[0].slice(2), c.textContent])))));

async function sortBy(h, page, key) {
  await page.click(`.thead span[data-key="${key}"]`);
  await h.settle(page);
  return page.evaluate(() => window.heapscope.state.tableSort);
}

// Each sortable column sorts, both ways, by its own values.
async function sortsCheck(h, page, tag) {
  for (const key of await heads(page)) {
    if (key === 'sw' || key === 'sp') continue;
    let st = await sortBy(h, page, key);
    if (st[0] !== key) { h.check(false, `${tag}: a click on ${key} sorts by it`); continue; }
    const a = (await rows(page)).map(r => r[key]);
    st = await sortBy(h, page, key);
    const b = (await rows(page)).map(r => r[key]);
    // ties (main and MAIN, two 0 B/s) read the same either way
    const low = x => x.map(v => v.toLowerCase()).join('\n');
    h.check(a.length > 1 && new Set(a).size > 1 && low(a) === low(b.slice().reverse()),
      `${tag}: ${key} sorts both ways (${a} / ${b})`);
  }
}

async function hcCheck(h, page) {
  const { check, settle } = h;
  await page.click('nav.tabs button[data-tab="bands"]');
  await settle(page);
  const keys = await heads(page);
  check(['module', 'src', 'gr', 'late', 'grows'].every(k => keys.includes(k)), 'leak-hc: module, source and growth columns: ' + keys);
  const r = (await rows(page)).find(x => x.name === 'label/records/main/Main.CAF');
  check(r && r.module === 'Main' && r.src === 'leak.hs:41:1-26', 'leak-hc: label/records has its module and source ' + JSON.stringify(r));
  await sortsCheck(h, page, 'leak-hc');
  await page.selectOption('select[aria-label="group the table"]', 'module');
  await settle(page);
  const g = await rows(page);
  const groups = g.filter(x => x.group).map(x => x.group);
  check(groups.includes('Main') && groups.includes('SYSTEM'), 'leak-hc: grouped by module: ' + groups);
  // every band row sits under its module's header
  let cur = null, ok = true;
  for (const x of g) { if (x.group) cur = x.group; else if ((x.module || '(none)') !== cur) ok = false; }
  check(ok, 'leak-hc: each band under its module');
  await page.selectOption('select[aria-label="group the table"]', '');
  await page.fill('input[aria-label="filter the table"]', 'module:GHC.Float');
  await settle(page);
  const f = await rows(page);
  check(f.length === 1 && f[0].module === 'GHC.Float', 'leak-hc: module:GHC.Float filters to its band');
  await page.fill('input[aria-label="filter the table"]', '');
  await settle(page);
}

async function hiCheck(h, browser, file) {
  const { check, settle, open } = h;
  const { page, log } = await open(browser, file);
  await page.click('nav.tabs button[data-tab="bands"]');
  await settle(page);
  const keys = await heads(page);
  check(['table', 'desc', 'type', 'label', 'module', 'src'].every(k => keys.includes(k)) && !keys.includes('name'),
    '-hi: info table, closure, type, label, module and source as columns: ' + keys);
  const leaky = (await rows(page)).find(x => x.table === 'leaky_info');
  check(leaky && leaky.desc === 'THUNK' && leaky.type === 'Map Int [Char]' && leaky.label === 'leaky' &&
    leaky.module === 'Leak' && leaky.src === 'Leak.hs:6:34-37', '-hi: leaky_info\'s record in its columns ' + JSON.stringify(leaky));
  await sortsCheck(h, page, '-hi');
  // growth over the run: leaky_info first; over the last third: late_info
  for (const [key, first] of [['gr', 'leaky_info'], ['late', 'late_info']]) {
    let st = await sortBy(h, page, key);
    if (st[1] > 0) st = await sortBy(h, page, key);
    const top = (await rows(page))[0];
    check(top && top.table === first, `-hi: sorted by ${key}, largest first, ${first} leads (${top && top.table})`);
  }
  await page.selectOption('select[aria-label="group the table"]', 'file');
  await settle(page);
  const groups = (await rows(page)).filter(x => x.group).map(x => x.group).sort();
  check(groups.join() === '(none),Leak.hs,src/Data/Cache.hs', '-hi: grouped by source file: ' + groups);
  await page.selectOption('select[aria-label="group the table"]', 'module');
  await settle(page);
  const mods = (await rows(page)).filter(x => x.group).map(x => x.group).sort();
  check(mods.join() === '(none),Data.Cache,Leak', '-hi: grouped by module: ' + mods);
  await page.fill('input[aria-label="filter the table"]', 'closure:THUNK module:Leak');
  await settle(page);
  const th = (await rows(page)).filter(x => !x.group).map(x => x.table).sort();
  check(th.join() === 'drain_info,late_info,leaky_info', '-hi: filtered by closure and module: ' + th);
  // the quick filter admits exactly the bands the library says still grow
  const want = JSON.parse(execFileSync(process.env.HEAPSCOPE_PAGE_TOOL, ['data', h.hilogFile]).toString())
    .bands.filter(b => b.gr[3]).map(b => b.n).sort();
  await page.click('nav.tabs button[data-tab="chart"]');
  await page.click('.controls button.growing');
  await settle(page);
  const got = (await page.evaluate(() => window.heapscope.admitted())).sort();
  check(want.length === 2 && got.join('\n') === want.join('\n'), '-hi: "growing" admits exactly ' + want + ': ' + got);
  check(got.some(n => n.startsWith('leaky_info')) && got.some(n => n.startsWith('late_info')), '-hi: the known growing bands');
  await page.click('.controls button.growing');
  await settle(page);
  check((await page.evaluate(() => window.heapscope.admitted())).length === 7, '-hi: "growing" again: every band');
  check(log.errors.length === 0, '-hi: no console errors: ' + log.errors.join('; '));
  await page.close();
}

// The zoomed legend at 1280 px: a name that fits its entry reads whole,
// however wide another entry's name (-hd's MUT_ARR_PTRS_FROZEN_CLEAN).
async function zoomedLegendCheck(h, browser) {
  const dir = h.report('leak-hd');
  const { page, log } = await h.open(browser, path.join(dir, 'leak-hd.html'));
  await page.evaluate(() => window.heapscope.setWindow(0.3, 0.6));
  await h.settle(page);
  const got = await page.evaluate(() => [...document.querySelectorAll('.legend li.band .nm')].map(s => ({
    name: s.parentNode.dataset.name, label: s.textContent, fits: s.scrollWidth <= s.clientWidth })));
  const base = got.find(g => g.name === '<GHC.Base.sat_s6PO>');
  h.check(base && base.label === base.name, 'leak-hd zoomed: <GHC.Base.sat_s6PO> reads whole: ' + (base && base.label));
  h.check(got.length > 10 && got.every(g => g.fits), 'leak-hd zoomed: every label fits its entry');
  h.check(new Set(got.map(g => g.label)).size === got.length, 'leak-hd zoomed: every label distinct');
  h.check(log.errors.length === 0, 'leak-hd zoomed: no console errors: ' + log.errors.join('; '));
  await page.close();
}

async function bandsCheck(browser, h) {
  await zoomedLegendCheck(h, browser);
  const dir = h.report('leak-hc');
  const { page, log } = await h.open(browser, path.join(dir, 'leak-hc.html'));
  await hcCheck(h, page);
  h.check(log.errors.length === 0, 'bands: no console errors: ' + log.errors.join('; '));
  await page.close();
  const hilog = path.join(h.tmp, 'hi.eventlog');
  execFileSync(process.env.HEAPSCOPE_HILOG, [hilog]);
  const hidir = h.report('hi', [], hilog);
  await hiCheck({ ...h, hilogFile: hilog }, browser, path.join(hidir, 'hi.html'));
}

module.exports = { bandsCheck };
