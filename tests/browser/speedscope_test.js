/*
 * `heapscope folded --source time --format speedscope` against speedscope
 * itself: the output of the samples' time profiles (and the corpus's
 * time-prof.eventlog when HEAPSCOPE_SHARED_DIR has it) is validated with
 * ajv against the schema speedscope publishes in its npm package, its
 * figures are compared with `top --json`, and one file is loaded into
 * speedscope's release page, served on loopback, in Debian's chromium:
 * the page must show the profile (its name, the capabilities' profiles)
 * and no error. Exit 77 (skipped) when chromium, the npm packages or the
 * samples are missing; HEAPSCOPE_SHOT=FILE.png keeps a screenshot.
 */
'use strict';
const fs = require('fs');
const os = require('os');
const path = require('path');
const http = require('http');
const { execFileSync } = require('child_process');

const SKIP = process.env.HEAPSCOPE_REQUIRE_BROWSER ? 1 : 77;
let chromium, Ajv;
try {
  ({ chromium } = require('playwright-core'));
  Ajv = require('ajv');
  require.resolve('speedscope/package.json');
} catch (e) {
  console.log('SKIP: playwright-core, ajv or speedscope is not installed (scripts/dev.sh test installs them in tests/browser)');
  process.exit(SKIP);
}
const browserPath = process.env.CHROMIUM || '/usr/bin/chromium';
const bin = process.env.HEAPSCOPE_BIN;
const samples = path.join(process.env.HEAPSCOPE_SOURCE_DIR || '.', 'samples');
if (!fs.existsSync(browserPath) || !bin || !fs.existsSync(path.join(samples, 'leak-p.eventlog'))) {
  console.log('SKIP: chromium, HEAPSCOPE_BIN or samples/ missing');
  process.exit(SKIP);
}
const release = path.join(path.dirname(require.resolve('speedscope/package.json')), 'dist', 'release');
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'hs-speedscope-'));
process.on('exit', () => fs.rmSync(tmp, { recursive: true, force: true }));

let failures = 0, checks = 0;
function check(cond, what) {
  checks++;
  if (!cond) { failures++; console.log('FAIL: ' + what); }
}

const logs = ['leak-p', 'manycc-p'].map(n => path.join(samples, n + '.eventlog'));
const shared = process.env.HEAPSCOPE_SHARED_DIR;
if (shared && fs.existsSync(path.join(shared, 'corpus/ghc-events/time-prof.eventlog')))
  logs.push(path.join(shared, 'corpus/ghc-events/time-prof.eventlog'));

const ajv = new Ajv({ strict: false });
const validate = ajv.compile(JSON.parse(fs.readFileSync(path.join(release, 'file-format-schema.json'), 'utf8')));

// The schema, and the figures against `top --json`: every profile's
// weights add up to its endValue; all capabilities' to the total ticks;
// a frame's self weight (innermost in a sample) to the cost centre's self.
function checkFile(log, file) {
  const name = path.basename(log);
  const doc = JSON.parse(fs.readFileSync(file, 'utf8'));
  check(validate(doc), name + ': valid against speedscope\'s schema: ' + ajv.errorsText(validate.errors));
  check(doc.exporter && doc.exporter.startsWith('heapscope '), name + ': exporter names heapscope');
  check(doc.name === name, name + ': name is the input\'s');
  const top = JSON.parse(execFileSync(bin, ['top', '--json', log]));
  const all = doc.profiles[0];
  check(all.name === 'all capabilities', name + ': the first profile is all capabilities');
  check(doc.profiles.length >= 2, name + ': a profile per capability too');
  const sum = ws => ws.reduce((a, b) => a + b, 0);
  for (const p of doc.profiles) {
    check(p.unit === 'none' && p.startValue === 0 && sum(p.weights) === p.endValue,
      name + ': ' + p.name + ' weighs its samples up to endValue');
    check(p.samples.length === p.weights.length, name + ': a weight per sample');
  }
  check(all.endValue === top.total_ticks, name + ': all capabilities = top total_ticks ' + all.endValue + ' ' + top.total_ticks);
  check(sum(doc.profiles.slice(1).map(p => p.endValue)) === all.endValue, name + ': the capabilities add up to all');
  const self = new Map();
  all.samples.forEach((s, i) => {
    const f = doc.shared.frames[s[s.length - 1]].name;
    self.set(f, (self.get(f) || 0) + all.weights[i]);
  });
  for (const r of top.cost_centres) {
    const f = r.name === 'MAIN' && r.module === 'MAIN' ? 'MAIN' : r.module + '.' + r.name;
    check((self.get(f) || 0) === r.self_ticks, name + ': self of ' + f + ' ' + self.get(f) + ' vs top ' + r.self_ticks);
  }
  const located = doc.shared.frames.filter(f => f.file);
  check(located.length > 0 && located.every(f => Number.isInteger(f.line) && f.line > 0),
    name + ': frames carry file and line');
  return doc;
}

// A loopback server of speedscope's release directory and /profile.json.
function serve(profile) {
  const types = { '.html': 'text/html', '.js': 'text/javascript', '.css': 'text/css', '.json': 'application/json',
    '.wasm': 'application/wasm', '.png': 'image/png', '.woff2': 'font/woff2', '.ico': 'image/x-icon' };
  const server = http.createServer((req, res) => {
    const url = decodeURIComponent(req.url.split('?')[0]);
    const file = url === '/profile.json' ? profile : path.join(release, path.normalize(url === '/' ? '/index.html' : url));
    if (!file.startsWith(release) && file !== profile) { res.writeHead(403); res.end(); return; }
    fs.readFile(file, (err, data) => {
      if (err) { res.writeHead(404); res.end(); return; }
      res.writeHead(200, { 'Content-Type': types[path.extname(file)] || 'application/octet-stream' });
      res.end(data);
    });
  });
  return new Promise(resolve => server.listen(0, '127.0.0.1', () => resolve(server)));
}

async function loadInSpeedscope(file, name) {
  const server = await serve(file);
  const base = 'http://127.0.0.1:' + server.address().port;
  const browser = await chromium.launch({ executablePath: browserPath, args: ['--no-sandbox'] });
  try {
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    const errors = [];
    page.on('pageerror', e => errors.push(e.message));
    page.on('console', m => { if (m.type() === 'error') errors.push(m.text()); });
    await page.goto(base + '/index.html#profileURL=' + encodeURIComponent(base + '/profile.json'));
    // the toolbar names the shown profile and the window title the file
    await page.waitForFunction(() => document.body.innerText.includes('all capabilities'), null, { timeout: 20000 }).catch(() => {});
    await page.waitForTimeout(500);
    const text = await page.evaluate(() => document.body.innerText);
    check((await page.title()).includes(name), 'speedscope\'s title names the file: ' + await page.title());
    check(/all capabilities \(1\/\d+\)/.test(text), 'speedscope shows the first profile of several, all capabilities');
    check(!/Something went wrong|Unrecognized format/.test(text), 'speedscope shows no error: ' + text.slice(0, 200));
    check(errors.length === 0, 'no page error: ' + errors.join(' | '));
    // the flame chart is drawn: its canvas has pixels other than the background
    const drawn = await page.evaluate(() => [...document.querySelectorAll('canvas')].some(c => c.width > 100 && c.height > 100));
    check(drawn, 'speedscope draws the flame chart');
    if (process.env.HEAPSCOPE_SHOT)
      await page.screenshot({ path: process.env.HEAPSCOPE_SHOT });
  } finally {
    await browser.close();
    server.close();
  }
}

(async () => {
  let first;
  for (const log of logs) {
    const out = path.join(tmp, path.basename(log) + '.speedscope.json');
    execFileSync(bin, ['folded', '--source', 'time', '--format', 'speedscope', '-o', out, log]);
    checkFile(log, out);
    first = first || out;
  }
  await loadInSpeedscope(first, path.basename(logs[0]));
  console.log(`${checks - failures}/${checks} checks passed`);
  process.exit(failures ? 1 : 0);
})().catch(e => { console.log('FAIL: ' + (e.stack || e)); process.exit(1); });
