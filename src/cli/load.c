/*
 * Loading an input (eventlog or .hp, told apart by content) into a census
 * for the commands, with every warning on stderr.
 */
#include "cli.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static bool mlpd_set;
static hs_mlpd_group mlpd_by;
static hs_mlpd_samples mlpd_samples;

void cli_use_mlpd(const cli_parsed *p, const cli_mlpd *m)
{
    if (cli_given(p, &cli_opt_mlpd_by) || cli_given(p, &cli_opt_mlpd_source)) {
        mlpd_by = m->by;
        mlpd_samples = m->samples;
        mlpd_set = true;
    }
}

void cli_set_mlpd_samples(hs_mlpd_samples samples)
{
    mlpd_samples = samples;
    mlpd_set = true;
}

int cli_load_census(const char *path, unsigned name_limit, hs_census **out)
{
    return cli_load_census_summary(path, name_limit, NULL, out);
}

int cli_load_census_summary(const char *path, unsigned name_limit,
                            hs_summary *s, hs_census **out)
{
    *out = NULL;
    int fd = cli_open_input(path);
    if (fd < 0)
        return EXIT_IO;
    hs_census *c = hs_census_new();
    if (!c) {
        if (fd > 0)
            close(fd);
        cli_errorf("out of memory");
        return EXIT_INTERNAL;
    }
    hs_census_set_name_limit(c, name_limit);
    if (mlpd_set && hs_census_set_mlpd_options(c, mlpd_by, mlpd_samples, 0)) {
        if (fd > 0)
            close(fd);
        hs_census_free(c);
        cli_errorf("out of memory");
        return EXIT_INTERNAL;
    }
    hs_error err;
    cli_progress_begin(fd, path);
    int st = hs_census_load_summary_fd_lent(c, s, fd, cli_loan(), &err);
    cli_progress_end();
    if (fd > 0)
        close(fd);
    return cli_census_loaded(path, c, st, &err, out);
}

int cli_census_loaded(const char *path, hs_census *c, int st,
                      const hs_error *err, hs_census **out)
{
    *out = NULL;
    if (st < 0) {
        int rc = cli_report(path, err);
        hs_census_free(c);
        return rc ? rc : EXIT_INTERNAL;
    }
    for (size_t i = 0; i < hs_census_warning_count(c); i++)
        cli_warnf("%s: %s", cli_input_name(path), hs_census_warning(c, i));
    if (st == HS_TRUNCATED)
        cli_report(path, err);
    *out = c;
    return EXIT_OK;
}

int cli_write(const char *cmd, const char *output, cli_write_fn fn,
              const void *arg, const char *input, const char *no_data)
{
    hs_error err;
    cli_guard_output(output); /* its temporary name gone on Ctrl-C too */
    hs_output *o = hs_output_open(output, &err);
    int rc = EXIT_OK;
    if (!o) {
        rc = cli_report_output(&err);
    } else {
        int st = fn(hs_output_sink(o), arg);
        if (st != HS_OK) {
            st = hs_output_fail(o, st, &err);
            if (st == HS_ERR_NO_DATA)
                cli_errorf("%s: %s", cli_input_name(input), no_data);
            else
                cli_errorf("%s: %s", cmd, err.message);
            rc = cli_exit_code(st);
        } else if (hs_output_commit(o, &err) != HS_OK) {
            rc = cli_report_output(&err);
        }
    }
    cli_guard_output(NULL);
    return rc;
}

typedef struct census_job {
    const hs_census *c;
    cli_render_fn fn;
    const void *arg;
} census_job;

static int render_census(hs_sink *out, const void *arg)
{
    const census_job *job = arg;
    return job->fn(job->c, out, job->arg);
}

/* Why a census holds nothing of what was asked: the cut, when the input
 * was cut (the part cut off may have held it: advice on how to record it
 * would be wrong), else `advice`, GHC's or Mono's as the input is. */
const char *cli_no_data_reason(const hs_census *c, const char *ghc,
                               const char *mono, char *buf, size_t n)
{
    const hs_census_info *in = hs_census_get_info(c);
    if (!in->complete)
        return cli_cut_reason(buf, n, in->cut_line != 0,
                              in->cut_line ? in->cut_line : in->cut_offset);
    return hs_census_mlpd_stats(c) ? mono : ghc;
}

const char *cli_cut_reason(char *buf, size_t n, bool line, uint64_t at)
{
    snprintf(buf, n, "nothing of what was asked comes before the cut at %s "
             "%llu (the input is truncated, see the warning above; the part "
             "that was cut off may have held it)", line ? "line" : "byte",
             (unsigned long long)at);
    return buf;
}

static const char no_shots[] =
    "no heap shots (run mono with --profile=log:heapshot; for allocations "
    "give --source alloc)";

const char *cli_no_samples_reason(const hs_census *c, char *buf, size_t n)
{
    const hs_census_info *in = hs_census_get_info(c);
    if (in->complete && in->breakdown) {
        snprintf(buf, n, "the heap profile (-%s, every %.3g s) holds no "
                 "census: the run ended before the first one (record with a "
                 "smaller +RTS -i)", hs_breakdown_flag(in->breakdown),
                 in->sample_period_ns / 1e9);
        return buf;
    }
    return cli_no_data_reason(c, "no heap samples (run the program with "
                              "+RTS -h -l, or give its .hp file)", no_shots,
                              buf, n);
}

int cli_write_output(const char *cmd, const hs_census *c, const char *output,
                     cli_render_fn fn, const void *arg, const char *input,
                     const char *no_data)
{
    /* The commands' GHC recording hints are wrong for a Mono file. */
    char why[320];
    no_data = cli_no_data_reason(c, no_data,
                                 strstr(no_data, "+RTS") ? no_shots : no_data,
                                 why, sizeof why);
    const census_job job = {c, fn, arg};
    return cli_write(cmd, output, render_census, &job, input, no_data);
}
