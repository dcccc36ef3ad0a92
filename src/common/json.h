/*
 * JSON string literals for the renderers that write JSON; not part of the
 * public surface.
 */
#ifndef HEAPSCOPE_JSON_H
#define HEAPSCOPE_JSON_H

#include "heapscope/sink.h"

/*
 * Writes p[0..n) as a quoted JSON string: '"' and '\' escaped, control
 * bytes as \u00XX, valid UTF-8 as is, any other byte as \ufffd, so any
 * band name yields valid JSON. NULL p writes null. HS_OK or HS_ERR_IO.
 */
int hs_json_string(hs_sink *out, const char *p, size_t n);

/* The same for a NUL-terminated string (NULL: null). */
int hs_json_cstring(hs_sink *out, const char *s);

/* A finite double as a JSON number ("%.17g" would be exact but noisy:
 * 6 decimals are enough for seconds and byte-seconds); NaN and infinities,
 * which JSON lacks, as null. */
int hs_json_number(hs_sink *out, double v, int decimals);

#endif
