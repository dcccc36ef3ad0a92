/*
 * The .hp parser: the runtime's own heap profiles (and hp2ps's MARK lines)
 * as a stream of callbacks (read_hp.h); it knows nothing of the census.
 *
 * It is push-fed like the eventlog reader, one chunk at a time, so that
 * hs_census_load_fd() can hand it the bytes it already read to tell the
 * formats apart, and so a pipe works. A line cut by a chunk edge waits
 * in `line` until its end arrives.
 *
 * The band lines the runtime writes, whole in a chunk, are read in place
 * in a run (fast_bands, with the scanners of read_hp_lines.h); every
 * other line goes through parse_line, and its fields (times, counts,
 * quoted strings) through read_hp_text.c.
 */
#include "common/internal.h"
#include "heapscope/reader.h"
#include "read/read_hp.h"
#include "read/read_hp_lines.h"
#include "read/read_hp_text.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct hs_hp_parser {
    hs_hp_callbacks cb;
    hs_allocator alloc_store;
    const hs_allocator *alloc;
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
    bool began;            /* the open sample was reported */
    bool pending;          /* an empty sample withheld: the closing one? */
    uint64_t pending_time;
    bool have_prev;        /* a sample time was seen, in prev_time */
    uint64_t prev_time;
    uint64_t backwards;    /* samples earlier than the one before */
    char *job, *date;
    int error;
};

static int fail(hs_hp_parser *p, hs_error *err, int code, const char *fmt,
                ...) HS_PRINTF(4, 5);

static int fail(hs_hp_parser *p, hs_error *err, int code, const char *fmt,
                ...)
{
    p->error = code;
    hs_error_at at = {p->line_off, HS_NO_EVENT, p->lineno};
    va_list ap;
    va_start(ap, fmt);
    hs__error_vset(err, code, &at, fmt, ap);
    va_end(ap);
    return code;
}

hs_hp_parser *hs__hp_parser_new(const hs_hp_callbacks *cb,
                                const hs_allocator *alloc)
{
    hs_hp_parser *p = hs_calloc(alloc, 1, sizeof *p);
    if (p) {
        p->cb = *cb;
        p->alloc = hs_alloc_copy(&p->alloc_store, alloc);
        p->lineno = 1;
    }
    return p;
}

void hs__hp_parser_free(hs_hp_parser *p)
{
    if (!p)
        return;
    hs_free(p->alloc, p->line);
    hs_free(p->alloc, p->job);
    hs_free(p->alloc, p->date);
    hs_free(p->alloc, p);
}

/* The callback's status as the parser's error. */
static int cb_status(hs_hp_parser *p, hs_error *err, int st)
{
    if (!st)
        return HS_OK;
    return fail(p, err, st, "%s", st == HS_ERR_NOMEM ? "out of memory"
                                                     : "the census refused "
                                                       "the sample");
}

/* Reports the open sample's BEGIN_SAMPLE, which waits for its first band
 * (an empty sample may be the runtime's closing one). */
static int report_begin(hs_hp_parser *p, hs_error *err)
{
    if (p->began)
        return HS_OK;
    p->began = true;
    return cb_status(p, err, p->cb.sample_begin(p->cb.user, p->sample_time));
}

/* An empty sample withheld at its END_SAMPLE turned out not to be the
 * last one: it is data. */
static int report_pending(hs_hp_parser *p, hs_error *err)
{
    if (!p->pending)
        return HS_OK;
    p->pending = false;
    int st = p->cb.sample_begin(p->cb.user, p->pending_time);
    if (!st)
        st = p->cb.sample_end(p->cb.user);
    return cb_status(p, err, st);
}

static int header_line(hs_hp_parser *p, const char *kw, size_t kwlen,
                       const char *rest, size_t rn, hs_error *err)
{
    char *q = NULL;
    int st = hs__hp_parse_quoted(p->alloc, rest, rn, &q);
    if (st == HS_ERR_NOMEM)
        return fail(p, err, st, "out of memory");
    if (st)
        return fail(p, err, HS_ERR_PARSE,
                    "expected a quoted string after %.*s", (int)kwlen, kw);
    char **slot = kwlen == 3 ? &p->job : kwlen == 4 ? &p->date : NULL;
    if (slot) {
        hs_free(p->alloc, *slot);
        *slot = q;
    } else {
        hs_free(p->alloc, q);
    }
    return HS_OK;
}

static int begin_sample(hs_hp_parser *p, uint64_t t, hs_error *err)
{
    if (p->in_sample)
        return fail(p, err, HS_ERR_PARSE,
                    "expected END_SAMPLE for the sample begun at line %llu "
                    "before BEGIN_SAMPLE",
                    (unsigned long long)p->sample_line);
    int st = report_pending(p, err);
    if (st)
        return st;
    if (p->have_prev && t < p->prev_time && p->backwards++ == 0 &&
        p->cb.warn) {
        char msg[160];
        snprintf(msg, sizeof msg,
                 "the sample at line %llu goes back in time (before the "
                 "one at %llu.%06llu s); samples are shown in time order",
                 (unsigned long long)p->lineno,
                 (unsigned long long)(p->prev_time / 1000000000u),
                 (unsigned long long)(p->prev_time % 1000000000u / 1000u));
        p->cb.warn(p->cb.user, msg);
    }
    p->have_prev = true;
    p->prev_time = t;
    p->in_sample = true;
    p->began = false;
    p->sample_line = p->lineno;
    p->sample_time = t;
    p->nsamples++;
    return HS_OK;
}

static int end_sample(hs_hp_parser *p, uint64_t t, hs_error *err)
{
    (void)t; /* the runtime writes the BEGIN_SAMPLE's time again */
    if (!p->in_sample)
        return fail(p, err, HS_ERR_PARSE,
                    "END_SAMPLE without a BEGIN_SAMPLE before it");
    p->in_sample = false;
    p->last_end = p->sample_time;
    if (p->began)
        return cb_status(p, err, p->cb.sample_end(p->cb.user));
    /* The runtime opens every .hp with an empty sample at time 0 and
     * closes it with an empty one at the end time; the writer puts both
     * back, so they are not data. */
    if (!(p->nsamples == 1 && p->sample_time == 0)) {
        p->pending = true;
        p->pending_time = p->sample_time;
    }
    return HS_OK;
}

static int keyword_line(hs_hp_parser *p, const char *kw, size_t kwlen,
                        const char *rest, size_t rn, hs_error *err)
{
#define KW(s) (kwlen == sizeof(s) - 1 && memcmp(kw, s, kwlen) == 0)
    if (KW("JOB") || KW("DATE") || KW("SAMPLE_UNIT") || KW("VALUE_UNIT"))
        return header_line(p, kw, kwlen, rest, rn, err);
    bool begin = KW("BEGIN_SAMPLE"), end = KW("END_SAMPLE"), mark = KW("MARK");
#undef KW
    if (!begin && !end && !mark)
        return 1; /* not a keyword */
    uint64_t t;
    if (!hs__hp_parse_seconds(rest, rn, &t)) {
        char buf[200];
        return fail(p, err, HS_ERR_PARSE,
                    "expected a time in seconds after %.*s, not '%s'",
                    (int)kwlen, kw, hs__hp_shown(buf, sizeof buf, rest, rn));
    }
    if (begin)
        return begin_sample(p, t, err);
    if (end)
        return end_sample(p, t, err);
    return cb_status(p, err, p->cb.mark(p->cb.user, t));
}

/* Splits a band line "name<TAB>bytes" (hand-written files may use spaces
 * instead of the TAB) and reports it. */
static int band_line(hs_hp_parser *p, const char *s, size_t n, hs_error *err)
{
    char buf[200];
    const char *last_tab = NULL;
    for (size_t i = n; i > 0; i--)
        if (s[i - 1] == '\t') {
            last_tab = s + i - 1;
            break;
        }
    size_t e = n;
    while (e > 0 && hs__hp_is_space(s[e - 1]))
        e--;
    size_t sep;
    if (last_tab && (size_t)(last_tab - s) < e) {
        sep = (size_t)(last_tab - s);
    } else {
        size_t i = e;
        while (i > 0 && !hs__hp_is_space(s[i - 1]))
            i--;
        sep = i ? i - 1 : n;
    }
    if (sep >= n)
        return fail(p, err, HS_ERR_PARSE,
                    "expected a band name, a TAB and a byte count, or "
                    "END_SAMPLE");
    size_t v = sep + 1;
    while (v < e && hs__hp_is_space(s[v]))
        v++;
    /* Spaces before a TAB are the name's (heapscope's writer keeps them);
     * before a space separator they are padding. */
    size_t kend = sep;
    if (s[sep] != '\t')
        while (kend > 0 && s[kend - 1] == ' ')
            kend--;
    uint64_t bytes;
    if (!hs__hp_parse_bytes(s + v, e - v, &bytes))
        return fail(p, err, HS_ERR_PARSE,
                    "expected a byte count after the band name, not '%s'",
                    hs__hp_shown(buf, sizeof buf, s + v, e - v));
    if (kend == 0)
        return fail(p, err, HS_ERR_PARSE,
                    "expected a band name before the byte count");
    int st = report_begin(p, err);
    if (st)
        return st;
    return cb_status(p, err, p->cb.band(p->cb.user, s, kend, bytes));
}

static int parse_line(hs_hp_parser *p, const char *s, size_t n,
                      hs_error *err)
{
    if (n && s[n - 1] == '\r')
        n--;
    size_t a = 0;
    while (a < n && hs__hp_is_space(s[a]))
        a++;
    if (a == n)
        return HS_OK;
    /* Inside a sample a line with a TAB is always a band: a band may be
     * called anything, END_SAMPLE included. */
    if (p->in_sample && memchr(s, '\t', n))
        return band_line(p, s, n, err);
    size_t k = a;
    while (k < n && !hs__hp_is_space(s[k]))
        k++;
    size_t r = k;
    while (r < n && hs__hp_is_space(s[r]))
        r++;
    size_t e = n;
    while (e > r && hs__hp_is_space(s[e - 1]))
        e--;
    int st = keyword_line(p, s + a, k - a, s + r, e - r, err);
    if (st <= 0)
        return st;
    if (!p->in_sample) {
        char buf[200];
        return fail(p, err, HS_ERR_PARSE,
                    "expected JOB, DATE, SAMPLE_UNIT, VALUE_UNIT, "
                    "BEGIN_SAMPLE or MARK, not '%s'",
                    hs__hp_shown(buf, sizeof buf, s + a, k - a));
    }
    return band_line(p, s, n, err);
}

/* The parser moved on by bytes and lines, to the start of a line. */
static void advance(hs_hp_parser *p, size_t bytes, uint64_t lines)
{
    p->offset += bytes;
    p->lineno += lines;
    p->line_off = p->offset;
}

/* Band lines handed over at once (hs_hp_callbacks.bands). */
#define RUN_LINES 64

/*
 * The run of runtime band lines at the start of s[0 .. n), inside a
 * sample (where a line with a TAB is always a band), handed over
 * RUN_LINES at a time with the line count and offsets kept in locals: the
 * bytes they took. *st is a callback's error, the parser then at the line
 * it stopped on.
 */
static size_t fast_bands(hs_hp_parser *p, const char *s, size_t n, int *st,
                         hs_error *err)
{
    hs_hp_band run[RUN_LINES];
    size_t pos = 0, done = 0, k = 0, t, took;
    uint64_t lines = 0, v;
#ifdef WINDOW
    struct window w = {0, 0, 0};
#endif
    for (;;) {
#ifdef WINDOW
        took = window_band(&w, s, n, pos, &t, &v);
        if (!took)
#endif
            took = fast_band(s + pos, n - pos, &t, &v);
        if (took && !p->began) {
            /* the sample's first band: the parser at its line */
            advance(p, pos - done, lines);
            done = pos;
            lines = 0;
            if ((*st = report_begin(p, err)) != HS_OK)
                return pos;
        }
        if (took) {
            run[k++] = (hs_hp_band){s + pos, t, v};
            pos += took;
            lines++;
            if (k < RUN_LINES)
                continue;
        }
        size_t taken = k;
        int cb = k ? p->cb.bands(p->cb.user, run, k, &taken) : HS_OK;
        if (cb) {
            /* the parser at the line that failed */
            size_t at = (size_t)(run[taken].name - s);
            advance(p, at - done, lines - (k - taken));
            *st = cb_status(p, err, cb);
            return at;
        }
        k = 0;
        if (!took)
            break;
    }
    advance(p, pos - done, lines);
    return pos;
}

int hs__hp_parser_feed(hs_hp_parser *p, const void *data, size_t len,
                       hs_error *err)
{
    if (p->error)
        return p->error;
    const char *d = data;
    size_t i = 0;
    while (i < len) {
        int st = HS_OK;
        if (!p->line_len && p->in_sample) {
            i += fast_bands(p, d + i, len - i, &st, err);
            if (st)
                return st;
            if (i >= len)
                break;
        }
        const char *nl = memchr(d + i, '\n', len - i);
        size_t take = nl ? (size_t)(nl - (d + i)) : len - i;
        if (p->line_len + take > LINE_MAX_BYTES)
            return fail(p, err, HS_ERR_PARSE,
                        "the line is longer than %u bytes: not a heap "
                        "profile", LINE_MAX_BYTES);
        const char *line = d + i;
        /* A line cut by the chunk's edge waits in p->line for its end;
         * a whole one is parsed where it lies. */
        if (p->line_len || !nl) {
            if (!hs_grow(p->alloc, (void **)&p->line, &p->line_cap,
                         p->line_len + take + 1, 1))
                return fail(p, err, HS_ERR_NOMEM, "out of memory");
            memcpy(p->line + p->line_len, d + i, take);
            p->line_len += take;
            line = p->line;
        }
        if (!nl) {
            p->offset += take;
            return HS_OK;
        }
        size_t n = p->line_len ? p->line_len : take;
        st = parse_line(p, line, n, err);
        p->line_len = 0;
        if (st)
            return st;
        p->offset += take + 1;
        i += take + 1;
        p->lineno++;
        p->line_off = p->offset;
    }
    return HS_OK;
}

int hs__hp_parser_finish(hs_hp_parser *p, hs_hp_facts *facts, hs_error *err)
{
    memset(facts, 0, sizeof *facts);
    if (p->error)
        return p->error;
    /* The runtime ends every line: a last line without its line break is
     * where a cut file stops. One that does not parse is the cut's
     * fragment (a band name without its count, half a keyword) and is
     * left out, with a warning, instead of failing the whole file. */
    bool cut_line = false;
    uint64_t cut_lineno = p->lineno;
    if (p->line_len) {
        /* cleared first: the setter keeps an error already recorded, and
         * an uninitialised record may look like one */
        hs_error line_err;
        hs__error_clear(&line_err);
        int st = parse_line(p, p->line, p->line_len, &line_err);
        p->line_len = 0;
        /* ... unless nothing came before it: then it is all the input
         * has, and what is wrong with it is the answer */
        if (st == HS_ERR_PARSE && (p->job || p->nsamples)) {
            p->error = 0;
            cut_line = true;
        } else if (st) {
            if (err)
                *err = line_err;
            return st;
        }
    }
    bool truncated = p->in_sample;
    /* The last empty sample is the runtime's closing one, unless it is
     * the only sample of the file. */
    if (p->pending && (p->nsamples == 1 || truncated)) {
        int st = report_pending(p, err);
        if (st)
            return st;
    }
    if (truncated) {
        int st = report_begin(p, err);
        if (st)
            return st;
    }
    if (!p->job && !p->nsamples)
        return fail(p, err, HS_ERR_PARSE,
                    "expected a heap profile (JOB, BEGIN_SAMPLE ...), found "
                    "no such line");
    facts->job = p->job;
    facts->date = p->date;
    facts->breakdown = p->job ? hs__hp_breakdown_from_job(p->job) : 0;
    facts->end_ns = p->last_end;
    if (truncated || cut_line) {
        char frag[64] = "";
        if (cut_line)
            snprintf(frag, sizeof frag, " (line %llu is cut short)",
                     (unsigned long long)cut_lineno);
        if (truncated)
            fail(p, err, HS_TRUNCATED,
                 "the file ends inside the sample begun at line %llu%s",
                 (unsigned long long)p->sample_line, frag);
        else
            fail(p, err, HS_TRUNCATED, "the file ends in the middle of a "
                 "line, which is left out%s", frag);
        p->error = 0;
        return HS_TRUNCATED;
    }
    return HS_OK;
}
