/*
 * heapscope/common.h: status codes, error records and small types shared by
 * every part of libheapscope.
 *
 * Every fallible call returns an int status: HS_OK (0) or a positive
 * informational code on success, a negative HS_ERR_* code on failure.
 * Objects that can fail keep the first error together with where it
 * happened (hs_reader_error, hs_census_error, hs_summary_error: the first
 * error explains, later ones are consequences); out of memory also stops
 * all further work (sticky). hs_strerror() names a code.
 *
 * Names: hs_NOUN_VERB for calls (hs_census_free, hs_reader_feed); a getter
 * is hs_NOUN_THING (hs_census_band_name, hs_summary_error), written
 * hs_NOUN_get_THING only where hs_NOUN_THING is already a type
 * (hs_census_get_info returns an hs_census_info, hs_summary_get_stats an
 * hs_summary_stats). Options structs the caller allocates are filled with
 * their defaults by hs_NOUN_options_init().
 *
 * Options structs grow without breaking callers. Each starts with
 * `size_t size`, the struct's size as the caller's header declared it:
 * hs_NOUN_options_init() is an inline function of the header that passes
 * sizeof to the library's hs_NOUN_options_init_size(). A library newer
 * than the caller's header reads only the fields the caller knew and takes
 * its defaults for the rest; a library older than the header refuses
 * (HS_ERR_INVALID) options that set a field it does not know, as it does
 * options whose size was never set. So: always start from _init, then
 * set fields by name. Fields are only added at the end of a struct, within
 * a soname (docs/ARCHITECTURE.md, "The ABI").
 *
 * Renderers take (model, sink, options): hs_render_csv_with(c, out, opt);
 * constructors are hs_NOUN_new(...) with hs_NOUN_new_with(..., alloc)
 * beside them where an allocator can be given.
 */
#ifndef HEAPSCOPE_COMMON_H
#define HEAPSCOPE_COMMON_H

#include <stddef.h>
#include <stdint.h>
#include <stdbool.h>

#include "heapscope/version.h"

#ifdef __cplusplus
extern "C" {
#endif

#if defined(HEAPSCOPE_BUILDING) && defined(__GNUC__)
#define HS_API __attribute__((visibility("default")))
#else
#define HS_API
#endif

/*
 * Status codes. Every fallible call returns one: HS_OK or an informational
 * code (positive: a success that says what happened), or an error code
 * (negative). Test for failure with `st < 0` or HS_IS_ERROR(st).
 */
enum {
    HS_OK = 0,
    /* informational */
    HS_NEED_INPUT = 1,      /* reader: no complete event in the input so far */
    HS_EVENT = 2,           /* reader: an event was produced */
    HS_DONE = 3,            /* reader: the data-end marker was read */
    HS_TRUNCATED = 4        /* input ended without a data-end marker; what
                               came before it is kept (a warning) */
};

enum {
    /* errors */
    HS_ERR_BAD_MAGIC = -1,        /* not an eventlog / wrong magic number */
    HS_ERR_BAD_HEADER = -2,       /* malformed event-type table */
    HS_ERR_UNDECLARED_TAG = -3,   /* event tag missing from the header */
    HS_ERR_BAD_SIZE = -4,         /* absurd declared size or length */
    HS_ERR_MALFORMED_EVENT = -5,  /* payload inconsistent with its layout */
    HS_ERR_TRUNCATED_HEADER = -6, /* input ended before the first event */
    HS_ERR_NOMEM = -7,            /* allocation failed */
    HS_ERR_IO = -8,               /* read or write failed (see errno) */
    HS_ERR_MISUSE = -9,           /* API called out of order */
    HS_ERR_PARSE = -10,           /* a text input (.hp) is malformed */
    HS_ERR_NO_DATA = -11,         /* the input has nothing of what was asked */
    HS_ERR_INVALID = -12          /* a bad argument or option value */
};

#define HS_IS_ERROR(code) ((code) < 0)

/* The version of the library linked ("0.3.0"), which may differ from the
 * headers' HS_VERSION_STRING; a static string. */
HS_API const char *hs_version(void);

/* The version of the library linked as one number, HS_VERSION_NUMBER's
 * (10000 * major + 100 * minor + patch), for a run-time check such as
 * hs_version_number() >= HS_VERSION_NUMBER. */
HS_API unsigned hs_version_number(void);

/* A static English name of a status code; never NULL. */
HS_API const char *hs_strerror(int code);

/*
 * Where and what went wrong, or (code > 0, e.g. HS_TRUNCATED) a warning
 * about what was kept. `offset` is the byte offset of the first byte
 * that could not be accepted (for text inputs, `line` is set instead and
 * offset is the line's first byte). `event_index` is the 0-based index of
 * the event being read (UINT64_MAX when the error is in the header).
 * `message` is a complete sentence without the file name, which the caller
 * knows and prepends.
 *
 * An object keeps its first error (a later one is returned, not recorded;
 * out of memory, once recorded, stays); a warning gives way to what comes
 * after it. A call that takes an `hs_error *err` empties it first and
 * fills it whole on a failure or warning; err may be NULL.
 */
typedef struct hs_error {
    int code;
    uint64_t offset;
    uint64_t event_index;
    uint64_t line;
    char message[256];
} hs_error;

/* A byte string that is not NUL-terminated; it may hold any byte. */
typedef struct hs_str {
    const char *ptr;
    size_t len;
} hs_str;

/*
 * Where an object's memory comes from. Every allocation the library makes
 * for an object created by a `..._new_with(const hs_allocator *)` call goes
 * through these three functions (as expat's XML_Memory_Handling_Suite), so
 * an embedder can account for memory and a test can make the n-th
 * allocation fail. realloc_fn and free_fn are called only with pointers
 * the same allocator returned; free_fn(user, NULL) must be harmless.
 * Objects copy the struct: it need not outlive the `_new_with` call that
 * takes it (only `user` must stay valid). The one exception is hs_membuf,
 * a caller-allocated struct that keeps the pointer (sink.h). A NULL
 * allocator, and the plain `..._new()` calls, mean the C library's.
 */
typedef struct hs_allocator {
    void *(*malloc_fn)(void *user, size_t size);
    void *(*realloc_fn)(void *user, void *ptr, size_t size);
    void (*free_fn)(void *user, void *ptr);
    void *user;
} hs_allocator;

/*
 * The length of the UTF-8 character at p (1 for ASCII, 2 to 4), or 0
 * when the n bytes at p do not start with a valid, complete, shortest-form
 * character (n == 0, a stray continuation byte, a surrogate, a sequence
 * cut by the end). Used wherever text must be shown or embedded exactly.
 */
HS_API size_t hs_utf8_char_len(const char *p, size_t n);

/*
 * Writes bytes in binary units to three significant digits ("812 B",
 * "9.53 KiB", "12.4 MiB", "124 GiB"; up to PiB) into buf (at most size
 * bytes, NUL-terminated; 16 suffice).
 * Returns buf.
 */
HS_API char *hs_format_bytes(char *buf, size_t size, double bytes);

/*
 * Heap profile breakdowns (+RTS -hc, -hd, ...), as HEAP_PROF_BEGIN carries
 * them: a vocabulary of every part, the reader's, the census's and the
 * renderers'.
 */
enum {
    HS_BREAKDOWN_COST_CENTRE = 1,  /* -hc */
    HS_BREAKDOWN_MODULE = 2,       /* -hm */
    HS_BREAKDOWN_CLOSURE_DESCR = 3,/* -hd */
    HS_BREAKDOWN_TYPE_DESCR = 4,   /* -hy */
    HS_BREAKDOWN_RETAINER = 5,     /* -hr */
    HS_BREAKDOWN_BIOGRAPHY = 6,    /* -hb */
    HS_BREAKDOWN_CLOSURE_TYPE = 7, /* -hT */
    HS_BREAKDOWN_INFO_TABLE = 8,   /* -hi */
    HS_BREAKDOWN_ERA = 9           /* -he */
};

/* The flag letter of a breakdown ("hc", "hd", ...), or "h?"; static storage. */
HS_API const char *hs_breakdown_flag(uint32_t breakdown);

/* A description of a breakdown ("cost centre stack", ...); static storage. */
HS_API const char *hs_breakdown_name(uint32_t breakdown);

#ifdef __cplusplus
}
#endif

#endif
