/*
 * Checks that a text heapscope rendered is well formed; each traps
 * (CHECK) when it is not. See textcheck.c.
 */
#ifndef HEAPSCOPE_FUZZ_TEXTCHECK_H
#define HEAPSCOPE_FUZZ_TEXTCHECK_H

#include "fuzz_common.h"

/* One JSON value and nothing after it but white space. Strings are valid
 * UTF-8 (band names come from the log, not always UTF-8: the writer
 * replaces what is not). */
void check_json(const hs_membuf *m);
/* Prometheus text: HELP and TYPE comments of heapscope_ metrics, then
 * NAME{LABEL="VALUE",...} NUMBER lines, label values escaped and UTF-8. */
void check_prometheus(const hs_membuf *m);

#endif
