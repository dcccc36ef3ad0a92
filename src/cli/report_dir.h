/*
 * Writing the whole report set of a census into a directory, as one unit:
 * `heapscope report` and `heapscope watch -d` both call it.
 */
#ifndef HEAPSCOPE_REPORT_DIR_H
#define HEAPSCOPE_REPORT_DIR_H

#include "cli.h"

#include <sys/stat.h>

typedef struct report_set {
    const char *dir;      /* target directory; made (with parents) when missing */
    const char *base;     /* file names: BASE.svg, BASE.html, ... */
    const char *input;    /* the input's path ("-" for stdin), for messages */
    const struct stat *input_st; /* when set, a file that is the input is
                                    not replaced (a warning says so) */
    unsigned bands;       /* the chart's and the page's starting state,
                             hs_chart_options_init's unless changed */
    const char *const *include;
    const char *const *exclude;
    hs_chart_sort sort;
    hs_chart_kind kind;
    const char *gc_json;  /* the summary as JSON for the page's GC tab, or NULL */
    bool alloc_samples;   /* the samples are an .mlpd's bytes allocated per
                             interval: no .hp or heap .folded of them */
    bool quiet;           /* do not print a "wrote" line per file */
    const char *shown_dir; /* the directory the "wrote" lines and rename
                              errors name, when not dir (watch writes into
                              a set that DIR will point at) */
    bool two_threads;     /* write the files that draw no chart in a
                             second thread while the charts are drawn
                             (report, with more than one CPU: see
                             cli_threads()) */
} report_set;

/* Empties *s and gives it the chart's defaults (bands, sort, kind). */
void report_set_init(report_set *s);

/*
 * Writes BASE.svg, .pdf (with charts), .hp, .csv, .folded (with heap
 * samples; of allocation samples only the chart and .csv), .time.folded
 * and .speedscope.json (with a time profile), .alloc.folded (with .mlpd allocation sites) and
 * .html into a temporary
 * directory inside `dir`, then moves them over the previous set and
 * removes the previous set's files this run does not write, so the
 * directory never holds two runs' files side by side. On a failure the
 * previous set stays whole, the temporary directory is removed, and so is
 * `dir` when this call made it. Returns an exit code after printing any
 * error.
 */
int report_dir_write(const hs_census *c, const report_set *set);
/* Starts the charts' check with their fonts loaded ahead
 * (cli_charts_prepare), for the charts report_dir_write draws: to call
 * before loading the input, and cli_charts_prepare_end after. */
void report_dir_prepare(void);

/*
 * Says, as `heapscope report` does, that census c of `input` (which has
 * no GC figures either) has nothing to report. Returns EXIT_NO_DATA.
 */
int report_dir_no_data(const hs_census *c, const char *input);

/* mkdir -p `dir`; *made is the shallowest directory it made (NULL when
 * none; the caller frees it). Returns 0 or an errno value. */
int report_dir_make(const char *dir, char **made);

/* Removes `dir` and its parents up to `made` (empty directories this
 * process made). */
void report_dir_unmake(const char *dir, const char *made);

/* Removes a directory of files (a set or a temporary directory). */
void report_dir_remove(const char *dir);

/* What a set's writing does with one of its files. */
typedef enum set_action {
    SET_WRITE,   /* write it */
    SET_REMOVE,  /* not in this run's set: remove a previous run's */
    SET_KEEP     /* leave whatever is there alone */
} set_action;

/* Writes one file of a set at `path` (inside the temporary directory),
 * atomically; returns an exit code after printing any error. */
typedef int (*set_write_fn)(const char *path, const void *arg);

typedef struct set_file {
    const char *name;    /* the file's name inside the directory */
    set_action action;
    set_write_fn write;  /* SET_WRITE: write(path, arg) */
    const void *arg;
    bool beside;         /* written in a second thread (see dir_set_write;
                            every such file comes after the others) */
} set_file;

/*
 * Writes a set of files into `dir` as one unit, as report_dir_write()
 * does: the files to write go into a temporary directory inside `dir`
 * (made, with parents, when missing), then are renamed into place, and
 * the files to remove are removed; "wrote PATH (SIZE)" is printed per
 * file unless quiet, PATH inside shown_dir when not NULL (see
 * report_set.shown_dir), else inside dir. The files marked beside are
 * written in a second thread, started once the calling thread has written
 * its first file to write (they may read it), their messages held and
 * shown after the others': the messages and the exit code are those of
 * writing the files one by one in order, stopping at the first failure.
 * On a failure the previous set stays whole, the
 * temporary directory is removed, and so is `dir` when this call made it.
 * Returns an exit code after printing any error.
 */
int dir_set_write(const char *dir, const char *shown_dir,
                  const set_file *files, size_t n, bool quiet);

#endif
