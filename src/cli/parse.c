/*
 * The command line's one option parser: a command's table (cli.h) drives
 * getopt_long, checks and stores every value, and writes the --help
 * option list, so what --help says and what parsing takes cannot differ;
 * each default in --help is read from the arguments as the command filled
 * them before parsing (the library's _init).
 */
#include "cli.h"

#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* Rows a table may have (cli_parsed.given), help included. */
#define MAX_ROWS 63
/* getopt_long's code for a long option: LONG_BASE + its row. */
#define LONG_BASE 256

/* One option as given, stored once the whole line is read. */
typedef struct taken {
    int row;
    const char *v[2];
} taken;

typedef struct parse_state {
    const cli_command *cmd;
    int argc;
    char **argv;
    cli_parsed *out;
    taken *got;
    int ngot;
    bool help;
} parse_state;

static size_t row_count(const cli_command *cmd)
{
    size_t n = 0;
    while (cmd->opts[n].def)
        n++;
    return n;
}

/* --- values ------------------------------------------------------------- */

static unsigned long long load_uint(const void *p, size_t size)
{
    switch (size) {
    case 1: return *(const unsigned char *)p;
    case 2: return *(const unsigned short *)p;
    case 4: return *(const unsigned *)p;
    default: return *(const unsigned long long *)p;
    }
}

static void store_uint(void *p, size_t size, unsigned long long v)
{
    switch (size) {
    case 1: *(unsigned char *)p = (unsigned char)v; break;
    case 2: *(unsigned short *)p = (unsigned short)v; break;
    case 4: *(unsigned *)p = (unsigned)v; break;
    default: *(unsigned long long *)p = v; break;
    }
}

bool cli_parse_uint(const char *cmd, const cli_optdef *d, const char *v,
                    unsigned long long *out)
{
    char *end;
    errno = 0;
    unsigned long long u = 0;
    bool digit = *v >= '0' && *v <= '9';
    if (digit)
        u = strtoull(v, &end, 10);
    if (!digit || errno || *end || u < (unsigned long long)d->min ||
        (double)u > d->max) {
        cli_errorf("%s: --%s needs a whole number from %.0f to %.0f, not "
                   "'%s'", cmd, d->name, d->min, d->max, v);
        return false;
    }
    *out = u;
    return true;
}

static bool parse_number(const char *cmd, const cli_optdef *d, const char *v,
                         double *out)
{
    char *end;
    errno = 0;
    double x = *v ? strtod(v, &end) : 0;
    if (!*v || errno || *end || !(x >= d->min && x <= d->max)) {
        cli_errorf("%s: --%s needs a number from %.16g to %.16g, not '%s'",
                   cmd, d->name, d->min, d->max, v);
        return false;
    }
    *out = x;
    return true;
}

/* "a, b or c": the names a CHOICE lists (aliases left out). */
static void choice_names(const cli_optdef *d, const char *comma,
                         const char *last, char *buf, size_t n)
{
    size_t count = 0, k = 0, len = 0;
    for (const cli_choice *c = d->choices; c->name; c++)
        count += !c->alias;
    buf[0] = 0;
    for (const cli_choice *c = d->choices; c->name && len < n; c++) {
        if (c->alias)
            continue;
        const char *sep = k == 0 ? "" : k + 1 == count ? last : comma;
        len += (size_t)snprintf(buf + len, n - len, "%s%s", sep, c->name);
        k++;
    }
}

static bool parse_choice(const char *cmd, const cli_optdef *d, const char *v,
                         int *out)
{
    for (const cli_choice *c = d->choices; c->name; c++)
        if (d->fold_case ? strcasecmp(v, c->name) == 0
                         : strcmp(v, c->name) == 0) {
            *out = c->value;
            return true;
        }
    char names[256];
    choice_names(d, ", ", " or ", names, sizeof names);
    cli_errorf("%s: --%s takes %s, not '%s'", cmd, d->name, names, v);
    return false;
}

/* Checks and stores one value; false after a usage error. */
static bool store(const char *cmd, const cli_optref *r, const taken *t,
                  bool again, void *args)
{
    const cli_optdef *d = r->def;
    char *p = (char *)args + r->at;
    const char *v = t->v[0];
    unsigned long long u;
    double x;
    int c;
    switch (d->kind) {
    case CLI_FLAG: store_uint(p, r->size, (unsigned long long)d->value); break;
    case CLI_TEXT:
        if (d->min > 0 && !*v) {
            cli_errorf("%s: --%s needs a %s; it cannot be empty", cmd,
                       d->name, d->arg);
            return false;
        }
        *(const char **)p = v;
        break;
    case CLI_LIST: {
        cli_list *l = (cli_list *)p;
        if (l->n == CLI_LIST_MAX) {
            cli_errorf("%s: --%s given more than %d times", cmd, d->name,
                       CLI_LIST_MAX);
            return false;
        }
        l->item[l->n++] = v;
        break;
    }
    case CLI_PAIR:
        if (again) {
            cli_errorf("%s: --%s given twice", cmd, d->name);
            return false;
        }
        memcpy(p, t->v, sizeof t->v);
        break;
    case CLI_UINT:
        if (!cli_parse_uint(cmd, d, v, &u))
            return false;
        store_uint(p, r->size, u);
        break;
    case CLI_NUMBER:
        if (!parse_number(cmd, d, v, &x))
            return false;
        *(double *)p = x;
        break;
    case CLI_CHOICE:
        if (!parse_choice(cmd, d, v, &c))
            return false;
        store_uint(p, r->size, (unsigned long long)(unsigned)c);
        break;
    }
    return true;
}

/* --- help ------------------------------------------------------------ */

/* The widest left column ("  -b, --bands N"); longer ones get a line of
 * their own. */
#define LEFT_MAX 24

/* "  -b, --bands N": the left column of a row (def NULL: --help). */
static void left_column(const cli_optdef *d, bool any_short, char *buf,
                        size_t n)
{
    static const cli_optdef help = {"help", 'h', CLI_FLAG, NULL, 0, 0, NULL,
                                    0, false, NULL};
    if (!d)
        d = &help;
    int k = snprintf(buf, n, "  ");
    if (d->short_name)
        k += snprintf(buf + k, n - (size_t)k, "-%c, ", d->short_name);
    else if (any_short)
        k += snprintf(buf + k, n - (size_t)k, "    ");
    k += snprintf(buf + k, n - (size_t)k, "--%s", d->name);
    if (d->kind == CLI_FLAG)
        return;
    char names[128];
    if (!d->arg)
        choice_names(d, "|", "|", names, sizeof names);
    snprintf(buf + k, n - (size_t)k, " %s", d->arg ? d->arg : names);
}

/* The default of row r as --help shows it for %D. */
static void default_text(const cli_optref *r, const void *args, char *buf,
                         size_t n)
{
    const char *p = (const char *)args + r->at;
    unsigned long long u = r->def->kind == CLI_NUMBER ||
                                   r->def->kind == CLI_TEXT
                               ? 0
                               : load_uint(p, r->size);
    switch (r->def->kind) {
    case CLI_NUMBER: snprintf(buf, n, "%g", *(const double *)p); return;
    case CLI_TEXT:
        snprintf(buf, n, "%s", *(const char *const *)p ? *(const char *const *)p
                                                       : "none");
        return;
    case CLI_CHOICE:
        snprintf(buf, n, "?");
        for (const cli_choice *c = r->def->choices; c->name; c++)
            if (!c->alias && (unsigned)c->value == (unsigned)u) {
                snprintf(buf, n, "%s", c->name);
                return;
            }
        return;
    default: snprintf(buf, n, "%llu", u); return;
    }
}

/* Writes help text s, its lines after the first indented by col, %D as
 * the default. */
static void put_text(FILE *f, const char *s, const char *dflt, int col)
{
    for (; *s; s++) {
        if (s[0] == '%' && s[1] == 'D') {
            fputs(dflt, f);
            s++;
        } else if (*s == '\n') {
            fprintf(f, "\n%*s", col, "");
        } else {
            fputc(*s, f);
        }
    }
    fputc('\n', f);
}

void cli_print_help(const cli_command *cmd, const void *args, FILE *f)
{
    bool any_short = false;
    int col = 0;
    char left[160], dflt[64];
    for (const cli_optref *r = cmd->opts; r->def; r++)
        any_short |= r->def->short_name != 0;
    for (const cli_optref *r = cmd->opts;; r++) {
        left_column(r->def, any_short, left, sizeof left);
        int w = (int)strlen(left);
        if (w <= LEFT_MAX && w > col)
            col = w;
        if (!r->def)
            break;
    }
    col += 2;
    fputs(cmd->head, f);
    for (const cli_optref *r = cmd->opts;; r++) {
        left_column(r->def, any_short, left, sizeof left);
        int w = (int)strlen(left);
        if (w + 2 > col)
            fprintf(f, "%s\n%*s", left, col, "");
        else
            fprintf(f, "%-*s", col, left);
        if (!r->def) {
            put_text(f, "this text", "", col);
            break;
        }
        default_text(r, args, dflt, sizeof dflt);
        put_text(f, r->def->help, dflt, col);
    }
    fputs(cmd->tail, f);
}

/* --- the command line --------------------------------------------------- */

static int unknown(const parse_state *s, const char *what)
{
    cli_errorf("%s: unknown option '%s' (run 'heapscope %s --help')",
               s->cmd->name, what, s->cmd->name);
    return EXIT_USAGE;
}

/* Whether argument a ("--name" or "--name=value") names `name` whole:
 * getopt_long takes unique prefixes, which heapscope refuses. */
static bool whole_name(const char *a, const char *name)
{
    size_t n = strlen(name);
    return strncmp(a, "--", 2) == 0 && strncmp(a + 2, name, n) == 0 &&
           (a[2 + n] == 0 || a[2 + n] == '=');
}

/* The argument getopt_long just read an option from. */
static const char *option_arg(const parse_state *s)
{
    return optarg && optind >= 2 && optarg == s->argv[optind - 1]
               ? s->argv[optind - 2]
               : s->argv[optind - 1];
}

static const char *row_name(const parse_state *s, int code)
{
    return code - LONG_BASE < (int)row_count(s->cmd)
               ? s->cmd->opts[code - LONG_BASE].def->name
               : "help";
}

/* getopt_long's '?' and ':': an unknown option, a value for a flag, a
 * missing value. */
static int bad_option(const parse_state *s, int c)
{
    const char *a = s->argv[optind - 1];
    if (optopt >= LONG_BASE && !whole_name(a, row_name(s, optopt)))
        return unknown(s, a);
    if (c == ':') {
        cli_errorf("%s: option '%s' needs a value", s->cmd->name, a);
        return EXIT_USAGE;
    }
    if (optopt >= LONG_BASE) {
        cli_errorf("%s: option '--%s' takes no value", s->cmd->name,
                   row_name(s, optopt));
        return EXIT_USAGE;
    }
    if (optopt) {
        char name[3] = {'-', (char)optopt, 0};
        return unknown(s, name);
    }
    return unknown(s, a);
}

/* One getopt_long answer: 0, or an exit code after a message. */
static int take(parse_state *s, int c)
{
    cli_parsed *o = s->out;
    if (c == 1) {
        if (o->npos == (int)(sizeof o->pos / sizeof o->pos[0])) {
            cli_errorf("%s: too many arguments", s->cmd->name);
            return EXIT_USAGE;
        }
        o->pos[o->npos++] = optarg;
        return 0;
    }
    if (c == '?' || c == ':')
        return bad_option(s, c);
    int row = -1;
    if (c >= LONG_BASE) {
        if (!whole_name(option_arg(s), row_name(s, c)))
            return unknown(s, option_arg(s));
        row = c - LONG_BASE;
    } else {
        for (int i = 0; s->cmd->opts[i].def; i++)
            if (s->cmd->opts[i].def->short_name == c)
                row = i;
    }
    if (row < 0 || row == (int)row_count(s->cmd)) { /* -h, --help */
        s->help = true;
        return 0;
    }
    const cli_optdef *d = s->cmd->opts[row].def;
    taken *t = &s->got[s->ngot++];
    *t = (taken){row, {optarg, NULL}};
    if (d->kind == CLI_PAIR) {
        if (optind >= s->argc) {
            cli_errorf("%s: --%s needs two values, %s", s->cmd->name,
                       d->name, d->arg);
            return EXIT_USAGE;
        }
        t->v[1] = s->argv[optind++];
    }
    return 0;
}

/* getopt_long's tables for cmd: "-:" (words in order, ':' for a missing
 * value), then the short letters; the long options, help last. */
static void make_tables(const cli_command *cmd, char *shorts,
                        struct option *lo)
{
    size_t n = row_count(cmd), k = 0;
    shorts[k++] = '-';
    shorts[k++] = ':';
    for (size_t i = 0; i < n; i++) {
        const cli_optdef *d = cmd->opts[i].def;
        int has_arg = d->kind == CLI_FLAG ? no_argument : required_argument;
        lo[i] = (struct option){d->name, has_arg, NULL, LONG_BASE + (int)i};
        if (d->short_name) {
            shorts[k++] = d->short_name;
            if (d->kind != CLI_FLAG)
                shorts[k++] = ':';
        }
    }
    shorts[k++] = 'h';
    shorts[k] = 0;
    lo[n] = (struct option){"help", no_argument, NULL, LONG_BASE + (int)n};
    lo[n + 1] = (struct option){NULL, 0, NULL, 0};
}

/* Checks and stores what was taken, in order. */
static int store_all(const parse_state *s, void *args)
{
    unsigned char seen[MAX_ROWS] = {0};
    for (int i = 0; i < s->ngot; i++) {
        const taken *t = &s->got[i];
        if (!store(s->cmd->name, &s->cmd->opts[t->row], t, seen[t->row]++,
                   args))
            return EXIT_USAGE;
        s->out->given[t->row]++;
    }
    return 0;
}

int cli_parse(const cli_command *cmd, int argc, char **argv, void *args,
              cli_parsed *out)
{
    memset(out, 0, sizeof *out);
    out->opts = cmd->opts;
    char shorts[2 * MAX_ROWS + 4];
    struct option lo[MAX_ROWS + 2];
    make_tables(cmd, shorts, lo);
    parse_state s = {cmd, argc, argv, out, malloc((size_t)argc * sizeof(taken)),
                     0, false};
    if (!s.got) {
        cli_errorf("out of memory");
        return EXIT_INTERNAL;
    }
    int rc = 0, c;
    optind = 0; /* a fresh scan */
    opterr = 0;
    while (!rc && (c = getopt_long(argc, argv, shorts, lo, NULL)) != -1)
        rc = take(&s, c);
    for (; !rc && optind < argc; optind++) { /* the words after "--" */
        optarg = argv[optind];
        rc = take(&s, 1);
    }
    if (!rc && s.help) {
        errno = 0; /* the cause, should a write of the help fail */
        cli_print_help(cmd, args, stdout);
        rc = cli_stdout_written() == EXIT_OK ? -1 : EXIT_IO;
    }
    if (!rc)
        rc = store_all(&s, args);
    if (!rc)
        cli_progress_quiet(cli_given(out, &cli_opt_quiet));
    free(s.got);
    return rc;
}

bool cli_given(const cli_parsed *p, const cli_optdef *def)
{
    for (int i = 0; p->opts && p->opts[i].def; i++)
        if (p->opts[i].def == def && p->given[i])
            return true;
    return false;
}
