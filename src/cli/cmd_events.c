/*
 * heapscope events: every event on a line, or counts per event type.
 */
#include "cli.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char help[] =
    "usage: heapscope events [--count] FILE\n"
    "\n"
    "Prints every event of an eventlog, one line each:\n"
    "  TIME_NS CAP NAME field=value ...\n"
    "CAP is the capability of the event's block, or - for the global buffer.\n"
    "Strings are quoted; bytes that are not printable UTF-8 are written \\xHH.\n"
    "A truncated log prints every complete event, then a warning.\n"
    "\n"
    "options:\n"
    "  -c, --count    one line per event type present: TAG NAME COUNT,\n"
    "                 sorted by tag (block markers count under 18)\n"
    "  -h, --help     this text\n"
    "\n"
    "Exit codes: see 'heapscope --help'.\n";

enum { OPT_COUNT = 1 };

static const cli_opt opts[] = {
    {"count", 'c', 0, OPT_COUNT},
    {0, 0, 0, 0},
};

/* Length of the valid UTF-8 sequence of at least two bytes at p, or 0. */
static size_t utf8_len(const unsigned char *p, size_t n)
{
    size_t len;
    uint32_t cp;
    if (p[0] >= 0xc2 && p[0] <= 0xdf) { len = 2; cp = p[0] & 0x1f; }
    else if (p[0] >= 0xe0 && p[0] <= 0xef) { len = 3; cp = p[0] & 0x0f; }
    else if (p[0] >= 0xf0 && p[0] <= 0xf4) { len = 4; cp = p[0] & 0x07; }
    else return 0;
    if (n < len)
        return 0;
    for (size_t i = 1; i < len; i++) {
        if ((p[i] & 0xc0) != 0x80)
            return 0;
        cp = cp << 6 | (p[i] & 0x3f);
    }
    if ((len == 3 && (cp < 0x800 || (cp >= 0xd800 && cp <= 0xdfff))) ||
        (len == 4 && (cp < 0x10000 || cp > 0x10ffff)))
        return 0;
    return len;
}

static void put_str(FILE *out, hs_str s)
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
        } else if (c >= 0x80 && (u = utf8_len(p + i, s.len - i))) {
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
    put_str(out, s);
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
            put_str(out, (hs_str){raw.ptr + start, i - start});
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

static void print_event(FILE *out, const hs_event *ev)
{
    const char *name = hs_event_name(ev->tag);
    fprintf(out, "%llu ", (unsigned long long)ev->time);
    if (ev->cap == HS_CAP_NONE)
        fputs("- ", out);
    else
        fprintf(out, "%d ", ev->cap);
    if (name)
        fputs(name, out);
    else
        fprintf(out, "UNKNOWN tag=%u", ev->tag);
    if (!ev->known) {
        put_raw(out, ev);
        putc('\n', out);
        return;
    }
    const hs_event *e = ev;
    switch (ev->tag) {
    case 0: case 1: case 3:
        fprintf(out, " thread=%u", e->u.thread.thread);
        break;
    case 2:
        fprintf(out, " thread=%u status=%u blocked_on=%u",
                e->u.stop_thread.thread, e->u.stop_thread.status,
                e->u.stop_thread.blocked_on);
        break;
    case 4:
        fprintf(out, " thread=%u new_cap=%u", e->u.thread_cap.thread,
                e->u.thread_cap.cap);
        break;
    case 8:
        fprintf(out, " thread=%u other_cap=%u", e->u.thread_cap.thread,
                e->u.thread_cap.cap);
        break;
    case 15:
        fprintf(out, " thread=%u", e->u.spark_thread.thread);
        break;
    case 18:
        fprintf(out, " block_size=%u end_time=%llu block_cap=%u",
                e->u.block.size, (unsigned long long)e->u.block.end_time,
                e->u.block.cap);
        break;
    case 16: case 19: case 58:
        put_field(out, "text", e->u.msg.text);
        break;
    case 181:
        put_raw(out, ev);
        break;
    case 25:
        fprintf(out, " capset=%u type=%u", e->u.capset_create.capset,
                e->u.capset_create.type);
        break;
    case 26:
        fprintf(out, " capset=%u", e->u.capset_delete.capset);
        break;
    case 27: case 28:
        fprintf(out, " capset=%u cap=%u", e->u.capset_cap.capset,
                e->u.capset_cap.cap);
        break;
    case 29:
        fprintf(out, " capset=%u", e->u.rts_identifier.capset);
        put_field(out, "name", e->u.rts_identifier.text);
        break;
    case 30: case 31:
        fprintf(out, " capset=%u", e->u.args.capset);
        put_args(out, e->u.args.raw);
        break;
    case 32: case 33:
        fprintf(out, " capset=%u pid=%u", e->u.pid.capset, e->u.pid.pid);
        break;
    case 34:
        fprintf(out, " created=%llu dud=%llu overflowed=%llu converted=%llu "
                "gcd=%llu fizzled=%llu remaining=%llu",
                (unsigned long long)e->u.spark_counters.created,
                (unsigned long long)e->u.spark_counters.dud,
                (unsigned long long)e->u.spark_counters.overflowed,
                (unsigned long long)e->u.spark_counters.converted,
                (unsigned long long)e->u.spark_counters.gcd,
                (unsigned long long)e->u.spark_counters.fizzled,
                (unsigned long long)e->u.spark_counters.remaining);
        break;
    case 39:
        fprintf(out, " victim_cap=%u", e->u.spark_steal.cap);
        break;
    case 43:
        fprintf(out, " capset=%u sec=%llu nsec=%u", e->u.wall_clock.capset,
                (unsigned long long)e->u.wall_clock.sec, e->u.wall_clock.nsec);
        break;
    case 44:
        fprintf(out, " thread=%u", e->u.thread_label.thread);
        put_field(out, "label", e->u.thread_label.label);
        break;
    case 45: case 46: case 47: case 48:
        fprintf(out, " cap=%u", e->u.cap.cap);
        break;
    case 49: case 50: case 51: case 91:
        fprintf(out, " capset=%u bytes=%llu", e->u.heap.capset,
                (unsigned long long)e->u.heap.bytes);
        break;
    case 52:
        fprintf(out, " capset=%u gens=%u max_heap=%llu alloc_area=%llu "
                "mblock=%llu block=%llu", e->u.heap_info.capset,
                e->u.heap_info.gens,
                (unsigned long long)e->u.heap_info.max_heap,
                (unsigned long long)e->u.heap_info.alloc_area,
                (unsigned long long)e->u.heap_info.mblock,
                (unsigned long long)e->u.heap_info.block);
        break;
    case 53:
        fprintf(out, " capset=%u gen=%u copied=%llu slop=%llu frag=%llu "
                "par_threads=%u par_max_copied=%llu par_tot_copied=%llu",
                e->u.gc_stats.capset, e->u.gc_stats.gen,
                (unsigned long long)e->u.gc_stats.copied,
                (unsigned long long)e->u.gc_stats.slop,
                (unsigned long long)e->u.gc_stats.frag,
                e->u.gc_stats.par_threads,
                (unsigned long long)e->u.gc_stats.par_max_copied,
                (unsigned long long)e->u.gc_stats.par_tot_copied);
        if (e->u.gc_stats.has_balanced)
            fprintf(out, " par_balanced_copied=%llu",
                    (unsigned long long)e->u.gc_stats.par_balanced_copied);
        break;
    case 55:
        fprintf(out, " task=%llu cap=%u kernel_tid=%llu",
                (unsigned long long)e->u.task_create.task,
                e->u.task_create.cap,
                (unsigned long long)e->u.task_create.kernel_tid);
        break;
    case 56:
        fprintf(out, " task=%llu cap=%u new_cap=%u",
                (unsigned long long)e->u.task_migrate.task,
                e->u.task_migrate.cap, e->u.task_migrate.new_cap);
        break;
    case 57:
        fprintf(out, " task=%llu", (unsigned long long)e->u.task_delete.task);
        break;
    case 90:
        fprintf(out, " capset=%u current=%u needed=%u returned=%u",
                e->u.mem_return.capset, e->u.mem_return.current,
                e->u.mem_return.needed, e->u.mem_return.returned);
        break;
    case 160: {
        static const char *const fnames[7] = {
            "module_filter", "closure_filter", "type_filter", "cc_filter",
            "ccs_filter", "retainer_filter", "bio_filter"};
        fprintf(out, " profile=%u period=%llu breakdown=%u(-%s)",
                e->u.heap_prof_begin.profile,
                (unsigned long long)e->u.heap_prof_begin.period,
                e->u.heap_prof_begin.breakdown,
                hs_breakdown_flag(e->u.heap_prof_begin.breakdown));
        for (int i = 0; i < 7; i++)
            if (e->u.heap_prof_begin.filters[i].len)
                put_field(out, fnames[i], e->u.heap_prof_begin.filters[i]);
        break;
    }
    case 161:
        fprintf(out, " id=%u", e->u.cost_centre.id);
        put_field(out, "label", e->u.cost_centre.label);
        put_field(out, "module", e->u.cost_centre.module);
        put_field(out, "srcloc", e->u.cost_centre.srcloc);
        fprintf(out, " flags=%u%s", e->u.cost_centre.flags,
                e->u.cost_centre.flags & HS_CC_FLAG_CAF ? "(CAF)" : "");
        break;
    case 162: case 165:
        fprintf(out, " era=%llu", (unsigned long long)e->u.sample.era);
        break;
    case 166:
        fprintf(out, " era=%llu sample_time=%llu",
                (unsigned long long)e->u.bio_sample.era,
                (unsigned long long)e->u.bio_sample.time);
        break;
    case 163:
        fprintf(out, " profile=%u bytes=%llu", e->u.ccs_sample.profile,
                (unsigned long long)e->u.ccs_sample.bytes);
        put_stack(out, e->u.ccs_sample.depth, e->u.ccs_sample.stack);
        break;
    case 164:
        fprintf(out, " profile=%u bytes=%llu", e->u.string_sample.profile,
                (unsigned long long)e->u.string_sample.bytes);
        put_field(out, "label", e->u.string_sample.label);
        break;
    case 167:
        fprintf(out, " cap=%u tick=%llu", e->u.prof_sample.cap,
                (unsigned long long)e->u.prof_sample.tick);
        put_stack(out, e->u.prof_sample.depth, e->u.prof_sample.stack);
        break;
    case 168:
        fprintf(out, " tick_interval=%llu",
                (unsigned long long)e->u.prof_begin.tick_interval);
        break;
    case 169:
        fprintf(out, " address=0x%llx", (unsigned long long)e->u.ipe.address);
        put_field(out, "table_name", e->u.ipe.table_name);
        put_field(out, "closure_desc", e->u.ipe.closure_desc);
        put_field(out, "type", e->u.ipe.type_desc);
        put_field(out, "label", e->u.ipe.label);
        put_field(out, "module", e->u.ipe.module);
        put_field(out, "srcloc", e->u.ipe.srcloc);
        break;
    default:
        break; /* events without fields */
    }
    putc('\n', out);
}

static int on_print(void *user, const hs_event *ev)
{
    print_event(user, ev);
    return 0;
}

static int on_count(void *user, const hs_event *ev)
{
    uint64_t *counts = user;
    counts[ev->tag]++;
    return 0;
}

int cmd_events(int argc, char **argv)
{
    cli_parsed p;
    int rc = cli_parse("events", argc, argv, opts, help, &p);
    if (rc)
        return rc < 0 ? EXIT_OK : rc;
    bool count = false;
    for (int i = 0; i < p.nopts; i++)
        if (p.opts[i].id == OPT_COUNT)
            count = true;
    if (p.npos != 1) {
        cli_errorf("events: expected one FILE (run 'heapscope events "
                   "--help')");
        return EXIT_USAGE;
    }
    const char *path = p.pos[0];
    int fd = cli_open_input(path);
    if (fd < 0)
        return EXIT_IO;
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
    if (count) {
        hs_reader_set_decode(r, false);
        st = hs_read_fd(r, fd, on_count, counts);
        for (unsigned t = 0; t < 65536; t++) {
            if (!counts[t])
                continue;
            const char *name = hs_event_name((uint16_t)t);
            printf("%u %s %llu\n", t, name ? name : "UNKNOWN",
                   (unsigned long long)counts[t]);
        }
    } else {
        st = hs_read_fd(r, fd, on_print, stdout);
    }
    if (fd > 0)
        close(fd);
    rc = EXIT_OK;
    if (fflush(stdout) != 0 || ferror(stdout)) {
        cli_errorf("cannot write standard output");
        rc = EXIT_IO;
    }
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
