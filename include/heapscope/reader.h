/*
 * heapscope/reader.h: a push-fed streaming decoder for GHC eventlogs.
 *
 * The caller hands the reader chunks of any size (1 byte to megabytes) with
 * hs_reader_feed() and pulls complete, typed events with hs_reader_next().
 * An event cut by a chunk edge waits inside the reader until the rest
 * arrives. Memory is bounded whatever the log's size: the event-type table,
 * one partial event (at most 65,535 + 12 bytes) and a few counters.
 *
 *     hs_reader *r = hs_reader_new();
 *     while ((n = read(fd, buf, sizeof buf)) > 0) {
 *         hs_reader_feed(r, buf, n);
 *         while ((st = hs_reader_next(r, &ev)) == HS_EVENT)
 *             use(&ev);
 *         if (st < 0 || st == HS_DONE) break;
 *     }
 *     st = hs_reader_finish(r);   // HS_DONE, HS_TRUNCATED or an error
 *     hs_reader_free(r);
 *
 * hs_read_fd() wraps exactly that loop around a file descriptor.
 */
#ifndef HEAPSCOPE_READER_H
#define HEAPSCOPE_READER_H

#include "common.h"
#include "events.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The capability of events from the global buffer or outside any block. */
#define HS_CAP_NONE (-1)

/*
 * One decoded event. Every pointer in it (strings, the raw payload, cost
 * centre stacks) points into the reader or the caller's chunk and is valid
 * until the next call to hs_reader_next(), hs_reader_feed() or
 * hs_reader_free(); copy what you keep.
 *
 * `known` is true when the payload was decoded into `u` (the member named
 * after the tag below). It is false for tags heapscope does not decode and
 * for known tags whose declared size is too small for any layout it knows;
 * `payload` is always available.
 */
typedef struct hs_event {
    uint16_t tag;
    bool known;
    int32_t cap;             /* capability of the enclosing block, or HS_CAP_NONE */
    uint64_t time;           /* nanoseconds, as the runtime stamped it */
    uint64_t offset;         /* byte offset of the event's tag in the stream */
    uint64_t index;          /* 0-based index among all events (block markers too) */
    const uint8_t *payload;  /* raw payload after tag, time and length */
    size_t payload_len;
    union {
        struct { uint32_t thread; } thread;             /* 0 1 3 */
        struct { uint32_t thread; uint16_t status;      /* 2 */
                 uint32_t blocked_on; } stop_thread;
        struct { uint32_t thread; uint16_t cap; } thread_cap; /* 4 8 */
        struct { uint32_t thread; } spark_thread;        /* 15 */
        struct { uint32_t size; uint64_t end_time;       /* 18 */
                 uint16_t cap; } block;
        struct { hs_str text; } msg;                     /* 16 19 58 181 */
        struct { uint32_t capset; uint16_t type; } capset_create; /* 25 */
        struct { uint32_t capset; } capset_delete;       /* 26 */
        struct { uint32_t capset; uint16_t cap; } capset_cap; /* 27 28 */
        struct { uint32_t capset; hs_str text; } rts_identifier; /* 29 */
        struct { uint32_t capset; hs_str raw;            /* 30 31 */
                 uint32_t count; } args;  /* raw: NUL-separated strings */
        struct { uint32_t capset; uint32_t pid; } pid;   /* 32 33 */
        struct { uint64_t created, dud, overflowed,      /* 34 */
                 converted, gcd, fizzled, remaining; } spark_counters;
        struct { uint16_t cap; } spark_steal;            /* 39 */
        struct { uint32_t capset; uint64_t sec;          /* 43 */
                 uint32_t nsec; } wall_clock;
        struct { uint32_t thread; hs_str label; } thread_label; /* 44 */
        struct { uint16_t cap; } cap;                 /* 45 46 47 48 206 */
        struct { uint32_t capset; uint64_t bytes; } heap;/* 49 50 51 91 */
        struct { uint32_t capset; uint16_t gens;         /* 52 */
                 uint64_t max_heap, alloc_area, mblock, block; } heap_info;
        struct { uint32_t capset; uint16_t gen;          /* 53 */
                 uint64_t copied, slop, frag;
                 uint32_t par_threads;
                 uint64_t par_max_copied, par_tot_copied;
                 uint64_t par_balanced_copied;
                 bool has_balanced; } gc_stats;
        struct { uint64_t task; uint16_t cap;            /* 55 */
                 uint64_t kernel_tid; } task_create;
        struct { uint64_t task; uint16_t cap;            /* 56 */
                 uint16_t new_cap; } task_migrate;
        struct { uint64_t task; } task_delete;           /* 57 */
        struct { uint32_t capset; uint32_t current,      /* 90 */
                 needed, returned; } mem_return;
        struct { uint8_t profile; uint64_t period;       /* 160 */
                 uint32_t breakdown;
                 hs_str filters[7]; /* module, closure descr, type descr,
                                       cost centre, ccs, retainer, bio */
               } heap_prof_begin;
        struct { uint32_t id; hs_str label, module,      /* 161 */
                 srcloc; uint8_t flags; } cost_centre;
        struct { uint64_t era; } sample;                 /* 162 165 */
        struct { uint64_t era; uint64_t time; } bio_sample; /* 166 */
        struct { uint8_t profile; uint64_t bytes;        /* 163 */
                 uint8_t depth; const uint32_t *stack;
                 const uint8_t *stack_raw; } ccs_sample;
        struct { uint8_t profile; uint64_t bytes;        /* 164 */
                 hs_str label; } string_sample;
        struct { uint32_t cap; uint64_t tick;            /* 167 */
                 uint8_t depth; const uint32_t *stack;
                 const uint8_t *stack_raw; } prof_sample;
        struct { uint64_t tick_interval; } prof_begin;   /* 168 */
        struct { uint64_t address; hs_str table_name,    /* 169 */
                 closure_desc, type_desc, label, module,
                 srcloc; } ipe;
        struct { uint32_t marked; } conc_mark_end;       /* 201 */
        struct { uint16_t blk_size; uint32_t active_segs, /* 207 */
                 filled_segs, live_blocks; } nonmoving_census;
        struct { uint32_t pruned, free_segs; } pruned_segments; /* 208 */
        struct { uint64_t id; uint16_t arity;            /* 210 */
                 hs_str kinds, name; uint64_t info_table;
                 bool has_info_table; hs_str json; } ticky_def;
        struct { uint64_t id, entries, allocs,           /* 211 */
                 allocd; } ticky_sample;
    } u;
} hs_event;

/*
 * In ccs_sample and prof_sample, `stack` holds the cost-centre ids
 * innermost first; `stack_raw` is the same ids as they stand in the
 * payload (depth x 4 big-endian bytes), for callers that key on bytes
 * (with hs_reader_set_raw_stacks() only these are set).
 */

/*
 * The event table's entry for tag (heapscope/events.h), or NULL for a tag
 * it does not list. Static storage.
 */
HS_API const hs_event_desc *hs_event_get_desc(uint16_t tag);

/*
 * Reading a field of an event through its table entry (hs_event_get_desc()
 * of the event's tag), for code that handles every event type alike, as a
 * printer or a fingerprint does. Valid only when ev->known; `f` must be one
 * of the fields of ev->tag's entry.
 *
 * hs_event_field_uint: the value of an integer field (U8 ... CC_FLAGS),
 * the count of an ARGS field, the depth of a STACK field; 0 for strings.
 * hs_event_field_str: the string of a TEXT, BINARY, ARGS or CSTR-like
 * field, else empty; it points where the event's pointers point.
 * hs_event_field_present: false only for a U64_OPT field the event lacked.
 * hs_event_field_stack / _stack_raw: the ids (NULL under
 * hs_reader_set_raw_stacks()) and raw bytes of a STACK field, else NULL.
 */
HS_API uint64_t hs_event_field_uint(const hs_event *ev,
                                    const hs_field_desc *f);
HS_API hs_str hs_event_field_str(const hs_event *ev, const hs_field_desc *f);
HS_API bool hs_event_field_present(const hs_event *ev,
                                   const hs_field_desc *f);
HS_API const uint32_t *hs_event_field_stack(const hs_event *ev,
                                            const hs_field_desc *f);
HS_API const uint8_t *hs_event_field_stack_raw(const hs_event *ev,
                                               const hs_field_desc *f);

/* Cost-centre flags (HEAP_PROF_COST_CENTRE). */
#define HS_CC_FLAG_CAF 0x01

typedef struct hs_reader hs_reader;

/* A new reader, or NULL when out of memory. Free with hs_reader_free(). */
HS_API hs_reader *hs_reader_new(void);

/*
 * The same, making every allocation of the reader (itself, its tables,
 * staging and hs_read_fd()'s buffer) through `alloc` (copied; NULL = the C
 * library's). A failed allocation while reading is the sticky error
 * HS_ERR_NOMEM.
 */
HS_API hs_reader *hs_reader_new_with(const hs_allocator *alloc);

/* Frees the reader; NULL is harmless. */
HS_API void hs_reader_free(hs_reader *r);

/*
 * Hands the reader the next chunk of the stream. The reader does not copy
 * it: `data` must stay valid until hs_reader_next() returns HS_NEED_INPUT
 * (the chunk is used up), HS_DONE or an error. Feeding while the previous
 * chunk is not used up returns HS_ERR_MISUSE. len may be 0.
 */
HS_API int hs_reader_feed(hs_reader *r, const void *data, size_t len);

/*
 * Decodes the next event into *ev. Returns HS_EVENT (ev filled),
 * HS_NEED_INPUT (feed more or finish), HS_DONE (the data-end marker was
 * read; later calls return HS_DONE again) or a negative error, which is
 * sticky: every later call returns it. Details: hs_reader_error().
 */
HS_API int hs_reader_next(hs_reader *r, hs_event *ev);

/*
 * Tells the reader that the input has ended. Returns HS_DONE when the
 * data-end marker was read, HS_TRUNCATED when the log stops without it
 * (hs_reader_error() then holds a warning with the offset of the cut: the
 * events already delivered are all the complete ones), or the sticky error
 * (HS_ERR_TRUNCATED_HEADER when the input ended inside the header).
 */
HS_API int hs_reader_finish(hs_reader *r);

/*
 * The first error, or after HS_TRUNCATED the truncation warning; code is
 * HS_OK when there is neither. Valid until the reader is freed.
 */
HS_API const hs_error *hs_reader_error(const hs_reader *r);

/*
 * A sentence about bytes the reader skipped, or NULL when it skipped none:
 * a block marker at byte 0, ahead of the header, as GHC 9.0 sends it to a
 * later client of the eventlog-socket library. The events read are those
 * of the log without it (their offsets count it). Static storage.
 */
HS_API const char *hs_reader_warning(const hs_reader *r);

/*
 * When false, hs_reader_next() only frames events (tag, time, cap, offset,
 * payload) and leaves `known` false, which is faster for counting. Default
 * true.
 */
HS_API void hs_reader_set_decode(hs_reader *r, bool decode);

/*
 * Decodes only the n tags listed; other events are framed only (`known`
 * false), which costs far less when most of a log is of no interest, as
 * scheduler events are to a heap report. hs_reader_set_decode() undoes
 * it. tags may be NULL when n is 0 (then nothing is decoded).
 */
HS_API void hs_reader_decode_only(hs_reader *r, const uint16_t *tags,
                                  size_t n);

/*
 * When true, cost-centre stacks of sample events (HEAP_PROF_SAMPLE_COST_CENTRE,
 * PROF_SAMPLE_COST_CENTRE) come only as `stack_raw`, with `stack` NULL,
 * which saves converting ids for a caller that keys on the bytes, as the
 * census does. Default false.
 */
HS_API void hs_reader_set_raw_stacks(hs_reader *r, bool raw_only);

/* Bytes consumed from the stream so far. */
HS_API uint64_t hs_reader_offset(const hs_reader *r);

/*
 * What the header declared for `tag`: returns true and sets *size (payload
 * bytes, or -1 for variable size) and *desc (the header's description,
 * valid until the reader is freed; may be empty; only its first 255 bytes
 * are kept, a bound on memory that every real header fits within) when it
 * was declared.
 * Either out pointer may be NULL.
 */
HS_API bool hs_reader_event_type(const hs_reader *r, uint16_t tag,
                                 int *size, hs_str *desc);

/* True once the whole header has been read. */
HS_API bool hs_reader_header_done(const hs_reader *r);

/*
 * GHC's name of an event tag without the EVENT_ prefix (e.g.
 * "HEAP_PROF_SAMPLE_STRING"), or NULL for a tag heapscope has no name for.
 * Static storage.
 */
HS_API const char *hs_event_name(uint16_t tag);

/* Called by hs_read_fd() per event; a non-zero return stops reading and
 * becomes hs_read_fd()'s result. */
typedef int (*hs_event_fn)(void *user, const hs_event *ev);

/*
 * Reads fd (owned by the caller, left open) from its current position to
 * its end through the reader, calling fn for every event: a regular file
 * is mapped, anything else read in large blocks. Returns HS_DONE,
 * HS_TRUNCATED, fn's non-zero return, or a negative error, always also
 * recorded in hs_reader_error() (HS_ERR_IO with errno preserved for a
 * failed read; HS_ERR_NOMEM). Works on files, pipes and sockets alike.
 */
HS_API int hs_read_fd(hs_reader *r, int fd, hs_event_fn fn, void *user);

/*
 * Reads fd as hs_read_fd() does, but only counts the events: adds to
 * counts[tag] (65,536 entries, one per tag; block markers under theirs)
 * the number of events of each tag. Events the reader is set to decode
 * are decoded (and checked) first, so call hs_reader_set_decode(r, false)
 * to count at the speed of framing alone. Returns as hs_read_fd().
 */
HS_API int hs_read_fd_count(hs_reader *r, int fd, uint64_t *counts);

#ifdef __cplusplus
}
#endif

#endif
