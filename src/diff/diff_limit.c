/*
 * Thresholds on a diff: the memory regression gate of `diff --fail-if`.
 * An expression ("peak>+10%", "band:NAME>+1MiB") is parsed into a limit,
 * checked against the two runs' figures, and what it found is put in
 * words for the message that fails a CI job.
 */
#include "heapscope/diff.h"
#include "common/internal.h"
#include "diff/diff_internal.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* --- parsing -------------------------------------------------------------- */

static const struct {
    const char *name;
    double bytes;
} units[] = {
    {"B", 1},
    {"KiB", 1024.0},
    {"MiB", 1024.0 * 1024},
    {"GiB", 1024.0 * 1024 * 1024},
    {"TiB", 1024.0 * 1024 * 1024 * 1024},
    {"kB", 1e3},
    {"KB", 1e3},
    {"MB", 1e6},
    {"GB", 1e9},
    {"TB", 1e12},
};

/* Digits with an optional fraction at s; *end after them. False when no
 * digit stands there. */
static bool parse_number(const char *s, double *v, const char **end)
{
    double x = 0, scale = 1;
    bool digits = false, frac = false;
    for (; (*s >= '0' && *s <= '9') || (*s == '.' && !frac); s++) {
        if (*s == '.') {
            frac = true;
            continue;
        }
        digits = true;
        if (frac)
            x += (scale /= 10) * (*s - '0');
        else
            x = x * 10 + (*s - '0');
    }
    *v = x;
    *end = s;
    return digits && isfinite(x);
}

/* The unit at s: its size in bytes, or 0 when s names none. For
 * byte-seconds a "*s" after the unit is taken too. */
static double parse_unit(const char *s, hs_diff_figure f)
{
    for (size_t i = 0; i < sizeof units / sizeof units[0]; i++) {
        size_t n = strlen(units[i].name);
        if (strncmp(s, units[i].name, n) != 0)
            continue;
        const char *rest = s + n;
        if (f == HS_DIFF_FIGURE_BYTE_SECONDS && strcmp(rest, "*s") == 0)
            rest += 2;
        if (*rest == 0)
            return units[i].bytes;
    }
    return 0;
}

/* The amount after the '>': a signed number and "%" or a unit. */
static int parse_amount(const char *s, hs_diff_limit *l, hs_error *err)
{
    double sign = 1;
    if (*s == '+' || *s == '-')
        sign = *s++ == '-' ? -1 : 1;
    double v;
    const char *end;
    if (!parse_number(s, &v, &end))
        return hs__error_set(err, HS_ERR_INVALID, NULL,
                             "expected a number after '>' (as in "
                             "peak>+10%% or peak>+5MiB)");
    l->percent = strcmp(end, "%") == 0;
    double unit = l->percent ? 1 : parse_unit(end, l->figure);
    if (unit == 0)
        return hs__error_set(err, HS_ERR_INVALID, NULL,
                             "%s%.40s%s is not %% or a size (B, KiB, MiB, "
                             "GiB, TiB, kB, MB, GB, TB%s)",
                             *end ? "\"" : "no unit after the number: ",
                             end, *end ? "\" after the number" : "it",
                             l->figure == HS_DIFF_FIGURE_BYTE_SECONDS
                                 ? ", optionally followed by *s"
                                 : "");
    l->amount = sign * v * unit;
    return HS_OK;
}

int hs_diff_limit_parse(const char *expr, hs_diff_limit *out, hs_error *err)
{
    hs__error_clear(err);
    memset(out, 0, sizeof *out);
    const char *gt = strrchr(expr, '>');
    if (!gt)
        return hs__error_set(err, HS_ERR_INVALID, NULL,
                             "no '>': expected FIGURE>AMOUNT, FIGURE peak, "
                             "byte-seconds or band:NAME");
    size_t n = (size_t)(gt - expr);
    if (n == 4 && strncmp(expr, "peak", 4) == 0) {
        out->figure = HS_DIFF_FIGURE_PEAK;
    } else if (n == 12 && strncmp(expr, "byte-seconds", 12) == 0) {
        out->figure = HS_DIFF_FIGURE_BYTE_SECONDS;
    } else if (n >= 5 && strncmp(expr, "band:", 5) == 0) {
        out->figure = HS_DIFF_FIGURE_PEAK;
        out->band = expr + 5;
        out->band_len = n - 5;
        if (out->band_len == 0)
            return hs__error_set(err, HS_ERR_INVALID, NULL,
                                 "band: without a band name");
    } else {
        return hs__error_set(err, HS_ERR_INVALID, NULL,
                             "unknown figure \"%.*s\": expected peak, "
                             "byte-seconds or band:NAME",
                             (int)(n < 60 ? n : 60), expr);
    }
    return parse_amount(gt + 1, out, err);
}

/* --- checking ------------------------------------------------------------- */

/* The diff band the limit's NAME matches, or NULL; HS_ERR_NOMEM in *st. */
static const hs_diff_band *limit_band(const hs_diff *d, const hs_diff_limit *l,
                                      int *st)
{
    const char *name = l->band;
    size_t len = l->band_len;
    if (hs__diff_drops_ccs_id(hs_diff_census(d, HS_DIFF_BEFORE)) ||
        hs__diff_drops_ccs_id(hs_diff_census(d, HS_DIFF_AFTER))) {
        size_t k = hs__diff_ccs_id_len(name, len);
        name += k;
        len -= k;
    }
    const hs_allocator *a = hs__diff_allocator(d);
    char *key = hs_malloc(a, len + 1);
    if (!key) {
        *st = HS_ERR_NOMEM;
        return NULL;
    }
    if (hs_diff_is_normalized(d))
        len = hs_diff_normalize_name(name, len, key, len + 1);
    else
        memcpy(key, name, len);
    key[len] = 0;
    const hs_diff_band *found = NULL;
    for (size_t i = 0; i < hs_diff_band_count(d) && !found; i++)
        if (strcmp(hs_diff_band_at(d, i)->name, key) == 0)
            found = hs_diff_band_at(d, i);
    hs_free(a, key);
    return found;
}

int hs_diff_limit_check(const hs_diff *d, const hs_diff_limit *l,
                        hs_diff_limit_result *r)
{
    memset(r, 0, sizeof *r);
    if (l->figure != HS_DIFF_FIGURE_PEAK &&
        l->figure != HS_DIFF_FIGURE_BYTE_SECONDS)
        return HS_ERR_INVALID;
    if (l->band && l->figure != HS_DIFF_FIGURE_PEAK)
        return HS_ERR_INVALID;
    double v[2] = {0, 0};
    r->found = true;
    if (l->band) {
        int st = HS_OK;
        const hs_diff_band *b = limit_band(d, l, &st);
        if (st != HS_OK)
            return st;
        r->found = b != NULL;
        /* a band absent from a run has 0 there (its figures are 0) */
        for (int k = 0; k < 2 && b; k++)
            v[k] = (double)b->peak_bytes[k];
    } else {
        for (int k = 0; k < 2; k++) {
            const hs_diff_run *run = hs_diff_get_run(d, k);
            v[k] = l->figure == HS_DIFF_FIGURE_PEAK ? (double)run->peak_bytes
                                                    : run->byte_seconds;
        }
    }
    r->before = v[0];
    r->after = v[1];
    r->change = v[1] - v[0];
    r->allowed = l->percent ? v[0] * l->amount / 100 : l->amount;
    r->crossed = r->found && r->change > r->allowed;
    return HS_OK;
}

/* --- words ---------------------------------------------------------------- */

char *hs_diff_limit_describe(const hs_diff_limit *l,
                             const hs_diff_limit_result *r, char *buf,
                             size_t cap)
{
    const char *unit = l->figure == HS_DIFF_FIGURE_BYTE_SECONDS ? "*s" : "";
    char a[24], b[24], c[32];
    hs_format_bytes(a, sizeof a, r->before);
    hs_format_bytes(b, sizeof b, r->after);
    if (l->percent && r->before > 0) {
        snprintf(c, sizeof c, " %.1f%%", fabs(r->change) / r->before * 100);
    } else {
        c[0] = ' ';
        hs_format_bytes(c + 1, sizeof c - 1, fabs(r->change));
        size_t k = strlen(c);
        snprintf(c + k, sizeof c - k, "%s", unit);
    }
    const char *what = l->figure == HS_DIFF_FIGURE_PEAK ? "peak"
                                                        : "byte-seconds";
    const char *verb = r->change > 0   ? "grew"
                       : r->change < 0 ? "shrank"
                                       : "did not change";
    if (r->change == 0)
        c[0] = 0;
    int n = l->band ? snprintf(buf, cap, "band %.*s %s ", (int)l->band_len,
                               l->band, what)
                    : snprintf(buf, cap, "%s ", what);
    size_t at = n < 0 ? 0 : (size_t)n < cap ? (size_t)n : cap - 1;
    snprintf(buf + at, cap - at, "%s%s (%s%s -> %s%s)", verb, c, a, unit, b,
             unit);
    return buf;
}
