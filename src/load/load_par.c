/* PROTOTYPE for measurement only: the calling thread frames and decodes
 * once (census and summary tags), feeds the census, and notes for each
 * summary event its offset in the chunk and its capability (8 bytes); a
 * second thread re-reads those events' bytes, decodes them and feeds the
 * summary. No error handling beyond a valid log. */
#include "census/census_impl.h"
#include "census/census_build.h"
#include "load/load_eventlog.h"
#include "read/eventlog_internal.h"
#include "read/read_eventlog.h"
#include "summary/summary_bulk.h"

#include <errno.h>
#include <pthread.h>

#define RING 8
#define HALF (RING / 2)
#define SPILL 0x80000000u

typedef struct slot {
    const uint8_t *data;
    size_t len;
    uint64_t base;
    uint64_t *rec;
    size_t nrec;
    uint8_t *spill;
    size_t spill_len;
} slot;

typedef struct par {
    hs_input *in;
    uint8_t *ring;
    size_t cap;
    pthread_mutex_t mu;
    pthread_cond_t ready_cv, free_cv;
    slot sl[RING];
    uint64_t filled, taken;
    bool end, ready_wait, free_wait;
    hs_reader *r;
    hs__pass p;
    hs_summary *s;
    slot *cur;
} par;

static inline uint32_t tinfo(const hs_reader *r, uint16_t tag)
{
    return tag < r->type_ntags ? r->type_info[tag] : 0;
}

static void note(par *q, const hs_event *ev)
{
    slot *sl = q->cur;
    uint32_t info = tinfo(q->r, ev->tag);
    size_t head = ((info & TI_SIZE) - 1 == VARIABLE_SIZE) ? 12 : 10;
    const uint8_t *p = ev->payload - head;
    uint32_t cap = (uint32_t)ev->cap;
    if (p >= sl->data && p + head + ev->payload_len <= sl->data + sl->len) {
        sl->rec[sl->nrec++] = (uint64_t)(p - sl->data) | (uint64_t)cap << 32;
        return;
    }
    size_t at = sl->spill_len;
    memcpy(sl->spill + at, &ev->offset, 8);
    memcpy(sl->spill + at + 8, p, head + ev->payload_len);
    sl->spill_len += 8 + head + ev->payload_len;
    sl->rec[sl->nrec++] = (uint64_t)(at | SPILL) | (uint64_t)cap << 32;
}

static int main_event(void *user, const hs_event *ev)
{
    par *q = user;
    if (!ev->known || ev->tag >= 256)
        return 0;
    uint8_t to = q->p.to[ev->tag];
    if (to & 1) {
        int cs = hs__census_add_wanted(q->p.c, ev);
        if (cs < 0)
            return q->p.census_err = cs;
    }
    if (to & 2)
        note(q, ev);
    return 0;
}

static void other_slot(par *q, const slot *sl)
{
    for (size_t i = 0; i < sl->nrec; i++) {
        uint32_t off = (uint32_t)sl->rec[i];
        int32_t cap = (int32_t)(uint32_t)(sl->rec[i] >> 32);
        const uint8_t *p;
        uint64_t at;
        if (off & SPILL) {
            memcpy(&at, sl->spill + (off & ~SPILL), 8);
            p = sl->spill + (off & ~SPILL) + 8;
        } else {
            p = sl->data + off;
            at = sl->base + off;
        }
        uint16_t tag = hs_be16(p);
        uint32_t info = tinfo(q->r, tag);
        size_t head = 10, total;
        if ((info & TI_SIZE) - 1 == VARIABLE_SIZE) {
            head = 12;
            total = 12 + (size_t)hs_be16(p + 10);
        } else {
            total = 10 + (size_t)((info & TI_SIZE) - 1);
        }
        hs_event ev;
        ev.tag = tag;
        ev.known = false;
        ev.cap = cap;
        ev.time = hs_be64(p + 2);
        ev.offset = at;
        ev.index = 0;
        ev.payload = p + head;
        ev.payload_len = total - head;
        if (info & TI_HOT) {
            ev.known = true;
            if (!(info & TI_BARE))
                hs__hot_decode[tag](&ev);
        } else {
            hs__reader_decode(q->r, &ev);
        }
        if (ev.known)
            hs__summary_add_counted(q->s, &ev);
    }
}

static void *other_main(void *arg)
{
    par *q = arg;
    uint64_t k = 0;
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
        for (; k < upto; k++)
            other_slot(q, &q->sl[k % RING]);
        pthread_mutex_lock(&q->mu);
        q->taken = k;
        if (q->free_wait && RING - (q->filled - k) >= HALF)
            pthread_cond_signal(&q->free_cv);
    }
    pthread_mutex_unlock(&q->mu);
    return NULL;
}

static void wait_free(par *q, uint64_t k)
{
    pthread_mutex_lock(&q->mu);
    while (k - q->taken >= RING) {
        q->free_wait = true;
        pthread_cond_wait(&q->free_cv, &q->mu);
    }
    q->free_wait = false;
    pthread_mutex_unlock(&q->mu);
}

static void publish(par *q, uint64_t k)
{
    pthread_mutex_lock(&q->mu);
    q->filled = k + 1;
    if (q->ready_wait && q->filled - q->taken >= HALF)
        pthread_cond_signal(&q->ready_cv);
    pthread_mutex_unlock(&q->mu);
}

int hs__load_eventlog_par(hs_census *c, hs_summary *s, hs_input *in,
                          hs_error *err)
{
    par q;
    memset(&q, 0, sizeof q);
    q.in = in;
    q.s = s;
    q.cap = (hs_input_chunk_cap(in) + 63) & ~(size_t)63;
    void *block = malloc(RING * q.cap + 63);
    q.ring = (uint8_t *)(((uintptr_t)block + 63) & ~(uintptr_t)63);
    for (int i = 0; i < RING; i++) {
        q.sl[i].rec = malloc((q.cap / 10 + 2) * 8);
        q.sl[i].spill = malloc(65536 + 64);
    }
    q.r = hs_reader_new_with(c->alloc);
    hs_reader_set_raw_stacks(q.r, true);
    hs__pass_init(&q.p, q.r, c, s);
    hs__tally t = {0, 0, 0, 0, HS_CAP_NONE, 0};
    pthread_mutex_init(&q.mu, NULL);
    pthread_cond_init(&q.ready_cv, NULL);
    pthread_cond_init(&q.free_cv, NULL);
    pthread_t th;
    pthread_create(&th, NULL, other_main, &q);
    int st = HS_OK, rs = HS_OK, stop = 0;
    for (uint64_t k = 0;; k++) {
        wait_free(&q, k);
        slot *sl = &q.sl[k % RING];
        const uint8_t *data;
        size_t n;
        st = hs_input_next_into(in, q.ring + (k % RING) * q.cap, q.cap,
                                &data, &n);
        if (st != HS_OK)
            break;
        sl->data = data;
        sl->len = n;
        sl->base = in->offset - n;
        sl->nrec = 0;
        sl->spill_len = 0;
        q.cur = sl;
        rs = hs__reader_feed_tally(q.r, data, n, main_event, &q, &t, &stop);
        publish(&q, k);
        if (stop || rs < 0 || rs == HS_DONE)
            break;
    }
    pthread_mutex_lock(&q.mu);
    q.end = true;
    pthread_cond_signal(&q.ready_cv);
    pthread_mutex_unlock(&q.mu);
    if (!stop)
        st = hs__read_end(q.r, in, (rs < 0 || rs == HS_DONE) ? HS_OK : st);
    pthread_join(th, NULL);
    st = hs__pass_end(&q.p, q.r, &t, stop ? stop : st, err);
    hs_reader_free(q.r);
    for (int i = 0; i < RING; i++) {
        free(q.sl[i].rec);
        free(q.sl[i].spill);
    }
    free(block);
    pthread_cond_destroy(&q.free_cv);
    pthread_cond_destroy(&q.ready_cv);
    pthread_mutex_destroy(&q.mu);
    return st;
}
