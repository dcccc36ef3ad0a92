// The page's band figures against the C library's: the data document
// (include/heapscope/page.h) carries each band's whole-run peak, time of
// peak and byte-seconds (hs_census_band_stats), which the page shows for
// the whole run; for a zoomed window the page computes them itself
// (windowStats), and must do so by the same rule. Over the whole run of
// a page that keeps every sample the two must agree. Needs page_tool
// (HEAPSCOPE_PAGE_TOOL, set by meson); skipped without it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadRun } from '../../templates/page/decode.mjs';
import { runStats, windowStats } from '../../templates/page/stats.mjs';

const tool = process.env.HEAPSCOPE_PAGE_TOOL;
const sample = name => fileURLToPath(new URL('../../samples/' + name, import.meta.url));

// A .hp whose band z is listed at 0 bytes throughout, the first sample
// not at 0 s: it peaks at the first sample (a rule both must share).
const ZERO_HP = ['JOB "zero"', 'DATE "Thu Jan  1 00:00 1970"', 'SAMPLE_UNIT "seconds"', 'VALUE_UNIT "bytes"',
  'BEGIN_SAMPLE 0.50', 'a\t100', 'z\t0', 'END_SAMPLE 0.50',
  'BEGIN_SAMPLE 1.25', 'a\t300', 'z\t0', 'END_SAMPLE 1.25',
  'BEGIN_SAMPLE 2.00', 'a\t50', 'END_SAMPLE 2.00', ''].join('\n');

function pageData(name) {
  let path = sample(name), dir = null;
  if (name === 'zero.hp') {
    dir = mkdtempSync(join(tmpdir(), 'hs-cfigures-'));
    path = join(dir, name);
    writeFileSync(path, ZERO_HP);
  }
  try {
    return JSON.parse(execFileSync(tool, ['data', path], { encoding: 'utf8', maxBuffer: 1 << 28 }));
  } finally {
    if (dir) rmSync(dir, { recursive: true });
  }
}

// .hp times are whole hundredths of a second, exact in the page's
// microseconds; an eventlog's nanoseconds are rounded to microseconds
// there, which moves the weights by up to 1e-6 s each.
const cases = [['zero.hp', 1e-6], ['leak-hc.hp', 1e-6], ['manycc-hy.hp', 1e-6], ['leak-hc.eventlog', 1e-4], ['manycc-hc.eventlog', 1e-4]];

for (const [name, tol] of cases) {
  test('whole run of ' + name + ': the page\'s rule gives the C figures', { skip: !tool && 'no page_tool' }, () => {
    const d = pageData(name);
    assert.equal(d.exact, true, 'a page that keeps every sample');
    const run = loadRun(d);
    assert.ok(run.n > 1 && run.bands.length > 1);
    const mine = windowStats(run, [0, run.end]), theirs = runStats(run);
    let total = 0;
    for (let k = 0; k < run.bands.length; k++) {
      const a = mine[k], b = theirs[k], name = run.bands[k].name;
      assert.equal(a.pk, b.pk, name + ': peak');
      assert.equal(a.pt, b.pt, name + ': time of peak');
      // the document writes byte-seconds with 7 significant digits
      assert.ok(Math.abs(a.bs - b.bs) <= Math.max(tol, 1e-6) * Math.max(1, Math.abs(b.bs)),
        name + ': byte-seconds ' + a.bs + ' vs ' + b.bs);
      assert.ok(Math.abs(a.share - b.share) < 1e-4, name + ': share');
      total += b.bs;
    }
    assert.ok(total > 0);
  });
}
