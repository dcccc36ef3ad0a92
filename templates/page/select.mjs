/* Which bands a view shows: the search, the series a run draws and the
 * cost-centre tree the flame views are built from. */
import { S } from './state.mjs';

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
export function chooseSeries(run) {
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
export function newNode(name, path) { return { name, path, w: 0, kids: new Map(), bands: [] }; }
export function addPath(root, frames, names, w, band) {
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
