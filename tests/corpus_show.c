/*
 * The corpus test's printer (test_corpus.c): an event described as
 * `ghc-events show` describes it, from the reader's decoded fields, to be
 * compared with the corpus's reference dumps.
 */
#include "corpus_show.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- growable strings ---------------------------------------------- */

static void sb_addn(sbuf *b, const char *p, size_t n)
{
    if (b->len + n + 1 > b->cap) {
        b->cap = (b->len + n + 1) * 2;
        b->s = realloc(b->s, b->cap);
        if (!b->s)
            abort();
    }
    memcpy(b->s + b->len, p, n);
    b->len += n;
    b->s[b->len] = 0;
}

static void sb_printf(sbuf *b, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

static void sb_printf(sbuf *b, const char *fmt, ...)
{
    char tmp[512];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(tmp, sizeof tmp, fmt, ap);
    va_end(ap);
    if (n >= (int)sizeof tmp)
        n = sizeof tmp - 1;
    sb_addn(b, tmp, (size_t)n);
}

static void sb_str(sbuf *b, hs_str s) { sb_addn(b, s.ptr, s.len); }

static const char *const capset_types[] = {"CapsetUnknown", "CapsetCustom",
                                           "CapsetOsProcess",
                                           "CapsetClockDomain"};
static const char *const breakdowns[] = {
    NULL, "cost centre", "module", "closure description",
    "type description", "retainer", "biography", "closure type"};

static void stack_text(sbuf *b, uint8_t depth, const uint32_t *stack)
{
    for (unsigned i = 0; i < depth; i++)
        sb_printf(b, "%s%" PRIu32, i ? ", " : "", stack[i]);
}

/*
 * The event described as `ghc-events show` describes it, for the tags this
 * test checks field by field; false for other tags. Every number and
 * string of the description comes from the reader's decoded fields.
 */
bool describe(const hs_event *e, sbuf *b)
{
    switch (e->tag) {
    case HS_EV_CREATE_THREAD: case HS_EV_RUN_THREAD:
    case HS_EV_THREAD_RUNNABLE: case HS_EV_MIGRATE_THREAD:
    case HS_EV_THREAD_WAKEUP: case HS_EV_GC_START: case HS_EV_GC_END:
    case HS_EV_REQUEST_SEQ_GC:
    case HS_EV_REQUEST_PAR_GC: case HS_EV_LOG_MSG: case HS_EV_BLOCK_MARKER:
    case HS_EV_USER_MSG: case HS_EV_CAPSET_CREATE: case HS_EV_CAPSET_DELETE:
    case HS_EV_CAPSET_ASSIGN_CAP: case HS_EV_CAPSET_REMOVE_CAP:
    case HS_EV_RTS_IDENTIFIER: case HS_EV_OSPROCESS_PID:
    case HS_EV_OSPROCESS_PPID: case HS_EV_WALL_CLOCK_TIME:
    case HS_EV_CAP_CREATE: case HS_EV_CAP_DELETE: case HS_EV_HEAP_ALLOCATED:
    case HS_EV_HEAP_SIZE:
    case HS_EV_HEAP_LIVE: case HS_EV_HEAP_INFO_GHC: case HS_EV_GC_STATS_GHC:
    case HS_EV_GC_GLOBAL_SYNC: case HS_EV_USER_MARKER: case HS_EV_BLOCKS_SIZE:
        break;
    default:
        if (e->tag < HS_EV_HEAP_PROF_BEGIN || e->tag > HS_EV_IPE)
            return false; /* compared by count (or total) only */
    }
    b->len = 0;
    sb_addn(b, "", 0);
    if (!e->known) {
        /* a checked tag that the reader could not decode: a mismatch */
        sb_printf(b, "<undecoded tag %u>", e->tag);
        return true;
    }
    switch (e->tag) {
    case HS_EV_CREATE_THREAD:
        sb_printf(b, "creating thread %" PRIu32, e->u.thread.thread);
        break;
    case HS_EV_RUN_THREAD:
        sb_printf(b, "running thread %" PRIu32, e->u.thread.thread);
        break;
    case HS_EV_THREAD_RUNNABLE:
        sb_printf(b, "thread %" PRIu32 " is runnable", e->u.thread.thread);
        break;
    case HS_EV_MIGRATE_THREAD:
        sb_printf(b, "migrating thread %" PRIu32 " to cap %u",
                  e->u.thread_cap.thread, e->u.thread_cap.cap);
        break;
    case HS_EV_THREAD_WAKEUP:
        sb_printf(b, "waking up thread %" PRIu32 " on cap %u",
                  e->u.thread_cap.thread, e->u.thread_cap.cap);
        break;
    case HS_EV_GC_START: sb_printf(b, "starting GC"); break;
    case HS_EV_GC_END: sb_printf(b, "finished GC"); break;
    case HS_EV_REQUEST_SEQ_GC: sb_printf(b, "requesting sequential GC"); break;
    case HS_EV_REQUEST_PAR_GC: sb_printf(b, "requesting parallel GC"); break;
    case HS_EV_BLOCK_MARKER:
        sb_printf(b, "event block: cap %u, end time: %" PRIu64 "\n",
                  e->u.block.cap, e->u.block.end_time);
        break;
    case HS_EV_USER_MSG: case HS_EV_LOG_MSG: sb_str(b, e->u.msg.text); break;
    case HS_EV_USER_MARKER:
        sb_printf(b, "marker: "); sb_str(b, e->u.msg.text);
        break;
    case HS_EV_CAPSET_CREATE:
        sb_printf(b, "created capset %" PRIu32 " of type %s",
                  e->u.capset_create.capset,
                  capset_types[e->u.capset_create.type < 4
                               ? e->u.capset_create.type : 0]);
        break;
    case HS_EV_CAPSET_DELETE:
        sb_printf(b, "deleted capset %" PRIu32, e->u.capset_delete.capset);
        break;
    case HS_EV_CAPSET_ASSIGN_CAP:
        sb_printf(b, "assigned cap %u to capset %" PRIu32,
                  e->u.capset_cap.cap, e->u.capset_cap.capset);
        break;
    case HS_EV_CAPSET_REMOVE_CAP:
        sb_printf(b, "removed cap %u from capset %" PRIu32,
                  e->u.capset_cap.cap, e->u.capset_cap.capset);
        break;
    case HS_EV_RTS_IDENTIFIER:
        sb_printf(b, "capset %" PRIu32 ": RTS version \"",
                  e->u.rts_identifier.capset);
        sb_str(b, e->u.rts_identifier.text);
        sb_printf(b, "\"");
        break;
    case HS_EV_OSPROCESS_PID:
        sb_printf(b, "capset %" PRIu32 ": pid %" PRIu32, e->u.pid.capset,
                  e->u.pid.pid);
        break;
    case HS_EV_OSPROCESS_PPID:
        sb_printf(b, "capset %" PRIu32 ": parent pid %" PRIu32,
                  e->u.pid.capset, e->u.pid.pid);
        break;
    case HS_EV_WALL_CLOCK_TIME:
        sb_printf(b, "capset %" PRIu32 ": wall clock time %" PRIu64 "s %"
                  PRIu32 "ns (unix epoch)", e->u.wall_clock.capset,
                  e->u.wall_clock.sec, e->u.wall_clock.nsec);
        break;
    case HS_EV_CAP_CREATE: sb_printf(b, "created cap %u", e->u.cap.cap); break;
    case HS_EV_CAP_DELETE: sb_printf(b, "deleted cap %u", e->u.cap.cap); break;
    case HS_EV_HEAP_ALLOCATED:
        sb_printf(b, "allocated on heap capset %" PRIu32 ": %" PRIu64
                  " total bytes till now", e->u.heap.capset, e->u.heap.bytes);
        break;
    case HS_EV_HEAP_SIZE:
        sb_printf(b, "size of heap capset %" PRIu32 ": %" PRIu64 " bytes",
                  e->u.heap.capset, e->u.heap.bytes);
        break;
    case HS_EV_HEAP_LIVE:
        sb_printf(b, "live data in heap capset %" PRIu32 ": %" PRIu64
                  " bytes", e->u.heap.capset, e->u.heap.bytes);
        break;
    case HS_EV_BLOCKS_SIZE:
        sb_printf(b, "blocks size of heap capset %" PRIu32 ": %" PRIu64
                  " bytes", e->u.heap.capset, e->u.heap.bytes);
        break;
    case HS_EV_HEAP_INFO_GHC:
        sb_printf(b, "heap stats for heap capset %" PRIu32 ": generations %u"
                  ", %" PRIu64 " bytes max heap size, %" PRIu64 " bytes alloc"
                  " area size, %" PRIu64 " bytes mblock size, %" PRIu64
                  " bytes block size", e->u.heap_info.capset,
                  e->u.heap_info.gens, e->u.heap_info.max_heap,
                  e->u.heap_info.alloc_area, e->u.heap_info.mblock,
                  e->u.heap_info.block);
        break;
    case HS_EV_GC_STATS_GHC:
        sb_printf(b, "GC stats for heap capset %" PRIu32 ": generation %u, %"
                  PRIu64 " bytes copied, %" PRIu64 " bytes slop, %" PRIu64
                  " bytes fragmentation, %" PRIu32 " par threads, %" PRIu64
                  " bytes max par copied, %" PRIu64 " bytes total par copied",
                  e->u.gc_stats.capset, e->u.gc_stats.gen,
                  e->u.gc_stats.copied, e->u.gc_stats.slop,
                  e->u.gc_stats.frag, e->u.gc_stats.par_threads,
                  e->u.gc_stats.par_max_copied, e->u.gc_stats.par_tot_copied);
        if (e->u.gc_stats.has_balanced)
            sb_printf(b, ", %" PRIu64 " bytes balanced par copied",
                      e->u.gc_stats.par_balanced_copied);
        break;
    case HS_EV_GC_GLOBAL_SYNC: sb_printf(b, "all caps stopped for GC"); break;
    case HS_EV_HEAP_PROF_BEGIN: {
        uint32_t bd = e->u.heap_prof_begin.breakdown;
        sb_printf(b, "start heap profiling %u at sampling period %" PRIu64
                  " broken down by %s", e->u.heap_prof_begin.profile,
                  e->u.heap_prof_begin.period,
                  bd >= 1 && bd <= 7 ? breakdowns[bd] : "?");
        bool any = false;
        for (int i = 0; i < 7; i++) {
            hs_str f = e->u.heap_prof_begin.filters[i];
            if (!f.len)
                continue;
            sb_printf(b, "%s", any ? "" : " filtered by ");
            sb_str(b, f);
            sb_printf(b, ", ");
            any = true;
        }
        break;
    }
    case HS_EV_HEAP_PROF_COST_CENTRE:
        sb_printf(b, "cost centre %" PRIu32 " ", e->u.cost_centre.id);
        sb_str(b, e->u.cost_centre.label);
        sb_printf(b, " in ");
        sb_str(b, e->u.cost_centre.module);
        sb_printf(b, " at ");
        sb_str(b, e->u.cost_centre.srcloc);
        if (e->u.cost_centre.flags & HS_CC_FLAG_CAF)
            sb_printf(b, " CAF");
        break;
    case HS_EV_HEAP_PROF_SAMPLE_BEGIN:
        sb_printf(b, "start heap prof sample %" PRIu64, e->u.sample.era);
        break;
    case HS_EV_HEAP_PROF_SAMPLE_END:
        sb_printf(b, "end prof sample %" PRIu64, e->u.sample.era);
        break;
    case HS_EV_HEAP_BIO_PROF_SAMPLE_BEGIN:
        sb_printf(b, "start heap prof sample %" PRIu64 " at time %" PRIu64,
                  e->u.bio_sample.era, e->u.bio_sample.time);
        break;
    case HS_EV_HEAP_PROF_SAMPLE_COST_CENTRE:
        sb_printf(b, "heap prof sample %u, residency %" PRIu64
                  ", cost centre stack ", e->u.ccs_sample.profile,
                  e->u.ccs_sample.bytes);
        stack_text(b, e->u.ccs_sample.depth, e->u.ccs_sample.stack);
        break;
    case HS_EV_HEAP_PROF_SAMPLE_STRING:
        sb_printf(b, "heap prof sample %u, residency %" PRIu64 ", label ",
                  e->u.string_sample.profile, e->u.string_sample.bytes);
        sb_str(b, e->u.string_sample.label);
        break;
    case HS_EV_PROF_SAMPLE_COST_CENTRE:
        sb_printf(b, "cap no %" PRIu32 ", prof sample %" PRIu64
                  ", cost centre stack ", e->u.prof_sample.cap,
                  e->u.prof_sample.tick);
        stack_text(b, e->u.prof_sample.depth, e->u.prof_sample.stack);
        break;
    case HS_EV_PROF_BEGIN:
        sb_printf(b, "start time profiling, tick interval %" PRIu64 " (ns)",
                  e->u.prof_begin.tick_interval);
        break;
    case HS_EV_IPE:
        sb_printf(b, "Info Table: %" PRIx64 ":", e->u.ipe.address);
        sb_str(b, e->u.ipe.closure_desc);
        sb_printf(b, ":");
        sb_str(b, e->u.ipe.table_name);
        sb_printf(b, " - ");
        sb_str(b, e->u.ipe.srcloc);
        break;
    default:
        return false;
    }
    return true;
}
