/*
 * hs_census_load_fd: an eventlog or a runtime .hp file, told apart by its
 * first bytes, into a census. Works on pipes: the bytes read to decide are
 * handed on to whichever parser takes them, nothing is re-read.
 */
#include "heapscope/census.h"
#include "internal.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define READ_BLOCK (1u << 16)

static void set_err(hs_error *err, int code, const char *msg, int e)
{
    if (!err)
        return;
    memset(err, 0, sizeof *err);
    err->code = code;
    err->event_index = UINT64_MAX;
    if (e)
        snprintf(err->message, sizeof err->message, "%s: %s", msg,
                 strerror(e));
    else
        snprintf(err->message, sizeof err->message, "%s", msg);
}

/* Reads once, retrying on EINTR; -1 with errno on failure. */
static ssize_t read_some(int fd, void *buf, size_t n)
{
    for (;;) {
        ssize_t r = read(fd, buf, n);
        if (r >= 0 || errno != EINTR)
            return r;
    }
}

/*
 * The eventlog magic is 'hdrb'. Text that does not start like it is taken
 * for a .hp (whose parser then says what it expected on which line);
 * anything else goes to the eventlog reader, which names the bad magic.
 */
static bool looks_like_hp(const uint8_t *b, size_t n)
{
    static const uint8_t magic[4] = {'h', 'd', 'r', 'b'};
    if (n == 0)
        return false;
    if (memcmp(b, magic, n < 4 ? n : 4) == 0)
        return false;
    unsigned ch = b[0];
    return ch == '\n' || ch == '\r' || ch == ' ' || ch == '\t' ||
           (ch >= 0x21 && ch < 0x7f);
}

static int load_eventlog(hs_census *c, int fd, uint8_t *buf, size_t have,
                         hs_error *err)
{
    hs_reader *r = hs_reader_new();
    if (!r) {
        set_err(err, HS_ERR_NOMEM, "out of memory", 0);
        return HS_ERR_NOMEM;
    }
    /* Only the census's own events are decoded, which keeps loading close
     * to the speed of bare framing. */
    uint16_t tags[64];
    size_t ntags = hs_census_event_tags(tags, 64);
    hs_reader_decode_only(r, tags, ntags < 64 ? ntags : 64);
    hs_reader_set_raw_stacks(r, true); /* bands are keyed on the bytes */
    int st = HS_NEED_INPUT;
    size_t n = have;
    bool eof = false;
    /* Most events (scheduler, GC) mean nothing to the census: the
     * bookkeeping every event needs is done here, and only the census's
     * own tags cost a call. Events come in runs of one capability (its
     * blocks), time-ordered within a run, so the latest time and highest
     * capability are folded in when the capability changes, not per
     * event. */
    uint64_t count = 0, max_time = 0, run_time = 0;
    int32_t max_cap = -1, run_cap = INT32_MIN;
    for (;;) {
        if (n) {
            hs_reader_feed(r, buf, n);
            hs_event ev;
            while ((st = hs_reader_next(r, &ev)) == HS_EVENT) {
                if (ev.cap != run_cap) {
                    if (run_time > max_time)
                        max_time = run_time;
                    if (ev.cap > max_cap)
                        max_cap = ev.cap;
                    run_cap = ev.cap;
                    run_time = 0;
                }
                run_time = ev.time;
                count++;
                if (!ev.known) /* not one of the census's events */
                    continue;
                int cs = hs__census_add_wanted(c, &ev);
                if (cs < 0) {
                    hs_reader_free(r);
                    if (err)
                        *err = *hs_census_error(c);
                    return cs;
                }
            }
            if (st < 0 || st == HS_DONE)
                break;
        }
        if (eof)
            break;
        ssize_t got = read_some(fd, buf, READ_BLOCK);
        if (got < 0) {
            int e = errno;
            if (err) {
                set_err(err, HS_ERR_IO, "reading failed", e);
                err->offset = hs_reader_offset(r);
            }
            hs_reader_free(r);
            return HS_ERR_IO;
        }
        n = (size_t)got;
        if (!got)
            eof = true;
    }
    if (run_time > max_time)
        max_time = run_time;
    hs__census_skipped(c, count, max_time, max_cap);
    st = hs_reader_finish(r);
    if (st < 0) {
        if (err)
            *err = *hs_reader_error(r);
        hs_reader_free(r);
        return st;
    }
    int fs = hs_census_finish(c, st == HS_DONE);
    if (fs < 0) {
        set_err(err, fs, "out of memory while building the census", 0);
        hs_reader_free(r);
        return fs;
    }
    if (st == HS_TRUNCATED) {
        if (err)
            *err = *hs_reader_error(r);
        hs_reader_free(r);
        return HS_TRUNCATED;
    }
    if (err)
        memset(err, 0, sizeof *err);
    hs_reader_free(r);
    return HS_OK;
}

static int load_hp(hs_census *c, int fd, uint8_t *buf, size_t have,
                   hs_error *err)
{
    hs_hp_parser *p = hs__hp_parser_new(c);
    if (!p) {
        set_err(err, HS_ERR_NOMEM, "out of memory", 0);
        return HS_ERR_NOMEM;
    }
    int st = hs__hp_parser_feed(p, buf, have, err);
    while (st == HS_OK) {
        ssize_t got = read_some(fd, buf, READ_BLOCK);
        if (got < 0) {
            set_err(err, HS_ERR_IO, "reading failed", errno);
            st = HS_ERR_IO;
            break;
        }
        if (!got) {
            st = hs__hp_parser_finish(p, err);
            break;
        }
        st = hs__hp_parser_feed(p, buf, (size_t)got, err);
    }
    hs__hp_parser_free(p);
    if (st == HS_OK && err)
        memset(err, 0, sizeof *err);
    return st;
}

int hs_census_load_fd(hs_census *c, int fd, hs_error *err)
{
    if (err)
        memset(err, 0, sizeof *err);
    uint8_t *buf = malloc(READ_BLOCK);
    if (!buf) {
        set_err(err, HS_ERR_NOMEM, "out of memory", 0);
        return HS_ERR_NOMEM;
    }
    /* A pipe may deliver a byte at a time: gather the four bytes of the
     * magic (or the end) before deciding. */
    size_t have = 0;
    while (have < 4) {
        ssize_t got = read_some(fd, buf + have, READ_BLOCK - have);
        if (got < 0) {
            set_err(err, HS_ERR_IO, "reading failed", errno);
            free(buf);
            return HS_ERR_IO;
        }
        if (!got)
            break;
        have += (size_t)got;
    }
    int st = looks_like_hp(buf, have) ? load_hp(c, fd, buf, have, err)
                                      : load_eventlog(c, fd, buf, have, err);
    free(buf);
    return st;
}
