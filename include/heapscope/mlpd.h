/*
 * heapscope/mlpd.h: a push-fed streaming decoder for Mono log-profiler
 * files (.mlpd: `mono --profile=log`, log format 3.0, data version 17, as
 * Mono 6.x writes it), plain or gzip-compressed (the profiler's `zip`).
 *
 * It has the shape of the eventlog reader (reader.h): the caller hands it
 * chunks of any size with hs_mlpd_reader_feed() and pulls typed events with
 * hs_mlpd_reader_next(). A gzip stream (told apart by its first byte) is
 * inflated as it arrives. Memory is bounded by one profiler buffer (64 KiB
 * as Mono writes them, at most HS_MLPD_MAX_BUFFER) plus a few counters,
 * whatever the file's size.
 *
 *     hs_mlpd_reader *r = hs_mlpd_reader_new();
 *     while ((n = read(fd, buf, sizeof buf)) > 0) {
 *         hs_mlpd_reader_feed(r, buf, n);
 *         while ((st = hs_mlpd_reader_next(r, &ev)) == HS_EVENT)
 *             use(&ev);
 *         if (st < 0) break;
 *     }
 *     st = hs_mlpd_reader_finish(r);   // HS_DONE, HS_TRUNCATED or an error
 *     hs_mlpd_reader_free(r);
 *
 * What the reader resolves: times (nanoseconds, CLOCK_MONOTONIC, the
 * per-buffer deltas added up), pointers (`ptr_base + delta`), object
 * addresses (`(obj_base + delta) << 3`) and methods (the running method
 * value of the buffer). What it leaves to the caller: names, which arrive
 * in METADATA and METHOD_JIT events keyed by pointer, possibly after the
 * first use of that pointer (mlpd_census.h: the census of an .mlpd).
 *
 * Errors and warnings: a file that is not an .mlpd, an unsupported version
 * or a corrupt buffer header is a sticky error with its byte offset. A
 * buffer whose events hold an unexpected value (an unknown event byte, a
 * field running past the buffer's end) is abandoned from that event on
 * with a warning, and reading goes on with the next buffer, as the format
 * describes. A file cut anywhere yields every complete event before the
 * cut; hs_mlpd_reader_finish() then returns HS_TRUNCATED with a warning.
 * Offsets count bytes of the uncompressed stream.
 */
#ifndef HEAPSCOPE_MLPD_H
#define HEAPSCOPE_MLPD_H

#include "common.h"
#include "mlpd_events.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The largest buffer payload accepted (Mono writes at most 64 KiB unless a
 * single event is larger). A larger length is taken for corruption. */
#define HS_MLPD_MAX_BUFFER (16u << 20)

/* Event kinds: one per distinct layout of MLPD-NOTES.md, plus BUFFER, a
 * pseudo-event for each buffer header (mlpd_events.h lists them and the
 * event bytes that yield each). */
#define HS__MLPD_KIND_ENUM(K) HS_MLPD_##K,
typedef enum hs_mlpd_kind {
    HS_MLPD_KIND_TABLE(HS__MLPD_KIND_ENUM)
    HS_MLPD_KIND_COUNT
} hs_mlpd_kind;
#undef HS__MLPD_KIND_ENUM

/* METADATA kinds (the byte after the time delta), HS_MLPD_META_CLASS ...,
 * and actions (the event byte's high nibble), HS_MLPD_META_NAME ... */
#define HS__MLPD_META_ENUM(v, NAME, s) HS_MLPD_META_##NAME = v,
enum { HS_MLPD_META_TABLE(HS__MLPD_META_ENUM) };
enum { HS_MLPD_ACTION_TABLE(HS__MLPD_META_ENUM) };
#undef HS__MLPD_META_ENUM

/* GC_EVENT types (MonoProfilerGCEvent) that a census cares about. */
enum {
    HS_MLPD_GC_START = 0,
    HS_MLPD_GC_END = 5,
    HS_MLPD_GC_PRE_STOP_WORLD = 6,
    HS_MLPD_GC_POST_STOP_WORLD = 7,
    HS_MLPD_GC_PRE_START_WORLD = 8,
    HS_MLPD_GC_POST_START_WORLD = 9,
    HS_MLPD_GC_PRE_STOP_WORLD_LOCKED = 10,
    HS_MLPD_GC_POST_START_WORLD_UNLOCKED = 11
};

/* Counter value types (mono-counters.h). */
enum {
    HS_MLPD_COUNTER_INT = 0,
    HS_MLPD_COUNTER_UINT = 1,
    HS_MLPD_COUNTER_WORD = 2,
    HS_MLPD_COUNTER_LONG = 3,
    HS_MLPD_COUNTER_ULONG = 4,
    HS_MLPD_COUNTER_DOUBLE = 5,
    HS_MLPD_COUNTER_STRING = 6,
    HS_MLPD_COUNTER_TIME_INTERVAL = 7
};

/* The file header. Strings are NUL-terminated and owned by the reader. */
typedef struct hs_mlpd_header {
    uint8_t major, minor, data_version, ptr_size;
    uint64_t startup_ms;      /* ms since the Unix epoch (whole seconds) */
    uint64_t startup_ns;      /* CLOCK_MONOTONIC, the clock of event times */
    uint32_t timer_overhead;  /* ns */
    uint32_t flags;
    uint32_t pid;
    uint16_t port;            /* the profiler's command port */
    const char *args;         /* the --profile text after "--profile=" */
    const char *arch;
    const char *os;
} hs_mlpd_header;

/* A SAMPLE_COUNTERS_DESC entry; strings point into the buffer. */
typedef struct hs_mlpd_counter_desc {
    uint64_t section;
    const char *section_name; /* only for section 1 << 15, else NULL */
    const char *name;
    uint64_t type, unit, variance, index;
} hs_mlpd_counter_desc;

/* A SAMPLE_COUNTERS value: the change since the counter's previous sample
 * for integer types (as written), the value for DOUBLE and STRING. */
typedef struct hs_mlpd_counter_value {
    uint64_t index;
    uint64_t type;
    int64_t i;         /* INT, WORD, LONG, TIME_INTERVAL: signed delta */
    uint64_t u;        /* UINT, ULONG: unsigned delta */
    double d;          /* DOUBLE */
    const char *s;     /* STRING; NULL for a null string */
} hs_mlpd_counter_value;

/*
 * One decoded event. Pointers in it (strings, arrays) point into the
 * reader or the caller's chunk and are valid until the next call to
 * hs_mlpd_reader_next(), hs_mlpd_reader_feed() or hs_mlpd_reader_free();
 * copy what you keep. Every event has the thread of its buffer and a
 * time; a BUFFER pseudo-event has its header's fields in u.buffer.
 *
 * Backtraces (`frames`, `nframes`) are method pointers, outermost frame
 * first, the allocating method last, as the file orders them; `has_bt`
 * tells whether the event byte had its backtrace flag (a count of 0 can
 * occur with it).
 */
typedef struct hs_mlpd_event {
    hs_mlpd_kind kind;
    uint8_t byte;            /* the event byte as in the file */
    uint64_t time;           /* ns, CLOCK_MONOTONIC (header startup_ns clock) */
    uint64_t thread;         /* the buffer's thread id (pthread_t) */
    uint64_t offset;         /* byte offset of the event byte (uncompressed) */
    uint64_t size;           /* the event's bytes in the file */
    uint64_t index;          /* 0-based, among real events (not BUFFER) */
    bool has_bt;
    const uint64_t *frames;
    size_t nframes;
    union {
        struct { uint64_t len, time_base, ptr_base, obj_base,
                 method_base; } buffer;
        struct { uint64_t vtable, object, size; } alloc;
        struct { uint8_t type, generation; } gc;
        struct { uint64_t heap_size; } resize;
        /* n objects: old, new, old, new, ... */
        struct { const uint64_t *objects; size_t n; } move;
        struct { uint64_t type, handle, object; } handle;
        struct { uint64_t object; } object;   /* FINALIZE_OBJECT_*, THROW */
        struct { uint8_t kind, action;
                 uint64_t pointer;
                 uint64_t image;        /* class, assembly */
                 uint64_t domain;       /* context, vtable */
                 uint64_t klass;        /* vtable */
                 const char *name;      /* class, image, assembly, domain
                                           and thread names; else NULL */
                 const char *mvid;      /* image load */
               } meta;
        struct { uint64_t method; } method;   /* ENTER, LEAVE, EXC_LEAVE */
        struct { uint64_t method, code, code_size;
                 const char *name; } jit;
        struct { uint8_t type; uint64_t index, method,
                 object; } clause;
        struct { uint8_t type; uint64_t object; } monitor;
        /* refs: n reference pairs (byte offset into the object, object) */
        struct { uint64_t object, vtable, size; uint8_t generation;
                 const uint64_t *ref_offsets, *refs; size_t nrefs; } heap_object;
        struct { const uint64_t *addresses, *objects; size_t n; } roots;
        struct { uint64_t start, size, key; uint8_t source;
                 const char *name; } root_register;
        struct { uint64_t start; } root_unregister;
        struct { uint64_t thread; const uint64_t *ips; size_t nips;
                 /* managed frames: event.frames / nframes */ } hit;
        struct { uint64_t address, size; const char *name; } usym;
        struct { const hs_mlpd_counter_desc *descs; size_t n; } counters_desc;
        struct { const hs_mlpd_counter_value *values; size_t n; } counters;
        struct { uint8_t type; uint64_t address, size;
                 const char *name; } jithelper;
        struct { uint8_t type; } sync;
        struct { const char *id; } aot;
    } u;
} hs_mlpd_event;

/* Garbage-collector figures of an .mlpd (of a census, mlpd_census.h, or
 * of a summary read from the events, summary.h). */
typedef struct hs_mlpd_gc_stats {
    uint64_t collections[2];  /* GC_EVENT start per generation: 0 nursery,
                                 1 major */
    /* Collection times per generation, GC_EVENT start to the next end of
     * that generation on any thread (mprof-report's "GC summary" times
     * when both are on one thread; a concurrent major collection starts
     * on one thread and ends on another). */
    uint64_t gc_total_ns[2], gc_max_ns[2];
    /* World stops, pre-stop-world to post-start-world: the time mutator
     * threads were held, suspension and the heap walk of a shot included. */
    uint64_t pauses;
    uint64_t pause_total_ns, pause_max_ns;
    uint64_t max_heap_bytes;  /* largest GC_RESIZE size (in a window,
                                 also the size in force when it opens) */
    uint64_t heap_shots;
    uint64_t max_live_bytes;  /* largest heap-shot total */
    uint64_t alloc_bytes, alloc_count;
    /* Vtables used before their description arrived, and the allocations
     * made with them in the whole file: what mprof-report, which binds a
     * vtable at its first use, files under "unresolved class (nil)". */
    uint64_t late_vtables;
    uint64_t late_alloc_count, late_alloc_bytes;
    uint64_t duration_ns;     /* first buffer to last event */
    /* Collections per generation that ran concurrently: the world was
     * restarted between their start and end, so their time above is the
     * program's too, not a pause (the world stops are the pauses). */
    uint64_t concurrent[2];
} hs_mlpd_gc_stats;

typedef struct hs_mlpd_reader hs_mlpd_reader;

/* A new reader, or NULL when out of memory. Free with hs_mlpd_reader_free. */
HS_API hs_mlpd_reader *hs_mlpd_reader_new(void);

/* The same, allocating through `alloc` (copied; NULL = the C library's). */
HS_API hs_mlpd_reader *hs_mlpd_reader_new_with(const hs_allocator *alloc);

/* Frees the reader; NULL is harmless. */
HS_API void hs_mlpd_reader_free(hs_mlpd_reader *r);

/*
 * Hands the reader the next chunk. It is not copied: `data` must stay valid
 * until hs_mlpd_reader_next() returns HS_NEED_INPUT or an error. Feeding
 * while the previous chunk is not used up returns HS_ERR_MISUSE.
 */
HS_API int hs_mlpd_reader_feed(hs_mlpd_reader *r, const void *data,
                               size_t len);

/*
 * Decodes the next event into *ev. Returns HS_EVENT, HS_NEED_INPUT (feed
 * more or finish) or a negative sticky error (hs_mlpd_reader_error()).
 * An .mlpd has no end marker: the end of the input is the end of the file.
 */
HS_API int hs_mlpd_reader_next(hs_mlpd_reader *r, hs_mlpd_event *ev);

/*
 * Ends the input. Returns HS_DONE when it ended between two buffers,
 * HS_TRUNCATED when it ended inside a buffer or a compressed stream ended
 * without its trailer (hs_mlpd_reader_error() holds the warning with the
 * offset of the cut), or the sticky error (HS_ERR_TRUNCATED_HEADER when
 * the input ended inside the file header).
 */
HS_API int hs_mlpd_reader_finish(hs_mlpd_reader *r);

/* The first error, or after HS_TRUNCATED the warning; code HS_OK when
 * there is neither. Valid until the reader is freed. */
HS_API const hs_error *hs_mlpd_reader_error(const hs_mlpd_reader *r);

/* Buffers abandoned after an unexpected value so far, and the first such
 * warning (a sentence with the offset), or NULL when there was none. */
HS_API uint64_t hs_mlpd_reader_skipped(const hs_mlpd_reader *r);
HS_API const char *hs_mlpd_reader_skip_warning(const hs_mlpd_reader *r);

/* The file header once read (after the first event), else NULL. */
HS_API const hs_mlpd_header *hs_mlpd_reader_header(const hs_mlpd_reader *r);

/* True when the input is gzip-compressed (known after the first byte). */
HS_API bool hs_mlpd_reader_compressed(const hs_mlpd_reader *r);

/* Uncompressed bytes consumed so far. */
HS_API uint64_t hs_mlpd_reader_offset(const hs_mlpd_reader *r);

/* Buffers whose header was read so far. */
HS_API uint64_t hs_mlpd_reader_buffers(const hs_mlpd_reader *r);

/* The name of a kind ("ALLOC", "HEAP_OBJECT", ...); static; "?" if unknown. */
HS_API const char *hs_mlpd_kind_name(hs_mlpd_kind kind);

/* A METADATA kind's name ("class", "vtable", ...); static. */
HS_API const char *hs_mlpd_meta_name(uint8_t kind);

/*
 * The event's layout as field descriptors (mlpd_events.h), in file order:
 * what `heapscope events` walks to print an event without knowing any
 * layout. NULL for an event no row describes. Static.
 */
HS_API const hs_mlpd_event_desc *hs_mlpd_event_get_desc(const hs_mlpd_event *ev);

/* The row of the event byte (its kind and name), or NULL for a byte no
 * row has. Static. */
HS_API const hs_mlpd_event_desc *hs_mlpd_byte_desc(uint8_t byte);

/*
 * A field's value. `base` is the event, or for the element fields of
 * RECORDS and RECORDS_0 one element (hs_mlpd_field_record()).
 * hs_mlpd_field_uint: a scalar (ULEB, U8, PTR, OBJ, METHOD, CONST, SELECT,
 * FIXED, FIXED_PTR), else 0. hs_mlpd_field_str: a STR (NULL when absent),
 * else NULL. hs_mlpd_field_value_name: the name of a CONST or SELECT value
 * ("load", "class"; "?" for a value without one), else NULL.
 */
HS_API uint64_t hs_mlpd_field_uint(const void *base, const hs_mlpd_field_desc *f);
HS_API const char *hs_mlpd_field_str(const void *base, const hs_mlpd_field_desc *f);
HS_API const char *hs_mlpd_field_value_name(const void *base,
                                            const hs_mlpd_field_desc *f);

/* False when the field's condition (its `when`) left it out of the file. */
HS_API bool hs_mlpd_field_present(const void *base, const hs_mlpd_field_desc *f);

/* The elements of an array field (BT, FRAMES, COLUMNS, PAIRS, RECORDS,
 * RECORDS_0); 0 for another kind. */
HS_API size_t hs_mlpd_field_count(const void *base, const hs_mlpd_field_desc *f);

/* The values of BT or FRAMES (the event's frames), or of one element
 * field of COLUMNS or PAIRS (its column); NULL for another kind. */
HS_API const uint64_t *hs_mlpd_field_column(const void *base,
                                            const hs_mlpd_field_desc *f);

/* Element i of RECORDS or RECORDS_0, the base of its element fields;
 * NULL for another kind or i out of range. */
HS_API const void *hs_mlpd_field_record(const void *base,
                                        const hs_mlpd_field_desc *f, size_t i);

/* The counter value a COUNTER field of a record holds, else NULL. */
HS_API const hs_mlpd_counter_value *hs_mlpd_field_counter(
    const void *base, const hs_mlpd_field_desc *f);

/* True when the first n bytes (n >= 1) start an .mlpd or a gzip stream,
 * as far as n bytes can tell. */
HS_API bool hs_mlpd_sniff(const void *data, size_t n);

/* Called by hs_mlpd_read_fd() per event; non-zero stops and is returned. */
typedef int (*hs_mlpd_event_fn)(void *user, const hs_mlpd_event *ev);

/*
 * Reads fd to its end through the reader, calling fn per event, then
 * finishes. Returns HS_DONE, HS_TRUNCATED, fn's non-zero return or a
 * negative error (HS_ERR_IO with errno kept for a failed read).
 */
HS_API int hs_mlpd_read_fd(hs_mlpd_reader *r, int fd, hs_mlpd_event_fn fn,
                           void *user);

/*
 * Reads fd as hs_mlpd_read_fd() does, but only counts the events: adds to
 * counts[byte] (256 entries, one per event byte) the events of each byte
 * that hs_mlpd_reader_next() would yield (buffer headers not counted).
 * Ordinary events are stepped over without being decoded; any other goes
 * through the reader, so the counts, warnings, skipped buffers, errors
 * and their offsets are those of reading the events one by one. Returns
 * HS_DONE, HS_TRUNCATED or a negative error, as hs_mlpd_read_fd(). The
 * running values of the buffer being read (time, method) are not kept:
 * read on with hs_mlpd_reader_next() only from the next buffer.
 */
HS_API int hs_mlpd_read_fd_count(hs_mlpd_reader *r, int fd, uint64_t *counts);

#ifdef __cplusplus
}
#endif

#endif
