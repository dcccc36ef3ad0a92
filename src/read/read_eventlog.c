/*
 * The eventlog reader's framing: events framed from the staged or fed
 * bytes, block markers, the end of the stream and sticky errors. The
 * reader object and its settings are in read_reader.c, the header is
 * parsed in read_header.c, payloads are decoded in read_decode.c and
 * counted in read_count.c; see eventlog_internal.h for the staging rules
 * they share.
 */
#include "heapscope/reader.h"
#include "common/internal.h"
#include "read/eventlog_internal.h"
#include "read/input.h"
#include "read/read_eventlog.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int hs__reader_fail(hs_reader *r, int code, uint64_t offset, const char *fmt,
                    ...) {
    hs_error_at at = {offset, r->state == ST_EVENTS ? r->index : HS_NO_EVENT,
                      0};
    va_list ap;
    va_start(ap, fmt);
    hs__error_vset(&r->err, code, &at, fmt, ap);
    va_end(ap);
    r->state = ST_ERROR;
    return code;
}

int hs_reader_feed(hs_reader *r, const void *data, size_t len)
{
    if (r->state == ST_ERROR)
        return r->err.code;
    if (r->in_pos < r->in_len)
        return HS_ERR_MISUSE;
    r->in = data;
    r->in_len = len;
    r->in_pos = 0;
    return HS_OK;
}

/* The whole length of the event at p (which holds its first 12 bytes),
 * whose type info's size field is size1 (info & TI_SIZE), and in *head
 * the length of its header: 10 bytes, or 12 with a variable size. */
static inline size_t event_length(const uint8_t *p, uint32_t size1,
                                  size_t *head)
{
    if (size1 - 1 == VARIABLE_SIZE) {
        *head = 12;
        return 12 + (size_t)hs_be16(p + 10);
    }
    *head = 10;
    return 10 + (size_t)(size1 - 1);
}

/*
 * An IPE event whose declared length is one byte more than its seven
 * fields. GHC's postIPE, in the versions that build the source location as
 * "file:span" (rts/eventlog/EventLog.c, `extra_comma`), counts a byte for
 * the NUL after src_file and another for the colon that replaces it, then writes one byte less than it declared: the
 * declared payload ends with the next event's first byte, the high byte of
 * its tag (0x00; 0xff for the data-end marker). ghc-events reads the fields
 * and never notices; framing by the declared length would take that byte
 * and lose every event after. A payload whose fields end exactly one byte
 * early, on such a byte, is taken as that layout; a longer surplus is a
 * newer runtime's extra fields and stays in the event.
 */
static bool ipe_one_byte_long(const uint8_t *p, size_t len)
{
    if (len < 8 + 6 + 1)
        return false;
    size_t i = 8;
    for (int nuls = 0; nuls < 6; i++) {
        if (i >= len)
            return false;
        nuls += p[i] == 0;
    }
    return i == len - 1 && (p[i] == 0x00 || p[i] == 0xff);
}

static int event_step(hs_reader *r, hs_event *ev)
{
    const uint8_t *p = hs__need(r, 2);
    if (!p)
        return HS_NEED_INPUT;
    uint16_t tag = hs_be16(p);
    if (tag == DATA_END_TAG) {
        hs__consume(r, 2);
        r->state = ST_DONE;
        return HS_DONE;
    }
    uint32_t info = hs__type_info(r, tag);
    if (!info)
        return hs__reader_fail(
            r, HS_ERR_UNDECLARED_TAG, r->item_off,
            "event type %u is not declared in the header (the data "
            "is corrupt or not an eventlog)",
            tag);
    size_t head = 10, total;
    uint32_t size1 = info & TI_SIZE;
    if (size1 - 1 == VARIABLE_SIZE) {
        if (!(p = hs__need(r, 12)))
            return HS_NEED_INPUT;
        head = 12;
        total = 12 + (size_t)hs_be16(p + 10);
    } else {
        total = 10 + (size_t)(size1 - 1);
    }
    if (!(p = hs__need(r, total)))
        return HS_NEED_INPUT;

    uint64_t off = r->item_off;
    if (tag == HS_EV_BLOCK_MARKER && r->lane_check && off != r->lane_marker)
        return HS__LANE_STOP; /* a block the lanes' plan did not see */
    ev->tag = tag;
    ev->known = false;
    ev->time = hs_be64(p + 2);
    ev->offset = off;
    ev->index = r->index;
    ev->payload = p + head;
    ev->payload_len = total - head;
    if (off >= r->block_end)
        r->block_cap = HS_CAP_NONE;

    if (tag == HS_EV_BLOCK_MARKER && ev->payload_len >= 14) {
        uint32_t bsize = hs_be32(ev->payload);
        uint16_t bcap = hs_be16(ev->payload + 12);
        if (bsize != 0 && bsize < total)
            return hs__reader_fail(
                r, HS_ERR_BAD_SIZE, off,
                "a block marker declares a block of %u bytes, less "
                "than the marker itself (%zu bytes)",
                bsize, total);
        r->block_end = bsize ? off + bsize : UINT64_MAX;
        r->block_cap = bcap == 0xffff ? HS_CAP_NONE : bcap;
    }
    ev->cap = r->block_cap;

    size_t used = total;
    if (tag == HS_EV_IPE && ipe_one_byte_long(ev->payload, ev->payload_len)) {
        used--;
        ev->payload_len--;
    }
    if (info & TI_DECODE) {
        int st = hs__reader_decode(r, ev);
        if (st < 0)
            return st;
    }
    if (used < total) {
        /* The byte given back came last into the item, so it is in the
         * current chunk whether or not the item was staged. */
        if (r->stage_len) {
            r->stage_len = 0;
            r->in_pos -= total - used;
        } else {
            r->in_pos += used;
        }
        r->item_off += used;
    } else {
        hs__consume(r, total);
    }
    r->index++;
    return HS_EVENT;
}

/* Every state, every chunk edge: the general path. */
static HS_NOINLINE int next_general(hs_reader *r, hs_event *ev)
{
    for (;;) {
        switch (r->state) {
        case ST_ERROR:
            return r->err.code;
        case ST_DONE:
            return HS_DONE;
        case ST_EVENTS:
            return event_step(r, ev);
        default: {
            int st = hs__reader_header_step(r);
            if (st != HS_OK)
                return st;
        }
        }
    }
}

/*
 * The common case on its own: an ordinary event wholly inside the current
 * chunk, nothing staged. It frames the event in a few loads and leaves
 * everything else (block markers, the data-end marker, undeclared tags,
 * chunk edges, the header) to next_general(), so this function stays small
 * and cheap to enter once per event.
 */
int hs_reader_next(hs_reader *r, hs_event *ev)
{
    size_t avail = r->in_len - r->in_pos;
    if (r->state != ST_EVENTS || r->stage_len || avail < 12)
        return next_general(r, ev);
    const uint8_t *p = r->in + r->in_pos;
    uint16_t tag = hs_be16(p);
    uint32_t info = hs__type_info(r, tag); /* 0: 65535 or undeclared */
    uint32_t size1 = info & TI_SIZE;
    if ((info - 1) & TI_SPECIAL) /* undeclared, a marker or an IPE event */
        return next_general(r, ev);
    size_t head, total = event_length(p, size1, &head);
    if (avail < total)
        return next_general(r, ev);
    uint64_t off = r->item_off;
    if (off >= r->block_end)
        r->block_cap = HS_CAP_NONE;
    ev->tag = tag;
    ev->known = false;
    ev->cap = r->block_cap;
    ev->time = hs_be64(p + 2);
    ev->offset = off;
    ev->index = r->index;
    ev->payload = p + head;
    ev->payload_len = total - head;
    if (info & TI_DECODE) {
        int st = hs__reader_decode(r, ev);
        if (st < 0)
            return st;
    }
    r->in_pos += total;
    r->item_off += total;
    r->index++;
    return HS_EVENT;
}

int hs_reader_finish(hs_reader *r)
{
    switch (r->state) {
    case ST_ERROR:
        return r->err.code;
    case ST_DONE:
        return HS_DONE;
    case ST_EVENTS: {
        uint64_t end = r->item_off + r->stage_len;
        hs_error_at at = {end, r->index, 0};
        if (r->stage_len)
            hs__error_set(&r->err, HS_TRUNCATED, &at,
                     "the log is truncated: it stops at byte %llu in the "
                     "middle of event %llu (which starts at byte %llu); "
                     "the %llu events before it were read",
                     (unsigned long long)end, (unsigned long long)r->index,
                     (unsigned long long)r->item_off,
                     (unsigned long long)r->index);
        else
            hs__error_set(&r->err, HS_TRUNCATED, &at,
                     "the log is truncated: it stops at byte %llu without "
                     "its data-end marker; the %llu events before it were "
                     "read", (unsigned long long)end,
                     (unsigned long long)r->index);
        return HS_TRUNCATED;
    }
    default: {
        uint64_t end = r->item_off + r->stage_len;
        /* No byte at all is no log (not a cut one): a wrong magic. */
        if (end == 0)
            return hs__reader_fail(r, HS_ERR_BAD_MAGIC, 0,
                                   "the input is empty: not an eventlog");
        return hs__reader_fail(
            r, HS_ERR_TRUNCATED_HEADER, end,
            "the input ends at byte %llu inside the eventlog header, "
            "before any event",
            (unsigned long long)end);
    }
    }
}

/*
 * The ordinary events at the reader's position (wholly inside the chunk,
 * nothing staged, not to be decoded, not block markers) framed in a tight
 * loop with the position in registers, each handed to fn. The reader's
 * state is stored after every event, so fn sees hs_reader_offset() and
 * the rest as hs_reader_next() would leave them. Returns fn's non-zero
 * return, or 0 at the first event the general path must take.
 */
static int run_plain(hs_reader *r, hs_event_fn fn, void *user)
{
    const uint8_t *base = r->in, *p = base + r->in_pos;
    const uint8_t *end = base + r->in_len;
    const uint32_t *type_info = r->type_info;
    const size_t ntags = r->type_ntags;
    const uint64_t block_end = r->block_end;
    uint64_t off = r->item_off, index = r->index;
    int32_t cap = r->block_cap;
    hs_event ev;
    while (end - p >= 12) {
        uint16_t tag = hs_be16(p);
        uint32_t info = tag < ntags ? type_info[tag] : 0; /* 0: undeclared */
        if ((info - 1) & TI_STOP) /* undeclared, decoded or special */
            break;
        uint32_t size1 = info & TI_SIZE;
        size_t head, total = event_length(p, size1, &head);
        if ((size_t)(end - p) < total)
            break;
        if (off >= block_end)
            cap = HS_CAP_NONE;
        ev.tag = tag;
        ev.known = false;
        ev.cap = cap;
        ev.time = hs_be64(p + 2);
        ev.offset = off;
        ev.index = index;
        ev.payload = p + head;
        ev.payload_len = total - head;
        p += total;
        r->in_pos = (size_t)(p - base);
        r->item_off = off += total;
        r->index = ++index;
        r->block_cap = cap;
        int rc = fn(user, &ev);
        if (rc)
            return rc;
    }
    return 0;
}

/* Notes an event of the general path in *t. */
static void tally_one(hs__tally *t, const hs_event *ev)
{
    t->events++;
    if (ev->cap > t->max_cap)
        t->max_cap = ev->cap;
    if (ev->tag == HS_EV_BLOCK_MARKER) {
        t->markers++;
        if (ev->time > t->marker_max_time)
            t->marker_max_time = ev->time;
        return;
    }
    if (ev->time > t->max_time)
        t->max_time = ev->time;
    t->last_tag = ev->tag;
}

/*
 * run_plain() for hs__read_input_tally(): every ordinary event at the
 * reader's position is noted in *t; those of the tags the reader decodes
 * are decoded here and handed to fn, the others cost no call and no store
 * but the tally's. The reader's state is stored at the end of the run,
 * and before a decoding that may fail, so that the error finds it where
 * hs_reader_next() would have left it (fn does not look). Returns
 * fn's non-zero return, or 0 at the first event the general path must
 * take (an event that failed to decode too: the reader then holds the
 * error, which its next step returns).
 */
static int run_tally(hs_reader *r, hs_event_fn fn, void *user, hs__tally *t)
{
    const uint8_t *base = r->in, *start = base + r->in_pos, *p = start;
    const uint8_t *end = base + r->in_len;
    const uint32_t *type_info = r->type_info;
    const size_t ntags = r->type_ntags;
    const uint64_t block_end = r->block_end, off0 = r->item_off;
    const uint64_t index0 = r->index;
    /* An event before block_end is in the block, of its capability; one
     * at or past it (the offsets only grow) in none: tested only for the
     * events decoded, and for the tally's largest capability, the first
     * event's (the others' are the same or none). */
    const int32_t block_cap = r->block_cap;
    hs__tally tl = *t;
    const uint64_t events0 = tl.events;
    uint64_t max_time = tl.max_time;
    uint16_t last_tag = tl.last_tag;
    int rc = 0;
    while (end - p >= 12) {
        uint16_t tag = hs_be16(p);
        uint32_t info = tag < ntags ? type_info[tag] : 0; /* 0: undeclared */
        if ((info - 1) & TI_SPECIAL) /* undeclared or special */
            break;
        uint32_t size1 = info & TI_SIZE;
        size_t head, total = event_length(p, size1, &head);
        if ((size_t)(end - p) < total)
            break;
        uint64_t time = hs_be64(p + 2);
        if (info & TI_DECODE) {
            uint64_t off = off0 + (uint64_t)(p - start);
            hs_event ev;
            ev.tag = tag;
            ev.known = false;
            ev.cap = off < block_end ? block_cap : HS_CAP_NONE;
            ev.time = time;
            ev.offset = off;
            ev.index = index0 + (tl.events - events0);
            ev.payload = p + head;
            ev.payload_len = total - head;
            if (info & TI_HOT) {
                /* cannot fail: the reader's state waits for the run's
                 * end; a tag without fields has nothing to decode */
                ev.known = true;
                if (!(info & TI_BARE))
                    hs__hot_decode[tag](&ev);
            } else {
                /* may fail: the reader is where the error is */
                r->in_pos = (size_t)(p - base);
                r->item_off = off;
                r->index = ev.index;
                r->block_cap = ev.cap;
                if (hs__reader_decode(r, &ev) < 0)
                    break;
            }
            tl.events++;
            max_time = time > max_time ? time : max_time;
            last_tag = tag;
            p += total;
            if ((rc = fn(user, &ev)) != 0)
                break;
            continue;
        }
        tl.events++;
        max_time = time > max_time ? time : max_time;
        last_tag = tag;
        p += total;
    }
    uint64_t n = tl.events - events0;
    if (n) {
        int32_t first = off0 < block_end ? block_cap : HS_CAP_NONE;
        tl.max_cap = first > tl.max_cap ? first : tl.max_cap;
        tl.max_time = max_time;
        tl.last_tag = last_tag;
    }
    if (r->state != ST_ERROR) {
        r->in_pos = (size_t)(p - base);
        r->item_off = off0 + (uint64_t)(p - start);
        r->index = index0 + n;
        /* the next event is at or past the block's end: as it would */
        if (r->item_off >= block_end)
            r->block_cap = HS_CAP_NONE;
    }
    *t = tl;
    return rc;
}

/* Hands every complete event of the fed chunk to fn (with a tally t, only
 * those of decoded tags, every one noted in t). Returns HS_NEED_INPUT to
 * go on, HS_DONE, an error, or fn's non-zero return (also in *stop). */
static int feed_events(hs_reader *r, const uint8_t *data, size_t n,
                       hs_event_fn fn, void *user, hs__tally *t, int *stop)
{
    hs_reader_feed(r, data, n);
    for (;;) {
        int rc = 0;
        if (r->state == ST_EVENTS && !r->stage_len)
            rc = t ? run_tally(r, fn, user, t) : run_plain(r, fn, user);
        hs_event ev;
        int st = rc ? rc : hs_reader_next(r, &ev);
        if (!rc && st == HS_EVENT) {
            if (t)
                tally_one(t, &ev);
            if (!t || (hs__type_info(r, ev.tag) & TI_DECODE))
                rc = fn(user, &ev);
        } else if (!rc) {
            return st;
        }
        if (rc) {
            *stop = rc;
            return rc;
        }
    }
}

int hs__reader_feed_tally(hs_reader *r, const void *data, size_t len,
                          hs_event_fn fn, void *user, hs__tally *t, int *stop)
{
    *stop = 0;
    if (r->state == ST_ERROR)
        return r->err.code;
    if (r->in_pos < r->in_len)
        return HS_ERR_MISUSE;
    return feed_events(r, data, len, fn, user, t, stop);
}

static int read_loop(hs_reader *r, hs_input *in, hs_event_fn fn, void *user,
                     hs__tally *t)
{
    if (r->state == ST_ERROR)
        return r->err.code;
    const uint8_t *data;
    size_t n;
    int st, stop = 0;
    while ((st = hs_input_next(in, &data, &n)) == HS_OK) {
        int rs = feed_events(r, data, n, fn, user, t, &stop);
        if (stop)
            return stop;
        if (rs < 0 || rs == HS_DONE)
            break;
    }
    return hs__read_end(r, in, st);
}

int hs__read_end(hs_reader *r, hs_input *in, int st)
{
    /* Every failure is recorded in the reader, so that a caller that
     * reports hs_reader_error() always has a message to print. */
    if (st == HS_ERR_NOMEM)
        return hs__reader_fail(r, HS_ERR_NOMEM, hs_reader_offset(r),
                               "out of memory for the input buffer");
    if (st == HS_ERR_IO) {
        hs__reader_fail(r, HS_ERR_IO, hs_reader_offset(r),
                        "reading failed after byte %llu: %s",
                        (unsigned long long)hs_reader_offset(r),
                        strerror(in->err_no));
        errno = in->err_no;
        return HS_ERR_IO;
    }
    return hs_reader_finish(r);
}

int hs__read_input(hs_reader *r, hs_input *in, hs_event_fn fn, void *user)
{
    return read_loop(r, in, fn, user, NULL);
}

int hs__read_input_tally(hs_reader *r, hs_input *in, hs_event_fn fn,
                         void *user, hs__tally *t)
{
    return read_loop(r, in, fn, user, t);
}

/* hs_read_fd(), with a tally or without (t NULL). */
static int read_fd(hs_reader *r, int fd, hs_event_fn fn, void *user,
                   hs__tally *t)
{
    hs_input in;
    hs_input_open(&in, fd, r->alloc);
    int st = read_loop(r, &in, fn, user, t);
    int saved = errno;
    hs_input_close(&in);
    errno = saved;
    return st;
}

int hs_read_fd(hs_reader *r, int fd, hs_event_fn fn, void *user)
{
    return read_fd(r, fd, fn, user, NULL);
}

int hs__read_fd_tally(hs_reader *r, int fd, hs_event_fn fn, void *user,
                      hs__tally *t)
{
    return read_fd(r, fd, fn, user, t);
}
