/* The flame views: cost-centre stacks by heap and the time profile. */
import { el, option } from './dom.mjs';
import { fmtBytes, fmtPct, fmtSec } from './format.mjs';
import { peakIndex } from './stats.mjs';
import { S, runs, ui } from './state.mjs';
import { addPath, frameAt, newNode } from './select.mjs';
import { showTab } from './panels.mjs';
import { redraw } from './main.mjs';
import { buildTprofView, tprofSeries } from './tview.mjs';

// hl: the full name of the cost centre whose frames stand out
function renderIcicle(host, root, unit, onPick, hl) {
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
  const box = el('div', { class: 'icicle', role: 'tree', 'aria-label': 'cost-centre stacks', style: 'height:' + (rows.length * 22) + 'px' });
  rows.forEach((row, d) => row.forEach((f, k) => {
    const { n, x0, w } = f;
    const label = (n === root ? 'all' : n.name) + (n.src ? ' · ' + n.src : '') + ' · ' + unit(n.w) + ' (' + fmtPct(n.w / (root.w || 1)) + ')';
    const hue = n === root ? '#c8c8c8' : 'hsl(' + (20 + (hash(n.name) % 40)) + ',75%,' + (62 + hash(n.name) % 14) + '%)';
    // one frame in the tab order (the outermost); arrow keys move among them
    f.el = el('div', { class: 'frame' + (hl && n.name === hl ? ' hl' : hl ? ' dim' : ''), title: label, 'data-path': JSON.stringify(n.path), role: 'treeitem', 'aria-label': label,
      'aria-level': String(d + 1), tabindex: d === 0 && k === 0 ? '0' : '-1',
      style: 'left:' + (x0 * 100) + '%;width:' + (w * 100) + '%;top:' + (d * 22) + 'px;background:' + hue,
      onkeydown: ev => {
        if (ev.key === 'Enter' || ev.key === ' ') { ev.preventDefault(); onPick(n); return; }
        const to = frameStep(rows, d, k, ev.key);
        if (!to) return;
        ev.preventDefault();
        f.el.tabIndex = -1; to.el.tabIndex = 0; to.el.focus();
      } }, el('span', { text: label }));
    box.append(f.el);
  }));
  hookPointer(box, rows, onPick);
  host.replaceChildren(el('div', { class: 'crumbs' }, ...crumbs(root)), box);
}

// Pointer and taps pick frames through frameAt: a frame a pixel wide is
// reached within HIT_PX of it. A click without a pointer position (a
// script's element.click()) picks the frame clicked.
const HIT_PX = 8;
function hookPointer(box, rows, onPick) {
  const at = ev => {
    const r = box.getBoundingClientRect(), row = rows[Math.floor((ev.clientY - r.top) / 22)];
    return row && r.width ? frameAt(row, (ev.clientX - r.left) / r.width, HIT_PX / r.width) : null;
  };
  let hot = null;
  box.addEventListener('mousemove', ev => {
    const f = at(ev);
    if (hot !== f && hot) hot.el.classList.remove('hot');
    hot = f;
    if (f) f.el.classList.add('hot');
  });
  box.addEventListener('mouseleave', () => { if (hot) hot.el.classList.remove('hot'); hot = null; });
  box.addEventListener('click', ev => {
    const tf = ev.target.closest('.frame');
    const f = (ev.detail > 0 && at(ev)) || (tf && rows.flat().find(g => g.el === tf));
    if (f) onPick(f.n);
  });
}

// The frame an arrow key moves to from rows[d][k]: its neighbours in the
// row (left, right), its caller (up), its first callee (down).
function frameStep(rows, d, k, key) {
  const f = rows[d][k], inside = (g, p) => g.x0 >= p.x0 - 1e-9 && g.x0 < p.x0 + p.w - 1e-9;
  if (key === 'ArrowLeft') return rows[d][k - 1];
  if (key === 'ArrowRight') return rows[d][k + 1];
  if (key === 'ArrowUp' && d > 0) return rows[d - 1].find(p => inside(f, p));
  if (key === 'ArrowDown' && rows[d + 1]) return rows[d + 1].find(g => inside(g, f));
  return null;
}

function crumbs(root) {
  const out = [el('button', { type: 'button', text: 'all', onclick: () => { S.flameRoot = []; redraw(); } })];
  S.flameRoot.forEach((name, k) => out.push(' › ', el('button', { type: 'button', text: name,
    onclick: () => { S.flameRoot = S.flameRoot.slice(0, k + 1); redraw(); } })));
  return out;
}

function hash(s) { let h = 2166136261; for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 16777619); return h >>> 0; }

export function buildFlamePanel() {
  ui.flame = el('div', { class: 'flame' });
  const weight = el('select', { 'aria-label': 'flame weight', onchange: () => { S.flameWeight = weight.value; drawFlame(); } },
    option('peak', 'bytes at the peak sample', S.flameWeight), option('bs', 'byte-seconds over the run', S.flameWeight));
  return el('section', { class: 'panel', 'data-tab': 'flame' },
    el('p', { class: 'hint' }, 'Cost-centre stacks, outermost at the top, by ', weight,
      '. Click a frame (or Enter; arrow keys move among frames) to show only its subtree in the chart.'), ui.flame);
}

export function drawFlame() {
  const run = runs[0];
  const peakIdx = peakIndex(run);
  const root = newNode('all', []);
  for (const b of run.bands) {
    const w = S.flameWeight === 'peak' ? b.v[peakIdx] : b.bs;
    if (w > 0) addPath(root, b.stack || [], run.frames, w, b, run.frameSrc);
  }
  const unit = S.flameWeight === 'peak' ? fmtBytes : (x => fmtBytes(x) + '·s');
  // a frame admits its subtree by stack prefix over every sample, whatever
  // the weighting (select.mjs's candidates)
  renderIcicle(ui.flame, root, unit, n => {
    S.flameRoot = n.path;
    S.ccPath = n.path.length ? n.path : null;
    S.visible = null;
    S.search = ''; ui.search.value = '';
    S.tab = 'chart'; showTab();
  });
}

export function buildTimePanel() {
  const tp = runs[0].tprof;
  const caps = [...new Set(tp.caps.map(c => c[1]))].sort((a, b) => a - b);
  const sel = el('select', { 'aria-label': 'capability', onchange: () => { S.flameCap = +sel.value; S.flameRoot = []; drawTimeFlame(); } },
    option('-1', 'all capabilities', String(S.flameCap)), ...caps.map(c => option(String(c), 'capability ' + c, String(S.flameCap))));
  ui.tflame = el('div', { class: 'flame' });
  ui.ttotal = el('p', { class: 'ticks' });
  const over = tprofSeries() ? buildTprofView() : [];
  return el('section', { class: 'panel', 'data-tab': 'time' },
    el('p', { class: 'hint' }, 'Time profile: one tick every ' + fmtSec(tp.tick_us / 1e6) + ' per running capability; ' +
      'a cost centre has a self tick where it was innermost, an inherited one where it was on the stack.'),
    ...over, el('h2', { text: 'Stacks' }),
    el('p', { class: 'hint' }, 'Cost-centre stacks, outermost at the top, on ', sel, '. Click a frame to zoom into it and follow its cost centre.'),
    ui.ttotal, ui.tflame);
}

export function drawTimeFlame() {
  const run = runs[0], tp = run.tprof;
  const root = newNode('all', []);
  if (S.flameCap < 0) for (const [ticks, stack] of tp.stacks) addPath(root, stack.slice().reverse(), run.frames, ticks, null, run.frameSrc);
  else for (const [si, cap, ticks] of tp.caps) if (cap === S.flameCap) addPath(root, tp.stacks[si][1].slice().reverse(), run.frames, ticks, null, run.frameSrc);
  ui.ttotal.textContent = root.w.toLocaleString('en-US') + ' ticks' + (S.flameCap >= 0 ? ' on capability ' + S.flameCap : '') +
    (tp.tick_us ? ' ≈ ' + fmtSec(root.w * tp.tick_us / 1e6) : '');
  ui.ttotal.dataset.ticks = String(root.w);
  renderIcicle(ui.tflame, root, x => x.toLocaleString('en-US') + ' ticks', n => {
    S.flameRoot = n.path;
    S.tfocus = n === root ? null : n.name;
    redraw();
  }, S.tfocus);
}
