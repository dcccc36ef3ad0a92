/*
 * The .hp renderer: a census as the runtime writes its heap profile, so
 * hp2ps and every tool that reads .hp files take it.
 *
 * Layout: JOB, DATE, SAMPLE_UNIT, VALUE_UNIT, an empty sample at 0, the
 * samples, hp2ps MARK lines between samples at their times, and an empty
 * closing sample at the end time. Entries are written as the census holds
 * them, zero bytes included: the runtime writes the five -hb bands of a
 * census even when one of them is 0. Keys are the band groups' names
 * (census.h), so bands of one name are one key.
 *
 * The JOB and DATE texts are built here from the run's raw facts (its
 * arguments, runtime and wall clock); a census read from a .hp keeps the
 * texts it read.
 */
#include "heapscope/render.h"
#include "common/internal.h"

#include <stdio.h>
#include <string.h>
#include <time.h>

/* A growing text, for the JOB line. */
struct text {
    const hs_allocator *alloc;
    char *s;
    size_t len, cap;
    bool failed;
};

static void text_add(struct text *t, const char *s, size_t n)
{
    if (t->failed || !hs_grow(t->alloc, (void **)&t->s, &t->cap,
                              t->len + n + 1, 1)) {
        t->failed = true;
        return;
    }
    memcpy(t->s + t->len, s, n);
    t->len += n;
    t->s[t->len] = 0;
}

/* Whether the runtime that wrote the log is profiled ("GHC-9.0.2
 * rts_thr_p": a "_p" way tag after "rts"); unknown counts as profiled. */
static bool rts_profiled(const char *rts_id)
{
    const char *w = rts_id ? strstr(rts_id, "rts") : NULL;
    if (!w)
        return true;
    for (const char *p = w; *p; p++)
        if (*p == '_' && p[1] == 'p' && (p[2] == 0 || p[2] == '_'))
            return true;
    return false;
}

/* The runtime's JOB: argv[0]'s base name, the program's own arguments,
 * then " +RTS" and the RTS options (only profiled runtimes write those). */
static void job_from_args(const hs_census_info *in, struct text *t)
{
    const char *argv0 = in->argc ? in->argv[0] : "";
    const char *base = strrchr(argv0, '/');
    base = base ? base + 1 : argv0;
    text_add(t, base, strlen(base));
    struct text rts = {t->alloc, NULL, 0, 0, false};
    int mode = 0; /* 0 program args, 1 RTS args, 2 all program args */
    for (size_t i = 1; i < in->argc; i++) {
        const char *a = in->argv[i];
        if (mode != 2 && strcmp(a, "+RTS") == 0) {
            mode = 1;
        } else if (mode == 1 && strcmp(a, "-RTS") == 0) {
            mode = 0;
        } else if (mode != 2 && strcmp(a, "--RTS") == 0) {
            mode = 2;
        } else {
            struct text *dst = mode == 1 ? &rts : t;
            text_add(dst, " ", 1);
            text_add(dst, a, strlen(a));
        }
    }
    if (rts_profiled(in->rts_identifier)) {
        text_add(t, " +RTS", 5);
        text_add(t, rts.s ? rts.s : "", rts.len);
    }
    t->failed |= rts.failed;
    hs_free(t->alloc, rts.s);
}

/* The JOB text in t (allocated); false when out of memory. */
static bool job_text(const hs_census *c, struct text *t)
{
    const hs_census_info *in = hs_census_get_info(c);
    if (in->job)
        text_add(t, in->job, strlen(in->job));
    else if (in->argc)
        job_from_args(in, t);
    else
        text_add(t, in->program ? in->program : "",
                 in->program ? strlen(in->program) : 0);
    return !t->failed;
}

static size_t copy_out(char *buf, size_t size, const char *s, size_t len)
{
    if (size) {
        size_t n = len < size - 1 ? len : size - 1;
        memcpy(buf, s, n);
        buf[n] = 0;
    }
    return len;
}

size_t hs_render_hp_job(const hs_census *c, char *buf, size_t size)
{
    struct text t = {hs_census_allocator(c), NULL, 0, 0, false};
    if (!job_text(c, &t)) {
        hs_free(t.alloc, t.s);
        return SIZE_MAX;
    }
    size_t n = copy_out(buf, size, t.s ? t.s : "", t.len);
    hs_free(t.alloc, t.s);
    return n;
}

static const char *const day_names[] = {"Sun", "Mon", "Tue", "Wed",
                                        "Thu", "Fri", "Sat"};
static const char *const month_names[] = {"Jan", "Feb", "Mar", "Apr",
                                          "May", "Jun", "Jul", "Aug",
                                          "Sep", "Oct", "Nov", "Dec"};

size_t hs_render_hp_date(const hs_census *c, char *buf, size_t size)
{
    const hs_census_info *in = hs_census_get_info(c);
    if (in->date)
        return copy_out(buf, size, in->date, strlen(in->date));
    /* ctime's layout without the seconds, in local time like the
     * runtime's, and independent of the locale */
    char tmp[64] = "";
    time_t t = (time_t)in->wall_clock_sec;
    struct tm tm;
    if (in->has_wall_clock && (uint64_t)t == in->wall_clock_sec &&
        localtime_r(&t, &tm) && tm.tm_wday >= 0 && tm.tm_wday <= 6 &&
        tm.tm_mon >= 0 && tm.tm_mon <= 11)
        snprintf(tmp, sizeof tmp, "%s %s %2d %02d:%02d %d",
                 day_names[tm.tm_wday], month_names[tm.tm_mon], tm.tm_mday,
                 tm.tm_hour, tm.tm_min, tm.tm_year + 1900);
    return copy_out(buf, size, tmp, strlen(tmp));
}

/* A quoted .hp string: quotes doubled, as the runtime writes its JOB. */
static void put_quoted(hs_outbuf *o, const char *s, size_t n)
{
    hs_outbuf_putc(o, '"');
    for (size_t i = 0; i < n; i++) {
        if (s[i] == '"')
            hs_outbuf_putc(o, '"');
        /* A line break would end the header line early. */
        hs_outbuf_putc(o, s[i] == '\n' || s[i] == '\r' ? ' ' : s[i]);
    }
    hs_outbuf_putc(o, '"');
    hs_outbuf_putc(o, '\n');
}

static void put_sample_line(hs_outbuf *o, const char *kw, uint64_t ns)
{
    hs_outbuf_puts(o, kw);
    hs_outbuf_putc(o, ' ');
    hs_outbuf_seconds(o, ns);
    hs_outbuf_putc(o, '\n');
}

static int put_header(const hs_census *c, hs_outbuf *o)
{
    struct text job = {hs_census_allocator(c), NULL, 0, 0, false};
    if (!job_text(c, &job)) {
        hs_free(job.alloc, job.s);
        return HS_ERR_NOMEM;
    }
    char date[64];
    size_t dn = hs_render_hp_date(c, date, sizeof date);
    hs_outbuf_puts(o, "JOB ");
    put_quoted(o, job.s ? job.s : "", job.len);
    hs_outbuf_puts(o, "DATE ");
    put_quoted(o, date, dn < sizeof date ? dn : sizeof date - 1);
    hs_outbuf_puts(o, "SAMPLE_UNIT \"seconds\"\nVALUE_UNIT \"bytes\"\n");
    put_sample_line(o, "BEGIN_SAMPLE", 0);
    put_sample_line(o, "END_SAMPLE", 0);
    hs_free(job.alloc, job.s);
    return HS_OK;
}

/*
 * A band name as a .hp key, which is one line and never empty: line
 * breaks as \x0a and \x0d, the empty name as "" (the reader refuses an
 * empty key). Everything else, TABs and spaces at the end included, is
 * written as it is: the reader splits the line at its last TAB.
 */
static void put_key(hs_outbuf *o, const char *name)
{
    if (!*name) {
        hs_outbuf_puts(o, "\"\"");
        return;
    }
    for (;;) {
        size_t n = strcspn(name, "\n\r");
        hs_outbuf_write(o, name, n);
        if (!name[n])
            return;
        hs_outbuf_puts(o, name[n] == '\n' ? "\\x0a" : "\\x0d");
        name += n + 1;
    }
}

/* The samples with MARK lines between them; returns the end time. */
static uint64_t put_samples(const hs_census *c, hs_band_groups *g,
                            hs_outbuf *o)
{
    size_t ns = hs_census_sample_count(c);
    size_t nm = hs_census_marker_count(c), m = 0;
    uint64_t end = hs_census_get_info(c)->end_time_ns;
    for (size_t i = 0; i < ns; i++) {
        uint64_t t = hs_census_sample_time(c, i);
        for (; m < nm && hs_census_marker_at(c, m)->time_ns < t; m++)
            put_sample_line(o, "MARK", hs_census_marker_at(c, m)->time_ns);
        if (t > end)
            end = t;
        const hs_census_entry *e;
        size_t ne = hs_band_groups_sample(g, i, &e);
        put_sample_line(o, "BEGIN_SAMPLE", t);
        for (size_t k = 0; k < ne; k++) {
            put_key(o, hs_band_groups_name(g, e[k].band));
            hs_outbuf_putc(o, '\t');
            hs_outbuf_u64(o, e[k].bytes);
            hs_outbuf_putc(o, '\n');
        }
        put_sample_line(o, "END_SAMPLE", t);
    }
    for (; m < nm; m++) {
        uint64_t t = hs_census_marker_at(c, m)->time_ns;
        put_sample_line(o, "MARK", t);
        if (t > end)
            end = t;
    }
    return end;
}

int hs_render_hp(const hs_census *c, hs_sink *out)
{
    if (!hs_census_has_heap_profile(c))
        return HS_ERR_NO_DATA;
    const hs_allocator *a = hs_census_allocator(c);
    hs_band_groups *g = hs_band_groups_new(c);
    hs_outbuf *o = hs_malloc(a, sizeof *o);
    int st = HS_ERR_NOMEM;
    if (g && o) {
        hs_outbuf_init(o, out);
        st = put_header(c, o);
        if (!st) {
            uint64_t end = put_samples(c, g, o);
            put_sample_line(o, "BEGIN_SAMPLE", end);
            put_sample_line(o, "END_SAMPLE", end);
            st = hs_outbuf_flush(o);
        }
    }
    hs_free(a, o);
    hs_band_groups_free(g);
    return st;
}
