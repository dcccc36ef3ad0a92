/*
 * The push-fed .hp parser (read_hp.c). It knows the text format only and
 * hands what it parses to a table of callbacks; load/load.c
 * connects them to the census builder. Not part of the public surface.
 */
#ifndef HEAPSCOPE_READ_HP_H
#define HEAPSCOPE_READ_HP_H

#include "heapscope/common.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* A band line as the runtime writes it, "name<TAB>digits\n", read in place:
 * name[0 .. len) (the line's first byte) and its bytes. */
typedef struct hs_hp_band {
    const char *name;
    size_t len;
    uint64_t bytes;
} hs_hp_band;

/*
 * What the parser reports, in file order. Each callback returns HS_OK or
 * an error code (HS_ERR_NOMEM, ...), which stops the parser and becomes
 * its sticky error. The runtime's empty opening sample at time 0 and its
 * empty closing sample at the end time are format, not data: they are
 * not reported (the closing one's time is the end time in hs_hp_facts).
 */
typedef struct hs_hp_callbacks {
    void *user;
    int (*sample_begin)(void *user, uint64_t time_ns);
    /* A band line: name[0 .. len) (any bytes but a line break, never
     * empty) and its bytes. */
    int (*band)(void *user, const char *name, size_t len, uint64_t bytes);
    int (*sample_end)(void *user);
    int (*mark)(void *user, uint64_t time_ns);
    /* A warning sentence about the input (times going backwards, ...). */
    void (*warn)(void *user, const char *message);
    /* A run of n >= 1 band lines of one sample, all whole in the chunk,
     * as n calls of band would give them: the lines the fast path reads
     * (band gets the others). On an error *done is the number of lines
     * taken before the one that failed. */
    int (*bands)(void *user, const hs_hp_band *lines, size_t n,
                 size_t *done);
} hs_hp_callbacks;

/* The header facts, known at the end; strings owned by the parser, valid
 * until it is freed, NULL when the file had no such line. */
typedef struct hs_hp_facts {
    const char *job;
    const char *date;
    uint32_t breakdown;   /* from the JOB's -h flag, 0 = unknown */
    uint64_t end_ns;      /* time of the last END_SAMPLE */
} hs_hp_facts;

typedef struct hs_hp_parser hs_hp_parser;

/* A parser reporting to *cb (copied), allocating through alloc (copied;
 * NULL = the C library). NULL when out of memory. */
hs_hp_parser *hs__hp_parser_new(const hs_hp_callbacks *cb,
                                const hs_allocator *alloc);
void hs__hp_parser_free(hs_hp_parser *p);

/* Parses len bytes (any chunk size). HS_OK or a sticky error: HS_ERR_PARSE
 * with err->line, err->offset and a message whose quoted input has its
 * control bytes escaped; HS_ERR_NOMEM; a callback's error. */
int hs__hp_parser_feed(hs_hp_parser *p, const void *data, size_t len,
                       hs_error *err);

/*
 * Ends the input and fills *facts. HS_OK; HS_TRUNCATED when the file ends
 * inside a sample (the sample was reported without its end, for the caller
 * to leave out) or in the middle of a line that does not parse (left out);
 * *err holds the warning. Or an error as for feed (a file with no
 * heap-profile line at all is HS_ERR_PARSE).
 */
int hs__hp_parser_finish(hs_hp_parser *p, hs_hp_facts *facts, hs_error *err);

#endif
