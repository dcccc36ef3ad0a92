/* The legend (click to choose bands) and the list of markers. */
import { el } from './dom.mjs';
import { fmtBytes, fmtSec } from './format.mjs';
import { S, runs, ui, windowOf } from './state.mjs';
import { setWindow } from './hover.mjs';
import { redraw } from './main.mjs';

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

export function drawLegend() {
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

export function drawMarkerList() {
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
