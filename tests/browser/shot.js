// Screenshots of a page for people to look at (not a test):
//   node shot.js PAGE.html OUT.png [WIDTH] [TAB] [FULL]
const { chromium } = require('playwright-core');
(async () => {
  const [page_, out, width, tab, full] = process.argv.slice(2);
  const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox'] });
  const page = await browser.newPage({ viewport: { width: +(width || 1280), height: 900 } });
  page.on('console', m => console.log('console:', m.type(), m.text()));
  page.on('pageerror', e => console.log('pageerror:', e.message));
  await page.goto('file://' + require('path').resolve(page_));
  await page.waitForTimeout(300);
  if (tab) { await page.click(`nav.tabs button[data-tab="${tab}"]`); await page.waitForTimeout(200); }
  await page.screenshot({ path: out, fullPage: full !== '0' });
  await browser.close();
})();
