/* The canvases: the bands of a run, its axes and markers, the heap lines
 * panel and the overview strip. */
import { doc } from './dom.mjs';
import { byteTicks, timeTicks, yAxisTop } from './format.mjs';
import { lowerBound, reduce, stackUp } from './stats.mjs';
import { S, compare, runs, ui, windowOf } from './state.mjs';

export const PAD = { l: 64, r: 12, t: 10, b: 26 };
const patterns = new Map();
function fillOf(ctx, s) {
  if (!s.hatched) return s.colour;
  if (!patterns.has(s.colour)) {
    const c = doc.createElement('canvas');
    c.width = c.height = 8;
    const g = c.getContext('2d');
    g.fillStyle = s.colour; g.fillRect(0, 0, 8, 8);
    g.strokeStyle = 'rgba(255,255,255,0.75)'; g.lineWidth = 2;
    g.beginPath(); g.moveTo(0, 8); g.lineTo(8, 0); g.moveTo(-2, 2); g.lineTo(2, -2);
    g.moveTo(6, 10); g.lineTo(10, 6); g.stroke();
    patterns.set(s.colour, ctx.createPattern(c, 'repeat'));
  }
  return patterns.get(s.colour);
}

export function sizeCanvas(cv, cssH, cssW) {
  const w = cssW || cv.parentNode.clientWidth || 300, dpr = window.devicePixelRatio || 1;
  if (cv.width !== Math.round(w * dpr) || cv.height !== Math.round(cssH * dpr)) {
    cv.width = Math.round(w * dpr); cv.height = Math.round(cssH * dpr);
    cv.style.height = cssH + 'px';
  }
  const ctx = cv.getContext('2d');
  ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
  return { ctx, w, h: cssH };
}

// The box, the time axis and the y axis (bytes, shares, or the ticks
// `yticks` gives: { step, fmt }).
export function drawAxes(ctx, w, h, w0, w1, ymax, normalized, yticks) {
  ctx.font = '11px system-ui, sans-serif';
  ctx.fillStyle = '#444'; ctx.strokeStyle = '#e4e4e4'; ctx.lineWidth = 1;
  const pw = w - PAD.l - PAD.r, ph = h - PAD.t - PAD.b;
  const yt = yticks ? yticks(ph / 40) : normalized ? { step: 0.2, fmt: y => Math.round(y * 100) + '%' } : byteTicks(ymax, ph / 40);
  ctx.textAlign = 'right'; ctx.textBaseline = 'middle';
  for (let y = 0; y <= ymax * 1.0001; y += yt.step) {
    const py = Math.round(PAD.t + ph - y / ymax * ph);
    ctx.beginPath(); ctx.moveTo(PAD.l, py + 0.5); ctx.lineTo(PAD.l + pw, py + 0.5); ctx.stroke();
    ctx.fillText(yt.fmt(y), PAD.l - 4, py);
  }
  const xt = timeTicks(w1 - w0, pw / 90);
  ctx.textAlign = 'center'; ctx.textBaseline = 'top';
  for (let x = Math.ceil(w0 / xt.step) * xt.step; x <= w1 + 1e-12; x += xt.step) {
    const px = Math.round(PAD.l + (x - w0) / (w1 - w0) * pw);
    ctx.beginPath(); ctx.moveTo(px + 0.5, PAD.t); ctx.lineTo(px + 0.5, PAD.t + ph); ctx.stroke();
    // the last label kept whole inside the canvas, not cut at its edge
    const label = xt.fmt(x), lw = ctx.measureText(label).width;
    ctx.fillText(label, Math.min(px, w - 2 - lw / 2), PAD.t + ph + 5);
  }
  ctx.strokeStyle = '#888';
  ctx.strokeRect(PAD.l + 0.5, PAD.t + 0.5, pw, ph);
}

export function drawMarkers(ctx, run, w, h, w0, w1) {
  const pw = w - PAD.l - PAD.r, ph = h - PAD.t - PAD.b;
  ctx.save();
  ctx.setLineDash([3, 3]); ctx.strokeStyle = '#333'; ctx.fillStyle = '#333';
  ctx.font = '10px system-ui, sans-serif'; ctx.textAlign = 'left'; ctx.textBaseline = 'top';
  let lastX = -1e9, row = 0;
  for (const m of run.markers) {
    if (m.t < w0 || m.t > w1) continue;
    const px = PAD.l + (m.t - w0) / (w1 - w0) * pw;
    ctx.beginPath(); ctx.moveTo(px + 0.5, PAD.t); ctx.lineTo(px + 0.5, PAD.t + ph); ctx.stroke();
    row = px - lastX < 90 ? (row + 1) % 4 : 0;
    lastX = px;
    const label = m.text.length > 24 ? m.text.slice(0, 23) + '…' : m.text;
    const lw = ctx.measureText(label).width;
    ctx.textAlign = px + 3 + lw > PAD.l + pw ? 'right' : 'left';
    ctx.fillText(label, ctx.textAlign === 'right' ? px - 3 : px + 3, PAD.t + 2 + row * 12);
  }
  ctx.restore();
}

// Draws one run's bands into a canvas; returns what hover needs. No
// series: the empty box, no axis to misread (the readout under it says why).
export function drawRun(cv, run, ser, cssH, ymaxShared) {
  const { ctx, w, h } = sizeCanvas(cv, cssH);
  ctx.clearRect(0, 0, w, h);
  const [w0, w1] = windowOf(run);
  const pw = w - PAD.l - PAD.r, ph = h - PAD.t - PAD.b;
  if (!ser.length) {
    ctx.strokeStyle = '#888'; ctx.strokeRect(PAD.l + 0.5, PAD.t + 0.5, pw, ph);
    return { w0, w1, ymax: 1, pw, ph, h, w, ymaxData: 0 };
  }
  const red = reduce(run, ser, w0, w1, Math.max(1, Math.round(pw)));
  const st = stackUp(red, S.kind);
  // shares end at 100%; bytes at a round top above the largest value
  const norm = S.kind === 'normalized', yt = norm ? null : yAxisTop(ymaxShared || st.ymax, ph / 40);
  const ymax = norm ? 1 : yt.top;
  drawAxes(ctx, w, h, w0, w1, ymax, norm, yt && (() => yt));
  const X = x => PAD.l + (x - w0) / (w1 - w0 || 1) * pw;
  const Y = y => PAD.t + ph - y / ymax * ph;
  ctx.save();
  ctx.beginPath(); ctx.rect(PAD.l, PAD.t, pw, ph); ctx.clip();
  const m = red.xs.length;
  st.layers.forEach((L, k) => {
    const s = ser[k];
    ctx.beginPath();
    if (S.kind === 'line') {
      for (let j = 0; j < m; j++) (j ? ctx.lineTo : ctx.moveTo).call(ctx, X(red.xs[j]), Y(L.hi[j]));
      ctx.strokeStyle = s.colour; ctx.lineWidth = 1.5;
      ctx.setLineDash(s.hatched ? [5, 3] : []);
      ctx.stroke();
      return;
    }
    for (let j = 0; j < m; j++) (j ? ctx.lineTo : ctx.moveTo).call(ctx, X(red.xs[j]), Y(L.hi[j]));
    for (let j = m - 1; j >= 0; j--) ctx.lineTo(X(red.xs[j]), Y(L.lo[j]));
    ctx.closePath();
    ctx.fillStyle = fillOf(ctx, s); ctx.fill();
    ctx.strokeStyle = 'rgba(255,255,255,0.6)'; ctx.lineWidth = 0.5; ctx.stroke();
  });
  ctx.restore();
  drawMarkers(ctx, run, w, h, w0, w1);
  return { w0, w1, ymax, pw, ph, h, w, ymaxData: st.ymax };
}

const LINE_LOOK = { heap: ['heap size', '#222', []], live: ['live bytes', '#222', [5, 3]], blocks: ['blocks size', '#777', [2, 2]] };
// The largest heap-line value of run r in its window (the lines' scale).
export function linesMax(run) {
  const [w0, w1] = windowOf(run);
  let ymax = 0;
  for (const k of Object.keys(run.lines)) {
    const L = run.lines[k];
    const i0 = Math.max(0, lowerBound(L.t, w0, 0, L.t.length) - 1);
    const i1 = Math.min(L.t.length, lowerBound(L.t, w1, 0, L.t.length) + 1);
    for (let i = i0; i < i1; i++) if (L.v[i] > ymax) ymax = L.v[i];
  }
  return ymax;
}

// The heap lines of a run: their names in a strip above the plot (never
// over a line), the plot on ymaxShared's scale (a compare page's runs
// share one) or its own.
const LEGEND_H = 16;
export function drawLines(cv, run, cssH, ymaxShared) {
  const keys = Object.keys(run.lines);
  const full = sizeCanvas(cv, (cssH || 120) + LEGEND_H), ctx = full.ctx, w = full.w;
  ctx.clearRect(0, 0, w, full.h);
  const [w0, w1] = windowOf(run);
  const ymax = (ymaxShared || linesMax(run) || 1) * 1.05; // room above the highest point
  drawLineNames(ctx, keys);
  ctx.save(); ctx.translate(0, LEGEND_H);
  const h = full.h - LEGEND_H;
  drawAxes(ctx, w, h, w0, w1, ymax, false);
  const pw = w - PAD.l - PAD.r, ph = h - PAD.t - PAD.b;
  ctx.save(); ctx.beginPath(); ctx.rect(PAD.l, PAD.t, pw, ph); ctx.clip();
  for (const k of keys) {
    const L = run.lines[k], look = LINE_LOOK[k];
    ctx.beginPath();
    let started = false;
    for (let i = 0; i < L.t.length; i++) {
      if (L.t[i] < w0 && i + 1 < L.t.length && L.t[i + 1] < w0) continue;
      const x = PAD.l + (L.t[i] - w0) / (w1 - w0) * pw, y = PAD.t + ph - L.v[i] / ymax * ph;
      if (started) ctx.lineTo(x, y); else ctx.moveTo(x, y);
      started = true;
      if (L.t[i] > w1) break;
    }
    ctx.strokeStyle = look[1]; ctx.setLineDash(look[2]); ctx.lineWidth = 1.3; ctx.stroke();
  }
  ctx.restore();
  ctx.restore();
  return ymax;
}

function drawLineNames(ctx, keys) {
  ctx.font = '11px system-ui, sans-serif'; ctx.textAlign = 'left'; ctx.textBaseline = 'middle';
  let lx = PAD.l;
  const y = LEGEND_H / 2 + 2.5;
  for (const k of keys) {
    const look = LINE_LOOK[k];
    ctx.beginPath(); ctx.moveTo(lx, y); ctx.lineTo(lx + 20, y);
    ctx.strokeStyle = look[1]; ctx.lineWidth = 1.3; ctx.setLineDash(look[2]); ctx.stroke(); ctx.setLineDash([]);
    ctx.fillStyle = '#333'; ctx.fillText(look[0], lx + 24, y);
    lx += ctx.measureText(look[0]).width + 40;
  }
}

// The total heap of every sample of run r, as a silhouette (computed once).
function totalOf(run) {
  if (!run.total) {
    run.total = new Float64Array(run.n);
    for (const b of run.bands) if (!b.excluded) { const bv = b.v; for (let i = 0; i < run.n; i++) run.total[i] += bv[i]; }
  }
  return run.total;
}

// The overview strip: every run's silhouette on one scale (a diff page's
// "after" over its "before", each named at the left), the window shaded.
const OV_LOOK = [['#9bb7d4', '#9bb7d4', '#2f5f8f'], ['rgba(224,130,40,0.35)', '#c0661a', '#a04f0c']];
export function drawOverview(drag) {
  const { ctx, w, h } = sizeCanvas(ui.overview, 44);
  ctx.clearRect(0, 0, w, h);
  const end = runs.reduce((m, x) => Math.max(m, x.end), 0) || 1;
  const pw = w - PAD.l - PAD.r;
  let ymax = 0;
  for (const run of runs) { const tot = totalOf(run); for (let i = 0; i < run.n; i++) if (tot[i] > ymax) ymax = tot[i]; }
  ctx.font = '10px system-ui, sans-serif'; ctx.textAlign = 'right'; ctx.textBaseline = 'middle';
  runs.forEach((run, k) => {
    const tot = totalOf(run), look = OV_LOOK[k % 2];
    const scale = compare && S.timeMode === 'normalised' ? end / (run.end || 1) : 1;
    ctx.beginPath(); ctx.moveTo(PAD.l, h - 4);
    for (let i = 0; i < run.n; i++) ctx.lineTo(PAD.l + run.t[i] * scale / end * pw, h - 4 - tot[i] / (ymax || 1) * (h - 8));
    ctx.lineTo(PAD.l + (run.n ? run.t[run.n - 1] * scale : 0) / end * pw, h - 4); ctx.closePath();
    ctx.fillStyle = look[0]; ctx.fill();
    if (k) { ctx.strokeStyle = look[1]; ctx.lineWidth = 1.2; ctx.stroke(); }
    if (compare) { ctx.fillStyle = look[2]; ctx.fillText(k ? 'after' : 'before', PAD.l - 6, h / 2 + (k ? 8 : -8)); }
  });
  ctx.strokeStyle = '#888'; ctx.lineWidth = 1; ctx.strokeRect(PAD.l + 0.5, 0.5, pw, h - 1);
  const win = drag && drag.b != null ? [Math.min(drag.a, drag.b), Math.max(drag.a, drag.b)] : S.win;
  if (win) {
    ctx.fillStyle = 'rgba(0,0,0,0.18)';
    ctx.fillRect(PAD.l, 0, win[0] / end * pw, h);
    ctx.fillRect(PAD.l + win[1] / end * pw, 0, pw - win[1] / end * pw, h);
  }
}
