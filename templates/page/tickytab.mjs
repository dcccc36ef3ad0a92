/* The Ticky tab: the ticky-ticky counters as a table sorted by a click on
 * a column's head, filtered by text, with each counter's allocation per
 * sample as a sparkline when the log has several samples. */
import { doc, el } from './dom.mjs';
import { fmtBytes } from './format.mjs';
import { TICKY_COLS, filterTicky, sortTicky, tickyRows, tickySeries, tickySpark } from './ticky.mjs';
import { runs, ui } from './state.mjs';

// The rows built at most at once; a filter narrows the rest.
const TICKY_MAX_ROWS = 1000;
const tk = { rows: [], sort: ['allocd', -1], filter: '' };

function tickySvg(d) {
  const xmlns = 'http://www.w3.org/2000/svg';
  const s = doc.createElementNS(xmlns, 'svg');
  s.setAttribute('viewBox', '0 0 80 18'); s.setAttribute('class', 'spark');
  s.setAttribute('preserveAspectRatio', 'none');
  const p = doc.createElementNS(xmlns, 'path');
  p.setAttribute('d', d); p.setAttribute('fill', '#4477aa');
  s.append(p);
  return s;
}

export function buildTickyPanel() {
  const t = tk.doc = runs[0].d.ticky;
  tk.rows = tickyRows(t);
  tk.spark = t.times_us.length > 1;
  const cols = TICKY_COLS.concat(tk.spark ? [['spark', 'allocs per sample', 0]] : []);
  ui.tkhead = el('tr', {}, ...cols.map(([k, label, dir]) => el('th', {
    scope: 'col', class: 'k-' + k, 'data-key': k, text: label,
    onclick: () => {
      if (!dir) return;
      tk.sort = tk.sort[0] === k ? [k, -tk.sort[1]] : [k, dir];
      drawTicky();
    }
  })));
  ui.tkfilter = el('input', { type: 'search', placeholder: 'filter counters', 'aria-label': 'filter the counters',
    oninput: () => { tk.filter = ui.tkfilter.value; drawTicky(); } });
  ui.tkcount = el('span', { class: 'tcount' });
  ui.tkbody = el('tbody');
  ui.tkwhat = el('p', { class: 'hint' });
  return el('section', { class: 'panel', 'data-tab': 'ticky' }, ui.tkwhat,
    el('div', { class: 'tctl' }, ui.tkfilter, ui.tkcount),
    el('div', { class: 'tkscroll' }, el('table', { class: 'ticky', 'aria-label': 'ticky counters' },
      el('thead', {}, ui.tkhead), ui.tkbody)));
}

export function drawTicky() {
  // a live page's fresh data: its counters
  if (tk.doc !== runs[0].d.ticky) tk.rows = tickyRows(tk.doc = runs[0].d.ticky);
  const nsamples = tk.doc.times_us.length;
  ui.tkwhat.textContent = 'Ticky-ticky counters, summed over ' + nsamples.toLocaleString('en-US') + ' sample' +
    (nsamples === 1 ? '' : 's') + ': entries, bytes the code allocated (allocs) and bytes of the closure allocated (allocd).';
  const [key, dir] = tk.sort;
  const rows = sortTicky(filterTicky(tk.rows, tk.filter), key, dir);
  for (const h of ui.tkhead.children) {
    h.dataset.sorted = h.dataset.key === key ? (dir > 0 ? 'asc' : 'desc') : '';
    h.setAttribute('aria-sort', h.dataset.key === key ? (dir > 0 ? 'ascending' : 'descending') : 'none');
  }
  const shown = rows.slice(0, TICKY_MAX_ROWS);
  ui.tkcount.textContent = rows.length.toLocaleString('en-US') + ' of ' + tk.rows.length.toLocaleString('en-US') +
    ' counters' + (shown.length < rows.length ? ', the first ' + shown.length + ' shown' : '');
  ui.tkbody.replaceChildren(...shown.map(r => el('tr', { 'data-id': String(r.id) },
    el('td', { class: 'k-name' + (r.defined ? '' : ' undef'), title: r.where || r.name, text: r.name }),
    el('td', { class: 'k-arity', text: String(r.arity) }),
    el('td', { class: 'k-kinds', text: r.kinds }),
    el('td', { class: 'k-entries', text: r.entries.toLocaleString('en-US') }),
    el('td', { class: 'k-allocs', title: r.allocs.toLocaleString('en-US') + ' B', text: fmtBytes(r.allocs) }),
    el('td', { class: 'k-allocd', title: r.allocd.toLocaleString('en-US') + ' B', text: fmtBytes(r.allocd) }),
    tk.spark ? el('td', { class: 'k-spark' }, r.points ? tickySvg(tickySpark(tickySeries(r, nsamples, 2), 80, 18)) : null) : null)));
}
