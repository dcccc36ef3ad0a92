/*
 * The report page and the diff of two runs under fuzzing; see
 * fuzz_report.h. Band names, the program's command line and marker texts
 * come from the input: the page must escape them wherever they land, and
 * the diff must match and order whatever bands it is given.
 */
#include "fuzz_report.h"
#include "textcheck.h"

#include <heapscope/diff.h>
#include <heapscope/page.h>

#include <math.h>
#include <stdint.h>
#include <string.h>
#include <strings.h>

/* Elements a name must never open or close: the page's two scripts, its
 * style, its title (the inline SVG chart adds one per band, each closed)
 * and the noscript around the static chart and table. */
static const char *const tags[] = {"<script", "</script", "<style",
                                   "</style", "<title", "</title",
                                   "<noscript", "</noscript"};
#define NTAGS (sizeof tags / sizeof tags[0])

/* Occurrences of each of tags[] in m, ignoring case as HTML does. */
static void count_tags(const hs_membuf *m, size_t counts[NTAGS])
{
    memset(counts, 0, NTAGS * sizeof counts[0]);
    const char *end = m->data + m->len;
    for (const char *p = m->data; p < end; p++) {
        p = memchr(p, '<', (size_t)(end - p));
        if (!p)
            break;
        for (size_t t = 0; t < NTAGS; t++) {
            size_t n = strlen(tags[t]);
            if ((size_t)(end - p) >= n && strncasecmp(p, tags[t], n) == 0)
                counts[t]++;
        }
    }
}

/* The counts in a page of a census whose only name is harmless: the
 * template's own elements. */
static const size_t *template_tags(void)
{
    static size_t counts[NTAGS];
    static bool done;
    if (done)
        return counts;
    static const char hp[] = "JOB \"prog\"\nDATE \"\"\n"
                             "SAMPLE_UNIT \"seconds\"\nVALUE_UNIT \"bytes\"\n"
                             "BEGIN_SAMPLE 0.00\nEND_SAMPLE 0.00\n"
                             "BEGIN_SAMPLE 1.00\nband\t64\nEND_SAMPLE 1.00\n";
    int st;
    hs_census *c = load_bytes(hp, sizeof hp - 1, &st);
    CHECK(c != NULL);
    hs_page_options po;
    hs_page_options_init(&po);
    po.no_inline_chart = true;
    hs_membuf m;
    memset(&m, 0, sizeof m);
    hs_sink s = hs_membuf_sink(&m);
    CHECK(hs_render_page(c, &s, &po) == HS_OK);
    count_tags(&m, counts);
    CHECK(counts[0] == 2 && counts[1] == 2); /* JSON data and the code */
    hs_membuf_free(&m);
    hs_census_free(c);
    done = true;
    return counts;
}

static bool starts_with(const hs_membuf *m, const char *s)
{
    size_t n = strlen(s);
    return m->len >= n && memcmp(m->data, s, n) == 0;
}

static bool ends_with(const hs_membuf *m, const char *s)
{
    size_t n = strlen(s);
    return m->len >= n && memcmp(m->data + m->len - n, s, n) == 0;
}

static size_t occurrences(const hs_membuf *m, const char *s)
{
    size_t k = 0, n = strlen(s);
    const char *p = m->data, *end = m->data + m->len;
    while ((p = memmem(p, (size_t)(end - p), s, n)) != NULL) {
        k++;
        p += n;
    }
    return k;
}

/* A live page's URL, markup itself, and how the page must name it. */
static const char live_url[] = "/data.json?a=\"<b>&c";
static const char live_meta[] = "<meta name=\"heapscope-live\" content=\"";
static const char live_meta_url[] =
    "<meta name=\"heapscope-live\" content=\"/data.json?a=&quot;&lt;b&gt;"
    "&amp;c\" data-interval=\"";

void check_page(const hs_census *c, const char *gc_json, unsigned flags)
{
    static const unsigned limits[4] = {15, 0, 1, 3};
    static const char *const include[] = {"a", "*Main*", NULL};
    static const hs_page_link links[2] = {
        {"prog.svg", NULL}, {"a\"<b>&.csv", "</script><script>"}};
    hs_page_options po;
    hs_page_options_init(&po);
    po.title = NULL; /* the program's command line, from the input */
    po.input = "fuzz</title>";
    po.gc_json = gc_json;
    po.bands = limits[flags & 3];
    po.sort = (hs_chart_sort)(((flags >> 2) & 3) % (HS_SORT_STDDEV + 1));
    po.kind = (flags & 16) ? HS_CHART_LINE : HS_CHART_AREA;
    po.include = (flags & 3) == 3 ? include : NULL;
    po.links = links;
    po.nlinks = 2;
    po.no_inline_chart = !(flags & PAGE_CHART);
    if (flags & PAGE_LIVE) {
        po.live_url = live_url;
        po.live_interval_ms = (flags & 1) ? 250 : 0;
    }

    hs_membuf doc, page;
    memset(&doc, 0, sizeof doc);
    memset(&page, 0, sizeof page);
    hs_sink s = hs_membuf_sink(&doc);
    int ds = hs_render_page_data(c, &s, &po);
    CHECK(ds == HS_OK || ds == HS_ERR_NO_DATA);
    if (ds == HS_OK) {
        check_json(&doc);
        CHECK(!memchr(doc.data, '<', doc.len) &&
              !memchr(doc.data, '>', doc.len) &&
              !memchr(doc.data, '&', doc.len));
    } else {
        CHECK(doc.len == 0);
    }

    s = hs_membuf_sink(&page);
    int ps = hs_render_page(c, &s, &po);
    if (ds == HS_ERR_NO_DATA && gc_json && *gc_json)
        CHECK(ps == HS_OK); /* a GC tab alone is a page */
    else
        CHECK(ps == ds);
    if (ps == HS_OK) {
        CHECK(starts_with(&page, "<!DOCTYPE html>\n"));
        CHECK(ends_with(&page, "</html>\n"));
        if (ds == HS_OK)
            CHECK(memmem(page.data, page.len, doc.data, doc.len) != NULL);
        size_t got[NTAGS];
        count_tags(&page, got);
        const size_t *want = template_tags();
        for (size_t t = 0; t < NTAGS; t++) {
            if (t == 4 || t == 5) /* the inline SVG titles its bands */
                CHECK(po.no_inline_chart ? got[t] == want[t]
                                         : got[t] >= want[t]);
            else
                CHECK(got[t] == want[t]);
        }
        CHECK(got[4] == got[5]);
        CHECK(occurrences(&page, live_meta) == ((flags & PAGE_LIVE) != 0));
        if (flags & PAGE_LIVE)
            CHECK(occurrences(&page, live_meta_url) == 1);
    } else {
        CHECK(page.len == 0);
    }
    hs_membuf_free(&doc);
    hs_membuf_free(&page);
}

static double change_of(const hs_diff *d, const hs_diff_band *b)
{
    return hs_diff_get_order(d) == HS_DIFF_BY_PEAK
               ? fabs((double)b->peak_bytes[1] - (double)b->peak_bytes[0])
               : fabs(b->byte_seconds[1] - b->byte_seconds[0]);
}

/* Every diff renderer: text into a counting sink, JSON checked as JSON,
 * folded stacks, and with DIFF_CHART a small SVG chart. */
static void render_diff(const hs_diff *d, unsigned flags)
{
    size_t counted = 0;
    hs_sink cs = {count_write, &counted};
    CHECK(hs_render_diff_text(d, &cs) == HS_OK && counted > 0);

    hs_membuf m;
    memset(&m, 0, sizeof m);
    hs_sink s = hs_membuf_sink(&m);
    CHECK(hs_render_diff_json(d, &s) == HS_OK);
    check_json(&m);
    hs_membuf_free(&m);

    bool windowed = hs_diff_get_run(d, HS_DIFF_BEFORE)->windowed ||
                    hs_diff_get_run(d, HS_DIFF_AFTER)->windowed;
    hs_folded_options fo;
    hs_folded_options_init(&fo);
    fo.source = HS_FOLDED_HEAP;
    fo.weight = (hs_folded_weight)(flags % (HS_WEIGHT_LAST + 1));
    fo.per_capability = false;
    int st = hs_render_diff_folded(d, &cs, &fo);
    CHECK(windowed ? st == HS_ERR_INVALID : st == HS_OK);

    if ((flags & DIFF_CHART) && hs_chart_available()) {
        hs_diff_chart_options co;
        hs_diff_chart_options_init(&co);
        hs_chart_options look;
        hs_chart_options_init(&look);
        look.format = HS_CHART_SVG;
        look.width = 240;
        look.height = 240;
        look.bands = 4;
        co.chart = &look;
        co.absolute_time = flags & 1;
        counted = 0;
        st = hs_render_diff_chart(d, &cs, &co);
        CHECK(st == HS_OK || st == HS_ERR_NO_DATA);
        if (st == HS_ERR_NO_DATA)
            CHECK(counted == 0);
    }
}

/* The window between the first and the last of c[0]'s user markers in
 * each run (`diff --between`), labelled with their texts (from the input:
 * the renderers must escape them); false, with o untouched, when a run
 * lacks one of them. */
static bool marker_window(const hs_census *const c[2], hs_diff_options *o)
{
    size_t n = hs_census_marker_count(c[0]);
    if (n == 0)
        return false;
    const char *from = hs_census_marker_at(c[0], 0)->text;
    const char *to = hs_census_marker_at(c[0], n - 1)->text;
    if (!from || !to)
        return false;
    uint64_t a[2], b[2];
    for (int k = 0; k < 2; k++) {
        hs_error err;
        memset(&err, 0, sizeof err);
        int st = hs_diff_marker_window(c[k], from, to, &a[k], &b[k], &err);
        if (st != HS_OK) {
            CHECK(st == HS_ERR_NO_DATA && err.code == st && err.message[0]);
            return false;
        }
        CHECK(a[k] < b[k]);
    }
    for (int k = 0; k < 2; k++) {
        o->from_ns[k] = a[k];
        o->to_ns[k] = b[k];
    }
    o->from_marker = from;
    o->to_marker = to;
    return true;
}

/* The diff of before and after with the options of flags (in *o). */
static int new_diff(const hs_census *before, const hs_census *after,
                    const hs_summary_stats *gc0, const hs_summary_stats *gc1,
                    unsigned flags, hs_diff_options *o, hs_diff **d,
                    hs_error *err)
{
    hs_diff_options_init(o);
    o->gc[0] = gc0;
    o->gc[1] = gc1;
    o->normalize = flags & 1;
    o->order = (flags & 2) ? HS_DIFF_BY_PEAK : HS_DIFF_BY_BYTE_SECONDS;
    o->input[0] = "before\n\"run\"";
    const hs_census *c[2] = {before, after};
    if ((flags & 4) && !((flags & 1) && marker_window(c, o))) {
        for (int k = 0; k < 2; k++) {
            uint64_t end = hs_census_get_info(c[k])->end_time_ns;
            o->from_ns[k] = end / 4;
            o->to_ns[k] = end - end / 4;
        }
    }
    *d = NULL;
    memset(err, 0, sizeof *err);
    return hs_diff_new(before, after, o, NULL, d, err);
}

/* The GC figures a run carries: those handed in, when both runs had them;
 * its collections summed over the generations. */
static void check_run_gc(const hs_diff_run *r, const hs_summary_stats *gc,
                         bool both)
{
    CHECK(r->has_gc == both);
    if (!both)
        return;
    CHECK(r->gc.allocated_bytes == gc->allocated_bytes &&
          r->gc.has_allocated == gc->has_allocated);
    CHECK(r->gc.max_live_bytes == gc->max_live_bytes &&
          r->gc.gc_ns == gc->gc_ns && r->gc.major_gcs == gc->major_gcs);
    CHECK(!r->gc.gens && !r->gc.caps && !r->gc.rts_identifier);
    uint64_t n = 0;
    for (uint32_t g = 0; g < gc->n_gens && gc->gens; g++)
        n += gc->gens[g].collections;
    CHECK(r->collections == n);
}

void check_self_diff(const hs_census *c, const hs_summary_stats *gc,
                     unsigned flags)
{
    hs_diff_options o;
    hs_diff *d;
    hs_error err;
    int st = new_diff(c, c, gc, gc, flags, &o, &d, &err);
    if (st != HS_OK) {
        /* only a census without a heap profile is refused */
        CHECK(st == HS_ERR_NO_DATA && d == NULL && err.code == st);
        CHECK(!hs_census_sample_count(c));
        return;
    }
    const hs_diff_run *b = hs_diff_get_run(d, HS_DIFF_BEFORE);
    const hs_diff_run *a = hs_diff_get_run(d, HS_DIFF_AFTER);
    CHECK(b->peak_bytes == a->peak_bytes && b->peak_time_ns == a->peak_time_ns);
    CHECK(b->byte_seconds == a->byte_seconds && b->samples == a->samples);
    CHECK(b->duration_ns == a->duration_ns && b->bands == a->bands);
    check_run_gc(b, gc, gc != NULL);
    check_run_gc(a, gc, gc != NULL);
    CHECK(b->samples <= hs_census_sample_count(c));
    CHECK(b->to_ns >= b->from_ns);
    size_t n = hs_diff_band_count(d);
    CHECK(n == b->bands && n <= hs_census_band_count(c));
    CHECK(hs_diff_normalized_matches(d) == 0);
    for (size_t i = 0; i < n; i++) {
        const hs_diff_band *x = hs_diff_band_at(d, i);
        CHECK(x->status == HS_DIFF_BOTH && !x->normalized_only);
        CHECK(x->members[0] == x->members[1] && x->members[0] > 0);
        CHECK(x->peak_bytes[0] == x->peak_bytes[1]);
        CHECK(x->peak_time_ns[0] == x->peak_time_ns[1]);
        CHECK(x->byte_seconds[0] == x->byte_seconds[1]);
        CHECK(x->peak_bytes[0] <= b->peak_bytes || b->samples == 0);
        if (i)
            CHECK(strcmp(hs_diff_band_at(d, i - 1)->name, x->name) < 0);
    }
    render_diff(d, flags);
    hs_diff_free(d);
}

void check_diff(const hs_census *before, const hs_census *after,
                const hs_summary_stats *const gc[2], unsigned flags)
{
    hs_diff_options o;
    hs_diff *d;
    hs_error err;
    const hs_summary_stats *g0 = gc ? gc[0] : NULL, *g1 = gc ? gc[1] : NULL;
    int st = new_diff(before, after, g0, g1, flags, &o, &d, &err);
    if (st != HS_OK) {
        CHECK(st == HS_ERR_NO_DATA || st == HS_ERR_INVALID);
        CHECK(d == NULL && err.code == st && err.message[0]);
        if (st == HS_ERR_NO_DATA)
            CHECK(err.line == 1 || err.line == 2);
        return;
    }
    size_t n = hs_diff_band_count(d), in[2] = {0, 0};
    for (size_t i = 0; i < n; i++) {
        const hs_diff_band *x = hs_diff_band_at(d, i);
        CHECK(x->status == HS_DIFF_BOTH || x->status == HS_DIFF_NEW ||
              x->status == HS_DIFF_GONE);
        bool seen[2] = {x->status != HS_DIFF_NEW, x->status != HS_DIFF_GONE};
        for (int k = 0; k < 2; k++) {
            if (seen[k]) {
                CHECK(x->members[k] > 0);
                in[k]++;
            }
        }
        CHECK(!x->normalized_only || (o.normalize && x->status == HS_DIFF_BOTH));
        if (i) {
            const hs_diff_band *p = hs_diff_band_at(d, i - 1);
            double cp = change_of(d, p), cx = change_of(d, x);
            CHECK(cp > cx || (cp == cx && strcmp(p->name, x->name) < 0));
        }
    }
    CHECK(in[0] == hs_diff_get_run(d, HS_DIFF_BEFORE)->bands);
    CHECK(in[1] == hs_diff_get_run(d, HS_DIFF_AFTER)->bands);
    check_run_gc(hs_diff_get_run(d, HS_DIFF_BEFORE), g0, g0 && g1);
    check_run_gc(hs_diff_get_run(d, HS_DIFF_AFTER), g1, g0 && g1);
    render_diff(d, flags);
    hs_diff_free(d);

    hs_page_options po;
    hs_page_options_init(&po);
    po.input = "before";
    po.input_after = "after</script>";
    size_t counted = 0;
    hs_sink cs = {count_write, &counted};
    st = hs_render_page_compare(before, after, &cs, &po);
    CHECK(st == HS_OK || st == HS_ERR_NO_DATA);
    if (st == HS_ERR_NO_DATA)
        CHECK(counted == 0);
    else
        CHECK(hs_census_sample_count(before) && hs_census_sample_count(after));
}

void check_summary_pair(int text_st, size_t text_len, int json_st,
                        const hs_membuf *json)
{
    CHECK(text_st == HS_OK || text_st == HS_ERR_NO_DATA);
    CHECK(json_st == text_st);
    if (text_st == HS_OK) {
        check_json(json);
    } else {
        CHECK(text_len == 0 && json->len == 0);
    }
}
