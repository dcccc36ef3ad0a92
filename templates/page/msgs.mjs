/* User messages (traceEvent): decoded from the data's `msgs` (page.h),
 * merged into buckets a few pixels wide for the chart's track, searched
 * for the Messages tab. Pure: no DOM, unit-tested under node. */
import { lowerBound } from './stats.mjs';
import { searchTest } from './select.mjs';

// {total, step, cut, list: [[us, text]]} as times in seconds and texts.
export function loadMessages(m) {
  const list = (m && m.list) || [];
  return {
    total: m ? m.total : 0, step: (m && m.step) || 1, cut: m ? m.cut : 0,
    t: Float64Array.from(list, x => x[0] / 1e6), text: list.map(x => x[1])
  };
}

// What the page says about the messages it holds: every one, or every
// step-th of how many, and the bound on each text.
export function boundNote(ms) {
  const n = ms.t.length;
  if (!ms.total) return '';
  const all = ms.total.toLocaleString('en-US');
  return (ms.step > 1
    ? 'This page holds ' + n.toLocaleString('en-US') + ' of the log’s ' + all + ' messages, every ' +
      ordinal(ms.step) + ' (a page carries at most 10,000); '
    : 'Every one of the log’s ' + all + ' messages; ') +
    'texts longer than ' + ms.cut + ' bytes are cut. heapscope events lists them all (its USER_MSG lines).';
}
function ordinal(k) { return k + (k % 10 === 1 && k % 100 !== 11 ? 'st' : k % 10 === 2 && k % 100 !== 12 ? 'nd' : k % 10 === 3 && k % 100 !== 13 ? 'rd' : 'th'); }

// The indices of the messages whose text the search q matches (a
// case-blind substring or a /regex/, as the band search); null: no search.
export function searchMessages(ms, q) {
  const test = searchTest(q || '');
  if (!test) return null;
  const out = [];
  for (let i = 0; i < ms.text.length; i++) if (test(ms.text[i])) out.push(i);
  return out;
}

/* The messages in [w0, w1] merged by pixel: a plot pw pixels wide cut into
 * buckets of px pixels, each holding the messages whose x falls in it.
 * Returns [{x: the bucket's middle, in pixels from the plot's left, i0, i1:
 * the messages [i0, i1), n, hits: how many the search `match` (a sorted
 * index list, or null) keeps, t0, t1: the first and last message's time}]. */
export function bucketMessages(t, w0, w1, pw, px, match) {
  const out = [];
  const span = w1 - w0 || 1, n = t.length;
  let i = lowerBound(t, w0, 0, n);
  const end = lowerBound(t, w1 + span * 1e-12, 0, n);
  let m = match ? lowerBound(match, i, 0, match.length) : 0;
  while (i < end) {
    const k = Math.min(Math.floor((t[i] - w0) / span * pw / px), Math.floor(pw / px));
    const upto = w0 + (k + 1) * px / pw * span;
    const j = Math.min(end, Math.max(i + 1, lowerBound(t, upto, i, end)));
    let hits = 0;
    if (match) { while (m < match.length && match[m] < j) { if (match[m] >= i) hits++; m++; } }
    out.push({ x: Math.min(pw, (k + 0.5) * px), i0: i, i1: j, n: j - i, hits, t0: t[i], t1: t[j - 1] });
    i = j;
  }
  return out;
}

// The window to zoom to for a bucket: its messages with a margin, so that
// zooming in spreads them over buckets of their own.
export function bucketWindow(b, w0, w1) {
  const pad = Math.max((b.t1 - b.t0) * 0.1, (w1 - w0) * 1e-4);
  return [b.t0 - pad, b.t1 + pad];
}
