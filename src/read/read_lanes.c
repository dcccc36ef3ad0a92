/*
 * The reader's part of an eventlog read in two lanes (read_lanes.h,
 * load/load_lanes.c). A threaded GHC log is a run of blocks, each one
 * capability's events (or the global buffer's) behind a block marker
 * that gives the block's size: the plan walks the markers alone, by
 * pread, and frames one by one only the few events outside any block.
 * At whatever it cannot tell for sure it stops: the rest of the file is
 * the calling thread's, read as one pass reads it.
 */
#include "read/read_lanes.h"
#include "common/internal.h"
#include "read/eventlog_internal.h"

#include <errno.h>
#include <stdlib.h>
#include <unistd.h>

/* The header is read in pieces of this size. */
enum { HEAD_CHUNK = 64 * 1024 };
/* More events outside any block than this and the walk stops there (a
 * log without blocks is read in one pass). */
enum { MAX_OUTSIDE = 4096 };
/* Past its first SMALL_AFTER blocks, the walk stops where the blocks so
 * far average under SMALL_BYTES: each block costs both lanes a few
 * microseconds (its reads, its hand-over, a save of lane 1's summary),
 * which blocks of a few events (a log flushed very often) do not repay:
 * 400,000 blocks of 8 events took 0.69 s in two lanes, 0.06 s in one. */
enum { SMALL_AFTER = 64, SMALL_BYTES = 64 * 1024 };
#define NO_LANES 1

/* n bytes at off, fewer only at the end of the file or on a failure. */
size_t hs__read_at(int fd, uint8_t *buf, size_t n, uint64_t off)
{
    size_t got = 0;
    while (got < n) {
        ssize_t k = pread(fd, buf + got, n - got, (off_t)(off + got));
        if (k < 0 && errno == EINTR)
            continue;
        if (k <= 0)
            break;
        got += (size_t)k;
    }
    return got;
}

void hs__reader_detach(hs_reader *r)
{
    r->in = NULL;
    r->in_len = r->in_pos = 0;
}

int hs__reader_header_pread(hs_reader *r, int fd, uint64_t base,
                            uint64_t *data_start)
{
    uint8_t *buf = hs_malloc(r->alloc, HEAD_CHUNK);
    uint64_t fed = 0;
    int rc = NO_LANES;
    while (buf && r->state != ST_ERROR) {
        size_t n = hs__read_at(fd, buf, HEAD_CHUNK, base + fed);
        if (!n)
            break;
        hs_reader_feed(r, buf, n);
        fed += n;
        while (r->state != ST_EVENTS && r->state != ST_ERROR &&
               hs__reader_header_step(r) == HS_OK)
            ;
        if (r->state == ST_EVENTS) {
            rc = HS_OK;
            break;
        }
    }
    *data_start = rc == HS_OK ? r->item_off : fed;
    hs__reader_detach(r);
    hs_free(r->alloc, buf);
    return rc;
}

/* --- the plan ----------------------------------------------------------- */

static bool add_segment(hs__plan *p, const hs_allocator *alloc,
                        uint64_t off, uint64_t len, int32_t cap)
{
    if (cap == HS_SEG_OUTSIDE && p->n &&
        p->seg[p->n - 1].cap == HS_SEG_OUTSIDE &&
        p->seg[p->n - 1].off + p->seg[p->n - 1].len == off) {
        p->seg[p->n - 1].len += len; /* one run of outside events */
        return true;
    }
    if (!hs_grow(alloc, (void **)&p->seg, &p->cap, p->n + 1, sizeof *p->seg))
        return false;
    p->seg[p->n++] = (hs__segment){off, len, cap, 0};
    return true;
}

/* The item at off (head: its first bytes, n of them): a block added
 * whole, or an event outside blocks framed. Its length, or 0 when the
 * walk cannot tell (the plan is then given up). */
static uint64_t item_length(const hs_reader *r, const uint8_t *head,
                            size_t n, uint64_t left, int32_t *cap)
{
    uint16_t tag = hs_be16(head);
    uint32_t size1 = hs__type_info(r, tag) & TI_SIZE;
    if (!size1 || tag == HS_EV_IPE) /* undeclared; IPE's quirk */
        return 0;
    if (tag == HS_EV_BLOCK_MARKER) {
        if (size1 - 1 != 14 || n < BLOCK_MARKER_LEN)
            return 0;
        uint32_t bsize = hs_be32(head + 10);
        uint16_t bcap = hs_be16(head + 22);
        if (bsize < BLOCK_MARKER_LEN || bsize > left)
            return 0;
        *cap = bcap == 0xffff ? -1 : bcap;
        return bsize;
    }
    *cap = HS_SEG_OUTSIDE;
    uint64_t len;
    if (size1 - 1 == VARIABLE_SIZE)
        len = n < 12 ? UINT64_MAX : 12 + (uint64_t)hs_be16(head + 10);
    else
        len = 10 + (uint64_t)(size1 - 1);
    return len <= left && n >= 10 ? len : 0;
}

/* The blocks and outside events from data_start to the data-end marker
 * or the file's end. At the first thing the walk cannot tell (a block or
 * event cut by the file's end, an undeclared tag, a block marker one
 * pass would refuse, too many events outside blocks) it stops: the rest
 * is one last segment, which lane 0 reads as one pass does, errors, cut
 * and all. */
static int walk(const hs_reader *r, int fd, uint64_t base, uint64_t off,
                uint64_t size, hs__plan *p, const hs_allocator *alloc)
{
    size_t outside = 0, blocks = 0;
    uint64_t block_bytes = 0;
    while (off < size) {
        if (blocks >= SMALL_AFTER && block_bytes < blocks * SMALL_BYTES)
            break; /* small blocks: the rest in one pass */
        uint8_t head[BLOCK_MARKER_LEN];
        size_t want = size - off < sizeof head ? (size_t)(size - off)
                                               : sizeof head;
        size_t n = hs__read_at(fd, head, want, base + off);
        if (n >= 2 && hs_be16(head) == DATA_END_TAG) {
            p->end = off + 2;
            return add_segment(p, alloc, off, 2, HS_SEG_OUTSIDE)
                       ? HS_OK : HS_ERR_NOMEM;
        }
        int32_t cap;
        uint64_t len = n == want && n >= 2
                           ? item_length(r, head, n, size - off, &cap) : 0;
        if (!len || (cap == HS_SEG_OUTSIDE && ++outside > MAX_OUTSIDE))
            break;
        if (!add_segment(p, alloc, off, len, cap))
            return HS_ERR_NOMEM;
        if (cap != HS_SEG_OUTSIDE) {
            blocks++;
            block_bytes += len;
        }
        off += len;
    }
    if (off < size && !add_segment(p, alloc, off, size - off, HS_SEG_OUTSIDE))
        return HS_ERR_NOMEM;
    p->end = size;
    return HS_OK;
}

typedef struct cap_bytes {
    uint64_t bytes;
    uint32_t cap;
    bool lane1;
} cap_bytes;

/* More capabilities than this and the plan is given up. */
enum { MAX_CAPS = 1024 };

static int cmp_bytes_desc(const void *x, const void *y)
{
    const cap_bytes *a = x, *b = y;
    if (a->bytes != b->bytes)
        return a->bytes > b->bytes ? -1 : 1;
    return a->cap < b->cap ? -1 : a->cap > b->cap;
}

/* cap's entry among the k of list, or NULL. */
static cap_bytes *find_cap(cap_bytes *list, size_t k, int32_t cap)
{
    for (size_t i = 0; i < k; i++)
        if (list[i].cap == (uint32_t)cap)
            return &list[i];
    return NULL;
}

/* The capabilities and their bytes in list (room for MAX_CAPS), largest
 * first; *lane0 the bytes that stay in lane 0 whatever: the global
 * buffer's, the outside events' and the last segment's capability's.
 * Their number, or MAX_CAPS + 1 when there are more. */
static size_t cap_list(const hs__plan *p, cap_bytes *list, uint64_t *lane0)
{
    int32_t last = p->seg[p->n - 1].cap;
    size_t k = 0;
    *lane0 = 0;
    for (size_t i = 0; i < p->n; i++) {
        const hs__segment *s = &p->seg[i];
        if (s->cap < 0 || s->cap == last) {
            *lane0 += s->len;
            continue;
        }
        cap_bytes *c = find_cap(list, k, s->cap);
        if (!c && k == MAX_CAPS)
            return MAX_CAPS + 1;
        if (!c)
            (c = &list[k++])->cap = (uint32_t)s->cap;
        c->bytes += s->len;
    }
    qsort(list, k, sizeof *list, cmp_bytes_desc);
    return k;
}

/* Capabilities to lane 1 by bytes, greedily, so that the lanes carry
 * about half each: each to the lane that has less so far. */
static int share_out(hs__plan *p, const hs_allocator *alloc)
{
    cap_bytes *list = hs_calloc(alloc, MAX_CAPS, sizeof *list);
    if (!list)
        return HS_ERR_NOMEM;
    uint64_t lane0, lane1 = 0;
    size_t k = cap_list(p, list, &lane0);
    bool last_cap = p->seg[p->n - 1].cap >= 0;
    for (size_t i = 0; i < k && k <= MAX_CAPS; i++) {
        uint64_t *to = lane1 < lane0 ? &lane1 : &lane0;
        *to += list[i].bytes;
        list[i].lane1 = to == &lane1;
    }
    int rc = k <= MAX_CAPS && k + last_cap >= 2 && lane1 ? HS_OK : NO_LANES;
    for (size_t i = 0; rc == HS_OK && i < p->n; i++) {
        hs__segment *s = &p->seg[i];
        const cap_bytes *c = s->cap >= 0 ? find_cap(list, k, s->cap) : NULL;
        s->lane = c && c->lane1;
        p->lane1_blocks += s->lane;
    }
    hs_free(alloc, list);
    return rc;
}

int hs__plan_make(const hs_reader *r, int fd, uint64_t base,
                  uint64_t data_start, uint64_t size, hs__plan *p,
                  const hs_allocator *alloc)
{
    memset(p, 0, sizeof *p);
    if (size <= data_start)
        return NO_LANES;
    int rc = walk(r, fd, base, data_start, size, p, alloc);
    return rc == HS_OK ? share_out(p, alloc) : rc;
}

void hs__plan_free(hs__plan *p, const hs_allocator *alloc)
{
    hs_free(alloc, p->seg);
    memset(p, 0, sizeof *p);
}

/* --- the readers ---------------------------------------------------------- */

const hs_allocator *hs__reader_alloc(const hs_reader *r)
{
    return r->alloc;
}

hs_reader *hs__reader_clone(const hs_reader *r)
{
    hs_reader *c = hs_reader_new_with(r->alloc);
    if (!c)
        return NULL;
    uint32_t *info = hs_malloc(c->alloc, r->type_ntags * sizeof *info);
    if (!info) {
        hs_reader_free(c);
        return NULL;
    }
    memcpy(info, r->type_info, r->type_ntags * sizeof *info);
    hs_free(c->alloc, c->type_info);
    c->type_info = info;
    c->type_ntags = r->type_ntags;
    c->decode = r->decode;
    c->decode_some = r->decode_some;
    c->raw_stacks = r->raw_stacks;
    c->header_done = r->header_done;
    c->wide_tid = r->wide_tid;
    c->lead_marker = r->lead_marker;
    memcpy(c->decode_mask, r->decode_mask, sizeof c->decode_mask);
    c->state = ST_EVENTS;
    return c;
}

void hs__reader_pos_get(const hs_reader *r, hs__reader_pos *pos)
{
    *pos = (hs__reader_pos){r->item_off, r->index, r->block_end,
                            r->block_cap};
}

void hs__reader_pos_set(hs_reader *r, const hs__reader_pos *pos)
{
    r->state = ST_EVENTS;
    r->item_off = pos->off;
    r->index = pos->index;
    r->block_end = pos->block_end;
    r->block_cap = pos->block_cap;
    r->stage_len = 0;
    hs__reader_detach(r);
    hs__error_clear(&r->err);
}

bool hs__reader_at(const hs_reader *r, uint64_t off)
{
    return r->state == ST_EVENTS && !r->stage_len && r->item_off == off;
}

void hs__reader_lane_marker(hs_reader *r, bool check, uint64_t at)
{
    r->lane_check = check;
    r->lane_marker = at;
}

bool hs__reader_block(hs_reader *r, int fd, uint64_t base, uint64_t off,
                      uint64_t len, uint8_t *buf, size_t buf_size,
                      hs_event_fn fn, void *user, hs__tally *t)
{
    hs__reader_pos at = {off, 0, 0, HS_CAP_NONE};
    hs__reader_pos_set(r, &at);
    hs__reader_lane_marker(r, true, off); /* its own marker, no other */
    int st = HS_NEED_INPUT, stop = 0;
    for (uint64_t done = 0; done < len && st == HS_NEED_INPUT && !stop;) {
        size_t want = len - done < buf_size ? (size_t)(len - done) : buf_size;
        if (hs__read_at(fd, buf, want, base + off + done) != want)
            return false;
        done += want;
        st = hs__reader_feed_tally(r, buf, want, fn, user, t, &stop);
    }
    bool whole = st == HS_NEED_INPUT && !stop && hs__reader_at(r, off + len) &&
                 r->block_end == off + len;
    hs__reader_detach(r);
    return whole;
}

int hs__reader_decode_kept(hs_reader *r, hs_event *ev)
{
    uint32_t info = hs__type_info(r, ev->tag);
    ev->known = false;
    if (!(info & TI_DECODE))
        return HS_OK;
    if (!(info & TI_HOT))
        return hs__reader_decode(r, ev);
    ev->known = true;
    if (!(info & TI_BARE))
        hs__hot_decode[ev->tag](ev);
    return HS_OK;
}
