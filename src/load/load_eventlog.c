/*
 * An eventlog in one pass: every event is read once, the census's tags
 * and the summary's are decoded and handed to each, and every other event
 * is only counted by the read loop (hs__read_input_tally), so that the
 * scheduler and GC events neither consumer reads cost no call. A report
 * gets its census and its GC figures from the same walk
 * (hs_census_load_summary_fd), the summary command its figures from the
 * same loop without a census (hs_summary_load_fd), and hs_census_load_fd
 * (load.c) the census alone.
 */
#include "census/census_impl.h"
#include "census/census_build.h"
#include "read/input.h"
#include "read/read_eventlog.h"
#include "heapscope/load.h"
#include "load/load_eventlog.h"
#include "load/load_lanes.h"
#include "summary/summary_bulk.h"

#include <unistd.h>

/* Where the events of a tag go (load_lanes.h's). */
enum { TO_CENSUS = HS__TO_CENSUS, TO_SUMMARY = HS__TO_SUMMARY };

typedef struct pass {
    hs_census *c;            /* NULL: no census */
    hs_summary *s;           /* NULL: no summary */
    int census_err, summary_err; /* the failure that stopped reading */
    uint8_t to[256];         /* TO_* by tag (the table's tags are < 256) */
} pass;

/* on_event() of an event the census reads, and the summary too when `to`
 * says so; apart, so the summary's events keep no frame. */
static HS_NOINLINE int on_census_event(pass *p, const hs_event *ev,
                                       uint8_t to)
{
    int cs = hs__census_add_wanted(p->c, ev);
    if (cs < 0)
        return p->census_err = cs;
    /* counted and timed with every other event by the tally */
    return (to & TO_SUMMARY) ? hs__summary_add_counted(p->s, ev) : 0;
}

/* ev to the consumers `to` names. The summary's calls return HS_OK or an
 * error (which stops the pass), never a positive code, so its call ends
 * each callback as a tail call: no frame kept per event. Which consumer
 * stopped the pass is told after it (pass_failure). */
static inline int hand_on(pass *p, const hs_event *ev, uint8_t to)
{
    if (to == TO_SUMMARY) /* most events: the GC's */
        return hs__summary_add_counted(p->s, ev);
    return to ? on_census_event(p, ev, to) : 0;
}

static int on_event(void *user, const hs_event *ev)
{
    pass *p = user;
    if (!ev->known || ev->tag >= 256) /* left raw: counted in the tally */
        return 0;
    return hand_on(p, ev, p->to[ev->tag]);
}

/* on_event() for a pass without a census: the reader decodes the
 * summary's tags alone, so every event it hands on is the summary's. */
static int on_summary_event(void *user, const hs_event *ev)
{
    const pass *p = user;
    return hs__summary_add_counted(p->s, ev);
}

/* What stopped the pass that returned st, when a consumer did: the
 * census's failure is noted by on_event(); any other failure the reader
 * did not record is the summary's (a reader's own is in its record). */
static void pass_failure(pass *p, const hs_reader *r, int st)
{
    if (st < 0 && !p->census_err && hs_reader_error(r)->code >= HS_OK)
        p->summary_err = st;
}

/* Marks the tags of one consumer in to[] and in tags[] (n so far, room
 * for cap); returns the new n. */
static size_t want(uint8_t to_mark, size_t (*tags_of)(uint16_t *, size_t),
                   uint8_t to[256], uint16_t *tags, size_t n, size_t cap)
{
    uint16_t mine[128];
    size_t k = tags_of(mine, 128);
    for (size_t i = 0; i < k && i < 128; i++) {
        if (mine[i] < 256) {
            if (!to[mine[i]] && n < cap)
                tags[n++] = mine[i];
            to[mine[i]] |= to_mark;
        }
    }
    return n;
}

/* Sets r to decode the tags the census (when `census`) and the summary
 * (when `summary`) read, and fills to[] (zeroed by the caller). */
static void decode_for(hs_reader *r, bool census, bool summary,
                       uint8_t to[256])
{
    uint16_t tags[256];
    size_t n = 0;
    if (census)
        n = want(TO_CENSUS, hs_census_event_tags, to, tags, n, 256);
    if (summary)
        n = want(TO_SUMMARY, hs_summary_event_tags, to, tags, n, 256);
    hs_reader_decode_only(r, tags, n);
}

void hs__load_decode_for(hs_reader *r, bool census, bool summary)
{
    uint8_t to[256] = {0};
    decode_for(r, census, summary, to);
}

/* Sets r to decode what c and s (either may be NULL) read. */
static void pass_init(pass *p, hs_reader *r, hs_census *c, hs_summary *s)
{
    memset(p, 0, sizeof *p);
    p->c = c;
    p->s = s;
    decode_for(r, c != NULL, s != NULL, p->to);
}

/* What the tally counted gives the summary the count and the end of the
 * run, of the events it was given (hs__summary_add_counted() counts none)
 * and of the others. */
static void summary_skipped(const pass *p, const hs__tally *t)
{
    if (p->s)
        hs__summary_tally(p->s, t, 0);
}

/* The census finished after the pass, and the cut folded into err. */
static int census_done(hs_census *c, hs_reader *r, int st, hs_error *err)
{
    if (hs_reader_warning(r))
        hs__census_build_warn(c, "%s", hs_reader_warning(r));
    /* A log cut right after its header has no events, and is still an
     * eventlog: what it lacks is for the cut to explain. */
    if (hs_reader_header_done(r))
        c->info.source = HS_SOURCE_EVENTLOG;
    if (st < 0) {
        if (err)
            *err = *hs_reader_error(r);
        return st;
    }
    int fs = hs_census_finish(c, st == HS_DONE);
    if (fs < 0) {
        hs__error_set(err, fs, NULL,
                      "out of memory while building the census");
        return fs;
    }
    if (st == HS_TRUNCATED) {
        c->info.cut_offset = hs_reader_error(r)->offset;
        if (err) {
            *err = *hs_reader_error(r);
            hs__census_fold_cut(c, err);
        }
        return HS_TRUNCATED;
    }
    hs__error_clear(err);
    return HS_OK;
}

/* on_event() of an event lane 1 kept (load_lanes.c): lane 1's summary
 * took the capability events already. */
static int on_kept_event(void *user, const hs_event *ev)
{
    pass *p = user;
    if (!ev->known || ev->tag >= 256)
        return 0;
    uint8_t to = p->to[ev->tag];
    if (hs__summary_cap_tag(ev->tag))
        to &= (uint8_t)~TO_SUMMARY;
    return hand_on(p, ev, to);
}

/* The pass in two lanes, when `in` is a regular file that has only been
 * peeked at: the log starts where the fd stands less what in holds.
 * false when the one pass is to go on through in (which then reads on
 * from where the lanes left the fd). */
static bool lanes_for_input(pass *p, hs_reader *r, hs_input *in,
                            const hs_thread_loan *loan, hs__tally *t,
                            int *st)
{
    off_t at = loan && !in->offset ? lseek(in->fd, 0, SEEK_CUR) : -1;
    if (at < 0 || (uint64_t)at < in->buf_len)
        return false;
    const hs__lanes_req q = {p->s, p->to, on_event, on_kept_event, p,
                             in->fd, (uint64_t)at - in->buf_len, loan};
    int rc = hs__lanes_read(&q, r, t, st);
    if (rc == HS__LANES_ON)
        hs_input_drop(in);
    return rc == HS__LANES_STOPPED;
}

int hs__load_eventlog(hs_census *c, hs_summary *s, hs_input *in,
                      const hs_thread_loan *loan, hs_error *err)
{
    hs_reader *r = hs_reader_new_with(c->alloc);
    if (!r) {
        hs__error_set(err, HS_ERR_NOMEM, NULL, "out of memory");
        return HS_ERR_NOMEM;
    }
    hs_reader_set_raw_stacks(r, true); /* bands are keyed on the bytes */
    pass p;
    pass_init(&p, r, c, s);
    hs__tally t = {0, 0, 0, 0, HS_CAP_NONE, 0};
    int st;
    if (!lanes_for_input(&p, r, in, loan, &t, &st))
        st = hs__read_input_tally(r, in, on_event, &p, &t);
    pass_failure(&p, r, st);
    if (p.census_err || p.summary_err) {
        hs_reader_free(r);
        if (err)
            *err = p.census_err ? *hs_census_error(c) : *hs_summary_error(s);
        return p.census_err ? p.census_err : p.summary_err;
    }
    hs__census_tally(c, &t);
    summary_skipped(&p, &t);
    st = census_done(c, r, st, err);
    hs_reader_free(r);
    return st;
}

int hs_summary_load_fd(hs_summary *s, hs_reader *r, int fd)
{
    return hs_summary_load_fd_lent(s, r, fd, NULL);
}

int hs_summary_load_fd_lent(hs_summary *s, hs_reader *r, int fd,
                            const hs_thread_loan *loan)
{
    hs_thread_loan taken;
    hs_thread_loan_init(&taken);
    if (loan && hs__options_take(&taken, sizeof taken, loan))
        return hs__summary_invalid(s, "the thread loan was not set up by "
                                   "hs_thread_loan_init");
    pass p;
    pass_init(&p, r, NULL, s);
    hs__tally t = {0, 0, 0, 0, HS_CAP_NONE, 0};
    off_t at = loan ? lseek(fd, 0, SEEK_CUR) : -1;
    const hs__lanes_req q = {s, p.to, on_summary_event, on_summary_event,
                             &p, fd, at < 0 ? 0 : (uint64_t)at, &taken};
    int st;
    if (at < 0 || hs__lanes_read(&q, r, &t, &st) != HS__LANES_STOPPED)
        st = hs__read_fd_tally(r, fd, on_summary_event, &p, &t);
    pass_failure(&p, r, st);
    if (p.summary_err)
        return p.summary_err;
    summary_skipped(&p, &t);
    return st;
}
