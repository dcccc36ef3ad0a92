/* The run panel: the run's facts and its GC figures. */
import { el } from './dom.mjs';
import { fmtBytes, fmtExact, fmtSec } from './format.mjs';
import { runs } from './state.mjs';
import { isLive } from './main.mjs';

function dl(pairs) {
  return el('dl', {}, ...pairs.filter(p => p[1] != null && p[1] !== '').flatMap(([k, v]) => [el('dt', { text: k }), el('dd', { text: String(v) })]));
}
function ns(v) { return v == null ? null : fmtSec(v / 1e9); }

// The GC figures of a Mono .mlpd (summary --json of such a file).
function monoGcParts(g) {
  const parts = [el('h2', { text: 'Garbage collector (Mono)' }), dl([
    ['allocated', g.allocated_bytes != null ? fmtExact(g.allocated_bytes) + ' in ' + g.allocated_objects.toLocaleString('en-US') + ' objects'
      : 'n/a (the profiler\'s alloc option was off)'],
    ['max heap size', g.max_heap_bytes != null ? fmtExact(g.max_heap_bytes) : null],
    ['heap shots', g.heap_shots],
    ['max live (largest heap shot)', g.max_live_bytes != null ? fmtExact(g.max_live_bytes) : null],
    ['elapsed', ns(g.elapsed_ns)],
    ['world stops', g.world_stops ? g.world_stops.count + ', ' + fmtSec(g.world_stops.total_ns / 1e9) + ' in all, longest ' +
      fmtSec(g.world_stops.max_ns / 1e9) : null],
    ['late vtables', g.late_vtables ? g.late_vtables + ' (named after their first use; mprof-report leaves them unresolved)' : null]])];
  const gens = g.generations || [];
  if (gens.length) parts.push(el('h3', { text: 'Collections by generation' }), el('div', { class: 'scroll' },
    el('table', { class: 'gc' }, el('thead', {}, el('tr', {}, ...['gen', 'collections', 'concurrent', 'elapsed', 'longest'].map(h => el('th', { text: h })))),
      el('tbody', {}, ...gens.map(x => el('tr', {}, ...[x.gen, x.collections, x.concurrent, ns(x.elapsed_ns), ns(x.max_pause_ns)]
        .map(v => el('td', { text: v == null ? 'n/a' : String(v) }))))))));
  // a concurrent collection is timed start to end, the program running
  // meanwhile: its time is no pause (the world stops are)
  if (gens.some(x => x.concurrent > 0)) parts.push(el('p', { class: 'note', text:
    'Concurrent collections ran while the program did (the world restarted before they ended): ' +
    'their time is not a pause; the world stops above are the pauses.' }));
  return parts;
}

export function buildRunPanel() {
  const r = runs[0], d = r.d, g = r.gc;
  const parts = [el('h2', { text: 'Run' }), dl([
    ['program', d.program], ['command line', d.program ? d.title : null], ['runtime', d.rts],
    ['heap profile', d.profile || (d.breakdown ? '-' + d.breakdown + ' (' + d.breakdown_name + ')' : 'none')],
    ['samples', d.samples.toLocaleString('en-US')], ['bands', r.bands.length.toLocaleString('en-US')],
    ['markers', r.markers.length], ['duration', fmtSec(r.end)],
    ['log complete', d.complete ? 'yes' : isLive() ? 'not yet: the program is running' : 'no: it stops without its end marker']])];
  if (g && g.source === 'mlpd') {
    parts.push(...monoGcParts(g));
  } else if (g) {
    parts.push(el('h2', { text: 'Garbage collector' }), dl([
      ['allocated', g.allocated_bytes != null ? fmtExact(g.allocated_bytes) : null],
      ['copied', g.copied_bytes != null ? fmtExact(g.copied_bytes) : null],
      ['max live', g.max_live_bytes != null ? fmtExact(g.max_live_bytes) + ' (' + g.live_samples + ' samples)' : null],
      ['max memory in use', g.max_mem_in_use_bytes != null ? fmtBytes(g.max_mem_in_use_bytes) : null],
      ['total time', ns(g.total_elapsed_ns)], ['GC time', ns(g.gc_elapsed_ns)], ['mutator time', ns(g.mut_elapsed_ns)],
      ['productivity', g.productivity_elapsed_percent != null ? g.productivity_elapsed_percent.toFixed(1) + '% of elapsed time' : null],
      ['alloc rate', g.alloc_rate_bytes_per_mut_second != null ? fmtBytes(g.alloc_rate_bytes_per_mut_second) + ' per mutator second' : null],
      ['parallel work balance', g.work_balance_percent != null ? g.work_balance_percent.toFixed(1) + '%' : null]]));
    const gens = g.generations || [];
    if (gens.length) parts.push(el('h3', { text: 'Collections and pauses by generation' }), el('div', { class: 'scroll' },
      el('table', { class: 'gc' }, el('thead', {}, el('tr', {}, ...['gen', 'collections', 'parallel', 'elapsed', 'avg pause', 'max pause', 'copied']
        .map(h => el('th', { text: h })))),
      el('tbody', {}, ...gens.map(x => el('tr', {}, ...[x.gen, x.collections, x.par_collections, ns(x.elapsed_ns), ns(x.avg_pause_ns), ns(x.max_pause_ns),
        x.copied_bytes != null ? fmtBytes(x.copied_bytes) : ''].map(v => el('td', { text: v == null ? 'n/a' : String(v) }))))))));
    const caps = g.capabilities || [];
    if (caps.length) parts.push(el('h3', { text: 'Capabilities' }), el('div', { class: 'scroll' },
      el('table', { class: 'gc' }, el('thead', {}, el('tr', {}, ...['cap', 'GC intervals', 'led', 'GC time', 'allocated'].map(h => el('th', { text: h })))),
      el('tbody', {}, ...caps.map(x => el('tr', {}, ...[x.cap, x.gc_intervals, x.led, ns(x.gc_elapsed_ns),
        x.allocated_bytes != null ? fmtBytes(x.allocated_bytes) : 'n/a'].map(v => el('td', { text: String(v) }))))))));
    if (g.notes && g.notes.length) parts.push(el('h3', { text: 'Notes' }), el('ul', { class: 'notes' }, ...g.notes.map(n => el('li', { text: n }))));
  } else {
    parts.push(el('p', { class: 'hint', text: isLive() ? 'No GC figures yet: they come with the program\'s first collections.'
      : 'No GC figures: the log has no GC events, or it was read from a pipe.' }));
  }
  return el('section', { class: 'panel', 'data-tab': 'run' }, ...parts);
}
