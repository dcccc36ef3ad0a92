/*
 * The heapscope command line: shared pieces. The front end uses only the
 * public header of the library.
 */
#ifndef HEAPSCOPE_CLI_H
#define HEAPSCOPE_CLI_H

#include <heapscope/heapscope.h>
#include <pthread.h>
#include <signal.h>

#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>

/* Exit codes, documented in --help and the README. */
enum {
    EXIT_OK = 0,         /* success (warnings, such as truncation, on stderr) */
    EXIT_BAD_INPUT = 1,  /* the input is malformed */
    EXIT_THRESHOLD = 1,  /* diff: a --fail-if threshold was crossed */
    EXIT_USAGE = 2,      /* unknown command or option, bad option value */
    EXIT_IO = 3,         /* cannot read the input or write the output */
    EXIT_NO_DATA = 4,    /* the input has nothing of what was asked */
    EXIT_INTERNAL = 5    /* out of memory or another internal failure */
};

/*
 * Options (parse.c). A command declares its options as a table of
 * references to definitions: an option shared by several commands
 * (--bands, --include, ...) is defined once (shared_opts.c), with one
 * range, and the table says where in the command's argument struct its
 * value goes. The struct is filled with the library's defaults (its
 * _init) before parsing, so a default is written once and --help shows it.
 * The same table drives getopt_long and writes the --help option list.
 */
typedef enum cli_kind {
    CLI_FLAG,    /* no value: stores def->value (bool, int or enum) */
    CLI_TEXT,    /* a string (const char *); min > 0 refuses "" */
    CLI_LIST,    /* a string, repeatable: appended to a cli_list */
    CLI_PAIR,    /* two words, "--between A B" (const char *[2]) */
    CLI_UINT,    /* a whole number in [min, max] (unsigned, 32 or 64 bits) */
    CLI_NUMBER,  /* a number in [min, max] (double) */
    CLI_CHOICE   /* one name of def->choices: stores its value */
} cli_kind;

typedef struct cli_choice {
    const char *name;
    int value;
    bool alias;      /* accepted, not listed (normalised for normalized) */
} cli_choice;

/* One option's definition. */
typedef struct cli_optdef {
    const char *name;            /* long name without "--" */
    char short_name;             /* 0: none */
    cli_kind kind;
    const char *arg;             /* the value's name in --help ("N");
                                    CHOICE: NULL lists the names */
    double min, max;             /* UINT, NUMBER: the range */
    const cli_choice *choices;   /* CHOICE: ended by {NULL} */
    int value;                   /* FLAG: what it stores */
    bool fold_case;              /* CHOICE: names match in any case */
    const char *help;            /* --help text, lines split by \n; %D is
                                    the default (the value before parsing) */
} cli_optdef;

/* A command's table row: a definition and where its value goes. */
typedef struct cli_optref {
    const cli_optdef *def;
    size_t at, size;             /* offset and size in the argument struct */
} cli_optref;
#define CLI_OPT(def, type, member) \
    {&(def), offsetof(type, member), sizeof(((type *)0)->member)}
#define CLI_OPT_END {NULL, 0, 0}

/* What CLI_LIST fills: the values in order, NULL-terminated. */
#define CLI_LIST_MAX 64
typedef struct cli_list {
    const char *item[CLI_LIST_MAX + 1];
    size_t n;
} cli_list;

/* A command: its help around the option list, and its table. */
typedef struct cli_command {
    const char *name;            /* "chart" */
    const char *head;            /* usage, description, "options:" line */
    const cli_optref *opts;      /* ended by CLI_OPT_END */
    const char *tail;            /* after the option list (exit codes) */
} cli_command;

/* A parsed command line: the positional words and which options came. */
typedef struct cli_parsed {
    int npos;
    const char *pos[16];
    const cli_optref *opts;
    unsigned char given[64];     /* per table row: times given */
} cli_parsed;

/*
 * Parses argv[1..argc) with getopt_long against cmd's table into args
 * (filled with the defaults before). Options may stand before or after
 * the positional words; "--" ends options; "-" alone is positional
 * (standard input); long options are taken by their whole name only (an
 * abbreviation is an unknown option, so adding an option never breaks a
 * command line). Returns 0, or prints a usage error naming the command
 * and returns EXIT_USAGE. "--help"/"-h" prints the help (its option list
 * made from the table) to standard output and returns -1: the command
 * then exits with EXIT_OK; or EXIT_IO when it cannot be written.
 */
int cli_parse(const cli_command *cmd, int argc, char **argv, void *args,
              cli_parsed *out);

/* Whether option def was given. */
bool cli_given(const cli_parsed *p, const cli_optdef *def);

/* Writes cmd's --help, defaults read from args, to f. */
void cli_print_help(const cli_command *cmd, const void *args, FILE *f);

/* The options several commands share, defined once (shared_opts.c). */
extern const cli_optdef cli_opt_output, cli_opt_name_limit, cli_opt_bands,
    cli_opt_include, cli_opt_exclude, cli_opt_sort, cli_opt_kind,
    cli_opt_mlpd_by, cli_opt_mlpd_source, cli_opt_quiet, cli_opt_from,
    cli_opt_to, cli_opt_between;

/*
 * Progress on long reads (progress.c). cli_progress_begin(fd, path)
 * starts watching input fd: when stderr is a terminal, --quiet was not
 * given and the read lasts HEAPSCOPE_PROGRESS_AFTER seconds (default 2),
 * a line on stderr, rewritten at most four times a second, says the bytes
 * read, the percent of a regular file's size and the rate.
 * cli_progress_end() stops and clears it; call it before any message.
 * cli_parse() sets quiet from --quiet.
 */
void cli_progress_quiet(bool quiet);
void cli_progress_begin(int fd, const char *path);
void cli_progress_end(void);

/*
 * Messages. Every line the program writes to stderr goes through
 * cli_vprint, which shows control bytes and invalid UTF-8 as \xHH, so a
 * name from the input cannot drive the terminal.
 */
void cli_vprint(const char *prefix, const char *fmt, va_list ap);

/* Sends this thread's messages to `to` instead of stderr (NULL: stderr
 * again): a set's files written in a second thread show their messages
 * after the others', in the set's order (report_dir.c). */
void cli_hold_messages(FILE *to);

/* How many threads a command may use: HEAPSCOPE_THREADS when set to a
 * number from 1 (1: none but the calling thread, as on one CPU; the tests
 * compare both ways), else the CPUs this process may run on (taskset, a
 * cpuset); at most 64. */
unsigned cli_threads(void);

/* Flushes standard output: EXIT_OK, or EXIT_IO after saying why it could
 * not be written (a full disk, a closed descriptor). */
int cli_stdout_written(void);

/* Prints "heapscope: MSG" to stderr. */
void cli_errorf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Prints "heapscope: warning: MSG" to stderr. */
void cli_warnf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Prints "MSG" (a continuation line, e.g. of a list) to stderr. */
void cli_linef(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* How messages name an input ("<stdin>" for "-") and an output
 * ("standard output" for "-" or NULL). */
const char *cli_input_name(const char *path);
const char *cli_output_name(const char *path);
/* The input's file name without its directories ("<stdin>" for "-"), as
 * speedscope's files name their input. */
const char *cli_input_base(const char *path);

/*
 * Guards against libraries that crash, abort or hang when short of memory
 * (guard.c). cli_guard_install() makes a fatal signal (SEGV, BUS, ILL,
 * FPE, TRAP, ABRT) remove the work directory named by cli_guard_workdir()
 * (NULL: none) and exit EXIT_INTERNAL with a message. cli_check_charts()
 * installs it and, once per process, checks that charts can be drawn
 * (hs_chart_check) under the stall watchdog: EXIT_OK, or EXIT_INTERNAL after
 * a message; EXIT_OK in a build without charts.
 */
void cli_guard_install(void);
void cli_guard_workdir(const char *dir);
/* ... and with it the set's directory dir and its parents up to made, the
 * shallowest the run made (cleared by cli_guard_workdir(NULL)). */
void cli_guard_made(const char *dir, const char *made);
/* Removes the empty directory dir and its parents while their path is at
 * least stop bytes long (the length of the shallowest directory a run
 * made), stopping at the first that cannot be removed; dir is cut in
 * place. Async-signal-safe. */
void cli_rmdir_made(char *dir, size_t stop);
/* ... and the temporary files ("PATH.tmp*") of output PATH (NULL: none);
 * nothing while a work directory is guarded, which holds them. Naming a
 * work directory or an output also makes Ctrl-C, SIGTERM and SIGHUP, when
 * at their default action, remove them before the signal ends the
 * process. */
void cli_guard_output(const char *path);
/* Holds Ctrl-C, SIGTERM and SIGHUP off the calling thread (its mask
 * before in *old), until cli_release_interrupts(old): a run that makes
 * directories or files holds them until the guard knows those, and then
 * a signal that came meanwhile removes them. */
void cli_hold_interrupts(sigset_t *old);
void cli_release_interrupts(const sigset_t *old);
/* pthread_create() of a thread that never takes those three signals
 * (nor do the threads it starts): they go to the main thread, where the
 * guard knows what is being written. */
int cli_thread_start(pthread_t *thread, void *(*fn)(void *), void *arg);
int cli_check_charts(void);
/* With more than one CPU (cli_threads), starts that check in a thread of
 * its own, with the fonts of charts drawn with opts[0..n) (n <= 2) loaded
 * ahead (hs_chart_prepare), for the caller to load its input meanwhile;
 * cli_check_charts then waits for it and gives its result. Every path
 * after it calls cli_charts_prepare_end, which waits for the thread. */
void cli_charts_prepare(const hs_chart_options *opts, size_t n);
void cli_charts_prepare_end(void);
/* With more than one CPU (cli_threads), a thread lent to the library for
 * one call at a time (hs_summary_load_fd_lent), its fatal signals handled
 * on a stack of its own as the main thread's are; else NULL. */
const hs_thread_loan *cli_loan(void);
/* Starts (true) or stops the stall watchdog (SIGALRM): while on, a
 * process that uses no CPU time for 20 s exits as a fatal signal does. */
void cli_guard_watch(bool on);

/* Flushes standard output written through stdio; on a failure prints
 * "cannot write standard output: CAUSE" (the system's cause, as "No space
 * left on device") and returns EXIT_IO, else EXIT_OK. */
int cli_flush_stdout(void);

/*
 * Prints an error or warning record for input `file` with its location
 * (byte offset, event index or line) and returns the exit code that fits
 * the record: a log cut inside its header gives EXIT_NO_DATA.
 */
int cli_report(const char *file, const hs_error *err);

/* Prints an output's error record (its message names the output) and
 * returns the exit code that fits it (EXIT_IO, EXIT_INTERNAL for NOMEM). */
int cli_report_output(const hs_error *err);

/* The exit code for a library status code. */
int cli_exit_code(int status);

/* Opens an input for reading: "-" is standard input. Returns the fd or -1
 * after printing a message. */
int cli_open_input(const char *path);

/* Writes s quoted, bytes that are not printable UTF-8 as \xHH. */
void cli_put_str(FILE *out, hs_str s);

/*
 * `summary` of a Mono .mlpd (cmd_summary_mlpd.c). Tells an .mlpd by its
 * first bytes: read with pread() from a file (fd unmoved), else read into
 * first (*nfirst of them, at most 4). Returns -1 when the input is not an
 * .mlpd, else the exit code after writing the summary of the window w
 * (NULL: the whole file; a window by markers is refused: a Mono file has
 * none).
 */
int cli_summary_mlpd(const char *path, int fd, bool json, const char *output,
                     const hs_summary_window *w, uint8_t first[4],
                     size_t *nfirst);

/*
 * How an .mlpd loads (load.c): --by class|namespace|assembly, and whether
 * samples are heap shots or allocation intervals. A command binds
 * cli_opt_mlpd_by and cli_opt_mlpd_source to a cli_mlpd in its arguments;
 * cli_use_mlpd() applies them, when given, to the next cli_load_census().
 */
typedef struct cli_mlpd {
    hs_mlpd_group by;
    hs_mlpd_samples samples;
} cli_mlpd;
void cli_use_mlpd(const cli_parsed *p, const cli_mlpd *m);
void cli_set_mlpd_samples(hs_mlpd_samples samples);

/*
 * `events` for a Mono .mlpd (cmd_events_mlpd.c): reads fd after the n
 * bytes already read into first, prints every event (or counts per event
 * byte) and returns the exit code.
 */
int cli_events_mlpd(const char *path, int fd, const uint8_t *first,
                    size_t n, bool count);

/* Parses a whole number in [d->min, d->max] as a CLI_UINT option takes
 * it; prints a usage error naming cmd and --NAME and returns false when it
 * is not one. */
bool cli_parse_uint(const char *cmd, const cli_optdef *d, const char *value,
                    unsigned long long *out);

/* Seconds as CLI_NUMBER options give them (non-negative), in whole
 * nanoseconds rounded to nearest; UINT64_MAX from 2^64 ns on. */
uint64_t cli_seconds_to_ns(double secs);

/*
 * Loads an eventlog or .hp file (told apart by content) into a new census,
 * printing warnings (truncation, undefined cost centres) to stderr.
 * name_limit cuts -hc names as -L does (0 = none). Returns EXIT_OK with
 * *out set, or an exit code after printing the error.
 */
int cli_load_census(const char *path, unsigned name_limit, hs_census **out);
/* As cli_load_census(), and an eventlog's events also go to s (NULL:
 * none) in the same pass; s is not finished. */
int cli_load_census_summary(const char *path, unsigned name_limit,
                            hs_summary *s, hs_census **out);

/* Why a loaded census has no heap samples, as a sentence for the user:
 * a log cut before its first census, a heap profile whose first census
 * never came, a Mono file without heap shots, or no heap profile at all.
 * Static text or buf (n bytes). */
const char *cli_no_samples_reason(const hs_census *c, char *buf, size_t n);

/* Why a loaded census holds nothing of what was asked, as a sentence: the
 * cut with its byte offset (or .hp line) when the input was cut, else the
 * advice on how to record it, ghc or mono as the input is (buf, n bytes,
 * holds the first). */
const char *cli_no_data_reason(const hs_census *c, const char *ghc,
                               const char *mono, char *buf, size_t n);

/* The no-data sentence of an input cut at byte (or line) `at`, in buf. */
const char *cli_cut_reason(char *buf, size_t n, bool line, uint64_t at);

/* The end of a load with status st and error record err: the error
 * reported (c freed), or the warnings and truncation printed and *out set
 * to c. Returns the exit code. */
int cli_census_loaded(const char *path, hs_census *c, int st,
                      const hs_error *err, hs_census **out);

/* Writes one output to a sink; arg carries what it writes. */
typedef int (*cli_write_fn)(hs_sink *out, const void *arg);

/*
 * Writes one output: opens `output` (a path; "-" or NULL is standard
 * output) through a temporary file, calls fn(sink, arg) and commits it, or
 * on any failure removes it, so no half file is left and an existing file
 * stays whole. When fn returns HS_ERR_NO_DATA, prints "INPUT: NO_DATA"
 * (input is the input's path, no_data a sentence saying what is missing).
 * Returns an exit code.
 */
int cli_write(const char *cmd, const char *output, cli_write_fn fn,
              const void *arg, const char *input, const char *no_data);

/* A renderer as the commands call it: arg carries its options. */
typedef int (*cli_render_fn)(const hs_census *c, hs_sink *out,
                             const void *arg);

/*
 * cli_write for a census renderer: fn(c, sink, arg). When the census has
 * nothing to render and the log was cut short, the message says so
 * instead of no_data's advice on how to record it.
 */
int cli_write_output(const char *cmd, const hs_census *c, const char *output,
                     cli_render_fn fn, const void *arg, const char *input,
                     const char *no_data);

/*
 * The window of --between A B in census c (hs_diff_marker_window): EXIT_OK
 * with *from_ns and *to_ns set, or EXIT_NO_DATA after saying which marker
 * is missing from input path and listing the markers it has.
 */
int cli_marker_window(const char *cmd, const char *path, const hs_census *c,
                      const char *const between[2], uint64_t *from_ns,
                      uint64_t *to_ns);

/* The one FILE of a command line, or NULL after a usage error. */
const char *cli_one_file(const char *cmd, const cli_parsed *p);

/* The arguments every command that renders one census to one output
 * takes; its own argument struct begins with them. */
typedef struct cli_census_args {
    const char *output;              /* -o; NULL: standard output */
    unsigned name_limit;             /* -L; 0: no cut */
    cli_mlpd mlpd;                   /* --by (and --source) of an .mlpd */
    bool quiet;                      /* --quiet */
} cli_census_args;
/* Their table rows, for a struct beginning with cli_census_args. */
#define CLI_CENSUS_OPTS \
    CLI_OPT(cli_opt_output, cli_census_args, output), \
    CLI_OPT(cli_opt_name_limit, cli_census_args, name_limit), \
    CLI_OPT(cli_opt_mlpd_by, cli_census_args, mlpd.by), \
    CLI_OPT(cli_opt_quiet, cli_census_args, quiet)

/* A command that renders one census to one output (hp, csv, folded). */
typedef struct cli_census_cmd {
    const cli_command *cli;          /* name, help and options table */
    /* Checks the options together after all were read; may be NULL.
     * Returns 0 or an exit code after a message. */
    int (*check)(void *args, const cli_parsed *p);
    cli_render_fn render;            /* render(census, sink, args) */
    /* The sentence for a census without what is asked (how to record
     * it), given the options. */
    const char *(*no_data)(const void *args);
} cli_census_cmd;

/* Runs such a command: parse into args (a struct beginning with
 * cli_census_args, filled with its defaults), load FILE, write -o (or
 * standard output). Returns the exit code. */
int cli_census_command(const cli_census_cmd *cmd, void *args, int argc,
                       char **argv);

/* Commands (registered in commands.h): argv[0] is the command's name;
 * cli_cmd_NAME is the command's options table and help. */
#include "commands.h"
#define CLI_DECLARE(name, line) \
    int cmd_##name(int argc, char **argv); \
    extern const cli_command cli_cmd_##name;
HS_CLI_COMMANDS(CLI_DECLARE)
#undef CLI_DECLARE

#endif
