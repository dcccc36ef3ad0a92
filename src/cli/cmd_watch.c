/*
 * heapscope watch: follows a running program's eventlog (a growing file,
 * a FIFO, standard input, or an eventlog-socket connection) and shows
 * memory and GC figures while it runs: a status line per interval, the
 * report files rewritten every few seconds, an HTTP server with
 * Prometheus metrics. At the end it writes what `heapscope report`
 * would for the same bytes.
 */
#include "watch.h"

#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static const char head[] =
    "usage: heapscope watch [OPTIONS] SOURCE\n"
    "\n"
    "Follows the eventlog of a running program and shows, every interval,\n"
    "elapsed time, heap size, live bytes, allocation rate, collections per\n"
    "generation, the longest pause and the last heap census with its three\n"
    "largest bands. SOURCE is:\n"
    "  FILE           a log still being written: read to its end, then\n"
    "                 followed until its data-end marker (or --idle, --pid)\n"
    "  FIFO, -        a named pipe or standard input, until end of file\n"
    "  unix:PATH      a program streaming with eventlog-socket\n"
    "  tcp:HOST:PORT  the same over TCP\n"
    "\n"
    "options:\n";

static const char tail[] =
    "\n"
    "Ctrl-C or SIGTERM ends the watch like the end of the stream: final\n"
    "outputs, exit 0. A stream cut mid-event ends with a warning, exit 0.\n"
    "Exit codes: see 'heapscope --help'; 1 malformed stream, 3 source or\n"
    "HTTP port unavailable, -d not writable at the end, or standard output\n"
    "not writable (the watch then ends as on SIGTERM).\n";

static const cli_optdef opt_interval = {
    "interval", 0, CLI_NUMBER, "S", 0.05, 1e6, NULL, 0, false,
    "status line period (default %D)"};
static const cli_optdef opt_json = {
    "json-lines", 0, CLI_FLAG, NULL, 0, 0, NULL, true, false,
    "one JSON object per interval instead of text"};
static const cli_optdef opt_dir = {
    "dir", 'd', CLI_TEXT, "DIR", 1, 0, NULL, 0, false,
    "keep the report (as 'heapscope report') in DIR,\n"
    "rewritten every --every S and once more at the\n"
    "end, as a whole: DIR is a link to the newest\n"
    "complete set (new, empty, or made by an earlier\n"
    "watch)"};
static const cli_optdef opt_every = {
    "every", 0, CLI_NUMBER, "S", 0.05, 1e6, NULL, 0, false,
    "-d period (default %D)"};
static const cli_optdef opt_http = {
    "http", 0, CLI_TEXT, "[ADDR:]PORT", 0, 0, NULL, 0, false,
    "serve / (live page), /metrics (Prometheus),\n"
    "/census.csv, /summary.json, /chart.svg and\n"
    "/status.json; ADDR defaults to 127.0.0.1"};
static const cli_optdef opt_top = {
    "top", 0, CLI_UINT, "N", 0, 10000, NULL, 0, false,
    "bands in /metrics (default %D)"};
static const cli_optdef opt_linger = {
    "linger", 0, CLI_NUMBER, "S", 0, 1e6, NULL, 0, false,
    "keep serving HTTP S seconds after the end"};
static const cli_optdef opt_idle = {
    "idle", 0, CLI_NUMBER, "S", 0.01, 1e6, NULL, 0, false,
    "FILE: end after S seconds without growth"};
static const cli_optdef opt_pid = {
    "pid", 0, CLI_UINT, "PID", 1, 0x7fffffff, NULL, 0, false,
    "FILE: end once process PID has exited"};
static const cli_optdef opt_reconnect = {
    "reconnect", 0, CLI_FLAG, NULL, 0, 0, NULL, true, false,
    "sockets: when the program closes the stream,\n"
    "wait for it to come back and start a new run\n"
    "(files of run N are named NAME-runN)"};
static const cli_optdef opt_census = {
    "census-every", 0, CLI_NUMBER, "S", 0.05, 1e6, NULL, 0, false,
    "sockets: ask the program for a heap census\n"
    "every S seconds (eventlog-socket's\n"
    "requestHeapCensus)"};
static const cli_optdef opt_max = {
    "max-samples", 0, CLI_UINT, "N", 0, 1ull << 40, NULL, 0, false,
    "keep memory bounded: past N samples, older\n"
    "samples are merged into buckets keeping each\n"
    "band's maximum (default %D; 0 = never, else\n"
    "at least 16)"};

static const cli_optref opts[] = {
    CLI_OPT(opt_interval, watch, interval),
    CLI_OPT(opt_json, watch, json),
    CLI_OPT(opt_dir, watch, dir),
    CLI_OPT(opt_every, watch, every),
    CLI_OPT(opt_http, watch, http),
    CLI_OPT(opt_top, watch, top),
    CLI_OPT(opt_linger, watch, linger),
    CLI_OPT(opt_idle, watch, src_opt.idle_seconds),
    CLI_OPT(opt_pid, watch, src_opt.pid),
    CLI_OPT(opt_reconnect, watch, reconnect),
    CLI_OPT(opt_census, watch, census_every),
    CLI_OPT(opt_max, watch, max_samples),
    CLI_OPT(cli_opt_name_limit, watch, name_limit),
    CLI_OPT_END,
};

const cli_command cli_cmd_watch = {"watch", head, opts, tail};

static volatile sig_atomic_t stop_requested;

static void on_signal(int sig)
{
    (void)sig;
    stop_requested = 1;
}

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

/* Output names: the file's name without its extension, the socket's
 * path's, "stdin", or "tcp-HOST-PORT". */
static char *base_of(const char *spec)
{
    if (strcmp(spec, "-") == 0)
        return strdup("stdin");
    char *s = strdup(strncmp(spec, "unix:", 5) == 0 ? spec + 5 : spec);
    if (!s || strncmp(spec, "tcp:", 4) == 0) {
        for (char *p = s; p && *p; p++)
            if (*p == ':' || *p == '/' || *p == '[' || *p == ']')
                *p = '-';
        return s;
    }
    char *slash = strrchr(s, '/');
    char *b = slash ? slash + 1 : s;
    char *dot = strrchr(b, '.');
    if (dot && dot != b)
        *dot = 0;
    memmove(s, *b ? b : "heapscope", strlen(*b ? b : "heapscope") + 1);
    return s;
}

/* --- the status line -------------------------------------------------- */

/* Sizes as report, the page and the chart write them. */
static void human(char *buf, size_t n, double v)
{
    hs_format_bytes(buf, n, v);
}

static void text_status(watch *w, const hs_live_metrics *m, FILE *o)
{
    char a[32], b[32], c[32], d[32];
    human(a, sizeof a, (double)m->heap_size);
    human(b, sizeof b, (double)m->live);
    human(c, sizeof c, m->alloc_rate);
    fprintf(o, "%8.1fs heap %s live %s alloc %s/s GCs", m->elapsed_ns / 1e9,
            m->has_heap_size ? a : "-", m->has_live ? b : "-",
            m->has_allocated ? c : "-");
    for (uint32_t g = 0; g < m->n_gens; g++)
        fprintf(o, "%s%u", g ? "+" : " ", m->collections[g]);
    if (!m->n_gens)
        fputs(" -", o);
    fprintf(o, " max pause %.1f ms", m->max_pause_ns / 1e6);
    if (!m->samples && w->hint)
        fputs(" census - (not flushed yet)", o);
    if (m->samples) {
        human(d, sizeof d, (double)m->census_total);
        fprintf(o, " census %s", d);
        const hs_census *cs = hs_live_census(w->live);
        for (size_t k = 0; k < m->n_top; k++) {
            human(a, sizeof a, (double)m->top_bytes[k]);
            fprintf(o, "%s %s %s", k ? "," : ":",
                    hs_census_band_name(cs, m->top_band[k]), a);
        }
    }
}

/* Notes the first failure of standard output (a full disk, a closed
 * pipe): the watch then ends, and exits 3 as every command does. */
static void check_stdout(watch *w)
{
    errno = 0;
    if ((fflush(stdout) != 0 || ferror(stdout)) && !w->out_errno)
        w->out_errno = errno ? errno : EIO;
}

/* One status line; final: the closing one, always on a line of its own. */
static void print_status(watch *w, bool final)
{
    hs_live_metrics m;
    if (hs_live_get_metrics(w->live, &m) != HS_OK)
        return;
    if (w->json) {
        hs_membuf b = {0};
        hs_sink s = hs_membuf_sink(&b);
        if (hs_live_render_json(w->live, &m, &s, w->state) == HS_OK)
            fwrite(b.data, 1, b.len, stdout);
        hs_membuf_free(&b);
    } else {
        if (w->tty)
            fputs("\r\033[K", stdout);
        text_status(w, &m, stdout);
        if (final) {
            fprintf(stdout, " [%s]", w->state);
            const hs_census *c = hs_live_census(w->live);
            uint64_t tb = hs_census_tprof_bucket_ns(c);
            if (m.compacted && !tb)
                fprintf(stdout, " (samples before %.1f s merged into "
                        "buckets of their maxima)", m.compacted_until_ns / 1e9);
            if (m.compacted && tb)
                fprintf(stdout, " (before %.1f s %stime-profile ticks counted "
                        "in %g s buckets: windows there at that precision)",
                        m.compacted_until_ns / 1e9,
                        hs_census_sample_count(c)
                            ? "heap samples merged into buckets of their "
                              "maxima, "
                            : "", tb / 1e9);
        }
        fputs(w->tty && !final ? "" : "\n", stdout);
        w->line_open = w->tty && !final;
    }
    check_stdout(w);
}

/* Clears a status line drawn in place before anything else is printed
 * (a message, then the final line, which takes its place). */
static void close_line(watch *w)
{
    if (w->line_open) {
        fputs("\r\033[K", stdout);
        check_stdout(w);
        w->line_open = false;
    }
}

/* --- following the stream --------------------------------------------- */

typedef struct timers {
    double status, dir, census, invalidated, hint;
    bool dirty;               /* bytes fed since the last invalidation */
} timers;

/* Seconds a stream shows GC figures without a census before watch says
 * why, and how often it looks. */
#define HINT_AFTER_S 3.0
#define HINT_EVERY_S 0.25

/* A stream with GC events and no census for a few seconds: says why, once
 * in the status lines and on the page for as long as it lasts. */
static void census_hint(watch *w, double now)
{
    hs_live_metrics m;
    if (hs_census_sample_count(hs_live_census(w->live))) {
        w->hint = NULL;
        w->hint_since = 0;
        return;
    }
    const char *h = hs_live_get_metrics(w->live, &m) == HS_OK
                        ? hs_live_census_hint(&m, hs_live_source_kind_of(w->src))
                        : NULL;
    if (!h) {
        w->hint = NULL;
        w->hint_since = 0;
        return;
    }
    if (!w->hint_since)
        w->hint_since = now;
    if (w->hint || now - w->hint_since < HINT_AFTER_S)
        return;
    w->hint = h;
    if (w->srv)
        hs_live_server_invalidate(w->srv);
    if (!w->json) {
        close_line(w);
        fprintf(stdout, "note: %s\n", h);
        check_stdout(w);
    }
}

/* Everything due between two reads: status line, -d files, the census
 * request, and the snapshots HTTP clients wait for. */
static void tick(watch *w, timers *t)
{
    double now = now_s();
    if (now >= t->hint) {
        census_hint(w, now);
        t->hint = now + HINT_EVERY_S;
    }
    if (w->srv) {
        /* Snapshots stay valid a fifth of a second: a burst of requests
         * renders once. */
        if (t->dirty && now - t->invalidated >= 0.2) {
            hs_live_server_invalidate(w->srv);
            t->dirty = false;
            t->invalidated = now;
        }
        unsigned wanted = hs_live_server_wanted(w->srv);
        if (wanted)
            watch_serve(w, wanted);
    }
    if (now >= t->status) {
        print_status(w, false);
        t->status = now + w->interval;
    }
    if (w->dir && now >= t->dir) {
        watch_write_dir(w, false);
        t->dir = now + w->every;
    }
    if (w->census_every > 0 && now >= t->census) {
        hs_live_source_request_census(w->src);
        t->census = now + w->census_every;
    }
}

/* Keeps serving the last snapshots for --linger seconds. */
static void linger(watch *w, double seconds)
{
    if (!w->srv)
        return;
    hs_live_server_invalidate(w->srv);
    double until = now_s() + seconds;
    do {
        unsigned wanted = hs_live_server_wanted(w->srv);
        if (wanted)
            watch_serve(w, wanted);
        if (now_s() >= until || stop_requested)
            break;
        struct timespec ts = {0, 50 * 1000000};
        nanosleep(&ts, NULL);
    } while (1);
}

/* The stream is malformed: the error as the batch commands print it, and
 * on the page. */
static int stream_error(watch *w)
{
    close_line(w);
    const hs_error *e = hs_live_error(w->live);
    w->state = "error";
    snprintf(w->error, sizeof w->error, "byte %llu: %s",
             (unsigned long long)e->offset, e->message);
    print_status(w, true);
    return cli_report(w->spec, e);
}

/* What a stream's first bytes say it is when it is an input the batch
 * commands read whole and watch cannot follow (hs_format_sniff), or NULL
 * (an eventlog, or bytes its reader will name). */
static const char *other_format(const void *first, size_t n)
{
    switch (hs_format_sniff(first, n)) {
    case HS_FORMAT_HP: return "a runtime .hp file";
    case HS_FORMAT_MLPD: return "a Mono log-profiler file (.mlpd)";
    case HS_FORMAT_MLPD_GZIP: return "a gzip-compressed Mono .mlpd";
    default: return NULL;
    }
}

/* The end of a run for a stream of another format: said so, rather than
 * the eventlog's missing magic. */
static int not_eventlog(watch *w, const char *what)
{
    close_line(w);
    w->state = "error";
    snprintf(w->error, sizeof w->error, "byte 0: %s, not a GHC eventlog",
             what);
    print_status(w, true);
    cli_errorf("%s: %s, not a GHC eventlog: watch follows an eventlog as "
               "the program writes it; 'heapscope report %s' reads this "
               "input whole", cli_input_name(w->spec), what, w->spec);
    return EXIT_NO_DATA;
}

/* The end of a run: finish, the final line, the final files. */
static int end_run(watch *w, bool interrupted)
{
    int st = hs_live_finish(w->live);
    w->hint = NULL; /* the stream said all it will: nothing comes late */
    if (st < 0)
        return stream_error(w);
    close_line(w);
    const hs_census *c = hs_live_census(w->live);
    for (size_t i = 0; i < hs_census_warning_count(c); i++)
        cli_warnf("%s: %s", w->spec, hs_census_warning(c, i));
    w->state = st == HS_DONE ? "done" : interrupted ? "stopped" : "truncated";
    if (st == HS_TRUNCATED && !interrupted)
        cli_report(w->spec, hs_live_error(w->live));
    print_status(w, true);
    return w->dir ? watch_write_dir(w, true) : EXIT_OK;
}

/* follow_run's answer for a reconnection that closed before sending a
 * byte: not a run (the program went away between accepting and writing),
 * so watch waits for the next connection instead of failing. */
#define EMPTY_RECONNECT (-2)

/* Follows one run from its first byte to its end; returns an exit code, or
 * EMPTY_RECONNECT. */
static int follow_run(watch *w)
{
    static char buf[1 << 16];
    hs_live_free(w->live);
    if (!(w->live = hs_live_new())) {
        cli_errorf("out of memory");
        return EXIT_INTERNAL;
    }
    hs_live_set_name_limit(w->live, w->name_limit);
    hs_live_set_compaction(w->live, (size_t)w->max_samples,
                           (size_t)(w->max_samples / 4));
    w->state = "running";
    w->error[0] = 0;
    w->hint = NULL;
    w->hint_since = 0;
    double now = now_s();
    timers t = {now + w->interval, now + w->every, now + w->census_every,
                now, now, false};
    int rc = -1;
    uint64_t total = 0;
    while (rc < 0 && !stop_requested && !w->out_errno) {
        size_t got;
        hs_error err;
        int st = hs_live_source_read(w->src, buf, sizeof buf, 100, &got, &err);
        const char *other = got && !total ? other_format(buf, got) : NULL;
        if (other) {
            rc = not_eventlog(w, other);
            break;
        }
        int fs = got ? hs_live_feed(w->live, buf, got) : HS_OK;
        t.dirty |= got > 0;
        total += got;
        if (st == HS_DONE && !total && w->run > 1 && w->reconnect)
            return EMPTY_RECONNECT;
        if (fs < 0)
            rc = stream_error(w);
        else if (fs == HS_DONE || st == HS_DONE)
            rc = end_run(w, false);
        else if (st < 0) {
            close_line(w);
            cli_errorf("%s", err.message);
            int r = end_run(w, false);
            rc = r ? r : EXIT_IO;
        } else
            tick(w, &t);
    }
    if (rc < 0)
        rc = end_run(w, true);
    linger(w, w->linger);
    return rc;
}

/* --- setting up ------------------------------------------------------- */

/* --http [ADDR:]PORT, ADDR possibly [v6]. */
static int start_http(watch *w)
{
    char addr[128] = "127.0.0.1";
    const char *port = w->http, *colon = strrchr(w->http, ':');
    if (colon) {
        const char *a = w->http;
        size_t n = (size_t)(colon - a);
        if (n >= 2 && a[0] == '[' && a[n - 1] == ']') {
            a++;
            n -= 2;
        }
        if (!n || n >= sizeof addr) {
            cli_errorf("watch: --http: expected [ADDR:]PORT, not '%s'",
                       w->http);
            return EXIT_USAGE;
        }
        memcpy(addr, a, n);
        addr[n] = 0;
        port = colon + 1;
    }
    static const cli_optdef http_port = {
        "http", 0, CLI_UINT, "[ADDR:]PORT", 0, 65535, NULL, 0, false, ""};
    unsigned long long p;
    if (!cli_parse_uint("watch", &http_port, port, &p))
        return EXIT_USAGE;
    hs_error err;
    w->srv = hs_live_server_start(addr, (unsigned)p, 0, &err);
    if (!w->srv) {
        cli_errorf("watch: %s", err.message);
        return err.code == HS_ERR_INVALID ? EXIT_USAGE : EXIT_IO;
    }
    /* Tests and scripts asking for port 0 learn the port here. */
    fprintf(stderr, "heapscope: serving http://%s%s%s:%u/\n",
            strchr(addr, ':') ? "[" : "", addr, strchr(addr, ':') ? "]" : "",
            hs_live_server_port(w->srv));
    return EXIT_OK;
}

static void catch_signals(void)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal; /* no SA_RESTART: a waiting read returns */
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
    signal(SIGPIPE, SIG_IGN);
}

/* Waits for the program to come back; false when stopped meanwhile. */
static bool await_reconnect(watch *w)
{
    while (!stop_requested) {
        if (hs_live_source_reconnect(w->src, 200) == HS_OK)
            return true;
        if (w->srv) {
            unsigned wanted = hs_live_server_wanted(w->srv);
            if (wanted)
                watch_serve(w, wanted);
        }
    }
    return false;
}

static int run(watch *w)
{
    hs_error err;
    w->src = hs_live_source_open(w->spec, &w->src_opt, &err);
    if (!w->src) {
        cli_errorf("%s", err.message);
        return err.code == HS_ERR_INVALID ? EXIT_USAGE : EXIT_IO;
    }
    hs_live_source_kind k = hs_live_source_kind_of(w->src);
    bool sock = k == HS_LIVE_UNIX || k == HS_LIVE_TCP;
    if (!sock && (w->reconnect || w->census_every > 0))
        cli_warnf("watch: --reconnect and --census-every apply to unix: and "
                  "tcp: sources only");
    if (!sock)
        w->census_every = 0;
    int rc;
    for (w->run = 1;; w->run++) {
        rc = follow_run(w);
        if (rc == EMPTY_RECONNECT) {
            rc = EXIT_OK;
            w->run--; /* the same run number goes to the next connection */
        } else if (rc || !sock || !w->reconnect || stop_requested ||
                   w->out_errno) {
            break;
        } else if (!w->json) {
            fprintf(stdout, "run %u ended; waiting for the program to "
                    "reconnect\n", w->run);
        }
        check_stdout(w);
        if (w->out_errno || !await_reconnect(w))
            break;
    }
    return rc;
}

int cmd_watch(int argc, char **argv)
{
    watch w = {.interval = 1, .every = 5, .top = 20, .max_samples = 20000};
    hs_live_source_options_init(&w.src_opt);
    cli_parsed p;
    int st = cli_parse(&cli_cmd_watch, argc, argv, &w, &p);
    if (st)
        return st < 0 ? EXIT_OK : st;
    if (w.max_samples && w.max_samples < 16) {
        cli_errorf("watch: --max-samples: 0 or at least 16");
        return EXIT_USAGE;
    }
    if (p.npos != 1) {
        cli_errorf("watch: %s (run 'heapscope watch --help')",
                   p.npos ? "one source, please" : "no source given");
        return EXIT_USAGE;
    }
    w.spec = p.pos[0];
    w.tty = isatty(STDOUT_FILENO) && !w.json;
    if (!(w.base = base_of(w.spec)))
        return EXIT_INTERNAL;
    catch_signals();
    if (w.dir && (st = set_dir_open(&w.sets, w.dir)) != EXIT_OK) {
        set_dir_close(&w.sets);
        free(w.base);
        return st;
    }
    if (!w.http || (st = start_http(&w)) == EXIT_OK)
        st = run(&w);
    check_stdout(&w);
    if (w.out_errno) {
        cli_errorf("watch: cannot write standard output: %s",
                   strerror(w.out_errno));
        if (st == EXIT_OK)
            st = EXIT_IO;
    }
    hs_live_server_stop(w.srv);
    set_dir_close(&w.sets);
    hs_live_free(w.live);
    hs_live_source_close(w.src);
    free(w.base);
    return st;
}
