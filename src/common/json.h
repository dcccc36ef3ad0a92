/*
 * Strings in the texts machines read: JSON string literals for every
 * renderer that writes JSON, Prometheus label values for /metrics; not
 * part of the public surface.
 */
#ifndef HEAPSCOPE_JSON_H
#define HEAPSCOPE_JSON_H

#include "heapscope/sink.h"

#include <stddef.h>

struct hs_outbuf;

/*
 * Writes p[0..n) as a quoted JSON string: '"' and '\' escaped, control
 * bytes and DEL as \u00XX, valid UTF-8 as is, any byte that does not
 * begin a valid UTF-8 character (hs_utf8_char_len) as \ufffd, so any band
 * name yields valid JSON of valid UTF-8. NULL p writes null. HS_OK or
 * HS_ERR_IO.
 */
int hs_json_string(hs_sink *out, const char *p, size_t n);

/* The same for a NUL-terminated string (NULL: null). */
int hs_json_cstring(hs_sink *out, const char *s);

/* The same into a buffered writer (util.c), whose status keeps a failure. */
void hs_json_outbuf_string(struct hs_outbuf *o, const char *p, size_t n);

/* A finite double as a JSON number ("%.17g" would be exact but noisy:
 * 6 decimals are enough for seconds and byte-seconds); NaN and infinities,
 * which JSON lacks, as null. */
int hs_json_number(hs_sink *out, double v, int decimals);

/*
 * Writes s as the inside of a Prometheus label value (text exposition
 * format 0.0.4: the quotes are the caller's): '\', '"' and line feed
 * escaped as the format asks, valid UTF-8 as is, any byte that does not
 * begin a valid UTF-8 character as U+FFFD (the format has no byte
 * escape and wants UTF-8). HS_OK or HS_ERR_IO.
 */
int hs_prom_label_value(hs_sink *out, const char *s);

#endif
