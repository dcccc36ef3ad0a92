/*
 * heapscope report: the main job. Every report of a log side by side: the
 * chart as SVG and PDF, the .hp, the CSV and the folded stacks, then a
 * line saying what the heap did.
 */
#include "cli.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "report_html.h"

static const char help[] =
    "usage: heapscope report [-d DIR] FILE\n"
    "\n"
    "Writes, side by side in DIR (default: the current directory), every\n"
    "report of an eventlog or a .hp file, named after FILE without its\n"
    "extension:\n"
    "  NAME.svg, NAME.pdf   the heap chart (as 'heapscope chart' draws it)\n"
    "  NAME.hp              the heap profile as the runtime writes it\n"
    "  NAME.csv             the census, one row per band per sample\n"
    "  NAME.folded          heap folded stacks, bytes at the peak\n"
    "  NAME.time.folded     time-profile folded stacks, when the log has them\n"
    "  NAME.html            one page to open in a browser: the chart, every\n"
    "                       band with its peak and share, the run, the files\n"
    "then prints each file written and a summary: the heap's peak, when it\n"
    "happened, and the largest band. A file that would replace FILE itself is\n"
    "not written.\n"
    "\n"
    "options:\n"
    "  -d, --dir DIR         where to write (made when missing)\n"
    "  -L, --name-limit N    cut -hc names to N characters as +RTS -L does\n"
    "  -h, --help            this text\n"
    "\n"
    "Exit codes: see 'heapscope --help'; 4 when the log has neither heap\n"
    "samples nor a time profile.\n";

enum { OPT_DIR = 1, OPT_NAME_LIMIT };

static const cli_opt opts[] = {
    {"dir", 'd', 1, OPT_DIR},
    {"name-limit", 'L', 1, OPT_NAME_LIMIT},
    {0, 0, 0, 0},
};

/* The input's name without directory and last extension; "stdin" for -. */
static char *base_name(const char *path)
{
    if (strcmp(path, "-") == 0)
        return strdup("stdin");
    const char *slash = strrchr(path, '/');
    const char *b = slash ? slash + 1 : path;
    size_t n = strlen(b);
    const char *dot = strrchr(b, '.');
    if (dot && dot != b)
        n = (size_t)(dot - b);
    if (n == 0)
        return strdup("heapscope");
    return strndup(b, n);
}

/* mkdir -p */
static int make_dir(const char *dir)
{
    char *p = strdup(dir);
    if (!p)
        return ENOMEM;
    int e = 0;
    for (char *q = p + 1;; q++) {
        if (*q == '/' || *q == 0) {
            char c = *q;
            *q = 0;
            if (mkdir(p, 0777) != 0 && errno != EEXIST) {
                e = errno;
                break;
            }
            *q = c;
            if (!c)
                break;
        }
    }
    free(p);
    if (!e) {
        struct stat st;
        if (stat(dir, &st) != 0)
            e = errno;
        else if (!S_ISDIR(st.st_mode))
            e = ENOTDIR;
    }
    return e;
}

static void human_bytes(char *buf, size_t n, double v)
{
    static const char *const u[] = {"B", "KiB", "MiB", "GiB", "TiB"};
    int k = 0;
    while (v >= 1024 && k < 4) {
        v /= 1024;
        k++;
    }
    if (k == 0)
        snprintf(buf, n, "%.0f B", v);
    else
        snprintf(buf, n, "%.*f %s", v < 10 ? 2 : v < 100 ? 1 : 0, v, u[k]);
}

typedef enum what { W_SVG, W_PDF, W_HP, W_CSV, W_FOLDED, W_TFOLDED } what;

static int render_one(const hs_census *c, hs_sink *out, const void *arg)
{
    what w = *(const what *)arg;
    hs_chart_options co;
    hs_folded_options fo = {HS_FOLDED_HEAP, HS_WEIGHT_PEAK, false};
    switch (w) {
    case W_SVG:
    case W_PDF:
        hs_chart_options_init(&co);
        co.format = w == W_SVG ? HS_CHART_SVG : HS_CHART_PDF;
        return hs_render_chart(c, out, &co);
    case W_HP: return hs_render_hp(c, out);
    case W_CSV: return hs_render_csv(c, out, HS_CSV_LONG);
    case W_FOLDED: return hs_render_folded(c, out, &fo);
    case W_TFOLDED:
        fo.source = HS_FOLDED_TIME;
        return hs_render_folded(c, out, &fo);
    }
    return HS_ERR_INVALID;
}

/* Writes one output atomically; prints what was written. Returns an exit
 * code. */
static int write_one(const hs_census *c, cli_render_fn fn, const void *arg,
                     const char *path, const struct stat *input)
{
    struct stat st;
    if (input && stat(path, &st) == 0 && st.st_dev == input->st_dev &&
        st.st_ino == input->st_ino) {
        cli_warnf("%s: not written: it is the input (use -d DIR)", path);
        return EXIT_OK;
    }
    int rc = cli_write_output("report", c, path, fn, arg, path,
                              "nothing to write");
    if (rc)
        return rc;
    char size[32] = "";
    if (stat(path, &st) == 0)
        human_bytes(size, sizeof size, (double)st.st_size);
    printf("wrote %s (%s)\n", path, size);
    return EXIT_OK;
}

/* --- the HTML page (templates/report.html) ---------------------------- */

static int put_html(hs_sink *o, const char *s, size_t n)
{
    size_t start = 0;
    for (size_t i = 0; i < n; i++) {
        const char *rep = NULL;
        switch (s[i]) {
        case '&': rep = "&amp;"; break;
        case '<': rep = "&lt;"; break;
        case '>': rep = "&gt;"; break;
        case '"': rep = "&quot;"; break;
        default: continue;
        }
        if (hs_sink_write(o, s + start, i - start) ||
            hs_sink_write(o, rep, strlen(rep)))
            return HS_ERR_IO;
        start = i + 1;
    }
    return hs_sink_write(o, s + start, n - start);
}

static int put_htmls(hs_sink *o, const char *s)
{
    return put_html(o, s ? s : "", s ? strlen(s) : 0);
}

typedef struct page {
    const hs_census *c;
    const char *input;
    const char *title;
    char *const *files; /* written files, base names */
    size_t nfiles;
} page;

static int page_subtitle(hs_sink *o, const page *pg)
{
    const hs_census_info *in = hs_census_get_info(pg->c);
    size_t n = hs_census_sample_count(pg->c);
    size_t peak = hs_census_peak_sample(pg->c);
    char pk[32];
    human_bytes(pk, sizeof pk, (double)hs_census_sample_total(pg->c, peak));
    return hs_sink_printf(o, "-%s, by %s &middot; %zu samples &middot; %.3f s "
                          "&middot; peak %s at %.3f s",
                          hs_breakdown_flag(in->breakdown),
                          hs_breakdown_name(in->breakdown), n,
                          (in->end_time_ns ? in->end_time_ns
                                           : hs_census_sample_time(pg->c, n - 1))
                              / 1e9, pk,
                          hs_census_sample_time(pg->c, peak) / 1e9);
}

static int page_chart(hs_sink *o, const page *pg)
{
    hs_membuf m = {0};
    hs_sink ms = hs_membuf_sink(&m);
    hs_chart_options co;
    hs_chart_options_init(&co);
    co.format = HS_CHART_SVG;
    int st = hs_render_chart(pg->c, &ms, &co);
    if (st == HS_OK) {
        /* Inline SVG takes no XML declaration. */
        const char *svg = m.data ? m.data : "";
        if (strncmp(svg, "<?xml", 5) == 0) {
            const char *nl = strchr(svg, '\n');
            svg = nl ? nl + 1 : svg + strlen(svg);
        }
        st = hs_sink_write(o, svg, strlen(svg));
    }
    hs_membuf_free(&m);
    return st;
}

/* Rows of the bands table, largest byte-seconds first; very many bands
 * are cut with a closing row saying how many were left out. */
#define PAGE_MAX_BANDS 500

static const hs_band_stats *sort_stats;

static int by_byte_seconds(const void *a, const void *b)
{
    double x = sort_stats[*(const size_t *)a].byte_seconds;
    double y = sort_stats[*(const size_t *)b].byte_seconds;
    return x > y ? -1 : x < y;
}

static int page_bands(hs_sink *o, const page *pg)
{
    size_t nb = hs_census_band_count(pg->c);
    hs_band_stats *st = calloc(nb ? nb : 1, sizeof *st);
    size_t *order = calloc(nb ? nb : 1, sizeof *order);
    if (!st || !order || hs_census_band_stats(pg->c, st) != HS_OK) {
        free(st);
        free(order);
        return HS_ERR_NOMEM;
    }
    double total = 0, top = 0;
    for (size_t b = 0; b < nb; b++) {
        order[b] = b;
        total += st[b].byte_seconds;
        if (st[b].byte_seconds > top)
            top = st[b].byte_seconds;
    }
    sort_stats = st;
    qsort(order, nb, sizeof *order, by_byte_seconds);
    int rc = HS_OK;
    for (size_t i = 0; i < nb && i < PAGE_MAX_BANDS && rc == HS_OK; i++) {
        const hs_band_stats *b = &st[order[i]];
        char pk[32];
        human_bytes(pk, sizeof pk, (double)b->peak_bytes);
        double share = total > 0 ? 100 * b->byte_seconds / total : 0;
        rc = hs_sink_printf(o, "<tr><td class=\"n\">%zu</td><td class=\"band\">",
                            i + 1);
        if (!rc)
            rc = put_htmls(o, hs_census_band_name(pg->c, order[i]));
        if (!rc)
            rc = hs_sink_printf(
                o, "</td><td class=\"n\">%s</td><td class=\"n\">%.3f s</td>"
                   "<td class=\"n\"><span class=\"bar\" style=\"width:%.0fpx\">"
                   "</span>%.1f%%</td></tr>\n",
                pk, b->peak_time_ns / 1e9,
                top > 0 ? 120 * b->byte_seconds / top : 0, share);
    }
    if (rc == HS_OK && nb > PAGE_MAX_BANDS)
        rc = hs_sink_printf(o, "<tr><td></td><td colspan=\"4\">and %zu "
                            "smaller bands (all of them are in the CSV)"
                            "</td></tr>\n", nb - PAGE_MAX_BANDS);
    free(st);
    free(order);
    return rc;
}

static int page_item(hs_sink *o, const char *key, const char *value)
{
    if (!value || !*value)
        return HS_OK;
    if (hs_sink_printf(o, "<dt>%s</dt><dd>", key))
        return HS_ERR_IO;
    if (put_htmls(o, value))
        return HS_ERR_IO;
    return hs_sink_printf(o, "</dd>\n");
}

static int page_run(hs_sink *o, const page *pg)
{
    const hs_census_info *in = hs_census_get_info(pg->c);
    char buf[128];
    int rc = page_item(o, "command line", in->job);
    if (!rc)
        rc = page_item(o, "runtime", in->rts_identifier);
    if (!rc && in->has_wall_clock) {
        time_t t = (time_t)in->wall_clock_sec;
        struct tm tm;
        strftime(buf, sizeof buf, "%Y-%m-%d %H:%M:%S UTC",
                 gmtime_r(&t, &tm));
        rc = page_item(o, "started", buf);
    } else if (!rc) {
        rc = page_item(o, "date", in->date);
    }
    if (!rc && in->sample_period_ns) {
        snprintf(buf, sizeof buf, "every %.3f s",
                 in->sample_period_ns / 1e9);
        rc = page_item(o, "heap sampling", buf);
    }
    if (!rc) {
        snprintf(buf, sizeof buf, "%zu", hs_census_band_count(pg->c));
        rc = page_item(o, "bands", buf);
    }
    if (!rc && hs_census_marker_count(pg->c)) {
        snprintf(buf, sizeof buf, "%zu", hs_census_marker_count(pg->c));
        rc = page_item(o, "markers", buf);
    }
    if (!rc && in->source == HS_SOURCE_EVENTLOG)
        rc = page_item(o, "log complete", in->complete
                       ? "yes" : "no: it stops without its data-end marker");
    return rc;
}

static int page_files(hs_sink *o, const page *pg)
{
    for (size_t i = 0; i < pg->nfiles; i++) {
        if (hs_sink_printf(o, "<li><a href=\""))
            return HS_ERR_IO;
        if (put_htmls(o, pg->files[i]) || hs_sink_printf(o, "\">") ||
            put_htmls(o, pg->files[i]) || hs_sink_printf(o, "</a></li>\n"))
            return HS_ERR_IO;
    }
    return HS_OK;
}

/* Fills the template: every {{name}} is replaced; text outside is copied. */
static int render_page(const hs_census *c, hs_sink *o, const void *arg)
{
    const page *pg = arg;
    const char *t = report_html_template;
    (void)c;
    for (;;) {
        const char *open = strstr(t, "{{");
        if (!open)
            return hs_sink_write(o, t, strlen(t));
        if (hs_sink_write(o, t, (size_t)(open - t)))
            return HS_ERR_IO;
        const char *close = strstr(open, "}}");
        if (!close)
            return HS_ERR_INVALID;
        size_t n = (size_t)(close - open - 2);
        const char *k = open + 2;
        int rc;
#define KEY(s) (n == sizeof(s) - 1 && memcmp(k, s, n) == 0)
        if (KEY("title"))
            rc = put_htmls(o, pg->title);
        else if (KEY("subtitle"))
            rc = page_subtitle(o, pg);
        else if (KEY("chart"))
            rc = page_chart(o, pg);
        else if (KEY("bands"))
            rc = page_bands(o, pg);
        else if (KEY("run"))
            rc = page_run(o, pg);
        else if (KEY("files"))
            rc = page_files(o, pg);
        else if (KEY("version"))
            rc = put_htmls(o, HS_VERSION_STRING);
        else if (KEY("input"))
            rc = put_htmls(o, pg->input);
        else
            rc = HS_ERR_INVALID; /* a template the program does not know */
#undef KEY
        if (rc)
            return rc;
        t = close + 2;
    }
}

/* The summary line: peak, when, and the band with the most byte-seconds
 * (the chart's ranking). */
static void print_summary(const hs_census *c, const char *name)
{
    size_t n = hs_census_sample_count(c), nb = hs_census_band_count(c);
    if (!n) {
        printf("%s: no heap samples; time profile of %zu stacks\n", name,
               hs_census_tprof_count(c));
        return;
    }
    hs_band_stats *st = calloc(nb ? nb : 1, sizeof *st);
    size_t peak = hs_census_peak_sample(c);
    char pk[32];
    human_bytes(pk, sizeof pk, (double)hs_census_sample_total(c, peak));
    printf("%s: peak heap %s at %.2f s", name, pk,
           hs_census_sample_time(c, peak) / 1e9);
    if (st && hs_census_band_stats(c, st) == HS_OK && nb) {
        size_t top = 0;
        double total = 0;
        for (size_t b = 0; b < nb; b++) {
            total += st[b].byte_seconds;
            if (st[b].byte_seconds > st[top].byte_seconds)
                top = b;
        }
        char bp[32];
        human_bytes(bp, sizeof bp, (double)st[top].peak_bytes);
        printf("; largest band %s (peak %s, %.0f%% of byte-seconds)",
               hs_census_band_name(c, top), bp,
               total > 0 ? 100 * st[top].byte_seconds / total : 0.0);
    }
    putchar('\n');
    free(st);
}

int cmd_report(int argc, char **argv)
{
    cli_parsed p;
    int st = cli_parse("report", argc, argv, opts, help, &p);
    if (st)
        return st < 0 ? EXIT_OK : st;
    const char *dir = ".";
    unsigned name_limit = 0;
    unsigned long long u;
    for (int i = 0; i < p.nopts; i++) {
        if (p.opts[i].id == OPT_DIR) {
            dir = p.opts[i].value;
        } else if (p.opts[i].id == OPT_NAME_LIMIT) {
            if (!cli_parse_uint("report", "-L", p.opts[i].value, 100000, &u))
                return EXIT_USAGE;
            name_limit = (unsigned)u;
        }
    }
    if (p.npos != 1) {
        cli_errorf("report: %s (run 'heapscope report --help')",
                   p.npos ? "one input file, please" : "no input file given");
        return EXIT_USAGE;
    }
    if (!*dir) {
        cli_errorf("report: -d needs a directory name");
        return EXIT_USAGE;
    }
    const char *in = p.pos[0];
    struct stat in_st;
    bool have_in_st = strcmp(in, "-") != 0 && stat(in, &in_st) == 0;

    hs_census *c;
    st = cli_load_census(in, name_limit, &c);
    if (st != EXIT_OK)
        return st;
    const char *shown = strcmp(in, "-") ? in : "<stdin>";
    bool heap = hs_census_sample_count(c) > 0;
    bool tprof = hs_census_tprof_count(c) > 0;
    if (!heap && !tprof) {
        cli_errorf("%s: no heap samples and no time profile (run the program "
                   "with +RTS -h -l or -p -l)", shown);
        hs_census_free(c);
        return EXIT_NO_DATA;
    }
    int e = make_dir(dir);
    if (e) {
        cli_errorf("%s: cannot make the directory: %s", dir, strerror(e));
        hs_census_free(c);
        return EXIT_IO;
    }
    char *base = base_name(in);
    if (!base) {
        hs_census_free(c);
        return EXIT_INTERNAL;
    }
    static const struct {
        what w;
        const char *ext;
        bool heap;
    } outs[] = {
        {W_SVG, ".svg", true},    {W_PDF, ".pdf", true},
        {W_HP, ".hp", true},      {W_CSV, ".csv", true},
        {W_FOLDED, ".folded", true}, {W_TFOLDED, ".time.folded", false},
    };
    int rc = EXIT_OK;
    char *written[sizeof outs / sizeof outs[0]];
    size_t nwritten = 0;
    for (size_t i = 0; i < sizeof outs / sizeof outs[0] && rc == EXIT_OK;
         i++) {
        if (outs[i].heap ? !heap : !tprof)
            continue;
        if ((outs[i].w == W_SVG || outs[i].w == W_PDF) &&
            !hs_chart_available()) {
            if (outs[i].w == W_SVG)
                cli_warnf("no charts: this heapscope was built without cairo "
                          "and pango");
            continue;
        }
        size_t n = strlen(dir) + strlen(base) + strlen(outs[i].ext) + 2;
        char *path = malloc(n);
        if (!path) {
            rc = EXIT_INTERNAL;
            break;
        }
        snprintf(path, n, "%s/%s%s", dir, base, outs[i].ext);
        rc = write_one(c, render_one, &outs[i].w, path,
                       have_in_st ? &in_st : NULL);
        free(path);
        if (rc == EXIT_OK) {
            size_t k = strlen(base) + strlen(outs[i].ext) + 1;
            if (!(written[nwritten] = malloc(k)))
                rc = EXIT_INTERNAL;
            else
                snprintf(written[nwritten++], k, "%s%s", base, outs[i].ext);
        }
    }
    if (rc == EXIT_OK && heap && hs_chart_available()) {
        const hs_census_info *info = hs_census_get_info(c);
        page pg = {c, shown, info->job ? info->job : base, written, nwritten};
        size_t n = strlen(dir) + strlen(base) + 7;
        char *path = malloc(n);
        if (!path) {
            rc = EXIT_INTERNAL;
        } else {
            snprintf(path, n, "%s/%s.html", dir, base);
            rc = write_one(c, render_page, &pg, path,
                           have_in_st ? &in_st : NULL);
            free(path);
        }
    }
    for (size_t i = 0; i < nwritten; i++)
        free(written[i]);
    if (rc == EXIT_OK)
        print_summary(c, base);
    free(base);
    hs_census_free(c);
    return rc;
}
