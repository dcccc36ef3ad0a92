/*
 * The .hp reader: the runtime's own heap profiles (and hp2ps's MARK lines)
 * into the census model.
 *
 * It is push-fed like the eventlog reader, one chunk at a time, so that
 * hs_census_load_fd() can hand it the bytes it already read to tell the
 * two formats apart, and so a pipe works. A line cut by a chunk edge waits
 * in `line` until its end arrives.
 *
 * Times are parsed and printed with integer arithmetic, not strtod/printf,
 * so the result does not depend on the locale's decimal separator and a
 * .hp written by heapscope reads back to the same nanoseconds.
 */
#include "heapscope/census.h"
#include "internal.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A line longer than this is not a heap profile. */
#define LINE_MAX_BYTES (16u << 20)

struct hs_hp_parser {
    hs_census *c;
    char *line;
    size_t line_len, line_cap;
    uint64_t lineno;       /* of the line being assembled, 1-based */
    uint64_t line_off;     /* byte offset of its first byte */
    uint64_t offset;       /* bytes consumed */
    bool in_sample;
    uint64_t sample_line;  /* where the open sample began */
    uint64_t sample_time;
    uint64_t nsamples;     /* BEGIN_SAMPLE lines seen */
    uint64_t last_end;     /* time of the last END_SAMPLE */
    char *job, *date;
    int error;
};

static int fail(hs_hp_parser *p, hs_error *err, int code, const char *fmt,
                ...) HS_PRINTF(4, 5);

static int fail(hs_hp_parser *p, hs_error *err, int code, const char *fmt,
                ...)
{
    p->error = code;
    if (!err)
        return code;
    memset(err, 0, sizeof *err);
    err->code = code;
    err->line = p->lineno;
    err->offset = p->line_off;
    err->event_index = UINT64_MAX;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err->message, sizeof err->message, fmt, ap);
    va_end(ap);
    return code;
}

hs_hp_parser *hs__hp_parser_new(hs_census *c)
{
    hs_hp_parser *p = calloc(1, sizeof *p);
    if (p) {
        p->c = c;
        p->lineno = 1;
    }
    return p;
}

void hs__hp_parser_free(hs_hp_parser *p)
{
    if (!p)
        return;
    free(p->line);
    free(p->job);
    free(p->date);
    free(p);
}

static bool is_space(char ch) { return ch == ' ' || ch == '\t'; }

/*
 * Seconds as written in a .hp ("12", "0.021831", ".5") to nanoseconds,
 * rounding beyond the ninth decimal. Returns false when s is not such a
 * number or it does not fit.
 */
static bool parse_seconds(const char *s, size_t n, uint64_t *ns)
{
    size_t i = 0;
    uint64_t sec = 0, frac = 0;
    bool digits = false;
    for (; i < n && s[i] >= '0' && s[i] <= '9'; i++) {
        if (sec > (UINT64_MAX / 1000000000u - 9) / 10)
            return false;
        sec = sec * 10 + (uint64_t)(s[i] - '0');
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
    *ns = sec * 1000000000u + frac + (round_up ? 1 : 0);
    return true;
}

static bool parse_bytes(const char *s, size_t n, uint64_t *out)
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

/* The quoted string of a JOB/DATE/... line, "" inside meaning ". */
static char *parse_quoted(const char *s, size_t n)
{
    if (n < 2 || s[0] != '"')
        return NULL;
    char *out = malloc(n);
    if (!out)
        return NULL;
    size_t k = 0, i = 1;
    for (;;) {
        if (i >= n) {
            free(out);
            return NULL;
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
    while (i < n && is_space(s[i]))
        i++;
    if (i != n) {
        free(out);
        return NULL;
    }
    out[k] = 0;
    return out;
}

/* The heap-profile flag in a JOB line's RTS options: -hc, -hy, ..., and
 * -h alone (GHC before 9.2 read it as -hc when profiling, -hT otherwise). */
static uint32_t breakdown_from_job(const char *job)
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

static int keyword_line(hs_hp_parser *p, const char *kw, size_t kwlen,
                        const char *rest, size_t rn, hs_error *err)
{
#define KW(s) (kwlen == sizeof(s) - 1 && memcmp(kw, s, kwlen) == 0)
    hs_census *c = p->c;
    if (KW("JOB") || KW("DATE") || KW("SAMPLE_UNIT") || KW("VALUE_UNIT")) {
        char *q = parse_quoted(rest, rn);
        if (!q)
            return fail(p, err, HS_ERR_PARSE,
                        "expected a quoted string after %.*s", (int)kwlen,
                        kw);
        if (KW("JOB")) {
            free(p->job);
            p->job = q;
        } else if (KW("DATE")) {
            free(p->date);
            p->date = q;
        } else {
            free(q);
        }
        return HS_OK;
    }
    uint64_t t;
    if (KW("BEGIN_SAMPLE")) {
        if (p->in_sample)
            return fail(p, err, HS_ERR_PARSE,
                        "expected END_SAMPLE for the sample begun at line "
                        "%llu before BEGIN_SAMPLE",
                        (unsigned long long)p->sample_line);
        if (!parse_seconds(rest, rn, &t))
            return fail(p, err, HS_ERR_PARSE,
                        "expected a time in seconds after BEGIN_SAMPLE, "
                        "not '%.*s'", (int)(rn > 40 ? 40 : rn), rest);
        p->in_sample = true;
        p->sample_line = p->lineno;
        p->sample_time = t;
        p->nsamples++;
        int st = hs__census_hp_sample(c, t);
        return st ? fail(p, err, st, "out of memory") : HS_OK;
    }
    if (KW("END_SAMPLE")) {
        if (!p->in_sample)
            return fail(p, err, HS_ERR_PARSE,
                        "END_SAMPLE without a BEGIN_SAMPLE before it");
        if (!parse_seconds(rest, rn, &t))
            return fail(p, err, HS_ERR_PARSE,
                        "expected a time in seconds after END_SAMPLE, not "
                        "'%.*s'", (int)(rn > 40 ? 40 : rn), rest);
        p->in_sample = false;
        p->last_end = p->sample_time;
        hs__census_hp_end_sample(c);
        /* The runtime opens every .hp with an empty sample at time 0;
         * the writer puts it back, so it is not data. */
        if (p->nsamples == 1 && p->sample_time == 0)
            hs__census_hp_drop_last(c);
        return HS_OK;
    }
    if (KW("MARK")) {
        if (!parse_seconds(rest, rn, &t))
            return fail(p, err, HS_ERR_PARSE,
                        "expected a time in seconds after MARK, not '%.*s'",
                        (int)(rn > 40 ? 40 : rn), rest);
        int st = hs__census_hp_marker(c, t);
        return st ? fail(p, err, st, "out of memory") : HS_OK;
    }
#undef KW
    return 1; /* not a keyword */
}

static int parse_line(hs_hp_parser *p, char *s, size_t n, hs_error *err)
{
    if (n && s[n - 1] == '\r')
        n--;
    size_t a = 0;
    while (a < n && is_space(s[a]))
        a++;
    if (a == n)
        return HS_OK;
    /* Inside a sample a line with a TAB is always a band: a band may be
     * called anything, END_SAMPLE included. */
    const char *tab = p->in_sample ? memchr(s, '\t', n) : NULL;
    if (!tab) {
        size_t k = a;
        while (k < n && !is_space(s[k]))
            k++;
        size_t r = k;
        while (r < n && is_space(s[r]))
            r++;
        size_t e = n;
        while (e > r && is_space(s[e - 1]))
            e--;
        int st = keyword_line(p, s + a, k - a, s + r, e - r, err);
        if (st <= 0)
            return st;
        if (!p->in_sample)
            return fail(p, err, HS_ERR_PARSE,
                        "expected JOB, DATE, SAMPLE_UNIT, VALUE_UNIT, "
                        "BEGIN_SAMPLE or MARK, not '%.*s'",
                        (int)(k - a > 40 ? 40 : k - a), s + a);
    }
    /* band<TAB>bytes; hand-written files may use spaces instead. */
    size_t sep = n;
    const char *last_tab = NULL;
    for (size_t i = n; i > 0; i--)
        if (s[i - 1] == '\t') {
            last_tab = s + i - 1;
            break;
        }
    size_t e = n;
    while (e > 0 && is_space(s[e - 1]))
        e--;
    if (last_tab && (size_t)(last_tab - s) < e) {
        sep = (size_t)(last_tab - s);
    } else {
        size_t i = e;
        while (i > 0 && !is_space(s[i - 1]))
            i--;
        sep = i ? i - 1 : n;
    }
    if (sep >= n)
        return fail(p, err, HS_ERR_PARSE,
                    "expected a band name, a TAB and a byte count, or "
                    "END_SAMPLE");
    size_t v = sep + 1;
    while (v < e && is_space(s[v]))
        v++;
    size_t kend = sep;
    while (kend > 0 && s[kend - 1] == ' ')
        kend--;
    uint64_t bytes;
    if (!parse_bytes(s + v, e - v, &bytes))
        return fail(p, err, HS_ERR_PARSE,
                    "expected a byte count after the band name, not "
                    "'%.*s'", (int)(e - v > 40 ? 40 : e - v), s + v);
    if (kend == 0)
        return fail(p, err, HS_ERR_PARSE,
                    "expected a band name before the byte count");
    int st = hs__census_hp_entry(p->c, s, kend, bytes);
    return st ? fail(p, err, st, "out of memory") : HS_OK;
}

int hs__hp_parser_feed(hs_hp_parser *p, const void *data, size_t len,
                       hs_error *err)
{
    if (p->error)
        return p->error;
    const char *d = data;
    size_t i = 0;
    while (i < len) {
        const char *nl = memchr(d + i, '\n', len - i);
        size_t take = nl ? (size_t)(nl - (d + i)) : len - i;
        if (p->line_len + take > LINE_MAX_BYTES)
            return fail(p, err, HS_ERR_PARSE,
                        "the line is longer than %u bytes: not a heap "
                        "profile", LINE_MAX_BYTES);
        int st;
        if (nl && p->line_len == 0) {
            /* The common case: a whole line inside the chunk. */
            if (!hs_grow((void **)&p->line, &p->line_cap, take + 1, 1))
                return fail(p, err, HS_ERR_NOMEM, "out of memory");
            memcpy(p->line, d + i, take);
            st = parse_line(p, p->line, take, err);
        } else {
            if (!hs_grow((void **)&p->line, &p->line_cap,
                         p->line_len + take + 1, 1))
                return fail(p, err, HS_ERR_NOMEM, "out of memory");
            memcpy(p->line + p->line_len, d + i, take);
            p->line_len += take;
            if (!nl) {
                p->offset += take;
                return HS_OK;
            }
            st = parse_line(p, p->line, p->line_len, err);
            p->line_len = 0;
        }
        if (st)
            return st;
        p->offset += take + 1;
        i += take + 1;
        p->lineno++;
        p->line_off = p->offset;
    }
    return HS_OK;
}

int hs__hp_parser_finish(hs_hp_parser *p, hs_error *err)
{
    if (p->error)
        return p->error;
    if (p->line_len) {
        int st = parse_line(p, p->line, p->line_len, err);
        p->line_len = 0;
        if (st)
            return st;
    }
    hs_census *c = p->c;
    bool truncated = p->in_sample;
    uint64_t end = p->last_end;
    if (!truncated && p->nsamples > 1) {
        /* The runtime closes every .hp with an empty sample at the end
         * time; it becomes the census's end time. */
        size_t n = hs_census_sample_count(c);
        const hs_census_entry *e;
        if (n && hs_census_sample_entries(c, n - 1, &e) == 0 &&
            hs_census_sample_time(c, n - 1) == p->last_end)
            hs__census_hp_drop_last(c);
    }
    if (!p->job && !p->nsamples)
        return fail(p, err, HS_ERR_PARSE,
                    "expected a heap profile (JOB, BEGIN_SAMPLE ...), found "
                    "no such line");
    int st = hs__census_hp_set(c, p->job, p->date,
                               p->job ? breakdown_from_job(p->job) : 0, end);
    if (!st)
        st = hs_census_finish(c, !truncated);
    if (st)
        return fail(p, err, st, "out of memory");
    if (truncated) {
        fail(p, err, HS_TRUNCATED,
             "the file ends inside the sample begun at line %llu; it is "
             "kept as it is", (unsigned long long)p->sample_line);
        p->error = 0;
        return HS_TRUNCATED;
    }
    return HS_OK;
}

int hs_census_load_hp(hs_census *c, FILE *in, hs_error *err)
{
    if (err)
        memset(err, 0, sizeof *err);
    hs_hp_parser *p = hs__hp_parser_new(c);
    char *buf = malloc(1u << 16);
    if (!p || !buf) {
        hs__hp_parser_free(p);
        free(buf);
        if (err) {
            err->code = HS_ERR_NOMEM;
            snprintf(err->message, sizeof err->message, "out of memory");
        }
        return HS_ERR_NOMEM;
    }
    int st = HS_OK;
    for (;;) {
        size_t n = fread(buf, 1, 1u << 16, in);
        if (n && (st = hs__hp_parser_feed(p, buf, n, err)) != HS_OK)
            break;
        if (n < (1u << 16)) {
            if (ferror(in)) {
                int e = errno;
                st = fail(p, err, HS_ERR_IO, "reading failed: %s",
                          strerror(e));
                if (err)
                    err->line = 0;
                break;
            }
            if (feof(in)) {
                st = hs__hp_parser_finish(p, err);
                break;
            }
        }
    }
    hs__hp_parser_free(p);
    free(buf);
    return st;
}
