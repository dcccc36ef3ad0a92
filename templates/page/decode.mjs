/* The data document's columns decoded (page.h): a run's times, bands and
 * heap lines as typed arrays. Pure: no DOM, unit-tested under node. */
// Digit values of the column encoding: 'A'..'f' end a varint, the
// others carry five more bits (page.h).
import { loadMessages } from './msgs.mjs';

const DIGIT = new Int8Array(128).fill(-1);
const MORE = new Uint8Array(128);
'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdef'.split('').forEach((c, i) => { DIGIT[c.charCodeAt(0)] = i; });
'ghijklmnopqrstuvwxyz0123456789-_'.split('').forEach((c, i) => {
  DIGIT[c.charCodeAt(0)] = i; MORE[c.charCodeAt(0)] = 1;
});

// An encoded column of n values (a short column repeats its last).
// Token digits below 2^30 (nearly all) are gathered with integer
// operations, longer tokens as doubles, exact up to 2^53 as the page's
// values are.
// Into `out` when given: one buffer for all of a run's bands, as
// chromium takes some 10 us to allocate each typed array's own.
export function decodeColumn(s, n, out) {
  out = out || new Float64Array(n);
  const len = s.length;
  let prev = 0, k = 0, i = 0;
  while (i < len && k < n) {
    let c = s.charCodeAt(i++);
    let v = DIGIT[c], more = MORE[c];
    for (let shift = 5; more && shift < 30 && i < len; shift += 5) {
      c = s.charCodeAt(i++);
      v |= DIGIT[c] << shift;
      more = MORE[c];
    }
    for (let scale = 1073741824; more && i < len; scale *= 32) {
      c = s.charCodeAt(i++);
      v += DIGIT[c] * scale;
      more = MORE[c];
    }
    // odd: a run of `half` repeats; even: a zigzag delta
    const odd = v % 2, half = (v - odd) / 2;
    if (odd) {
      const to = Math.min(n, k + half);
      out.fill(prev, k, to);
      k = to;
    } else {
      prev += half % 2 ? -(half + 1) / 2 : half / 2;
      out[k++] = prev;
    }
  }
  out.fill(prev, k);
  return out;
}

// Where a band comes from: a -hi band's IPE record, or a -hc band's
// innermost cost centre (its module and source location).
export function provenance(b, info) {
  if (b.ip) {
    const [table, desc, type, label, module, src] = b.ip;
    return { ipe: { table, desc, type, label, module, src }, module, src };
  }
  const cc = b.s && b.s.length ? info[b.s[0]] : null;
  return cc ? { module: cc.module, src: cc.src, cc: cc.label } : { module: '', src: '' };
}

export function loadRun(d) {
  const n = d.points;
  const t = decodeColumn(d.t, n);
  for (let i = 1; i < n; i++) t[i] += t[i - 1];
  for (let i = 0; i < n; i++) t[i] /= 1e6;
  const store = new Float64Array(n * d.bands.length);
  const info = (d.frames || []).map(f => (Array.isArray(f) ? { module: f[0], label: f[1], src: f[2] || '' } : null));
  const bands = d.bands.map((b, i) => {
    const v = decodeColumn(b.d, n, store.subarray(i * n, (i + 1) * n));
    if (b.g !== 1) for (let k = 0; k < n; k++) v[k] *= b.g;
    const gr = b.gr || [0, 0, 0, 0];
    return {
      i, name: b.n, colour: b.c, hatched: !!b.h, excluded: !!b.x,
      peak: b.pk, peakT: b.pt / 1e6, bs: b.bs, sd: b.sd, v,
      stack: b.s ? b.s.slice().reverse() : null,
      growth: { run: gr[0], late: gr[1], last: gr[2], growing: !!gr[3] },
      ...provenance(b, info)
    };
  });
  const lines = {};
  for (const k of Object.keys(d.lines || {})) {
    const [m, tc, vc] = d.lines[k];
    const lt = decodeColumn(tc, m), lv = decodeColumn(vc, m);
    for (let i = 1; i < m; i++) lt[i] += lt[i - 1];
    // capabilities post their heap events in their own blocks, so the
    // points come in time order only per capability: sort them
    const order = Array.from(lt.keys()).sort((a, b) => lt[a] - lt[b]);
    lines[k] = { t: Float64Array.from(order, i => lt[i] / 1e6), v: Float64Array.from(order, i => lv[i]) };
  }
  const frames = (d.frames || []).map(f => Array.isArray(f) ? f[0] + '.' + f[1] : f);
  const frameSrc = info.map(f => (f ? f.src : ''));
  const end = Math.max(d.end_us / 1e6, n ? t[n - 1] : 0);
  return {
    d, n, t, bands, lines, frames, frameSrc, end,
    markers: (d.markers || []).map(m => ({ t: m[0] / 1e6, text: m[1] })),
    msgs: loadMessages(d.msgs),
    tprof: d.tprof, gc: d.gc
  };
}
