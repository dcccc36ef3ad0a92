/*
 * heapscope summary: the +RTS -s figures rebuilt from an eventlog, for the
 * whole run or a window by time or by user marker.
 */
#include "cli.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static const char head[] =
    "usage: heapscope summary [--json] [--from SECONDS] [--to SECONDS]\n"
    "                         [--between MARKER MARKER] [-o FILE] FILE\n"
    "\n"
    "Rebuilds what +RTS -s prints from the heap and GC events of an eventlog\n"
    "(recorded with +RTS -l, whose default classes include GC events), in the\n"
    "same line formats so the two can be compared with diff:\n"
    "  bytes allocated in the heap, bytes copied during GC, maximum residency\n"
    "  and its sample count, maximum slop, MiB total memory in use,\n"
    "  collections and parallel collections per generation with elapsed\n"
    "  time, average and maximum pause, parallel GC work balance, sparks,\n"
    "  MUT/GC/total elapsed time, alloc rate and productivity.\n"
    "A pause is GC_START..GC_END on the capability that led the collection,\n"
    "which is what +RTS -s measures. The eventlog has elapsed time only, so\n"
    "CPU columns read n/a; figures the log cannot give are listed, never\n"
    "printed as zeros, and notes say how others differ from +RTS -s.\n"
    "\n"
    "options:\n";

static const char tail[] =
    "\n"
    "With --between the log is read twice (standard input is spooled to a\n"
    "temporary file). In a window a collection counts when its GC_STATS_GHC\n"
    "event falls in it; allocation and sparks are the growth of the\n"
    "per-capability counters between the last values posted before each\n"
    "edge.\n"
    "\n"
    "Exit codes: 0 success (a truncated log is summarised up to the cut,\n"
    "with a warning); 1 malformed input; 2 usage; 3 I/O; 4 the log has no GC\n"
    "or heap events (the text says which figures cannot be computed), or a\n"
    "--between marker is not in the log (the message lists its markers),\n"
    "or the input is a runtime .hp file (heap samples only, no GC figures);\n"
    "5 internal. With exit 4 a -o FILE is left as it was. See 'heapscope\n"
    "--help'.\n";

/* The command line, parsed. */
typedef struct summary_args {
    const char *path, *output;
    const char *between[2];   /* NULL: no --between */
    bool json, has_from, has_to;
    double from, to;
    bool quiet;               /* --quiet */
} summary_args;

static const cli_optdef opt_json = {
    "json", 0, CLI_FLAG, NULL, 0, 0, NULL, true, false,
    "one JSON object instead of text; keys:\n"
    "heapscope_version, input, program,\n"
    "window, rts, threaded, heap_profiled,\n"
    "allocated_bytes, copied_bytes, max_live_bytes,\n"
    "live_samples, max_slop_bytes, max_mem_in_use_bytes,\n"
    "mem_in_use_mib, generations[] (gen, collections,\n"
    "par_collections, timed, copied_bytes, elapsed_ns,\n"
    "avg_pause_ns, max_pause_ns), nonmoving_syncs,\n"
    "nonmoving_sync_elapsed_ns, nonmoving_sync_max_ns,\n"
    "work_balance_percent,\n"
    "sparks (count, created, converted, overflowed, dud,\n"
    "gcd, fizzled), total_elapsed_ns, gc_elapsed_ns,\n"
    "mut_elapsed_ns, productivity_elapsed_percent,\n"
    "alloc_rate_bytes_per_mut_second, capabilities[]\n"
    "(cap, gc_intervals, led, gc_elapsed_ns,\n"
    "allocated_bytes), unavailable[], notes[],\n"
    "warnings[] (figures refused as impossible);\n"
    "a figure the log cannot give is null"};
static const cli_optref opts[] = {
    CLI_OPT(opt_json, summary_args, json),
    CLI_OPT(cli_opt_from, summary_args, from),
    CLI_OPT(cli_opt_to, summary_args, to),
    CLI_OPT(cli_opt_between, summary_args, between),
    CLI_OPT(cli_opt_output, summary_args, output),
    CLI_OPT(cli_opt_quiet, summary_args, quiet),
    CLI_OPT_END,
};

const cli_command cli_cmd_summary = {"summary", head, opts, tail};

/*
 * One pass over fd into a new summary with window w (NULL: none). Returns
 * EXIT_OK with *out set, or an exit code after printing the error. A
 * truncation warning is printed only when `warn` is set, so a log read
 * twice warns once.
 */
static int run_pass(const char *path, int fd, const hs_summary_window *w,
                    bool warn, hs_summary **out, int *finish_status,
                    uint64_t *cut)
{
    hs_summary *s = hs_summary_new();
    hs_reader *r = hs_reader_new();
    if (!s || !r) {
        cli_errorf("out of memory");
        hs_summary_free(s);
        hs_reader_free(r);
        return EXIT_INTERNAL;
    }
    if (hs_summary_set_input(s, cli_input_name(path)) != HS_OK ||
        (w && hs_summary_set_window(s, w) != HS_OK)) {
        cli_errorf("summary: %s", hs_summary_error(s)->message);
        hs_summary_free(s);
        hs_reader_free(r);
        return EXIT_INTERNAL;
    }
    cli_progress_begin(fd, path);
    int st = hs_summary_load_fd_lent(s, r, fd, cli_loan());
    cli_progress_end();
    if (st < 0 && hs_summary_error(s)->code < 0) {
        cli_errorf("summary: %s", hs_summary_error(s)->message);
        hs_summary_free(s);
        hs_reader_free(r);
        return cli_exit_code(st);
    }
    /* where the log is cut (past its header: never 0), or 0 */
    *cut = st == HS_TRUNCATED ? hs_reader_error(r)->offset : 0;
    if (warn && hs_reader_warning(r))
        cli_warnf("%s: %s", cli_input_name(path), hs_reader_warning(r));
    if (st == HS_TRUNCATED) {
        if (warn)
            cli_report(path, hs_reader_error(r));
    } else if (st != HS_DONE && st != HS_OK) {
        int rc = cli_report(path, hs_reader_error(r));
        hs_summary_free(s);
        hs_reader_free(r);
        return rc ? rc : EXIT_BAD_INPUT;
    }
    hs_reader_free(r);
    *finish_status = hs_summary_finish(s);
    if (*finish_status < 0 && *finish_status != HS_ERR_NO_DATA) {
        cli_errorf("summary: %s", hs_summary_error(s)->message);
        hs_summary_free(s);
        return cli_exit_code(*finish_status);
    }
    *out = s;
    return EXIT_OK;
}

/* Copies a non-seekable input (a pipe) to an anonymous temporary file so
 * it can be read twice, after the n bytes of pre already read from it.
 * Returns the new fd or -1 after a message. */
static int spool(const char *path, int fd, const uint8_t *pre, size_t npre)
{
    FILE *tmp = tmpfile();
    if (!tmp) {
        cli_errorf("summary: cannot create a temporary file: %s",
                   strerror(errno));
        return -1;
    }
    int tfd = dup(fileno(tmp));
    fclose(tmp); /* the dup keeps the unlinked file open */
    if (tfd < 0) {
        cli_errorf("summary: cannot create a temporary file: %s",
                   strerror(errno));
        return -1;
    }
    char buf[1 << 16];
    memcpy(buf, pre, npre);
    for (size_t have = npre;; have = 0) {
        ssize_t n = read(fd, buf + have, sizeof buf - have);
        if (n >= 0)
            n += (ssize_t)have;
        if (n == 0)
            break;
        if (n < 0) {
            if (errno == EINTR)
                continue;
            cli_errorf("%s: cannot read: %s", cli_input_name(path),
                       strerror(errno));
            close(tfd);
            return -1;
        }
        for (ssize_t o = 0; o < n;) {
            ssize_t w = write(tfd, buf + o, (size_t)(n - o));
            if (w < 0 && errno == EINTR)
                continue;
            if (w <= 0) {
                cli_errorf("summary: cannot write a temporary file: %s",
                           strerror(errno));
                close(tfd);
                return -1;
            }
            o += w;
        }
    }
    if (lseek(tfd, 0, SEEK_SET) != 0) {
        cli_errorf("summary: cannot rewind a temporary file: %s",
                   strerror(errno));
        close(tfd);
        return -1;
    }
    return tfd;
}

static void list_markers(const hs_summary *s)
{
    size_t n = hs_summary_marker_count(s);
    if (!n) {
        cli_errorf("the log has no user markers (traceMarker)");
        return;
    }
    cli_errorf("the log's user markers (%zu):", n);
    for (size_t i = 0; i < n; i++) {
        uint64_t count, first;
        hs_str m = hs_summary_marker(s, i, &count, &first);
        cli_linef("  \"%.*s\" at %.6f s%s", m.len > 1000 ? 1000 : (int)m.len,
                  m.ptr, (double)first / 1e9,
                  count > 1 ? " (first of several)" : "");
    }
}

typedef struct summary_job {
    const hs_summary *s;
    bool json;
} summary_job;

static int render_summary(hs_sink *out, const void *arg)
{
    const summary_job *job = arg;
    return job->json ? hs_summary_render_json(job->s, out)
                     : hs_summary_render_text(job->s, out);
}

/*
 * Writes the summary through the commands' one output path. A log
 * without GC events exits 4, "nothing of what was asked": a named output
 * is then left as it was, while on standard output the text still says
 * which figures cannot be computed.
 */
static int write_summary(const hs_summary *s, const char *output, bool json,
                         bool no_data, uint64_t cut, const char *path)
{
    /* The advice on recording GC events is wrong for a log that was cut:
     * they may well have come after the cut. */
    char at[160];
    snprintf(at, sizeof at, "the log has no GC or heap events before the cut "
             "at byte %llu (it is truncated, see the warning above)",
             (unsigned long long)cut);
    const char *why = cut ? at : hs_summary_error(s)->message;
    if (no_data && output && strcmp(output, "-") != 0) {
        cli_errorf("summary: %s: %s; %s is left as it was",
                   cli_input_name(path), why, output);
        return EXIT_NO_DATA;
    }
    const summary_job job = {s, json};
    int rc = cli_write("summary", output, render_summary, &job, path, why);
    if (rc == EXIT_OK && no_data) {
        cli_errorf("summary: %s: %s", cli_input_name(path), why);
        rc = EXIT_NO_DATA;
    }
    return rc;
}

/* Fills *a; returns EXIT_OK, -1 after --help, or an exit code. */
static int parse_args(int argc, char **argv, summary_args *a)
{
    cli_parsed p;
    int rc = cli_parse(&cli_cmd_summary, argc, argv, a, &p);
    if (rc)
        return rc;
    a->has_from = cli_given(&p, &cli_opt_from);
    a->has_to = cli_given(&p, &cli_opt_to);
    if (!(a->path = cli_one_file("summary", &p)))
        return EXIT_USAGE;
    if (a->between[0] && (a->has_from || a->has_to)) {
        cli_errorf("summary: --between cannot be combined with --from or "
                   "--to");
        return EXIT_USAGE;
    }
    if (a->has_from && a->has_to && a->from > a->to) {
        cli_errorf("summary: --from %g is after --to %g", a->from, a->to);
        return EXIT_USAGE;
    }
    return EXIT_OK;
}

/*
 * Resolves --between with a first pass over the input (spooled to a
 * temporary file when it cannot be read twice, *work_fd then set to it)
 * and rewinds for the second. Returns an exit code.
 */
static int window_by_markers(const summary_args *a, int fd, int *work_fd,
                             hs_summary_window *w)
{
    struct stat sb;
    if (fstat(fd, &sb) != 0 || !S_ISREG(sb.st_mode) ||
        lseek(fd, 0, SEEK_SET) != 0) {
        *work_fd = spool(a->path, fd, NULL, 0);
        if (*work_fd < 0)
            return EXIT_IO;
    }
    hs_summary *scan = NULL;
    int fin;
    uint64_t cut;
    int rc = run_pass(a->path, *work_fd, NULL, false, &scan, &fin, &cut);
    if (rc)
        return rc;
    hs_str from = {a->between[0], strlen(a->between[0])};
    hs_str to = {a->between[1], strlen(a->between[1])};
    hs_error werr;
    if (hs_summary_marker_window(scan, from, to, &w->from_ns, &w->to_ns,
                                 &werr)) {
        cli_errorf("summary: %s: %s", cli_input_name(a->path), werr.message);
        list_markers(scan);
        hs_summary_free(scan);
        return EXIT_NO_DATA;
    }
    hs_summary_free(scan);
    w->from_marker = a->between[0];
    w->to_marker = a->between[1];
    if (lseek(*work_fd, 0, SEEK_SET) != 0) {
        cli_errorf("%s: cannot read it a second time: %s",
                   cli_input_name(a->path), strerror(errno));
        return EXIT_IO;
    }
    return EXIT_OK;
}

/*
 * Whether the input begins as a runtime .hp does ("JOB" and a blank: its
 * first line); its first bytes are first[0..nfirst) when read from a
 * pipe, else at the file's start. A .hp has heap samples only, no GC
 * figures: the command says so rather than "not a GHC eventlog".
 */
static bool begins_as_hp(int fd, const uint8_t first[4], size_t nfirst)
{
    uint8_t b[4];
    if (nfirst)
        memcpy(b, first, nfirst);
    else
        nfirst = pread(fd, b, sizeof b, 0) == (ssize_t)sizeof b ? 4 : 0;
    return hs_format_sniff(b, nfirst) == HS_FORMAT_HP;
}

int cmd_summary(int argc, char **argv)
{
    summary_args a = {0};
    int rc = parse_args(argc, argv, &a);
    if (rc)
        return rc < 0 ? EXIT_OK : rc;
    int fd = cli_open_input(a.path);
    if (fd < 0)
        return EXIT_IO;

    hs_summary_window w;
    hs_summary_window_init(&w);
    if (a.has_from)
        w.from_ns = cli_seconds_to_ns(a.from);
    if (a.has_to)
        w.to_ns = cli_seconds_to_ns(a.to);
    bool windowed = a.has_from || a.has_to || a.between[0];
    hs_summary *s = NULL;
    int fin = HS_OK;
    uint64_t cut = 0;
    int work_fd = fd;
    /* A Mono .mlpd has a summary of its own; a pipe's first bytes, read to
     * tell, are spooled with the rest for the eventlog passes. */
    uint8_t first[4];
    size_t nfirst = 0;
    if (a.between[0]) {
        w.from_marker = a.between[0];
        w.to_marker = a.between[1];
    }
    rc = cli_summary_mlpd(a.path, fd, a.json, a.output, windowed ? &w : NULL,
                          first, &nfirst);
    w.from_marker = w.to_marker = NULL;
    if (rc >= 0 || (nfirst && (work_fd = spool(a.path, fd, first,
                                                nfirst)) < 0)) {
        if (fd > 0)
            close(fd);
        return rc >= 0 ? rc : EXIT_IO;
    }
    rc = EXIT_OK;
    if (begins_as_hp(work_fd, first, nfirst)) {
        cli_errorf("%s: a .hp file has no GC figures; summary needs an "
                   "eventlog (recorded with +RTS -l)",
                   cli_input_name(a.path));
        rc = EXIT_NO_DATA;
    }
    if (!rc && a.between[0])
        rc = window_by_markers(&a, work_fd, &work_fd, &w);
    if (!rc)
        rc = run_pass(a.path, work_fd, windowed ? &w : NULL, true, &s, &fin,
                      &cut);
    if (!rc) {
        for (size_t i = 0; i < hs_summary_warning_count(s); i++)
            cli_warnf("%s: %s", cli_input_name(a.path),
                      hs_summary_warning(s, i));
        rc = write_summary(s, a.output, a.json, fin == HS_ERR_NO_DATA, cut,
                           a.path);
    }
    hs_summary_free(s);
    if (work_fd != fd && work_fd >= 0)
        close(work_fd);
    if (fd > 0)
        close(fd);
    return rc;
}
