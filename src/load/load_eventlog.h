/*
 * The one pass over an eventlog's events (load_eventlog.c), for load.c.
 * Internal to the library.
 */
#ifndef HEAPSCOPE_LOAD_EVENTLOG_H
#define HEAPSCOPE_LOAD_EVENTLOG_H

#include "heapscope/census.h"
#include "heapscope/summary.h"
#include "read/input.h"
#include "read/read_eventlog.h"

#include <stdint.h>

/* The eventlog `in` into the empty census c and, when s is not NULL, the
 * summary s in the same pass; c finished, s not. Returns as
 * hs_census_load_fd() does; a failure of s ends the load with its error in
 * *err. */
int hs__load_eventlog(hs_census *c, hs_summary *s, hs_input *in,
                      hs_error *err);

/* The same in two threads (load_par.c): the calling thread reads the
 * chunks and feeds the census, a second one frames the same chunks again
 * and feeds s (not NULL). Same results, errors and offsets as
 * hs__load_eventlog(), to which it falls back when it cannot start. */
int hs__load_eventlog_par(hs_census *c, hs_summary *s, hs_input *in,
                          hs_error *err);

/* One walk's consumers: where each tag's events go, and the failure of
 * a consumer that stopped it, with the offset of the event it failed on. */
typedef struct hs__pass {
    hs_census *c;            /* NULL: no census */
    hs_summary *s;           /* NULL: no summary */
    int census_err, summary_err; /* the failure that stopped reading */
    uint64_t fail_off;       /* the event it failed on */
    uint8_t to[256];         /* where each tag goes (the tags are < 256) */
} hs__pass;

/* Sets r to decode what c and s (either may be NULL) read, and p to hand
 * each decoded event to them (hs__pass_event, an hs_event_fn). */
void hs__pass_init(hs__pass *p, hs_reader *r, hs_census *c, hs_summary *s);
int hs__pass_event(void *p, const hs_event *ev);

/* The end of a walk of r that returned st, its tally t: the consumer's
 * failure, or the tally handed to both and the census finished, as
 * hs__load_eventlog() returns. */
int hs__pass_end(const hs__pass *p, hs_reader *r, const hs__tally *t, int st,
                 hs_error *err);

/* The census c finished after the walk of r that returned st, the cut
 * folded into err. */
int hs__load_census_done(hs_census *c, hs_reader *r, int st, hs_error *err);

/* Sets r to decode only the tags the census (when `census`) and the
 * summary (when `summary`) read: what a caller that hands every event to
 * them one by one (the live state) needs decoded. */
void hs__load_decode_for(hs_reader *r, bool census, bool summary);

#endif
