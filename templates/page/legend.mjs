/* The legend (click to choose bands) and the list of markers. */
import { el } from './dom.mjs';
import { fmtBytes, fmtSec } from './format.mjs';
import { peakWithin } from './stats.mjs';
import { S, runs, ui, windowOf } from './state.mjs';
import { nextVisible } from './select.mjs';
import { setWindow } from './hover.mjs';
import { redraw } from './main.mjs';

function legendClick(ev, s) {
  if (!s.band) return;
  const name = s.name;
  const additive = ev.ctrlKey || ev.shiftKey || ev.metaKey;
  S.visible = nextVisible(S.visible, name, additive, ui.charts[0].ser.filter(x => x.band).map(x => x.name));
  redraw();
}

export function drawLegend() {
  const seen = new Map();
  for (const c of ui.charts) for (const s of c.ser) {
    const pk = peakWithin(c.run, s.v, windowOf(c.run));
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
