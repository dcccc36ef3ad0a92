/*
 * heapscope report: the main job. Every report of a log side by side (the
 * set report_dir.c writes as one unit), then a line saying what the heap
 * did.
 */
#include "cli.h"
#include "report_dir.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char help[] =
    "usage: heapscope report [-d DIR] [OPTIONS] FILE\n"
    "\n"
    "Writes, side by side in DIR (default: the current directory), every\n"
    "report of an eventlog or a .hp file, named after FILE without its\n"
    "extension:\n"
    "  NAME.svg, NAME.pdf   the heap chart (as 'heapscope chart' draws it)\n"
    "  NAME.hp              the heap profile as the runtime writes it\n"
    "  NAME.csv             the census, one row per band per sample\n"
    "  NAME.folded          heap folded stacks, bytes at the peak\n"
    "  NAME.time.folded     time-profile folded stacks, when the log has them\n"
    "  NAME.html            the interactive page: chart with hover, zoom and\n"
    "                       band isolation, every band, GC figures, flame\n"
    "                       views; one file that makes no network request\n"
    "then prints each file written and a summary: the heap's peak, when it\n"
    "happened, and the largest band. The set is written to a temporary\n"
    "directory first and moved into place, so a failed run leaves the\n"
    "previous set whole. A file that would replace FILE itself is not\n"
    "written.\n"
    "\n"
    "options (the chart's and the page's starting state):\n"
    "  -d, --dir DIR         where to write (made when missing)\n"
    "  -b, --bands N         the N largest bands drawn, the rest as OTHER (15)\n"
    "  -i, --include PAT     keep only bands matching PAT (repeatable)\n"
    "  -x, --exclude PAT     drop bands matching PAT (repeatable)\n"
    "  -s, --sort ORDER      size, name or stddev\n"
    "  -k, --kind KIND       area, normalized or line\n"
    "  -L, --name-limit N    cut -hc names to N characters as +RTS -L does\n"
    CLI_HELP_BY
    "  -h, --help            this text\n"
    "\n"
    "Exit codes: see 'heapscope --help'; 4 when the log has neither heap\n"
    "samples nor a time profile; 3 when a file or the summary line cannot\n"
    "be written.\n";

enum { OPT_DIR = 1, OPT_NAME_LIMIT, OPT_BANDS, OPT_INCLUDE, OPT_EXCLUDE,
       OPT_SORT, OPT_KIND };

static const cli_opt opts[] = {
    {"dir", 'd', 1, OPT_DIR},
    {"name-limit", 'L', 1, OPT_NAME_LIMIT},
    {"bands", 'b', 1, OPT_BANDS},
    {"include", 'i', 1, OPT_INCLUDE},
    {"exclude", 'x', 1, OPT_EXCLUDE},
    {"sort", 's', 1, OPT_SORT},
    {"kind", 'k', 1, OPT_KIND},
    CLI_OPT_BY_ENTRY,
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

static void human_bytes(char *buf, size_t n, double v)
{
    hs_format_bytes(buf, n, v); /* the library's, so page and chart agree */
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

static int on_event(void *user, const hs_event *ev)
{
    int st = hs_summary_add(user, ev);
    return st < 0 ? st : 0;
}

/*
 * The GC figures for the page as JSON, from a second pass over an eventlog
 * file (a pipe cannot be read twice; its page goes without them). Problems
 * are the census's to report: this pass only adds a tab, so it fails
 * quietly. The caller frees the text.
 */
static char *gc_json(const char *path, const hs_census *c)
{
    if (strcmp(path, "-") == 0 ||
        hs_census_get_info(c)->source != HS_SOURCE_EVENTLOG)
        return NULL;
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    hs_summary *s = fd >= 0 ? hs_summary_new() : NULL;
    hs_reader *r = s ? hs_reader_new() : NULL;
    int st = r ? hs_read_fd(r, fd, on_event, s) : HS_ERR_NOMEM;
    if (fd >= 0)
        close(fd);
    hs_reader_free(r);
    hs_membuf m = {0};
    hs_sink ms = hs_membuf_sink(&m);
    if ((st == HS_DONE || st == HS_OK || st == HS_TRUNCATED) &&
        hs_summary_finish(s) == HS_OK && hs_summary_render_json(s, &ms) == HS_OK) {
        hs_summary_free(s);
        return m.data;
    }
    hs_membuf_free(&m);
    hs_summary_free(s);
    return NULL;
}

/* Options into *set; an exit code (EXIT_OK to go on). At most 64 options
 * in all, so the pattern lists cannot overflow. */
static int parse_options(const cli_parsed *p, report_set *set,
                         unsigned *name_limit, const char **inc,
                         const char **exc)
{
    size_t ninc = 0, nexc = 0;
    unsigned long long u;
    for (int i = 0; i < p->nopts; i++) {
        const char *v = p->opts[i].value;
        switch (p->opts[i].id) {
        case OPT_DIR: set->dir = v; break;
        case CLI_OPT_BY:
            if (cli_mlpd_option("report", CLI_OPT_BY, v) < 0)
                return EXIT_USAGE;
            break;
        case OPT_NAME_LIMIT:
            if (!cli_parse_uint("report", "-L", v, 100000, &u))
                return EXIT_USAGE;
            *name_limit = (unsigned)u;
            break;
        case OPT_BANDS:
            if (!cli_parse_uint("report", "--bands", v, 1000000, &u))
                return EXIT_USAGE;
            set->bands = (unsigned)u;
            break;
        case OPT_INCLUDE: inc[ninc++] = v; break;
        case OPT_EXCLUDE: exc[nexc++] = v; break;
        case OPT_SORT:
            if (!cli_parse_sort("report", v, &set->sort))
                return EXIT_USAGE;
            break;
        case OPT_KIND:
            if (!cli_parse_kind("report", v, &set->kind))
                return EXIT_USAGE;
            break;
        }
    }
    if (p->npos != 1) {
        cli_errorf("report: %s (run 'heapscope report --help')",
                   p->npos ? "one input file, please" : "no input file given");
        return EXIT_USAGE;
    }
    if (!*set->dir) {
        cli_errorf("report: -d needs a directory name");
        return EXIT_USAGE;
    }
    return EXIT_OK;
}

int cmd_report(int argc, char **argv)
{
    cli_parsed p;
    int st = cli_parse("report", argc, argv, opts, help, &p);
    if (st)
        return st < 0 ? EXIT_OK : st;
    const char *inc[65] = {0}, *exc[65] = {0};
    report_set set = {.dir = ".", .bands = 15, .include = inc, .exclude = exc};
    unsigned name_limit = 0;
    if ((st = parse_options(&p, &set, &name_limit, inc, exc)) != EXIT_OK)
        return st;
    set.input = p.pos[0];
    struct stat in_st;
    if (strcmp(set.input, "-") != 0 && stat(set.input, &in_st) == 0)
        set.input_st = &in_st;

    hs_census *c;
    st = cli_load_census(set.input, name_limit, &c);
    if (st != EXIT_OK)
        return st;
    if (!hs_census_sample_count(c) && !hs_census_tprof_count(c)) {
        cli_errorf("%s: no heap samples and no time profile (run the program "
                   "with +RTS -h -l or -p -l)", cli_input_name(set.input));
        hs_census_free(c);
        return EXIT_NO_DATA;
    }
    char *base = base_name(set.input);
    char *gc = gc_json(set.input, c);
    set.base = base;
    set.gc_json = gc;
    int rc = base ? report_dir_write(c, &set) : EXIT_INTERNAL;
    if (rc == EXIT_OK) {
        print_summary(c, base);
        if (fflush(stdout) != 0 || ferror(stdout)) {
            cli_errorf("report: cannot write standard output: %s",
                       strerror(errno));
            rc = EXIT_IO;
        }
    }
    free(gc);
    free(base);
    hs_census_free(c);
    return rc;
}
