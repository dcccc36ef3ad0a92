/*
 * The summary as text, in the line formats of +RTS -s so the two can be
 * compared with diff, and the lists of figures the log cannot give and of
 * how others differ from +RTS -s, which the JSON writer shares.
 */
#include "summary/summary_internal.h"

#include <inttypes.h>
#include <stdio.h>

/* Writes the run's command line as the runtime heads its stats file: each
 * program argument in single quotes, then "+RTS " and each RTS argument
 * in single quotes, a quote inside written '\''. */
static int put_command_line(const hs_summary *s, hs_sink *out)
{
    if (!s->args || !s->args_len)
        return HS_OK;
    for (int pass = 0; pass < 2; pass++) {
        bool rts = false, stop = false;
        if (pass == 1) {
            int st = hs_sink_write(out, "+RTS ", 5);
            if (st)
                return st;
        }
        for (size_t i = 0; i < s->args_len;) {
            const char *a = s->args + i;
            size_t n = strnlen(a, s->args_len - i);
            i += n + 1;
            bool is_rts_word = false;
            if (!stop) {
                if (n == 4 && memcmp(a, "+RTS", 4) == 0) {
                    rts = true;
                    is_rts_word = true;
                } else if (n == 4 && memcmp(a, "-RTS", 4) == 0) {
                    rts = false;
                    is_rts_word = true;
                } else if (n == 5 && memcmp(a, "--RTS", 5) == 0) {
                    stop = true;
                    rts = false;
                    is_rts_word = true;
                }
            }
            if (is_rts_word || rts != (pass == 1))
                continue;
            int st = hs_sink_write(out, "'", 1);
            for (size_t k = 0; !st && k < n; k++)
                st = a[k] == '\'' ? hs_sink_write(out, "'\\''", 4)
                                  : hs_sink_write(out, a + k, 1);
            if (!st)
                st = hs_sink_write(out, "' ", 2);
            if (st)
                return st;
        }
    }
    return hs_sink_write(out, "\n", 1);
}

/* 1234567 -> "1,234,567", as the runtime's showStgWord64 with commas. */
void hs__summary_commas(uint64_t v, char *buf, size_t size)
{
    char digits[32];
    int n = snprintf(digits, sizeof digits, "%" PRIu64, v);
    size_t o = 0;
    for (int i = 0; i < n && o + 2 < size; i++) {
        if (i && (n - i) % 3 == 0)
            buf[o++] = ',';
        buf[o++] = digits[i];
    }
    buf[o] = 0;
}

static double secs(uint64_t ns)
{
    return (double)ns / 1e9;
}

uint64_t summary_avg_pause(const hs_summary_gen *g)
{
    /* The runtime divides the elapsed total by all collections; when some
     * collection had no pause (a truncated log) divide by the timed ones. */
    uint32_t n = g->timed == g->collections ? g->collections : g->timed;
    return n ? g->elapsed_ns / n : 0;
}

static void add(textlist *l, const char *t)
{
    if (l->n < (int)(sizeof l->items / sizeof l->items[0]))
        l->items[l->n++] = t;
}

void summary_unavailable(const hs_summary *s, textlist *l)
{
    const hs_summary_stats *st = &s->stats;
    if (!s->any_alloc)
        add(l, "bytes allocated in the heap (no HEAP_ALLOCATED events)");
    else if (!st->has_allocated)
        add(l, "bytes allocated in the heap: the counters give a figure "
               "that cannot be right (see the warning)");
    if (!st->has_gc) {
        add(l, "bytes copied during GC (no GC_STATS_GHC events)");
        add(l, "maximum slop (no GC_STATS_GHC events)");
        add(l, "collections per generation (no GC_STATS_GHC events)");
        add(l, "parallel GC work balance (no GC_STATS_GHC events)");
    } else if (!st->has_slop) {
        add(l, "maximum slop (no major collection)");
    }
    if (!st->has_live)
        add(l, "maximum residency (no HEAP_LIVE events: no major "
               "collection, or no GC events)");
    if (!st->has_heap_size)
        add(l, "MiB total memory in use (no HEAP_SIZE events)");
    add(l, "MB lost due to fragmentation: the runtime subtracts the "
           "high-water mark of allocated blocks, reached inside a "
           "collection, and the heap events are posted at its end");
    if (!st->has_pauses)
        add(l, "GC and MUT elapsed time, pauses, productivity and alloc "
               "rate (no GC_START/GC_END around GC_STATS_GHC)");
    else if (st->has_allocated && !st->has_alloc_rate)
        add(l, "alloc rate: no MUT time, or a figure that cannot be right "
               "(see the warning)");
    add(l, "CPU (user) times: the eventlog holds elapsed time only");
    add(l, "INIT and EXIT times: no events mark them");
    if (s->heap_profiled)
        add(l, "PROF and RP times: no events mark the heap census");
    if (s->threaded)
        add(l, "TASKS: the task events do not give the runtime's counts");
    if (st->nonmoving)
        add(l, "the nonmoving collector's concurrent mark time (\"Gen N "
               "concurrent\"): no event marks where the runtime starts and "
               "stops timing it");
}

void summary_notes(const hs_summary *s, textlist *l)
{
    const hs_summary_stats *st = &s->stats;
    if (st->has_pauses) {
        add(l, "Pauses run from GC_START to GC_END on the capability that "
               "led each collection, the times +RTS -s measures, so the "
               "generation table's elapsed columns equal the runtime's.");
        add(l, "MUT elapsed is the elapsed total minus the pauses, so it "
               "includes INIT and EXIT time.");
        add(l, "Alloc rate divides by MUT elapsed time; +RTS -s divides by "
               "MUT CPU time.");
    }
    if (s->heap_profiled && st->has_pauses)
        add(l, "The heap census runs inside collections and no event marks "
               "it: GC elapsed here includes the PROF (and with -hr RP) "
               "time that +RTS -s lists apart, so GC is larger and "
               "Productivity smaller than +RTS -s reports.");
    if (st->has_heap_size)
        add(l, "MiB in use is the largest HEAP_SIZE, posted at the end of "
               "each collection; +RTS -s uses the megablock peak, which a "
               "peak between collections could exceed.");
    if (st->work_balance_estimated)
        add(l, "Work balance is estimated as (total/max copied - 1) / "
               "(threads - 1): this log predates the balanced-copy field.");
    if (st->windowed)
        add(l, "In a window, a collection counts when its GC_STATS_GHC "
               "event falls inside it, and allocation and sparks are the "
               "growth of counters the runtime posts at collections, "
               "between the last values before each edge.");
}

/* Writes "    - " and the sentence wrapped at 78 columns, continuation
 * lines indented under its first word. */
static int put_item(hs_sink *out, const char *t)
{
    const size_t width = 78 - 6;
    TRY(hs_sink_write(out, "    - ", 6));
    size_t col = 0;
    while (*t) {
        size_t w = strcspn(t, " ");
        if (col && col + 1 + w > width) {
            TRY(hs_sink_write(out, "\n      ", 7));
            col = 0;
        } else if (col) {
            TRY(hs_sink_write(out, " ", 1));
            col++;
        }
        TRY(hs_sink_write(out, t, w));
        col += w;
        t += w;
        while (*t == ' ')
            t++;
    }
    return hs_sink_write(out, "\n", 1);
}


/* The command line, the window, and the memory figures. */
static int put_head(const hs_summary *s, hs_sink *out)
{
    const hs_summary_stats *st = &s->stats;
    char num[40];
    TRY(put_command_line(s, out));
    if (st->windowed) {
        TRY(hs_sink_printf(out, "  Window: %.6fs to %.6fs", secs(st->from_ns),
                           secs(st->to_ns)));
        if (s->from_marker && s->to_marker) {
            TRY(hs_sink_printf(out, " (user marker \""));
            TRY(hs_put_escaped(out, s->from_marker, true));
            TRY(hs_sink_printf(out, "\" to \""));
            TRY(hs_put_escaped(out, s->to_marker, true));
            TRY(hs_sink_printf(out, "\")"));
        }
        TRY(hs_sink_printf(out, "\n"));
    }
    if (st->has_allocated) {
        hs__summary_commas(st->allocated_bytes, num, sizeof num);
        TRY(hs_sink_printf(out, "%16s bytes allocated in the heap\n", num));
    }
    if (st->has_gc) {
        hs__summary_commas(st->copied_bytes, num, sizeof num);
        TRY(hs_sink_printf(out, "%16s bytes copied during GC\n", num));
    }
    if (st->has_live && st->major_gcs > 0) {
        hs__summary_commas(st->max_live_bytes, num, sizeof num);
        TRY(hs_sink_printf(out, "%16s bytes maximum residency (%" PRIu32
                           " sample(s))\n", num, st->major_gcs));
    }
    if (st->has_slop) {
        hs__summary_commas(st->max_slop_bytes, num, sizeof num);
        TRY(hs_sink_printf(out, "%16s bytes maximum slop\n", num));
    }
    if (st->has_heap_size) {
        TRY(hs_sink_printf(out, "%16" PRIu64 " MiB total memory in use",
                           st->max_mem_in_use_bytes / (1024 * 1024)));
        TRY(hs_sink_printf(out, " (n/a MB lost due to fragmentation)\n"));
    }
    return hs_sink_printf(out, "\n");
}

/* The generation table, work balance and sparks. */
/* The nonmoving collector's line under the generation table, as +RTS -s
 * prints it: the oldest generation, its collections, then the syncs'
 * elapsed total, the total over those collections, and the longest. */
static int put_syncs(const hs_summary_stats *st, hs_sink *out)
{
    if (!st->has_nonmoving_syncs || !st->n_gens)
        return HS_OK;
    uint32_t n = st->major_gcs;
    return hs_sink_printf(out, "  Gen %2" PRIu32 "     %5" PRIu32
                          " syncs,                      %6.3fs     %3.4fs"
                          "    %3.4fs\n", st->n_gens - 1, n,
                          secs(st->nonmoving_sync_ns),
                          n ? secs(st->nonmoving_sync_ns / n) : 0.0,
                          secs(st->nonmoving_sync_max_ns));
}

static int put_collections(const hs_summary_stats *st, hs_sink *out)
{
    if (st->has_gc) {
        TRY(hs_sink_printf(out, "                                     Tot "
                           "time (elapsed)  Avg pause  Max pause\n"));
        for (uint32_t g = 0; g < st->n_gens; g++) {
            const hs_summary_gen *gs = &st->gens[g];
            TRY(hs_sink_printf(out, "  Gen %2" PRIu32 "     %5" PRIu32
                               " colls, %5" PRIu32 " par      n/a", g,
                               gs->collections, gs->par_collections));
            if (st->has_pauses)
                TRY(hs_sink_printf(out, "  %6.3fs     %3.4fs    %3.4fs\n",
                                   secs(gs->elapsed_ns),
                                   secs(summary_avg_pause(gs)),
                                   secs(gs->max_pause_ns)));
            else
                TRY(hs_sink_printf(out, "      n/a        n/a        n/a\n"));
        }
        TRY(put_syncs(st, out));
        TRY(hs_sink_printf(out, "\n"));
    }
    if (st->has_work_balance && st->work_balance > 0)
        TRY(hs_sink_printf(out, "  Parallel GC work balance: %.2f%% "
                           "(serial 0%%, perfect 100%%)\n\n",
                           st->work_balance * 100));
    if (st->has_sparks)
        TRY(hs_sink_printf(out, "  SPARKS: %" PRIu64 " (%" PRIu64
                           " converted, %" PRIu64 " overflowed, %" PRIu64
                           " dud, %" PRIu64 " GC'd, %" PRIu64
                           " fizzled)\n\n",
                           st->sparks_created + st->sparks_dud +
                               st->sparks_overflowed,
                           st->sparks_converted, st->sparks_overflowed,
                           st->sparks_dud, st->sparks_gcd,
                           st->sparks_fizzled));
    return HS_OK;
}

/* Times, alloc rate and productivity. */
static int put_times(const hs_summary_stats *st, hs_sink *out)
{
    if (st->has_pauses) {
        TRY(hs_sink_printf(out, "  MUT     time       n/a  (%7.3fs elapsed)\n",
                           secs(st->mut_ns)));
        TRY(hs_sink_printf(out, "  GC      time       n/a  (%7.3fs elapsed)\n",
                           secs(st->gc_ns)));
    }
    TRY(hs_sink_printf(out, "  Total   time       n/a  (%7.3fs elapsed)\n\n",
                       secs(st->total_ns)));
    if (st->has_alloc_rate) {
        char num[40];
        hs__summary_commas(st->alloc_rate, num, sizeof num);
        TRY(hs_sink_printf(out, "  Alloc rate    %s bytes per MUT second\n\n",
                           num));
    } else if (st->has_pauses && st->has_allocated && st->mut_ns) {
        TRY(hs_sink_printf(out, "  Alloc rate    n/a bytes per MUT second"
                           "\n\n"));
    }
    if (st->has_pauses && st->total_ns)
        TRY(hs_sink_printf(out, "  Productivity    n/a of total user, %.1f%% "
                           "of total elapsed\n\n",
                           (double)st->mut_ns * 100 / (double)st->total_ns));
    return HS_OK;
}

int hs_summary_render_text(const hs_summary *s, hs_sink *out)
{
    if (!s->has_stats)
        return HS_ERR_MISUSE;
    const hs_summary_stats *st = &s->stats;
    TRY(put_head(s, out));
    TRY(put_collections(st, out));
    TRY(put_times(st, out));

    textlist u = {0}, n = {0};
    summary_unavailable(s, &u);
    summary_notes(s, &n);
    if (!st->has_gc && !st->has_allocated && !st->has_heap_size &&
        !st->has_live)
        TRY(hs_sink_printf(out, "%s", s->any_gc_start
            ? "  This log has GC start and end events but no GC statistics\n"
              "  events (older runtimes, GHC 6.12 and 7.0 among them, do not\n"
              "  write them), so no GC statistics can be computed.\n\n"
            : "  This log has no GC or heap events (it was recorded without "
              "the GC event\n  class), so no GC statistics can be computed."
              "\n\n"));
    TRY(hs_sink_printf(out, "  Not computable from this log:\n"));
    for (int i = 0; i < u.n; i++)
        TRY(put_item(out, u.items[i]));
    if (n.n) {
        TRY(hs_sink_printf(out, "\n  Notes:\n"));
        for (int i = 0; i < n.n; i++)
            TRY(put_item(out, n.items[i]));
    }
    return HS_OK;
}
