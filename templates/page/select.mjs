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
// What is wrong with search text q: the regex's error, or null.
export function searchError(q) {
  const m = /^\/(.*)\/([a-z]*)$/.exec(q.trim());
  if (!m) return null;
  try { new RegExp(m[1], m[2]); return null; } catch (e) { return e.message; }
}

// Whether band b's cost-centre stack (outermost first, indices into
// `frames`) starts with `path` (frame names): the subtree of a frame.
export function underPath(b, frames, path) {
  if (!path || !path.length) return true;
  const st = b.stack;
  if (!st || st.length < path.length) return false;
  for (let k = 0; k < path.length; k++) if (frames[st[k]] !== path[k]) return false;
  return true;
}

function bySize(a, b) { return b.bs - a.bs || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0); }

// Why a view admits no band: the search's bad /regex/, or no match.
export function whyEmpty(q, growing) {
  const err = searchError(q || '');
  return err ? 'bad regular expression: ' + err : growing ? 'no band matches that is still growing' : 'no band matches';
}

/* The bands the legend offers, largest first: every band the search, the
 * cost-centre subtree (view.ccPath, over all samples, whatever the
 * icicle's weighting) and the "growing" quick filter (view.growing: a test
 * of bands, growth.mjs's growingTest) keep; the legend's choice does not
 * take any away. */
export function candidates(run, view) {
  const test = searchTest(view.search);
  const grows = view.growing ? view.growing(run) : null;
  return run.bands.filter(b => !b.excluded && (!test || test(b.name)) && underPath(b, run.frames, view.ccPath) &&
    (!grows || grows(b))).sort(bySize);
}
// The bands the view admits: the candidates the legend's choice keeps,
// largest first, before the cut to the largest view.nbands.
export function admittedBands(run, view) {
  const cand = candidates(run, view);
  return view.visible ? cand.filter(b => view.visible.has(b.name)) : cand;
}

/* The series a run draws: bands by name so two runs agree. `view` holds
 * the settings (S): search, ccPath, visible, nbands, sort. Past nbands the
 * rest of what the view admits is one OTHER series. */
export function chooseSeries(run, view) {
  const cand = admittedBands(run, view);
  const other = [];
  let shown = cand;
  if (view.nbands > 0 && cand.length > view.nbands) {
    shown = cand.slice(0, view.nbands);
    other.push(...cand.slice(view.nbands));
  }
  if (view.sort === 'name') shown.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  else if (view.sort === 'stddev') shown.sort((a, b) => b.sd - a.sd || b.bs - a.bs);
  const ser = shown.map(b => ({ band: b, name: b.name, colour: b.colour, hatched: b.hatched, v: b.v }));
  if (other.length) {
    // summing the rest costs bands x points: only when the rest changes
    const key = other.map(b => b.i + ':' + b.name).join('\u0000');
    if (!run.other || run.other.key !== key) {
      const v = new Float64Array(run.n);
      for (const b of other) { const bv = b.v; for (let k = 0; k < run.n; k++) v[k] += bv[k]; }
      run.other = { key, v };
    }
    ser.push({ band: null, name: 'OTHER (' + other.length + ' bands)', colour: '#bbbbbb', hatched: false, v: run.other.v, members: other });
  }
  return ser;
}
/* The frame of an icicle row (frames {x0, w} in fractions of its width,
 * left to right) a pointer at x picks: a frame narrower than `min` is
 * picked anywhere within min/2 of its middle (the nearest such), so that a
 * pointer or a tap reaches a 1-px frame; else the frame under x; null when
 * none is. */
export function frameAt(row, x, min) {
  let best = null, bd = Infinity;
  for (const f of row) {
    if (f.w >= min) continue;
    const d = Math.abs(x - (f.x0 + f.w / 2));
    if (d <= min / 2 && d < bd) { best = f; bd = d; }
  }
  return best || row.find(f => x >= f.x0 && x < f.x0 + f.w) || null;
}
export function newNode(name, path) { return { name, path, w: 0, kids: new Map(), bands: [] }; }
// srcs: the frames' source locations, for the frames' titles (optional)
export function addPath(root, frames, names, w, band, srcs) {
  let n = root;
  n.w += w;
  for (const f of frames) {
    const name = names[f];
    if (!n.kids.has(name)) n.kids.set(name, Object.assign(newNode(name, n.path.concat([name])), { src: srcs ? srcs[f] || '' : '' }));
    n = n.kids.get(name);
    n.w += w;
  }
  if (band) n.bands.push(band);
}

// The legend's choice after a click on band `name`: alone, or every band
// again when it was alone; with a modifier (`additive`: ctrl/shift-click,
// Space), added to or taken from the choice, which starts as every band
// the legend offers (`offered`). null: no choice, every band.
export function nextVisible(visible, name, additive, offered) {
  if (!additive) return visible && visible.size === 1 && visible.has(name) ? null : new Set([name]);
  const next = new Set(visible || offered);
  if (next.has(name)) next.delete(name); else next.add(name);
  if (!next.size || (next.size === offered.length && offered.every(n => next.has(n)))) return null;
  return next;
}

/* The legend's entries for the bands it offers (`offered`, largest first):
 * the largest `nbands` (0: all) and every chosen band besides, in that
 * order, each on (drawn) or off. A choice never takes an entry away. */
export function legendEntries(offered, visible, nbands) {
  const cut = nbands > 0 ? nbands : offered.length;
  return offered.filter((b, k) => k < cut || (visible && visible.has(b.name)))
    .map(b => ({ band: b, on: !visible || visible.has(b.name) }));
}

// The legend's order for the chart's `sort`: by size the largest peak
// (e.pk, in the window) first, so the top entry is the largest band.
export function orderEntries(entries, sort) {
  const byName = (a, b) => (a.band.name < b.band.name ? -1 : a.band.name > b.band.name ? 1 : 0);
  if (sort === 'name') return entries.sort(byName);
  if (sort === 'stddev') return entries.sort((a, b) => b.band.sd - a.band.sd || byName(a, b));
  return entries.sort((a, b) => b.pk - a.pk || b.band.bs - a.band.bs || byName(a, b));
}
