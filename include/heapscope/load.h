/*
 * heapscope/load.h: telling the input formats apart by their first bytes.
 * hs_census_load_fd() (census.h) loads any of them by this rule; a caller
 * that reads an input itself (a command printing its events, the Mono
 * summary) asks the same question here.
 */
#ifndef HEAPSCOPE_LOAD_H
#define HEAPSCOPE_LOAD_H

#include "common.h"

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

#ifdef __cplusplus
}
#endif

#endif
