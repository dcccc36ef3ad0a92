/*
 * User messages on the report page (issue 25, item 9), on logs written by
 * tests/msglog.h (page_tool msglog): the track under the chart holds every
 * message the page carries, merged by pixel with their count, zooming in on
 * a click; the checkbox hides it; the Messages tab lists them with their
 * times, inert (markup and bad bytes as text), searchable, its matches lit
 * on the track and counted as `heapscope events` counts them; past 10,000
 * messages the page carries every k-th and says so.
 * Called from page_test.js with its helpers.
 */
'use strict';
const fs = require('fs');
const path = require('path');
const { execFileSync } = require('child_process');

const buckets = page => page.evaluate(() => window.heapscope.msgBuckets(0));
const sum = (bs, k) => bs.reduce((s, b) => s + b[k], 0);

// The USER_MSG texts as `heapscope events` prints them.
function eventTexts(bin, log) {
  return execFileSync(bin, ['events', log], { maxBuffer: 1 << 28 }).toString().split('\n')
    .map(l => /^\d+ \S+ USER_MSG text="(.*)"$/.exec(l)).filter(Boolean).map(m => m[1]);
}

function writeLog(h, n) {
  const log = path.join(h.tmp, 'msgs' + n + '.eventlog');
  execFileSync(h.tool, ['msglog', String(n), log]);
  const dir = h.report('msgs' + n, [], log);
  return { log, html: path.join(dir, 'msgs' + n + '.html') };
}

async function smallLog(browser, h) {
  const { check, settle } = h;
  const { log, html } = writeLog(h, 300);
  const { page, log: plog } = await h.open(browser, html);
  let bs = await buckets(page);
  check(sum(bs, 'n') === 300, `the track holds all 300 messages (${sum(bs, 'n')})`);
  check(bs.some(b => b.n > 1), 'messages a few pixels apart merge into one bucket');
  check(await page.evaluate(() => document.scripts.length) === 2, 'a message\'s markup adds no script');
  // a click on the fullest bucket zooms until its messages stand apart
  const full = bs.reduce((a, b) => (b.n > a.n ? b : a));
  const g = await page.evaluate(() => window.heapscope.geo(0));
  const box = await page.locator('canvas.msgtrack').first().boundingBox();
  const x = box.x + 64 + ((full.t0 + full.t1) / 2 - g.w0) / (g.w1 - g.w0) * g.pw;
  await page.mouse.move(x, box.y + box.height - 4);
  const tip = await page.evaluate(() => { const t = document.querySelector('.mtip'); return t.hidden ? '' : t.textContent; });
  check(/messages?,/.test(tip) && tip.includes("tick") && !tip.includes("null"), `hovering a bucket lists its messages (${tip.slice(0, 80)})`);
  await page.mouse.click(x, box.y + box.height - 4);
  await settle(page);
  const win = await page.evaluate(() => window.heapscope.state.win);
  bs = await buckets(page);
  check(win && win[0] <= full.t0 && win[1] >= full.t1 && win[1] - win[0] < 0.1, `a click zooms to the bucket's messages (${win})`);
  check(bs.length >= full.n && bs.every(b => b.n === 1), `zoomed in, its ${full.n} messages stand apart (${bs.map(b => b.n)})`);
  await page.click('.controls button:text("reset zoom")');
  // the checkbox hides the track
  await page.click('.controls input.msgon');
  await settle(page);
  check(await page.locator('.mtrack').first().isHidden(), 'unticking "messages" hides the track');
  await page.click('.controls input.msgon');
  await settle(page);
  check(await page.locator('.mtrack').first().isVisible(), 'ticking it shows the track again');
  await listCheck(h, page, log);
  check(plog.errors.length === 0 && plog.requests.length === 0, 'messages: no console errors or requests: ' + plog.errors.join('; '));
  await page.close();
  await h.overflowCheck(browser, html, ['chart', 'msgs']);
}

// The Messages tab: times and texts, inert, searchable.
async function listCheck(h, page, log) {
  const { check, settle, bin } = h;
  await page.click('nav.tabs button[data-tab="msgs"]');
  await settle(page);
  const rows = () => page.evaluate(() => [...document.querySelectorAll('.msgs li')].map(li => li.querySelector('.mt').textContent));
  let got = await rows();
  check(got.length === 300, `the Messages tab lists 300 messages (${got.length})`);
  check(got[0] === '</script><script>alert(1)</script>', `markup in a message reads as text (${got[0]})`);
  check(got[1] === 'odd \ufffd\ufffd bytes & <b>', `bytes that are not UTF-8 read as U+FFFD (${got[1]})`);
  check(got[2] === 'é'.repeat(120), `a long message is cut whole characters (${got[2].length} characters)`);
  check(await page.evaluate(() => document.querySelectorAll('.msgs b, .msgs script').length) === 0, 'no message becomes an element');
  const want = eventTexts(bin, log).filter(t => t.includes('tick 1')).length;
  await page.fill('input[aria-label="search messages"]', 'TICK 1');
  await settle(page);
  got = await rows();
  check(want > 0 && got.length === want && got.every(t => t.includes('tick 1')), `searching "TICK 1" lists ${got.length}, events has ${want}`);
  check((await page.textContent('.panel[data-tab="msgs"] .tcount')).startsWith(want + ' of 300 match'), 'the count says how many match');
  await page.fill('input[aria-label="search messages"]', '/^tick 2\\d$/');
  await settle(page);
  check((await rows()).length === 10, 'a /regex/ searches the messages');
  await page.fill('input[aria-label="search messages"]', 'tick 1');
  await settle(page);
  // the search lights the track's buckets holding a match
  await page.click('nav.tabs button[data-tab="chart"]');
  await settle(page);
  check(sum(await buckets(page), 'hits') === want, 'the track counts the search\'s matches');
  await page.click('nav.tabs button[data-tab="msgs"]');
  await settle(page);
  // a message's time shows that moment in the chart
  const t = Number(await page.getAttribute('.msgs li:nth-child(3)', 'data-time'));
  await page.click('.msgs li:nth-child(3) button');
  await settle(page);
  const st = await page.evaluate(() => [window.heapscope.state.tab, window.heapscope.state.win]);
  check(st[0] === 'chart' && st[1] && st[1][0] <= t && st[1][1] >= t, `a message's time zooms the chart to it (${st})`);
}

// 30,000 messages: the page carries every 3rd and says so.
async function bigLog(browser, h) {
  const { check } = h;
  const { html } = writeLog(h, 30000);
  const size = fs.statSync(html).size;
  check(size < 2 << 20, `a page of 30,000 messages stays small (${size} bytes)`);
  const { page, log } = await h.open(browser, html);
  check(sum(await buckets(page), 'n') === 10000, 'the track holds the 10,000 messages the page carries');
  await page.click('nav.tabs button[data-tab="msgs"]');
  await h.settle(page);
  const note = await page.textContent('.mlist .hint');
  check(/holds 10,000 of the log’s 30,000 messages, every 3rd/.test(note), `the page says it holds a part (${note})`);
  check(await page.locator('.msgs li').count() === 500, 'the list shows 500 rows at a time');
  check(/9,500 more/.test(await page.textContent('.mlist')), 'and says how many more match');
  check(log.errors.length === 0, 'big messages: no console errors: ' + log.errors.join('; '));
  await page.close();
}

// A real sample: markers-hT's two traceEventIO messages are listed as the
// event list has them; its traceMarkerIO markers stay markers.
async function sampleLog(browser, h) {
  const log = path.join(h.samples, 'markers-hT.eventlog');
  if (!fs.existsSync(log)) return;
  const want = eventTexts(h.bin, log);
  const markers = execFileSync(h.bin, ['events', log]).toString().split('\n').filter(l => /^\d+ \S+ USER_MARKER /.test(l)).length;
  const { page, log: plog } = await h.open(browser, path.join(h.report('markers-hT'), 'markers-hT.html'));
  h.check(sum(await buckets(page), 'n') === want.length && want.length === 2, `markers-hT: the track holds its ${want.length} messages`);
  h.check(await page.locator('ol.markers li').count() === markers && markers > 0, `markers-hT: its ${markers} markers stay markers`);
  await page.click('nav.tabs button[data-tab="msgs"]');
  await h.settle(page);
  const got = await page.evaluate(() => [...document.querySelectorAll('.msgs li')].map(x => [Number(x.dataset.time), x.querySelector('.mt').textContent]));
  // the log writes each capability's events in its own blocks: the page
  // lists them in time order
  h.check(JSON.stringify(got.map(x => x[1]).sort()) === JSON.stringify(want.slice().sort()) && got.every((x, k) => !k || x[0] >= got[k - 1][0]),
    `markers-hT: the Messages tab lists ${JSON.stringify(got)} in time order, events has ${JSON.stringify(want)}`);
  h.check(plog.errors.length === 0, 'markers-hT messages: no console errors: ' + plog.errors.join('; '));
  await page.close();
}

async function traceCheck(browser, h) {
  await sampleLog(browser, h);
  if (!h.tool) return;
  await smallLog(browser, h);
  await bigLog(browser, h);
}

module.exports = { traceCheck };
