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

static const char help[] =
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
    "options:\n"
    "  --json             one JSON object instead of text; keys:\n"
    "                     window, rts, threaded, heap_profiled,\n"
    "                     allocated_bytes, copied_bytes, max_live_bytes,\n"
    "                     live_samples, max_slop_bytes, max_mem_in_use_bytes,\n"
    "                     mem_in_use_mib, generations[] (gen, collections,\n"
    "                     par_collections, timed, copied_bytes, elapsed_ns,\n"
    "                     avg_pause_ns, max_pause_ns), work_balance_percent,\n"
    "                     sparks (count, created, converted, overflowed, dud,\n"
    "                     gcd, fizzled), total_elapsed_ns, gc_elapsed_ns,\n"
    "                     mut_elapsed_ns, productivity_elapsed_percent,\n"
    "                     alloc_rate_bytes_per_mut_second, capabilities[]\n"
    "                     (cap, gc_intervals, led, gc_elapsed_ns,\n"
    "                     allocated_bytes), unavailable[], notes[];\n"
    "                     a figure the log cannot give is null\n"
    "  --from SECONDS     start of a window, seconds since program start\n"
    "  --to SECONDS       end of a window\n"
    "  --between A B      the window from the first user marker named A\n"
    "                     (exact name, from traceMarker) to the first marker\n"
    "                     named B after it; A and B may be equal. Cannot be\n"
    "                     combined with --from/--to. The log is read twice\n"
    "                     (standard input is spooled to a temporary file).\n"
    "  -o, --output FILE  write to FILE (atomically) instead of stdout\n"
    "  -h, --help         this text\n"
    "\n"
    "In a window a collection counts when its GC_STATS_GHC event falls in\n"
    "it; allocation and sparks are the growth of the per-capability counters\n"
    "between the last values posted before each edge.\n"
    "\n"
    "Exit codes: 0 success (a truncated log is summarised up to the cut,\n"
    "with a warning); 1 malformed input; 2 usage; 3 I/O; 4 the log has no GC\n"
    "or heap events (the text says which figures cannot be computed), or a\n"
    "--between marker is not in the log (the message lists its markers);\n"
    "5 internal. See 'heapscope --help'.\n";

enum { OPT_JSON = 1, OPT_FROM, OPT_TO, OPT_OUTPUT };

static const cli_opt opts[] = {
    {"json", 0, 0, OPT_JSON},
    {"from", 0, 1, OPT_FROM},
    {"to", 0, 1, OPT_TO},
    {"output", 'o', 1, OPT_OUTPUT},
    {0, 0, 0, 0},
};

typedef struct pass_ctx {
    hs_summary *s;
    int status;   /* hs_summary_add()'s first error */
} pass_ctx;

static int on_event(void *user, const hs_event *ev)
{
    pass_ctx *p = user;
    int st = hs_summary_add(p->s, ev);
    if (st < 0) {
        p->status = st;
        return st;
    }
    return 0;
}

/*
 * One pass over fd into a new summary with window w (NULL: none). Returns
 * EXIT_OK with *out set, or an exit code after printing the error. A
 * truncation warning is printed only when `warn` is set, so a log read
 * twice warns once.
 */
static int run_pass(const char *path, int fd, const hs_summary_window *w,
                    bool warn, hs_summary **out, int *finish_status)
{
    hs_summary *s = hs_summary_new();
    hs_reader *r = hs_reader_new();
    if (!s || !r) {
        cli_errorf("out of memory");
        hs_summary_free(s);
        hs_reader_free(r);
        return EXIT_INTERNAL;
    }
    if (w && hs_summary_set_window(s, w) != HS_OK) {
        cli_errorf("summary: %s", hs_summary_error(s)->message);
        hs_summary_free(s);
        hs_reader_free(r);
        return EXIT_INTERNAL;
    }
    pass_ctx p = {s, HS_OK};
    int st = hs_read_fd(r, fd, on_event, &p);
    if (p.status < 0) {
        cli_errorf("summary: %s", hs_summary_error(s)->message);
        hs_summary_free(s);
        hs_reader_free(r);
        return cli_exit_code(p.status);
    }
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
 * it can be read twice. Returns the new fd or -1 after a message. */
static int spool(const char *path, int fd)
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
    for (;;) {
        ssize_t n = read(fd, buf, sizeof buf);
        if (n == 0)
            break;
        if (n < 0) {
            if (errno == EINTR)
                continue;
            cli_errorf("%s: cannot read: %s", strcmp(path, "-") ? path
                       : "<stdin>", strerror(errno));
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

/* Prints a marker name for a message: quoted, unprintable bytes as \xHH. */
static void put_marker(FILE *f, hs_str m)
{
    fputc('"', f);
    for (size_t i = 0; i < m.len; i++) {
        unsigned char c = (unsigned char)m.ptr[i];
        if (c < 0x20 || c == 0x7f || c == '"' || c == '\\')
            fprintf(f, "\\x%02x", c);
        else
            fputc(c, f);
    }
    fputc('"', f);
}

static void list_markers(const hs_summary *s)
{
    size_t n = hs_summary_marker_count(s);
    fflush(stdout);
    if (!n) {
        fputs("heapscope: the log has no user markers (traceMarker)\n",
              stderr);
        return;
    }
    fprintf(stderr, "heapscope: the log's user markers (%zu):\n", n);
    for (size_t i = 0; i < n; i++) {
        uint64_t count, first;
        hs_str m = hs_summary_marker(s, i, &count, &first);
        fputs("  ", stderr);
        put_marker(stderr, m);
        fprintf(stderr, " at %.6f s%s\n", (double)first / 1e9,
                count > 1 ? " (first of several)" : "");
    }
}

static uint64_t to_ns(double secs)
{
    double ns = secs * 1e9 + 0.5; /* secs >= 0: cli_parse_double checked */
    return ns >= 18446744073709551615.0 ? UINT64_MAX : (uint64_t)ns;
}

int cmd_summary(int argc, char **argv)
{
    /* --between takes two words, which cli_parse cannot express: take it
     * out of argv first. */
    const char *between[2] = {NULL, NULL};
    char **args = malloc(((size_t)argc + 1) * sizeof *args);
    if (!args) {
        cli_errorf("out of memory");
        return EXIT_INTERNAL;
    }
    int nargs = 0;
    bool only_pos = false;
    for (int i = 0; i < argc; i++) {
        if (i > 0 && !only_pos && strcmp(argv[i], "--") == 0)
            only_pos = true;
        if (i > 0 && !only_pos && strcmp(argv[i], "--between") == 0) {
            if (i + 2 >= argc) {
                cli_errorf("summary: --between needs two marker names");
                free(args);
                return EXIT_USAGE;
            }
            if (between[0]) {
                cli_errorf("summary: --between given twice");
                free(args);
                return EXIT_USAGE;
            }
            between[0] = argv[i + 1];
            between[1] = argv[i + 2];
            i += 2;
            continue;
        }
        args[nargs++] = argv[i];
    }
    args[nargs] = NULL;

    cli_parsed p;
    int rc = cli_parse("summary", nargs, args, opts, help, &p);
    free(args);
    if (rc)
        return rc < 0 ? EXIT_OK : rc;
    bool json = false, has_from = false, has_to = false;
    double from = 0, to = 0;
    const char *output = NULL;
    for (int i = 0; i < p.nopts; i++) {
        switch (p.opts[i].id) {
        case OPT_JSON: json = true; break;
        case OPT_FROM:
            if (!cli_parse_double("summary", "--from", p.opts[i].value, &from))
                return EXIT_USAGE;
            has_from = true;
            break;
        case OPT_TO:
            if (!cli_parse_double("summary", "--to", p.opts[i].value, &to))
                return EXIT_USAGE;
            has_to = true;
            break;
        case OPT_OUTPUT: output = p.opts[i].value; break;
        default: break;
        }
    }
    if (p.npos != 1) {
        cli_errorf("summary: expected one FILE (run 'heapscope summary "
                   "--help')");
        return EXIT_USAGE;
    }
    if (between[0] && (has_from || has_to)) {
        cli_errorf("summary: --between cannot be combined with --from or "
                   "--to");
        return EXIT_USAGE;
    }
    if (has_from && has_to && from > to) {
        cli_errorf("summary: --from %g is after --to %g", from, to);
        return EXIT_USAGE;
    }
    const char *path = p.pos[0];
    int fd = cli_open_input(path);
    if (fd < 0)
        return EXIT_IO;

    hs_summary_window w = {has_from ? to_ns(from) : 0,
                           has_to ? to_ns(to) : UINT64_MAX, NULL, NULL};
    bool windowed = has_from || has_to;
    hs_summary *s = NULL;
    int fin = HS_OK;
    int work_fd = fd;

    if (between[0]) {
        struct stat sb;
        if (fstat(fd, &sb) != 0 || !S_ISREG(sb.st_mode) ||
            lseek(fd, 0, SEEK_SET) != 0) {
            work_fd = spool(path, fd);
            if (work_fd < 0) {
                if (fd > 0)
                    close(fd);
                return EXIT_IO;
            }
        }
        hs_summary *scan = NULL;
        rc = run_pass(path, work_fd, NULL, false, &scan, &fin);
        if (rc)
            goto done;
        hs_str a = {between[0], strlen(between[0])};
        hs_str b = {between[1], strlen(between[1])};
        if (hs_summary_marker_window(scan, a, b, &w.from_ns, &w.to_ns)) {
            cli_errorf("summary: %s: %s", strcmp(path, "-") ? path
                       : "<stdin>", hs_summary_error(scan)->message);
            list_markers(scan);
            hs_summary_free(scan);
            rc = EXIT_NO_DATA;
            goto done;
        }
        hs_summary_free(scan);
        w.from_marker = between[0];
        w.to_marker = between[1];
        windowed = true;
        if (lseek(work_fd, 0, SEEK_SET) != 0) {
            cli_errorf("%s: cannot read it a second time: %s", path,
                       strerror(errno));
            rc = EXIT_IO;
            goto done;
        }
    }

    rc = run_pass(path, work_fd, windowed ? &w : NULL, true, &s, &fin);
    if (rc)
        goto done;

    hs_error err;
    hs_output *o = hs_output_open(output, &err);
    if (!o) {
        rc = cli_report(output, &err);
        goto done;
    }
    int st = json ? hs_summary_render_json(s, hs_output_sink(o))
                  : hs_summary_render_text(s, hs_output_sink(o));
    if (st != HS_OK) {
        hs_output_abort(o);
        cli_errorf("summary: cannot write %s", output ? output : "stdout");
        rc = EXIT_IO;
        goto done;
    }
    if (hs_output_commit(o, &err) != HS_OK) {
        rc = cli_report(output, &err);
        goto done;
    }
    if (fin == HS_ERR_NO_DATA) {
        cli_errorf("summary: %s: %s", strcmp(path, "-") ? path : "<stdin>",
                   hs_summary_error(s)->message);
        rc = EXIT_NO_DATA;
    }

done:
    hs_summary_free(s);
    if (work_fd != fd && work_fd >= 0)
        close(work_fd);
    if (fd > 0)
        close(fd);
    return rc;
}
