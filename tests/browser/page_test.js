/*
 * The report page in a real browser: pages written by `heapscope report`
 * from samples/, opened from file:// in Debian's chromium through
 * playwright-core. Checks what a reader relies on against the program's
 * own CSV, folded stacks and event list. Exit 77 (skipped) when chromium,
 * playwright-core or the samples are missing.
 */
'use strict';
const fs = require('fs');
const os = require('os');
const path = require('path');
const { execFileSync } = require('child_process');
const { watchCheck } = require('./watch_page.js');
const { selectCheck } = require('./select_page.js');
const { bandsCheck } = require('./bands_page.js');
const { tprofCheck } = require('./tprof_page.js');
const { tickyCheck } = require('./ticky_page.js');
const { traceCheck } = require('./trace_page.js');
const { diffCheck } = require('./diff_page.js');
const { lookCheck } = require('./look_page.js');

// CI sets HEAPSCOPE_REQUIRE_BROWSER: there a missing browser is a failure,
// not a skip, so the page is never left untested unnoticed.
const SKIP = process.env.HEAPSCOPE_REQUIRE_BROWSER ? 1 : 77;
let chromium;
try {
  ({ chromium } = require('playwright-core'));
} catch (e) {
  console.log('SKIP: playwright-core is not installed (scripts/dev.sh test installs it in tests/browser)');
  process.exit(SKIP);
}
const browserPath = process.env.CHROMIUM || '/usr/bin/chromium';
if (!fs.existsSync(browserPath)) {
  console.log('SKIP: no chromium at ' + browserPath);
  process.exit(SKIP);
}
const bin = process.env.HEAPSCOPE_BIN;
const tool = process.env.HEAPSCOPE_PAGE_TOOL;
const samples = path.join(process.env.HEAPSCOPE_SOURCE_DIR || '.', 'samples');
if (!bin || !fs.existsSync(path.join(samples, 'leak-hc.eventlog'))) {
  console.log('SKIP: HEAPSCOPE_BIN or samples/ missing');
  process.exit(SKIP);
}
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'hs-page-'));
process.on('exit', () => fs.rmSync(tmp, { recursive: true, force: true }));

let failures = 0, checks = 0;
function check(cond, what) {
  checks++;
  if (!cond) { failures++; console.log('FAIL: ' + what); }
}

function report(name, extra, file) {
  const dir = path.join(tmp, name);
  execFileSync(bin, ['report', file || path.join(samples, name + '.eventlog'), '-d', dir].concat(extra || []),
    { stdio: ['ignore', 'pipe', 'pipe'] });
  return dir;
}

// CSV rows: time -> band -> bytes
function readCsv(file) {
  const rows = new Map();
  const text = fs.readFileSync(file, 'utf8').trim().split('\n').slice(1);
  for (const line of text) {
    const m = /^([0-9.]+),"((?:[^"]|"")*)",(\d+)$/.exec(line);
    if (!m) continue;
    const t = m[1], band = m[2].replace(/""/g, '"');
    if (!rows.has(t)) rows.set(t, new Map());
    rows.get(t).set(band, Number(m[3]));
  }
  return rows;
}

// The CSV of an .mlpd census (time_s,band,bytes,count) as readCsv reads.
function readCsvCounts(file) {
  const rows = new Map();
  const text = fs.readFileSync(file, 'utf8').trim().split('\n').slice(1);
  for (const line of text) {
    const m = /^([0-9.]+),"((?:[^"]|"")*)",(\d+),\d+$/.exec(line) || /^([0-9.]+),([^,"]*),(\d+),\d+$/.exec(line);
    if (!m) continue;
    const t = m[1], band = m[2].replace(/""/g, '"');
    if (!rows.has(t)) rows.set(t, new Map());
    rows.get(t).set(band, Number(m[3]));
  }
  return rows;
}

// A page with every console message, error and request recorded.
async function open(browser, file, width) {
  const page = await browser.newPage({ viewport: { width: width || 1280, height: 900 } });
  const log = { errors: [], requests: [] };
  page.on('console', m => { if (m.type() === 'error' || m.type() === 'warning') log.errors.push(m.text()); });
  page.on('pageerror', e => log.errors.push(e.message));
  const url = 'file://' + file;
  page.on('request', r => { if (r.url() !== url) log.requests.push(r.url()); });
  await page.goto(url);
  await settle(page);
  return { page, log };
}

// Waits until the page has drawn what the last input asked for.
// (Polled by evaluate: waitForFunction evaluates strings, which the page's
// Content-Security-Policy rightly refuses.)
async function settle(page) {
  for (let i = 0; i < 500; i++) {
    const busy = await page.evaluate(() => new Promise(r => requestAnimationFrame(() =>
      r(!window.heapscope || !window.heapscope.drawn || window.heapscope.busy))));
    if (!busy) return;
  }
  throw new Error('the page never settled');
}

async function plotBox(page, k) {
  const box = await page.locator('.plot:not(.lines):not(.ov)').nth(k || 0).boundingBox();
  return box;
}

async function hoverCheck(page, csv) {
  const drawn = await page.evaluate(() => window.heapscope.drawn[0]);
  const band = drawn[0];
  const box = await plotBox(page);
  const geo = await page.evaluate(() => window.heapscope.geo());
  let tried = 0;
  for (const [t, bands] of csv) {
    const v = bands.get(band) || 0;
    if (v < geo.ymax * 0.05 || tried >= 4) continue;
    tried++;
    const x = await page.evaluate(tt => window.heapscope.xOf(tt), Number(t));
    await page.mouse.move(box.x + x, box.y + 10 + geo.ph - 2);
    const got = await page.evaluate(() => {
      const r = document.querySelector('.readout');
      return { time: r.dataset.time, bytes: r.dataset.bytes, name: (r.querySelector('.uname') || {}).textContent,
        shown: (r.querySelector('.ubytes') || {}).textContent, tip: !document.querySelector('.tip').hidden };
    });
    check(Math.abs(Number(got.time) - Number(t)) < 1e-6, `hover at ${t} s reads sample time ${got.time}`);
    check(got.name === band, `hover at ${t} s names band ${band} (got ${got.name})`);
    check(Number(got.bytes) === v, `hover at ${t} s: ${band} has ${v} B in the CSV, page says ${got.bytes}`);
    check(got.shown === v.toLocaleString('en-US') + ' B', `readout text ${got.shown}`);
    check(got.tip, 'the tooltip shows');
  }
  check(tried > 0, 'some sample was hovered');
}

async function legendCheck(page) {
  const drawn = await page.evaluate(() => window.heapscope.drawn[0]);
  const a = drawn.find(n => !n.startsWith('OTHER')), b = drawn.filter(n => !n.startsWith('OTHER'))[1];
  await page.evaluate(n => [...document.querySelectorAll('.legend li')].find(li => li.dataset.name === n).click(), a);
  await settle(page);
  let now = await page.evaluate(() => window.heapscope.drawn[0]);
  check(now.length === 1 && now[0] === a, `legend click isolates ${a} (drawn: ${now.join(', ')})`);
  if (b) {
    // from the full view, ctrl-click takes one band away, then another
    await page.click('.controls button:text("all")');
    await settle(page);
    const m = (await page.evaluate(() => window.heapscope.admitted())).length;
    for (const n of [a, b]) {
      await page.evaluate(x => [...document.querySelectorAll('.legend li')].find(li => li.dataset.name === x)
        .dispatchEvent(new MouseEvent('click', { bubbles: true, ctrlKey: true })), n);
      await settle(page);
    }
    now = await page.evaluate(() => window.heapscope.admitted());
    check(now.length === m - 2 && !now.includes(a) && !now.includes(b), `ctrl-click toggles ${a} and ${b} off (${now.length} of ${m} admitted)`);
  }
  await page.click('.controls button:text("all")');
  await settle(page);
  now = await page.evaluate(() => window.heapscope.drawn[0]);
  check(now.length === drawn.length, '"all" restores the bands');
  // search, substring then /regex/
  const word = a.replace(/[^A-Za-z]/g, ' ').trim().split(/\s+/).sort((x, y) => y.length - x.length)[0] || a;
  await page.fill('.controls input[type=search]', word);
  await settle(page);
  now = await page.evaluate(() => window.heapscope.drawn[0]);
  check(now.length > 0 && now.every(n => n.startsWith('OTHER') || n.toLowerCase().includes(word.toLowerCase())),
    `search "${word}" keeps only matching bands (${now.length})`);
  await page.fill('.controls input[type=search]', '/^' + a.replace(/[.*+?^${}()|[\]\\]/g, '\\$&') + '$/');
  await settle(page);
  now = await page.evaluate(() => window.heapscope.drawn[0]);
  check(now.length === 1 && now[0] === a, `regex search finds exactly ${a}`);
  await page.fill('.controls input[type=search]', '');
  await settle(page);
}

async function zoomCheck(page) {
  const box = await plotBox(page);
  const g0 = await page.evaluate(() => window.heapscope.geo());
  const y = box.y + 10 + g0.ph / 2;
  await page.mouse.move(box.x + 64 + g0.pw * 0.25, y);
  await page.mouse.down();
  await page.mouse.move(box.x + 64 + g0.pw * 0.4, y, { steps: 4 });
  await page.mouse.move(box.x + 64 + g0.pw * 0.5, y, { steps: 4 });
  await page.mouse.up();
  await settle(page);
  const g1 = await page.evaluate(() => window.heapscope.geo());
  const span0 = g0.w1 - g0.w0, span1 = g1.w1 - g1.w0;
  check(span1 < span0 * 0.4 && g1.w0 > g0.w0, `drag zooms the axis (${g0.w0}-${g0.w1} to ${g1.w0}-${g1.w1})`);
  await page.click('nav.tabs button[data-tab="bands"]');
  await settle(page);
  const count = await page.textContent('.tcount');
  check(/figures for/.test(count), `the table follows the window: "${count}"`);
  await page.click('nav.tabs button[data-tab="chart"]');
  await settle(page);
  await page.mouse.dblclick(box.x + 64 + g0.pw * 0.5, y);
  await settle(page);
  const g2 = await page.evaluate(() => window.heapscope.geo());
  check(Math.abs((g2.w1 - g2.w0) - span0) < 1e-9, 'double-click resets the zoom');
}

async function overflowCheck(browser, file, tabs) {
  const { page, log } = await open(browser, file, 390);
  for (const tab of tabs) {
    await page.click(`nav.tabs button[data-tab="${tab}"]`);
    await settle(page);
    const w = await page.evaluate(() => [document.documentElement.scrollWidth, window.innerWidth]);
    check(w[0] <= w[1], `${path.basename(file)} at 390 px, tab ${tab}: page is ${w[0]} px wide`);
  }
  const font = await page.evaluate(() => parseFloat(getComputedStyle(document.querySelector('.tabs button')).fontSize));
  check(font >= 11, 'legible text at 390 px');
  check(log.errors.length === 0, 'no console errors at 390 px: ' + log.errors.join('; '));
  await page.close();
}

// The checks in modules of their own, by name: HEAPSCOPE_BROWSER_ONLY=NAME
// runs only that one (while working on it).
const moduleChecks = {
  bands: (browser, h) => bandsCheck(browser, h),
  trace: traceCheck, diff: diffCheck, look: lookCheck,
  time: async browser => { await timeProfileCheck(browser); await flameCheck(browser); },
  select: browser => selectCheck(browser, { check, bin, samples, settle, report, open, readCsv }),
  ticky: browser => tickyCheck(browser, { check, bin, tmp, open, settle }),
  live: async browser => { await liveCheck(browser); await watchCheck(browser, { check, bin, samples, tmp }); },
};

async function main() {
  const browser = await chromium.launch({ executablePath: browserPath, args: ['--no-sandbox'] });
  const h = { check, bin, tool, tmp, samples, settle, report, open, readCsv, overflowCheck };
  const only = process.env.HEAPSCOPE_BROWSER_ONLY;
  try {
    // core: every check but those of moduleChecks (meson runs each of
    // those as a test of its own); unset: every check
    if (only && only !== 'core') await moduleChecks[only](browser, h);
    else await allChecks(browser, h, only === 'core');
  } finally {
    await browser.close();
  }
  console.log(`${checks} checks, ${failures} failed`);
  process.exit(failures ? 1 : 0);
}

async function allChecks(browser, h, coreOnly) {
  {
    for (const name of ['leak-hc', 'markers-hT', 'leak-hy', 'manycc-hc', 'leak-hb']) {
      if (!fs.existsSync(path.join(samples, name + '.eventlog'))) continue;
      const dir = report(name);
      const file = path.join(dir, name + '.html');
      const { page, log } = await open(browser, file);
      await hoverCheck(page, readCsv(path.join(dir, name + '.csv')));
      await legendCheck(page);
      await zoomCheck(page);
      const tabs = await page.evaluate(() => [...document.querySelectorAll('nav.tabs button')].map(b => b.dataset.tab));
      for (const tab of tabs) { await page.click(`nav.tabs button[data-tab="${tab}"]`); await settle(page); }
      check(log.errors.length === 0, `${name}: no console errors (${log.errors.join('; ')})`);
      check(log.requests.length === 0, `${name}: no network requests (${log.requests.join(', ')})`);
      await page.close();
      if (name === 'leak-hc' || name === 'markers-hT') await overflowCheck(browser, file, tabs);
    }
    await columnCheck(browser);
    await markerCheck(browser);
    await gcCheck(browser);
    await gcOnlyCheck(browser);
    await monoCheck(browser);
    await compareCheck(browser);
    if (!coreOnly)
      for (const name of Object.keys(moduleChecks)) await moduleChecks[name](browser, h);
  }
}

// Every value of the page's columns, decoded in the browser, equals the
// CSV's: values near 2^51, deltas of 2^41 each way, bands that come and
// go, long runs of one value.
async function columnCheck(browser) {
  const hp = path.join(tmp, 'columns.hp');
  const lines = ['JOB "columns"', 'DATE "Wed Nov 25 12:00 2026"', 'SAMPLE_UNIT "seconds"', 'VALUE_UNIT "bytes"'];
  // odd steps: no common factor lets the page scale the values down
  const big = 2 ** 50, step = 2 ** 41 + 1;
  for (let i = 0; i < 300; i++) {
    const t = (i / 100).toFixed(2);
    lines.push('BEGIN_SAMPLE ' + t);
    lines.push('big\t' + (big + i * step));
    lines.push('falling\t' + (2 ** 49 - i * (2 ** 38 + 3)));
    if (i % 2) lines.push('flip\t' + (3 * 2 ** 45 + i));
    if (i % 50 < 40) lines.push('steady\t' + 12345678);
    lines.push('small\t' + i * 8);
    lines.push('END_SAMPLE ' + t);
  }
  fs.writeFileSync(hp, lines.join('\n') + '\n');
  const dir = report('columns', [], hp);
  const csv = readCsv(path.join(dir, 'columns.csv'));
  const { page, log } = await open(browser, path.join(dir, 'columns.html'));
  const got = await page.evaluate(() => {
    const r = window.heapscope.runs[0];
    return { t: Array.from(r.t), bands: r.bands.map(b => [b.name, Array.from(b.v)]) };
  });
  const times = [...csv.keys()];
  check(got.t.length === times.length, `columns: ${got.t.length} points, the CSV has ${times.length}`);
  let bad = 0, first = '';
  for (const [name, v] of got.bands) {
    times.forEach((t, i) => {
      const want = csv.get(t).get(name) || 0;
      if (v[i] !== want && !bad++) first = `${name} at ${t} s: page ${v[i]}, CSV ${want}`;
    });
  }
  check(got.bands.length === 5 && bad === 0, `columns: every value as the CSV's (${bad} differ; ${first})`);
  check(log.errors.length === 0, 'columns: no console errors: ' + log.errors.join('; '));
  await page.close();
}

async function markerCheck(browser) {
  const name = 'markers-hT';
  const dir = report(name);
  const events = execFileSync(bin, ['events', path.join(samples, name + '.eventlog')], { maxBuffer: 1 << 28 }).toString();
  const want = [...events.matchAll(/^(\d+) \S+ USER_MARKER text="(.*)"$/gm)]
    .map(m => [Number(m[1]), JSON.parse('"' + m[2] + '"')]).sort((a, b) => a[0] - b[0]);
  const { page, log } = await open(browser, path.join(dir, name + '.html'));
  const got = await page.evaluate(() => [...document.querySelectorAll('.markers li')].map(li => [Number(li.dataset.time), li.querySelector('.mt').textContent]));
  check(got.length === want.length && want.length > 0, `marker list has the log's ${want.length} markers (got ${got.length})`);
  want.forEach((m, i) => {
    check(got[i] && Math.abs(got[i][0] - m[0] / 1e9) < 1e-6 && got[i][1] === m[1], `marker ${i}: ${m[1]} at ${m[0]} ns`);
  });
  // two markers choose the window
  await page.locator('.markers li button').nth(1).click();
  await page.locator('.markers li button').nth(2).click();
  await settle(page);
  const win = await page.evaluate(() => window.heapscope.state.win);
  check(win && Math.abs(win[0] - got[1][0]) < 1e-9 && Math.abs(win[1] - got[2][0]) < 1e-9, `two markers set the window (${win})`);
  check(log.errors.length === 0, 'markers: no console errors');
  await page.close();
}

async function timeProfileCheck(browser) {
  for (const name of ['leak-p', 'manycc-p']) {
    if (!fs.existsSync(path.join(samples, name + '.eventlog'))) continue;
    const dir = report(name);
    const folded = execFileSync(bin, ['folded', '--source', 'time', path.join(samples, name + '.eventlog')]).toString();
    const total = folded.trim().split('\n').reduce((a, l) => a + Number(l.slice(l.lastIndexOf(' ') + 1)), 0);
    const byCap = execFileSync(bin, ['folded', '--source', 'time', '--per-capability', path.join(samples, name + '.eventlog')]).toString()
      .trim().split('\n').reduce((m, l) => { const cap = l.split(';')[0]; m[cap] = (m[cap] || 0) + Number(l.slice(l.lastIndexOf(' ') + 1)); return m; }, {});
    const { page, log } = await open(browser, path.join(dir, name + '.html'));
    await page.click('nav.tabs button[data-tab="time"]');
    await settle(page);
    const ticks = Number(await page.getAttribute('.ticks', 'data-ticks'));
    check(ticks === total, `${name}: the time profile shows ${ticks} ticks, folded has ${total}`);
    for (const cap of Object.keys(byCap)) {
      await page.selectOption('select[aria-label="capability"]', cap.replace('cap ', ''));
      await settle(page);
      const t = Number(await page.getAttribute('.ticks', 'data-ticks'));
      check(t === byCap[cap], `${name}: ${cap} has ${byCap[cap]} ticks, page says ${t}`);
    }
    await page.selectOption('select[aria-label="capability"]', '-1');
    await settle(page);
    await tprofCheck({ check, bin, samples, settle }, page, name);
    check(log.errors.length === 0 && log.requests.length === 0, `${name}: no console errors or requests`);
    await page.close();
  }
}

async function flameCheck(browser) {
  const dir = report('leak-hc');
  const { page } = await open(browser, path.join(dir, 'leak-hc.html'));
  await page.click('nav.tabs button[data-tab="flame"]');
  await settle(page);
  const frames = await page.evaluate(() => [...document.querySelectorAll('.frame')].map(f => JSON.parse(f.dataset.path)));
  const target = frames.find(p => p.length === 3);
  check(!!target, 'the icicle has frames three deep');
  if (!target) return;
  await page.evaluate(p => [...document.querySelectorAll('.frame')].find(f => f.dataset.path === JSON.stringify(p)).click(), target);
  await settle(page);
  const drawn = await page.evaluate(() => window.heapscope.drawn[0]);
  const suffix = target.slice().reverse().map(f => f.split('.').pop());
  check(drawn.length > 0 && drawn.every(n => n.split('/').slice(-3).join('/').length > 0), `a frame filters the chart (${drawn.length} bands)`);
  check(drawn.every(n => n.includes(suffix[0])), `every drawn band is under ${target.join(' > ')}: ${drawn.join(', ')}`);
  await page.close();
}

// The GC tab shows the summary's figures for the same log.
async function gcCheck(browser) {
  const dir = report('leak-hc');
  const sum = JSON.parse(execFileSync(bin, ['summary', '--json', path.join(samples, 'leak-hc.eventlog')]).toString());
  const { page } = await open(browser, path.join(dir, 'leak-hc.html'));
  await page.click('nav.tabs button[data-tab="run"]');
  await settle(page);
  const rows = await page.evaluate(() => [...document.querySelectorAll('table.gc')[0].querySelectorAll('tbody tr')]
    .map(tr => [...tr.children].map(td => td.textContent)));
  check(rows.length === sum.generations.length, `GC tab: ${rows.length} generations, summary has ${sum.generations.length}`);
  sum.generations.forEach((g, i) => check(rows[i] && rows[i][1] === String(g.collections),
    `GC tab: generation ${g.gen} has ${g.collections} collections (page: ${rows[i] && rows[i][1]})`));
  const text = await page.textContent('.panel[data-tab="run"]');
  check(text.includes(sum.allocated_bytes.toLocaleString('en-US') + ' B'), 'GC tab: bytes allocated as summary --json says');
  await page.close();
}

// Rows of the first GC table on the run tab of an open page.
async function gcRows(page) {
  await page.click('nav.tabs button[data-tab="run"]');
  await settle(page);
  return page.evaluate(() => [...document.querySelectorAll('table.gc')[0].querySelectorAll('tbody tr')]
    .map(tr => [...tr.children].map(td => td.textContent)));
}

// A log with GC events and no heap profile: a page with the run tab alone,
// showing the summary's collections.
async function gcOnlyCheck(browser) {
  const corpus = path.join(process.env.HEAPSCOPE_SHARED_DIR || '/nonexistent', 'corpus', 'ghc-events');
  const log = path.join(corpus, 'hello-ghc-8.6.5.eventlog');
  if (!fs.existsSync(log)) { console.log('note: no corpus: the GC-only page is not checked'); return; }
  const dir = report('hello-ghc-8.6.5', [], log);
  const sum = JSON.parse(execFileSync(bin, ['summary', '--json', log]).toString());
  const { page, log: plog } = await open(browser, path.join(dir, 'hello-ghc-8.6.5.html'));
  const tabs = await page.evaluate(() => [...document.querySelectorAll('nav.tabs button')].map(b => b.dataset.tab));
  check(tabs.length === 1 && tabs[0] === 'run', `GC-only page: the run tab alone (${tabs})`);
  const rows = await gcRows(page);
  sum.generations.forEach((g, i) => check(rows[i] && rows[i][1] === String(g.collections),
    `GC-only page: generation ${g.gen} has ${g.collections} collections (page: ${rows[i] && rows[i][1]})`));
  check(plog.errors.length === 0 && plog.requests.length === 0, 'GC-only page: no console errors or requests: ' + plog.errors.join('; '));
  await page.close();
}

// A Mono .mlpd: the chart's subtitle says what the samples are, hovering
// reads the CSV's bytes, and the GC tab shows the .mlpd's own figures.
async function monoCheck(browser) {
  const file = path.join(samples, 'mono', 'threads-alloc-heapshot.mlpd');
  if (!fs.existsSync(file)) return;
  const dir = report('threads-alloc-heapshot', [], file);
  const { page, log } = await open(browser, path.join(dir, 'threads-alloc-heapshot.html'));
  check(/Mono heap shots, by class/.test(await page.textContent('.sub')), 'mono page: the subtitle names the heap shots');
  await hoverCheck(page, readCsvCounts(path.join(dir, 'threads-alloc-heapshot.csv')));
  const sum = JSON.parse(execFileSync(bin, ['summary', '--json', file]).toString());
  const rows = await gcRows(page);
  sum.generations.forEach((g, i) => check(rows[i] && rows[i][1] === String(g.collections),
    `mono page: generation ${g.gen} has ${g.collections} collections (page: ${rows[i] && rows[i][1]})`));
  check(log.errors.length === 0 && log.requests.length === 0, 'mono page: no console errors or requests: ' + log.errors.join('; '));
  await page.close();
  // GC events alone, with major collections that another thread finished:
  // the concurrent ones counted per generation, and said to be no pauses
  const tfile = path.join(samples, 'mono', 'tasks-gc.mlpd');
  const tdir = report('tasks-gc', [], tfile);
  const t = await open(browser, path.join(tdir, 'tasks-gc.html'));
  const tsum = JSON.parse(execFileSync(bin, ['summary', '--json', tfile]).toString());
  const trows = await gcRows(t.page);
  check(tsum.generations[1].concurrent > 0, 'tasks-gc: the summary counts concurrent major collections');
  tsum.generations.forEach((g, i) => check(trows[i] && trows[i][2] === String(g.concurrent),
    `tasks-gc page: generation ${g.gen} has ${g.concurrent} concurrent collections (page: ${trows[i] && trows[i][2]})`));
  check(/Concurrent collections ran while the program did/.test(await t.page.textContent('body')),
    'tasks-gc page: the run tab says concurrent collections are no pauses');
  check(t.log.errors.length === 0 && t.log.requests.length === 0, 'tasks-gc page: no console errors or requests: ' + t.log.errors.join('; '));
  await t.page.close();
}

async function compareCheck(browser) {
  if (!tool) return;
  const out = path.join(tmp, 'compare.html');
  execFileSync(tool, ['compare', path.join(samples, 'leak-hy.eventlog'), path.join(samples, 'leak-hy.hp'), out]);
  const { page, log } = await open(browser, out);
  const box = await plotBox(page, 0);
  const g = await page.evaluate(() => window.heapscope.geo(0));
  await page.mouse.move(box.x + 64 + g.pw * 0.6, box.y + 10 + g.ph - 2);
  const reads = await page.evaluate(() => [...document.querySelectorAll('.readout')].map(r => r.dataset.time));
  check(reads.length === 2 && reads.every(t => t && Number(t) > 0), `hover shows both runs (${reads})`);
  const drawn = await page.evaluate(() => window.heapscope.drawn);
  const a = drawn[0].find(n => !n.startsWith('OTHER'));
  await page.evaluate(n => [...document.querySelectorAll('.legend li')].find(li => li.dataset.name === n).click(), a);
  await settle(page);
  const now = await page.evaluate(() => window.heapscope.drawn);
  check(now[0].length === 1 && now[0][0] === a && now[1].length === 1 && now[1][0] === a, `isolating ${a} isolates it in both runs`);
  const geos = await page.evaluate(() => [window.heapscope.geo(0).ymax, window.heapscope.geo(1).ymax]);
  check(geos[0] === geos[1], `both runs share the y scale (${geos})`);
  check(log.errors.length === 0 && log.requests.length === 0, 'compare: no console errors or requests: ' + log.errors.join('; '));
  await page.close();
}

// A live page served over HTTP fetches fresh data and keeps the reader's
// zoom and band choice.
async function liveCheck(browser) {
  if (!tool) return;
  const http = require('http');
  const page0 = path.join(tmp, 'live.html');
  // first a log cut short (as a running program's), then the whole log
  const whole = path.join(samples, 'leak-hy.eventlog'), cut = path.join(tmp, 'cut.eventlog');
  const bytes = fs.readFileSync(whole);
  fs.writeFileSync(cut, bytes.subarray(0, Math.floor(bytes.length * 0.95)));
  execFileSync(tool, ['live', cut, '/data.json', page0]);
  const docs = [cut, whole].map(f => execFileSync(tool, ['data', f]));
  let which = 0, fetches = 0;
  const server = http.createServer((req, res) => {
    if (req.url === '/') { res.writeHead(200, { 'content-type': 'text/html' }); res.end(fs.readFileSync(page0)); return; }
    if (req.url === '/data.json') { fetches++; res.writeHead(200, { 'content-type': 'application/json' }); res.end(docs[which]); return; }
    res.writeHead(404); res.end();
  });
  await new Promise(r => server.listen(0, '127.0.0.1', r));
  const url = 'http://127.0.0.1:' + server.address().port + '/';
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  const errors = [];
  page.on('pageerror', e => errors.push(e.message));
  page.on('console', m => { if (m.type() === 'error') errors.push(m.text()); });
  await page.goto(url);
  await settle(page);
  const n0 = await page.evaluate(() => window.heapscope.runs[0].n);
  const band = (await page.evaluate(() => window.heapscope.drawn[0]))[0];
  await page.evaluate(n => [...document.querySelectorAll('.legend li')].find(li => li.dataset.name === n).click(), band);
  await page.evaluate(() => window.heapscope.setWindow(0.1, 0.3));
  await settle(page);
  which = 1;
  const want = JSON.parse(docs[1].toString()).points;
  let n1 = n0;
  for (let i = 0; i < 100 && n1 !== want; i++) {
    await page.waitForTimeout(50);
    n1 = await page.evaluate(() => window.heapscope.runs[0].n);
  }
  await settle(page);
  const st = await page.evaluate(() => ({ win: window.heapscope.state.win, drawn: window.heapscope.drawn[0] }));
  // The page embeds the cut log's data and polls for fresh data: one fetch after
  // the switch suffices (the first poll may come after it on a loaded machine).
  check(fetches >= 1 && n1 === want && n1 !== n0, `the live page took the new data (${n0} -> ${n1} points, ${fetches} fetches)`);
  check(st.win && st.win[0] === 0.1 && st.win[1] === 0.3, `the live page kept the zoom (${st.win})`);
  check(st.drawn.length === 1 && st.drawn[0] === band, `the live page kept the isolated band ${band} (${st.drawn})`);
  check(errors.length === 0, 'live: no errors: ' + errors.join('; '));
  await page.close();
  server.close();
}

main().catch(e => { console.log('FAIL: ' + (e && e.stack || e)); process.exit(1); });
