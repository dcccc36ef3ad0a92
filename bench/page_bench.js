// Times a report page in headless chromium: navigation to first drawn
// chart (the page records performance.now() when it first draws), the mean
// of 200 hover updates at spread-out times, and of 20 zooms.
//   node bench/page_bench.js PAGE.html...
'use strict';
const path = require('path');
const { chromium } = require('playwright-core');

(async () => {
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM || '/usr/bin/chromium' });
  for (const file of process.argv.slice(2)) {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    const errors = [];
    page.on('pageerror', e => errors.push(e.message));
    await page.goto('file://' + path.resolve(file));
    let first = null;
    for (let i = 0; i < 600 && first == null; i++) {
      first = await page.evaluate(() => window.heapscope && window.heapscope.firstDraw);
      if (first == null) await page.waitForTimeout(50);
    }
    const r = await page.evaluate(() => {
      const hs = window.heapscope, over = document.querySelector('.overlay');
      const box = over.getBoundingClientRect(), g = hs.geo();
      let t0 = performance.now();
      for (let k = 0; k < 200; k++) {
        const x = box.left + 64 + ((k * 37) % 200) / 200 * g.pw;
        over.dispatchEvent(new MouseEvent('mousemove', { clientX: x, clientY: box.top + 10 + g.ph * 0.9, bubbles: true }));
      }
      const hover = (performance.now() - t0) / 200;
      const end = hs.runs[0].end;
      t0 = performance.now();
      for (let k = 0; k < 20; k++) {
        const a = end * k / 40;
        hs.setWindow(a, a + end / (2 + k));
        hs.redraw();
      }
      const zoom = (performance.now() - t0) / 20;
      // the band table: first drawing for the window, then scrolling
      hs.setWindow(0, end);
      hs.state.tab = 'bands';
      document.querySelector('nav.tabs button[data-tab="bands"]').click();
      t0 = performance.now();
      hs.redraw();
      const table = performance.now() - t0;
      const sc = document.querySelector('.tscroll');
      t0 = performance.now();
      for (let k = 0; k < 50; k++) {
        sc.scrollTop = (k * 7919) % Math.max(1, sc.scrollHeight - sc.clientHeight);
        sc.dispatchEvent(new Event('scroll'));
        sc.getBoundingClientRect();
      }
      const scroll = (performance.now() - t0) / 50;
      return { hover, zoom, table, scroll, start: hs.scriptStart, points: hs.runs[0].n, bands: hs.runs[0].bands.length };
    });
    console.log(`${path.basename(file)}: first chart ${first == null ? 'never' : first.toFixed(0) + ' ms'} (script starts at ${r.start.toFixed(0)} ms), ` +
      `hover ${r.hover.toFixed(2)} ms, zoom ${r.zoom.toFixed(1)} ms, table ${r.table.toFixed(0)} ms, ` +
      `table scroll ${r.scroll.toFixed(2)} ms (${r.points} points x ${r.bands} bands)` +
      (errors.length ? ', errors: ' + errors.join('; ') : ''));
    await page.close();
  }
  await browser.close();
})();
