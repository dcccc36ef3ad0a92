/*
 * The fields of a .hp line (read_hp_text.c), for the parser in read_hp.c.
 * Internal to the library.
 */
#ifndef HEAPSCOPE_READ_HP_TEXT_H
#define HEAPSCOPE_READ_HP_TEXT_H

#include "heapscope/common.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* A blank between a .hp line's words: a space or a TAB. */
static inline bool hs__hp_is_space(char ch) { return ch == ' ' || ch == '\t'; }

/* Up to 40 bytes of s[0 .. n) in dst (cap bytes), control bytes and DEL
 * as \xNN, for an error message; returns dst. */
const char *hs__hp_shown(char *dst, size_t cap, const char *s, size_t n);

/* Seconds ("12", "0.021831", ".5") to nanoseconds; false when s[0 .. n)
 * is not such a number or it is beyond what 64 bits of ns hold. */
bool hs__hp_parse_seconds(const char *s, size_t n, uint64_t *ns);

/* A byte count of decimal digits that fits in 64 bits; false otherwise. */
bool hs__hp_parse_bytes(const char *s, size_t n, uint64_t *out);

/* The quoted string of a JOB/DATE/... line ("" inside meaning "), NUL-
 * terminated, allocated through a, in *res: HS_OK, HS_ERR_PARSE (not such
 * a string) or HS_ERR_NOMEM. */
int hs__hp_parse_quoted(const hs_allocator *a, const char *s, size_t n,
                        char **res);

/* The heap-profile breakdown of a JOB line's RTS flag (-hc, -hy, ... and
 * -h alone), 0 when it has none. */
uint32_t hs__hp_breakdown_from_job(const char *job);

#endif
