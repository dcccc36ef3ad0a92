/*
 * The time profile over time on the report page (issue 26): for the -p
 * logs of samples/, the chart of ticks per interval is drawn; the
 * cost-centre table's self and inherited ticks equal those counted from
 * the log's own events (`heapscope events`) and from `folded --source
 * time`'s stacks, and its total equals theirs; its columns sort; a row, a chart key, an
 * icicle frame or the keyboard follows one cost centre in chart and
 * table; a window chosen on the chart (a drag, the keys) gives the
 * figures of the samples in its intervals. Called from page_test.js with
 * its helpers.
 */
'use strict';
const path = require('path');
const { execFileSync } = require('child_process');

// The log's samples from its event list: [time ns, [names, innermost
// first]], names "Module.label" as the page and folded write them.
function samplesOf(bin, file) {
  const names = new Map(), out = [];
  for (const l of execFileSync(bin, ['events', file], { maxBuffer: 1 << 28 }).toString().split('\n')) {
    let m = /^\d+ \S+ HEAP_PROF_COST_CENTRE id=(\d+) label="((?:[^"\\]|\\.)*)" module="((?:[^"\\]|\\.)*)"/.exec(l);
    const unq = x => x.replace(/\\(.)/g, '$1');
    if (m) { names.set(m[1], unq(m[3]) + '.' + unq(m[2])); continue; }
    m = /^(\d+) \S+ PROF_SAMPLE_COST_CENTRE .* stack=([\d,]*)/.exec(l);
    if (m) out.push([Number(m[1]), m[2] ? m[2].split(',') : []]);
  }
  // an empty stack is GHC's MAIN, as folded names it
  return out.map(([t, ids]) => [t, ids.length ? ids.map(i => names.get(i) || '<cc ' + i + '>') : ['MAIN']]);
}

// Self and inherited ticks per name (once per sample) of the samples in
// [from, to) ns.
function oracle(samples, from, to) {
  const self = new Map(), inh = new Map();
  let total = 0;
  for (const [t, st] of samples) {
    if (t < from || t >= to) continue;
    total++;
    if (st.length) self.set(st[0], (self.get(st[0]) || 0) + 1);
    for (const n of new Set(st)) inh.set(n, (inh.get(n) || 0) + 1);
  }
  return { self, inh, total };
}

// The same figures from folded stacks (outermost first, N ticks a line).
function foldedFigures(text) {
  const self = new Map(), inh = new Map();
  let total = 0;
  for (const l of text.trim().split('\n')) {
    const n = Number(l.slice(l.lastIndexOf(' ') + 1)), st = l.slice(0, l.lastIndexOf(' ')).split(';');
    total += n;
    self.set(st[st.length - 1], (self.get(st[st.length - 1]) || 0) + n);
    for (const f of new Set(st)) inh.set(f, (inh.get(f) || 0) + n);
  }
  return { self, inh, total };
}

const rowsOf = page => page.evaluate(() => [...document.querySelectorAll('table.tprof tbody tr')]
  .map(r => ({ name: r.dataset.cc, self: Number(r.dataset.self), inh: Number(r.dataset.inh) })));
const totalOf = page => page.evaluate(() => Number(document.querySelector('table.tprof tfoot tr').dataset.total));
const state = page => page.evaluate(() => ({ win: window.heapscope.state.win, focus: window.heapscope.state.tfocus }));

function sameFigures(h, tag, rows, want) {
  const got = new Map();
  for (const r of rows) {
    const g = got.get(r.name) || { self: 0, inh: 0 };
    got.set(r.name, { self: g.self + r.self, inh: g.inh + r.inh });
  }
  const names = new Set([...want.inh.keys(), ...want.self.keys()]);
  const bad = [...names].filter(n => !got.has(n) || got.get(n).self !== (want.self.get(n) || 0) || got.get(n).inh !== want.inh.get(n));
  h.check(bad.length === 0 && got.size === names.size,
    `${tag}: every row's self and inherited ticks equal the events' (${bad.slice(0, 3).map(n => n + ' ' + JSON.stringify(got.get(n)) + ' want ' + (want.self.get(n) || 0) + '/' + want.inh.get(n)).join('; ')}; ${got.size} rows, ${names.size} names)`);
}

// The chart's plot has bars: pixels neither white nor grid grey.
const inked = page => page.evaluate(() => {
  const cv = document.querySelector('canvas.tchart'), g = cv.getContext('2d');
  const d = g.getImageData(0, 0, cv.width, cv.height).data;
  let n = 0;
  for (let i = 0; i < d.length; i += 4) if (d[i + 3] && Math.max(d[i], d[i + 1], d[i + 2]) - Math.min(d[i], d[i + 1], d[i + 2]) > 40) n++;
  return n / (cv.width * cv.height);
});

async function sortCheck(h, page, name) {
  await page.click('table.tprof th[data-key="self"] button');
  await h.settle(page);
  let rows = (await rowsOf(page)).map(r => r.self);
  h.check(rows.every((v, i) => !i || rows[i - 1] <= v), `${name}: a click on "self ticks" sorts it up`);
  await page.click('table.tprof th[data-key="inh"] button');
  await h.settle(page);
  rows = (await rowsOf(page)).map(r => r.inh);
  h.check(rows.every((v, i) => !i || rows[i - 1] >= v), `${name}: "inherited ticks" sorts down first`);
  await page.click('table.tprof th[data-key="self"] button');
  await h.settle(page);
  rows = (await rowsOf(page)).map(r => r.self);
  h.check(rows.every((v, i) => !i || rows[i - 1] >= v), `${name}: back to most self first`);
}

async function followCheck(h, page, name, all) {
  const pick = all[1].name;
  await page.click(`table.tprof tbody tr[data-cc="${pick}"]`);
  await h.settle(page);
  let rows = await rowsOf(page);
  h.check((await state(page)).focus === pick && rows.length > 0 && rows.every(r => r.name === pick), `${name}: a click on ${pick} keeps its row alone`);
  const keys = await page.evaluate(() => [...document.querySelectorAll('.tkeys li')].map(li => li.textContent.trim()));
  h.check(keys.length === 3 && keys[0].startsWith(pick), `${name}: the chart shows ${pick}'s ticks and the rest (${keys.join(' | ')})`);
  const hl = await page.evaluate(() => [...document.querySelectorAll('.frame.hl')].map(f => f.title));
  h.check(hl.length > 0 && hl.every(t => t.startsWith(pick + ' ')), `${name}: the icicle marks ${pick}'s frames (${hl.length})`);
  // Enter on the focused row lets go; a frame of the icicle follows its cost centre
  await page.focus(`table.tprof tbody tr[data-cc="${pick}"]`);
  await page.keyboard.press('Enter');
  await h.settle(page);
  h.check((await state(page)).focus === null && (await rowsOf(page)).length === all.length, `${name}: Enter on the row shows every cost centre again`);
  const frame = await page.evaluate(() => { const f = [...document.querySelectorAll('.frame')].find(x => JSON.parse(x.dataset.path).length === 2); return f.dataset.path; });
  const fname = JSON.parse(frame)[1];
  await page.evaluate(p => [...document.querySelectorAll('.frame')].find(x => x.dataset.path === p).click(), frame);
  await h.settle(page);
  rows = await rowsOf(page);
  h.check((await state(page)).focus === fname && rows.every(r => r.name === fname) && rows.length > 0, `${name}: a frame follows ${fname}`);
  await page.click('.tstate button.tall');
  await page.click('.crumbs button:text("all")');
  await h.settle(page);
  h.check((await state(page)).focus === null, `${name}: "all cost centres" lets go`);
}

async function windowCheck(h, page, name, samples, wns) {
  await page.locator('canvas.tchart').scrollIntoViewIfNeeded();
  const box = await page.locator('canvas.tchart').boundingBox();
  const y = box.y + box.height / 2;
  await page.mouse.move(box.x + 64 + (box.width - 76) * 0.3, y);
  await page.mouse.down();
  await page.mouse.move(box.x + 64 + (box.width - 76) * 0.55, y, { steps: 4 });
  await page.mouse.up();
  await h.settle(page);
  const { win } = await state(page);
  h.check(win && win[0] > 0 && win[1] > win[0], `${name}: a drag on the chart chooses a window (${win})`);
  // the intervals the window overlaps, from the data's interval width
  const k0 = Math.floor(win[0] * 1e9 / wns), k1 = Math.ceil(win[1] * 1e9 / wns);
  const want = oracle(samples, k0 * wns, k1 * wns);
  const rows = await rowsOf(page);
  h.check(await totalOf(page) === want.total && want.total > 0, `${name}: the window's total is ${await totalOf(page)}, the events have ${want.total} in its intervals`);
  h.check(rows.reduce((a, r) => a + r.self, 0) === want.total, `${name}: the window's self ticks add up to its total`);
  sameFigures(h, name + ' in the window', rows, want);
  // a file's profile is exact; a live one's merged ticks (the data's
  // bucket_us, merged_until_us) make the window line say its precision
  const note = () => page.evaluate(() => document.querySelector('.tstate').textContent);
  h.check(!/bucket precision/.test(await note()), `${name}: a file's window says nothing of buckets ("${await note()}")`);
  await page.evaluate(w => { Object.assign(window.heapscope.runs[0].tprof, { bucket_us: 4000, merged_until_us: Math.round(w * 1e6) + 1 }); window.heapscope.redraw(); }, win[1]);
  h.check(/at bucket precision: ticks before .* are counted in 4\.00 ms buckets/.test(await note()), `${name}: merged ticks: the window says it is at bucket precision ("${await note()}")`);
  await page.evaluate(() => { Object.assign(window.heapscope.runs[0].tprof, { bucket_us: 0, merged_until_us: 0 }); window.heapscope.redraw(); });
  // keys: Escape, the whole run again; + zooms in on the middle
  await page.focus('.panel[data-tab="time"] .overlay');
  await page.keyboard.press('Escape');
  await h.settle(page);
  h.check((await state(page)).win === null, `${name}: Escape on the chart shows the whole run`);
  await page.keyboard.press('+');
  await h.settle(page);
  const w2 = (await state(page)).win;
  h.check(w2 && w2[0] > 0 && (await totalOf(page)) < samples.length, `${name}: + on the chart zooms in (${w2})`);
  await page.click('.tstate button.treset');
  await h.settle(page);
}

// On the page of log `name` open at its time-profile tab (page_test.js's
// timeProfileCheck opens it: one page for both checks).
async function tprofCheck(h, page, name) {
  const file = path.join(h.samples, name + '.eventlog');
  const folded = foldedFigures(execFileSync(h.bin, ['folded', '--source', 'time', file]).toString());
  const samples = samplesOf(h.bin, file);
  h.check(await inked(page) > 0.05, `${name}: the chart of ticks over time is drawn`);
  const all = await rowsOf(page);
  const total = await totalOf(page);
  h.check(total === folded.total && total === samples.length, `${name}: the table's total ${total} equals folded's ${folded.total} and the events' ${samples.length}`);
  h.check(all.reduce((a, r) => a + r.self, 0) === total, `${name}: the table's self ticks add up to its total`);
  h.check(all.every((r, i) => !i || all[i - 1].self >= r.self), `${name}: the table starts sorted by self ticks`);
  sameFigures(h, name, all, oracle(samples, 0, Infinity));
  sameFigures(h, name + ' against folded', all, folded);
  const firstKey = await page.evaluate(() => document.querySelector('.tkeys li').textContent.trim());
  h.check(firstKey === all[0].name, `${name}: the chart stacks the most self first (${firstKey})`);
  await sortCheck(h, page, name);
  await followCheck(h, page, name, all);
  const wns = await page.evaluate(() => window.heapscope.runs[0].d.tprof.iv.w_ns);
  await windowCheck(h, page, name, samples, wns);
}

module.exports = { tprofCheck };
