/*
 * heapscope summary for a Mono .mlpd: the GC figures the census loader
 * counted, as text in +RTS -s's line shapes or as JSON
 * (hs_mlpd_summary_text/json).
 */
#include "cli.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int write_text(const hs_census *c, hs_sink *out, const void *arg)
{
    (void)arg;
    return hs_mlpd_summary_text(c, out);
}

static int write_json(const hs_census *c, hs_sink *out, const void *arg)
{
    return hs_mlpd_summary_json(c, arg, out);
}

/* A census from a pipe whose first n bytes were read already. */
static int load_piped(const char *path, int fd, const uint8_t *first,
                      size_t n, hs_census **out)
{
    hs_census *c = hs_census_new();
    if (!c) {
        cli_errorf("out of memory");
        return EXIT_INTERNAL;
    }
    hs_error err;
    int st = hs_census_load_mlpd_fd(c, fd, first, n, &err);
    return cli_census_loaded(path, c, st, &err, out);
}

int cli_summary_mlpd(const char *path, int fd, bool json, const char *output,
                     bool windowed, uint8_t first[4], size_t *nfirst)
{
    *nfirst = 0;
    ssize_t got = pread(fd, first, 4, 0);
    bool piped = got < 0;
    if (piped) {
        /* a pipe: read what tells, keep it for whoever reads on */
        while (*nfirst < 4) {
            got = read(fd, first + *nfirst, 4 - *nfirst);
            if (got < 0 && errno == EINTR)
                continue;
            if (got <= 0)
                break;
            *nfirst += (size_t)got;
        }
        got = (ssize_t)*nfirst;
    }
    hs_format format = hs_format_sniff(first, got > 0 ? (size_t)got : 0);
    if (format != HS_FORMAT_MLPD && format != HS_FORMAT_MLPD_GZIP)
        return -1;
    if (windowed) {
        cli_errorf("summary: %s is a Mono .mlpd; --from, --to and --between "
                   "are for eventlogs", cli_input_name(path));
        return EXIT_USAGE;
    }
    hs_census *c = NULL;
    int rc = piped ? load_piped(path, fd, first, *nfirst, &c)
                   : cli_load_census(path, 0, &c);
    if (rc)
        return rc;
    rc = cli_write_output("summary", c, output, json ? write_json : write_text,
                          strcmp(path, "-") ? path : "<stdin>", path,
                          "no GC events in this file (run mono with "
                          "--profile=log:gc or heapshot)");
    hs_census_free(c);
    return rc;
}
