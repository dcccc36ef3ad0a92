/* Pointer work on the chart: the crosshair and readout, the tooltip,
 * drag to zoom on the plot and on the overview. */
import { whereFrom } from './columns.mjs';
import { el, swatch } from './dom.mjs';
import { fmtBytes, fmtExact, fmtSec, midCut } from './format.mjs';
import { nearest } from './stats.mjs';
import { S, app, compare, runs, ui } from './state.mjs';
import { PAD, drawOverview, sizeCanvas } from './chart.mjs';
import { redraw } from './main.mjs';

// offsetX/Y: the overlay covers the plot box, and reading them needs no
// layout of the whole page per pointer move
function timeAt(c, ev) {
  const x = ev.offsetX - PAD.l;
  const g = c.geo;
  return { t: g.w0 + x / g.pw * (g.w1 - g.w0), x, y: ev.offsetY - PAD.t };
}

// The shared time (S.win's axis) for run-local time t of chart c.
export function toShared(c, t) {
  if (!compare || S.timeMode !== 'normalised') return t;
  const e = runs.reduce((m, x) => Math.max(m, x.end), 0) || 1;
  return t / (c.run.end || 1) * e;
}
function fromShared(c, t) {
  if (!compare || S.timeMode !== 'normalised') return t;
  const e = runs.reduce((m, x) => Math.max(m, x.end), 0) || 1;
  return t / e * (c.run.end || 1);
}

function hover(shared, yFrac, src) {
  for (const c of ui.charts) showHover(c, fromShared(c, shared), c === src ? yFrac : null);
}

function showHover(c, t, yFrac) {
  const g = c.geo, run = c.run;
  if (!g || !run.n) return;
  const { ctx, w, h } = sizeCanvas(c.over, g.h, g.w);
  ctx.clearRect(0, 0, w, h);
  const i = nearest(run.t, run.n, t);
  const ts = run.t[i];
  const px = PAD.l + (ts - g.w0) / (g.w1 - g.w0) * g.pw;
  ctx.strokeStyle = '#000'; ctx.lineWidth = 1; ctx.setLineDash([]);
  ctx.beginPath(); ctx.moveTo(Math.round(px) + 0.5, PAD.t); ctx.lineTo(Math.round(px) + 0.5, PAD.t + g.ph); ctx.stroke();
  // the band under the pointer: the layer holding its value
  let under = null, acc = 0, tot = 0;
  for (const s of c.ser) tot += s.v[i];
  if (yFrac != null) {
    const val = (1 - yFrac) * g.ymax;
    if (S.kind === 'line') {
      let best = Infinity;
      for (const s of c.ser) { const d = Math.abs(s.v[i] - val); if (d < best) { best = d; under = s; } }
    } else {
      for (const s of c.ser) {
        const x = S.kind === 'normalized' ? (tot ? s.v[i] / tot : 0) : s.v[i];
        if (val >= acc && val < acc + x) { under = s; break; }
        acc += x;
      }
    }
  }
  c.hoverIndex = i;
  c.under = under;
  const head = el('span', { class: 't', text: 't = ' + fmtSec(ts) + ' (sample ' + (i + 1) + (run.d.exact ? '' : ', max over its interval') + ')' });
  c.read.replaceChildren(head, ' · total shown ' + fmtBytes(tot));
  if (under) {
    c.read.append(el('br'), swatch(under), ' ',
      el('b', { class: 'uname', text: under.name }), ': ', el('span', { class: 'ubytes', text: fmtExact(under.v[i]) }),
      ' (' + fmtBytes(under.v[i]) + ')');
    if (under.band && under.band.src) c.read.append(' ', el('span', { class: 'usrc', text: whereFrom(under.band) }));
  }
  c.read.dataset.time = String(ts);
  c.read.dataset.bytes = under ? String(under.v[i]) : '';
  if (c === ui.charts[0] || yFrac != null) showTip(c, i, px, yFrac);
}

function showTip(c, i, px, yFrac) {
  if (yFrac == null && compare) return;
  const top = c.ser.filter(s => s.v[i] > 0).sort((a, b) => b.v[i] - a.v[i]).slice(0, 8);
  ui.tip.replaceChildren(el('div', { class: 't', text: fmtSec(c.run.t[i]) }),
    ...top.map(s => el('div', {}, swatch(s), ' ' + fmtBytes(s.v[i]) + ' ',
      el('span', { class: 'nm', text: midCut(s.name, 60) }), s.band && s.band.src ? el('span', { class: 'src', text: ' ' + whereFrom(s.band) }) : null)));
  // beside the crosshair, on the side with room (26em wide at most),
  // placed from offsets that stay valid between redraws
  ui.tip.hidden = false;
  const left = c.box.offsetLeft + px, width = c.box.offsetWidth;
  if (px + 360 > width && px > 360) { ui.tip.style.left = ''; ui.tip.style.right = (app.clientWidth - left + 14) + 'px'; }
  else { ui.tip.style.right = ''; ui.tip.style.left = Math.max(0, Math.min(left + 14, app.clientWidth - ui.tip.offsetWidth)) + 'px'; }
  ui.tip.style.top = (c.box.offsetTop + 12 + (yFrac != null ? yFrac * c.geo.ph * 0.5 : 0)) + 'px';
}

export function clearHover() {
  ui.tip.hidden = true;
  for (const c of ui.charts) {
    const ctx = c.over.getContext('2d');
    ctx.clearRect(0, 0, c.over.width, c.over.height);
  }
}

export function hookPlot(c) {
  let drag = null;
  c.over.addEventListener('mousemove', ev => {
    if (!c.geo) return;
    const p = timeAt(c, ev);
    if (drag) { drag.t1 = p.t; drawDrag(c, drag); return; }
    if (p.x < 0 || p.x > c.geo.pw) { clearHover(); return; }
    hover(toShared(c, p.t), Math.min(1, Math.max(0, p.y / c.geo.ph)), c);
  });
  c.over.addEventListener('mouseleave', () => { if (!drag) clearHover(); });
  c.over.addEventListener('mousedown', ev => { if (c.geo && ev.button === 0) { const t = timeAt(c, ev).t; drag = { t0: t, t1: t }; } });
  window.addEventListener('mouseup', () => {
    if (!drag) return;
    const a = Math.min(drag.t0, drag.t1), b = Math.max(drag.t0, drag.t1);
    drag = null;
    if ((b - a) > (c.geo.w1 - c.geo.w0) / 200) setWindow(toShared(c, a), toShared(c, b));
    else clearHover();
  });
  c.over.addEventListener('dblclick', () => { S.win = null; redraw(); });
}

function drawDrag(c, d) {
  const g = c.geo;
  const { ctx, w, h } = sizeCanvas(c.over, g.h, g.w);
  ctx.clearRect(0, 0, w, h);
  const x0 = PAD.l + (Math.min(d.t0, d.t1) - g.w0) / (g.w1 - g.w0) * g.pw;
  const x1 = PAD.l + (Math.max(d.t0, d.t1) - g.w0) / (g.w1 - g.w0) * g.pw;
  ctx.fillStyle = 'rgba(0,119,187,0.15)';
  ctx.fillRect(x0, PAD.t, x1 - x0, g.ph);
}

export function setWindow(a, b) {
  const end = runs.reduce((m, x) => Math.max(m, x.end), 0);
  a = Math.max(0, a); b = Math.min(compare && S.timeMode === 'normalised' ? end : Math.max(end, b), b);
  if (b <= a) return;
  S.win = [a, b];
  redraw();
}

export function hookOverview() {
  let drag = null;
  const tOf = ev => {
    const r = ui.overview.getBoundingClientRect();
    const end = runs.reduce((m, x) => Math.max(m, x.end), 0) || 1;
    return Math.min(end, Math.max(0, (ev.clientX - r.left - PAD.l) / (r.width - PAD.l - PAD.r) * end));
  };
  ui.overview.addEventListener('mousedown', ev => { drag = { a: tOf(ev) }; });
  ui.overview.addEventListener('mousemove', ev => { if (drag) { drag.b = tOf(ev); drawOverview(drag); } });
  window.addEventListener('mouseup', () => {
    if (drag && drag.b != null && Math.abs(drag.b - drag.a) > 0) setWindow(Math.min(drag.a, drag.b), Math.max(drag.a, drag.b));
    drag = null;
  });
}
