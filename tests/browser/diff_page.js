/*
 * The diff page (issue 25, item 11), written by `heapscope diff -d` from
 * two samples: its Change tab holds the rows `heapscope diff` prints (the
 * same bands, ratios, new and gone), sortable, filterable, a row isolating
 * its band in both charts; the Bands tab shows both runs side by side; the
 * subtitle names both runs; both heap-line panels share one scale; the
 * overview strip draws both runs.
 * Called from page_test.js with its helpers.
 */
'use strict';
const fs = require('fs');
const path = require('path');
const { execFileSync } = require('child_process');

// The text's band rows: [before, after, change, ratio, band] as printed.
function textRows(out) {
  const lines = out.split('\n');
  const at = lines.findIndex(l => /^by change in /.test(l));
  return lines.slice(at + 1).filter(l => /\S/.test(l)).map(l => l.trim().split(/\s{2,}/)).filter(c => c.length === 5 && c[4] !== 'band');
}

async function diffCheck(browser, h) {
  const { check, settle, bin, samples, tmp } = h;
  const a = path.join(samples, 'phases-lazy-hc.eventlog'), b = path.join(samples, 'phases-strict-hc.eventlog');
  if (!fs.existsSync(a) || !fs.existsSync(b)) return;
  const dir = path.join(tmp, 'diffpage');
  execFileSync(bin, ['diff', a, b, '-d', dir], { stdio: ['ignore', 'pipe', 'pipe'] });
  const want = textRows(fs.readFileSync(path.join(dir, 'diff.txt'), 'utf8'));
  const file = path.join(dir, 'diff.html');
  const { page, log } = await h.open(browser, file);
  const sub = await page.textContent('.sub');
  check(/before: phases-lazy-hc\.eventlog/.test(sub) && /after: phases-strict-hc\.eventlog/.test(sub), `the subtitle names both runs (${sub})`);
  const ys = await page.evaluate(() => [window.heapscope.linesYmax(0), window.heapscope.linesYmax(1)]);
  check(ys[0] > 0 && ys[0] === ys[1], `both heap-line panels share one scale (${ys})`);

  await page.click('nav.tabs button[data-tab="change"]');
  await settle(page);
  const rows = () => page.evaluate(() => [...document.querySelectorAll('table.change tbody tr')].map(tr =>
    [...tr.children].slice(0, 5).map(td => td.textContent.trim())));
  let got = await rows();
  check(got.length === want.length && want.length > 5, `the Change tab lists the text's ${want.length} bands (${got.length})`);
  const byName = new Map(got.map(r => [r[0], r]));
  check(want.every(w => byName.has(w[4]) && byName.get(w[4])[4] === w[3]),
    'every band\'s ratio reads as the text prints it (0.24x, new, gone): ' +
    want.filter(w => !byName.has(w[4]) || byName.get(w[4])[4] !== w[3]).map(w => w[4] + ' ' + w[3]).join(', '));
  check(got.map(r => r[0]).join('\n') === want.map(w => w[4]).join('\n'), 'in the text\'s order: by the size of the change');
  const count = await page.textContent('.panel[data-tab="change"] .tcount');
  const st = s => want.filter(w => w[3] === s).length;
  check(count.includes(st('new') + ' new, ' + st('gone') + ' gone'), `the count says new and gone (${count})`);
  // sorting by name, filtering
  await page.click('table.change th[data-key="name"]');
  got = await rows();
  check(got.map(r => r[0]).join() === [...got.map(r => r[0])].sort().join(), 'a click on "band" sorts by name');
  await page.fill('input[aria-label="filter the changes"]', 'strict');
  await settle(page);
  got = await rows();
  check(got.length === want.filter(w => w[4].toLowerCase().includes('strict')).length && got.every(r => r[0].includes('Strict')), 'the filter keeps the bands it matches');
  // a row isolates its band in both charts
  const name = got[0][0];
  await page.click('table.change tbody tr:first-child');
  await settle(page);
  const drawn = await page.evaluate(() => window.heapscope.drawn);
  check(drawn[0].length <= 1 && drawn[1].length === 1 && drawn[1][0] === name, `a row shows ${name} alone in both charts (${JSON.stringify(drawn)})`);

  await page.click('nav.tabs button[data-tab="bands"]');
  await settle(page);
  const side = await page.evaluate(() => [...document.querySelectorAll('table.side tbody tr')].map(tr => [tr.dataset.name, tr.children.length]));
  check(side.length === want.length, `the Bands tab lists every band of both runs (${side.length} of ${want.length})`);
  const gone = want.find(w => w[3] === 'gone')[4], fresh = want.find(w => w[3] === 'new')[4];
  const cols = new Map(side);
  check(cols.get(gone) === 6 && cols.get(fresh) === 6, 'a band one run lacks has a dash on that side');
  const both = want.find(w => w[3] !== 'new' && w[3] !== 'gone')[4];
  check(cols.get(both) === 9, 'a band of both runs has both runs\' figures');
  check(log.errors.length === 0 && log.requests.length === 0, 'diff page: no console errors or requests: ' + log.errors.join('; '));
  // the overview strip draws both runs: the before's blue silhouette and
  // the after's orange one over it (its line), each named
  await page.click('nav.tabs button[data-tab="chart"]');
  await settle(page);
  const inks = await page.evaluate(() => {
    const cv = document.querySelector('canvas.overview'), d = cv.getContext('2d').getImageData(0, 0, cv.width, cv.height).data;
    let blue = 0, orange = 0;
    for (let i = 0; i < d.length; i += 4) {
      if (d[i + 3] < 200) continue;
      if (d[i + 2] > d[i] + 40) blue++;
      if (d[i] > d[i + 2] + 100 && d[i] > 150) orange++;
    }
    return { blue, orange };
  });
  check(inks.blue > 100 && inks.orange > 100, `the overview strip draws the before and the after run (${JSON.stringify(inks)})`);
  await page.close();
  await h.overflowCheck(browser, file, ['chart', 'change', 'bands']);
}

module.exports = { diffCheck };
