/*
 * The streaming .mlpd reader: input (plain or gzip), the file header and
 * the buffer framing. The event layouts are in read_mlpd_events.c.
 *
 * Bytes flow through three layers. The caller's chunk (`src`) is either
 * the plain stream itself or, for a gzip file, inflated piecewise into
 * `zout`; `in` is the current plain bytes. Items (the file header's parts,
 * a 48-byte buffer header) are taken in place when `in` holds them whole,
 * else assembled in `stage`. A buffer's payload is decoded event by event
 * as its bytes arrive: in place when `in` holds all of it, else appended to
 * `stage`, which is sized for the whole payload up front so that events
 * already decoded never move. Memory is one buffer, whatever the file.
 */
#include "read/read_mlpd.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#define HEADER_ID 0x4D505A01u
#define BUFFER_ID 0x4D504C01u
#define FIXED_HEADER 38u
#define BUFFER_HEADER 48u
#define HEADER_STRING_MAX (1u << 20)
/* Inflated bytes per step: Mono's buffers are up to 64 KiB, and one that
 * lies whole in the output is decoded in place, not copied into `stage`. */
#define ZOUT_SIZE (1u << 20)

int hs__mlpd_fail(hs_mlpd_reader *r, int code, uint64_t off,
                  const char *fmt, ...)
{
    r->state = ST_ERROR;
    hs_error_at at = {off, r->header_done ? r->index : HS_NO_EVENT, 0};
    va_list ap;
    va_start(ap, fmt);
    hs__error_vset(&r->err, code, &at, fmt, ap);
    va_end(ap);
    return code;
}

static uint32_t le32(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
           (uint32_t)p[3] << 24;
}

static uint64_t le64(const uint8_t *p)
{
    return (uint64_t)le32(p) | (uint64_t)le32(p + 4) << 32;
}

hs_mlpd_reader *hs_mlpd_reader_new_with(const hs_allocator *alloc)
{
    hs_allocator store;
    const hs_allocator *a = hs_alloc_copy(&store, alloc);
    hs_mlpd_reader *r = hs_calloc(a, 1, sizeof *r);
    if (!r)
        return NULL;
    r->alloc = hs_alloc_copy(&r->alloc_store, alloc);
    r->dec.alloc = r->alloc;
    r->dec.mask = UINT64_MAX;
    r->state = ST_START;
    return r;
}

hs_mlpd_reader *hs_mlpd_reader_new(void)
{
    return hs_mlpd_reader_new_with(NULL);
}

void hs_mlpd_reader_free(hs_mlpd_reader *r)
{
    if (!r)
        return;
    hs__inflater_free(r->z);
    hs_free(r->alloc, r->zout);
    hs_free(r->alloc, r->stage);
    for (unsigned i = 0; i < 3; i++)
        hs_free(r->alloc, r->strings[i]);
    hs__mlpd_decoder_free(&r->dec);
    hs_free(r->alloc, r);
}

static int start_gzip(hs_mlpd_reader *r)
{
    r->zout = hs_malloc(r->alloc, ZOUT_SIZE);
    if (!r->zout)
        return hs__mlpd_fail(r, HS_ERR_NOMEM, 0, "out of memory");
    r->z = hs__inflater_new(r->alloc);
    if (!r->z)
        return hs__mlpd_fail(r, HS_ERR_NOMEM, 0, "cannot start inflating");
    r->gzip = true;
    return HS_OK;
}

int hs_mlpd_reader_feed(hs_mlpd_reader *r, const void *data, size_t len)
{
    if (r->state == ST_ERROR)
        return r->err.code;
    if (r->src_pos < r->src_len || r->in_pos < r->in_len || r->z_pending)
        return HS_ERR_MISUSE;
    r->src = data;
    r->src_len = len;
    r->src_pos = 0;
    if (len && r->state == ST_START) {
        /* A gzip stream starts 1f 8b; an .mlpd with the id's low byte. */
        if (r->src[0] == 0x1f) {
            int st = start_gzip(r);
            if (st < 0)
                return st;
        }
        r->state = ST_HEADER;
    }
    if (!r->gzip) {
        r->in = r->src;
        r->in_len = len;
        r->in_pos = 0;
        r->src_pos = len;
    }
    return HS_OK;
}

/* Makes the corruption inflate found the reader's (sticky) error. */
static bool corrupt(hs_mlpd_reader *r)
{
    hs__mlpd_fail(r, r->consumed ? HS_ERR_MALFORMED_EVENT : HS_ERR_BAD_MAGIC,
                  r->consumed,
                  "the gzip stream is corrupt (%s) after %llu uncompressed "
                  "bytes", r->z_corrupt, (unsigned long long)r->consumed);
    return false;
}

/* More plain bytes into `in`: inflates the next piece of a gzip chunk.
 * Returns false when the chunk is used up (or on an error, then sticky). */
static bool refill(hs_mlpd_reader *r)
{
    if (!r->gzip || r->state == ST_ERROR)
        return false;
    if (r->z_corrupt)
        return corrupt(r);
    while (r->src_pos < r->src_len || r->z_pending) {
        if (r->z_end) {
            if (r->src_pos >= r->src_len)
                return false;
            /* Concatenated gzip members (an appended file) read on. */
            if (!hs__inflater_next_member(r->z))
                return false;
            r->z_end = false;
        }
        size_t used, got;
        const char *msg = NULL;
        int zs = hs__inflater_run(r->z, r->src + r->src_pos,
                                  r->src_len - r->src_pos, &used, r->zout,
                                  ZOUT_SIZE, &got, &msg);
        r->src_pos += used;
        r->z_pending = got == ZOUT_SIZE;
        if (zs == HS_INF_END)
            r->z_end = true;
        else if (zs == HS_INF_NOMEM) {
            hs__mlpd_fail(r, HS_ERR_NOMEM, r->consumed, "out of memory");
            return false;
        } else if (zs == HS_INF_CORRUPT) {
            /* What inflate gave before the corruption is read first, so
             * the events do not depend on how the input was cut. */
            r->z_corrupt = msg;
            r->z_pending = false;
            if (got) {
                r->in = r->zout;
                r->in_len = got;
                r->in_pos = 0;
                return true;
            }
            return corrupt(r);
        }
        if (got) {
            r->in = r->zout;
            r->in_len = got;
            r->in_pos = 0;
            return true;
        }
        if (!used && !r->z_end && !r->z_pending)
            return false; /* inflate wants input this chunk does not have */
    }
    return false;
}

/* Room for n bytes in stage, grown by doubling: a staged buffer grows
 * with the bytes that arrive, so a short file that claims a 16 MiB buffer
 * costs what it holds, not 16 MiB. */
static bool ensure_stage(hs_mlpd_reader *r, size_t n)
{
    if (n <= r->stage_cap)
        return true;
    size_t cap = r->stage_cap > n / 2 ? 2 * r->stage_cap : n;
    uint8_t *p = hs_realloc(r->alloc, r->stage, cap);
    if (!p)
        return false;
    r->stage = p;
    r->stage_cap = cap;
    return true;
}

/*
 * The first n bytes of the current item, in place or assembled in stage;
 * NULL when the input ran out first (what arrived is kept) or on an error.
 */
static const uint8_t *need(hs_mlpd_reader *r, size_t n)
{
    for (;;) {
        size_t avail = r->in_len - r->in_pos;
        if (r->stage_len == 0 && avail >= n)
            return r->in + r->in_pos;
        if (avail) {
            if (!ensure_stage(r, n)) {
                hs__mlpd_fail(r, HS_ERR_NOMEM, r->item_off, "out of memory");
                return NULL;
            }
            size_t k = n - r->stage_len < avail ? n - r->stage_len : avail;
            memcpy(r->stage + r->stage_len, r->in + r->in_pos, k);
            r->stage_len += k;
            r->in_pos += k;
            r->consumed += k;
        }
        if (r->stage_len == n)
            return r->stage;
        if (!refill(r))
            return NULL;
    }
}

/* The current item of n bytes is used: the next one starts after it. */
static void item_done(hs_mlpd_reader *r, size_t n)
{
    if (r->stage_len)
        r->stage_len = 0;
    else {
        r->in_pos += n;
        r->consumed += n;
    }
    r->item_off += n;
}

static int header_fixed(hs_mlpd_reader *r, const uint8_t *p)
{
    if (le32(p) != HEADER_ID)
        return hs__mlpd_fail(r, HS_ERR_BAD_MAGIC, 0,
                    "not a Mono log-profiler file: the id is %08x, not "
                    "4d505a01", le32(p));
    hs_mlpd_header *h = &r->hdr;
    h->major = p[4];
    h->minor = p[5];
    h->data_version = p[6];
    h->ptr_size = p[7];
    /* Layouts are those of log format 3.x, data version 17 (Mono 6.x). */
    if (h->major != 3 || h->data_version != 17)
        return hs__mlpd_fail(r, HS_ERR_BAD_HEADER, 4,
                    "unsupported log-profiler version %u.%u, data version "
                    "%u (heapscope reads 3.x, data version 17, as Mono 6 "
                    "writes)", h->major, h->minor, h->data_version);
    if (h->ptr_size != 4 && h->ptr_size != 8)
        return hs__mlpd_fail(r, HS_ERR_BAD_HEADER, 7, "pointer size %u is not 4 or 8",
                    h->ptr_size);
    r->dec.mask = h->ptr_size == 4 ? UINT32_MAX : UINT64_MAX;
    h->startup_ms = le64(p + 8);
    h->startup_ns = le64(p + 16);
    h->timer_overhead = le32(p + 24);
    h->flags = le32(p + 28);
    h->pid = le32(p + 32);
    h->port = (uint16_t)(p[36] | p[37] << 8);
    return HS_OK;
}

/* The file header: the fixed part, then three length-prefixed strings. */
static int read_header(hs_mlpd_reader *r)
{
    while (!r->header_done) {
        const uint8_t *p;
        if (r->state == ST_HEADER) {
            if (!(p = need(r, FIXED_HEADER)))
                return r->state == ST_ERROR ? r->err.code : HS_NEED_INPUT;
            int st = header_fixed(r, p);
            if (st < 0)
                return st;
            item_done(r, FIXED_HEADER);
            r->state = ST_STR_LEN;
        } else if (r->state == ST_STR_LEN) {
            if (!(p = need(r, 4)))
                return r->state == ST_ERROR ? r->err.code : HS_NEED_INPUT;
            r->str_len = le32(p);
            if (r->str_len > HEADER_STRING_MAX)
                return hs__mlpd_fail(r, HS_ERR_BAD_HEADER, r->item_off,
                            "a header string claims %u bytes", r->str_len);
            item_done(r, 4);
            r->state = ST_STR;
        } else {
            if (!(p = need(r, r->str_len)))
                return r->state == ST_ERROR ? r->err.code : HS_NEED_INPUT;
            char *s = hs_strndup(r->alloc, (const char *)p, r->str_len);
            if (!s)
                return hs__mlpd_fail(r, HS_ERR_NOMEM, r->item_off, "out of memory");
            r->strings[r->str_i++] = s; /* a NUL inside ends it early */
            item_done(r, r->str_len);
            r->state = ST_STR_LEN;
            if (r->str_i == 3) {
                r->hdr.args = r->strings[0];
                r->hdr.arch = r->strings[1];
                r->hdr.os = r->strings[2];
                r->header_done = true;
                r->state = ST_BUF_HEADER;
            }
        }
    }
    return HS_OK;
}

static int buffer_header(hs_mlpd_reader *r, hs_mlpd_event *ev)
{
    const uint8_t *p = need(r, BUFFER_HEADER);
    if (!p)
        return r->state == ST_ERROR ? r->err.code : HS_NEED_INPUT;
    if (le32(p) != BUFFER_ID)
        return hs__mlpd_fail(r, HS_ERR_MALFORMED_EVENT, r->item_off,
                    "expected a buffer header (id 4d504c01), found %08x",
                    le32(p));
    uint32_t len = le32(p + 4);
    if (len > HS_MLPD_MAX_BUFFER)
        return hs__mlpd_fail(r, HS_ERR_BAD_SIZE, r->item_off + 4,
                    "a buffer claims %u bytes", len);
    memset(ev, 0, sizeof *ev);
    ev->kind = HS_MLPD_BUFFER;
    ev->offset = r->item_off;
    ev->size = BUFFER_HEADER;
    ev->index = r->index;
    ev->thread = le64(p + 32);
    ev->u.buffer.len = len;
    ev->u.buffer.time_base = ev->time = le64(p + 8);
    ev->u.buffer.ptr_base = le64(p + 16);
    ev->u.buffer.obj_base = le64(p + 24);
    ev->u.buffer.method_base = le64(p + 40);
    r->dec.time = ev->time;
    r->dec.ptr_base = ev->u.buffer.ptr_base;
    r->dec.obj_base = ev->u.buffer.obj_base;
    r->dec.method = ev->u.buffer.method_base;
    r->dec.thread = ev->thread;
    item_done(r, BUFFER_HEADER);
    r->buffers++;
    r->pay_off = r->item_off;
    r->pay_len = len;
    r->pay_pos = 0;
    size_t avail = r->in_len - r->in_pos;
    r->pay_staged = avail < len;
    if (r->pay_staged) {
        if (!ensure_stage(r, avail ? avail : 1))
            return hs__mlpd_fail(r, HS_ERR_NOMEM, r->pay_off, "out of memory");
        r->pay = r->stage;
        r->pay_avail = 0;
        r->pay_want = 0;
    } else {
        /* Whole in `in`: consumed now, decoded in place. */
        r->pay = r->in + r->in_pos;
        r->pay_avail = len;
        r->pay_want = 0;
        r->in_pos += len;
        r->consumed += len;
    }
    r->state = ST_PAYLOAD;
    return HS_EVENT;
}

/* Appends what `in` has of a staged payload; false when nothing came. */
static bool stage_more(hs_mlpd_reader *r)
{
    for (;;) {
        size_t avail = r->in_len - r->in_pos;
        if (avail) {
            size_t k = r->pay_len - r->pay_avail;
            if (k > avail)
                k = avail;
            if (!ensure_stage(r, r->pay_avail + k)) {
                hs__mlpd_fail(r, HS_ERR_NOMEM, r->pay_off, "out of memory");
                return false;
            }
            r->pay = r->stage;
            memcpy(r->stage + r->pay_avail, r->in + r->in_pos, k);
            r->pay_avail += k;
            r->in_pos += k;
            r->consumed += k;
            return true;
        }
        if (!refill(r))
            return false;
    }
}

static void end_buffer(hs_mlpd_reader *r)
{
    r->item_off = r->pay_off + r->pay_len;
    r->state = ST_BUF_HEADER;
}

/* Abandons the rest of the buffer after an unexpected value. */
static void skip_buffer(hs_mlpd_reader *r, uint64_t off, const char *what)
{
    if (!r->skipped)
        snprintf(r->skip_warning, sizeof r->skip_warning,
                 "%s at offset %llu (event byte %02x); the rest of its "
                 "buffer (%llu bytes) is skipped",
                 what, (unsigned long long)off, r->pay[r->pay_pos],
                 (unsigned long long)(r->pay_len - r->pay_pos));
    r->skipped++;
    r->skip_left = r->pay_len - r->pay_avail;
    r->state = ST_SKIP;
}

static int payload_event(hs_mlpd_reader *r, hs_mlpd_event *ev)
{
    for (;;) {
        if (r->pay_pos == r->pay_len) {
            end_buffer(r);
            return HS_OK;
        }
        /* An event cut by a chunk edge is decoded again when more bytes
         * arrive; one over 64 KiB (larger than Mono's buffers, so hostile
         * or corrupt) only once its bytes so far have doubled, so that it
         * costs O(n log n) fed a byte at a time, not O(n^2). */
        while (r->pay_avail < r->pay_want)
            if (!stage_more(r))
                return r->state == ST_ERROR ? r->err.code : HS_NEED_INPUT;
        mlpd_cursor c = {r->pay + r->pay_pos, r->pay + r->pay_avail,
                         CUR_OK, NULL};
        int st = hs__mlpd_decode_event(&r->dec, &c, ev);
        if (st < 0)
            return hs__mlpd_fail(r, HS_ERR_NOMEM, r->pay_off + r->pay_pos,
                        "out of memory");
        uint64_t off = r->pay_off + r->pay_pos;
        if (st == CUR_OK) {
            ev->offset = off;
            ev->thread = r->dec.thread;
            ev->index = r->index++;
            r->pay_pos += (size_t)ev->size;
            return HS_EVENT;
        }
        bool whole = r->pay_avail == r->pay_len;
        if (st == CUR_BAD || whole) {
            skip_buffer(r, off, st == CUR_BAD ? c.what
                                : "an event runs past the end of its buffer");
            return HS_OK;
        }
        size_t part = r->pay_avail - r->pay_pos;
        if (part > (1u << 16))
            r->pay_want = r->pay_avail + part < r->pay_len
                              ? r->pay_avail + part : r->pay_len;
        else if (!stage_more(r))
            return r->state == ST_ERROR ? r->err.code : HS_NEED_INPUT;
    }
}

static int skip_rest(hs_mlpd_reader *r)
{
    while (r->skip_left) {
        size_t avail = r->in_len - r->in_pos;
        if (!avail) {
            if (!refill(r))
                return r->state == ST_ERROR ? r->err.code : HS_NEED_INPUT;
            continue;
        }
        size_t k = avail < r->skip_left ? avail : (size_t)r->skip_left;
        r->in_pos += k;
        r->consumed += k;
        r->skip_left -= k;
    }
    end_buffer(r);
    return HS_OK;
}

int hs_mlpd_reader_next(hs_mlpd_reader *r, hs_mlpd_event *ev)
{
    for (;;) {
        int st;
        switch (r->state) {
        case ST_ERROR:
            return r->err.code;
        case ST_START:
            return HS_NEED_INPUT;
        case ST_HEADER: case ST_STR_LEN: case ST_STR:
            st = read_header(r);
            if (st != HS_OK)
                return st;
            break;
        case ST_BUF_HEADER:
            if (r->in_pos == r->in_len && !refill(r))
                return r->state == ST_ERROR ? r->err.code : HS_NEED_INPUT;
            return buffer_header(r, ev);
        case ST_PAYLOAD:
            st = payload_event(r, ev);
            if (st != HS_OK)
                return st;
            break;
        case ST_SKIP:
            st = skip_rest(r);
            if (st != HS_OK)
                return st;
            break;
        }
    }
}

int hs__mlpd_reader_next_allocs(hs_mlpd_reader *r, hs_mlpd_event *ev,
                                hs__mlpd_allocs *run)
{
    /* Where payload_event would decode the next event at once. */
    if (r->state == ST_PAYLOAD && !hs__mlpd_general_only &&
        r->pay_pos < r->pay_len && r->pay_avail >= r->pay_want) {
        if (!hs__mlpd_decoder_runs(&r->dec))
            return hs__mlpd_fail(r, HS_ERR_NOMEM, r->pay_off + r->pay_pos,
                                 "out of memory");
        mlpd_cursor c = {r->pay + r->pay_pos, r->pay + r->pay_avail,
                         CUR_OK, NULL};
        size_t n = hs__mlpd_decode_allocs(&r->dec, &c, run);
        if (n) {
            r->pay_pos = (size_t)(c.p - r->pay);
            r->index += n;
            run->thread = r->dec.thread;
            return HS__MLPD_ALLOCS;
        }
    }
    return hs_mlpd_reader_next(r, ev);
}

static int truncated(hs_mlpd_reader *r, const char *fmt, ...) HS_PRINTF(2, 3);

static int truncated(hs_mlpd_reader *r, const char *fmt, ...)
{
    hs_error_at at = {r->consumed, r->index, 0};
    va_list ap;
    va_start(ap, fmt);
    hs__error_vset(&r->err, HS_TRUNCATED, &at, fmt, ap);
    va_end(ap);
    return HS_TRUNCATED;
}

int hs_mlpd_reader_finish(hs_mlpd_reader *r)
{
    if (r->state != ST_ERROR && r->z_corrupt)
        corrupt(r);
    if (r->state == ST_ERROR)
        return r->err.code;
    if (!r->header_done) {
        if (r->gzip)
            hs__mlpd_fail(r, HS_ERR_TRUNCATED_HEADER, r->consumed,
                 "the gzip stream ends after %llu compressed bytes, inside "
                 "the file header (%llu bytes of it inflated)",
                 (unsigned long long)hs__inflater_total_in(r->z),
                 (unsigned long long)r->consumed);
        else
            hs__mlpd_fail(r, HS_ERR_TRUNCATED_HEADER, r->consumed,
                 "the file ends inside its header, after %llu bytes",
                 (unsigned long long)r->consumed);
        return r->err.code;
    }
    unsigned long long at = (unsigned long long)r->consumed;
    if (r->state == ST_PAYLOAD || r->state == ST_SKIP)
        return truncated(r, "the file is cut at offset %llu, inside the "
                         "%llu-byte buffer at offset %llu; its events up "
                         "to the cut are read", at,
                         (unsigned long long)r->pay_len,
                         (unsigned long long)(r->pay_off - BUFFER_HEADER));
    if (r->stage_len)
        return truncated(r, "the file is cut at offset %llu, inside the "
                         "buffer header at offset %llu", at,
                         (unsigned long long)r->item_off);
    if (r->gzip && !r->z_end)
        return truncated(r, "the gzip stream ends without its trailer "
                         "after %llu uncompressed bytes", at);
    return HS_DONE;
}

