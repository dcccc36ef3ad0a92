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
static int write_one(const hs_census *c, what w, const char *path,
                     const struct stat *input)
{
    struct stat st;
    if (input && stat(path, &st) == 0 && st.st_dev == input->st_dev &&
        st.st_ino == input->st_ino) {
        cli_warnf("%s: not written: it is the input (use -d DIR)", path);
        return EXIT_OK;
    }
    int rc = cli_write_output("report", c, path, render_one, &w, path,
                              "nothing to write");
    if (rc)
        return rc;
    char size[32] = "";
    if (stat(path, &st) == 0)
        human_bytes(size, sizeof size, (double)st.st_size);
    printf("wrote %s (%s)\n", path, size);
    return EXIT_OK;
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
    int st = cli_parse("report", argc, argv, opts, &p);
    if (st < 0) {
        fputs(help, stdout);
        return EXIT_OK;
    }
    if (st)
        return st;
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
        rc = write_one(c, outs[i].w, path, have_in_st ? &in_st : NULL);
        free(path);
    }
    if (rc == EXIT_OK)
        print_summary(c, base);
    free(base);
    hs_census_free(c);
    return rc;
}
