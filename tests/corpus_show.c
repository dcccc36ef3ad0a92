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

/*
 * How `ghc-events show` describes each tag this test checks field by
 * field, over the fields of the tag's entry in the library's event table
 * (hs_event_get_desc()): "%N" is field N printed as its kind says (numbers
 * in decimal, U64_HEX in hexadecimal, a breakdown by name, strings as they
 * are, a stack as "1, 2, 3", cost-centre flags as " CAF"); "%cN" the
 * capset type named by field N; "%F" the non-empty FILTER fields, after
 * " filtered by ", each followed by ", "; "[...]" is shown only when the
 * optional fields within it are present.
 */
static const struct {
    uint16_t tag;
    const char *form;
} shows[] = {
    {HS_EV_CREATE_THREAD, "creating thread %0"},
    {HS_EV_RUN_THREAD, "running thread %0"},
    {HS_EV_THREAD_RUNNABLE, "thread %0 is runnable"},
    {HS_EV_MIGRATE_THREAD, "migrating thread %0 to cap %1"},
    {HS_EV_THREAD_WAKEUP, "waking up thread %0 on cap %1"},
    {HS_EV_GC_START, "starting GC"},
    {HS_EV_GC_END, "finished GC"},
    {HS_EV_REQUEST_SEQ_GC, "requesting sequential GC"},
    {HS_EV_REQUEST_PAR_GC, "requesting parallel GC"},
    {HS_EV_BLOCK_MARKER, "event block: cap %2, end time: %1\n"},
    {HS_EV_USER_MSG, "%0"},
    {HS_EV_LOG_MSG, "%0"},
    {HS_EV_USER_MARKER, "marker: %0"},
    {HS_EV_CAPSET_CREATE, "created capset %0 of type %c1"},
    {HS_EV_CAPSET_DELETE, "deleted capset %0"},
    {HS_EV_CAPSET_ASSIGN_CAP, "assigned cap %1 to capset %0"},
    {HS_EV_CAPSET_REMOVE_CAP, "removed cap %1 from capset %0"},
    {HS_EV_RTS_IDENTIFIER, "capset %0: RTS version \"%1\""},
    {HS_EV_OSPROCESS_PID, "capset %0: pid %1"},
    {HS_EV_OSPROCESS_PPID, "capset %0: parent pid %1"},
    {HS_EV_WALL_CLOCK_TIME, "capset %0: wall clock time %1s %2ns (unix epoch)"},
    {HS_EV_CAP_CREATE, "created cap %0"},
    {HS_EV_CAP_DELETE, "deleted cap %0"},
    {HS_EV_HEAP_ALLOCATED, "allocated on heap capset %0: %1 total bytes till now"},
    {HS_EV_HEAP_SIZE, "size of heap capset %0: %1 bytes"},
    {HS_EV_HEAP_LIVE, "live data in heap capset %0: %1 bytes"},
    {HS_EV_BLOCKS_SIZE, "blocks size of heap capset %0: %1 bytes"},
    {HS_EV_HEAP_INFO_GHC, "heap stats for heap capset %0: generations %1, %2 "
     "bytes max heap size, %3 bytes alloc area size, %4 bytes mblock size, "
     "%5 bytes block size"},
    {HS_EV_GC_STATS_GHC, "GC stats for heap capset %0: generation %1, %2 bytes "
     "copied, %3 bytes slop, %4 bytes fragmentation, %5 par threads, %6 bytes "
     "max par copied, %7 bytes total par copied[, %8 bytes balanced par "
     "copied]"},
    {HS_EV_GC_GLOBAL_SYNC, "all caps stopped for GC"},
    {HS_EV_HEAP_PROF_BEGIN, "start heap profiling %0 at sampling period %1 "
     "broken down by %2%F"},
    {HS_EV_HEAP_PROF_COST_CENTRE, "cost centre %0 %1 in %2 at %3%4"},
    {HS_EV_HEAP_PROF_SAMPLE_BEGIN, "start heap prof sample %0"},
    {HS_EV_HEAP_PROF_SAMPLE_END, "end prof sample %0"},
    {HS_EV_HEAP_BIO_PROF_SAMPLE_BEGIN, "start heap prof sample %0 at time %1"},
    {HS_EV_HEAP_PROF_SAMPLE_COST_CENTRE, "heap prof sample %0, residency %1, "
     "cost centre stack %2"},
    {HS_EV_HEAP_PROF_SAMPLE_STRING, "heap prof sample %0, residency %1, "
     "label %2"},
    {HS_EV_PROF_SAMPLE_COST_CENTRE, "cap no %0, prof sample %1, cost centre "
     "stack %2"},
    {HS_EV_PROF_BEGIN, "start time profiling, tick interval %0 (ns)"},
    {HS_EV_IPE, "Info Table: %0:%2:%1 - %6"},
};

/* Field i of d: a template naming a field the table does not have is a
 * mistake in this file. */
static const hs_field_desc *field(const hs_event_desc *d, char i)
{
    unsigned n = (unsigned)(i - '0');
    if (i < '0' || i > '9' || n >= d->nfields) {
        fprintf(stderr, "corpus_show: tag %u has no field %c\n", d->tag, i);
        abort();
    }
    return &d->fields[n];
}

static void show_field(const hs_event *e, const hs_field_desc *f, sbuf *b)
{
    uint64_t v = hs_event_field_uint(e, f);
    switch (f->kind) {
    case HS_FIELD_U64_HEX: sb_printf(b, "%" PRIx64, v); break;
    case HS_FIELD_BREAKDOWN:
        sb_printf(b, "%s", v >= 1 && v <= 7 ? breakdowns[v] : "?");
        break;
    case HS_FIELD_CC_FLAGS:
        sb_printf(b, "%s", v & HS_CC_FLAG_CAF ? " CAF" : "");
        break;
    case HS_FIELD_TEXT: case HS_FIELD_BINARY: case HS_FIELD_ARGS:
    case HS_FIELD_CSTR: case HS_FIELD_FILTER: case HS_FIELD_CSTR_REQ:
        sb_str(b, hs_event_field_str(e, f));
        break;
    case HS_FIELD_STACK: {
        const uint32_t *ids = hs_event_field_stack(e, f);
        for (uint64_t i = 0; i < v; i++)
            sb_printf(b, "%s%" PRIu32, i ? ", " : "", ids[i]);
        break;
    }
    default: sb_printf(b, "%" PRIu64, v); break;
    }
}

/* " filtered by " and each non-empty FILTER field followed by ", ". */
static void show_filters(const hs_event *e, const hs_event_desc *d, sbuf *b)
{
    bool any = false;
    for (unsigned i = 0; i < d->nfields; i++) {
        hs_str f = hs_event_field_str(e, &d->fields[i]);
        if (d->fields[i].kind != HS_FIELD_FILTER || !f.len)
            continue;
        sb_printf(b, "%s", any ? "" : " filtered by ");
        sb_str(b, f);
        sb_printf(b, ", ");
        any = true;
    }
}

/* Whether every field named in form[0..n) is present. */
static bool all_present(const hs_event *e, const hs_event_desc *d,
                        const char *form, size_t n)
{
    for (size_t i = 0; i + 1 < n; i++)
        if (form[i] == '%' && form[i + 1] >= '0' && form[i + 1] <= '9' &&
            !hs_event_field_present(e, field(d, form[i + 1])))
            return false;
    return true;
}

static void show(const hs_event *e, const hs_event_desc *d, const char *form,
                 sbuf *b)
{
    for (const char *p = form; *p; p++) {
        if (*p == '[') {
            size_t n = strcspn(p, "]");
            if (!all_present(e, d, p, n))
                p += n;
        } else if (*p == ']') {
            continue;
        } else if (*p != '%') {
            sb_addn(b, p, 1);
        } else if (p[1] == 'F') {
            show_filters(e, d, b);
            p++;
        } else if (p[1] == 'c') {
            uint64_t t = hs_event_field_uint(e, field(d, p[2]));
            sb_printf(b, "%s", capset_types[t < 4 ? t : 0]);
            p += 2;
        } else {
            show_field(e, field(d, p[1]), b);
            p++;
        }
    }
}

/*
 * The event described as `ghc-events show` describes it, for the tags this
 * test checks field by field; false for other tags. Every number and
 * string of the description comes from the reader's decoded fields.
 */
bool describe(const hs_event *e, sbuf *b)
{
    size_t i = 0;
    while (i < sizeof shows / sizeof *shows && shows[i].tag != e->tag)
        i++;
    if (i == sizeof shows / sizeof *shows)
        return false; /* compared by count (or total) only */
    b->len = 0;
    sb_addn(b, "", 0);
    const hs_event_desc *d = hs_event_get_desc(e->tag);
    if (!e->known || !d) {
        /* a checked tag that the reader could not decode: a mismatch */
        sb_printf(b, "<undecoded tag %u>", e->tag);
        return true;
    }
    show(e, d, shows[i].form, b);
    return true;
}
