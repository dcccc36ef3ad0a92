/*
 * The summary's pass over a threaded GHC log in two lanes (and a census's
 * without a summary: lane 1 then has no summary, keeps every event its
 * reader decodes, and nothing is merged or taken back). The log is a run of
 * blocks, each one capability's events in that capability's order; the
 * summary's per-capability state depends on that capability's events alone,
 * and what they add to the whole are sums, maxima and ORs (summary_lanes.c).
 * So the plan (read/read_lanes.c) shares the capabilities out: lane 1, in
 * the thread the caller lends, preads its blocks and frames each with a
 * reader of its own, its capabilities' events into a summary of its own,
 * every other event the summary reads kept (framed, as its bytes) for lane
 * 0; lane 0, the calling thread, reads the rest in file order through the
 * caller's reader, and at each of lane 1's blocks decodes and hands on its
 * kept events, adds its tally and its count of events, and moves its reader
 * past it. No event is framed twice; nothing is handed over per event but
 * the few kept.
 *
 * Exactness by construction: lane 0 hands on every event in file order
 * (its own and the kept ones), and goes past a block of lane 1 only when
 * lane 1 framed all of that block as one pass would and lane 0's reader
 * stands exactly at its start; each lane's reader stops before a block
 * marker the plan does not have (so no event of lane 1's capabilities
 * reaches lane 0's consumers, nor another's lane 1's summary). At the
 * first thing that is not so (a corrupt event, an event across a block's
 * end, an unplanned marker, a data-end marker or an error in lane 0's
 * run, a failed read) lane 0 stops lane 1, takes lane
 * 1's summary back to before the first block lane 0 has not taken (lane
 * 1 saves it before each block) and the caller's one pass goes on from
 * there alone: every message and offset is that pass's own. Lane 0's
 * last run, after every block of lane 1, is that pass's too.
 */
#include "load/load_lanes.h"
#include "common/internal.h"
#include "read/read_lanes.h"
#include "summary/summary_bulk.h"

#include <errno.h>
#include <pthread.h>
#include <sys/stat.h>
#include <unistd.h>

/* How many blocks lane 1 may be ahead of lane 0. */
enum { NSLOT = 8 };
/* Lane 0 reads its runs in pieces of this size, the one pass's buffer's:
 * read where the framing finds it in the cache. */
enum { CHUNK = 128 * 1024 };
/* feed_run()'s: a read fell short. */
#define SHORT_READ 1000

/* An event lane 1 keeps for lane 0: framed, not decoded; its payload
 * at `at` in its block's bytes. */
typedef struct kept {
    uint64_t time, offset, index;
    uint32_t at, len;
    int32_t cap;
    uint16_t tag;
} kept;

typedef struct slot {
    kept *kept;              /* the events for lane 0, in order */
    size_t nkept, kept_cap;
    uint8_t *bytes;          /* their payloads */
    size_t nbytes, bytes_cap;
    hs__tally t;
    hs__summary_snap *snap;  /* lane 1's summary before the block */
    bool read;               /* the block went into lane 1's summary */
    bool ok;                 /* ... all of it, as one pass reads it */
} slot;

typedef struct lanes {
    const hs_allocator *alloc;
    int fd;
    uint64_t base;
    const uint8_t *to;       /* where each tag's events go */
    hs__plan plan;
    hs_reader *r1;
    hs_summary *s1;
    uint8_t *buf1;           /* lane 1's piece of a block */
    slot slots[NSLOT];
    size_t nslots;
    slot *cur;               /* lane 1's block */
    bool kept_failed;        /* out of memory for a kept event */
    pthread_mutex_t mu;
    pthread_cond_t cv;
    size_t done;             /* lane 1's blocks framed (or failed) */
    size_t used;             /* those lane 0 has taken */
    bool quit;               /* lane 0 says stop */
} lanes;

static const hs__tally tally0 = {0, 0, 0, 0, HS_CAP_NONE, 0};

void hs_thread_loan_init_size(hs_thread_loan *l, size_t size)
{
    const hs_thread_loan def = {.size = sizeof def};
    hs__options_fill(l, size, &def, sizeof def);
}

/* --- lane 1 --------------------------------------------------------------- */

/* Keeps ev for lane 0, its payload copied; HS_OK or HS_ERR_NOMEM. */
static HS_NOINLINE int keep(lanes *L, const hs_event *ev)
{
    slot *sl = L->cur;
    if ((sl->nkept == sl->kept_cap &&
         !hs_grow(L->alloc, (void **)&sl->kept, &sl->kept_cap, sl->nkept + 1,
                  sizeof *sl->kept)) ||
        (sl->bytes_cap - sl->nbytes < ev->payload_len &&
         !hs_grow(L->alloc, (void **)&sl->bytes, &sl->bytes_cap,
                  sl->nbytes + ev->payload_len, 1))) {
        L->kept_failed = true;
        return HS_ERR_NOMEM;
    }
    sl->kept[sl->nkept++] = (kept){ev->time, ev->offset, ev->index,
                                   (uint32_t)sl->nbytes,
                                   (uint32_t)ev->payload_len, ev->cap,
                                   ev->tag};
    if (ev->payload_len)
        memcpy(sl->bytes + sl->nbytes, ev->payload, ev->payload_len);
    sl->nbytes += ev->payload_len;
    return HS_OK;
}

/* keep() of a capability event that lane 1's summary takes too (a heap
 * line's point for the census). */
static HS_NOINLINE int take_and_keep(lanes *L, const hs_event *ev)
{
    int st = hs__summary_add_counted(L->s1, ev);
    return st ? st : keep(L, ev);
}

/* lane 1's events: its capabilities' to its summary, the others kept
 * (and those of them the census reads too). Most are the summary's
 * alone: a tail call, no frame. Without a summary (a census's pass),
 * every event lane 1's reader decodes is the census's: all kept. */
static int lane1_event(void *user, const hs_event *ev)
{
    lanes *L = user;
    if (!L->s1)
        return keep(L, ev);
    uint8_t to = ev->tag < 256 ? L->to[ev->tag] : 0;
    if (!(to & HS__TO_SUMMARY) || !hs__summary_cap_tag(ev->tag))
        return keep(L, ev);
    if (to & HS__TO_CENSUS)
        return take_and_keep(L, ev);
    return hs__summary_add_counted(L->s1, ev);
}

/* Reads and frames the block sg into sl: true when it went as one
 * pass's framing of it would. Lane 1's summary is saved first. */
static bool lane1_block(lanes *L, slot *sl, const hs__segment *sg)
{
    sl->t = tally0;
    sl->nkept = sl->nbytes = 0;
    L->cur = sl;
    sl->read = !L->s1 || hs__summary_save(L->s1, sg->cap, sl->snap) == HS_OK;
    return sl->read &&
           hs__reader_block(L->r1, L->fd, L->base, sg->off, sg->len, L->buf1,
                            CHUNK, lane1_event, L, &sl->t) &&
           !L->kept_failed;
}

static void lane1_run(void *arg)
{
    lanes *L = arg;
    size_t k = 0;
    for (size_t i = 0; i < L->plan.n; i++) {
        const hs__segment *sg = &L->plan.seg[i];
        if (!sg->lane)
            continue;
        pthread_mutex_lock(&L->mu);
        while (k - L->used >= L->nslots && !L->quit)
            pthread_cond_wait(&L->cv, &L->mu);
        bool quit = L->quit;
        pthread_mutex_unlock(&L->mu);
        if (quit)
            return;
        slot *sl = &L->slots[k % L->nslots];
        bool ok = lane1_block(L, sl, sg);
        pthread_mutex_lock(&L->mu);
        sl->ok = ok;
        L->done = ++k;
        pthread_cond_broadcast(&L->cv);
        pthread_mutex_unlock(&L->mu);
        if (!ok)
            return; /* lane 0 throws the lanes' work away */
    }
}

/* --- lane 0 --------------------------------------------------------------- */

/* Lane 1's block k once framed, or NULL when lane 1 could not. */
static slot *wait_block(lanes *L, size_t k)
{
    pthread_mutex_lock(&L->mu);
    while (L->done <= k)
        pthread_cond_wait(&L->cv, &L->mu);
    pthread_mutex_unlock(&L->mu);
    slot *sl = &L->slots[k % L->nslots];
    return sl->ok ? sl : NULL;
}

static void release_block(lanes *L)
{
    pthread_mutex_lock(&L->mu);
    L->used++;
    pthread_cond_broadcast(&L->cv);
    pthread_mutex_unlock(&L->mu);
}

/* Adds a block's tally b, which comes after what a holds. */
static void tally_add(hs__tally *a, const hs__tally *b)
{
    a->events += b->events;
    a->markers += b->markers;
    if (b->max_time > a->max_time)
        a->max_time = b->max_time;
    if (b->marker_max_time > a->marker_max_time)
        a->marker_max_time = b->marker_max_time;
    if (b->max_cap > a->max_cap)
        a->max_cap = b->max_cap;
    if (b->events > b->markers)
        a->last_tag = b->last_tag;
}

/* Lane 1's block sg (its k-th) taken by lane 0: its kept events to fn,
 * its tally into t, r moved past it. false when lane 1 could not read it
 * as one pass (nothing taken: *stop 0), or with fn's stop in *stop. */
static bool take_block(lanes *L, hs_reader *r, const hs__segment *sg,
                       size_t k, hs_event_fn fn, void *user, hs__tally *t,
                       int *stop)
{
    *stop = 0;
    slot *sl = wait_block(L, k);
    if (!sl || !hs__reader_at(r, sg->off))
        return false;
    hs__reader_pos pos;
    hs__reader_pos_get(r, &pos);
    hs_event ev; /* its union is the decoding's to fill */
    for (size_t i = 0; i < sl->nkept; i++) {
        const kept *kp = &sl->kept[i];
        ev.tag = kp->tag;
        ev.cap = kp->cap;
        ev.time = kp->time;
        ev.offset = kp->offset;
        ev.index = pos.index + kp->index;
        ev.payload = sl->bytes + kp->at;
        ev.payload_len = kp->len;
        /* lane 1 decoded the same bytes with the same table: no
         * failure (r would hold it, which one pass then returns) */
        if (hs__reader_decode_kept(r, &ev) < 0 ||
            (*stop = fn(user, &ev)) != 0)
            return false;
    }
    tally_add(t, &sl->t);
    pos.off = pos.block_end = sg->off + sg->len;
    pos.index += sl->t.events;
    pos.block_cap = HS_CAP_NONE;
    hs__reader_pos_set(r, &pos);
    release_block(L);
    return true;
}

/* Lane 0's run [from, to) through r. Returns the reader's HS_NEED_INPUT
 * when it was all fed, HS_DONE, an error, fn's stop (also in *stop), or
 * SHORT_READ; in *fed where the bytes fed end. The fd's position
 * follows, for the progress a caller shows. */
static int feed_run(lanes *L, hs_reader *r, uint8_t *buf, uint64_t from,
                    uint64_t to, hs_event_fn fn, void *user, hs__tally *t,
                    int *stop, uint64_t *fed)
{
    for (*fed = from; *fed < to;) {
        size_t want = to - *fed < CHUNK ? (size_t)(to - *fed) : CHUNK;
        if (hs__read_at(L->fd, buf, want, L->base + *fed) != want)
            return SHORT_READ;
        *fed += want;
        int st = hs__reader_feed_tally(r, buf, want, fn, user, t, stop);
        (void)lseek(L->fd, (off_t)(L->base + *fed), SEEK_SET);
        if (st != HS_NEED_INPUT)
            return st;
    }
    return HS_NEED_INPUT;
}

/* Where lane 0's last run starts: after every block of lane 1. */
static size_t last_run(const hs__plan *p)
{
    size_t i = p->n;
    while (i > 0 && !p->seg[i - 1].lane)
        i--;
    return i;
}

/* Lane 0's own segment sg through r, its block marker (if it is a
 * block) the only one r may meet. Returns whether the lanes go on; when
 * not, *at is where one pass does (r moved there) and *stop fn's stop
 * or 0. */
static bool own_segment(lanes *L, hs_reader *r, uint8_t *buf,
                        const hs__segment *sg, hs_event_fn fn, void *user,
                        hs__tally *t, int *stop, uint64_t *at)
{
    hs__reader_lane_marker(r, true, sg->cap == HS_SEG_OUTSIDE ? UINT64_MAX
                                                             : sg->off);
    int st = feed_run(L, r, buf, sg->off, sg->off + sg->len, fn, user, t,
                      stop, at);
    if (st == HS__LANE_STOP) { /* a marker the plan did not see: r at it */
        hs__reader_pos pos;
        hs__reader_pos_get(r, &pos);
        hs__reader_pos_set(r, &pos);
        *at = pos.off;
    }
    /* an event across the segment's end goes on into the next, as in one
     * pass: the lanes check where r stands before lane 1's next block */
    return !*stop && st == HS_NEED_INPUT;
}

/* Lane 0's part up to its last run. Returns fn's stop, or 0 with *at
 * where the one pass goes on: the last run's start, or where the lanes
 * could not; *taken the blocks of lane 1 it took. */
static int lane0_run(lanes *L, const hs__lanes_req *q, hs_reader *r,
                     uint8_t *buf, hs__tally *t, uint64_t *at, size_t *taken)
{
    const hs__plan *p = &L->plan;
    const size_t last = last_run(p);
    *taken = 0;
    for (size_t i = 0; i < last; i++) {
        const hs__segment *sg = &p->seg[i];
        *at = sg->off;
        int stop = 0;
        if (!sg->lane) {
            if (!own_segment(L, r, buf, sg, q->fn, q->user, t, &stop, at))
                return stop; /* or 0: an error, the end, a marker */
            continue;
        }
        if (!hs__reader_at(r, sg->off)) {
            *at = hs_reader_offset(r); /* an event cut by the block */
            return 0;
        }
        if (!take_block(L, r, sg, *taken, q->kept_fn, q->user, t, &stop))
            return stop; /* or 0: lane 1 could not */
        ++*taken;
    }
    *at = last < p->n ? p->seg[last].off : p->end;
    return 0;
}

/* --- the two lanes together ------------------------------------------------ */

/* Lane 1's reader, summary (when s is one) and buffers for plan p. */
static bool lanes_open(lanes *L, const hs_reader *r, const hs_summary *s)
{
    L->r1 = hs__reader_clone(r);
    L->s1 = s ? hs__summary_lane(s) : NULL;
    L->nslots = L->plan.lane1_blocks < NSLOT ? L->plan.lane1_blocks : NSLOT;
    L->buf1 = hs_malloc(L->alloc, CHUNK);
    if (!L->r1 || (s && !L->s1) || !L->buf1)
        return false;
    for (size_t i = 0; L->s1 && i < L->nslots; i++)
        if (!(L->slots[i].snap = hs__summary_snap_new(L->s1)))
            return false;
    pthread_mutex_init(&L->mu, NULL);
    pthread_cond_init(&L->cv, NULL);
    return true;
}

static void lanes_close(lanes *L, bool sync)
{
    if (sync) {
        pthread_mutex_destroy(&L->mu);
        pthread_cond_destroy(&L->cv);
    }
    for (size_t i = 0; i < NSLOT; i++) {
        hs_free(L->alloc, L->slots[i].kept);
        hs_free(L->alloc, L->slots[i].bytes);
        if (L->s1)
            hs__summary_snap_free(L->s1, L->slots[i].snap);
    }
    hs_free(L->alloc, L->buf1);
    hs_reader_free(L->r1);
    hs_summary_free(L->s1);
    hs__plan_free(&L->plan, L->alloc);
}

/* Lane 1's summary as it was before its block `taken` (the first lane 0
 * did not take), the blocks it read since given back. */
static void give_back(lanes *L, size_t taken)
{
    hs__summary_snap *snaps[NSLOT];
    size_t n = 0;
    for (size_t k = taken; k < L->done && n < L->nslots; k++) {
        const slot *sl = &L->slots[k % L->nslots];
        if (sl->read)
            snaps[n++] = sl->snap;
    }
    hs__summary_restore(L->s1, snaps, n);
}

/* Lane 0's part beside lane 1 in the lent thread, up to where one pass
 * goes on alone (*at), lane 1's summary merged into s (when there is
 * one). Returns 0, fn's stop, or s's failure. */
static int two_lanes(lanes *L, const hs__lanes_req *q, hs_reader *r,
                     hs__tally *t, uint64_t *at)
{
    *at = L->plan.seg[0].off;
    uint8_t *buf = hs_malloc(L->alloc, CHUNK);
    if (!buf || q->loan->start(q->loan->user, lane1_run, L) != 0) {
        hs_free(L->alloc, buf);
        return 0;
    }
    size_t taken = 0;
    int st = lane0_run(L, q, r, buf, t, at, &taken);
    hs_free(L->alloc, buf);
    hs__reader_lane_marker(r, false, 0);
    hs__reader_detach(r);
    pthread_mutex_lock(&L->mu);
    L->quit = true;
    pthread_cond_broadcast(&L->cv);
    pthread_mutex_unlock(&L->mu);
    q->loan->join(q->loan->user);
    if (!q->s)
        return st;
    give_back(L, taken);
    /* lane 1's capabilities merged before one pass goes on, which may
     * meet more of their events */
    int ms = hs__summary_merge(q->s, L->s1);
    return st ? st : ms;
}

/* The loan's thread, when it is one and q's fd a regular file holding
 * base; the bytes from base in *size. */
static bool may_lend(const hs__lanes_req *q, uint64_t *size)
{
    struct stat sb;
    if (!q->loan || !q->loan->start || !q->loan->join ||
        fstat(q->fd, &sb) != 0 ||
        !S_ISREG(sb.st_mode) || sb.st_size < 0 ||
        (uint64_t)sb.st_size < q->base)
        return false;
    *size = (uint64_t)sb.st_size - q->base;
    return true;
}

int hs__lanes_read(const hs__lanes_req *q, hs_reader *r, hs__tally *t,
                   int *st)
{
    uint64_t size, at;
    /* a caller's allocator may not be one two threads can call at once */
    if (!may_lend(q, &size) ||
        (q->s && (!hs__summary_fresh(q->s) || hs__summary_alloc(q->s))) ||
        hs_reader_offset(r) != 0 || hs_reader_header_done(r) ||
        hs__reader_alloc(r))
        return HS__LANES_NONE;
    lanes L = {.alloc = NULL, .fd = q->fd, .base = q->base, .to = q->to};
    int stop = 0;
    bool sync = false;
    if (hs__reader_header_pread(r, q->fd, q->base, &at) == HS_OK &&
        hs__plan_make(r, q->fd, q->base, at, size, &L.plan, NULL) == HS_OK &&
        (sync = lanes_open(&L, r, q->s)))
        stop = two_lanes(&L, q, r, t, &at);
    lanes_close(&L, sync);
    if (stop) {
        *st = stop;
        return HS__LANES_STOPPED;
    }
    (void)lseek(q->fd, (off_t)(q->base + at), SEEK_SET);
    return HS__LANES_ON; /* one pass goes on from there */
}
