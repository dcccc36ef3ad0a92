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

void cli_errorf(const char *fmt, ...)
{
    va_list ap;
    fflush(stdout);
    fputs("heapscope: ", stderr);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
}

void cli_warnf(const char *fmt, ...)
{
    va_list ap;
    fflush(stdout);
    fputs("heapscope: warning: ", stderr);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
}

int cli_exit_code(int status)
{
    switch (status) {
    case HS_OK: case HS_DONE: case HS_TRUNCATED: case HS_EVENT:
    case HS_NEED_INPUT:
        return EXIT_OK;
    case HS_ERR_IO: return EXIT_IO;
    case HS_ERR_NO_DATA: return EXIT_NO_DATA;
    case HS_ERR_INVALID: return EXIT_USAGE;
    case HS_ERR_NOMEM: case HS_ERR_MISUSE: return EXIT_INTERNAL;
    default: return EXIT_BAD_INPUT;
    }
}

int cli_report(const char *file, const hs_error *err)
{
    const char *name = file && strcmp(file, "-") ? file : "<stdin>";
    if (err->code == HS_OK)
        return EXIT_OK;
    bool warn = err->code > 0;
    fflush(stdout);
    fprintf(stderr, "heapscope: %s%s: ", warn ? "warning: " : "", name);
    if (err->line)
        fprintf(stderr, "line %llu: ", (unsigned long long)err->line);
    else if (err->code != HS_ERR_IO && err->code != HS_ERR_NOMEM &&
             err->code != HS_ERR_NO_DATA) {
        fprintf(stderr, "byte %llu", (unsigned long long)err->offset);
        if (err->event_index != UINT64_MAX)
            fprintf(stderr, " (event %llu)",
                    (unsigned long long)err->event_index);
        fputs(": ", stderr);
    }
    fprintf(stderr, "%s\n", err->message[0] ? err->message
                                              : hs_strerror(err->code));
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
            return -1;
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
