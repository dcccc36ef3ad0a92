/* The band table's columns, its filter and its groups. A band carries
 * where it comes from (decode.mjs's provenance): a -hc band its innermost
 * cost centre's module and source location, a -hi band its IPE record's
 * fields, each a column of its own. Pure: unit-tested under node. */
import { fileOf } from './growth.mjs';

// [key, header, width, text of band b (text columns), narrow: shown on phones]
const TEXT = {
  // -hi bands without an IPE record keep their address as the table's name
  name: ['band', b => b.name], table: ['info table', b => (b.ipe ? b.ipe.table : b.name)],
  desc: ['closure', b => (b.ipe ? b.ipe.desc : '')], type: ['type', b => (b.ipe ? b.ipe.type : '')],
  label: ['label', b => (b.ipe ? b.ipe.label : '')],
  module: ['module', b => b.module || ''], src: ['source', b => b.src || ''], file: ['file', b => fileOf(b.src)]
};
const WIDTH = {
  sw: '1.4em', name: 'minmax(12em, 1.6fr)', table: 'minmax(7em, .8fr)', desc: 'minmax(5em, .5fr)', type: 'minmax(7em, .8fr)',
  label: 'minmax(4em, .5fr)', module: 'minmax(6em, .6fr)', src: 'minmax(9em, 1fr)', pk: '5.6em', pt: '5.2em', bs: '4.9em',
  gr: '6.6em', late: '6.6em', grows: '3.6em', sp: '84px'
};
// at 390 px: the narrow columns only, the name taking what is left
const NARROW_W = { sw: '1.1em', name: 'minmax(0, 1fr)', table: 'minmax(0, 1fr)', pk: '4.6em', late: '6.3em', grows: '3.5em' };
const HEAD = { sw: '', pk: 'peak', pt: 'at', bs: 'share', gr: 'growth', late: 'last third', grows: 'grows', sp: 'over time' };
const TIP = {
  gr: 'slope of the least-squares line through the band\'s bytes over the time shown, per second',
  late: 'the same over the last third of the time shown',
  grows: 'still growing at the end: the last third\'s slope is above 0 and the last sample is above the band\'s mean'
};
// shown at 390 px as well
const NARROW = new Set(['sw', 'name', 'table', 'pk', 'late', 'grows']);

// The columns of a run's table: -hi bands' IPE fields instead of one
// joined name; module and source where the bands have them.
export function tableColumns(run) {
  const hi = run.bands.some(b => b.ipe);
  const keys = ['sw'].concat(hi ? ['table', 'desc', 'type', 'label'] : ['name']);
  if (run.bands.some(b => b.module)) keys.push('module');
  if (run.bands.some(b => b.src)) keys.push('src');
  keys.push('pk', 'pt', 'bs', 'gr', 'late', 'grows', 'sp');
  return keys.map(k => ({
    key: k, head: TEXT[k] ? TEXT[k][0] : HEAD[k], width: WIDTH[k], tip: TIP[k] || '',
    text: TEXT[k] ? TEXT[k][1] : null,
    narrow: NARROW.has(k), narrowWidth: NARROW_W[k]
  }));
}

// The sort key of a row x ({b, pk, pt, bs, growth}) for column key k.
export function sortValue(cols, k) {
  const c = cols.find(x => x.key === k);
  if (c && c.text) return x => c.text(x.b).toLowerCase();
  return {
    pk: x => x.pk, pt: x => x.pt, bs: x => x.bs, gr: x => x.growth.run, late: x => x.growth.late,
    grows: x => (x.growth.growing ? 1 : 0) * 1e300 + x.growth.late
  }[k] || (x => x.bs);
}
export const sortable = k => k !== 'sw' && k !== 'sp';

// The table's filter: words that must all match; "key:value" matches the
// column `key` (module:Data.Map, src:Leak.hs, file:Leak.hs, type:Int), a
// bare word any text column; a value in double quotes may hold spaces.
export function filterTest(cols, q) {
  const words = [...(q || '').matchAll(/(\w+:)?("[^"]*"?|[^\s]+)/g)].map(m => {
    const key = m[1] ? m[1].slice(0, -1).toLowerCase() : null;
    return { key, v: m[2].replace(/^"|"$/g, '').toLowerCase() };
  }).filter(w => w.v);
  if (!words.length) return null;
  const text = cols.filter(c => c.text);
  const byKey = Object.fromEntries(text.map(c => [c.key, c.text]));
  byKey.file = b => fileOf(b.src);
  byKey.name = b => b.name;
  return b => words.every(w => {
    if (w.key && byKey[w.key]) return byKey[w.key](b).toLowerCase().includes(w.v);
    return b.name.toLowerCase().includes(w.v) || text.some(c => c.text(b).toLowerCase().includes(w.v));
  });
}

// A filter word for column key's value v (a click on a cell).
export const filterWord = (key, v) => key + ':' + (/[\s"]/.test(v) ? '"' + v.replace(/"/g, '') + '"' : v);

// The group of band b: its module, or its source file; '' when none.
export const groupKey = (by, b) => (by === 'module' ? b.module || '' : by === 'file' ? fileOf(b.src) : '');

/* Rows sorted (by get, in direction dir) into groups: each group a
 * header {group, name, rows, bs, share, gr, late, growing} (its figures
 * summed: byte-seconds, shares and slopes add up) followed by its rows,
 * the groups in the order of their summed key (by name for text keys). */
export function groupRows(rows, by, get, dir, textKey) {
  if (!by) return rows.slice().sort((a, b) => cmp(get(a), get(b)) * dir);
  const groups = new Map();
  for (const x of rows) {
    const g = groupKey(by, x.b);
    if (!groups.has(g)) groups.set(g, { group: true, name: g || '(none)', rows: [], bs: 0, share: 0, pk: 0, pt: 0, gr: 0, late: 0, growing: 0 });
    const h = groups.get(g);
    h.rows.push(x); h.bs += x.bs; h.share += x.share; h.pk += x.pk;
    h.gr += x.growth.run; h.late += x.growth.late; h.growing += x.growth.growing ? 1 : 0;
  }
  const hs = [...groups.values()];
  for (const h of hs) h.rows.sort((a, b) => cmp(get(a), get(b)) * dir);
  const gkey = textKey ? h => h.name.toLowerCase() : h => get({ ...h, growth: { run: h.gr, late: h.late, growing: h.growing > 0 } });
  hs.sort((a, b) => cmp(gkey(a), gkey(b)) * dir);
  return hs.flatMap(h => [h, ...h.rows]);
}
function cmp(x, y) { return x < y ? -1 : x > y ? 1 : 0; }

// Where band b comes from, in words for tooltips: "Main, leak.hs:41:1-26".
export function whereFrom(b) {
  return [b.module, b.src].filter(Boolean).join(', ');
}
// A band's title (its hover): the full name, and where it comes from on a
// line of its own, as the tooltips and the table show it.
export function bandTitle(b) {
  const where = whereFrom(b);
  return b.name + (where ? '\n' + where : '');
}
