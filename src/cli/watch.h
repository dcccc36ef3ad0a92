/*
 * heapscope watch: the state its two files share (cmd_watch.c follows the
 * stream and prints status lines; watch_out.c writes the -d report and
 * renders the HTTP snapshots).
 */
#ifndef HEAPSCOPE_CLI_WATCH_H
#define HEAPSCOPE_CLI_WATCH_H

#include "cli.h"
#include "set_dir.h"

typedef struct watch {
    /* options */
    const char *spec;         /* the source as given */
    double interval;          /* status line period, s */
    double every;             /* -d rewrite period, s */
    double census_every;      /* census request period, s; 0 never */
    double linger;            /* keep serving HTTP after the end, s */
    bool json;
    const char *dir;          /* -d, or NULL */
    set_dir sets;             /* -d: DIR, a link to the newest set */
    const char *http;         /* --http [ADDR:]PORT, or NULL */
    bool reconnect;
    unsigned name_limit;
    unsigned top;             /* bands in /metrics */
    unsigned long long max_samples;  /* compaction threshold; 0 never */
    hs_live_source_options src_opt;

    /* while running */
    hs_live_source *src;
    hs_live *live;
    hs_live_server *srv;
    unsigned run;             /* 1, then one more per reconnection */
    char *base;               /* output names: DIR/BASE.ext */
    bool tty;                 /* stdout is a terminal: redraw in place */
    bool line_open;           /* a status line is drawn without newline */
    const char *state;        /* "running", "done", "truncated", "error" */
    char error[400];          /* the stream's error, for the page */
    double hint_since;        /* GC figures and no census since then */
    const char *hint;         /* why there is no census, once shown */
    int out_errno;            /* standard output failed: why; the watch
                                 then ends as on SIGTERM, and exits 3 */
} watch;

/* Writes the report set into a new set that w->dir then points at, so
 * readers see the old set or the new one, whole (set_dir.h). final: the census is
 * finished (then the files equal `heapscope report`'s) and a failure is
 * an error, not a warning. Returns an exit code. */
int watch_write_dir(watch *w, bool final);

/* Renders and publishes the snapshots HTTP clients wait for. */
void watch_serve(watch *w, unsigned wanted);

/* The name of an output file of this run: w->base for run 1, then
 * BASE-run2, ...; the caller frees it. */
char *watch_run_name(const watch *w);

#endif
