/*
 * What the libFuzzer targets share; see fuzz_common.h.
 */
#include "fuzz_common.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

/* An unnamed regular file: a memfd, or where there is none a file in
 * /dev/shm (memory too) or $TMPDIR, unlinked at once; -1 when none. */
static int anon_file(void)
{
    int fd = memfd_create("fuzz", 0);
    const char *tmp = getenv("TMPDIR");
    const char *dirs[] = {"/dev/shm", tmp && *tmp ? tmp : "/tmp"};
    for (size_t i = 0; fd < 0 && i < sizeof dirs / sizeof dirs[0]; i++) {
        char path[4096];
        snprintf(path, sizeof path, "%s/heapscope-fuzz-XXXXXX", dirs[i]);
        fd = mkstemp(path);
        if (fd >= 0)
            unlink(path);
    }
    return fd;
}

/* A memory file holding len bytes, positioned at its start; -1 when the
 * kernel refuses (then the input is skipped, not failed). */
int mem_fd(const void *data, size_t len)
{
    int fd = anon_file();
    if (fd < 0)
        return -1;
    const uint8_t *p = data;
    size_t left = len;
    while (left) {
        ssize_t w = write(fd, p, left);
        if (w <= 0) {
            close(fd);
            return -1;
        }
        p += w;
        left -= (size_t)w;
    }
    if (lseek(fd, 0, SEEK_SET) != 0) {
        close(fd);
        return -1;
    }
    return fd;
}

/* Loads bytes through the file path; NULL when the load failed outright. */
hs_census *load_bytes(const void *data, size_t len, int *status)
{
    hs_census *c = hs_census_new();
    CHECK(c != NULL);
    int fd = mem_fd(data, len);
    if (fd < 0) {
        hs_census_free(c);
        *status = HS_ERR_IO;
        return NULL;
    }
    hs_error err;
    memset(&err, 0, sizeof err);
    *status = hs_census_load_fd(c, fd, &err);
    close(fd);
    if (*status < 0) {
        CHECK(err.code == *status);
        CHECK(memchr(err.message, 0, sizeof err.message) != NULL);
        hs_census_free(c);
        return NULL;
    }
    return c;
}

void same_census(const hs_census *a, const hs_census *b)
{
    const hs_census_info *ia = hs_census_get_info(a);
    const hs_census_info *ib = hs_census_get_info(b);
    CHECK(ia->end_time_ns == ib->end_time_ns);
    CHECK(ia->breakdown == ib->breakdown);
    CHECK(ia->complete == ib->complete);
    size_t n = hs_census_sample_count(a);
    CHECK(n == hs_census_sample_count(b));
    CHECK(hs_census_band_count(a) == hs_census_band_count(b));
    for (size_t i = 0; i < n; i++) {
        CHECK(hs_census_sample_time(a, i) == hs_census_sample_time(b, i));
        CHECK(hs_census_sample_total(a, i) == hs_census_sample_total(b, i));
    }
    for (size_t k = 0; k < hs_census_band_count(a); k++)
        CHECK(strcmp(hs_census_band_name(a, k), hs_census_band_name(b, k)) ==
              0);
}


static int render_hp(const hs_census *c, hs_sink *out, const void *opt)
{
    (void)opt;
    return hs_render_hp(c, out);
}

static int render_csv(const hs_census *c, hs_sink *out, const void *opt)
{
    return hs_render_csv(c, out, *(const hs_csv_layout *)opt);
}

static int render_folded(const hs_census *c, hs_sink *out, const void *opt)
{
    return hs_render_folded(c, out, opt);
}

static int render_chart(const hs_census *c, hs_sink *out, const void *opt)
{
    return hs_render_chart(c, out, opt);
}

/* A sink that keeps only the count of what it is given: renderers whose
 * output no check reads write into it, so that a large output costs its
 * formatting, not a growing buffer (under ASan every doubling is a fresh
 * mapping, a copy and an unmapping). */
int count_write(void *ctx, const void *data, size_t len)
{
    (void)data;
    *(size_t *)ctx += len;
    return HS_OK;
}

int render(const hs_census *c, render_fn fn, const void *opt, hs_membuf *m)
{
    size_t counted = 0;
    hs_sink s = {count_write, &counted};
    if (m) {
        memset(m, 0, sizeof *m);
        s = hs_membuf_sink(m);
    }
    int st = fn(c, &s, opt);
    CHECK(st == HS_OK || st == HS_ERR_NO_DATA || st == HS_ERR_INVALID);
    if (st == HS_ERR_NO_DATA)
        CHECK((m ? m->len : counted) == 0);
    return st;
}

/* hp(load(hp(c))) == hp(c): what `hp` writes, `hp` reads back. */
void hp_round_trip(const hs_census *c)
{
    hs_membuf first;
    if (render(c, render_hp, NULL, &first) != HS_OK) {
        hs_membuf_free(&first);
        return;
    }
    int st;
    hs_census *back = load_bytes(first.data, first.len, &st);
    CHECK(back != NULL);
    hs_membuf second;
    CHECK(render(back, render_hp, NULL, &second) == HS_OK);
    CHECK(second.len == first.len &&
          memcmp(second.data, first.data, first.len) == 0);
    hs_membuf_free(&second);
    hs_census_free(back);
    hs_membuf_free(&first);
}

void render_csv_layout(const hs_census *c, hs_csv_layout layout)
{
    render(c, render_csv, &layout, NULL);
}

struct line {
    const char *p;
    size_t n;
};

static int line_cmp(const void *a, const void *b)
{
    const struct line *x = a, *y = b;
    size_t n = x->n < y->n ? x->n : y->n;
    int d = memcmp(x->p, y->p, n);
    return d ? d : (x->n > y->n) - (x->n < y->n);
}

uint64_t folded_sum(const hs_membuf *m, size_t *nlines)
{
    *nlines = 0;
    if (m->len == 0) /* every line rounded to nothing; data may be NULL */
        return 0;
    CHECK(m->data[m->len - 1] == '\n');
    CHECK(memchr(m->data, 0, m->len) == NULL);
    size_t cap = 0, n = 0;
    for (size_t i = 0; i < m->len; i++)
        cap += m->data[i] == '\n';
    struct line *lines = malloc(cap * sizeof *lines);
    CHECK(lines != NULL);
    uint64_t sum = 0;
    const char *p = m->data, *end = m->data + m->len;
    while (p < end) {
        const char *eol = memchr(p, '\n', (size_t)(end - p));
        const char *sp = eol;
        while (sp > p && sp[-1] >= '0' && sp[-1] <= '9')
            sp--;
        CHECK(sp < eol && sp[0] != '0'); /* a count, no leading zero */
        CHECK(sp - 1 > p && sp[-1] == ' ');
        uint64_t w = 0;
        for (const char *d = sp; d < eol; d++) {
            CHECK(w <= (UINT64_MAX - (uint64_t)(*d - '0')) / 10);
            w = w * 10 + (uint64_t)(*d - '0');
        }
        sum = add_sat(sum, w);
        const char *fe = sp - 1; /* end of the frames */
        CHECK(memchr(p, '\t', (size_t)(fe - p)) == NULL);
        CHECK(memchr(p, '\r', (size_t)(fe - p)) == NULL);
        CHECK(p[0] != ';' && fe[-1] != ';');
        for (const char *q = p; q + 1 < fe; q++)
            CHECK(!(q[0] == ';' && q[1] == ';'));
        const char *t = fe;
        while (t > p && t[-1] >= '0' && t[-1] <= '9')
            t--;
        CHECK(t == fe || t == p || t[-1] != ' '); /* no frame ends " 12" */
        lines[n++] = (struct line){p, (size_t)(fe - p)};
        p = eol + 1;
    }
    qsort(lines, n, sizeof *lines, line_cmp);
    for (size_t i = 1; i < n; i++)
        CHECK(line_cmp(&lines[i - 1], &lines[i]) != 0);
    free(lines);
    *nlines = n;
    return sum;
}

/* Every folded weight of heap and time. Where the weights are whole
 * numbers below 2^53 (summed in doubles without loss), the lines add up
 * to the census's own figure: the peak and the last sample's totals, the
 * time profile's ticks. */
void render_folded_all(const hs_census *c)
{
    const uint64_t exact = (uint64_t)1 << 53;
    size_t ns = hs_census_sample_count(c), nlines;
    for (int w = HS_WEIGHT_PEAK; w <= HS_WEIGHT_LAST; w++) {
        hs_folded_options fo;
        hs_folded_options_init(&fo);
        fo.source = HS_FOLDED_HEAP;
        fo.weight = (hs_folded_weight)w;
        fo.per_capability = false;
        hs_membuf m;
        int st = render(c, render_folded, &fo, &m);
        if (st == HS_OK) {
            uint64_t sum = folded_sum(&m, &nlines);
            CHECK(nlines <= hs_census_band_count(c));
            size_t pick = w == HS_WEIGHT_PEAK ? hs_census_peak_sample(c)
                                              : ns - 1;
            uint64_t total = ns ? hs_census_sample_total(c, pick) : 0;
            if (w != HS_WEIGHT_INTEGRAL && total < exact)
                CHECK(sum == total);
        }
        hs_membuf_free(&m);
    }
    uint64_t ticks = 0, all = 0;
    for (size_t i = 0; i < hs_census_tprof_count(c); i++) {
        const uint32_t *ids;
        uint64_t t;
        hs_census_tprof_stack(c, i, -1, &ids, &t);
        ticks = add_sat(ticks, t);
    }
    for (size_t k = 0; k < hs_census_tprof_cap_count(c); k++) {
        size_t stack;
        uint32_t cap;
        uint64_t t = hs_census_tprof_cap_at(c, k, &stack, &cap);
        all = add_sat(all, t);
    }
    for (int per_cap = 0; per_cap < 2; per_cap++) {
        hs_folded_options ft;
        hs_folded_options_init(&ft);
        ft.source = HS_FOLDED_TIME;
        ft.weight = HS_WEIGHT_PEAK;
        ft.per_capability = per_cap;
        hs_membuf m;
        if (render(c, render_folded, &ft, &m) == HS_OK) {
            uint64_t sum = folded_sum(&m, &nlines);
            uint64_t want = per_cap ? all : ticks;
            if (want < exact)
                CHECK(sum == want);
        }
        hs_membuf_free(&m);
    }
    /* each tick is of one stack and one capability */
    CHECK(ticks == all && all == hs_census_get_info(c)->time_samples);
}

void render_all(const hs_census *c)
{
    render_csv_layout(c, HS_CSV_LONG);
    render_csv_layout(c, HS_CSV_WIDE);
    render_folded_all(c);
}

void render_small_chart(const hs_census *c, unsigned width,
                        unsigned height)
{
    if (!hs_chart_available())
        return;
    hs_chart_options co;
    hs_chart_options_init(&co);
    co.format = HS_CHART_SVG;
    co.width = width;
    co.height = height;
    render(c, render_chart, &co, NULL);
}
