/* The legend (click to choose bands) and the list of markers. */
import { doc, el, swatch } from './dom.mjs';
import { fitLabels, fmtBytes, fmtSec } from './format.mjs';
import { peakWithin } from './stats.mjs';
import { S, runs, ui, windowOf } from './state.mjs';
import { candidates, legendEntries, nextVisible, orderEntries } from './select.mjs';
import { setWindow } from './hover.mjs';
import { bandTitle } from './columns.mjs';
import { redraw } from './main.mjs';

// The bands the legend offers: every band of every run the search and the
// cost-centre subtree keep, the first run's first, largest first.
function offeredBands() {
  const seen = new Map();
  for (const c of ui.charts) for (const b of candidates(c.run, S)) if (!seen.has(b.name)) seen.set(b.name, b);
  return [...seen.values()];
}

function choose(name, additive) {
  S.visible = nextVisible(S.visible, name, additive, offeredBands().map(b => b.name));
  redraw();
}

// Each entry a checkbox: click shows that band alone (again: all),
// ctrl/shift-click or Space adds or takes it; Enter as a click.
function entry(b, on, pk) {
  return el('li', { class: 'band' + (on ? ' on' : ''), title: bandTitle(b), 'data-name': b.name, role: 'checkbox',
    'aria-checked': on ? 'true' : 'false', tabindex: '0', 'data-peak': String(pk),
    onclick: ev => choose(b.name, ev.ctrlKey || ev.shiftKey || ev.metaKey),
    onkeydown: ev => {
      if (ev.key !== ' ' && ev.key !== 'Enter') return;
      ev.preventDefault();
      ui.legendFocus = b.name;
      choose(b.name, ev.key === ' ' || ev.ctrlKey || ev.shiftKey || ev.metaKey);
    } },
  swatch(b), el('span', { class: 'nm', text: b.name }), el('span', { class: 'pk', title: 'peak in view', text: fmtBytes(pk) }));
}

// Names too long for their entry cut in the middle, every label distinct,
// each as long as its own entry allows (format.mjs's fitLabels); the
// entry's title keeps the full name and the band's source.
let measure = null;
function fitNames() {
  const spans = [...ui.legend.querySelectorAll('li.band .nm')];
  if (!spans.length || spans.every(s => s.scrollWidth <= s.clientWidth)) return;
  const room = spans.map(s => s.clientWidth);
  if (!Math.max(...room)) return;
  measure = measure || doc.createElement('canvas').getContext('2d');
  measure.font = getComputedStyle(spans[0]).font;
  const names = spans.map(s => s.textContent);
  const cw = measure.measureText(names.join('')).width / (names.join('').length || 1);
  const longest = Math.max(...names.map(n => n.length));
  const labels = fitLabels(names, (l, k) => measure.measureText(l).width <= room[k] - 2,
    Math.min(longest, Math.floor(Math.max(...room) / cw) + 8));
  spans.forEach((s, k) => { s.textContent = labels[k]; });
}

export function drawLegend() {
  const all = offeredBands();
  const entries = legendEntries(all, S.visible, S.nbands);
  const byName = new Map(ui.charts.map(c => [c, new Map(c.run.bands.map(b => [b.name, b]))]));
  const pkOf = name => ui.charts.reduce((m, c) => {
    const b = byName.get(c).get(name);
    return b ? Math.max(m, peakWithin(c.run, b.v, windowOf(c.run))) : m;
  }, 0);
  for (const e of entries) e.pk = pkOf(e.band.name);
  const items = orderEntries(entries, S.sort).map(e => entry(e.band, e.on, e.pk));
  const other = ui.charts.map(c => [c, c.ser.find(s => !s.band)]).filter(x => x[1]);
  if (other.length) {
    const o = other[0][1], pk = Math.max(...other.map(([c, s]) => peakWithin(c.run, s.v, windowOf(c.run))));
    items.push(el('li', { class: 'other', title: 'the bands past the largest ' + S.nbands + ', summed', 'data-name': o.name },
      swatch(o), el('span', { class: 'nm', text: o.name }),
      el('span', { class: 'pk', text: fmtBytes(pk) })));
  }
  const n = S.visible ? entries.filter(e => e.on).length : all.length;
  const cc = S.ccPath ? el('span', { class: 'cc', title: S.ccPath.join(' › '), text: 'under ' + S.ccPath[S.ccPath.length - 1] + ': ' }) : '';
  const grows = S.growing ? el('span', { class: 'cc', title: 'the "growing" quick filter is on', text: 'still growing: ' }) : '';
  ui.lstate.replaceChildren(cc, grows, all.length ? (S.visible ? n + ' of ' + all.length + ' bands shown ' : 'all ' + all.length + ' bands shown ') : 'no band shown ',
    S.visible ? el('button', { type: 'button', class: 'lall', text: 'show all', onclick: () => { S.visible = null; redraw(); } }) : '');
  ui.lstate.dataset.shown = String(n);
  ui.lstate.dataset.of = String(all.length);
  ui.legend.replaceChildren(...items);
  fitNames();
  if (ui.legendFocus) {
    const li = [...ui.legend.children].find(x => x.dataset.name === ui.legendFocus);
    ui.legendFocus = null;
    if (li) li.focus();
  }
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
