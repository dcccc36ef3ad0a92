/*
 * One log read both ways, the one pass and the two lanes, into outcomes
 * that compare whole: what tests/lanes_check.c (test_onepass) and the
 * fuzz target tests/fuzz/fuzz_lanes.c share. No CUnit here: a failed
 * allocation aborts.
 */
#ifndef HEAPSCOPE_TEST_LANES_SAME_H
#define HEAPSCOPE_TEST_LANES_SAME_H

#include <heapscope/heapscope.h>

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>

/* The summary's text (json false) or JSON, malloc'd. */
char *onepass_text(const hs_summary *s, bool json);
/* a then b in one malloc'd string; both freed. */
char *onepass_join(char *a, char *b);
/* The CSV of c (HS_CSV_LONG), malloc'd. */
char *onepass_csv(const hs_census *c);

/* A thread lent through pthread_create/pthread_join; starts counts the
 * times the lanes started it. */
typedef struct lanes_loan {
    hs_thread_loan loan;
    pthread_t thread;
    void (*fn)(void *);
    void *arg;
    int starts;
} lanes_loan;

/* Sets l up with no start yet (l->loan is what the loads take). */
void lanes_loan_init(lanes_loan *l);

/* What one load gave: its return, the reader's (or, for the census, the
 * load's) error, the summary's error, the reader's warning and offset,
 * hs_summary_finish()'s return and the outcome as text (malloc'd); and,
 * not compared, where the summary's window ends (the log's end when it
 * has none), for a caller that windows a second read. */
typedef struct lanes_outcome {
    int st, finish;
    hs_error rerr, serr;
    char warning[256];
    uint64_t offset;
    char *text;
    uint64_t end_ns;
} lanes_outcome;

/* The log on fd, from where it stands, into a summary (window w when not
 * NULL) with hs_summary_load_fd(), or hs_summary_load_fd_lent() when
 * loan is not NULL; the text is the summary's JSON. */
void lanes_summary_outcome(int fd, const hs_summary_window *w,
                           const hs_thread_loan *loan, lanes_outcome *o);
/* The same through hs_census_load_summary_fd() or its _lent twin, with
 * a summary when with_summary (else the census alone, s NULL); the text
 * is the census's figures, heap lines, markers, messages, warnings and
 * CSV (when it loaded) and the summary's JSON. */
void lanes_census_outcome(int fd, const hs_thread_loan *loan,
                          bool with_summary, lanes_outcome *o);
/* Which pass reads a log: the summary's, the census's with a summary,
 * the census's alone. */
typedef enum lanes_path {
    LANES_SUMMARY, LANES_CENSUS, LANES_CENSUS_ALONE
} lanes_path;
/* The outcome of the log on fd read by `path` (the summary's windowed to
 * w when not NULL) as above. */
void lanes_path_outcome(int fd, lanes_path path, const hs_summary_window *w,
                        const hs_thread_loan *loan, lanes_outcome *o);
/* Whether a and b are the same in every part. */
bool lanes_same_outcome(const lanes_outcome *a, const lanes_outcome *b);
void lanes_outcome_free(lanes_outcome *o);

#endif
