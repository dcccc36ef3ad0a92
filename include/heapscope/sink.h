/*
 * heapscope/sink.h: where renderers and the summary write. A sink is a
 * small table of functions, so the same writer serves a file, memory in a
 * test, or a pipe (GHC's EventLogWriter is the model). This is part of
 * common: the readers, the census and the summary may use it without
 * depending on the renderers.
 */
#ifndef HEAPSCOPE_SINK_H
#define HEAPSCOPE_SINK_H

#include "common.h"

#ifdef __cplusplus
extern "C" {
#endif

/*
 * Where output goes. write() returns 0 on success, non-zero on failure
 * (errno set), after which the renderer stops with HS_ERR_IO.
 */
typedef struct hs_sink {
    int (*write)(void *ctx, const void *data, size_t len);
    void *ctx;
} hs_sink;

/* Writes all of data; returns HS_OK or HS_ERR_IO. */
HS_API int hs_sink_write(hs_sink *s, const void *data, size_t len);

/* printf to a sink; returns HS_OK, HS_ERR_IO or HS_ERR_NOMEM. A line
 * longer than 512 bytes borrows a buffer from the allocator of the output
 * or membuf the sink belongs to (the C library's for other sinks). */
HS_API int hs_sink_printf(hs_sink *s, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

/*
 * An output file written atomically: the data goes to a temporary file
 * beside `path` (mode 0666 less the umask, or the mode of the file it
 * replaces), which hs_output_commit() renames over `path`, and
 * hs_output_abort() removes; until the commit an existing file at `path`
 * is left whole. A device or FIFO at `path` is written in place. A path of
 * "-" or NULL writes to standard output instead (commit flushes it).
 * Returns NULL with *err set (err may be NULL): HS_ERR_IO when the file
 * cannot be created, HS_ERR_NOMEM when out of memory. No process-wide
 * state (umask, stdio buffers of other files) is touched.
 */
typedef struct hs_output hs_output;
HS_API hs_output *hs_output_open(const char *path, hs_error *err);

/* The same, allocating through `alloc` (copied; NULL: the C library's). */
HS_API hs_output *hs_output_open_with(const char *path,
                                      const hs_allocator *alloc,
                                      hs_error *err);

/* The output's sink; valid until commit or abort. */
HS_API hs_sink *hs_output_sink(hs_output *o);

/* Flushes, closes and renames; frees o. HS_OK, or HS_ERR_IO (HS_ERR_NOMEM
 * when the kernel ran out of memory) with *err set and the temporary file
 * removed. */
HS_API int hs_output_commit(hs_output *o, hs_error *err);

/* Closes and removes the temporary file; frees o. NULL is harmless. */
HS_API void hs_output_abort(hs_output *o);

/*
 * hs_output_abort() after writing into o's sink failed with `status`,
 * setting *err (may be NULL) to "cannot write PATH: CAUSE" (PATH
 * "standard output" for "-"): for HS_ERR_IO the cause the system gave for
 * the output's first failed write ("No space left on device"), else
 * hs_strerror(status). Returns the status to report: `status`, or
 * HS_ERR_NOMEM when the kernel ran out of memory.
 */
HS_API int hs_output_fail(hs_output *o, int status, hs_error *err);

/*
 * A growing in-memory sink (for tests and embedding). A zeroed hs_membuf
 * uses the C library's allocator; hs_membuf_init() sets another. Unlike
 * the objects of `_new_with` calls, which copy their allocator (common.h),
 * a membuf keeps the pointer: that allocator must outlive the membuf.
 */
typedef struct hs_membuf {
    char *data;   /* NUL-terminated, owned; free with hs_membuf_free() */
    size_t len, cap;
    const hs_allocator *alloc;
} hs_membuf;

/* Empties *m and makes it allocate through alloc (NULL: the C library's). */
HS_API void hs_membuf_init(hs_membuf *m, const hs_allocator *alloc);

/* A sink appending to m; write fails with ENOMEM when out of memory. */
HS_API hs_sink hs_membuf_sink(hs_membuf *m);

/* Frees m's data and empties it; NULL is harmless. */
HS_API void hs_membuf_free(hs_membuf *m);

#ifdef __cplusplus
}
#endif

#endif
