/*
 * heapscope/load.h: telling the input formats apart by their first bytes,
 * and an eventlog read once for several consumers.
 * hs_census_load_fd() (census.h) loads any of them by this rule; a caller
 * that reads an input itself (a command printing its events, the Mono
 * summary) asks the same question here.
 */
#ifndef HEAPSCOPE_LOAD_H
#define HEAPSCOPE_LOAD_H

#include "census.h"
#include "common.h"
#include "reader.h"
#include "summary.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The bytes that always suffice to tell: the eventlog's magic, the .mlpd
 * file id, "JOB" and a blank. Fewer (a short file) tell what they can. */
#define HS_FORMAT_SNIFF_BYTES 4

/* What an input is, as far as its first bytes tell. */
typedef enum hs_format {
    HS_FORMAT_UNKNOWN = 0,  /* none of these (or no byte): the eventlog
                               reader names the bad magic */
    HS_FORMAT_EVENTLOG,     /* 'hdrb' (or as much of it as there is), or
                               the block marker some streams begin with */
    HS_FORMAT_HP,           /* "JOB" and a blank: a runtime .hp */
    HS_FORMAT_TEXT,         /* other text: read as a .hp, whose parser
                               names the line it did not expect */
    HS_FORMAT_MLPD,         /* a Mono log-profiler file (mlpd.h) */
    HS_FORMAT_MLPD_GZIP     /* a gzip stream, taken for a compressed .mlpd */
} hs_format;

/* The format the first n bytes of an input (data) begin, as far as n bytes
 * can tell; n may be 0 (HS_FORMAT_UNKNOWN). */
HS_API hs_format hs_format_sniff(const void *data, size_t n);

/*
 * As hs_census_load_fd(), and when the input is an eventlog every event
 * also goes to the summary s, in the same pass over the events (a report's
 * census and GC figures from one walk). s may be NULL; it is not finished
 * (call hs_summary_finish()), and a .hp or .mlpd input leaves it as it
 * was. A failure of s (out of memory) ends the load with its error in
 * *err.
 */
HS_API int hs_census_load_summary_fd(hs_census *c, hs_summary *s, int fd,
                                     hs_error *err);

/*
 * Reads the eventlog on fd, from where it stands to its end, through r
 * into the summary s: the summary's events decoded, every other one only
 * counted (r is set to decode hs_summary_event_tags() only), one pass
 * that gives the figures hs_summary_add_event() of every event would. s is not
 * finished. Returns r's outcome, HS_DONE, HS_TRUNCATED or an error
 * (described by hs_reader_error(r), with hs_reader_warning(r) beside), or
 * a failure of s (HS_ERR_NOMEM, described by hs_summary_error(s)).
 */
HS_API int hs_summary_load_fd(hs_summary *s, hs_reader *r, int fd);

/*
 * A thread the caller lends the library for one call (the library starts
 * none of its own). start runs fn(arg) in a thread of the caller's and
 * returns 0, or non-zero when it cannot (the call then does all its work
 * in the calling thread); join waits for that thread's fn to return. user
 * is handed to both. Set up by hs_thread_loan_init(): all NULL, no
 * thread.
 */
typedef struct hs_thread_loan {
    size_t size;  /* sizeof as the caller knew it; set by _init (common.h) */
    int (*start)(void *user, void (*fn)(void *arg), void *arg);
    void (*join)(void *user);
    void *user;
} hs_thread_loan;

/* Fills *l with no thread (start and join NULL). */
HS_API void hs_thread_loan_init_size(hs_thread_loan *l, size_t size);
static inline void hs_thread_loan_init(hs_thread_loan *l)
{
    hs_thread_loan_init_size(l, sizeof *l);
}

/*
 * As hs_summary_load_fd(), with a thread lent by the caller (loan may be
 * NULL: none). A regular file whose data section is blocks of two or
 * more capabilities (a threaded GHC log's) is then read in two lanes:
 * some capabilities' blocks framed in the lent thread, the rest in the
 * calling thread, each block once. The figures, messages, offsets and
 * return are those of hs_summary_load_fd(), whatever the log holds: from
 * the first thing the lanes cannot read as one pass would (a corrupt
 * block, an event across a block's end) the calling thread reads on
 * alone; and every log is read in one thread when s or r was made with
 * an allocator of the caller's (which two threads might not call at
 * once). HS_ERR_INVALID
 * (in hs_summary_error(s)) when loan was not set up by
 * hs_thread_loan_init().
 */
HS_API int hs_summary_load_fd_lent(hs_summary *s, hs_reader *r, int fd,
                                   const hs_thread_loan *loan);

/*
 * As hs_census_load_summary_fd(), with a thread lent by the caller (loan
 * may be NULL: none): an eventlog in a regular file is read in two lanes
 * as hs_summary_load_fd_lent() reads it, with the summary s or, when s
 * is NULL, for the census alone (the lent thread then only frames its
 * blocks and keeps the census's events), the census fed every event it
 * reads in file order by the calling thread; in one thread when c or s
 * was made with an allocator of the caller's.
 * The census, the summary, the messages, offsets and return are those of
 * hs_census_load_summary_fd(). HS_ERR_INVALID (in *err) when loan was
 * not set up by hs_thread_loan_init().
 */
HS_API int hs_census_load_summary_fd_lent(hs_census *c, hs_summary *s,
                                          int fd, const hs_thread_loan *loan,
                                          hs_error *err);

#ifdef __cplusplus
}
#endif

#endif
