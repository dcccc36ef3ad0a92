/* The time profile over time, drawn: ticks per interval stacked by cost
 * centre (with the run's markers, on the heap chart's time axis), and the
 * cost-centre table for the window. A drag (or the keys) on the chart
 * chooses the window, a row or a frame of the icicle follows one cost
 * centre in both. The figures are tprof.mjs's. */
import { el } from './dom.mjs';
import { fmtPct, fmtSec, niceStep } from './format.mjs';
import { S, runs, ui, windowOf } from './state.mjs';
import { PAD, drawAxes, drawMarkers, sizeCanvas } from './chart.mjs';
import { setWindow } from './hover.mjs';
import { redraw } from './main.mjs';
import { barsOf, bucketNote, chartLayers, focusRows, intervalRange, loadTprof, sortRows, ccRows } from './tprof.mjs';

// the series of the run on show, decoded once per run
export function tprofSeries() {
  const r = runs[0];
  if (r.tseries === undefined) r.tseries = loadTprof(r.tprof, r.d.frames || []);
  return r.tseries;
}

const COLS = [['sw', ''], ['name', 'cost centre'], ['module', 'module'], ['srcloc', 'source'],
  ['self', 'self ticks'], ['inh', 'inherited ticks']];

export function buildTprofView() {
  const t = {};
  t.cv = el('canvas', { class: 'tchart', role: 'img', 'aria-label': 'ticks per interval over time, by cost centre' });
  t.over = el('canvas', { class: 'overlay', tabindex: '0',
    'aria-label': 'time-profile chart: drag, or the arrow keys, + and -, to choose a window; 0 or Escape for the whole run' });
  t.box = el('div', { class: 'plot' }, t.cv, t.over);
  t.unit = el('p', { class: 'hint tunit' });
  t.read = el('div', { class: 'readout', 'aria-live': 'polite' });
  t.keys = el('ul', { class: 'tkeys', 'aria-label': 'what the chart stacks' });
  t.state = el('p', { class: 'tstate', role: 'status' });
  t.caption = el('span', { class: 'tcount' });
  t.thead = el('tr', {}, ...COLS.map(([k, label]) => k === 'sw' ? el('th', { class: 'k-sw' })
    : el('th', { class: 'k-' + k, 'data-key': k, scope: 'col' }, el('button', { type: 'button', text: label,
      onclick: () => { S.tsort = S.tsort[0] === k ? [k, -S.tsort[1]] : [k, k === 'self' || k === 'inh' ? -1 : 1]; drawTprofTable(); } }))));
  t.tbody = el('tbody');
  t.tfoot = el('tfoot');
  t.table = el('table', { class: 'tprof' }, el('thead', {}, t.thead), t.tbody, t.tfoot);
  ui.tp = t;
  hookTchart(t);
  return [t.state, t.unit, t.box, t.read, t.keys, el('h2', { text: 'Cost centres' }),
    el('p', { class: 'tctl' }, t.caption), el('div', { class: 'scroll tpscroll' }, t.table)];
}

function tspan() {
  const ts = tprofSeries();
  const [w0, w1] = windowOf(runs[0]);
  return { ts, w0, w1, k: intervalRange(ts, S.win ? [w0, w1] : null) };
}

export function drawTprofView() {
  if (!ui.tp || !tprofSeries()) return;
  drawTchart();
  drawTprofTable();
}

function follow(name) {
  S.tfocus = S.tfocus === name ? null : name;
  redraw();
}

function drawTchart() {
  const t = ui.tp, { ts, w0, w1, k } = tspan(), run = runs[0];
  const narrow = t.box.clientWidth < 500;
  const { ctx, w, h } = sizeCanvas(t.cv, narrow ? 220 : 300);
  ctx.clearRect(0, 0, w, h);
  const layers = chartLayers(ts, k[0], k[1], narrow ? 6 : 10, S.tfocus);
  const pw = w - PAD.l - PAD.r;
  // bars of at least 3 pixels: intervals summed in twos, threes, ...
  const bars = barsOf(layers, k[0], k[1], Math.max(1, Math.ceil(3 / (pw * ts.w / (w1 - w0 || 1)))));
  // room above the bars: for the markers' labels when there are some
  const marked = run.markers.some(m => m.t >= w0 && m.t <= w1);
  const ph = h - PAD.t - PAD.b, room = marked ? (narrow ? 52 : 20) : 0.08 * ph;
  const ymax = Math.max(1, bars.max) * ph / (ph - room), bw = ts.w * bars.g;
  drawAxes(ctx, w, h, w0, w1, ymax, false, target => ({ step: Math.max(1, niceStep(ymax, target)), fmt: y => String(Math.round(y)) }));
  const X = x => PAD.l + (x - w0) / (w1 - w0 || 1) * pw, Y = y => PAD.t + ph - y / ymax * ph;
  ctx.save();
  ctx.beginPath(); ctx.rect(PAD.l, PAD.t, pw, ph); ctx.clip();
  for (let b = 0; b < bars.tot.length; b++) {
    const x0 = X((bars.b0 + b) * bw), wpx = X((bars.b0 + b + 1) * bw) - x0;
    let acc = 0;
    layers.forEach((L, j) => {
      const v = bars.v[j][b];
      if (!v) return;
      ctx.globalAlpha = L.hatched ? 0.45 : 1;
      ctx.fillStyle = L.colour;
      ctx.fillRect(x0, Y(acc + v), Math.max(1, wpx > 4 ? wpx - 1 : wpx), Y(acc) - Y(acc + v));
      acc += v;
    });
  }
  ctx.restore();
  drawMarkers(ctx, run, w, h, w0, w1);
  sizeCanvas(t.over, h, w).ctx.clearRect(0, 0, w, h); // the overlay covers the plot alone
  t.geo = { w0, w1, pw, ph, w, h, layers, bars, bw, ts };
  t.unit.textContent = 'Ticks per ' + fmtSec(bw) + ' interval' + (S.tfocus ? '' : ', stacked by the cost centres with most self ticks in view') + '.';
  t.keys.replaceChildren(...layers.map(L => el('li', {},
    el('span', { class: 'sw', style: 'background:' + L.colour + (L.hatched ? ';opacity:.45' : '') }), ' ',
    L.name === 'other' || S.tfocus
      ? el('span', { class: 'nm', text: L.name })
      : el('button', { type: 'button', class: 'link', text: L.name, title: 'follow ' + L.name, onclick: () => follow(L.name) }))));
  t.read.replaceChildren();
  drawState();
}

function drawState() {
  const t = ui.tp, { w0, w1 } = tspan();
  const parts = [];
  if (S.tfocus) parts.push('Following ', el('b', { text: S.tfocus }), ' ',
    el('button', { type: 'button', class: 'tall', text: 'all cost centres', onclick: () => follow(S.tfocus) }), ' ');
  else parts.push('Click a cost centre (a row, a key or a frame) to follow it. ');
  const note = S.win && bucketNote(runs[0].tprof, w0);
  if (S.win) parts.push(el('span', { class: 'nw', text: 'Window ' + fmtSec(w0) + ' – ' + fmtSec(w1) }), ' ',
    note ? el('span', { class: 'bucket', text: '(' + note + ') ' }) : '',
    el('button', { type: 'button', class: 'treset', text: 'whole run', onclick: () => { S.win = null; redraw(); } }));
  else parts.push('Drag on the chart to choose a window.');
  t.state.replaceChildren(...parts);
}

export function drawTprofTable() {
  const t = ui.tp, { ts, k } = tspan();
  const { rows, total } = ccRows(ts, k[0], k[1]);
  const shown = sortRows(focusRows(rows, S.tfocus), S.tsort[0], S.tsort[1]);
  const inTop = new Map(t.geo ? t.geo.layers.map(L => [L.name, L.colour]) : []);
  if (S.tfocus && t.geo) inTop.set(S.tfocus, t.geo.layers[0].colour);
  for (const th of t.thead.children) {
    const on = th.dataset.key === S.tsort[0];
    th.dataset.sorted = on ? (S.tsort[1] > 0 ? 'asc' : 'desc') : '';
    if (th.dataset.key) th.setAttribute('aria-sort', on ? (S.tsort[1] > 0 ? 'ascending' : 'descending') : 'none');
  }
  const num = (v, cls) => el('td', { class: 'n ' + cls }, v.toLocaleString('en-US'), el('span', { class: 'pc', text: fmtPct(total ? v / total : 0) }));
  t.tbody.replaceChildren(...shown.map(r => {
    const c = r.c, colour = inTop.get(c.name) || (c.other ? inTop.get('other') : null);
    const attrs = { 'data-cc': c.name, 'data-self': String(r.self), 'data-inh': String(r.inh), class: c.name === S.tfocus ? 'on' : '' };
    if (!c.other) Object.assign(attrs, { tabindex: '0', title: (S.tfocus ? 'click: all cost centres' : 'click: follow ' + c.name),
      onclick: () => follow(c.name), onkeydown: ev => { if (ev.key === 'Enter' || ev.key === ' ') { ev.preventDefault(); follow(c.name); } } });
    return el('tr', attrs,
      el('td', { class: 'k-sw' }, colour ? el('span', { class: 'sw', style: 'background:' + colour }) : null),
      el('td', { class: 'k-name', text: c.label, title: c.name }), el('td', { class: 'k-module', text: c.module }),
      el('td', { class: 'k-srcloc', text: c.srcloc }), num(r.self, 'k-self'), num(r.inh, 'k-inh'));
  }));
  if (!shown.length) t.tbody.replaceChildren(el('tr', {}, el('td', { colspan: '6', class: 'tnone',
    text: (S.tfocus || 'No cost centre') + ' has no tick' + (S.win ? ' in this window' : '') })));
  const tick = runs[0].tprof.tick_us;
  t.tfoot.replaceChildren(el('tr', { 'data-total': String(total) }, el('td'), el('td', { class: 'k-total',
    text: 'all' + (tick ? ' (≈ ' + fmtSec(total * tick / 1e6) + ')' : '') }), el('td', { class: 'k-module' }), el('td', { class: 'k-srcloc' }),
  el('td', { class: 'n k-self', text: total.toLocaleString('en-US') }), el('td', { class: 'k-inh' })));
  const [a, b] = [k[0] * ts.w, Math.min(k[1] * ts.w, runs[0].end)];
  t.caption.textContent = shown.length + ' of ' + rows.length + ' cost centres · ' + total.toLocaleString('en-US') + ' ticks' +
    (S.win ? ' in ' + fmtSec(a) + ' – ' + fmtSec(b) + ' (whole intervals of ' + fmtSec(ts.w) + ')' : ' over the whole run');
}

// the pointer and the keys on the chart
function tAt(t, ev) { const g = t.geo; return g.w0 + (ev.offsetX - PAD.l) / g.pw * (g.w1 - g.w0); }

function hookTchart(t) {
  let drag = null;
  const paint = (x0, x1, fill) => {
    const g = t.geo, { ctx, w, h } = sizeCanvas(t.over, g.h, g.w);
    ctx.clearRect(0, 0, w, h);
    if (x1 == null) return;
    const X = x => Math.max(PAD.l, Math.min(PAD.l + g.pw, PAD.l + (x - g.w0) / (g.w1 - g.w0) * g.pw));
    ctx.fillStyle = fill;
    ctx.fillRect(X(x0), PAD.t, X(x1) - X(x0), g.ph);
  };
  t.over.addEventListener('mousedown', ev => { if (t.geo && ev.button === 0) { const x = tAt(t, ev); drag = { a: x, b: x }; } });
  t.over.addEventListener('mousemove', ev => {
    if (!t.geo) return;
    const x = tAt(t, ev);
    if (drag) { drag.b = x; paint(Math.min(drag.a, x), Math.max(drag.a, x), 'rgba(0,119,187,0.15)'); return; }
    const g = t.geo, b = Math.floor(x / g.bw) - g.bars.b0;
    if (x < g.w0 || x > g.w1 || b < 0 || b >= g.bars.tot.length) { paint(0, null); t.read.replaceChildren(); return; }
    paint((g.bars.b0 + b) * g.bw, (g.bars.b0 + b + 1) * g.bw, 'rgba(0,0,0,0.08)');
    readout(t, b);
  });
  t.over.addEventListener('mouseleave', () => { if (!drag && t.geo) { paint(0, null); t.read.replaceChildren(); } });
  window.addEventListener('mouseup', () => {
    if (!drag) return;
    const a = Math.min(drag.a, drag.b), b = Math.max(drag.a, drag.b), g = t.geo;
    drag = null;
    paint(0, null);
    if (b - a > (g.w1 - g.w0) / 200) setWindow(a, b);
  });
  t.over.addEventListener('dblclick', () => { S.win = null; redraw(); });
  t.over.addEventListener('keydown', ev => {
    const [w0, w1] = windowOf(runs[0]), d = w1 - w0, end = runs[0].end;
    const move = { ArrowLeft: -d / 4, ArrowRight: d / 4 }[ev.key];
    if (move != null) { const m = Math.max(-w0, Math.min(end - w1, move)); setWindow(w0 + m, w1 + m); }
    else if (ev.key === '+' || ev.key === '=') setWindow(w0 + d / 4, w1 - d / 4);
    else if (ev.key === '-') setWindow(Math.max(0, w0 - d / 2), Math.min(end, w1 + d / 2));
    else if (ev.key === '0' || ev.key === 'Escape') { S.win = null; redraw(); }
    else return;
    ev.preventDefault();
  });
}

function readout(t, b) {
  const g = t.geo, bars = g.bars, t0 = (bars.b0 + b) * g.bw;
  const top = g.layers.map((L, j) => [L, bars.v[j][b]]).filter(x => x[1] > 0).sort((x, y) => y[1] - x[1]).slice(0, 4);
  t.read.replaceChildren(el('span', { class: 't', text: fmtSec(t0) + ' – ' + fmtSec(t0 + g.bw) }),
    ': ' + bars.tot[b].toLocaleString('en-US') + ' ticks', ...top.flatMap(([L, v]) => [' · ',
      el('span', { class: 'sw', style: 'background:' + L.colour }), ' ' + L.name + ' ' + v.toLocaleString('en-US')]));
  t.read.dataset.bar = String(bars.b0 + b);
}
