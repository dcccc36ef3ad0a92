/*
 * How the page draws (issue 25, item 6): the last x tick label whole inside
 * the canvas; the heap lines' names above their plot, not over the lines;
 * tooltip and readout swatches hatched as their bands, line-mode legend
 * swatches dashed for hatched bands; cost-centre frames reached by Tab,
 * moved among with the arrow keys, chosen with Enter; frames no wider than
 * their share (a tiny frame never covers its neighbour) and a 1-px frame
 * reached by a tap beside it at 390 px; the y axis's top above the
 * largest value (issue 25's leftovers).
 * Called from page_test.js with its helpers.
 */
'use strict';
const path = require('path');
const { execFileSync } = require('child_process');

// Whether a canvas has ink (alpha > 0) in the rectangle, CSS pixels.
const inked = (page, sel, x0, y0, w, h) => page.evaluate(([sel, x0, y0, w, h]) => {
  const cv = document.querySelector(sel), dpr = cv.width / cv.clientWidth;
  const d = cv.getContext('2d').getImageData(Math.round(x0 * dpr), Math.round(y0 * dpr), Math.max(1, Math.round(w * dpr)), Math.max(1, Math.round(h * dpr))).data;
  for (let i = 3; i < d.length; i += 4) if (d[i] > 0) return true;
  return false;
}, [sel, x0, y0, w, h]);

// Whether a canvas has colour (not the greys of grid and text) in the
// rectangle, CSS pixels.
const coloured = (page, sel, x0, y0, w, h) => page.evaluate(([sel, x0, y0, w, h]) => {
  const cv = document.querySelector(sel), dpr = cv.width / cv.clientWidth;
  const d = cv.getContext('2d').getImageData(Math.round(x0 * dpr), Math.round(y0 * dpr), Math.max(1, Math.round(w * dpr)), Math.max(1, Math.round(h * dpr))).data;
  for (let i = 0; i < d.length; i += 4) if (d[i + 3] > 0 && Math.max(d[i], d[i + 1], d[i + 2]) - Math.min(d[i], d[i + 1], d[i + 2]) > 30) return true;
  return false;
}, [sel, x0, y0, w, h]);

// A run of exactly 1 s (tests/msglog.h): its last tick, "1000 ms", at the
// plot's right end.
async function tickCheck(browser, h) {
  const log = path.join(h.tmp, 'ticks.eventlog');
  execFileSync(h.tool, ['msglog', '10', log]);
  const file = path.join(h.report('ticks', [], log), 'ticks.html');
  for (const width of [1280, 390]) {
    const { page } = await h.open(browser, file, width);
    const g = await page.evaluate(() => window.heapscope.geo(0));
    // the tick labels' row (PAD.t + ph + 5 ...) at the canvas's last pixel column
    h.check(!(await inked(page, 'canvas.bands', g.w - 1, 10 + g.ph + 4, 1, 14)), `${width} px: the last x tick label ends inside the canvas`);
    h.check(await inked(page, 'canvas.bands', g.w - 40, 10 + g.ph + 4, 38, 14), `${width} px: there is a label at the right end`);
    await page.close();
  }
}

async function axesCheck(h, page, width) {
  const { check } = h;
  // the heap lines' plot starts below the names' strip: nothing at the plot's old top border
  const lw = await page.evaluate(() => document.querySelector('canvas.heaplines').clientWidth);
  check(!(await inked(page, 'canvas.heaplines', lw - 20, 10, 6, 1)), `${width} px: the heap lines' names stand in a strip above their plot`);
  check(await inked(page, 'canvas.heaplines', lw - 20, 26, 6, 1), `${width} px: the heap lines' plot border below that strip`);
}

async function swatchCheck(h, page) {
  const { check, settle } = h;
  // hover every tenth of the plot until the tip shows a hatched band
  const box = await page.locator('canvas.overlay').first().boundingBox();
  const g = await page.evaluate(() => window.heapscope.geo(0));
  let seen = false;
  for (let f = 0.05; f < 1 && !seen; f += 0.05) {
    await page.mouse.move(box.x + 64 + g.pw * f, box.y + 10 + g.ph * 0.98);
    seen = await page.evaluate(() => {
      const hatched = new Set(window.heapscope.runs[0].bands.filter(b => b.hatched).map(b => b.name));
      const rows = [...document.querySelectorAll('.tip div')].slice(1);
      return rows.some(r => hatched.has(r.querySelector('.nm').textContent)) &&
        rows.every(r => r.querySelector('.sw').classList.contains('hatched') === hatched.has(r.querySelector('.nm').textContent));
    });
  }
  check(seen, 'the tooltip\'s swatches are hatched as their bands are (and only those)');
  await page.mouse.move(0, 0);
  await page.selectOption('select[aria-label="chart kind"]', 'line');
  await settle(page);
  const looks = await page.evaluate(() => [...document.querySelectorAll('.legend li.band .sw')].map(s => {
    const cs = getComputedStyle(s);
    return { hatched: s.classList.contains('hatched'), style: cs.borderTopStyle, bg: cs.backgroundImage, colour: cs.borderTopColor, fill: cs.backgroundColor };
  }));
  check(looks.some(l => l.hatched) && looks.every(l => l.style === (l.hatched ? 'dashed' : 'solid') && l.bg === 'none'),
    'in line mode a legend swatch is a line, dashed for a hatched band: ' + JSON.stringify(looks.slice(0, 3)));
  check(looks.every(l => l.colour !== 'rgb(0, 0, 0)'), 'in line mode a legend swatch keeps its colour');
  await page.selectOption('select[aria-label="chart kind"]', 'area');
  await settle(page);
}

async function icicleKeys(h, page) {
  const { check, settle } = h;
  await page.click('nav.tabs button[data-tab="flame"]');
  await settle(page);
  check(await page.locator('.frame[tabindex="0"]').count() === 1, 'one frame is in the tab order');
  await page.focus('select[aria-label="flame weight"]');
  for (let i = 0; i < 4 && !(await page.evaluate(() => document.activeElement.classList.contains('frame'))); i++) await page.keyboard.press('Tab');
  const focused = () => page.evaluate(() => document.activeElement.classList.contains('frame') ? JSON.parse(document.activeElement.dataset.path) : null);
  check(JSON.stringify(await focused()) === '[]', 'Tab reaches the outermost frame');
  await page.keyboard.press('ArrowDown');
  const first = await focused();
  check(first && first.length === 1, `ArrowDown moves to a callee (${JSON.stringify(first)})`);
  await page.keyboard.press('ArrowRight');
  const second = await focused();
  check(second && second.length === 1 && second[0] !== first[0], `ArrowRight moves to the next frame of the row (${JSON.stringify(second)})`);
  await page.keyboard.press('ArrowLeft');
  await page.keyboard.press('ArrowDown');
  const deep = await focused();
  check(deep && deep.length === 2 && deep[0] === first[0], `ArrowDown again goes one deeper under it (${JSON.stringify(deep)})`);
  await page.keyboard.press('ArrowUp');
  check(JSON.stringify(await focused()) === JSON.stringify(first), 'ArrowUp goes back to the caller');
  await page.keyboard.press('Enter');
  await settle(page);
  const st = await page.evaluate(() => [window.heapscope.state.tab, window.heapscope.state.ccPath]);
  check(st[0] === 'chart' && JSON.stringify(st[1]) === JSON.stringify(first), `Enter chooses the frame's subtree (${JSON.stringify(st)})`);
  await page.click('.controls button:text("all")');
  await settle(page);
}

// In every row of the icicle, no frame reaches over the next one.
async function tinyFrames(h, page, name) {
  await page.click('nav.tabs button[data-tab="flame"]');
  await page.selectOption('select[aria-label="flame weight"]', 'bs');
  await h.settle(page);
  const over = await page.evaluate(() => {
    const rows = new Map();
    for (const f of document.querySelectorAll('.frame')) {
      const r = f.getBoundingClientRect();
      if (!rows.has(r.top)) rows.set(r.top, []);
      rows.get(r.top).push([r.left, r.right, f.dataset.path]);
    }
    const bad = [];
    for (const fs of rows.values()) {
      fs.sort((a, b) => a[0] - b[0]);
      for (let i = 1; i < fs.length; i++) if (fs[i - 1][1] > fs[i][0] + 0.5) bad.push(fs[i - 1][2] + ' over ' + fs[i][2]);
    }
    return { n: document.querySelectorAll('.frame').length, bad };
  });
  h.check(over.n > 20 && over.bad.length === 0, `${name}: no frame covers its neighbour (${over.bad.length} of ${over.n}: ${over.bad.slice(0, 2).join('; ')})`);
}

// At 390 px a frame a pixel or two wide is picked by a tap beside it (a
// few pixels off, over its neighbour or over nothing).
async function thinFrameTap(h, page, name) {
  await page.setViewportSize({ width: 390, height: 900 });
  await h.settle(page);
  const thin = await page.evaluate(() => {
    const fs = [...document.querySelectorAll('.frame')].map(f => ({ r: f.getBoundingClientRect(), path: f.dataset.path }));
    const mid = f => (f.r.left + f.r.right) / 2;
    // a thin frame with no other thin frame within 10 px of it
    const t = fs.find(f => f.r.width < 2 && f.r.width > 0 &&
      !fs.some(g => g !== f && g.r.top === f.r.top && g.r.width < 8 && Math.abs(mid(g) - mid(f)) < 10));
    return t ? { x: mid(t), y: (t.r.top + t.r.bottom) / 2, w: t.r.width, path: t.path } : null;
  });
  h.check(!!thin, `${name} at 390 px: there is a frame under 2 px wide`);
  if (!thin) return;
  await page.mouse.click(thin.x + 3, thin.y);
  await h.settle(page);
  const got = await page.evaluate(() => window.heapscope.state.ccPath);
  h.check(JSON.stringify(got) === thin.path, `${name} at 390 px: a tap 3 px beside a ${thin.w.toFixed(1)}-px frame picks it (${JSON.stringify(got)}, want ${thin.path})`);
}

// A band alone whose maximum is the axis's: the axis tops out at a round
// number above it, the band never runs along the plot's top edge.
async function headroomCheck(h, page, width) {
  const { check, settle } = h;
  const a = (await page.evaluate(() => window.heapscope.drawn[0]))[0];
  await page.evaluate(n => [...document.querySelectorAll('.legend li.band')].find(li => li.dataset.name === n).click(), a);
  await settle(page);
  const g = await page.evaluate(() => window.heapscope.geo(0));
  check(g.ymaxData > 0 && g.ymax >= g.ymaxData * 1.04, `${width} px: ${a} alone: the axis (${g.ymax}) tops out above its peak (${g.ymaxData})`);
  // the plot's top rows, under the border, stay clear of the band
  check(await coloured(page, 'canvas.bands', 64 + 2, 10 + g.ph * 0.5, g.pw - 4, 3), `${width} px: the band is drawn`);
  check(!(await coloured(page, 'canvas.bands', 64 + 2, 10 + 2, g.pw - 4, 3)), `${width} px: no band along the plot's top edge`);
  await page.click('.controls button:text("all")');
  await settle(page);
}

async function lookCheck(browser, h) {
  const dir = h.report('manycc-hc');
  const { page } = await h.open(browser, path.join(dir, 'manycc-hc.html'));
  await tinyFrames(h, page, 'manycc-hc');
  await thinFrameTap(h, page, 'manycc-hc');
  await page.close();
  if (h.tool) await tickCheck(browser, h);
  for (const width of [1280, 390]) {
    const dir = h.report('leak-hc');
    const { page, log } = await h.open(browser, path.join(dir, 'leak-hc.html'), width);
    await axesCheck(h, page, width);
    await headroomCheck(h, page, width);
    if (width === 1280) {
      await swatchCheck(h, page);
      await icicleKeys(h, page);
    }
    // (this test's own pixel reads draw chromium's advice on readback)
    const errors = log.errors.filter(e => !/willReadFrequently/.test(e));
    h.check(errors.length === 0, 'look: no console errors: ' + errors.join('; '));
    await page.close();
  }
}

module.exports = { lookCheck };
