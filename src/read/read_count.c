/*
 * hs_read_fd_count(): the events of a log counted per tag, the framing
 * loop alone. An ordinary event wholly inside the chunk costs a table
 * load, one test for everything the general path must take (an
 * undeclared tag, a decoded one, a block marker, an IPE event: see
 * TI_STOP), its length and an increment; no hs_event is filled and no
 * function called. Everything else goes through hs_reader_next().
 */
#include "heapscope/reader.h"
#include "read/eventlog_internal.h"
#include "read/input.h"

#include <errno.h>

/* Counts the ordinary events at the reader's position and moves the
 * reader past them, as hs_reader_next() would have. */
static HS_NOINLINE void run_count(hs_reader *r, uint64_t *counts)
{
    const uint8_t *start = r->in + r->in_pos, *p = start;
    const uint8_t *end = r->in + r->in_len;
    const uint32_t *type_info = r->type_info;
    const size_t ntags = r->type_ntags;
    uint64_t n = 0;
    while (end - p >= 12) {
        uint16_t tag = hs_be16(p);
        uint32_t info = tag < ntags ? type_info[tag] : 0;
        size_t total;
        /* info - 1 is a fixed size below VARIABLE_SIZE only for a tag
         * declared with a fixed size and no flag: one test for the common
         * case; an undeclared tag (info 0) and TI_STOP fall through */
        if (info - 1 < VARIABLE_SIZE)
            total = hs__fixed_total(info);
        else if (info - 1 == VARIABLE_SIZE)
            total = 12 + (size_t)hs_be16(p + 10);
        else
            break;
        if ((size_t)(end - p) < total)
            break;
        counts[tag]++;
        n++;
        p += total;
    }
    if (!n)
        return;
    r->in_pos += (size_t)(p - start);
    r->item_off += (uint64_t)(p - start);
    r->index += n;
    /* The next event starts at or past the end of the block: as it would
     * have (an event starting there leaves its block). */
    if (r->item_off >= r->block_end)
        r->block_cap = HS_CAP_NONE;
}

/* Counts every complete event of the fed chunk. Returns HS_NEED_INPUT to
 * go on, HS_DONE or an error. */
static int feed_count(hs_reader *r, const uint8_t *data, size_t n,
                      uint64_t *counts)
{
    hs_reader_feed(r, data, n);
    for (;;) {
        if (r->state == ST_EVENTS && !r->stage_len)
            run_count(r, counts);
        hs_event ev;
        int st = hs_reader_next(r, &ev);
        if (st != HS_EVENT)
            return st;
        counts[ev.tag]++;
    }
}

int hs_read_fd_count(hs_reader *r, int fd, uint64_t *counts)
{
    if (r->state == ST_ERROR)
        return r->err.code;
    hs_input in;
    hs_input_open(&in, fd, r->alloc);
    const uint8_t *data;
    size_t n;
    int st;
    while ((st = hs_input_next(&in, &data, &n)) == HS_OK) {
        int rs = feed_count(r, data, n, counts);
        if (rs < 0 || rs == HS_DONE)
            break;
    }
    st = hs__read_end(r, &in, st);
    int saved = errno;
    hs_input_close(&in);
    errno = saved;
    return st;
}
