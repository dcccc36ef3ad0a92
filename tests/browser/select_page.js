/*
 * Choosing bands on the report page (issue 25, items 1 to 5): a
 * cost-centre frame admits its whole subtree over every sample whatever
 * the icicle's weighting (checked against `folded --weight integral`);
 * the legend lists the largest first and never loses an entry, each a
 * checkbox reached by Tab and worked by Space and Enter, with an
 * "n of m shown" state; the readout never describes a band a filter hid
 * and says why the chart is empty, once, outside the plot; legend labels
 * read distinct, their hover naming the band's source.
 * Called from page_test.js with its helpers.
 */
'use strict';
const path = require('path');
const { execFileSync } = require('child_process');

const drawn = page => page.evaluate(() => window.heapscope.drawn[0]);
const admitted = page => page.evaluate(() => window.heapscope.admitted());
const legend = page => page.evaluate(() => [...document.querySelectorAll('.legend li.band')]
  .map(li => ({ name: li.dataset.name, on: li.getAttribute('aria-checked') === 'true', pk: Number(li.dataset.peak), tab: li.tabIndex })));
const lstate = page => page.evaluate(() => document.querySelector('.lstate').textContent);
const same = (a, b) => a.length === b.length && [...a].sort().every((x, i) => x === [...b].sort()[i]);

// Item 1: in "bytes at the peak sample" mode a frame admits every band
// whose stack starts with its path, present at the peak sample or not.
async function subtreeCheck(h, page, name, csv) {
  const { check, bin, samples, settle } = h;
  const folded = execFileSync(bin, ['folded', '--weight', 'integral', path.join(samples, name + '.eventlog')]).toString()
    .trim().split('\n').map(l => l.replace(/ \d+$/, '').split(';'));
  // the peak sample: the largest total in the CSV
  let peakT = null, peak = -1;
  for (const [t, bands] of csv) { const s = [...bands.values()].reduce((a, b) => a + b, 0); if (s > peak) { peak = s; peakT = t; } }
  await page.click('nav.tabs button[data-tab="flame"]');
  await settle(page);
  check(await page.inputValue('select[aria-label="flame weight"]') === 'peak', 'the icicle starts weighted by the peak sample');
  const frames = await page.evaluate(() => [...document.querySelectorAll('.frame')].map(f => JSON.parse(f.dataset.path)));
  let tried = 0;
  for (const p of frames.filter(f => f.length >= 1)) {
    const want = folded.filter(st => st.length >= p.length && p.every((f, k) => st[k] === f)).length;
    await page.evaluate(q => [...document.querySelectorAll('.frame')].find(f => f.dataset.path === JSON.stringify(q)).click(), p);
    await settle(page);
    const got = await admitted(page);
    check(got.length === want, `${name}: frame ${p.join(' > ')} admits ${got.length} bands, folded has ${want} stacks under it`);
    const off = got.filter(n => !(csv.get(peakT) || new Map()).get(n));
    if (off.length) tried++;
    const d = (await drawn(page)).filter(n => !n.startsWith('OTHER'));
    check(d.every(n => got.includes(n)), `${name}: the chart draws only admitted bands under ${p.join(' > ')}`);
    await page.click('nav.tabs button[data-tab="flame"]');
    await page.click('.crumbs button:text("all")');
    await settle(page);
  }
  check(tried > 0, `${name}: some frame admits a band absent at the peak sample (${peakT} s)`);
  await page.click('nav.tabs button[data-tab="chart"]');
  await page.click('.controls button:text("all")');
  await settle(page);
}

// Items 3 and 4: the legend as checkboxes, largest first, entries kept.
async function legendEntriesCheck(h, page) {
  const { check, settle } = h;
  const all = await legend(page);
  const m = (await admitted(page)).length;
  check(all.length >= 2, `the legend lists bands (${all.length})`);
  check(all.every((e, k) => k === 0 || all[k - 1].pk >= e.pk), `the legend lists the largest first (${all.map(e => e.pk)})`);
  check(all.every(e => e.on && e.tab === 0), 'every entry starts checked and reachable by Tab');
  // the hover names where a band comes from, as the tooltips do
  const titles = await page.evaluate(() => [...document.querySelectorAll('.legend li.band')].map(li => {
    const b = window.heapscope.runs[0].bands.find(x => x.name === li.dataset.name);
    return { title: li.title, name: b.name, where: [b.module, b.src].filter(Boolean).join(', ') };
  }));
  check(titles.some(t => t.where) && titles.every(t => t.title === t.name + (t.where ? '\n' + t.where : '')),
    'a legend entry\'s hover shows its module and source: ' + JSON.stringify(titles.slice(0, 2)));
  check(new RegExp('all ' + m + ' bands shown').test(await lstate(page)), `the state says all ${m} bands shown: "${await lstate(page)}"`);
  const [a, b, c] = all.map(e => e.name);
  const li = n => `.legend li[data-name="${n.replace(/["\\]/g, '\\$&')}"]`;
  await page.click(li(a));
  await settle(page);
  let now = await legend(page);
  check(now.length === all.length, `a click isolating ${a} keeps every entry (${now.length} of ${all.length})`);
  check(same(now.filter(e => e.on).map(e => e.name), [a]), 'only the clicked entry is checked');
  check(new RegExp('1 of ' + m + ' bands shown').test(await lstate(page)), `the state says 1 of ${m}: "${await lstate(page)}"`);
  await page.click(li(b), { modifiers: ['Control'] });
  await settle(page);
  check(same(await admitted(page), [a, b]), `ctrl-click after isolating adds ${b}: ${await admitted(page)}`);
  check(same(await drawn(page), [a, b]), 'and the chart draws both');
  // the keyboard: Tab reaches the legend, Space adds, Enter isolates
  await page.focus('.controls button:text("reset zoom")');
  let reached = false;
  for (let k = 0; k < 12 && !reached; k++) {
    await page.keyboard.press('Tab');
    reached = await page.evaluate(() => !!document.activeElement.closest('.legend'));
  }
  check(reached, 'Tab reaches the legend');
  if (c) {
    await page.focus(li(c));
    await page.keyboard.press(' ');
    await settle(page);
    check(same(await admitted(page), [a, b, c]), `Space adds ${c}: ${await admitted(page)}`);
    check(await page.evaluate(() => document.activeElement.dataset.name) === c, 'the focus stays on the entry');
    await page.keyboard.press('Enter');
    await settle(page);
    check(same(await admitted(page), [c]), `Enter shows ${c} alone: ${await admitted(page)}`);
  }
  await page.click('.lstate button');
  await settle(page);
  check((await admitted(page)).length === m, '"show all" admits every band again');
  // a ctrl-click from the full view takes one band away and keeps its entry
  await page.click(li(a), { modifiers: ['Control'] });
  await settle(page);
  now = await legend(page);
  const adm = await admitted(page);
  check(adm.length === m - 1 && !adm.includes(a), `ctrl-click from the full view takes ${a} away (${adm.length} of ${m})`);
  check(now.some(e => e.name === a && !e.on), `${a} stays in the legend, unchecked`);
  await page.click('.controls button:text("all")');
  await settle(page);
}

// How many elements' own text says `what` (the page's visible text).
const saidTimes = (page, what) => page.evaluate(w => [...document.querySelectorAll('body *')]
  .filter(e => [...e.childNodes].some(n => n.nodeType === 3 && n.textContent.includes(w)) && e.getClientRects().length).length, what);
// Whether the bands' canvas has any ink strictly inside its plot box.
const plotInked = page => page.evaluate(() => {
  const cv = document.querySelector('canvas.bands'), g = window.heapscope.geo(0), dpr = cv.width / cv.clientWidth;
  const d = cv.getContext('2d').getImageData(Math.round((64 + 3) * dpr), Math.round((10 + 3) * dpr),
    Math.round((g.pw - 6) * dpr), Math.round((g.ph - 6) * dpr)).data;
  for (let i = 3; i < d.length; i += 4) if (d[i] > 0) return true;
  return false;
});

// Item 5: the readout and the empty chart under a filter.
async function readoutCheck(h, page) {
  const { check, settle } = h;
  const a = (await drawn(page))[0];
  const box = await page.locator('.plot:not(.lines):not(.ov)').first().boundingBox();
  const g = await page.evaluate(() => window.heapscope.geo());
  await page.mouse.move(box.x + 64 + g.pw * 0.97, box.y + 10 + g.ph - 2);
  const before = await page.evaluate(() => (document.querySelector('.readout .uname') || {}).textContent);
  check(!!before, `hovering names a band (${before})`);
  await page.mouse.move(0, 0);
  await page.fill('.controls input[type=search]', '/^(?!' + before.replace(/[.*+?^${}()|[\]\\]/g, '\\$&') + '$)/');
  await settle(page);
  const after = await page.evaluate(() => document.querySelector('.readout').textContent);
  check(!after.includes(before), `the readout forgets ${before} once the search hides it ("${after}")`);
  await page.fill('.controls input[type=search]', 'zzqq-no-such-band');
  await settle(page);
  check(/no band matches/.test(await page.textContent('.readout')), 'no match: the readout says "no band matches"');
  check(await saidTimes(page, 'no band matches') === 1, 'and only there');
  await page.fill('.controls input[type=search]', '/(/');
  await settle(page);
  check(/bad regular expression: \S/.test(await page.textContent('.readout')), `a bad regex says so: "${await page.textContent('.readout')}"`);
  // once, readable, outside the plot: not drawn into the canvas, not
  // repeated by the legend, wrapped whole at 390 px
  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: 900 });
    await settle(page);
    check(await saidTimes(page, 'bad regular expression') === 1, `${width} px: the bad regex is said once (${await saidTimes(page, 'bad regular expression')})`);
    check(!(await plotInked(page)), `${width} px: nothing is drawn inside the empty plot`);
    const why = await page.evaluate(() => { const e = document.querySelector('.readout .why'), r = e.getBoundingClientRect();
      return { fits: e.scrollWidth <= e.clientWidth + 1 && r.right <= window.innerWidth, size: parseFloat(getComputedStyle(e).fontSize) }; });
    check(why.fits && why.size >= 11, `${width} px: the message reads whole (${JSON.stringify(why)})`);
  }
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.fill('.controls input[type=search]', '');
  await settle(page);
  check((await drawn(page))[0] === a, 'clearing the search draws the bands again');
}

// Item 2: every legend label reads whole and distinct, cut (if at all) in
// the middle, the full name on hover, at 1280 and 390 px.
async function labelsCheck(browser, h, name) {
  const file = path.join(h.report(name), name + '.html');
  for (const width of [1280, 390]) {
    const { page } = await h.open(browser, file, width);
    const got = await page.evaluate(() => [...document.querySelectorAll('.legend li.band')].map(li => {
      const nm = li.querySelector('.nm');
      return { name: li.dataset.name, title: li.title, label: nm.textContent, fits: nm.scrollWidth <= nm.clientWidth };
    }));
    const tag = `${name} at ${width} px`;
    h.check(got.length > 1 && new Set(got.map(g => g.label)).size === got.length, `${tag}: legend labels distinct (${got.map(g => g.label).join(' | ')})`);
    h.check(got.every(g => g.fits), `${tag}: every label fits its entry`);
    h.check(got.every(g => g.title.split('\n')[0] === g.name), `${tag}: the full name on hover`);
    h.check(got.every(g => g.label === g.name || g.label.split('…').every(part => g.name.includes(part))),
      `${tag}: a cut label keeps pieces of its name`);
    await page.close();
  }
}

async function selectCheck(browser, h) {
  for (const name of ['leak-hd', 'leak-hT']) await labelsCheck(browser, h, name);
  const { report, open, readCsv } = h;
  const dir = report('leak-hc');
  const { page, log } = await open(browser, path.join(dir, 'leak-hc.html'));
  await legendEntriesCheck(h, page);
  await readoutCheck(h, page);
  await subtreeCheck(h, page, 'leak-hc', readCsv(path.join(dir, 'leak-hc.csv')));
  // (this test's own pixel reads draw chromium's advice on readback)
  const errors = log.errors.filter(e => !/willReadFrequently/.test(e));
  h.check(errors.length === 0, 'select: no console errors: ' + errors.join('; '));
  await page.close();
}

module.exports = { selectCheck };
