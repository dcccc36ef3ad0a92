/*
 * Matching across runs: the normalised form of a band name (GHC's
 * generated unique suffixes dropped) and windows between user markers,
 * found in each run by name.
 */
#include "heapscope/diff.h"
#include "common/internal.h"

#include <stdio.h>
#include <string.h>

/* --- names ---------------------------------------------------------------- */

static bool is_base62(char ch)
{
    return (ch >= '0' && ch <= '9') || (ch >= 'a' && ch <= 'z') ||
           (ch >= 'A' && ch <= 'Z');
}

/* Whether an identifier may continue with ch (so a suffix ends before it). */
static bool is_ident(char ch)
{
    return is_base62(ch) || ch == '_' || ch == '\'' || ch == '$' ||
           (unsigned char)ch >= 0x80;
}

/*
 * The length of a generated unique suffix ("_s4Vf") ending at name[end),
 * or 0: "_", a lower-case tag letter, 1 to 7 base-62 characters.
 */
static size_t unique_suffix(const char *name, size_t start, size_t end)
{
    size_t i = end;
    while (i > start && end - i < 8 && is_base62(name[i - 1]))
        i--;
    /* name[i..end) is the tag and the digits; name[i-1] must be '_' */
    if (i == start || name[i - 1] != '_' || end - i < 2 || end - i > 8)
        return 0;
    if (i - 1 == start)
        return 0; /* nothing before the '_': a name of its own */
    char tag = name[i];
    if (tag < 'a' || tag > 'z')
        return 0;
    bool strong = tag == 's' || tag == 'r';
    for (size_t k = i + 1; k < end && !strong; k++)
        strong = (name[k] >= '0' && name[k] <= '9') ||
                 (name[k] >= 'A' && name[k] <= 'Z');
    return strong ? end - (i - 1) : 0;
}

size_t hs_diff_normalize_name(const char *name, size_t len, char *buf,
                              size_t cap)
{
    size_t out = 0, depth = 0, ident_start = 0;
    for (size_t i = 0; i <= len; i++) {
        char ch = i < len ? name[i] : 0;
        if (depth > 0 && (i == len || !is_ident(ch))) {
            /* an identifier inside <...> ends at i: drop its suffix */
            size_t cut = unique_suffix(name, ident_start, i);
            out -= cut;
        }
        if (i == len)
            break;
        if (ch == '<')
            depth++;
        else if (ch == '>' && depth > 0)
            depth--;
        if (!is_ident(ch))
            ident_start = i + 1;
        if (out + 1 < cap)
            buf[out] = ch;
        out++;
    }
    buf[out + 1 <= cap ? out : cap - 1] = 0;
    return out;
}

int hs_diff_marker_window(const hs_census *c, const char *from,
                          const char *to, uint64_t *from_ns,
                          uint64_t *to_ns, hs_error *err)
{
    hs__error_clear(err);
    /* found flags, not UINT64_MAX: a hostile log's marker may stand there */
    size_t n = hs_census_marker_count(c);
    uint64_t a = 0, b = 0;
    bool has_a = false, has_b = false;
    for (size_t i = 0; i < n; i++) {
        const hs_census_marker *m = hs_census_marker_at(c, i);
        if (m->text && strcmp(m->text, from) == 0 &&
            (!has_a || m->time_ns < a)) {
            a = m->time_ns;
            has_a = true;
        }
    }
    if (!has_a) {
        return hs__error_set(err, HS_ERR_NO_DATA, NULL,
                             "no user marker named \"%.200s\"", from);
    }
    for (size_t i = 0; i < n; i++) {
        const hs_census_marker *m = hs_census_marker_at(c, i);
        if (m->text && strcmp(m->text, to) == 0 && m->time_ns > a &&
            (!has_b || m->time_ns < b)) {
            b = m->time_ns;
            has_b = true;
        }
    }
    if (!has_b) {
        return hs__error_set(err, HS_ERR_NO_DATA, NULL,
                             "no user marker named \"%.100s\" after "
                             "\"%.100s\"", to, from);
    }
    *from_ns = a;
    *to_ns = b;
    return HS_OK;
}
