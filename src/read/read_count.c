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

/*
 * 10 + the size of a fixed-size event, from its type_info entry info
 * (size + 1, no flag). The loop's cost is the chain from one event to the
 * next: its tag's load, then type_info[tag]'s, then the length; the next
 * tag waits on both loads. For the sizes most of GHC's events have (0: the
 * GC's and the scheduler's markers, 4: a thread's, 10: STOP_THREAD, 12:
 * the heap's figures) the length is a constant behind a branch instead,
 * which the CPU predicts from the events before (a real log repeats the
 * same few sequences, a GC's above all), and the next event's load starts
 * without waiting (`events --count` of a real 300 MB log: 0.85x the CPU
 * time; bench/README.md, issue 28). The empty asm keeps each constant its
 * own, so that the compiler does not fold the cases back into the
 * addition. Sizes that follow one another at random stay an addition (2
 * and 6 added made a synthetic log's count 1.6x slower), and so do the
 * other loops, whose decoded events' calls set their pace (in run_tally()
 * the branches made `summary` 1.07x slower). tests/test_input.c frames
 * every size 0-70 by every loop.
 */
#if defined(__GNUC__)
#define OPAQUE(x) __asm__("" : "+r"(x))
#else
#define OPAQUE(x) (void)(x)
#endif
#define SIZE_AS_BRANCH(n) \
    case (n) + 1u: \
        total = 10 + (n); \
        OPAQUE(total); \
        break;
static inline size_t fixed_total(uint32_t info)
{
    size_t total = 9 + (size_t)info;
    switch (info) {
        SIZE_AS_BRANCH(0)
        SIZE_AS_BRANCH(4)
        SIZE_AS_BRANCH(10)
        SIZE_AS_BRANCH(12)
    default:
        break;
    }
    return total;
}

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
            total = fixed_total(info);
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
