/* The old parser, while commands move to parse.c's tables. */
#include "cli.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

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

int cli_parse_old(const char *cmd, int argc, char **argv, const cli_opt *table,
              const char *help, cli_old_parsed *out)
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

bool cli_old_uint(const char *cmd, const char *opt, const char *value,
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
