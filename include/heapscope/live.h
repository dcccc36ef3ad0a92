/*
 * heapscope/live.h: following a running program's eventlog.
 *
 * Three pieces, used together by `heapscope watch` and usable apart:
 *
 *   hs_live_source  where the bytes come from: a file still being written
 *                   (followed as it grows), a FIFO or standard input, or a
 *                   Unix or TCP socket of a program that streams its
 *                   eventlog with the eventlog-socket library;
 *   hs_live         the stream's state: the reader, the census and the GC
 *                   summary fed incrementally, the figures of a status
 *                   line, and the compaction that bounds memory;
 *   hs_live_server  an HTTP server (libmicrohttpd) that serves snapshots
 *                   the reader's thread rendered, so that a slow or vanished
 *                   client never holds the census.
 *
 *     hs_live_source *src = hs_live_source_open("unix:/tmp/prog.sock", &o, &err);
 *     hs_live *l = hs_live_new();
 *     for (;;) {
 *         st = hs_live_source_read(src, buf, sizeof buf, 100, &got);
 *         if (got && hs_live_feed(l, buf, got) != HS_OK) break; // end or error
 *         if (st == HS_DONE || st < 0) break;
 *         every second: hs_live_get_metrics(l, &m); show(&m);
 *     }
 *     st = hs_live_finish(l);   // HS_DONE, HS_TRUNCATED or an error
 *
 * Threads: an hs_live and an hs_live_source belong to one thread; only the
 * hs_live_server calls are safe from any thread.
 */
#ifndef HEAPSCOPE_LIVE_H
#define HEAPSCOPE_LIVE_H

#include "common.h"
#include "census.h"
#include "render.h"
#include "summary.h"

#ifdef __cplusplus
extern "C" {
#endif

/* --- sources ---------------------------------------------------------- */

typedef enum hs_live_source_kind {
    HS_LIVE_FILE = 0,    /* a regular file, followed as it grows */
    HS_LIVE_STREAM = 1,  /* a FIFO, a terminal or standard input */
    HS_LIVE_UNIX = 2,    /* unix:PATH */
    HS_LIVE_TCP = 3      /* tcp:HOST:PORT */
} hs_live_source_kind;

typedef struct hs_live_source_options {
    size_t size;  /* sizeof as the caller knew it; set by _init (common.h) */
    double idle_seconds;  /* file: end after this long without growth; 0 never */
    int pid;              /* file: end once this process has exited; 0 none */
} hs_live_source_options;

/* Fills opt with the defaults: never end on idleness, follow no process. */
HS_API void hs_live_source_options_init_size(hs_live_source_options *opt, size_t size);
static inline void hs_live_source_options_init(hs_live_source_options *opt)
{
    hs_live_source_options_init_size(opt, sizeof *opt);
}

typedef struct hs_live_source hs_live_source;

/*
 * Opens a source named by `spec`: "-" (standard input), "unix:PATH",
 * "tcp:HOST:PORT", or a path (a regular file is followed as it grows; a
 * FIFO is read to its end). opt may be NULL. Returns NULL with *err set
 * (HS_ERR_IO, message naming the source and the system's reason;
 * HS_ERR_INVALID for a malformed spec; HS_ERR_NOMEM). Free with
 * hs_live_source_close().
 */
HS_API hs_live_source *hs_live_source_open(const char *spec,
                                           const hs_live_source_options *opt,
                                           hs_error *err);

/* Closes the source (not standard input's descriptor); NULL is harmless. */
HS_API void hs_live_source_close(hs_live_source *s);

/* What kind of source `spec` named: a file, a stream, or a socket. */
HS_API hs_live_source_kind hs_live_source_kind_of(const hs_live_source *s);

/*
 * Waits up to timeout_ms for bytes and reads at most cap of them into buf,
 * setting *got. Returns HS_OK (*got > 0), HS_NEED_INPUT (nothing arrived
 * in time; *got 0), HS_DONE (the input ended: end of file of a stream, a
 * socket the program closed, a followed file once --idle passed or the
 * --pid process is gone and every byte is read), or HS_ERR_IO with *err
 * set. A signal interrupting the wait returns HS_NEED_INPUT.
 */
HS_API int hs_live_source_read(hs_live_source *s, void *buf, size_t cap,
                               int timeout_ms, size_t *got, hs_error *err);

/*
 * For a socket source whose run ended (HS_DONE, or the data-end marker
 * read): closes the connection if still open, then tries to connect again
 * (the program restarted) for up to timeout_ms. Returns HS_OK (connected: the stream
 * starts again with its header), HS_NEED_INPUT (not yet), HS_ERR_INVALID
 * for other sources.
 */
HS_API int hs_live_source_reconnect(hs_live_source *s, int timeout_ms);

/*
 * For a socket source: writes eventlog-socket's control message
 * requestHeapCensus (bytes F0 9E 97 8C, version 0, the namespace
 * "eventlog-socket" with its length 15 before it, command 5), asking the
 * program for a heap census now. Returns HS_OK, HS_ERR_INVALID for other
 * sources, HS_ERR_IO when the socket cannot take it.
 */
HS_API int hs_live_source_request_census(hs_live_source *s);

/* The control message itself, for tests: returns its length (22) and
 * points *msg at static bytes. */
HS_API size_t hs_live_census_request_bytes(const uint8_t **msg);

/* --- the stream's state ----------------------------------------------- */

typedef struct hs_live hs_live;

/* A new state, or NULL when out of memory. The census and the summary
 * allocate through `alloc` (copied; NULL: the C library's). */
HS_API hs_live *hs_live_new(void);
HS_API hs_live *hs_live_new_with(const hs_allocator *alloc);

/* Frees the state, its census and summary; NULL is harmless. */
HS_API void hs_live_free(hs_live *l);

/* Cuts -hc names as +RTS -L does (see hs_census_set_name_limit). Before
 * the first feed. */
HS_API void hs_live_set_name_limit(hs_live *l, unsigned limit);

/*
 * Bounds the census: once it holds max_samples samples, all but the
 * latest keep_recent are merged pairwise into buckets (see
 * hs_census_compact()). The time profile's samples (a tick per
 * capability) are merged then to the same horizon, and also once
 * 16 * max_samples of them are raw (all but the latest half), into
 * records of (time bucket, stack, capability) weighing their ticks
 * (hs_census_tprof_sample_weight()): at most 16 * max_samples records,
 * buckets a whole number of ticks wide that double as needed
 * (hs_census_tprof_bucket_ns()). Tick totals per stack and capability
 * (folded --source time) stay exact; windows before the horizon (top,
 * the page's profile over time, speedscope's order) are resolved to a
 * bucket. 0 (the default) never compacts, and then the final census
 * equals the batch commands' one. keep_recent < max_samples.
 */
HS_API void hs_live_set_compaction(hs_live *l, size_t max_samples,
                                   size_t keep_recent);

/*
 * Feeds the next bytes of the stream through the reader into the census
 * and the summary. The bytes are not kept. Returns HS_OK, HS_DONE once the
 * data-end marker was read (bytes after it are ignored), or a negative
 * error, sticky, described by hs_live_error() (a malformed stream:
 * HS_ERR_BAD_MAGIC and the like with the byte offset; HS_ERR_NOMEM).
 */
HS_API int hs_live_feed(hs_live *l, const void *data, size_t len);

/*
 * Ends the stream: finishes the census and the summary. Returns HS_DONE
 * (the log was complete), HS_TRUNCATED (hs_live_error() holds the warning
 * with the offset of the cut; everything before it is in the census), or
 * a negative error. Call once.
 */
HS_API int hs_live_finish(hs_live *l);

/* The first error, or after HS_TRUNCATED the warning; code HS_OK when
 * there is neither. Valid until the state is freed. */
HS_API const hs_error *hs_live_error(const hs_live *l);

/*
 * The census and the summary being built. Before hs_live_finish() the
 * census is unfinished (an open sample may still take entries) and
 * pointers into it last until the next hs_live_feed(). Owned by l.
 */
HS_API hs_census *hs_live_census(const hs_live *l);
HS_API hs_summary *hs_live_summary(const hs_live *l);

/* The figures of one status line. */
#define HS_LIVE_MAX_GENS 8
#define HS_LIVE_TOP_BANDS 3

typedef struct hs_live_metrics {
    uint64_t bytes;            /* bytes of the stream fed so far */
    uint64_t events;
    uint64_t elapsed_ns;       /* latest event time: the program's clock */
    bool has_heap_size, has_live, has_blocks, has_allocated;
    uint64_t heap_size;        /* latest HEAP_SIZE */
    uint64_t live;             /* latest HEAP_LIVE */
    uint64_t blocks;           /* latest BLOCKS_SIZE */
    uint64_t allocated;        /* bytes allocated, summed over capabilities */
    double alloc_rate;         /* bytes per program second over the last
                                  one to two seconds of its clock; after
                                  hs_live_finish(), over the whole run */
    uint32_t n_gens;           /* at most HS_LIVE_MAX_GENS shown */
    uint32_t collections[HS_LIVE_MAX_GENS];
    uint64_t pause_ns[HS_LIVE_MAX_GENS];  /* total pause per generation */
    uint64_t max_pause_ns;     /* longest pause so far */
    size_t samples;            /* complete censuses (heap samples) */
    uint64_t census_time_ns;   /* the last complete census */
    uint64_t census_total;
    size_t n_top;              /* its largest bands, largest first */
    uint32_t top_band[HS_LIVE_TOP_BANDS];
    uint64_t top_bytes[HS_LIVE_TOP_BANDS];
    size_t markers;
    bool compacted;            /* older samples were merged into buckets */
    uint64_t compacted_until_ns; /* samples before this time are buckets:
                                  heap censuses (up to) and time-profile
                                  ticks, counted per bucket of
                                  hs_census_tprof_bucket_ns(), so windows
                                  of the time profile before it are as
                                  precise as that */
} hs_live_metrics;

/*
 * Fills *m with the figures so far (a summary snapshot: cost grows with
 * capabilities and generations only, plus the last census's bands).
 * Returns HS_OK or a sticky error.
 */
HS_API int hs_live_get_metrics(hs_live *l, hs_live_metrics *m);

/*
 * Why a stream shows GC events but no heap census yet, in words for a
 * person (they say how GHC flushes its eventlog and how to make it flush
 * sooner; for a socket source, how eventlog-socket is asked for a census),
 * or NULL when *m has a census or no GC figures. `heapscope watch` shows
 * it once the stream has gone a few seconds so. Static text.
 */
HS_API const char *hs_live_census_hint(const hs_live_metrics *m,
                                       hs_live_source_kind kind);

/*
 * Writes the metrics in Prometheus' text exposition format (version
 * 0.0.4): heapscope_heap_size_bytes, heapscope_live_bytes,
 * heapscope_blocks_bytes, heapscope_allocated_bytes_total,
 * heapscope_collections_total{gen}, heapscope_pause_seconds_total{gen},
 * heapscope_max_pause_seconds, heapscope_census_total_bytes,
 * heapscope_census_band_bytes{band} for the top_bands largest bands of the
 * last census, heapscope_merged_before_seconds (after compaction),
 * heapscope_census_samples, heapscope_markers,
 * heapscope_events_total, heapscope_stream_bytes_total,
 * heapscope_elapsed_seconds. Label values are escaped (backslash, quote,
 * line feed) and UTF-8: a byte of a band name that is not gives U+FFFD.
 * Figures the log lacks are left out. HS_OK or HS_ERR_IO.
 */
HS_API int hs_live_render_prometheus(hs_live *l, const hs_live_metrics *m,
                                     hs_sink *out, unsigned top_bands);

/*
 * Writes *m as one JSON object on one line, ending in a newline, with
 * `state` ("running", "done", "truncated", "error") and band names as JSON
 * strings (valid UTF-8: a byte of a name that is not gives \ufffd).
 * HS_OK or HS_ERR_IO.
 */
HS_API int hs_live_render_json(const hs_live *l, const hs_live_metrics *m,
                               hs_sink *out, const char *state);

/*
 * The same with an "error" member last when error is neither NULL nor
 * empty: the stream's error for /status.json, as one JSON string.
 */
HS_API int hs_live_render_status(const hs_live *l, const hs_live_metrics *m,
                                 hs_sink *out, const char *state,
                                 const char *error);

/* --- the HTTP server -------------------------------------------------- */

typedef enum hs_live_snap {
    HS_SNAP_PAGE = 0,     /* /            text/html (see page.h) */
    HS_SNAP_METRICS = 1,  /* /metrics     Prometheus text */
    HS_SNAP_CSV = 2,      /* /census.csv  text/csv */
    HS_SNAP_SUMMARY = 3,  /* /summary.json */
    HS_SNAP_CHART = 4,    /* /chart.svg */
    HS_SNAP_STATUS = 5,   /* /status.json: the last status line */
    HS_SNAP_DATA = 6,     /* /data.json   the page's data document */
    HS_SNAP_COUNT = 7
} hs_live_snap;

typedef struct hs_live_server hs_live_server;

/*
 * Starts serving on addr:port (addr NULL: 127.0.0.1; port 0: any free
 * port, see hs_live_server_port()) in threads of its own, at most
 * max_connections at once (0: 256), half of them from one address, each
 * closed after 4 s without progress, so that slow clients trickling their
 * headers never keep a normal request from being served. Serves only the
 * snapshots above (GET and HEAD; other methods 405 with an Allow header),
 * at exactly their paths as sent, nothing from the file system. Returns
 * NULL with *err set: HS_ERR_IO naming the address and the reason (the
 * port is taken: "Address already in use"), HS_ERR_INVALID for a bad
 * address or a build without libmicrohttpd.
 */
HS_API hs_live_server *hs_live_server_start(const char *addr, unsigned port,
                                            unsigned max_connections,
                                            hs_error *err);

/* Whether this build has the HTTP server (libmicrohttpd). */
HS_API bool hs_live_server_available(void);

/* The port it listens on. */
HS_API unsigned hs_live_server_port(const hs_live_server *s);

/*
 * The snapshots clients wait for: a bit (1u << kind) per kind asked for
 * since it was last published or invalidated. The reader's thread calls it
 * often, renders those and publishes them; a request waits at most 3 s,
 * then gets the previous snapshot, or 503 when there is none.
 */
HS_API unsigned hs_live_server_wanted(hs_live_server *s);

/* Marks every snapshot stale: the next request of each asks for a new one
 * (published ones are still served while waiting). */
HS_API void hs_live_server_invalidate(hs_live_server *s);

/*
 * Publishes a snapshot: the server copies data (len bytes). Returns HS_OK
 * or HS_ERR_NOMEM.
 */
HS_API int hs_live_server_publish(hs_live_server *s, hs_live_snap kind,
                                  const void *data, size_t len);

/* Stops serving and frees the server; NULL is harmless. */
HS_API void hs_live_server_stop(hs_live_server *s);

#ifdef __cplusplus
}
#endif

#endif
