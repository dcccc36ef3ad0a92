/*
 * Option parsing and error reporting shared by every command.
 */
#include "cli.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
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
    fflush(stdout);
    fputs(prefix, stderr);
    if (n > 0)
        put_escaped(stderr, text, (size_t)n);
    fputc('\n', stderr);
    if (text != small)
        free(text);
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
    errno = 0;
    if (fflush(stdout) == 0 && !ferror(stdout))
        return EXIT_OK;
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

static const cli_opt *find_long(const cli_opt *t, const char *name,
                                size_t len)
{
    for (; t && t->name; t++)
        if (strlen(t->name) == len && strncmp(t->name, name, len) == 0)
            return t;
    return NULL;
}

static const cli_opt *find_short(const cli_opt *t, char c)
{
    for (; t && t->name; t++)
        if (t->short_name && t->short_name == c)
            return t;
    return NULL;
}

int cli_parse(const char *cmd, int argc, char **argv, const cli_opt *table,
              const char *help, cli_parsed *out)
{
    memset(out, 0, sizeof *out);
    bool only_pos = false;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (only_pos || a[0] != '-' || strcmp(a, "-") == 0) {
            if (out->npos >= (int)(sizeof out->pos / sizeof out->pos[0])) {
                cli_errorf("%s: too many arguments", cmd);
                return EXIT_USAGE;
            }
            out->pos[out->npos++] = a;
            continue;
        }
        if (strcmp(a, "--") == 0) {
            only_pos = true;
            continue;
        }
        if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
            fputs(help, stdout);
            return cli_stdout_written() == EXIT_OK ? -1 : EXIT_IO;
        }
        const cli_opt *o;
        const char *value = NULL;
        if (a[1] == '-') {
            const char *eq = strchr(a + 2, '=');
            size_t len = eq ? (size_t)(eq - a - 2) : strlen(a + 2);
            o = find_long(table, a + 2, len);
            if (!o) {
                cli_errorf("%s: unknown option '%s' (run 'heapscope %s "
                           "--help')", cmd, a, cmd);
                return EXIT_USAGE;
            }
            if (eq) {
                if (!o->has_arg) {
                    cli_errorf("%s: option '--%s' takes no value", cmd,
                               o->name);
                    return EXIT_USAGE;
                }
                value = eq + 1;
            }
        } else {
            o = a[2] == 0 ? find_short(table, a[1]) : NULL;
            if (!o) {
                cli_errorf("%s: unknown option '%s' (run 'heapscope %s "
                           "--help')", cmd, a, cmd);
                return EXIT_USAGE;
            }
        }
        if (o->has_arg && !value) {
            if (i + 1 >= argc) {
                cli_errorf("%s: option '%s' needs a value", cmd, a);
                return EXIT_USAGE;
            }
            value = argv[++i];
        }
        if (out->nopts >= (int)(sizeof out->opts / sizeof out->opts[0])) {
            cli_errorf("%s: too many options", cmd);
            return EXIT_USAGE;
        }
        out->opts[out->nopts].id = o->id;
        out->opts[out->nopts].value = value;
        out->nopts++;
    }
    return 0;
}

bool cli_parse_uint(const char *cmd, const char *opt, const char *value,
                    unsigned long long max, unsigned long long *out)
{
    char *end;
    errno = 0;
    if (!value || !*value || *value == '-') {
        cli_errorf("%s: %s needs a whole number, not '%s'", cmd, opt,
                   value ? value : "");
        return false;
    }
    unsigned long long v = strtoull(value, &end, 10);
    if (errno || *end || v > max) {
        cli_errorf("%s: %s needs a whole number from 0 to %llu, not '%s'",
                   cmd, opt, max, value);
        return false;
    }
    *out = v;
    return true;
}

bool cli_parse_double(const char *cmd, const char *opt, const char *value,
                      double *out)
{
    char *end;
    errno = 0;
    double v = value ? strtod(value, &end) : 0;
    if (!value || !*value || errno || *end || !(v >= 0) || v > 1e15) {
        cli_errorf("%s: %s needs a non-negative number, not '%s'", cmd, opt,
                   value ? value : "");
        return false;
    }
    *out = v;
    return true;
}

uint64_t cli_seconds_to_ns(double secs)
{
    double ns = secs * 1e9 + 0.5;
    if (!(ns >= 1.0))
        return 0; /* NaN, or below half a nanosecond */
    return ns >= 18446744073709551616.0 ? UINT64_MAX : (uint64_t)ns;
}

bool cli_parse_kind(const char *cmd, const char *v, hs_chart_kind *out)
{
    if (strcmp(v, "area") == 0)
        *out = HS_CHART_AREA;
    else if (strcmp(v, "normalized") == 0 || strcmp(v, "normalised") == 0)
        *out = HS_CHART_NORMALIZED;
    else if (strcmp(v, "line") == 0)
        *out = HS_CHART_LINE;
    else {
        cli_errorf("%s: --kind must be area, normalized or line, not '%s'",
                   cmd, v);
        return false;
    }
    return true;
}

bool cli_parse_sort(const char *cmd, const char *v, hs_chart_sort *out)
{
    if (strcmp(v, "size") == 0)
        *out = HS_SORT_SIZE;
    else if (strcmp(v, "name") == 0)
        *out = HS_SORT_NAME;
    else if (strcmp(v, "stddev") == 0)
        *out = HS_SORT_STDDEV;
    else {
        cli_errorf("%s: --sort must be size, name or stddev, not '%s'", cmd,
                   v);
        return false;
    }
    return true;
}
