/*
 * heapscope/common.h: status codes, error records and small types shared by
 * every part of libheapscope.
 *
 * Every fallible call returns an int status: HS_OK (0) or a positive
 * informational code on success, a negative HS_ERR_* code on failure.
 * Objects that can fail keep the first error (sticky) together with where
 * it happened; hs_strerror() names a code.
 */
#ifndef HEAPSCOPE_COMMON_H
#define HEAPSCOPE_COMMON_H

#include <stddef.h>
#include <stdint.h>
#include <stdbool.h>

#ifdef __cplusplus
extern "C" {
#endif

#if defined(HEAPSCOPE_BUILDING) && defined(__GNUC__)
#define HS_API __attribute__((visibility("default")))
#else
#define HS_API
#endif

#define HS_VERSION_STRING "0.1.0"

/* Status codes. Non-negative values are successes. */
enum {
    HS_OK = 0,
    HS_NEED_INPUT = 1,      /* reader: no complete event in the input so far */
    HS_EVENT = 2,           /* reader: an event was produced */
    HS_DONE = 3,            /* reader: the data-end marker was read */
    HS_TRUNCATED = 4,       /* reader: input ended without a data-end marker */

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

/* A static English name of a status code; never NULL. */
HS_API const char *hs_strerror(int code);

/*
 * Where and what went wrong. `offset` is the byte offset of the first byte
 * that could not be accepted (for text inputs, `line` is set instead and
 * offset is the line's first byte). `event_index` is the 0-based index of
 * the event being read (UINT64_MAX when the error is in the header).
 * `message` is a complete sentence without the file name, which the caller
 * knows and prepends.
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

#ifdef __cplusplus
}
#endif

#endif
