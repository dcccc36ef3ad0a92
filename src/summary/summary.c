/*
 * The +RTS -s summary rebuilt from heap and GC events: the object, the
 * event dispatch and finish. summary_caps.c holds the per-capability
 * state, summary_markers.c the user markers, summary_text.c and
 * summary_json.c the writers.
 *
 * How each figure is made (GHC 9.0 rts/Stats.c is the reference for what
 * the runtime prints; the events are posted from the same variables):
 *
 *   bytes allocated   sum over capabilities of the growth of HEAP_ALLOCATED
 *                     (the runtime posts every capability's counter at each
 *                     collection and once more at exit; the last values add
 *                     up to +RTS -s's figure)
 *   bytes copied      sum of GC_STATS_GHC.copied
 *   max residency     largest HEAP_LIVE (posted after major collections);
 *                     the sample count is the number of major collections
 *   max slop          largest GC_STATS_GHC.slop of a major collection (the
 *                     runtime's max_slop_bytes is only updated then)
 *   MiB in use        largest HEAP_SIZE (mblocks_allocated * MBLOCK_SIZE at
 *                     the end of a collection)
 *   fragmentation     not made: the runtime's figure is peak megablocks
 *                     minus the high-water mark of allocated blocks, which
 *                     is reached in the middle of a copying collection
 *                     (from- and to-space both held); HEAP_SIZE,
 *                     BLOCKS_SIZE and GC_STATS_GHC.frag are all posted at
 *                     the end, after from-space is freed. On the samples
 *                     the end-of-collection figures give 6 to 36 MB where
 *                     +RTS -s says 0.
 *   colls / par       GC_STATS_GHC per generation; par when its thread count
 *                     is above one (the runtime's n_gc_threads > 1)
 *   pauses            the leader's GC_START..GC_END (see summary.h)
 *   work balance      sum of par_balanced_copied / sum of copied, over the
 *                     parallel collections (the runtime's Note [Work
 *                     Balance]); logs older than 8.4 lack the balanced
 *                     field and get (total/max - 1) / (threads - 1)
 *   sparks            sum over capabilities of SPARK_COUNTERS' growth
 *
 * Nothing here depends on the interleaving of different capabilities'
 * events (summary.h explains why that matters): per-capability state is
 * fed in that capability's order, everything else is a sum, maximum or
 * count.
 */
#include "summary/summary_internal.h"
#include "summary/summary_bulk.h"
#include "read/read_eventlog.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>

/*
 * The fastest allocation a figure may show, in bytes per second. GHC
 * allocates a few GB/s per capability; 1 PB/s is beyond any machine's
 * memory system by two orders of magnitude, so a figure above it comes
 * from a corrupted counter (a flipped high bit) and is refused rather
 * than printed.
 */
#define MAX_ALLOC_RATE 1e15

int summary_fail(hs_summary *s, int code, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    hs__error_vset(&s->err, code, NULL, fmt, ap);
    va_end(ap);
    return code;
}

int summary_nomem(hs_summary *s)
{
    summary_fail(s, HS_ERR_NOMEM, "out of memory");
    s->sticky = true;
    return HS_ERR_NOMEM;
}

void summary_warn(hs_summary *s, const char *fmt, ...)
{
    if (s->nwarnings >= MAX_WARNINGS)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(s->warnings[s->nwarnings++], sizeof s->warnings[0], fmt, ap);
    va_end(ap);
}

void hs_summary_window_init_size(hs_summary_window *w, size_t size)
{
    const hs_summary_window def = {.size = sizeof def, .to_ns = UINT64_MAX};
    hs__options_fill(w, size, &def, sizeof def);
}

hs_summary *hs_summary_new(void)
{
    return hs_summary_new_with(NULL);
}

hs_summary *hs_summary_new_with(const hs_allocator *alloc)
{
    hs_summary *s = hs_calloc(alloc, 1, sizeof *s);
    if (!s)
        return NULL;
    s->alloc = hs_alloc_copy(&s->alloc_store, alloc);
    s->to = UINT64_MAX;
    s->par_all_balanced = true;
    hs__error_clear(&s->err);
    hs_intern_init(&s->marker_names, s->alloc);
    return s;
}

void hs_summary_free(hs_summary *s)
{
    if (!s)
        return;
    const hs_allocator *a = s->alloc;
    for (size_t i = 0; i < s->norder; i++) /* every state made is there */
        hs_free(a, s->caps[s->order[i]]);
    hs_free(a, s->caps);
    hs_free(a, s->order);
    hs_free(a, s->gens);
    for (size_t i = 0; i < s->marker_names.count; i++)
        hs_free(a, s->markers[i].times);
    hs_free(a, s->markers);
    hs_free(a, s->marker_order);
    hs_intern_free(&s->marker_names);
    hs_free(a, s->from_marker);
    hs_free(a, s->to_marker);
    hs_free(a, s->input);
    hs_free(a, s->rts_id);
    hs_free(a, s->args);
    hs_free(a, s->caps_out);
    hs_free(a, s);
}

/* Replaces *slot by a copy of text (NULL stays NULL); false when out of
 * memory, *slot then unchanged. */
static bool set_text(hs_summary *s, char **slot, const char *text)
{
    char *copy = NULL;
    if (text && !(copy = hs_strndup(s->alloc, text, strlen(text))))
        return false;
    hs_free(s->alloc, *slot);
    *slot = copy;
    return true;
}

int hs_summary_set_window(hs_summary *s, const hs_summary_window *caller)
{
    if (s->sticky)
        return s->err.code;
    hs_summary_window taken, *w = &taken;
    hs_summary_window_init(&taken);
    if (!caller || hs__options_take(&taken, sizeof taken, caller))
        return summary_fail(s, HS_ERR_INVALID, "the window was not set up "
                            "by hs_summary_window_init");
    if (s->events || s->finished)
        return summary_fail(s, HS_ERR_MISUSE, "the window must be set "
                            "before the first event");
    if (w->from_ns > w->to_ns)
        return summary_fail(s, HS_ERR_INVALID, "the window ends before it "
                            "starts");
    if (!set_text(s, &s->from_marker, w->from_marker) ||
        !set_text(s, &s->to_marker, w->to_marker))
        return summary_nomem(s);
    s->windowed = true;
    s->from = w->from_ns;
    s->to = w->to_ns;
    return HS_OK;
}

int hs_summary_set_input(hs_summary *s, const char *name)
{
    if (s->sticky)
        return s->err.code;
    return set_text(s, &s->input, name) ? HS_OK : summary_nomem(s);
}

static int on_text(hs_summary *s, char **slot, hs_str text)
{
    char *copy = hs_strndup(s->alloc, text.ptr, text.len);
    if (!copy)
        return summary_nomem(s);
    hs_free(s->alloc, *slot);
    *slot = copy;
    return HS_OK;
}

/* The events that only set a figure of the whole log. */
int summary_on_global(hs_summary *s, const hs_event *ev)
{
    switch (ev->tag) {
    case HS_EV_HEAP_LIVE:
        if (summary_in_window(s, ev->time)) {
            s->any_live = true;
            if (ev->u.heap.bytes > s->max_live)
                s->max_live = ev->u.heap.bytes;
        }
        return HS_OK;
    case HS_EV_BLOCKS_SIZE:
        s->any_blocks_size = true;
        return HS_OK;
    case HS_EV_HEAP_INFO_GHC:
        s->info_gens = ev->u.heap_info.gens;
        return HS_OK;
    case HS_EV_RTS_IDENTIFIER: {
        TRY(on_text(s, &s->rts_id, ev->u.rts_identifier.text));
        /* GHC names its RTS flavours rts_thr, rts_thr_p, rts_thr_debug... */
        s->threaded = strstr(s->rts_id, "_thr") != NULL;
        return HS_OK;
    }
    case HS_EV_PROGRAM_ARGS:
        TRY(on_text(s, &s->args, ev->u.args.raw));
        s->args_len = ev->u.args.raw.len;
        return HS_OK;
    case HS_EV_HEAP_PROF_BEGIN:
        s->heap_profiled = true;
        return HS_OK;
    case HS_EV_USER_MARKER:
        return summary_marker_add(s, ev->u.msg.text, ev->time);
    case HS_EV_CONC_MARK_BEGIN: case HS_EV_CONC_MARK_END:
    case HS_EV_CONC_SWEEP_BEGIN: case HS_EV_CONC_SWEEP_END:
        s->any_conc = true;
        return HS_OK;
    case HS_EV_CONC_SYNC_BEGIN:
        s->any_conc = true;
        s->sync_open = true;
        s->sync_begin = ev->time;
        return HS_OK;
    case HS_EV_CONC_SYNC_END:
        if (s->sync_open && ev->time >= s->sync_begin &&
            summary_in_window(s, ev->time)) {
            uint64_t d = ev->time - s->sync_begin;
            s->syncs++;
            s->sync_ns += d;
            if (d > s->sync_max_ns)
                s->sync_max_ns = d;
        }
        s->sync_open = false;
        return HS_OK;
    default:
        return HS_OK;
    }
}

/* The tags hs_summary_add_event() reads; every other event only counts and
 * moves the time on, which hs__summary_skipped() does for many at once. */
static const uint16_t summary_tags[] = {
    HS_EV_GC_START, HS_EV_GC_END, HS_EV_GC_STATS_GHC, HS_EV_HEAP_SIZE,
    HS_EV_HEAP_ALLOCATED, HS_EV_SPARK_COUNTERS, HS_EV_HEAP_LIVE,
    HS_EV_BLOCKS_SIZE, HS_EV_HEAP_INFO_GHC, HS_EV_RTS_IDENTIFIER,
    HS_EV_PROGRAM_ARGS, HS_EV_HEAP_PROF_BEGIN, HS_EV_USER_MARKER,
    HS_EV_CONC_MARK_BEGIN, HS_EV_CONC_MARK_END, HS_EV_CONC_SWEEP_BEGIN,
    HS_EV_CONC_SWEEP_END, HS_EV_CONC_SYNC_BEGIN, HS_EV_CONC_SYNC_END,
};

size_t hs_summary_event_tags(uint16_t *tags, size_t cap)
{
    size_t n = sizeof summary_tags / sizeof summary_tags[0];
    for (size_t i = 0; i < n && i < cap; i++)
        tags[i] = summary_tags[i];
    return n;
}

void hs__summary_skipped(hs_summary *s, uint64_t events, uint64_t timed,
                         uint64_t max_time)
{
    if (s->sticky || s->finished)
        return;
    s->events += events;
    if (timed && (!s->any_time || max_time > s->last_time))
        s->last_time = max_time;
    s->any_time |= timed != 0;
}

void hs__summary_tally(hs_summary *s, const hs__tally *t, uint64_t given)
{
    hs__summary_skipped(s, t->events - given, t->events - t->markers - given,
                        t->max_time);
}

/* --- finish ------------------------------------------------------------- */

static void finish_work_balance(const hs_summary *s, hs_summary_stats *st)
{
    if (!s->par_any || !s->par_copied)
        return;
    if (s->par_all_balanced) {
        st->has_work_balance = true;
        st->work_balance = (double)s->par_balanced / (double)s->par_copied;
    } else if (s->par_max && s->par_threads_max > 1) {
        st->has_work_balance = true;
        st->work_balance_estimated = true;
        st->work_balance = ((double)s->par_tot / (double)s->par_max - 1) /
                           (double)(s->par_threads_max - 1);
    }
}

/*
 * Refuses allocation figures that cannot be right (a corrupted counter)
 * with a warning, and computes the alloc rate, which must fit the range
 * it is printed in: a double beyond UINT64_MAX converted to an integer is
 * undefined behaviour, and a rate beyond MAX_ALLOC_RATE is no measurement.
 */
static void finish_alloc(hs_summary *s, hs_summary_stats *st)
{
    if (!st->has_allocated)
        return;
    const double run_s = (double)(s->any_time ? s->last_time : 0) / 1e9;
    if ((double)st->allocated_bytes > MAX_ALLOC_RATE * (run_s > 1 ? run_s
                                                                  : 1)) {
        summary_warn(s, "bytes allocated (%" PRIu64 ") cannot be right for "
                     "a run of %.3f s (a corrupted HEAP_ALLOCATED "
                     "counter?); it and the alloc rate are left out",
                     st->allocated_bytes, run_s);
        st->has_allocated = false;
        return;
    }
    if (!st->has_pauses || !st->mut_ns)
        return;
    const double rate = (double)st->allocated_bytes /
                        ((double)st->mut_ns / 1e9);
    if (!(rate <= MAX_ALLOC_RATE)) {
        summary_warn(s, "the alloc rate (%.3g bytes per MUT second) cannot "
                     "be right (MUT time %.9f s); it is left out", rate,
                     (double)st->mut_ns / 1e9);
        return;
    }
    st->has_alloc_rate = true;
    st->alloc_rate = (uint64_t)rate;
}

static int compute_stats(hs_summary *s);
static const char *no_data_reason(const hs_summary *s);

int hs_summary_finish(hs_summary *s)
{
    if (s->sticky)
        return s->err.code;
    if (s->finished)
        return s->finish_status;
    s->finished = true;
    s->finish_status = compute_stats(s);
    if (s->finish_status == HS_ERR_NO_DATA)
        summary_fail(s, HS_ERR_NO_DATA, "%s", no_data_reason(s));
    return s->finish_status;
}

int hs_summary_snapshot(hs_summary *s)
{
    if (s->sticky)
        return s->err.code;
    if (s->finished)
        return s->finish_status;
    /* Only finish() says a log has nothing: a snapshot before the first
     * GC event is no error, and recorded as the first error it hid every
     * later figure of a live run. */
    int st = compute_stats(s);
    return st == HS_ERR_NO_DATA ? HS_OK : st;
}

/* The figures of the events so far; finish() and snapshot() share it, so
 * a live view and the final figures cannot disagree. */
static int compute_stats(hs_summary *s)
{
    s->has_stats = true;
    hs_summary_stats *st = &s->stats;
    memset(st, 0, sizeof *st);
    /* Every warning is about a figure computed here: a snapshot's are
     * stale at the next computation (an allocation too large for a short
     * run may fit a longer one), and kept they made a live run's final
     * summary differ from the batch one of the same bytes. */
    s->nwarnings = 0;

    st->windowed = s->windowed;
    st->from_ns = s->windowed ? s->from : 0;
    uint64_t end = s->any_time ? s->last_time : 0;
    st->to_ns = s->to < end ? s->to : end;
    st->total_ns = st->to_ns > st->from_ns ? st->to_ns - st->from_ns : 0;

    if (summary_finish_caps(s) != HS_OK ||
        summary_markers_finish(s) != HS_OK)
        return summary_nomem(s);
    st->has_gc = s->any_gc_stats;
    st->copied_bytes = s->copied;
    st->has_live = s->any_live;
    st->max_live_bytes = s->max_live;
    st->has_heap_size = s->any_heap_size;
    st->max_mem_in_use_bytes = s->max_heap_size;
    finish_work_balance(s, st);
    st->mut_ns = st->total_ns > st->gc_ns ? st->total_ns - st->gc_ns : 0;
    finish_alloc(s, st);

    st->nonmoving = s->any_conc;
    st->has_nonmoving_syncs = s->syncs > 0;
    st->nonmoving_syncs = s->syncs;
    st->nonmoving_sync_ns = s->sync_ns;
    st->nonmoving_sync_max_ns = s->sync_max_ns;

    st->threaded = s->threaded;
    st->heap_profiled = s->heap_profiled;
    st->rts_identifier = s->rts_id;
    st->events = s->events;

    /* GC_START and GC_END alone (GHC 6.12 and 7.0 wrote no statistics
     * events) give none of the figures either. */
    if (!s->any_gc_stats && !s->any_alloc && !s->any_heap_size &&
        !s->any_live && !s->any_blocks_size)
        return HS_ERR_NO_DATA;
    return HS_OK;
}

/* Why a finished log has no figures (compute_stats said HS_ERR_NO_DATA). */
static const char *no_data_reason(const hs_summary *s)
{
    return s->any_gc_start
               ? "the log has GC start and end events but no GC statistics "
                 "(GC_STATS_GHC and the heap events, which older runtimes, "
                 "GHC 6.12 and 7.0 among them, do not write)"
               : "the log has no GC or heap events (it was recorded "
                 "without the GC event class, e.g. +RTS -l with flags "
                 "that leave out 'g')";
}

const hs_summary_stats *hs_summary_get_stats(const hs_summary *s)
{
    return &s->stats;
}

const hs_error *hs_summary_error(const hs_summary *s)
{
    return &s->err;
}

size_t hs_summary_warning_count(const hs_summary *s)
{
    return s->nwarnings;
}

const char *hs_summary_warning(const hs_summary *s, size_t i)
{
    return i < s->nwarnings ? s->warnings[i] : NULL;
}

const char *summary_program(const hs_summary *s)
{
    /* PROGRAM_ARGS is NUL-separated: the first word is argv[0]. */
    return s->args && s->args_len && s->args[0] ? s->args : NULL;
}
