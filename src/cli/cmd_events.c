/*
 * heapscope events: every event on a line, or counts per event type.
 */
#include "cli.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char head[] =
    "usage: heapscope events [--count] FILE\n"
    "\n"
    "Prints every event of an eventlog, one line each:\n"
    "  TIME_NS CAP NAME field=value ...\n"
    "CAP is the capability of the event's block, or - for the global buffer.\n"
    "For a Mono .mlpd (plain or gzip): TIME_NS THREAD NAME field=value ...,\n"
    "a BUFFER line per buffer header; --count gives BYTE NAME COUNT per\n"
    "event byte (hexadecimal).\n"
    "Strings are quoted; bytes that are not printable UTF-8 are written \\xHH.\n"
    "A truncated log prints every complete event, then a warning.\n"
    "\n"
    "options:\n";

static const char tail[] =
    "\n"
    "Exit codes: see 'heapscope --help'.\n";

static const cli_optdef opt_count = {
    "count", 'c', CLI_FLAG, NULL, 0, 0, NULL, true, false,
    "one line per event type present: TAG NAME COUNT,\n"
    "sorted by tag (block markers count under 18)"};

typedef struct events_args {
    bool count;
    bool quiet; /* --quiet: no progress line (cli_parse reads it) */
} events_args;

static const cli_optref opts[] = {
    CLI_OPT(opt_count, events_args, count),
    CLI_OPT(cli_opt_quiet, events_args, quiet),
    CLI_OPT_END,
};

const cli_command cli_cmd_events = {"events", head, opts, tail};

void cli_put_str(FILE *out, hs_str s)
{
    const unsigned char *p = (const unsigned char *)s.ptr;
    putc('"', out);
    for (size_t i = 0; i < s.len;) {
        unsigned char c = p[i];
        size_t u;
        if (c == '"' || c == '\\') {
            putc('\\', out);
            putc(c, out);
            i++;
        } else if (c == '\n') {
            fputs("\\n", out);
            i++;
        } else if (c == '\t') {
            fputs("\\t", out);
            i++;
        } else if (c >= 0x20 && c < 0x7f) {
            putc(c, out);
            i++;
        } else if (c >= 0x80 && (u = hs_utf8_char_len(s.ptr + i, s.len - i))) {
            fwrite(p + i, 1, u, out);
            i += u;
        } else {
            fprintf(out, "\\x%02x", c);
            i++;
        }
    }
    putc('"', out);
}

static void put_field(FILE *out, const char *name, hs_str s)
{
    fprintf(out, " %s=", name);
    cli_put_str(out, s);
}

static void put_stack(FILE *out, uint8_t depth, const uint32_t *stack)
{
    fprintf(out, " depth=%u stack=", depth);
    if (!depth)
        fputs("-", out);
    for (unsigned i = 0; i < depth; i++)
        fprintf(out, "%s%u", i ? "," : "", stack[i]);
}

static void put_args(FILE *out, hs_str raw)
{
    fputs(" args=[", out);
    if (!raw.len) { /* no arguments at all */
        putc(']', out);
        return;
    }
    size_t start = 0;
    bool first = true;
    for (size_t i = 0; i <= raw.len; i++) {
        if (i == raw.len || raw.ptr[i] == 0) {
            if (i == raw.len && start == i && !first)
                break;
            if (!first)
                putc(',', out);
            cli_put_str(out, (hs_str){raw.ptr + start, i - start});
            first = false;
            start = i + 1;
        }
    }
    putc(']', out);
}

static void put_raw(FILE *out, const hs_event *ev)
{
    fprintf(out, " size=%zu", ev->payload_len);
    if (!ev->payload_len)
        return;
    fputs(" payload=", out);
    size_t n = ev->payload_len < 64 ? ev->payload_len : 64;
    for (size_t i = 0; i < n; i++)
        fprintf(out, "%02x", ev->payload[i]);
    if (n < ev->payload_len)
        fputs("...", out);
}

/* One field as `events` shows it: integers in decimal, strings quoted. */
static void print_field(FILE *out, const hs_event *ev, const hs_field_desc *f)
{
    uint64_t v = hs_event_field_uint(ev, f);
    switch (f->kind) {
    case HS_FIELD_U64_HEX:
        fprintf(out, " %s=0x%llx", f->name, (unsigned long long)v);
        break;
    case HS_FIELD_BREAKDOWN:
        fprintf(out, " %s=%llu(-%s)", f->name, (unsigned long long)v,
                hs_breakdown_flag((uint32_t)v));
        break;
    case HS_FIELD_CC_FLAGS:
        fprintf(out, " %s=%llu%s", f->name, (unsigned long long)v,
                v & HS_CC_FLAG_CAF ? "(CAF)" : "");
        break;
    case HS_FIELD_U64_OPT:
        if (hs_event_field_present(ev, f))
            fprintf(out, " %s=%llu", f->name, (unsigned long long)v);
        break;
    case HS_FIELD_BINARY:
        put_raw(out, ev);
        break;
    case HS_FIELD_ARGS:
        put_args(out, hs_event_field_str(ev, f));
        break;
    case HS_FIELD_FILTER:
        if (hs_event_field_str(ev, f).len)
            put_field(out, f->name, hs_event_field_str(ev, f));
        break;
    case HS_FIELD_TEXT: case HS_FIELD_CSTR: case HS_FIELD_CSTR_REQ:
        put_field(out, f->name, hs_event_field_str(ev, f));
        break;
    case HS_FIELD_STACK:
        put_stack(out, (uint8_t)v, hs_event_field_stack(ev, f));
        break;
    default:
        fprintf(out, " %s=%llu", f->name, (unsigned long long)v);
        break;
    }
}

/*
 * One event on a line. An event the reader left undecoded (a tag GHC does
 * not define, or one this log declares with another layout than GHC's,
 * as Mercury's runtime does) is not shown under GHC's name: it is UNKNOWN
 * with the description the log's header gives it and its raw payload.
 */
static void print_event(FILE *out, const hs_reader *r, const hs_event *ev)
{
    const hs_event_desc *d = hs_event_get_desc(ev->tag);
    fprintf(out, "%llu ", (unsigned long long)ev->time);
    if (ev->cap == HS_CAP_NONE)
        fputs("- ", out);
    else
        fprintf(out, "%d ", ev->cap);
    if (d && ev->known) {
        fputs(d->name, out);
        for (unsigned i = 0; i < d->nfields; i++)
            print_field(out, ev, &d->fields[i]);
    } else {
        hs_str desc = {NULL, 0};
        fprintf(out, "UNKNOWN tag=%u", ev->tag);
        if (hs_reader_event_type(r, ev->tag, NULL, &desc) && desc.len)
            put_field(out, "desc", desc);
        put_raw(out, ev);
    }
    putc('\n', out);
}

typedef struct printer {
    FILE *out;
    const hs_reader *r;
} printer;

static int on_print(void *user, const hs_event *ev)
{
    const printer *p = user;
    print_event(p->out, p->r, ev);
    return 0;
}

int cmd_events(int argc, char **argv)
{
    cli_parsed p;
    events_args a = {false, false};
    int rc = cli_parse(&cli_cmd_events, argc, argv, &a, &p);
    bool count = a.count;
    if (rc)
        return rc < 0 ? EXIT_OK : rc;
    if (p.npos != 1) {
        cli_errorf("events: expected one FILE (run 'heapscope events "
                   "--help')");
        return EXIT_USAGE;
    }
    const char *path = p.pos[0];
    int fd = cli_open_input(path);
    if (fd < 0)
        return EXIT_IO;
    /* The first bytes tell an .mlpd from an eventlog; a pipe may deliver
     * them one at a time. */
    uint8_t first[HS_FORMAT_SNIFF_BYTES];
    size_t nfirst = 0;
    for (ssize_t got = 1; nfirst < sizeof first && got > 0; nfirst += (size_t)got)
        if ((got = read(fd, first + nfirst, sizeof first - nfirst)) <= 0)
            break;
    hs_format format = hs_format_sniff(first, nfirst);
    if (format == HS_FORMAT_MLPD || format == HS_FORMAT_MLPD_GZIP) {
        rc = cli_events_mlpd(path, fd, first, nfirst, count);
        if (fd > 0)
            close(fd);
        return rc;
    }
    hs_reader *r = hs_reader_new();
    uint64_t *counts = count ? calloc(65536, sizeof *counts) : NULL;
    if (!r || (count && !counts)) {
        cli_errorf("out of memory");
        hs_reader_free(r);
        free(counts);
        return EXIT_INTERNAL;
    }
    static char outbuf[1 << 16];
    setvbuf(stdout, outbuf, _IOFBF, sizeof outbuf);
    int st;
    hs_event ev0;
    hs_reader_set_decode(r, !count);
    hs_reader_feed(r, first, nfirst);
    while ((st = hs_reader_next(r, &ev0)) == HS_EVENT) /* not in 4 bytes */
        ;
    if (count) {
        hs_reader_set_decode(r, false);
        /* --count prints only at the end: say how the read goes */
        cli_progress_begin(fd, path);
        st = hs_read_fd_count(r, fd, counts);
        cli_progress_end();
        for (unsigned t = 0; t < 65536; t++) {
            if (!counts[t])
                continue;
            const char *name = hs_event_name((uint16_t)t);
            printf("%u %s %llu\n", t, name ? name : "UNKNOWN",
                   (unsigned long long)counts[t]);
        }
    } else {
        printer pr = {stdout, r};
        st = hs_read_fd(r, fd, on_print, &pr);
    }
    if (fd > 0)
        close(fd);
    rc = cli_flush_stdout();
    if (hs_reader_warning(r))
        cli_warnf("%s: %s", cli_input_name(path), hs_reader_warning(r));
    if (st != HS_DONE && st != HS_OK) {
        int rc2 = cli_report(path, hs_reader_error(r));
        if (rc2)
            rc = rc2;
    }
    hs_reader_free(r);
    free(counts);
    setvbuf(stdout, NULL, _IONBF, 0);
    return rc;
}
