/*
 * The fields of a .hp line, for the parser (read_hp.c): times, byte
 * counts, quoted strings, the JOB's heap-profile flag, and input quoted
 * in a message. They run once per header or sample line, not per band
 * line, so they live apart from the parser's per-line path. Times are
 * parsed with integer arithmetic, not strtod, so the result does not
 * depend on the locale's decimal separator and a .hp written by heapscope
 * reads back to the same nanoseconds.
 */
#include "common/internal.h"
#include "heapscope/reader.h"
#include "read/read_hp_text.h"

#include <stdio.h>
#include <string.h>

/*
 * Up to 40 bytes of input for an error message, control bytes (and DEL)
 * as \xNN so that a hostile file cannot drive the user's terminal.
 */
const char *hs__hp_shown(char *dst, size_t cap, const char *s, size_t n)
{
    size_t k = 0;
    for (size_t i = 0; i < n && i < 40 && k + 5 < cap; i++) {
        unsigned char ch = (unsigned char)s[i];
        if (ch < 0x20 || ch == 0x7f)
            k += (size_t)snprintf(dst + k, cap - k, "\\x%02x", ch);
        else
            dst[k++] = (char)ch;
    }
    dst[k] = 0;
    return dst;
}

/* The most whole seconds a time in ns can hold (18446744073). */
#define MAX_SECONDS (UINT64_MAX / 1000000000u)

/*
 * Seconds as written in a .hp ("12", "0.021831", ".5") to nanoseconds,
 * rounding beyond the ninth decimal. A time within the last second the
 * nanoseconds can hold saturates at UINT64_MAX, so that the largest time
 * heapscope writes (18446744073.709552, UINT64_MAX ns rounded to
 * microseconds) reads back. Returns false when s is not such a number or
 * it is beyond that.
 */
bool hs__hp_parse_seconds(const char *s, size_t n, uint64_t *ns)
{
    size_t i = 0;
    uint64_t sec = 0, frac = 0;
    bool digits = false;
    for (; i < n && s[i] >= '0' && s[i] <= '9'; i++) {
        sec = sec * 10 + (uint64_t)(s[i] - '0');
        if (sec > MAX_SECONDS)
            return false;
        digits = true;
    }
    unsigned places = 0;
    bool round_up = false;
    if (i < n && s[i] == '.') {
        for (i++; i < n && s[i] >= '0' && s[i] <= '9'; i++) {
            digits = true;
            if (places < 9) {
                frac = frac * 10 + (uint64_t)(s[i] - '0');
                places++;
            } else if (places == 9) {
                round_up = s[i] >= '5';
                places++;
            }
        }
    }
    if (!digits || i != n)
        return false;
    for (unsigned k = places; k < 9; k++)
        frac *= 10;
    uint64_t whole = sec * 1000000000u, part = frac + (round_up ? 1 : 0);
    *ns = whole > UINT64_MAX - part ? UINT64_MAX : whole + part;
    return true;
}

bool hs__hp_parse_bytes(const char *s, size_t n, uint64_t *out)
{
    uint64_t v = 0;
    if (!n)
        return false;
    for (size_t i = 0; i < n; i++) {
        if (s[i] < '0' || s[i] > '9')
            return false;
        unsigned d = (unsigned)(s[i] - '0');
        if (v > (UINT64_MAX - d) / 10)
            return false;
        v = v * 10 + d;
    }
    *out = v;
    return true;
}

/* The quoted string of a JOB/DATE/... line, "" inside meaning ", in
 * *res: HS_OK, HS_ERR_PARSE (not such a string) or HS_ERR_NOMEM. */
int hs__hp_parse_quoted(const hs_allocator *a, const char *s, size_t n,
                        char **res)
{
    if (n < 2 || s[0] != '"')
        return HS_ERR_PARSE;
    char *out = hs_malloc(a, n);
    if (!out)
        return HS_ERR_NOMEM;
    size_t k = 0, i = 1;
    for (;;) {
        if (i >= n) {
            hs_free(a, out);
            return HS_ERR_PARSE;
        }
        if (s[i] == '"') {
            if (i + 1 < n && s[i + 1] == '"') {
                out[k++] = '"';
                i += 2;
                continue;
            }
            i++;
            break;
        }
        out[k++] = s[i++];
    }
    while (i < n && hs__hp_is_space(s[i]))
        i++;
    if (i != n) {
        hs_free(a, out);
        return HS_ERR_PARSE;
    }
    out[k] = 0;
    *res = out;
    return HS_OK;
}

/* The heap-profile flag in a JOB line's RTS options: -hc, -hy, ..., and
 * -h alone (GHC before 9.2 read it as -hc when profiling, -hT otherwise). */
uint32_t hs__hp_breakdown_from_job(const char *job)
{
    static const char letters[] = "?cmdyrbTie";
    bool rts = false;
    const char *p = job;
    while (*p) {
        while (*p == ' ')
            p++;
        const char *w = p;
        while (*p && *p != ' ')
            p++;
        size_t n = (size_t)(p - w);
        if (n == 4 && memcmp(w, "+RTS", 4) == 0)
            rts = true;
        else if (n == 4 && memcmp(w, "-RTS", 4) == 0)
            rts = false;
        else if (rts && n >= 2 && w[0] == '-' && w[1] == 'h') {
            if (n == 2)
                return HS_BREAKDOWN_COST_CENTRE;
            const char *l = strchr(letters + 1, w[2]);
            if (l && w[2])
                return (uint32_t)(l - letters);
        }
    }
    return 0;
}
