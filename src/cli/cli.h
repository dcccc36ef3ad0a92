/*
 * The heapscope command line: shared pieces. The front end uses only the
 * public header of the library.
 */
#ifndef HEAPSCOPE_CLI_H
#define HEAPSCOPE_CLI_H

#include <heapscope/heapscope.h>

#include <stdio.h>

/* Exit codes, documented in --help and the README. */
enum {
    EXIT_OK = 0,         /* success (warnings, such as truncation, on stderr) */
    EXIT_BAD_INPUT = 1,  /* the input is malformed */
    EXIT_USAGE = 2,      /* unknown command or option, bad option value */
    EXIT_IO = 3,         /* cannot read the input or write the output */
    EXIT_NO_DATA = 4,    /* the input has nothing of what was asked */
    EXIT_INTERNAL = 5    /* out of memory or another internal failure */
};

/* One option a command takes. */
typedef struct cli_opt {
    const char *name;   /* long name without "--" */
    char short_name;    /* 0 for none */
    int has_arg;        /* 1 when the option takes a value */
    int id;             /* returned to the command */
} cli_opt;

/* A parsed command line: options in order, then the positional words. */
typedef struct cli_parsed {
    int nopts;
    struct { int id; const char *value; } opts[64];
    int npos;
    const char *pos[16];
} cli_parsed;

/*
 * Parses argv[1..argc) against `table`. Options may stand before or after
 * the positional words; "--" ends options; "-" alone is positional
 * (standard input). Returns 0, or prints a usage error naming `cmd` and
 * returns EXIT_USAGE. "--help"/"-h" prints `help` to standard output and
 * returns -1: the command then exits with EXIT_OK.
 */
int cli_parse(const char *cmd, int argc, char **argv, const cli_opt *table,
              const char *help, cli_parsed *out);

/* Prints "heapscope: MSG" to stderr. */
void cli_errorf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Prints "heapscope: warning: MSG" to stderr. */
void cli_warnf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/*
 * Prints an error or warning record for input `file` with its location
 * (byte offset, event index or line) and returns the exit code that fits
 * the record's code.
 */
int cli_report(const char *file, const hs_error *err);

/* The exit code for a library status code. */
int cli_exit_code(int status);

/* Opens an input for reading: "-" is standard input. Returns the fd or -1
 * after printing a message. */
int cli_open_input(const char *path);

/* Parses an unsigned integer option value; prints a usage error and
 * returns false when it is not one. */
bool cli_parse_uint(const char *cmd, const char *opt, const char *value,
                    unsigned long long max, unsigned long long *out);

/* Parses a non-negative number (seconds, sizes). */
bool cli_parse_double(const char *cmd, const char *opt, const char *value,
                      double *out);

/*
 * Loads an eventlog or .hp file (told apart by content) into a new census,
 * printing warnings (truncation, undefined cost centres) to stderr.
 * name_limit cuts -hc names as -L does (0 = none). Returns EXIT_OK with
 * *out set, or an exit code after printing the error.
 */
int cli_load_census(const char *path, unsigned name_limit, hs_census **out);

/* A renderer as the commands call it: arg carries its options. */
typedef int (*cli_render_fn)(const hs_census *c, hs_sink *out,
                             const void *arg);

/*
 * Writes one output: opens `output` (a path; "-" or NULL is standard
 * output) through a temporary file, renders c into it with fn(c, sink, arg)
 * and commits it, or on any failure removes it, so no half file is left.
 * When fn returns HS_ERR_NO_DATA, prints "INPUT: NO_DATA" (input is the
 * input's path, no_data a sentence saying what is missing and how to get
 * it). Returns an exit code.
 */
int cli_write_output(const char *cmd, const hs_census *c, const char *output,
                     cli_render_fn fn, const void *arg, const char *input,
                     const char *no_data);

/* Commands: argv[0] is the command's name. */
int cmd_events(int argc, char **argv);
int cmd_info(int argc, char **argv);
int cmd_hp(int argc, char **argv);
int cmd_csv(int argc, char **argv);
int cmd_folded(int argc, char **argv);
int cmd_chart(int argc, char **argv);
int cmd_report(int argc, char **argv);
int cmd_summary(int argc, char **argv);

#endif
