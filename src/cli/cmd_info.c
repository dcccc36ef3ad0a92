/*
 * heapscope info: what a log holds, at a glance.
 */
#include "cli.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

static const char head[] =
    "usage: heapscope info FILE\n"
    "\n"
    "Prints what FILE (an eventlog or a .hp file) holds, one 'key: value'\n"
    "line each: the program and its command line, the RTS identifier, the\n"
    "wall-clock start (UTC), the duration, the heap profile's breakdown and\n"
    "sampling period, the numbers of heap samples, bands, cost centres, IPE\n"
    "records, time-profile samples and markers, and whether the log was\n"
    "complete (a log without its data-end marker was cut short).\n"
    "\n"
    "options:\n";

static const char tail[] =
    "\n"
    "Exit codes: see 'heapscope --help'.\n";

typedef struct info_args {
    bool quiet; /* --quiet: no progress line (cli_parse reads it) */
} info_args;

static const cli_optref opts[] = {
    CLI_OPT(cli_opt_quiet, info_args, quiet),
    CLI_OPT_END,
};

const cli_command cli_cmd_info = {"info", head, opts, tail};

static void seconds(char *buf, size_t n, uint64_t ns)
{
    snprintf(buf, n, "%llu.%06llu s", (unsigned long long)(ns / 1000000000u),
             (unsigned long long)(ns % 1000000000u / 1000u));
}

/* What a Mono log-profiler file holds beyond the common lines. */
static void print_mlpd(const hs_census *c, const hs_mlpd_gc_stats *ms)
{
    char buf[96];
    if (hs_census_profile_label(c, buf, sizeof buf))
        printf("heap profile: %s\n", buf);
    else if (ms->alloc_count)
        printf("heap profile: none (no heap shots; report draws the "
               "allocations over time, --source alloc)\n");
    else
        printf("heap profile: none\n");
    printf("heap shots: %llu, largest %llu bytes\n",
           (unsigned long long)ms->heap_shots,
           (unsigned long long)ms->max_live_bytes);
    printf("allocations: %llu objects, %llu bytes, %zu sites\n",
           (unsigned long long)ms->alloc_count,
           (unsigned long long)ms->alloc_bytes,
           hs_census_alloc_site_count(c));
    for (int g = 0; g < 2; g++) {
        seconds(buf, sizeof buf, ms->gc_total_ns[g]);
        printf("%s collections: %llu, %s in total", g ? "major" : "nursery",
               (unsigned long long)ms->collections[g], buf);
        seconds(buf, sizeof buf, ms->gc_max_ns[g]);
        printf(", longest %s", buf);
        if (ms->concurrent[g])
            printf(" (%llu concurrent: the program ran meanwhile)",
                   (unsigned long long)ms->concurrent[g]);
        putchar('\n');
    }
    seconds(buf, sizeof buf, ms->pause_total_ns);
    printf("world stops: %llu, %s in total", (unsigned long long)ms->pauses,
           buf);
    seconds(buf, sizeof buf, ms->pause_max_ns);
    printf(", longest %s\n", buf);
    printf("largest heap: %llu bytes\n",
           (unsigned long long)ms->max_heap_bytes);
    printf("late vtables: %llu (named after their first use; %llu "
           "allocations, %llu bytes)\n",
           (unsigned long long)ms->late_vtables,
           (unsigned long long)ms->late_alloc_count,
           (unsigned long long)ms->late_alloc_bytes);
    const hs_census_info *in = hs_census_get_info(c);
    if (in->time_samples) { /* the profiler's sample option */
        seconds(buf, sizeof buf, in->tick_interval_ns);
        printf("CPU samples: %llu (nominal period %s), %zu stacks\n",
               (unsigned long long)in->time_samples, buf,
               hs_census_tprof_count(c));
    }
}

/* One 'key: value' line per fact of the census read from path. */
static void print_info(const char *path, const hs_census *c)
{
    const hs_census_info *in = hs_census_get_info(c);
    bool hp = in->source == HS_SOURCE_HP;
    const hs_mlpd_gc_stats *ms = hs_census_mlpd_stats(c);
    char buf[128];
    printf("file: %s\n", cli_input_name(path));
    printf("format: %s\n", hp ? "heap profile (.hp)"
                           : ms ? "Mono log profiler (.mlpd)" : "eventlog");
    printf("program: %s\n", in->program ? in->program : "(unknown)");
    /* the command line as the .hp JOB gives it */
    size_t jn = hs_render_hp_job(c, NULL, 0);
    char *job = jn && jn != SIZE_MAX ? malloc(jn + 1) : NULL;
    if (job && hs_render_hp_job(c, job, jn + 1) != jn) {
        free(job); /* out of memory in the second call */
        job = NULL;
    }
    printf("command line: %s\n", job ? job : "(unknown)");
    free(job);
    if (!hp)
        printf("rts: %s\n",
               in->rts_identifier ? in->rts_identifier : "(unknown)");
    if (in->has_wall_clock) {
        time_t t = (time_t)in->wall_clock_sec;
        struct tm tm;
        if (gmtime_r(&t, &tm) &&
            strftime(buf, sizeof buf, "%Y-%m-%d %H:%M:%S", &tm))
            printf("started: %s.%06u UTC\n", buf,
                   (unsigned)(in->wall_clock_nsec / 1000u));
    } else if (in->date) {
        printf("started: %s\n", in->date);
    } else {
        printf("started: (unknown)\n");
    }
    seconds(buf, sizeof buf, in->end_time_ns);
    printf("duration: %s\n", buf);
    if (ms) {
        print_mlpd(c, ms);
    } else if (in->breakdown) {
        printf("heap profile: -%s (%s)", hs_breakdown_flag(in->breakdown),
               hs_breakdown_name(in->breakdown));
        if (in->sample_period_ns) {
            seconds(buf, sizeof buf, in->sample_period_ns);
            printf(", every %s", buf);
        }
        putchar('\n');
    } else {
        printf("heap profile: %s\n",
               hp ? "(breakdown unknown)" : "none");
    }
    printf("heap samples: %zu\n", hs_census_sample_count(c));
    printf("bands: %zu\n", hs_census_band_count(c));
    if (!hp && !ms) {
        printf("cost centres: %llu\n",
               (unsigned long long)in->cost_centres);
        printf("IPE records: %llu\n", (unsigned long long)in->ipe_records);
        printf("time-profile samples: %llu", (unsigned long long)in->time_samples);
        if (in->tick_interval_ns) {
            seconds(buf, sizeof buf, in->tick_interval_ns);
            printf(" (tick %s)", buf);
        }
        putchar('\n');
    }
    if (!ms)
        printf("markers: %zu\n", hs_census_marker_count(c));
    if (ms) {
        printf("events: %llu\n", (unsigned long long)in->events);
    } else if (!hp) {
        printf("capabilities: %u\n", in->capabilities);
        printf("events: %llu\n", (unsigned long long)in->events);
    }
    printf("complete: %s\n",
           in->complete ? "yes"
           : hp ? "no (the file ends inside a sample)"
           : ms ? "no (the file is cut short)"
                : "no (the log stops without its data-end marker)");
}

int cmd_info(int argc, char **argv)
{
    cli_parsed p;
    info_args a = {false};
    int rc = cli_parse(&cli_cmd_info, argc, argv, &a, &p);
    if (rc)
        return rc < 0 ? EXIT_OK : rc;
    const char *path = cli_one_file("info", &p);
    if (!path)
        return EXIT_USAGE;
    hs_census *c;
    rc = cli_load_census(path, 0, &c);
    if (rc)
        return rc;
    print_info(path, c);
    hs_census_free(c);
    if (fflush(stdout) != 0 || ferror(stdout)) {
        cli_errorf("cannot write standard output");
        return EXIT_IO;
    }
    return EXIT_OK;
}
