/* User messages (traceEvent) on the page: a track under each run's bands,
 * its messages merged by pixel with their count (hover lists them, a click
 * zooms in until they stand apart), shown or hidden by a checkbox, and a
 * Messages tab listing them with their times, searchable (the search
 * lights the track's buckets that hold a match). */
import { el } from './dom.mjs';
import { fmtSec } from './format.mjs';
import { S, compare, runs, ui, windowOf } from './state.mjs';
import { PAD, sizeCanvas } from './chart.mjs';
import { boundNote, bucketMessages, bucketWindow, searchMessages } from './msgs.mjs';
import { setWindow, toShared } from './hover.mjs';
import { showTab } from './panels.mjs';

const BUCKET_PX = 7, TRACK_H = 30, LIST_MAX = 500;
const hasMsgs = r => r.msgs.total > 0;
export const anyMessages = () => runs.some(hasMsgs);

// The search's matches in run r, computed once per search text.
function matches(r) {
  if (r.msgMatchKey !== S.msgSearch) { r.msgMatch = searchMessages(r.msgs, S.msgSearch); r.msgMatchKey = S.msgSearch; }
  return r.msgMatch;
}

// The checkbox in the chart's controls.
export function msgToggle() {
  if (!anyMessages()) return null;
  const box = el('input', { type: 'checkbox', class: 'msgon', onchange: () => { S.msgsShown = box.checked; drawTracks(); } });
  box.checked = S.msgsShown;
  const n = runs.reduce((s, r) => s + r.msgs.total, 0);
  return el('label', { title: 'user messages (traceEvent) as a track under the chart' }, box, ' messages (' + n.toLocaleString('en-US') + ')');
}

// A chart's track: a canvas under its bands, with pointer handlers.
export function buildTrack(c) {
  if (!hasMsgs(c.run)) return null;
  c.mtrack = el('canvas', { class: 'msgtrack', role: 'img', 'aria-label': 'user messages' });
  c.mbox = el('div', { class: 'mtrack' }, c.mtrack);
  const at = ev => (c.mbuckets || []).find(b => Math.abs(ev.offsetX - PAD.l - b.x) <= BUCKET_PX / 2 + 1);
  c.mtrack.addEventListener('mousemove', ev => showMsgTip(c, at(ev)));
  c.mtrack.addEventListener('mouseleave', () => { ui.mtip.hidden = true; });
  c.mtrack.addEventListener('click', ev => {
    const b = at(ev);
    if (!b) return;
    const [w0, w1] = windowOf(c.run);
    if (b.n > 1) { const [a, z] = bucketWindow(b, w0, w1); ui.mtip.hidden = true; setWindow(toShared(c, a), toShared(c, z)); }
  });
  return c.mbox;
}

export function drawTracks() {
  if (!ui.charts) return;
  for (const c of ui.charts) {
    if (!c.mbox) continue;
    c.mbox.hidden = !S.msgsShown || !c.geo;
    if (c.mbox.hidden) { c.mbuckets = []; continue; }
    drawTrack(c);
  }
}

function drawTrack(c) {
  const g = c.geo, r = c.run;
  const { ctx, w, h } = sizeCanvas(c.mtrack, TRACK_H, g.w);
  ctx.clearRect(0, 0, w, h);
  ctx.fillStyle = '#f6f2fa'; ctx.fillRect(PAD.l, 12, g.pw, h - 12);
  ctx.font = '10px system-ui, sans-serif'; ctx.textAlign = 'right'; ctx.textBaseline = 'middle';
  ctx.fillStyle = '#555'; ctx.fillText('messages', PAD.l - 4, 12 + (h - 12) / 2);
  const m = matches(r);
  c.mbuckets = bucketMessages(r.msgs.t, g.w0, g.w1, g.pw, BUCKET_PX, m);
  const most = c.mbuckets.reduce((x, b) => Math.max(x, b.n), 1);
  ctx.save(); ctx.beginPath(); ctx.rect(PAD.l, 0, g.pw, h); ctx.clip();
  for (const b of c.mbuckets) {
    const x = PAD.l + b.x, lit = m && b.hits > 0;
    // one message a narrow tick; several a bar whose height grows with the count
    const bh = b.n === 1 ? 12 : 8 + 8 * Math.log(b.n) / Math.log(Math.max(2, most));
    ctx.fillStyle = lit ? '#d9480f' : m ? '#c9b8d8' : '#6a3d9a';
    ctx.fillRect(Math.round(x - (b.n === 1 ? 1.5 : BUCKET_PX / 2 - 0.5)), h - 1 - bh, b.n === 1 ? 3 : BUCKET_PX - 1, bh);
  }
  ctx.restore();
  // counts above the buckets with room for them (of the log's messages:
  // the carried ones times the page's step, then approximate)
  ctx.textAlign = 'center'; ctx.textBaseline = 'top'; ctx.fillStyle = '#333';
  let lastX = -1e9;
  for (const b of c.mbuckets) {
    if (b.n < 2 && r.msgs.step === 1) continue;
    const label = countLabel(b.n, r.msgs.step);
    const lw = ctx.measureText(label).width;
    const x = Math.min(Math.max(PAD.l + b.x, PAD.l + lw / 2), PAD.l + g.pw - lw / 2);
    if (x - lw / 2 < lastX + 8) continue;
    ctx.fillText(label, x, 1);
    lastX = x + lw / 2;
  }
  c.mtrack.dataset.buckets = String(c.mbuckets.length);
}

// How many messages a bucket stands for: exact, or about n * step.
function countLabel(n, step) {
  const v = n * step, s = v > 999 ? Math.round(v / 100) / 10 + 'k' : String(v);
  return step > 1 ? '≈' + s : s;
}

function showMsgTip(c, b) {
  if (!b) { ui.mtip.hidden = true; return; }
  const r = c.run, m = matches(r), show = [];
  for (let i = b.i0; i < b.i1 && show.length < 12; i++) show.push(i);
  const step = r.msgs.step;
  ui.mtip.replaceChildren(el('div', { class: 't', text: (step > 1 ? b.n + ' held of ' + countLabel(b.n, step) : b.n) +
      (b.n === 1 && step === 1 ? ' message' : ' messages') + ', ' + fmtSec(b.t0) +
      (b.n > 1 ? ' – ' + fmtSec(b.t1) : '') }),
    ...show.map(i => el('div', { class: m && m.includes(i) ? 'hit' : '' }, el('span', { class: 'mtime', text: fmtSec(r.msgs.t[i]) }), ' ',
      el('span', { class: 'mtext', text: r.msgs.text[i] }))),
    ...(b.n > show.length ? [el('div', { class: 'more', text: '… ' + (b.n - show.length) + ' more: click to zoom in' })] : []));
  ui.mtip.hidden = false;
  const left = c.mbox.offsetLeft + PAD.l + b.x, width = c.mbox.offsetWidth;
  ui.mtip.style.left = Math.max(0, Math.min(left - 20, width - 340)) + 'px';
  ui.mtip.style.top = (c.mbox.offsetTop + TRACK_H + 4) + 'px';
}

/* The Messages tab: each run's messages in the chart's window, the search
 * over their texts, at most LIST_MAX rows (the count says how many match). */
export function buildMsgPanel() {
  ui.msearch = el('input', { type: 'search', placeholder: 'search messages, or /regex/', 'aria-label': 'search messages',
    oninput: () => { S.msgSearch = ui.msearch.value; drawMsgList(); } });
  ui.msearch.value = S.msgSearch;
  ui.mcount = el('span', { class: 'tcount', role: 'status' });
  ui.mlist = el('div', { class: 'mlist' });
  return el('section', { class: 'panel', 'data-tab': 'msgs' },
    el('div', { class: 'tctl' }, ui.msearch, ui.mcount), ui.mlist);
}

export function drawMsgList() {
  const parts = [], counts = [];
  runs.forEach((r, k) => {
    if (!hasMsgs(r)) return;
    const [w0, w1] = windowOf(r), m = matches(r), ms = r.msgs;
    const rows = [];
    let n = 0;
    const keep = i => ms.t[i] >= w0 && ms.t[i] <= w1;
    for (const i of m || ms.t.keys()) {
      if (!keep(i)) continue;
      n++;
      if (rows.length < LIST_MAX) rows.push(msgRow(r, i));
    }
    counts.push((compare ? (k ? 'after: ' : 'before: ') : '') + n.toLocaleString('en-US') +
      (m ? ' of ' + ms.t.length.toLocaleString('en-US') + ' match' : ' messages') + (S.win ? ' in ' + fmtSec(w0) + ' – ' + fmtSec(w1) : ''));
    if (compare) parts.push(el('h3', { text: (k ? 'after: ' : 'before: ') + (r.d.input || '') }));
    parts.push(el('p', { class: 'hint', text: boundNote(ms) }), el('ol', { class: 'msgs' }, ...rows),
      n > rows.length ? el('p', { class: 'hint', text: '… and ' + (n - rows.length).toLocaleString('en-US') + ' more: narrow the search or zoom the chart' }) : null);
  });
  ui.mcount.textContent = counts.join(' · ');
  ui.mlist.replaceChildren(...parts.filter(Boolean));
}

// A message: its time zooms the chart to it, its text as the log has it.
function msgRow(r, i) {
  const t = r.msgs.t[i];
  return el('li', { 'data-time': String(t) }, el('button', { type: 'button', text: fmtSec(t), title: 'show this moment in the chart',
    onclick: () => {
      const span = (r.end || 1) / 50;
      S.tab = 'chart'; S.tabChosen = true; showTab();
      setWindow(toShared({ run: r }, Math.max(0, t - span / 2)), toShared({ run: r }, t + span / 2));
    } }), ' ', el('span', { class: 'mt', text: r.msgs.text[i] }));
}
