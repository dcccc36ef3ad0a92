/*
 * The live page `heapscope watch --http` serves, in the browser, on a
 * stream with GC events and no census yet (tests/live_feeder pauses
 * before the first census, as a program whose eventlog is not flushed):
 * the library's page from the start, heap size and live bytes charted,
 * the GC tab following the stream, the subtitle naming the program, the
 * notice saying why there is no census ("flush"), and the page taking the
 * census when it comes. With HEAPSCOPE_SHOT_DIR set, screenshots at 1280
 * and 390 px before and after the census go there, for people to look at.
 */
'use strict';
const fs = require('fs');
const path = require('path');
const { execFileSync, spawn } = require('child_process');

// Polls fn until ok(value) or ms pass; the last value either way.
async function until(ms, fn, ok) {
  const end = Date.now() + ms;
  for (;;) {
    const v = await fn();
    if ((ok ? ok(v) : v) || Date.now() > end) return v;
    await new Promise(r => setTimeout(r, 100));
  }
}

// What the test reads off the page.
function look(page) {
  return page.evaluate(() => {
    const r = window.heapscope.runs[0], n = document.querySelector('.notice');
    const gc = document.querySelector('.panel[data-tab="run"] table.gc');
    const lc = document.querySelector('.plot.lines canvas');
    return {
      n: r.n, lines: Object.fromEntries(Object.entries(r.lines).map(([k, l]) => [k, l.t.length])),
      notice: n && !n.hidden ? n.textContent : '', sub: document.querySelector('header .sub').textContent,
      h1: document.querySelector('header h1').textContent, title: document.title,
      tabs: [...document.querySelectorAll('nav.tabs button')].map(b => b.dataset.tab),
      collections: gc ? [...gc.querySelectorAll('tbody tr')].reduce((a, tr) => a + Number(tr.children[1].textContent), 0) : 0,
      linesHeight: lc && lc.offsetParent ? lc.getBoundingClientRect().height : 0,
      drawn: (window.heapscope.drawn || [[]])[0] || []
    };
  });
}

async function shoot(browser, url, dir, name) {
  if (!dir) return;
  for (const w of [1280, 390]) {
    const p = await browser.newPage({ viewport: { width: w, height: 900 } });
    await p.goto(url);
    await p.waitForTimeout(700);
    await p.screenshot({ path: path.join(dir, `${name}-${w}.png`), fullPage: true });
    await p.close();
  }
}

async function watchCheck(browser, { check, bin, samples, tmp }) {
  const feeder = process.env.LIVE_FEEDER, shots = process.env.HEAPSCOPE_SHOT_DIR;
  if (!feeder) { console.log('note: no LIVE_FEEDER: the watch page is not checked'); return; }
  const fifo = path.join(tmp, 'watch.fifo');
  execFileSync('mkfifo', [fifo]);
  const feed = spawn(feeder, ['fifo', fifo, path.join(samples, 'leak-hc.eventlog'), '--chunk', '2048',
    '--delay-ms', '40', '--pause-before-census', '--pause-ms', '12000'], { stdio: 'ignore' });
  const watch = spawn(bin, ['watch', fifo, '--http', '127.0.0.1:0', '--interval', '0.3', '--linger', '60'],
    { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '', err = '';
  watch.stdout.on('data', d => { out += d; });
  watch.stderr.on('data', d => { err += d; });
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  const errors = [];
  page.on('pageerror', e => errors.push(e.message));
  page.on('console', m => { if (m.type() === 'error') errors.push(m.text()); });
  try {
    const port = await until(10000, () => (/serving http:\/\/127\.0\.0\.1:(\d+)\//.exec(err) || [])[1]);
    const url = 'http://127.0.0.1:' + port + '/';
    await page.goto(url);
    const first = await until(10000, () => look(page), s => s.collections > 0 && s.lines.heap);
    // the notice after some seconds without a census; the program's name
    // once the log gives it (GHC 9.0 writes it after its first GC events)
    const before = await until(11000, () => look(page), s => s.notice && /^leak/.test(s.sub));
    check(before.n === 0 && before.lines.heap > 1 && before.lines.live > 1,
      `watch page before the census: heap size and live bytes lines (${JSON.stringify(before.lines)}, ${before.n} points)`);
    check(before.tabs[0] === 'chart' && before.linesHeight >= 200,
      `watch page before the census: the chart tab shows the lines (${before.tabs}, ${before.linesHeight} px)`);
    check(/flush/.test(before.notice) && /9\.2/.test(before.notice), `watch page says why there is no census: "${before.notice}"`);
    check(/^leak \u00b7 /.test(before.sub) && /no heap census yet/.test(before.sub), `the subtitle names the program: "${before.sub}"`);
    check(/^leak \+RTS/.test(before.h1) && before.title === before.h1, `the header is the command line: "${before.h1}"`);
    check(before.collections > first.collections, `the GC tab follows the stream (${first.collections} then ${before.collections} collections)`);
    check(/flush/.test(out), 'watch\'s status lines say why there is no census');
    await shoot(browser, url, shots, 'watch-before');
    const after = await until(30000, () => look(page), s => s.n > 0);
    await new Promise(r => setTimeout(r, 500));
    const now = await look(page);
    check(now.drawn.length > 0 && now.tabs.includes('bands'), `the page takes the census (${after.n} points, drawn ${now.drawn.length})`);
    check(!now.notice, `the notice goes with the census ("${now.notice}")`);
    check(/^leak \u00b7 .*samples/.test(now.sub), `the subtitle follows: "${now.sub}"`);
    check(errors.length === 0, 'watch page: no errors: ' + errors.join('; '));
    await shoot(browser, url, shots, 'watch-after');
  } finally {
    await page.close();
    watch.kill('SIGTERM');
    feed.kill('SIGTERM');
  }
}

module.exports = { watchCheck };
