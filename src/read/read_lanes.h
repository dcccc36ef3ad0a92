/*
 * The eventlog read in two lanes (load/load_lanes.c), the reader's part:
 * the plan of a regular file's data section by its block markers, a
 * second reader framing single blocks, and the calling thread's reader
 * moved past the blocks the other lane read. Internal to the library.
 */
#ifndef HEAPSCOPE_READ_READ_LANES_H
#define HEAPSCOPE_READ_READ_LANES_H

#include "heapscope/reader.h"
#include "read/read_eventlog.h"

#include <stdbool.h>
#include <stdint.h>

/* A piece of the data section: one block (cap its capability, or -1 for
 * the global buffer's), or events outside any block (cap -2). */
typedef struct hs__segment {
    uint64_t off, len;
    int32_t cap;
    uint8_t lane;            /* 0: the calling thread's, 1: the other's */
} hs__segment;

#define HS_SEG_OUTSIDE (-2)

typedef struct hs__plan {
    hs__segment *seg;
    size_t n, cap;
    uint64_t end;            /* where the plan ends: after the data-end
                                marker, or the file's end */
    size_t lane1_blocks;
} hs__plan;

/*
 * Reads the header of the eventlog on fd at `base` (the fd's position)
 * into the new reader r by pread. Returns HS_OK when r stands at the
 * first event (its offset in *data_start, nothing of the input held),
 * or 1 when it does not (an error, the end of the file, a read that
 * failed): r is then as one pass leaves it after the bytes it was fed,
 * *data_start the number of them, and reading on from base + that is
 * the one pass.
 */
int hs__reader_header_pread(hs_reader *r, int fd, uint64_t base,
                            uint64_t *data_start);

/*
 * The plan of the data section of r's log (r at its first event, at
 * data_start) in a file of `size` bytes from base: its blocks and the
 * events outside them, framed by the headers alone, up to the first
 * thing the walk cannot tell for sure (a cut, an undeclared tag...),
 * after which the rest is one segment; and the capabilities shared out
 * between the lanes. Returns HS_OK, HS_ERR_NOMEM, or 1 when the log is
 * not one to read in two lanes (fewer than two capabilities' blocks).
 */
int hs__plan_make(const hs_reader *r, int fd, uint64_t base,
                  uint64_t data_start, uint64_t size, hs__plan *p,
                  const hs_allocator *alloc);
void hs__plan_free(hs__plan *p, const hs_allocator *alloc);

/* n bytes of fd at off by pread; fewer only at the end of the file or
 * when a read fails. */
size_t hs__read_at(int fd, uint8_t *buf, size_t n, uint64_t off);

/* The allocator r was made with (NULL: the C library's). */
const hs_allocator *hs__reader_alloc(const hs_reader *r);

/* A second reader for the same log: r's header and settings, no input. */
hs_reader *hs__reader_clone(const hs_reader *r);

/*
 * The block of len bytes at offset off of fd (from base) read into buf
 * (buf_size bytes) a piece at a time and framed by r (a clone) as one
 * pass would, each event noted in *t and those of decoded tags handed to
 * fn. true when every event of it was framed, inside it, with no other
 * block marker than its own, without an error, a short read or fn's
 * stop; r's index counts its events.
 */
bool hs__reader_block(hs_reader *r, int fd, uint64_t base, uint64_t off,
                      uint64_t len, uint8_t *buf, size_t buf_size,
                      hs_event_fn fn, void *user, hs__tally *t);

/* An event framed by another reader of the same log (tag, time, payload
 * and the rest set, payload kept by the caller) decoded as r decodes its
 * tag: what r's framing would have handed on. HS_OK, or an error (r's). */
int hs__reader_decode_kept(hs_reader *r, hs_event *ev);

/* Where a reader stands between events: what one pass's reader holds
 * there besides its header. */
typedef struct hs__reader_pos {
    uint64_t off, index, block_end;
    int32_t block_cap;
} hs__reader_pos;

/* r's position (at an event's start, nothing staged), and r moved to
 * one, its error cleared: the state one pass would have there. */
void hs__reader_pos_get(const hs_reader *r, hs__reader_pos *pos);
void hs__reader_pos_set(hs_reader *r, const hs__reader_pos *pos);

/* Whether r stands at offset off at an event's start, nothing staged,
 * no error, no end. */
bool hs__reader_at(const hs_reader *r, uint64_t off);

/* With check, r's framing stops (HS__LANE_STOP, before the marker) at a
 * block marker anywhere but at offset at; without, it never does. */
void hs__reader_lane_marker(hs_reader *r, bool check, uint64_t at);

/* r holds no input of the caller's (what it staged it keeps): the bytes
 * it was last fed may be gone. */
void hs__reader_detach(hs_reader *r);

#endif
