/* Which bands a view shows: the search, the series a run draws, the legend's
 * choice and the cost-centre tree the flame views are built from. Pure: the
 * view's settings come in as arguments; unit-tested under node. */

// The test of a band name for search text q: a case-blind substring, or a
// /regex/flags (one that does not compile keeps nothing); null: no search.
export function searchTest(q) {
  q = q.trim();
  if (!q) return null;
  const m = /^\/(.*)\/([a-z]*)$/.exec(q);
  if (m) {
    try { const re = new RegExp(m[1], m[2]); return s => re.test(s); } catch (e) { return () => false; }
  }
  const l = q.toLowerCase();
  return s => s.toLowerCase().includes(l);
}

/* The series a run draws: bands by name so two runs agree. `view` holds
 * the settings (S): search, visible, nbands, sort. */
export function chooseSeries(run, view) {
  const test = searchTest(view.search);
  let cand = run.bands.filter(b => !b.excluded && (!test || test(b.name)));
  const other = [];
  if (view.visible) cand = cand.filter(b => view.visible.has(b.name));
  cand.sort((a, b) => b.bs - a.bs || (a.name < b.name ? -1 : 1));
  let shown = cand;
  if (!view.visible && view.nbands > 0 && cand.length > view.nbands) {
    shown = cand.slice(0, view.nbands);
    other.push(...cand.slice(view.nbands));
  }
  if (view.sort === 'name') shown.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  else if (view.sort === 'stddev') shown.sort((a, b) => b.sd - a.sd || b.bs - a.bs);
  const ser = shown.map(b => ({ band: b, name: b.name, colour: b.colour, hatched: b.hatched, v: b.v }));
  if (other.length) {
    // summing the rest costs bands x points: only when the choice changes
    const key = view.search + '\u0000' + view.nbands + '\u0000' + other.length;
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

// The bands a click on a cost-centre frame admits: every band whose stack
// runs through it; null (every band) when none does.
export function subtreeBands(node) {
  const names = new Set();
  (function collect(x) { for (const b of x.bands) names.add(b.name); for (const k of x.kids.values()) collect(k); })(node);
  return names.size ? names : null;
}

// The legend's choice after a click on band `name`: alone, or off again
// when it was alone; with a modifier (`additive`), added to or taken from
// the choice, which starts as the bands `shown`. null: no choice.
export function nextVisible(visible, name, additive, shown) {
  if (!additive) return visible && visible.size === 1 && visible.has(name) ? null : new Set([name]);
  const next = new Set(visible || shown);
  if (next.has(name)) next.delete(name); else next.add(name);
  return next.size ? next : null;
}
