/*
 * The .mlpd reader's internals shared by its files: read_mlpd.c (input,
 * gzip, file header, buffer framing), read_mlpd_events.c (decoding the
 * event layouts of heapscope/mlpd_events.h), read_mlpd_runs.c (runs of
 * ALLOCs), mlpd_table.c (the same table as field descriptors),
 * read_mlpd_api.c (getters, sniffing, reading an fd) and read_mlpd_count.c
 * (counting events without decoding them). Not part of the public
 * surface.
 */
#ifndef HEAPSCOPE_READ_MLPD_H
#define HEAPSCOPE_READ_MLPD_H

#include "heapscope/mlpd.h"
#include "common/internal.h"
#include "read/mlpd_allocs.h"

/* A bounds-checked cursor over the available bytes of one buffer. */
typedef struct mlpd_cursor {
    const uint8_t *p, *end;
    int status;        /* CUR_OK, or the first problem met */
    const char *what;  /* for CUR_BAD: what was unexpected */
} mlpd_cursor;

enum { CUR_OK = 0, CUR_SHORT = 1, CUR_BAD = 2 };

/*
 * A backtrace a run met lately (read_mlpd_runs.c), matched again by its
 * bytes: its first frame's running value (the delta before it is from the
 * buffer's running method, whatever came last), then the bytes of the
 * frames after it, which are deltas from frame to frame and so the same
 * wherever the backtrace recurs, in any buffer (MLPD-NOTES.md). LEB128
 * values end at a byte without its high bit, so stream bytes equal to
 * `bytes` (a whole encoding of n - 1 values) are those same values, and
 * nothing is decoded. `id` (0: an empty slot) is new at each filling: one
 * id, one list of frames.
 */
#define MLPD_BT_FRAMES 16
#define MLPD_BT_BYTES 32
#define MLPD_BT_SLOTS 512
typedef struct mlpd_bt {
    uint64_t first, last;   /* the running value at the first frame, and
                               after the last */
    uint32_t id;
    uint8_t n, len;         /* frames; bytes after the first frame */
    uint8_t bytes[MLPD_BT_BYTES];
} mlpd_bt;
/* The backtraces met lately, in pairs of slots: their frames (masked) per
 * slot, per pair the slot to fill next, the id the next one takes; the
 * ALLOCs that tried them lately and those that missed, and how many more
 * do without them. */
typedef struct mlpd_bts {
    mlpd_bt slot[MLPD_BT_SLOTS];
    uint64_t frames[MLPD_BT_SLOTS][MLPD_BT_FRAMES];
    uint8_t turn[MLPD_BT_SLOTS / 2];
    uint32_t next, tried, missed, rest;
} mlpd_bts;

/* The per-buffer state and the scratch arrays events point into. */
typedef struct mlpd_decoder {
    const hs_allocator *alloc;
    uint64_t time, ptr_base, obj_base, method, thread;
    /* Pointer width of the writer: a 32-bit profiler computes pointer and
     * object differences in 32-bit unsigned arithmetic and zero-extends
     * them, so sums are taken modulo 2^32 there (UINT32_MAX), else
     * UINT64_MAX. */
    uint64_t mask;
    /* Scratch arrays events point into: col[0] the frames of a
     * backtrace, col[1] and col[2] the columns of an array field; rec the
     * elements of a record array (reccap in bytes). */
    uint64_t *col[3];
    size_t colcap[3];
    void *rec;
    size_t reccap;
    mlpd_bts *bt;   /* runs only: made by hs__mlpd_decoder_runs() */
} mlpd_decoder;

/*
 * Decodes one event from c into *ev (kind, byte, time, fields). Returns
 * CUR_OK (c->p is past the event), CUR_SHORT (the bytes ran out before the
 * event's end) or CUR_BAD (c->what says what), or -1 when out of memory.
 * The decoder's running time and method are updated only on CUR_OK.
 */
int hs__mlpd_decode_event(mlpd_decoder *d, mlpd_cursor *c, hs_mlpd_event *ev);

/* Readies d for runs (hs__mlpd_decode_allocs); false when out of
 * memory. */
bool hs__mlpd_decoder_runs(mlpd_decoder *d);
/* As many ALLOCs from c as the fast path takes, up to a run's room, into
 * *run (its n); the decoder and c->p are past them. d is ready for runs. */
size_t hs__mlpd_decode_allocs(mlpd_decoder *d, mlpd_cursor *c,
                              hs__mlpd_allocs *run);

void hs__mlpd_decoder_free(mlpd_decoder *d);

/* For tests: true sends every event through the general decoder, so that
 * its results can be compared with the fast path's (false, the default). */
extern bool hs__mlpd_general_only;
/* For tests: after more than a quarter of 256 ALLOCs in runs missed the
 * backtraces kept, this many do without them (0: none does). */
extern uint32_t hs__mlpd_bt_rest;
/* For tests: true makes hs_mlpd_read_fd_count() walk the portable way even
 * on a processor with BMI2, so that the two walkers can be compared. */
extern bool hs__mlpd_count_portable;

/* --- read_mlpd.c: the reader, shared with read_mlpd_api.c ------------- */

#include "read/inflate.h"

enum state {
    ST_START,       /* before the first byte */
    ST_HEADER,      /* the fixed part of the file header */
    ST_STR_LEN,     /* a header string's length */
    ST_STR,         /* a header string */
    ST_BUF_HEADER,
    ST_PAYLOAD,
    ST_SKIP,        /* discarding the rest of an abandoned buffer */
    ST_ERROR
};

struct hs_mlpd_reader {
    hs_allocator alloc_store;
    const hs_allocator *alloc;
    enum state state;

    const uint8_t *src;       /* the caller's chunk */
    size_t src_len, src_pos;
    bool gzip, z_end;
    bool z_pending;           /* inflate filled zout: more output may wait */
    const char *z_corrupt;    /* inflate failed after handing out output:
                               * the error, reported once that is read */
    hs_inflater *z;
    uint8_t *zout;

    const uint8_t *in;        /* plain bytes */
    size_t in_len, in_pos;
    uint64_t consumed;        /* plain bytes taken from `in` so far */

    uint8_t *stage;
    size_t stage_len, stage_cap;
    uint64_t item_off;

    hs_mlpd_header hdr;
    char *strings[3];
    unsigned str_i;
    uint32_t str_len;
    bool header_done;

    /* the current buffer */
    const uint8_t *pay;       /* payload start (in place or stage) */
    size_t pay_len, pay_avail, pay_pos;
    size_t pay_want;          /* staged bytes to gather before decoding */
    bool pay_staged;
    uint64_t pay_off, skip_left;
    mlpd_decoder dec;
    struct { uint64_t len, time_base, ptr_base, obj_base, thread,
             method_base; } buf;
    bool buf_event_due;

    uint64_t index, buffers, skipped;
    char skip_warning[256];
    hs_error err;
};

/* Records the first error (sticky) with its offset; returns code. */
int hs__mlpd_fail(hs_mlpd_reader *r, int code, uint64_t off,
                  const char *fmt, ...) HS_PRINTF(4, 5);

/* --- read_mlpd_api.c ------------------------------------------------ */

/* Takes the events of the chunk just fed: HS_NEED_INPUT to read on, else
 * what hs__mlpd_read_fd_with() returns. */
typedef int (*hs__mlpd_drain_fn)(hs_mlpd_reader *r, void *user);

/* Reads fd to its end in 64 KiB chunks, feeding each to the reader and
 * handing it to drain, then finishes (hs_mlpd_read_fd()'s loop). */
int hs__mlpd_read_fd_with(hs_mlpd_reader *r, int fd, hs__mlpd_drain_fn drain,
                          void *user);

#endif
