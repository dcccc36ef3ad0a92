/*
 * heapscope's report page. Reads the data document embedded in
 * the "hs-data" script element (see include/heapscope/page.h), draws it in
 * canvases and keeps every view (chart, heap lines, legend, band table,
 * GC figures, flame views) in step with one state object. No library, no
 * network: the page's Content-Security-Policy forbids both.
 */
'use strict';
(function () {
  const scriptStart = performance.now();
  const doc = document;
  const html = doc.documentElement;

  /* --- decoding ------------------------------------------------------- */

  // Digit values of the column encoding: 'A'..'f' end a varint, the
  // others carry five more bits (page.h).
  const DIGIT = new Int8Array(128).fill(-1);
  const MORE = new Uint8Array(128);
  'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdef'.split('').forEach((c, i) => { DIGIT[c.charCodeAt(0)] = i; });
  'ghijklmnopqrstuvwxyz0123456789-_'.split('').forEach((c, i) => {
    DIGIT[c.charCodeAt(0)] = i; MORE[c.charCodeAt(0)] = 1;
  });

  // An encoded column of n values (a short column repeats its last).
  // Token digits below 2^30 (nearly all) are gathered with integer
  // operations, longer tokens as doubles, exact up to 2^53 as the page's
  // values are.
  // Into `out` when given: one buffer for all of a run's bands, as
  // chromium takes some 10 us to allocate each typed array's own.
  function decodeColumn(s, n, out) {
    out = out || new Float64Array(n);
    const len = s.length;
    let prev = 0, k = 0, i = 0;
    while (i < len && k < n) {
      let c = s.charCodeAt(i++);
      let v = DIGIT[c], more = MORE[c];
      for (let shift = 5; more && shift < 30 && i < len; shift += 5) {
        c = s.charCodeAt(i++);
        v |= DIGIT[c] << shift;
        more = MORE[c];
      }
      for (let scale = 1073741824; more && i < len; scale *= 32) {
        c = s.charCodeAt(i++);
        v += DIGIT[c] * scale;
        more = MORE[c];
      }
      // odd: a run of `half` repeats; even: a zigzag delta
      const odd = v % 2, half = (v - odd) / 2;
      if (odd) {
        const to = Math.min(n, k + half);
        out.fill(prev, k, to);
        k = to;
      } else {
        prev += half % 2 ? -(half + 1) / 2 : half / 2;
        out[k++] = prev;
      }
    }
    out.fill(prev, k);
    return out;
  }

  function loadRun(d) {
    const n = d.points;
    const t = decodeColumn(d.t, n);
    for (let i = 1; i < n; i++) t[i] += t[i - 1];
    for (let i = 0; i < n; i++) t[i] /= 1e6;
    const store = new Float64Array(n * d.bands.length);
    const bands = d.bands.map((b, i) => {
      const v = decodeColumn(b.d, n, store.subarray(i * n, (i + 1) * n));
      if (b.g !== 1) for (let k = 0; k < n; k++) v[k] *= b.g;
      return {
        i, name: b.n, colour: b.c, hatched: !!b.h, excluded: !!b.x,
        peak: b.pk, peakT: b.pt / 1e6, bs: b.bs, sd: b.sd, v,
        stack: b.s ? b.s.slice().reverse() : null
      };
    });
    const lines = {};
    for (const k of Object.keys(d.lines || {})) {
      const [m, tc, vc] = d.lines[k];
      const lt = decodeColumn(tc, m), lv = decodeColumn(vc, m);
      for (let i = 1; i < m; i++) lt[i] += lt[i - 1];
      // capabilities post their heap events in their own blocks, so the
      // points come in time order only per capability: sort them
      const order = Array.from(lt.keys()).sort((a, b) => lt[a] - lt[b]);
      lines[k] = { t: Float64Array.from(order, i => lt[i] / 1e6), v: Float64Array.from(order, i => lv[i]) };
    }
    const frames = (d.frames || []).map(f => Array.isArray(f) ? f[0] + '.' + f[1] : f);
    const end = Math.max(d.end_us / 1e6, n ? t[n - 1] : 0);
    return {
      d, n, t, bands, lines, frames, end,
      markers: (d.markers || []).map(m => ({ t: m[0] / 1e6, text: m[1] })),
      tprof: d.tprof, gc: d.gc
    };
  }

  /* --- formatting ----------------------------------------------------- */

  const UNITS = ['B', 'KiB', 'MiB', 'GiB', 'TiB'];
  function fmtBytes(v) {
    let k = 0;
    while (Math.abs(v) >= 1024 && k < 4) { v /= 1024; k++; }
    if (k === 0) return Math.round(v) + ' B';
    const a = Math.abs(v);
    return v.toFixed(a < 10 ? 2 : a < 100 ? 1 : 0) + ' ' + UNITS[k];
  }
  function fmtExact(v) {
    return Math.round(v).toLocaleString('en-US') + ' B';
  }
  function fmtSec(s) {
    if (s === 0) return '0 s';
    if (Math.abs(s) < 1) return (s * 1000).toFixed(s < 0.01 ? 2 : 1) + ' ms';
    if (Math.abs(s) < 120) return s.toFixed(3) + ' s';
    return (s / 60).toFixed(2) + ' min';
  }
  function fmtPct(x) { return (100 * x).toFixed(x < 0.001 ? 2 : 1) + '%'; }
  function el(tag, attrs, ...kids) {
    const e = doc.createElement(tag);
    for (const k in attrs || {}) {
      if (k === 'class') e.className = attrs[k];
      else if (k === 'text') e.textContent = attrs[k];
      else if (k.startsWith('on')) e.addEventListener(k.slice(2), attrs[k]);
      else e.setAttribute(k, attrs[k]);
    }
    for (const c of kids) if (c != null) e.append(c);
    return e;
  }
  function niceStep(range, target) {
    const raw = range / Math.max(1, target);
    const p = Math.pow(10, Math.floor(Math.log10(raw)));
    const m = raw / p;
    return (m < 1.5 ? 1 : m < 3 ? 2 : m < 7 ? 5 : 10) * p;
  }
  function lowerBound(a, x, lo, hi) {
    while (lo < hi) { const m = (lo + hi) >> 1; if (a[m] < x) lo = m + 1; else hi = m; }
    return lo;
  }
  function nearest(a, n, x) {
    const i = lowerBound(a, x, 0, n);
    if (i === 0) return 0;
    if (i >= n) return n - 1;
    return x - a[i - 1] <= a[i] - x ? i - 1 : i;
  }

  /* --- state ---------------------------------------------------------- */

  const data = JSON.parse(doc.getElementById('hs-data').textContent);
  const compare = !!data.compare;
  let runs = compare ? [loadRun(data.before), loadRun(data.after)] : [loadRun(data)];
  const first = compare ? data.before : data;
  const S = {
    kind: first.state.kind, sort: first.state.sort, nbands: first.state.bands,
    search: '', visible: null, // null: every band the search keeps
    win: null, // [t0, t1] seconds, or null: everything
    timeMode: 'normalised', // compare pages
    markA: null, tab: 'chart', tableSort: ['bs', -1], tableFilter: '',
    flameWeight: 'peak', flameCap: -1, flameRoot: []
  };
  html.classList.add('js');

  function searchTest() {
    const q = S.search.trim();
    if (!q) return null;
    const m = /^\/(.*)\/([a-z]*)$/.exec(q);
    if (m) {
      try { const re = new RegExp(m[1], m[2]); return s => re.test(s); } catch (e) { return () => false; }
    }
    const l = q.toLowerCase();
    return s => s.toLowerCase().includes(l);
  }

  /* The series a run draws: bands by name so two runs agree. */
  function chooseSeries(run) {
    const test = searchTest();
    let cand = run.bands.filter(b => !b.excluded && (!test || test(b.name)));
    const other = [];
    if (S.visible) cand = cand.filter(b => S.visible.has(b.name));
    cand.sort((a, b) => b.bs - a.bs || (a.name < b.name ? -1 : 1));
    let shown = cand;
    if (!S.visible && S.nbands > 0 && cand.length > S.nbands) {
      shown = cand.slice(0, S.nbands);
      other.push(...cand.slice(S.nbands));
    }
    if (S.sort === 'name') shown.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    else if (S.sort === 'stddev') shown.sort((a, b) => b.sd - a.sd || b.bs - a.bs);
    const ser = shown.map(b => ({ band: b, name: b.name, colour: b.colour, hatched: b.hatched, v: b.v }));
    if (other.length) {
      // summing the rest costs bands x points: only when the choice changes
      const key = S.search + '\u0000' + S.nbands + '\u0000' + other.length;
      if (!run.other || run.other.key !== key) {
        const v = new Float64Array(run.n);
        for (const b of other) { const bv = b.v; for (let k = 0; k < run.n; k++) v[k] += bv[k]; }
        run.other = { key, v };
      }
      ser.push({ band: null, name: 'OTHER (' + other.length + ' bands)', colour: '#bbbbbb', hatched: false, v: run.other.v, members: other });
    }
    return ser;
  }

  /* --- the chart -------------------------------------------------------- */

  const PAD = { l: 64, r: 12, t: 10, b: 26 };
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

  function sizeCanvas(cv, cssH, cssW) {
    const w = cssW || cv.parentNode.clientWidth || 300, dpr = window.devicePixelRatio || 1;
    if (cv.width !== Math.round(w * dpr) || cv.height !== Math.round(cssH * dpr)) {
      cv.width = Math.round(w * dpr); cv.height = Math.round(cssH * dpr);
      cv.style.height = cssH + 'px';
    }
    const ctx = cv.getContext('2d');
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    return { ctx, w, h: cssH };
  }

  // The time window of run r in its own seconds.
  function windowOf(r) {
    if (!S.win) return [0, r.end || 1];
    if (compare && S.timeMode === 'normalised') {
      const e = runs.reduce((m, x) => Math.max(m, x.end), 0) || 1;
      return [S.win[0] / e * r.end, S.win[1] / e * r.end];
    }
    return S.win;
  }

  // Per pixel column, each series' largest value in it (full detail
  // when there are fewer samples than columns).
  function reduce(run, ser, w0, w1, cols) {
    const i0 = Math.max(0, lowerBound(run.t, w0, 0, run.n) - 1);
    const i1 = Math.min(run.n, lowerBound(run.t, w1, 0, run.n) + 1);
    const xs = [], vals = ser.map(() => []);
    if (i1 - i0 <= cols) {
      for (let i = i0; i < i1; i++) {
        xs.push(run.t[i]);
        ser.forEach((s, k) => vals[k].push(s.v[i]));
      }
      return { xs, vals };
    }
    const span = (w1 - w0) || 1;
    let col = -1;
    for (let i = i0; i < i1; i++) {
      const c = Math.floor((run.t[i] - w0) / span * cols);
      if (c !== col) {
        col = c; xs.push(run.t[i]);
        ser.forEach((s, k) => vals[k].push(s.v[i]));
      } else {
        const j = xs.length - 1;
        ser.forEach((s, k) => { if (s.v[i] > vals[k][j]) vals[k][j] = s.v[i]; });
      }
    }
    return { xs, vals };
  }

  function stackUp(red, kind) {
    const m = red.xs.length, out = [];
    let base = new Float64Array(m), ymax = 0;
    const tot = new Float64Array(m);
    if (kind === 'normalized') red.vals.forEach(v => { for (let j = 0; j < m; j++) tot[j] += v[j]; });
    for (const v of red.vals) {
      const top = new Float64Array(m);
      for (let j = 0; j < m; j++) {
        const x = kind === 'normalized' ? (tot[j] > 0 ? v[j] / tot[j] : 0) : v[j];
        top[j] = kind === 'line' ? x : base[j] + x;
        if (top[j] > ymax) ymax = top[j];
      }
      out.push({ lo: kind === 'line' ? null : base, hi: top });
      base = top;
    }
    return { layers: out, ymax: kind === 'normalized' ? 1 : ymax };
  }

  // Ticks at round numbers of the unit the largest value is shown in
  // (bytes in KiB/MiB/..., times in ms or s).
  function byteTicks(ymax, target) {
    let k = 0, u = 1;
    while (ymax / u >= 1024 && k < 4) { u *= 1024; k++; }
    const step = niceStep(ymax / u, target) * u;
    const dec = Math.max(0, -Math.floor(Math.log10(step / u) + 1e-9));
    return { step, fmt: y => (k ? (y / u).toFixed(dec) : Math.round(y)) + ' ' + UNITS[k] };
  }
  function timeTicks(span, target) {
    const ms = span < 2;
    const u = ms ? 1e-3 : 1;
    const step = niceStep(span / u, target) * u;
    const dec = Math.max(0, -Math.floor(Math.log10(step / u) + 1e-9));
    return { step, fmt: x => (x / u).toFixed(dec) + (ms ? ' ms' : ' s') };
  }

  function drawAxes(ctx, w, h, w0, w1, ymax, normalized) {
    ctx.font = '11px system-ui, sans-serif';
    ctx.fillStyle = '#444'; ctx.strokeStyle = '#e4e4e4'; ctx.lineWidth = 1;
    const pw = w - PAD.l - PAD.r, ph = h - PAD.t - PAD.b;
    const yt = normalized ? { step: 0.2, fmt: y => Math.round(y * 100) + '%' } : byteTicks(ymax, ph / 40);
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
      ctx.fillText(xt.fmt(x), px, PAD.t + ph + 5);
    }
    ctx.strokeStyle = '#888';
    ctx.strokeRect(PAD.l + 0.5, PAD.t + 0.5, pw, ph);
  }

  function drawMarkers(ctx, run, w, h, w0, w1) {
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

  // Draws one run's bands into a canvas; returns what hover needs.
  function drawRun(cv, run, ser, cssH, ymaxShared) {
    const { ctx, w, h } = sizeCanvas(cv, cssH);
    ctx.clearRect(0, 0, w, h);
    const [w0, w1] = windowOf(run);
    const pw = w - PAD.l - PAD.r, ph = h - PAD.t - PAD.b;
    const red = reduce(run, ser, w0, w1, Math.max(1, Math.round(pw)));
    const st = stackUp(red, S.kind);
    const ymax = ymaxShared || st.ymax || 1;
    drawAxes(ctx, w, h, w0, w1, ymax, S.kind === 'normalized');
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

  /* --- heap lines panel --------------------------------------------------- */

  const LINE_LOOK = { heap: ['heap size', '#222', []], live: ['live bytes', '#222', [5, 3]], blocks: ['blocks size', '#777', [2, 2]] };
  function drawLines(cv, run) {
    const keys = Object.keys(run.lines);
    const { ctx, w, h } = sizeCanvas(cv, 120);
    ctx.clearRect(0, 0, w, h);
    const [w0, w1] = windowOf(run);
    let ymax = 0;
    for (const k of keys) {
      const L = run.lines[k];
      const i0 = Math.max(0, lowerBound(L.t, w0, 0, L.t.length) - 1);
      const i1 = Math.min(L.t.length, lowerBound(L.t, w1, 0, L.t.length) + 1);
      for (let i = i0; i < i1; i++) if (L.v[i] > ymax) ymax = L.v[i];
    }
    ymax = (ymax || 1) * 1.05; // room above the highest point
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
    // their names, top left inside the panel
    ctx.font = '11px system-ui, sans-serif'; ctx.textAlign = 'left'; ctx.textBaseline = 'middle';
    let lx = PAD.l + 8;
    for (const k of keys) {
      const look = LINE_LOOK[k];
      ctx.fillStyle = 'rgba(255,255,255,0.85)'; ctx.fillRect(lx - 3, PAD.t + 3, ctx.measureText(look[0]).width + 32, 15);
      ctx.beginPath(); ctx.moveTo(lx, PAD.t + 10.5); ctx.lineTo(lx + 20, PAD.t + 10.5);
      ctx.strokeStyle = look[1]; ctx.setLineDash(look[2]); ctx.stroke(); ctx.setLineDash([]);
      ctx.fillStyle = '#333'; ctx.fillText(look[0], lx + 24, PAD.t + 10.5);
      lx += ctx.measureText(look[0]).width + 40;
    }
  }

  /* --- page structure --------------------------------------------------- */

  const app = doc.getElementById('app');
  const ui = {};
  function option(v, label, cur) { const o = el('option', { value: v, text: label }); if (v === cur) o.selected = true; return o; }

  function buildControls() {
    ui.kind = el('select', { 'aria-label': 'chart kind', onchange: () => { S.kind = ui.kind.value; redraw(); } },
      option('area', 'stacked', S.kind), option('normalized', 'normalized', S.kind), option('line', 'lines', S.kind));
    ui.sort = el('select', { 'aria-label': 'stack order', onchange: () => { S.sort = ui.sort.value; redraw(); } },
      option('size', 'by size', S.sort), option('name', 'by name', S.sort), option('stddev', 'by stddev', S.sort));
    ui.nbands = el('input', { type: 'number', min: '0', value: String(S.nbands), 'aria-label': 'bands drawn', class: 'num',
      onchange: () => { S.nbands = Math.max(0, parseInt(ui.nbands.value, 10) || 0); redraw(); } });
    ui.search = el('input', { type: 'search', placeholder: 'search bands, or /regex/', 'aria-label': 'search bands',
      oninput: () => { S.search = ui.search.value; S.visible = null; redraw(); } });
    ui.all = el('button', { type: 'button', text: 'all', onclick: () => { S.visible = null; S.search = ''; ui.search.value = ''; redraw(); } });
    ui.reset = el('button', { type: 'button', text: 'reset zoom', onclick: () => { S.win = null; S.markA = null; redraw(); } });
    const bits = [ui.kind, ui.sort, el('label', {}, 'bands ', ui.nbands), ui.search, ui.all, ui.reset];
    if (compare) {
      ui.time = el('select', { 'aria-label': 'time axis', onchange: () => { S.timeMode = ui.time.value; S.win = null; redraw(); } },
        option('normalised', 'time normalised', S.timeMode), option('absolute', 'time in seconds', S.timeMode));
      bits.push(ui.time);
    }
    return el('div', { class: 'controls' }, ...bits);
  }

  function buildTabs() {
    const r = runs[0];
    const tabs = [];
    if (r.n) tabs.push(['chart', 'Chart'], ['bands', 'Bands']);
    if (!compare && r.bands.some(b => b.stack)) tabs.push(['flame', 'Cost centres']);
    if (!compare && r.tprof) tabs.push(['time', 'Time profile']);
    if (!compare) tabs.push(['run', r.gc ? 'GC and run' : 'Run']);
    if (!tabs.some(t => t[0] === S.tab)) S.tab = tabs[0][0];
    ui.tabs = el('nav', { class: 'tabs', role: 'tablist' }, ...tabs.map(([id, label]) =>
      el('button', { type: 'button', role: 'tab', 'data-tab': id, text: label, onclick: () => { S.tab = id; showTab(); } })));
    return ui.tabs;
  }

  function showTab() {
    for (const b of ui.tabs.children) b.setAttribute('aria-selected', b.dataset.tab === S.tab ? 'true' : 'false');
    for (const p of app.querySelectorAll('.panel')) p.hidden = p.dataset.tab !== S.tab;
    ui.controls.hidden = S.tab !== 'chart';
    redraw();
  }

  function buildChartPanel() {
    ui.charts = runs.map((r, k) => {
      const box = el('div', { class: 'plot' });
      const cv = el('canvas', { class: 'bands', role: 'img', 'aria-label': 'heap by band' });
      const over = el('canvas', { class: 'overlay' });
      box.append(cv, over);
      const lbox = el('div', { class: 'plot lines' });
      const lc = el('canvas', { class: 'heaplines', role: 'img', 'aria-label': 'heap size, live bytes and blocks' });
      lbox.append(lc);
      const title = compare ? el('h3', { text: (k ? 'after: ' : 'before: ') + (r.d.input || r.d.title || '') }) : null;
      const read = el('div', { class: 'readout', 'aria-live': 'polite' });
      return { run: r, box, cv, over, lbox, lc, read, title, geo: null, ser: [] };
    });
    ui.legend = el('ul', { class: 'legend' });
    ui.tip = el('div', { class: 'tip', hidden: '' });
    ui.overview = el('canvas', { class: 'overview', 'aria-label': 'overview: drag to zoom' });
    ui.ovbox = el('div', { class: 'plot ov' }, ui.overview);
    ui.markers = el('ol', { class: 'markers' });
    ui.note = el('p', { class: 'note' });
    const parts = [];
    for (const c of ui.charts) {
      parts.push(c.title, c.box, c.read);
      if (Object.keys(c.run.lines).length) parts.push(c.lbox);
    }
    const panel = el('section', { class: 'panel', 'data-tab': 'chart' },
      el('div', { class: 'chartgrid' }, el('div', { class: 'plots' }, ...parts, ui.ovbox), ui.legend),
      ui.note, runs[0].markers.length ? el('h2', { text: 'Markers' }) : null, ui.markers, ui.tip);
    for (const c of ui.charts) hookPlot(c);
    hookOverview();
    return panel;
  }

  /* --- hover, drag zoom ---------------------------------------------------- */

  // offsetX/Y: the overlay covers the plot box, and reading them needs no
  // layout of the whole page per pointer move
  function timeAt(c, ev) {
    const x = ev.offsetX - PAD.l;
    const g = c.geo;
    return { t: g.w0 + x / g.pw * (g.w1 - g.w0), x, y: ev.offsetY - PAD.t };
  }

  // The shared time (S.win's axis) for run-local time t of chart c.
  function toShared(c, t) {
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
      c.read.append(el('br'), el('span', { class: 'sw', style: 'background:' + under.colour }), ' ',
        el('b', { class: 'uname', text: under.name }), ': ', el('span', { class: 'ubytes', text: fmtExact(under.v[i]) }),
        ' (' + fmtBytes(under.v[i]) + ')');
    }
    c.read.dataset.time = String(ts);
    c.read.dataset.bytes = under ? String(under.v[i]) : '';
    if (c === ui.charts[0] || yFrac != null) showTip(c, i, px, yFrac);
  }

  function showTip(c, i, px, yFrac) {
    if (yFrac == null && compare) return;
    const top = c.ser.filter(s => s.v[i] > 0).sort((a, b) => b.v[i] - a.v[i]).slice(0, 8);
    ui.tip.replaceChildren(el('div', { class: 't', text: fmtSec(c.run.t[i]) }),
      ...top.map(s => el('div', {}, el('span', { class: 'sw', style: 'background:' + s.colour }), ' ' + fmtBytes(s.v[i]) + ' ',
        el('span', { class: 'nm', text: s.name.length > 60 ? s.name.slice(0, 59) + '…' : s.name }))));
    // beside the crosshair, on the side with room (26em wide at most),
    // placed from offsets that stay valid between redraws
    ui.tip.hidden = false;
    const left = c.box.offsetLeft + px, width = c.box.offsetWidth;
    if (px + 360 > width && px > 360) { ui.tip.style.left = ''; ui.tip.style.right = (app.clientWidth - left + 14) + 'px'; }
    else { ui.tip.style.right = ''; ui.tip.style.left = Math.min(left + 14, Math.max(0, app.clientWidth - 200)) + 'px'; }
    ui.tip.style.top = (c.box.offsetTop + 12 + (yFrac != null ? yFrac * c.geo.ph * 0.5 : 0)) + 'px';
  }

  function clearHover() {
    ui.tip.hidden = true;
    for (const c of ui.charts) {
      const ctx = c.over.getContext('2d');
      ctx.clearRect(0, 0, c.over.width, c.over.height);
    }
  }

  function hookPlot(c) {
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

  function setWindow(a, b) {
    const end = runs.reduce((m, x) => Math.max(m, x.end), 0);
    a = Math.max(0, a); b = Math.min(compare && S.timeMode === 'normalised' ? end : Math.max(end, b), b);
    if (b <= a) return;
    S.win = [a, b];
    redraw();
  }

  function hookOverview() {
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

  function drawOverview(drag) {
    const run = runs[0];
    const { ctx, w, h } = sizeCanvas(ui.overview, 44);
    ctx.clearRect(0, 0, w, h);
    const end = runs.reduce((m, x) => Math.max(m, x.end), 0) || 1;
    const pw = w - PAD.l - PAD.r;
    // the total heap of every sample, as a silhouette (computed once)
    if (!run.total) {
      run.total = new Float64Array(run.n);
      for (const b of run.bands) if (!b.excluded) { const bv = b.v; for (let i = 0; i < run.n; i++) run.total[i] += bv[i]; }
    }
    const tot = run.total;
    let ymax = 0;
    for (let i = 0; i < run.n; i++) if (tot[i] > ymax) ymax = tot[i];
    ctx.fillStyle = '#9bb7d4';
    ctx.beginPath(); ctx.moveTo(PAD.l, h - 4);
    const scale = compare && S.timeMode === 'normalised' ? end / (run.end || 1) : 1;
    for (let i = 0; i < run.n; i++) ctx.lineTo(PAD.l + run.t[i] * scale / end * pw, h - 4 - tot[i] / (ymax || 1) * (h - 8));
    ctx.lineTo(PAD.l + (run.n ? run.t[run.n - 1] * scale : 0) / end * pw, h - 4); ctx.closePath(); ctx.fill();
    ctx.strokeStyle = '#888'; ctx.strokeRect(PAD.l + 0.5, 0.5, pw, h - 1);
    const win = drag && drag.b != null ? [Math.min(drag.a, drag.b), Math.max(drag.a, drag.b)] : S.win;
    if (win) {
      ctx.fillStyle = 'rgba(0,0,0,0.18)';
      ctx.fillRect(PAD.l, 0, win[0] / end * pw, h);
      ctx.fillRect(PAD.l + win[1] / end * pw, 0, pw - win[1] / end * pw, h);
    }
  }

  /* --- legend and markers --------------------------------------------------- */

  function legendClick(ev, s) {
    if (!s.band) return;
    const name = s.name;
    if (ev.ctrlKey || ev.shiftKey || ev.metaKey) {
      if (!S.visible) S.visible = new Set(ui.charts[0].ser.filter(x => x.band).map(x => x.name));
      if (S.visible.has(name)) S.visible.delete(name); else S.visible.add(name);
      if (!S.visible.size) S.visible = null;
    } else {
      S.visible = S.visible && S.visible.size === 1 && S.visible.has(name) ? null : new Set([name]);
    }
    redraw();
  }

  function drawLegend() {
    const seen = new Map();
    for (const c of ui.charts) for (const s of c.ser) {
      const [w0, w1] = windowOf(c.run);
      let pk = 0;
      for (let i = 0; i < c.run.n; i++) if (c.run.t[i] >= w0 && c.run.t[i] <= w1 && s.v[i] > pk) pk = s.v[i];
      const e = seen.get(s.name);
      if (!e) seen.set(s.name, { s, pk }); else e.pk = Math.max(e.pk, pk);
    }
    // top of the first run's stack first, then what only the other has
    const items = [...seen.values()].reverse();
    const firstNames = new Set(ui.charts[0].ser.map(s => s.name));
    items.sort((x, y) => firstNames.has(y.s.name) - firstNames.has(x.s.name));
    ui.legend.replaceChildren(...items.map(({ s, pk }) => {
      const li = el('li', { class: s.band ? 'band' : 'other', title: s.name, 'data-name': s.name,
        onclick: ev => legendClick(ev, s) },
      el('span', { class: 'sw' + (s.hatched ? ' hatched' : ''), style: 'background-color:' + s.colour }),
      el('span', { class: 'nm', text: s.name }), el('span', { class: 'pk', text: fmtBytes(pk) }));
      if (S.visible && S.visible.has(s.name)) li.classList.add('on');
      return li;
    }));
  }

  function drawMarkerList() {
    const run = runs[0];
    ui.markers.replaceChildren(...run.markers.map((m, k) => {
      const li = el('li', { 'data-time': String(m.t) },
        el('button', { type: 'button', text: fmtSec(m.t), title: 'choose two markers to set the window',
          onclick: () => {
            if (S.markA == null) { S.markA = k; drawMarkerList(); return; }
            const a = run.markers[S.markA].t, b = m.t;
            S.markA = null;
            if (a !== b) setWindow(Math.min(a, b), Math.max(a, b)); else drawMarkerList();
          } }), ' ', el('span', { class: 'mt', text: m.text }));
      if (S.markA === k) li.classList.add('on');
      return li;
    }));
  }

  /* --- drawing everything ------------------------------------------------- */

  let pending = false;
  function redraw() {
    if (pending) return;
    pending = true;
    requestAnimationFrame(() => { pending = false; redrawNow(); });
  }

  function redrawNow() {
    if (S.tab === 'chart' && ui.charts) {
      for (const c of ui.charts) c.ser = chooseSeries(c.run);
      let shared = 0;
      if (compare && S.kind !== 'normalized') {
        for (const c of ui.charts) {
          const [w0, w1] = windowOf(c.run);
          const red = reduce(c.run, c.ser, w0, w1, 400);
          shared = Math.max(shared, stackUp(red, S.kind).ymax);
        }
      }
      for (const c of ui.charts) {
        c.geo = drawRun(c.cv, c.run, c.ser, c.cv.parentNode.clientWidth < 500 ? 260 : 380, shared || 0);
        if (Object.keys(c.run.lines).length) drawLines(c.lc, c.run);
      }
      drawOverview(null);
      drawLegend();
      drawMarkerList();
      const r = runs[0];
      ui.note.textContent = (r.d.exact ? '' : 'This page holds ' + r.n.toLocaleString('en-US') + ' points for ' +
        r.d.samples.toLocaleString('en-US') + ' samples: each point is the largest value of its interval; the CSV has every sample. ') +
        (r.d.complete ? '' : doc.querySelector('meta[name="heapscope-live"]')
          ? 'Live: the page follows the program as its log arrives. '
          : 'The log stops without its end marker: the program was cut short. ');
      ui.note.hidden = !ui.note.textContent;
      clearHover();
    }
    if (S.tab === 'bands') drawTable();
    if (S.tab === 'flame') drawFlame();
    if (S.tab === 'time') drawTimeFlame();
    window.heapscope.drawn = ui.charts ? ui.charts.map(c => c.ser.map(s => s.name)) : [];
    if (window.heapscope.firstDraw == null) window.heapscope.firstDraw = performance.now();
  }

  window.heapscope = { state: S, runs, redraw: redrawNow, scriptStart, get busy() { return pending; } };
  /* --- the band table: every band, virtualised ---------------------------- */

  const ROW_H = 30;
  function windowStats(run) {
    const [w0, w1] = windowOf(run);
    const i0 = lowerBound(run.t, w0, 0, run.n), i1 = lowerBound(run.t, w1 * (1 + 1e-12) + 1e-12, 0, run.n);
    const out = run.bands.map(b => {
      let pk = 0, pt = i0 < run.n ? run.t[i0] : 0, bs = 0;
      const v = b.v, t = run.t;
      for (let i = i0; i < i1; i++) {
        if (v[i] > pk) { pk = v[i]; pt = t[i]; }
        if (i + 1 < i1) bs += (v[i] + v[i + 1]) / 2 * (t[i + 1] - t[i]);
      }
      if (i1 - i0 === 1) bs = v[i0];
      return { b, pk, pt, bs };
    });
    const total = out.reduce((a, x) => a + x.bs, 0);
    for (const x of out) x.share = total > 0 ? x.bs / total : 0;
    return out;
  }

  function sparkline(b, run) {
    if (b.spark) return b.spark;
    const W = 80, H = 18, n = run.n;
    let max = 0;
    for (let i = 0; i < n; i++) if (b.v[i] > max) max = b.v[i];
    const cols = new Float64Array(W);
    for (let i = 0; i < n; i++) {
      const c = Math.min(W - 1, Math.floor((run.t[i] / (run.end || 1)) * W));
      if (b.v[i] > cols[c]) cols[c] = b.v[i];
    }
    let d = 'M0 ' + H;
    for (let c = 0; c < W; c++) d += 'L' + c + ' ' + (H - (max ? cols[c] / max * (H - 2) : 0)).toFixed(1);
    d += 'L' + (W - 1) + ' ' + H + 'Z';
    b.spark = d;
    return d;
  }

  function svgSpark(d, colour) {
    const ns = 'http://www.w3.org/2000/svg';
    const s = doc.createElementNS(ns, 'svg');
    s.setAttribute('viewBox', '0 0 80 18'); s.setAttribute('class', 'spark');
    s.setAttribute('preserveAspectRatio', 'none');
    const p = doc.createElementNS(ns, 'path');
    p.setAttribute('d', d); p.setAttribute('fill', colour);
    s.append(p);
    return s;
  }

  function buildTablePanel() {
    const cols = [['sw', ''], ['name', 'band'], ['pk', 'peak'], ['pt', 'at'], ['bs', 'share'], ['sp', 'over time']];
    ui.thead = el('div', { class: 'trow thead', role: 'row' }, ...cols.map(([k, label]) =>
      el('span', { class: 'c-' + k, role: 'columnheader', text: label, 'data-key': k,
        onclick: () => {
          if (k === 'sw' || k === 'sp') return;
          S.tableSort = S.tableSort[0] === k ? [k, -S.tableSort[1]] : [k, k === 'name' ? 1 : -1];
          drawTable();
        } })));
    ui.tfilter = el('input', { type: 'search', placeholder: 'filter bands', 'aria-label': 'filter the table',
      oninput: () => { S.tableFilter = ui.tfilter.value; drawTable(); } });
    ui.tcount = el('span', { class: 'tcount' });
    ui.tbody = el('div', { class: 'tbody', role: 'rowgroup' });
    ui.tspace = el('div', { class: 'tspace' });
    ui.tscroll = el('div', { class: 'tscroll', role: 'table', 'aria-label': 'bands' }, ui.thead, el('div', { class: 'twrap' }, ui.tspace, ui.tbody));
    ui.tscroll.addEventListener('scroll', () => drawRows(false));
    return el('section', { class: 'panel', 'data-tab': 'bands' },
      el('div', { class: 'tctl' }, ui.tfilter, ui.tcount), ui.tscroll);
  }

  let tableRows = [], tableKey = '';
  function drawTable() {
    const run = runs[compare ? 1 : 0];
    const key = JSON.stringify([S.win, S.timeMode]);
    if (key !== tableKey || !run.ws) { run.ws = windowStats(run); tableKey = key; }
    const f = S.tableFilter.trim().toLowerCase();
    tableRows = run.ws.filter(x => !f || x.b.name.toLowerCase().includes(f));
    const [k, dir] = S.tableSort;
    const get = { name: x => x.b.name, pk: x => x.pk, pt: x => x.pt, bs: x => x.bs }[k];
    tableRows.sort((a, b) => { const x = get(a), y = get(b); return (x < y ? -1 : x > y ? 1 : 0) * dir; });
    for (const h of ui.thead.children) h.dataset.sorted = h.dataset.key === k ? (dir > 0 ? 'asc' : 'desc') : '';
    ui.tcount.textContent = tableRows.length.toLocaleString('en-US') + ' of ' + run.bands.length.toLocaleString('en-US') +
      ' bands' + (S.win ? ', figures for ' + fmtSec(windowOf(run)[0]) + ' – ' + fmtSec(windowOf(run)[1]) : '');
    ui.tspace.style.height = (tableRows.length * ROW_H) + 'px';
    drawRows(true);
  }

  let rowsShown = '';
  function drawRows(force) {
    const run = runs[compare ? 1 : 0];
    const top = Math.max(0, ui.tscroll.scrollTop - ui.thead.offsetHeight);
    const from = Math.max(0, Math.floor(top / ROW_H) - 5);
    const to = Math.min(tableRows.length, from + Math.ceil((ui.tscroll.clientHeight || 600) / ROW_H) + 10);
    // a scroll within the rows already built costs nothing
    if (!force && rowsShown === from + ':' + to) return;
    rowsShown = from + ':' + to;
    ui.tbody.style.transform = 'translateY(' + (from * ROW_H) + 'px)';
    const rows = [];
    for (let r = from; r < to; r++) {
      const x = tableRows[r], b = x.b;
      rows.push(el('div', { class: 'trow', role: 'row', 'data-band': String(b.i), title: 'click: show only this band in the chart',
        onclick: () => { S.visible = new Set([b.name]); S.search = ''; ui.search.value = ''; S.tab = 'chart'; showTab(); } },
      el('span', { class: 'c-sw' }, el('span', { class: 'sw' + (b.hatched ? ' hatched' : ''), style: 'background-color:' + b.colour })),
      el('span', { class: 'c-name', text: b.name }),
      el('span', { class: 'c-pk', text: fmtBytes(x.pk) }),
      el('span', { class: 'c-pt', text: fmtSec(x.pt) }),
      el('span', { class: 'c-bs', text: fmtPct(x.share) }),
      el('span', { class: 'c-sp' }, svgSpark(sparkline(b, run), b.colour))));
    }
    ui.tbody.replaceChildren(...rows);
  }

  /* --- flame views ------------------------------------------------------------ */

  function newNode(name, path) { return { name, path, w: 0, kids: new Map(), bands: [] }; }
  function addPath(root, frames, names, w, band) {
    let n = root;
    n.w += w;
    for (const f of frames) {
      const name = names[f];
      if (!n.kids.has(name)) n.kids.set(name, newNode(name, n.path.concat([name])));
      n = n.kids.get(name);
      n.w += w;
    }
    if (band) n.bands.push(band);
  }

  function renderIcicle(host, root, unit, onPick) {
    let focus = root;
    for (const name of S.flameRoot) { const k = focus.kids.get(name); if (!k) break; focus = k; }
    const rows = [];
    const total = focus.w || 1;
    function walk(n, depth, x0) {
      if (!rows[depth]) rows[depth] = [];
      rows[depth].push({ n, x0, w: n.w / total });
      let x = x0;
      const kids = [...n.kids.values()].sort((a, b) => b.w - a.w);
      for (const k of kids) { if (k.w / total >= 0.001) walk(k, depth + 1, x); x += k.w / total; }
    }
    walk(focus, 0, 0);
    const box = el('div', { class: 'icicle', style: 'height:' + (rows.length * 22) + 'px' });
    rows.forEach((row, d) => row.forEach(({ n, x0, w }) => {
      const label = (n === root ? 'all' : n.name) + ' · ' + unit(n.w) + ' (' + fmtPct(n.w / (root.w || 1)) + ')';
      const hue = n === root ? '#c8c8c8' : 'hsl(' + (20 + (hash(n.name) % 40)) + ',75%,' + (62 + hash(n.name) % 14) + '%)';
      box.append(el('div', { class: 'frame', title: label, 'data-path': JSON.stringify(n.path),
        style: 'left:' + (x0 * 100) + '%;width:' + (w * 100) + '%;top:' + (d * 22) + 'px;background:' + hue,
        onclick: () => onPick(n) }, el('span', { text: label })));
    }));
    host.replaceChildren(el('div', { class: 'crumbs' }, ...crumbs(root)), box);
  }

  function crumbs(root) {
    const out = [el('button', { type: 'button', text: 'all', onclick: () => { S.flameRoot = []; redraw(); } })];
    S.flameRoot.forEach((name, k) => out.push(' › ', el('button', { type: 'button', text: name,
      onclick: () => { S.flameRoot = S.flameRoot.slice(0, k + 1); redraw(); } })));
    return out;
  }

  function hash(s) { let h = 2166136261; for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 16777619); return h >>> 0; }

  function buildFlamePanel() {
    ui.flame = el('div', { class: 'flame' });
    const weight = el('select', { 'aria-label': 'flame weight', onchange: () => { S.flameWeight = weight.value; drawFlame(); } },
      option('peak', 'bytes at the peak sample', S.flameWeight), option('bs', 'byte-seconds over the run', S.flameWeight));
    return el('section', { class: 'panel', 'data-tab': 'flame' },
      el('p', { class: 'hint' }, 'Cost-centre stacks, outermost at the top, by ', weight,
        '. Click a frame to show only its subtree in the chart.'), ui.flame);
  }

  function drawFlame() {
    const run = runs[0];
    const peakIdx = (() => { let best = 0, bi = 0; for (let i = 0; i < run.n; i++) { let s = 0; for (const b of run.bands) s += b.v[i]; if (s > best) { best = s; bi = i; } } return bi; })();
    const root = newNode('all', []);
    for (const b of run.bands) {
      const w = S.flameWeight === 'peak' ? b.v[peakIdx] : b.bs;
      if (w > 0) addPath(root, b.stack || [], run.frames, w, b);
    }
    const unit = S.flameWeight === 'peak' ? fmtBytes : (x => fmtBytes(x) + '·s');
    renderIcicle(ui.flame, root, unit, n => {
      const names = new Set();
      (function collect(x) { for (const b of x.bands) names.add(b.name); for (const k of x.kids.values()) collect(k); })(n);
      S.flameRoot = n.path;
      S.visible = names.size ? names : null;
      S.search = ''; ui.search.value = '';
      S.tab = 'chart'; showTab();
    });
  }

  function buildTimePanel() {
    const tp = runs[0].tprof;
    const caps = [...new Set(tp.caps.map(c => c[1]))].sort((a, b) => a - b);
    const sel = el('select', { 'aria-label': 'capability', onchange: () => { S.flameCap = +sel.value; S.flameRoot = []; drawTimeFlame(); } },
      option('-1', 'all capabilities', String(S.flameCap)), ...caps.map(c => option(String(c), 'capability ' + c, String(S.flameCap))));
    ui.tflame = el('div', { class: 'flame' });
    ui.ttotal = el('p', { class: 'ticks' });
    return el('section', { class: 'panel', 'data-tab': 'time' },
      el('p', { class: 'hint' }, 'Time profile: ticks per cost-centre stack (one tick every ' + fmtSec(tp.tick_us / 1e6) + '), ', sel, '.'),
      ui.ttotal, ui.tflame);
  }

  function drawTimeFlame() {
    const run = runs[0], tp = run.tprof;
    const root = newNode('all', []);
    if (S.flameCap < 0) for (const [ticks, stack] of tp.stacks) addPath(root, stack.slice().reverse(), run.frames, ticks, null);
    else for (const [si, cap, ticks] of tp.caps) if (cap === S.flameCap) addPath(root, tp.stacks[si][1].slice().reverse(), run.frames, ticks, null);
    ui.ttotal.textContent = root.w.toLocaleString('en-US') + ' ticks' + (S.flameCap >= 0 ? ' on capability ' + S.flameCap : '') +
      (tp.tick_us ? ' ≈ ' + fmtSec(root.w * tp.tick_us / 1e6) : '');
    ui.ttotal.dataset.ticks = String(root.w);
    renderIcicle(ui.tflame, root, x => x.toLocaleString('en-US') + ' ticks', n => { S.flameRoot = n.path; drawTimeFlame(); });
  }

  /* --- GC figures and run facts ----------------------------------------------- */

  function dl(pairs) {
    return el('dl', {}, ...pairs.filter(p => p[1] != null && p[1] !== '').flatMap(([k, v]) => [el('dt', { text: k }), el('dd', { text: String(v) })]));
  }
  function ns(v) { return v == null ? null : fmtSec(v / 1e9); }

  // The GC figures of a Mono .mlpd (summary --json of such a file).
  function monoGcParts(g) {
    const parts = [el('h2', { text: 'Garbage collector (Mono)' }), dl([
      ['allocated', g.allocated_bytes != null ? fmtExact(g.allocated_bytes) + ' in ' + g.allocated_objects.toLocaleString('en-US') + ' objects'
        : 'n/a (the profiler\'s alloc option was off)'],
      ['max heap size', g.max_heap_bytes != null ? fmtExact(g.max_heap_bytes) : null],
      ['heap shots', g.heap_shots],
      ['max live (largest heap shot)', g.max_live_bytes != null ? fmtExact(g.max_live_bytes) : null],
      ['elapsed', ns(g.elapsed_ns)],
      ['world stops', g.world_stops ? g.world_stops.count + ', ' + fmtSec(g.world_stops.total_ns / 1e9) + ' in all, longest ' +
        fmtSec(g.world_stops.max_ns / 1e9) : null],
      ['late vtables', g.late_vtables ? g.late_vtables + ' (named after their first use; mprof-report leaves them unresolved)' : null]])];
    const gens = g.generations || [];
    if (gens.length) parts.push(el('h3', { text: 'Collections by generation' }), el('div', { class: 'scroll' },
      el('table', { class: 'gc' }, el('thead', {}, el('tr', {}, ...['gen', 'collections', 'elapsed', 'max pause'].map(h => el('th', { text: h })))),
        el('tbody', {}, ...gens.map(x => el('tr', {}, ...[x.gen, x.collections, ns(x.elapsed_ns), ns(x.max_pause_ns)]
          .map(v => el('td', { text: v == null ? 'n/a' : String(v) }))))))));
    return parts;
  }

  function buildRunPanel() {
    const r = runs[0], d = r.d, g = r.gc;
    const parts = [el('h2', { text: 'Run' }), dl([
      ['program', d.program], ['command line', d.title], ['runtime', d.rts],
      ['heap profile', d.profile || (d.breakdown ? '-' + d.breakdown + ' (' + d.breakdown_name + ')' : 'none')],
      ['samples', d.samples.toLocaleString('en-US')], ['bands', r.bands.length.toLocaleString('en-US')],
      ['markers', r.markers.length], ['duration', fmtSec(r.end)],
      ['log complete', d.complete ? 'yes' : 'no: it stops without its end marker']])];
    if (g && g.source === 'mlpd') {
      parts.push(...monoGcParts(g));
    } else if (g) {
      parts.push(el('h2', { text: 'Garbage collector' }), dl([
        ['allocated', g.allocated_bytes != null ? fmtExact(g.allocated_bytes) : null],
        ['copied', g.copied_bytes != null ? fmtExact(g.copied_bytes) : null],
        ['max live', g.max_live_bytes != null ? fmtExact(g.max_live_bytes) + ' (' + g.live_samples + ' samples)' : null],
        ['max memory in use', g.max_mem_in_use_bytes != null ? fmtBytes(g.max_mem_in_use_bytes) : null],
        ['total time', ns(g.total_elapsed_ns)], ['GC time', ns(g.gc_elapsed_ns)], ['mutator time', ns(g.mut_elapsed_ns)],
        ['productivity', g.productivity_elapsed_percent != null ? g.productivity_elapsed_percent.toFixed(1) + '% of elapsed time' : null],
        ['alloc rate', g.alloc_rate_bytes_per_mut_second != null ? fmtBytes(g.alloc_rate_bytes_per_mut_second) + ' per mutator second' : null],
        ['parallel work balance', g.work_balance_percent != null ? g.work_balance_percent.toFixed(1) + '%' : null]]));
      const gens = g.generations || [];
      if (gens.length) parts.push(el('h3', { text: 'Collections and pauses by generation' }), el('div', { class: 'scroll' },
        el('table', { class: 'gc' }, el('thead', {}, el('tr', {}, ...['gen', 'collections', 'parallel', 'elapsed', 'avg pause', 'max pause', 'copied']
          .map(h => el('th', { text: h })))),
        el('tbody', {}, ...gens.map(x => el('tr', {}, ...[x.gen, x.collections, x.par_collections, ns(x.elapsed_ns), ns(x.avg_pause_ns), ns(x.max_pause_ns),
          x.copied_bytes != null ? fmtBytes(x.copied_bytes) : ''].map(v => el('td', { text: v == null ? 'n/a' : String(v) }))))))));
      const caps = g.capabilities || [];
      if (caps.length) parts.push(el('h3', { text: 'Capabilities' }), el('div', { class: 'scroll' },
        el('table', { class: 'gc' }, el('thead', {}, el('tr', {}, ...['cap', 'GC intervals', 'led', 'GC time', 'allocated'].map(h => el('th', { text: h })))),
        el('tbody', {}, ...caps.map(x => el('tr', {}, ...[x.cap, x.gc_intervals, x.led, ns(x.gc_elapsed_ns),
          x.allocated_bytes != null ? fmtBytes(x.allocated_bytes) : 'n/a'].map(v => el('td', { text: String(v) }))))))));
      if (g.notes && g.notes.length) parts.push(el('h3', { text: 'Notes' }), el('ul', { class: 'notes' }, ...g.notes.map(n => el('li', { text: n }))));
    } else {
      parts.push(el('p', { class: 'hint', text: 'No GC figures: the log has no GC events, or it was read from a pipe.' }));
    }
    return el('section', { class: 'panel', 'data-tab': 'run' }, ...parts);
  }

  /* --- live pages: fetch fresh data, keep the view ------------------------------ */

  function startLive(url, ms) {
    let busy = false;
    setInterval(() => {
      if (busy) return;
      busy = true;
      fetch(url, { cache: 'no-store' }).then(r => r.ok ? r.json() : null).then(d => {
        busy = false;
        if (!d || d.points == null) return;
        runs = [loadRun(d)];
        window.heapscope.runs = runs;
        for (const c of ui.charts || []) c.run = runs[0];
        tableKey = '';
        redraw();
      }, () => { busy = false; });
    }, ms || 1000);
  }

  /* --- start ------------------------------------------------------------------ */

  ui.controls = buildControls();
  const panels = [];
  if (runs[0].n) panels.push(buildChartPanel(), buildTablePanel());
  if (!compare && runs[0].bands.some(b => b.stack)) panels.push(buildFlamePanel());
  if (!compare && runs[0].tprof) panels.push(buildTimePanel());
  if (!compare) panels.push(buildRunPanel());
  app.replaceChildren(buildTabs(), ui.controls, ...panels);
  if (!ui.search) ui.search = { value: '' };
  showTab();
  window.addEventListener('resize', () => redraw());
  const live = doc.querySelector('meta[name="heapscope-live"]');
  if (live) startLive(live.getAttribute('content'), +live.dataset.interval);
  Object.assign(window.heapscope, {
    // for tests and the curious: pixel x (within the plot box) of time t
    xOf: (t, k) => { const c = ui.charts[k || 0], g = c.geo; return PAD.l + (t - g.w0) / (g.w1 - g.w0) * g.pw; },
    yOf: (frac, k) => { const g = ui.charts[k || 0].geo; return PAD.t + frac * g.ph; },
    geo: k => ui.charts[k || 0].geo,
    setWindow
  });
})();
