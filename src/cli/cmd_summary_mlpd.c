/*
 * heapscope summary for a Mono .mlpd: the reader's events fed straight to
 * the Mono summary (hs_mlpd_summary; no census is built), over the whole
 * file or a window by time, written as text in +RTS -s's line shapes or
 * as JSON.
 */
#include "cli.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

typedef struct out_job {
    const hs_mlpd_summary *s;
    const char *input;
    bool json;
} out_job;

static int write_fn(hs_sink *out, const void *arg)
{
    const out_job *j = arg;
    return j->json ? hs_mlpd_summary_write_json(j->s, j->input, out)
                   : hs_mlpd_summary_write_text(j->s, out);
}

static int on_event(void *user, const hs_mlpd_event *ev)
{
    return hs_mlpd_summary_add(user, ev) < 0 ? HS_ERR_NOMEM : 0;
}

/* Reads the whole input (its first n bytes already in first) into s; the
 * reader's status, HS_DONE, HS_TRUNCATED or an error, in *err too. */
static int read_into(hs_mlpd_summary *s, int fd, const uint8_t *first,
                     size_t n, const char *path, hs_error *err)
{
    hs_mlpd_reader *r = hs_mlpd_reader_new();
    if (!r)
        return HS_ERR_NOMEM;
    hs_mlpd_reader_feed(r, first, n);
    hs_mlpd_event ev;
    int st;
    while ((st = hs_mlpd_reader_next(r, &ev)) == HS_EVENT &&
           !(st = on_event(s, &ev)))
        ;
    cli_progress_begin(fd, path);
    if (st >= 0 && st != HS_DONE)
        st = hs_mlpd_read_fd(r, fd, on_event, s);
    cli_progress_end();
    *err = *hs_mlpd_reader_error(r);
    if ((st == HS_DONE || st == HS_TRUNCATED) &&
        hs_mlpd_summary_finish(s, r) == HS_TRUNCATED) {
        *err = *hs_mlpd_summary_error(s);
        st = HS_TRUNCATED;
    }
    if (hs_mlpd_summary_warning(s))
        cli_warnf("%s: %s", cli_input_name(path), hs_mlpd_summary_warning(s));
    if (hs_mlpd_reader_skipped(r))
        cli_warnf("%s: %llu buffers held an unexpected value and were cut "
                  "short; the first: %s", cli_input_name(path),
                  (unsigned long long)hs_mlpd_reader_skipped(r),
                  hs_mlpd_reader_skip_warning(r));
    hs_mlpd_reader_free(r);
    return st;
}

/* The first bytes of fd (pread, or read from a pipe into first, *nfirst of
 * them): whether they begin an .mlpd. */
static bool sniff_mlpd(int fd, uint8_t first[4], size_t *nfirst, bool *piped)
{
    *nfirst = 0;
    uint8_t b[4];
    ssize_t got = pread(fd, b, 4, 0);
    *piped = got < 0;
    if (*piped) {
        while (*nfirst < 4) {
            got = read(fd, first + *nfirst, 4 - *nfirst);
            if (got < 0 && errno == EINTR)
                continue;
            if (got <= 0)
                break;
            *nfirst += (size_t)got;
        }
        memcpy(b, first, *nfirst);
        got = (ssize_t)*nfirst;
    }
    hs_format f = hs_format_sniff(b, got > 0 ? (size_t)got : 0);
    return f == HS_FORMAT_MLPD || f == HS_FORMAT_MLPD_GZIP;
}

int cli_summary_mlpd(const char *path, int fd, bool json, const char *output,
                     const hs_summary_window *w, uint8_t first[4],
                     size_t *nfirst)
{
    bool piped;
    if (!sniff_mlpd(fd, first, nfirst, &piped))
        return -1;
    if (w && (w->from_marker || w->to_marker)) {
        cli_errorf("%s: a Mono .mlpd has no user markers (the log profiler "
                   "writes none); give the window in seconds with --from "
                   "and --to", cli_input_name(path));
        return EXIT_NO_DATA;
    }
    hs_mlpd_summary *s = hs_mlpd_summary_new();
    if (!s || (w && hs_mlpd_summary_set_window(s, w))) {
        cli_errorf("out of memory");
        hs_mlpd_summary_free(s);
        return EXIT_INTERNAL;
    }
    hs_error err;
    int st = read_into(s, fd, piped ? first : NULL, piped ? *nfirst : 0,
                       path, &err);
    int rc = EXIT_OK;
    if (st != HS_DONE)
        rc = cli_report(path, &err);
    if (st == HS_DONE || st == HS_TRUNCATED) {
        char none[320];
        if (st == HS_TRUNCATED)
            cli_cut_reason(none, sizeof none, false, err.offset);
        else
            snprintf(none, sizeof none, w ? "no GC event, heap shot or "
                     "allocation in the window" : "no GC events in this file "
                     "(run mono with --profile=log:gc or heapshot)");
        out_job j = {s, strcmp(path, "-") ? path : "<stdin>", json};
        rc = cli_write("summary", output, write_fn, &j, path, none);
    }
    hs_mlpd_summary_free(s);
    return rc;
}
