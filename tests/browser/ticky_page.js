/*
 * The report page's Ticky tab in a real browser: a log written by
 * tests/ticky_log.c (60 counters, 40 samples, odd names) through
 * `heapscope report`, opened from file:// in Debian's chromium. The table
 * holds every counter of NAME.ticky.csv with its figures, sorts on a click
 * on a column's head (again: the other way), filters by text, draws a
 * sparkline per counter, shows names as text, and fits a phone's width.
 * Called from page_test.js with its helpers.
 */
'use strict';
const fs = require('fs');
const path = require('path');
const { execFileSync } = require('child_process');

// NAME.ticky.csv's rows (its fields are all quoted or plain numbers)
function readCsv(file) {
  const text = fs.readFileSync(file, 'latin1');
  const rows = [];
  const re = /("(?:[^"]|"")*"|[^,\n]*)(,|\n)/g;
  let row = [], m;
  while ((m = re.exec(text)) && m[0].length) {
    row.push(m[1].startsWith('"') ? m[1].slice(1, -1).replace(/""/g, '"') : m[1]);
    if (m[2] === '\n') { rows.push(row); row = []; }
  }
  const head = rows.shift();
  return rows.map(r => Object.fromEntries(head.map((h, i) => [h, r[i]])));
}

const tableRows = page => page.evaluate(() => [...document.querySelectorAll('table.ticky tbody tr')].map(tr => ({
  id: tr.dataset.id, name: tr.querySelector('.k-name').textContent,
  entries: Number(tr.querySelector('.k-entries').textContent.replace(/,/g, '')),
  allocd: Number(tr.querySelector('.k-allocd').title.replace(/[ ,B]/g, '')),
  spark: !!tr.querySelector('svg.spark path'), html: tr.querySelector('.k-name').innerHTML
})));

async function openTicky(h, browser, file, width) {
  const o = await h.open(browser, file, width);
  await o.page.click('nav.tabs button[data-tab="ticky"]');
  await h.settle(o.page);
  return o;
}

const sorted = (v, dir) => v.every((x, i) => !i || (dir > 0 ? v[i - 1] <= x : v[i - 1] >= x));

async function tickyCheck(browser, h) {
  const { check, bin, tmp } = h;
  const gen = process.env.HEAPSCOPE_TICKY_LOG;
  if (!gen) { console.log('SKIP: the Ticky tab (no HEAPSCOPE_TICKY_LOG)'); return; }
  const logf = path.join(tmp, 'big.eventlog');
  execFileSync(gen, [logf, '60', '40']);
  const dir = path.join(tmp, 'ticky');
  execFileSync(bin, ['report', logf, '-d', dir], { stdio: ['ignore', 'pipe', 'pipe'] });
  const csv = readCsv(path.join(dir, 'big.ticky.csv'));
  check(csv.length === 60, 'the CSV has the 60 counters: ' + csv.length);
  const { page, log } = await openTicky(h, browser, path.join(dir, 'big.html'), 1280);
  let rows = await tableRows(page);
  check(rows.length === 60, 'every counter is a row: ' + rows.length);
  const byId = new Map(csv.map(r => [r.id, r]));
  check(rows.every(r => byId.has(r.id) && Number(byId.get(r.id).entries) === r.entries &&
    Number(byId.get(r.id).allocd) === r.allocd), 'each row has the CSV\'s entries and allocd');
  check(sorted(rows.map(r => r.allocd), -1), 'most allocd first at the start');
  check(rows.every(r => r.spark), 'a sparkline per counter (40 samples)');
  // sort: a click on entries, largest first; again, smallest first
  await page.click('table.ticky th[data-key="entries"]');
  rows = await tableRows(page);
  check(sorted(rows.map(r => r.entries), -1), 'entries: largest first after a click');
  await page.click('table.ticky th[data-key="entries"]');
  rows = await tableRows(page);
  check(sorted(rows.map(r => r.entries), 1), 'entries: smallest first after a second click');
  await page.click('table.ticky th[data-key="name"]');
  rows = await tableRows(page);
  const names = rows.map(r => r.name);
  check(names.every((n, i) => !i || names[i - 1] <= n), 'name: A to Z after a click');
  // filter: the rows whose name holds the text, any case
  await page.fill('input[aria-label="filter the counters"]', 'mod1.');
  rows = await tableRows(page);
  const want = csv.filter(r => r.name.toLowerCase().includes('mod1.')).length;
  check(want > 0 && rows.length === want && rows.every(r => r.name.includes('Mod1.')),
    `filter 'mod1.': ${rows.length} rows, want ${want}`);
  const count = await page.textContent('.tcount');
  check(count.startsWith(want + ' of 60'), 'the count says how many are shown: ' + count);
  await page.fill('input[aria-label="filter the counters"]', '');
  rows = await tableRows(page);
  check(rows.length === 60, 'an empty filter shows every counter again');
  // names are text: markup shown as written, bytes that are not UTF-8 as U+FFFD
  const html = rows.find(r => r.name.includes('html'));
  check(html && html.name === '<b>html</b> & co' && !html.html.includes('<b>'), 'a name with markup is text');
  check(rows.some(r => r.name === 'bad \ufffd utf-8 (fun)'), 'a name not UTF-8 has U+FFFD');
  check(log.errors.length === 0, 'ticky: no console errors: ' + log.errors.join('; '));
  check(log.requests.length === 0, 'ticky: no network requests: ' + log.requests.join(', '));
  await page.close();
  // a phone: the table fits the width
  const small = await openTicky(h, browser, path.join(dir, 'big.html'), 390);
  const over = await small.page.evaluate(() => document.documentElement.scrollWidth);
  check(over <= 390, 'the Ticky tab fits 390 px: ' + over);
  await small.page.close();
}

module.exports = { tickyCheck };
