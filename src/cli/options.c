/*
 * Option parsing and error reporting shared by every command.
 */
#include "cli.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <sched.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/*
 * Writes text to f with every byte that could move the cursor or change
 * the terminal's state shown as \xHH: C0 and C1 controls, DEL and bytes
 * that are not UTF-8 (a lone 0x9b is CSI to some terminals). Names and
 * messages carry bytes from the input and from the command line; this is
 * the one place the command line prints them.
 */
static void put_escaped(FILE *f, const char *s, size_t n)
{
    for (size_t i = 0; i < n;) {
        const unsigned char c = (unsigned char)s[i];
        size_t k = hs_utf8_char_len(s + i, n - i);
        bool control = c < 0x20 || c == 0x7f ||
                       (k == 2 && c == 0xc2 && (unsigned char)s[i + 1] < 0xa0);
        if (k == 0 || control) {
            for (size_t j = 0; j < (k ? k : 1); j++)
                fprintf(f, "\\x%02x", (unsigned char)s[i + j]);
            i += k ? k : 1;
        } else {
            fwrite(s + i, 1, k, f);
            i += k;
        }
    }
}

/* Where this thread's messages go instead of stderr, or NULL. */
static _Thread_local FILE *held_to;

void cli_hold_messages(FILE *to) { held_to = to; }

void cli_vprint(const char *prefix, const char *fmt, va_list ap)
{
    char small[1024];
    va_list again;
    va_copy(again, ap);
    int n = vsnprintf(small, sizeof small, fmt, ap);
    char *text = small;
    if (n >= (int)sizeof small && (text = malloc((size_t)n + 1)))
        vsnprintf(text, (size_t)n + 1, fmt, again);
    else if (n >= (int)sizeof small)
        text = small, n = (int)sizeof small - 1; /* out of memory: cut */
    va_end(again);
    FILE *f = held_to ? held_to : stderr;
    fflush(stdout);
    fputs(prefix, f);
    if (n > 0)
        put_escaped(f, text, (size_t)n);
    fputc('\n', f);
    if (text != small)
        free(text);
}

unsigned cli_threads(void)
{
    const char *env = getenv("HEAPSCOPE_THREADS");
    char *end;
    unsigned long n = env ? strtoul(env, &end, 10) : 0;
    if (env && *env && !*end && n >= 1)
        return n > 64 ? 64 : (unsigned)n;
    /* the CPUs this process may run on (taskset, a cpuset), else online */
    cpu_set_t set;
    long online = sched_getaffinity(0, sizeof set, &set) == 0
                      ? CPU_COUNT(&set)
                      : sysconf(_SC_NPROCESSORS_ONLN);
    return online > 1 ? (online > 64 ? 64 : (unsigned)online) : 1;
}

void cli_errorf(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    cli_vprint("heapscope: ", fmt, ap);
    va_end(ap);
}

void cli_warnf(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    cli_vprint("heapscope: warning: ", fmt, ap);
    va_end(ap);
}

void cli_linef(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    cli_vprint("", fmt, ap);
    va_end(ap);
}

int cli_stdout_written(void)
{
    /* a write longer than the buffer fails in fwrite itself, leaving
     * nothing to flush: its errno is the cause */
    int earlier = ferror(stdout) ? errno : 0;
    errno = 0;
    if (fflush(stdout) == 0 && !ferror(stdout))
        return EXIT_OK;
    if (!errno)
        errno = earlier;
    if (errno)
        cli_errorf("cannot write standard output: %s", strerror(errno));
    else
        cli_errorf("cannot write standard output");
    return EXIT_IO;
}

const char *cli_input_name(const char *path)
{
    return path && strcmp(path, "-") ? path : "<stdin>";
}

const char *cli_input_base(const char *path)
{
    const char *name = cli_input_name(path);
    const char *slash = strrchr(name, '/');
    return slash && slash[1] ? slash + 1 : name;
}

const char *cli_output_name(const char *path)
{
    return path && strcmp(path, "-") ? path : "standard output";
}

int cli_flush_stdout(void)
{
    /* stdio keeps what a failed write could not write: flushing again
     * meets the failure again, with its errno */
    errno = 0;
    int e = fflush(stdout) != 0 ? errno : 0;
    if (!e && !ferror(stdout))
        return EXIT_OK;
    cli_errorf("cannot write standard output: %s", strerror(e ? e : EIO));
    return EXIT_IO;
}

int cli_exit_code(int status)
{
    switch (status) {
    case HS_OK: case HS_DONE: case HS_TRUNCATED: case HS_EVENT:
    case HS_NEED_INPUT:
        return EXIT_OK;
    case HS_ERR_IO: return EXIT_IO;
    /* A log cut inside its header is a truncated log with nothing before
     * the cut: nothing of what was asked. (An empty input is no log at
     * all: HS_ERR_BAD_MAGIC.) */
    case HS_ERR_NO_DATA: case HS_ERR_TRUNCATED_HEADER: return EXIT_NO_DATA;
    case HS_ERR_INVALID: return EXIT_USAGE;
    case HS_ERR_NOMEM: case HS_ERR_MISUSE: return EXIT_INTERNAL;
    default: return EXIT_BAD_INPUT;
    }
}

int cli_report(const char *file, const hs_error *err)
{
    if (err->code == HS_OK)
        return EXIT_OK;
    char where[96] = "";
    if (err->line)
        snprintf(where, sizeof where, "line %llu: ",
                 (unsigned long long)err->line);
    else if (err->code != HS_ERR_IO && err->code != HS_ERR_NOMEM &&
             err->code != HS_ERR_NO_DATA) {
        int n = snprintf(where, sizeof where, "byte %llu",
                         (unsigned long long)err->offset);
        if (err->event_index != UINT64_MAX)
            n += snprintf(where + n, sizeof where - (size_t)n, " (event %llu)",
                          (unsigned long long)err->event_index);
        snprintf(where + n, sizeof where - (size_t)n, ": ");
    }
    const char *msg = err->message[0] ? err->message : hs_strerror(err->code);
    if (err->code > 0)
        cli_warnf("%s: %s%s", cli_input_name(file), where, msg);
    else
        cli_errorf("%s: %s%s", cli_input_name(file), where, msg);
    return cli_exit_code(err->code);
}

int cli_report_output(const hs_error *err)
{
    cli_errorf("%s", err->message[0] ? err->message : hs_strerror(err->code));
    return cli_exit_code(err->code);
}

int cli_open_input(const char *path)
{
    if (strcmp(path, "-") == 0)
        return 0;
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        cli_errorf("%s: cannot open: %s", path, strerror(errno));
    return fd;
}

uint64_t cli_seconds_to_ns(double secs)
{
    double ns = secs * 1e9 + 0.5;
    if (!(ns >= 1.0))
        return 0; /* NaN, or below half a nanosecond */
    return ns >= 18446744073709551616.0 ? UINT64_MAX : (uint64_t)ns;
}
