/*
 * heapscope report: the main job. Every report of a log side by side (the
 * set report_dir.c writes as one unit), then a line saying what the heap
 * did.
 */
#include "cli.h"
#include "report_dir.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char head[] =
    "usage: heapscope report [-d DIR] [OPTIONS] FILE\n"
    "\n"
    "Writes, side by side in DIR (default: the current directory), every\n"
    "report of an eventlog, a .hp or a Mono .mlpd file, named after FILE\n"
    "without its extension:\n"
    "  NAME.svg, NAME.pdf   the heap chart (as 'heapscope chart' draws it)\n"
    "  NAME.hp              the heap profile as the runtime writes it\n"
    "  NAME.csv             the census, one row per band per sample\n"
    "  NAME.folded          heap folded stacks, bytes at the peak\n"
    "  NAME.time.folded     time-profile folded stacks, when the log has them\n"
    "  NAME.speedscope.json the time profile in speedscope's file format\n"
    "  NAME.alloc.folded    .mlpd allocation stacks (backtrace;Class bytes),\n"
    "                       when the file has allocations\n"
    "  NAME.ticky.csv       ticky-ticky counters, when the log has them\n"
    "  NAME.html            the interactive page: chart with hover, zoom and\n"
    "                       band isolation, every band, GC figures, flame\n"
    "                       views; one file that makes no network request\n"
    "then prints each file written and a summary: the heap's peak, when it\n"
    "happened, and the largest band. A log with GC events but no heap\n"
    "profile gets the page with its GC figures; an .mlpd without heap shots\n"
    "but with allocations gets bytes allocated over time (--source alloc).\n"
    "The set is written to a temporary directory first and moved into\n"
    "place, so a failed run leaves the previous set whole. A file that\n"
    "would replace FILE itself is not written.\n"
    "\n"
    "options (the chart's and the page's starting state):\n";

static const char tail[] =
    "\n"
    "Exit codes: see 'heapscope --help'; 4 when the input has no heap\n"
    "samples, time profile, allocations or GC events; 3 when a file or the\n"
    "summary line cannot be written.\n";

/* What the command line asks for. */
typedef struct report_args {
    cli_census_args base;     /* -L, --by, --source */
    report_set set;
    cli_list inc, exc;
} report_args;

static const cli_optdef opt_dir = {
    "dir", 'd', CLI_TEXT, "DIR", 1, 0, NULL, 0, false,
    "where to write (made when missing; default %D)"};

static const cli_optref opts[] = {
    CLI_OPT(opt_dir, report_args, set.dir),
    CLI_OPT(cli_opt_bands, report_args, set.bands),
    CLI_OPT(cli_opt_include, report_args, inc),
    CLI_OPT(cli_opt_exclude, report_args, exc),
    CLI_OPT(cli_opt_sort, report_args, set.sort),
    CLI_OPT(cli_opt_kind, report_args, set.kind),
    CLI_OPT(cli_opt_name_limit, report_args, base.name_limit),
    CLI_OPT(cli_opt_mlpd_by, report_args, base.mlpd.by),
    CLI_OPT(cli_opt_mlpd_source, report_args, base.mlpd.samples),
    CLI_OPT(cli_opt_quiet, report_args, base.quiet),
    CLI_OPT_END,
};

const cli_command cli_cmd_report = {"report", head, opts, tail};

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

static void human_bytes(char *buf, size_t n, double v)
{
    hs_format_bytes(buf, n, v); /* the library's, so page and chart agree */
}

/* The band with the most byte-seconds (the chart's ranking) and its share,
 * or false when there is none or memory ran out. */
static bool top_band(const hs_census *c, size_t *top, hs_band_stats *top_st,
                     double *share)
{
    size_t nb = hs_census_band_count(c);
    hs_band_stats *st = nb ? calloc(nb, sizeof *st) : NULL;
    bool ok = st && hs_census_band_stats(c, st) == HS_OK;
    if (ok) {
        double total = 0;
        *top = 0;
        for (size_t b = 0; b < nb; b++) {
            total += st[b].byte_seconds;
            if (st[b].byte_seconds > st[*top].byte_seconds)
                *top = b;
        }
        *top_st = st[*top];
        *share = total > 0 ? st[*top].byte_seconds / total : 0.0;
    }
    free(st);
    return ok;
}

/* The band that allocated the most bytes in an allocation census (each
 * sample the bytes of one interval), and its share of all of them. */
static bool top_allocator(const hs_census *c, size_t *top, double *share)
{
    size_t nb = hs_census_band_count(c);
    uint64_t *sum = nb ? calloc(nb, sizeof *sum) : NULL, total = 0;
    if (!sum)
        return false;
    for (size_t i = 0; i < hs_census_sample_count(c); i++) {
        const hs_census_entry *e;
        size_t ne = hs_census_sample_entries(c, i, &e);
        for (size_t k = 0; k < ne; k++) {
            sum[e[k].band] += e[k].bytes;
            total += e[k].bytes;
        }
    }
    *top = 0;
    for (size_t b = 1; b < nb; b++)
        if (sum[b] > sum[*top])
            *top = b;
    *share = total ? (double)sum[*top] / (double)total : 0.0;
    free(sum);
    return true;
}

/* The summary line of a log without heap samples or time profile: its GC. */
static void print_gc_summary(const hs_census *c, const hs_summary_stats *gs,
                             const char *name)
{
    uint64_t colls = 0;
    for (uint32_t g = 0; g < gs->n_gens; g++)
        colls += gs->gens[g].collections;
    printf("%s: %s; %" PRIu64 " collection%s", name,
           hs_census_get_info(c)->breakdown ? "no heap census" : "no heap profile",
           colls, colls == 1 ? "" : "s");
    char b[32];
    if (gs->has_live) {
        human_bytes(b, sizeof b, (double)gs->max_live_bytes);
        printf(", max live %s", b);
    }
    if (gs->has_pauses && gs->total_ns)
        printf(", GC %.1f%% of elapsed time", 100.0 * gs->gc_ns / gs->total_ns);
    putchar('\n');
}

/* The summary line: peak, when, and the band with the most byte-seconds;
 * for an .mlpd's allocations, what was allocated and by which band. */
static void print_summary(const hs_census *c, const char *name,
                          const hs_summary_stats *gs, bool alloc)
{
    size_t n = hs_census_sample_count(c);
    const hs_mlpd_gc_stats *ms = hs_census_mlpd_stats(c);
    char pk[32], bp[32];
    if (!n && ms) {
        human_bytes(pk, sizeof pk, (double)ms->max_heap_bytes);
        printf("%s: no heap shots; %" PRIu64 " collections, largest heap %s",
               name, ms->collections[0] + ms->collections[1], pk);
        human_bytes(pk, sizeof pk, (double)ms->alloc_bytes);
        if (ms->alloc_count)
            printf("; %s allocated in %" PRIu64 " objects", pk,
                   ms->alloc_count);
        putchar('\n');
        return;
    }
    if (!n && !hs_census_tprof_count(c) && gs) {
        print_gc_summary(c, gs, name);
        return;
    }
    if (!n && !hs_census_tprof_count(c)) {
        printf("%s: no heap samples; %zu ticky counters\n", name,
               hs_census_ticky_count(c));
        return;
    }
    if (!n) {
        printf("%s: no heap samples; time profile of %zu stacks\n", name,
               hs_census_tprof_count(c));
        return;
    }
    size_t top;
    hs_band_stats ts;
    double share;
    if (alloc && ms) {
        human_bytes(pk, sizeof pk, (double)ms->alloc_bytes);
        printf("%s: %s allocated in %" PRIu64 " objects", name, pk,
               ms->alloc_count);
        if (hs_census_band_count(c) && top_allocator(c, &top, &share))
            printf("; most by %s (%.0f%% of the bytes)",
                   hs_census_band_name(c, top), 100 * share);
        putchar('\n');
        return;
    }
    size_t peak = hs_census_peak_sample(c);
    human_bytes(pk, sizeof pk, (double)hs_census_sample_total(c, peak));
    printf("%s: peak heap %s at %.2f s", name, pk,
           hs_census_sample_time(c, peak) / 1e9);
    if (hs_census_band_count(c) && top_band(c, &top, &ts, &share)) {
        human_bytes(bp, sizeof bp, (double)ts.peak_bytes);
        printf("; largest band %s (peak %s, %.0f%% of byte-seconds)",
               hs_census_band_name(c, top), bp, 100 * share);
    }
    putchar('\n');
}

/*
 * The GC figures of an eventlog's summary, fed in the census's pass, as
 * JSON for the page's GC tab. NULL (and *s freed) when the log has no GC
 * events: problems are the census's to report, the summary only adds a
 * tab. Otherwise *s stays, for the summary line.
 */
static char *eventlog_gc_json(hs_summary **s)
{
    hs_membuf m = {0};
    hs_sink ms = hs_membuf_sink(&m);
    if (*s && hs_summary_finish(*s) == HS_OK &&
        hs_summary_get_stats(*s)->has_gc &&
        hs_summary_render_json(*s, &ms) == HS_OK)
        return m.data;
    hs_membuf_free(&m);
    hs_summary_free(*s);
    *s = NULL;
    return NULL;
}

/* The GC figures of an .mlpd census as JSON, or NULL when it has none. */
static char *mlpd_gc_json(const hs_census *c, const char *input)
{
    const hs_mlpd_gc_stats *ms = hs_census_mlpd_stats(c);
    if (!ms || !(ms->collections[0] || ms->collections[1] || ms->heap_shots))
        return NULL;
    hs_membuf m = {0};
    hs_sink out = hs_membuf_sink(&m);
    if (hs_mlpd_summary_json(c, strcmp(input, "-") ? input : "<stdin>",
                             &out) == HS_OK)
        return m.data;
    hs_membuf_free(&m);
    return NULL;
}

/*
 * Loads the input, an eventlog's events into gs too in the same pass; an
 * .mlpd file without heap shots but with allocations
 * is loaded again as bytes allocated over time, unless --source said which
 * (then *alloc is already set). *alloc tells which the census holds.
 */
static int load(const char *input, unsigned name_limit, bool source_given,
                hs_summary *gs, hs_census **c, bool *alloc)
{
    int st = cli_load_census_summary(input, name_limit, gs, c);
    const hs_mlpd_gc_stats *ms = st == EXIT_OK ? hs_census_mlpd_stats(*c) : NULL;
    if (!ms || source_given || hs_census_sample_count(*c) || !ms->alloc_count ||
        strcmp(input, "-") == 0)
        return st;
    hs_census_free(*c);
    *c = NULL;
    cli_set_mlpd_samples(HS_MLPD_SAMPLES_ALLOC);
    fprintf(stderr, "heapscope: note: %s has no heap shots: the report shows "
            "bytes allocated over time (--source alloc)\n",
            cli_input_name(input));
    *alloc = true;
    return cli_load_census(input, name_limit, c);
}

/* The report of the parsed command line: loads, then writes the set. */
static int report(report_args *ra, cli_parsed *rp)
{
    report_args a = *ra;
    cli_parsed p = *rp;
    int st;
    cli_use_mlpd(&p, &a.base.mlpd);
    bool source_given = cli_given(&p, &cli_opt_mlpd_source);
    bool alloc = a.base.mlpd.samples == HS_MLPD_SAMPLES_ALLOC;
    unsigned name_limit = a.base.name_limit;
    report_set set = a.set;
    set.include = a.inc.item;
    set.exclude = a.exc.item;
    set.input = p.pos[0];
    struct stat in_st;
    if (strcmp(set.input, "-") != 0 && stat(set.input, &in_st) == 0)
        set.input_st = &in_st;

    hs_census *c = NULL;
    hs_summary *gs = hs_summary_new();
    if (!gs) {
        cli_errorf("out of memory");
        return EXIT_INTERNAL;
    }
    st = load(set.input, name_limit, source_given, gs, &c, &alloc);
    char *gc = NULL;
    if (st != EXIT_OK || hs_census_get_info(c)->source != HS_SOURCE_EVENTLOG) {
        hs_summary_free(gs);
        gs = NULL;
    }
    if (st != EXIT_OK)
        return st;
    if (hs_census_mlpd_stats(c))
        gc = mlpd_gc_json(c, set.input);
    else if (gs)
        gc = eventlog_gc_json(&gs);
    if (!hs_census_sample_count(c) && !hs_census_tprof_count(c) && !gc &&
        !hs_census_has_ticky(c)) {
        st = report_dir_no_data(c, set.input);
        hs_census_free(c);
        return st;
    }
    char *base = base_name(set.input);
    set.base = base;
    set.gc_json = gc;
    set.alloc_samples = alloc;
    set.two_threads = cli_threads() > 1;
    int rc = base ? report_dir_write(c, &set) : EXIT_INTERNAL;
    if (rc == EXIT_OK) {
        print_summary(c, base, gs ? hs_summary_get_stats(gs) : NULL, alloc);
        if (fflush(stdout) != 0 || ferror(stdout)) {
            cli_errorf("report: cannot write standard output: %s",
                       strerror(errno));
            rc = EXIT_IO;
        }
    }
    hs_summary_free(gs);
    free(gc);
    free(base);
    hs_census_free(c);
    return rc;
}

int cmd_report(int argc, char **argv)
{
    report_args a;
    memset(&a, 0, sizeof a);
    report_set_init(&a.set);
    a.set.dir = ".";
    cli_parsed p;
    int st = cli_parse(&cli_cmd_report, argc, argv, &a, &p);
    if (st)
        return st < 0 ? EXIT_OK : st;
    if (p.npos != 1) {
        cli_errorf("report: %s (run 'heapscope report --help')",
                   p.npos ? "one input file, please" : "no input file given");
        return EXIT_USAGE;
    }
    /* the charts' fonts loaded beside the input */
    report_dir_prepare();
    st = report(&a, &p);
    cli_charts_prepare_end();
    return st;
}
