/*
 * The one pass over an eventlog on two cores (hs__load_eventlog_par): two
 * readers frame the same chunks. The calling thread reads each chunk into
 * a ring of buffers, frames and decodes it for the census's tags and feeds
 * the census; a second thread frames the very same bytes again with its
 * own reader, decoding the summary's tags only, and feeds the summary.
 * Nothing is copied per event: each thread walks the bytes itself. A
 * buffer is read into again only once the second thread is done with it;
 * the threads wake each other when half the ring is ready or free, not
 * per chunk.
 *
 * The results are those of hs__load_eventlog(): each consumer gets the
 * events it gets there, in the same order, and each reader sees the same
 * bytes, so the framing, the cut and the tally are the same. When either
 * side fails, the failure at the earlier byte offset is the one the single
 * walk would have met first (the census's at the same event, as it is fed
 * first): a side that failed stops, the other goes on until it is past
 * that offset, and neither waits for the other any longer.
 */
#include "census/census_impl.h"
#include "census/census_build.h"
#include "load/load_eventlog.h"
#include "read/read_eventlog.h"
#include "summary/summary_bulk.h"

#include <errno.h>
#include <pthread.h>

#define RING 8                /* chunk buffers */
#define HALF (RING / 2)       /* ready or free ones that wake a waiter */
#define RING_ALIGN 64u

/* One reader and its consumer. */
typedef struct side {
    hs_reader *r;
    hs__pass p;
    hs__tally t;
    int st;           /* the reader's last status, then the walk's */
    int stop;         /* the consumer's failure (p.*_err) */
} side;

typedef struct par {
    hs_input *in;
    uint8_t *block, *ring;
    size_t cap;
    pthread_mutex_t mu;
    pthread_cond_t ready_cv, free_cv;
    const uint8_t *data[RING];
    size_t len[RING];
    uint64_t filled;    /* chunks published by the calling thread */
    uint64_t taken;     /* of those, the ones the second thread is done with */
    uint64_t fail_at;   /* the second thread failed in the first fail_at */
    bool end;           /* filled is final; in_st says why */
    bool failed;        /* the second thread stopped on a failure */
    bool done;          /* the second thread touches no buffer any more */
    bool ready_wait, free_wait;
    int in_st;
    side main, other;   /* the census's; the summary's */
} par;

/* Feeds one chunk to a side; true when it must stop (its reader's end or
 * error, or its consumer's failure). */
static bool feed(side *d, const uint8_t *data, size_t n)
{
    d->st = hs__reader_feed_tally(d->r, data, n, hs__pass_event, &d->p,
                                  &d->t, &d->stop);
    return d->stop || d->st < 0 || d->st == HS_DONE;
}

/* The second thread's walk: every chunk published, until the end or a
 * failure; then its reader's end as the single walk's. */
static void *other_main(void *arg)
{
    par *q = arg;
    side *d = &q->other;
    uint64_t k = 0;
    bool stopped = false;
    pthread_mutex_lock(&q->mu);
    for (;;) {
        while (k == q->filled && !q->end) {
            q->ready_wait = true;
            pthread_cond_wait(&q->ready_cv, &q->mu);
        }
        q->ready_wait = false;
        if (k == q->filled)
            break;
        uint64_t upto = q->filled;
        pthread_mutex_unlock(&q->mu);
        for (; k < upto && !stopped; k++)
            stopped = feed(d, q->data[k % RING], q->len[k % RING]);
        pthread_mutex_lock(&q->mu);
        q->taken = k;
        if (q->free_wait && (RING - (q->filled - k) >= HALF || stopped))
            pthread_cond_signal(&q->free_cv);
        if (stopped)
            break;
    }
    int in_st = q->in_st;
    pthread_mutex_unlock(&q->mu);
    /* the walk's end, as read_loop() ends it */
    if (d->stop)
        d->st = d->stop;
    else if (!stopped || d->st >= 0)
        d->st = hs__read_end(d->r, q->in, stopped ? HS_OK : in_st);
    pthread_mutex_lock(&q->mu);
    q->failed = d->stop || d->st < 0;
    q->fail_at = k;
    q->done = true;
    if (q->free_wait)
        pthread_cond_signal(&q->free_cv);
    pthread_mutex_unlock(&q->mu);
    return NULL;
}

/* Waits until chunk k's buffer is free; false when the second thread
 * failed in a chunk before k, which the calling thread has then walked:
 * it has nothing more to look for. */
static bool wait_free(par *q, uint64_t k)
{
    pthread_mutex_lock(&q->mu);
    while (!q->done && k - q->taken >= RING) {
        q->free_wait = true;
        pthread_cond_wait(&q->free_cv, &q->mu);
    }
    q->free_wait = false;
    bool go = !(q->done && q->failed && q->fail_at <= k);
    pthread_mutex_unlock(&q->mu);
    return go;
}

static void publish(par *q, uint64_t k, const uint8_t *data, size_t n)
{
    pthread_mutex_lock(&q->mu);
    q->data[k % RING] = data;
    q->len[k % RING] = n;
    q->filled = k + 1;
    if (q->ready_wait && q->filled - q->taken >= HALF)
        pthread_cond_signal(&q->ready_cv);
    pthread_mutex_unlock(&q->mu);
}

/* The calling thread's walk: reads each chunk, hands it on and feeds it to
 * the census's reader. */
static void main_walk(par *q)
{
    side *d = &q->main;
    int st = HS_OK;
    bool stopped = false;
    for (uint64_t k = 0; !stopped && wait_free(q, k); k++) {
        const uint8_t *data;
        size_t n;
        st = hs_input_next_into(q->in, q->ring + (k % RING) * q->cap,
                                q->cap, &data, &n);
        if (st != HS_OK)
            break;
        publish(q, k, data, n);
        stopped = feed(d, data, n);
    }
    int saved = errno;
    pthread_mutex_lock(&q->mu);
    q->end = true;
    q->in_st = stopped ? HS_OK : st;
    pthread_cond_signal(&q->ready_cv);
    pthread_mutex_unlock(&q->mu);
    if (d->stop)
        d->st = d->stop;
    else if (!stopped || d->st >= 0)
        d->st = hs__read_end(d->r, q->in, stopped ? HS_OK : st);
    errno = saved;
}

/* Where a side's failure happened (a consumer's event, else its reader's
 * error), or UINT64_MAX when it did not fail. */
static uint64_t fail_offset(const side *d)
{
    if (d->stop)
        return d->p.fail_off;
    if (d->st < 0)
        return hs_reader_error(d->r)->offset;
    return UINT64_MAX;
}

/* The walks' results joined, as hs__pass_end() gives the single walk's. */
static int finish(par *q, hs_error *err)
{
    side *m = &q->main, *o = &q->other;
    uint64_t at_m = fail_offset(m), at_o = fail_offset(o);
    if (at_o < at_m) { /* the summary's failure came first */
        if (err)
            *err = o->stop ? *hs_summary_error(o->p.s)
                           : *hs_reader_error(o->r);
        return o->st;
    }
    if (at_m == UINT64_MAX) /* the same end on both: the tally to both */
        hs__summary_tally(o->p.s, &o->t, 0);
    return hs__pass_end(&m->p, m->r, &m->t, m->st, err);
}

/* A side over a new reader of alloc; false when out of memory. */
static bool side_open(side *d, const hs_allocator *alloc, hs_census *c,
                      hs_summary *s)
{
    d->r = hs_reader_new_with(alloc);
    if (!d->r)
        return false;
    hs_reader_set_raw_stacks(d->r, true);
    hs__pass_init(&d->p, d->r, c, s);
    d->t = (hs__tally){0, 0, 0, 0, HS_CAP_NONE, 0};
    return true;
}

static void par_free(par *q, const hs_allocator *alloc)
{
    hs_reader_free(q->main.r);
    hs_reader_free(q->other.r);
    hs_free(alloc, q->block);
}

/* Readers, ring and locks; false when any is missing (the caller then
 * walks in one thread, which needs none of them). */
static bool par_open(par *q, hs_census *c, hs_summary *s, hs_input *in)
{
    memset(q, 0, sizeof *q);
    q->in = in;
    q->cap = (hs_input_chunk_cap(in) + RING_ALIGN - 1) & ~(size_t)(RING_ALIGN - 1);
    q->block = hs_malloc(c->alloc, RING * q->cap + RING_ALIGN - 1);
    if (!q->block || !side_open(&q->main, c->alloc, c, NULL) ||
        !side_open(&q->other, c->alloc, NULL, s)) {
        par_free(q, c->alloc);
        return false;
    }
    q->ring = q->block + (-(uintptr_t)q->block & (RING_ALIGN - 1));
    return true;
}

int hs__load_eventlog_par(hs_census *c, hs_summary *s, hs_input *in,
                          hs_error *err)
{
    par q;
    if (!par_open(&q, c, s, in))
        return hs__load_eventlog(c, s, in, err);
    pthread_mutex_init(&q.mu, NULL);
    pthread_cond_init(&q.ready_cv, NULL);
    pthread_cond_init(&q.free_cv, NULL);
    pthread_t th;
    int st;
    if (pthread_create(&th, NULL, other_main, &q) != 0) {
        st = hs__load_eventlog(c, s, in, err);
    } else {
        main_walk(&q);
        int saved = errno;
        pthread_join(th, NULL);
        st = finish(&q, err);
        errno = saved;
    }
    pthread_cond_destroy(&q.free_cv);
    pthread_cond_destroy(&q.ready_cv);
    pthread_mutex_destroy(&q.mu);
    par_free(&q, c->alloc);
    return st;
}
