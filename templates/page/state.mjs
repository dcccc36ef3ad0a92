/* The page's state: the runs read from the hs-data element, the view's
 * settings (S), the UI's elements (ui) and the time window of a run. */
import { doc } from './dom.mjs';
import { loadRun } from './decode.mjs';

export const scriptStart = performance.now();
const html = doc.documentElement;
const data = JSON.parse(doc.getElementById('hs-data').textContent);
export const compare = !!data.compare;
// a diff page's comparison (hs_render_diff_json()), or null
export const diffData = (compare && data.diff) || null;
export let runs = compare ? [loadRun(data.before), loadRun(data.after)] : [loadRun(data)];
const first = compare ? data.before : data;
export const S = {
  kind: first.state.kind, sort: first.state.sort, nbands: first.state.bands,
  search: '', visible: null, // null: every band the search keeps
  growing: null, // the "growing" quick filter: a test of a run's bands (growth.mjs), or null
  tableGroup: '', // the band table's grouping: '', 'module' or 'file'
  ccPath: null, // a cost-centre frame's path: its subtree only
  win: null, // [t0, t1] seconds, or null: everything
  timeMode: 'normalised', // compare pages
  tabChosen: false, // the reader clicked a tab
  msgsShown: true, msgSearch: '', // user messages: the track, the search
  markA: null, tab: 'chart', tableSort: ['bs', -1], tableFilter: '',
  flameWeight: 'peak', flameCap: -1, flameRoot: [],
  tfocus: null, // the time profile's followed cost centre (its full name)
  tsort: ['self', -1] // the time profile's table
};
html.classList.add('js');
// the one writer of `runs` (a live page's fresh data)
export function setRuns(r) { runs = r; }

// The time window of run r in its own seconds.
export function windowOf(r) {
  if (!S.win) return [0, r.end || 1];
  if (compare && S.timeMode === 'normalised') {
    const e = runs.reduce((m, x) => Math.max(m, x.end), 0) || 1;
    return [S.win[0] / e * r.end, S.win[1] / e * r.end];
  }
  return S.win;
}

export const app = doc.getElementById('app');
export const ui = {};
