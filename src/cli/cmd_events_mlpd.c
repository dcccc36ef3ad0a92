/*
 * heapscope events for Mono log-profiler files: one line per event,
 *   TIME_NS THREAD NAME field=value ...
 * (TIME_NS on the file's CLOCK_MONOTONIC clock, THREAD the buffer's
 * thread id), with a BUFFER line per buffer header; or with --count one
 * line per event byte: BYTE NAME COUNT.
 */
#include "cli.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void put_s(FILE *out, const char *name, const char *s)
{
    fprintf(out, " %s=", name);
    if (s)
        cli_put_str(out, (hs_str){s, strlen(s)});
    else
        fputs("null", out);
}

static void put_x(FILE *out, const char *name, uint64_t v)
{
    fprintf(out, " %s=0x%llx", name, (unsigned long long)v);
}

static void put_u(FILE *out, const char *name, uint64_t v)
{
    fprintf(out, " %s=%llu", name, (unsigned long long)v);
}

static void put_list(FILE *out, const char *name, const uint64_t *v,
                     size_t n)
{
    fprintf(out, " %s=[", name);
    for (size_t i = 0; i < n; i++)
        fprintf(out, i ? ",0x%llx" : "0x%llx", (unsigned long long)v[i]);
    putc(']', out);
}

static void print_meta(FILE *out, const hs_mlpd_event *e)
{
    static const char *const actions[] = {"name", "load", "unload"};
    fprintf(out, " action=%s kind=%s", actions[e->u.meta.action % 3],
            hs_mlpd_meta_name(e->u.meta.kind));
    put_x(out, "ptr", e->u.meta.pointer);
    switch (e->u.meta.kind) {
    case HS_MLPD_META_CLASS: case HS_MLPD_META_ASSEMBLY:
        put_x(out, "image", e->u.meta.image);
        break;
    case HS_MLPD_META_CONTEXT:
        put_x(out, "domain", e->u.meta.domain);
        break;
    case HS_MLPD_META_VTABLE:
        put_x(out, "domain", e->u.meta.domain);
        put_x(out, "class", e->u.meta.klass);
        break;
    default:
        break;
    }
    if (e->u.meta.name)
        put_s(out, "name", e->u.meta.name);
    if (e->u.meta.mvid)
        put_s(out, "mvid", e->u.meta.mvid);
}

static void print_heap_object(FILE *out, const hs_mlpd_event *e)
{
    put_x(out, "object", e->u.heap_object.object);
    put_x(out, "vtable", e->u.heap_object.vtable);
    put_u(out, "size", e->u.heap_object.size);
    put_u(out, "gen", e->u.heap_object.generation);
    fputs(" refs=[", out);
    for (size_t i = 0; i < e->u.heap_object.nrefs; i++)
        fprintf(out, "%s%llu:0x%llx", i ? "," : "",
                (unsigned long long)e->u.heap_object.ref_offsets[i],
                (unsigned long long)e->u.heap_object.refs[i]);
    putc(']', out);
}

static void print_counters(FILE *out, const hs_mlpd_event *e)
{
    if (e->kind == HS_MLPD_SAMPLE_COUNTERS_DESC) {
        for (size_t i = 0; i < e->u.counters_desc.n; i++) {
            const hs_mlpd_counter_desc *d = &e->u.counters_desc.descs[i];
            fprintf(out, " [index=%llu section=%llu",
                    (unsigned long long)d->index,
                    (unsigned long long)d->section);
            if (d->section_name)
                put_s(out, "section_name", d->section_name);
            put_s(out, "name", d->name);
            fprintf(out, " type=%llu unit=%llu variance=%llu]",
                    (unsigned long long)d->type, (unsigned long long)d->unit,
                    (unsigned long long)d->variance);
        }
        return;
    }
    for (size_t i = 0; i < e->u.counters.n; i++) {
        const hs_mlpd_counter_value *v = &e->u.counters.values[i];
        fprintf(out, " %llu=", (unsigned long long)v->index);
        if (v->type == HS_MLPD_COUNTER_DOUBLE)
            fprintf(out, "%.17g", v->d);
        else if (v->type == HS_MLPD_COUNTER_STRING)
            v->s ? cli_put_str(out, (hs_str){v->s, strlen(v->s)})
                 : (void)fputs("null", out);
        else if (v->type == HS_MLPD_COUNTER_UINT ||
                 v->type == HS_MLPD_COUNTER_ULONG)
            fprintf(out, "+%llu", (unsigned long long)v->u);
        else
            fprintf(out, "%+lld", (long long)v->i);
    }
}

/* The fields of the kinds that hold a few scalars. */
static void print_simple(FILE *out, const hs_mlpd_event *e)
{
    switch (e->kind) {
    case HS_MLPD_BUFFER:
        put_u(out, "len", e->u.buffer.len);
        put_x(out, "ptr_base", e->u.buffer.ptr_base);
        put_x(out, "obj_base", e->u.buffer.obj_base);
        put_x(out, "method_base", e->u.buffer.method_base);
        break;
    case HS_MLPD_ALLOC:
        put_x(out, "vtable", e->u.alloc.vtable);
        put_x(out, "object", e->u.alloc.object);
        put_u(out, "size", e->u.alloc.size);
        break;
    case HS_MLPD_GC_EVENT:
        put_u(out, "type", e->u.gc.type);
        put_u(out, "gen", e->u.gc.generation);
        break;
    case HS_MLPD_GC_RESIZE: put_u(out, "heap_size", e->u.resize.heap_size); break;
    case HS_MLPD_GC_MOVE:
        put_list(out, "old_new", e->u.move.objects, e->u.move.n);
        break;
    case HS_MLPD_GC_HANDLE_CREATED: case HS_MLPD_GC_HANDLE_DESTROYED:
        put_u(out, "type", e->u.handle.type);
        put_u(out, "handle", e->u.handle.handle);
        if (e->kind == HS_MLPD_GC_HANDLE_CREATED)
            put_x(out, "object", e->u.handle.object);
        break;
    case HS_MLPD_GC_FINALIZE_OBJECT_START: case HS_MLPD_GC_FINALIZE_OBJECT_END:
    case HS_MLPD_EXCEPTION_THROW:
        put_x(out, "object", e->u.object.object);
        break;
    case HS_MLPD_METHOD_ENTER: case HS_MLPD_METHOD_LEAVE:
    case HS_MLPD_METHOD_EXC_LEAVE:
        put_x(out, "method", e->u.method.method);
        break;
    case HS_MLPD_EXCEPTION_CLAUSE:
        put_u(out, "type", e->u.clause.type);
        put_u(out, "index", e->u.clause.index);
        put_x(out, "method", e->u.clause.method);
        put_x(out, "object", e->u.clause.object);
        break;
    case HS_MLPD_MONITOR:
        put_u(out, "type", e->u.monitor.type);
        put_x(out, "object", e->u.monitor.object);
        break;
    default:
        break;
    }
}

static void print_event(FILE *out, const hs_mlpd_event *e)
{
    fprintf(out, "%llu 0x%llx %s", (unsigned long long)e->time,
            (unsigned long long)e->thread, hs_mlpd_kind_name(e->kind));
    switch (e->kind) {
    case HS_MLPD_METADATA: print_meta(out, e); break;
    case HS_MLPD_METHOD_JIT:
        put_x(out, "method", e->u.jit.method);
        put_x(out, "code", e->u.jit.code);
        put_u(out, "code_size", e->u.jit.code_size);
        put_s(out, "name", e->u.jit.name);
        break;
    case HS_MLPD_HEAP_OBJECT: print_heap_object(out, e); break;
    case HS_MLPD_HEAP_ROOT:
        put_list(out, "addresses", e->u.roots.addresses, e->u.roots.n);
        put_list(out, "objects", e->u.roots.objects, e->u.roots.n);
        break;
    case HS_MLPD_HEAP_ROOT_REGISTER:
        put_x(out, "start", e->u.root_register.start);
        put_u(out, "size", e->u.root_register.size);
        put_u(out, "source", e->u.root_register.source);
        put_x(out, "key", e->u.root_register.key);
        put_s(out, "name", e->u.root_register.name);
        break;
    case HS_MLPD_HEAP_ROOT_UNREGISTER:
        put_x(out, "start", e->u.root_unregister.start);
        break;
    case HS_MLPD_SAMPLE_HIT:
        put_x(out, "thread", e->u.hit.thread);
        put_list(out, "ips", e->u.hit.ips, e->u.hit.nips);
        break;
    case HS_MLPD_SAMPLE_USYM:
        put_x(out, "address", e->u.usym.address);
        put_u(out, "size", e->u.usym.size);
        put_s(out, "name", e->u.usym.name);
        break;
    case HS_MLPD_SAMPLE_COUNTERS_DESC: case HS_MLPD_SAMPLE_COUNTERS:
        print_counters(out, e);
        break;
    case HS_MLPD_JITHELPER:
        put_u(out, "type", e->u.jithelper.type);
        put_x(out, "address", e->u.jithelper.address);
        put_u(out, "size", e->u.jithelper.size);
        if (e->u.jithelper.name)
            put_s(out, "name", e->u.jithelper.name);
        break;
    case HS_MLPD_SYNC_POINT: put_u(out, "type", e->u.sync.type); break;
    case HS_MLPD_AOT_ID: put_s(out, "id", e->u.aot.id); break;
    default: print_simple(out, e); break;
    }
    if (e->frames && (e->has_bt || e->kind == HS_MLPD_SAMPLE_HIT))
        put_list(out, e->kind == HS_MLPD_SAMPLE_HIT ? "frames" : "bt",
                 e->frames, e->nframes);
    putc('\n', out);
}

struct count_state {
    uint64_t counts[256];
    hs_mlpd_kind kinds[256];
};

static int on_event(void *user, const hs_mlpd_event *ev)
{
    if (user) {
        struct count_state *cs = user;
        if (ev->kind != HS_MLPD_BUFFER) {
            cs->counts[ev->byte]++;
            cs->kinds[ev->byte] = ev->kind;
        }
    } else {
        print_event(stdout, ev);
    }
    return 0;
}

int cli_events_mlpd(const char *path, int fd, const uint8_t *first, size_t n,
                    bool count)
{
    hs_mlpd_reader *r = hs_mlpd_reader_new();
    struct count_state *cs = count ? calloc(1, sizeof *cs) : NULL;
    if (!r || (count && !cs)) {
        cli_errorf("out of memory");
        hs_mlpd_reader_free(r);
        free(cs);
        return EXIT_INTERNAL;
    }
    hs_mlpd_reader_feed(r, first, n);
    hs_mlpd_event ev;
    int st;
    while ((st = hs_mlpd_reader_next(r, &ev)) == HS_EVENT)
        on_event(cs, &ev);
    if (st >= 0)
        st = hs_mlpd_read_fd(r, fd, on_event, cs);
    for (unsigned b = 0; cs && b < 256; b++)
        if (cs->counts[b])
            printf("%02x %s %llu\n", b, hs_mlpd_kind_name(cs->kinds[b]),
                   (unsigned long long)cs->counts[b]);
    int rc = cli_flush_stdout();
    if (st != HS_DONE) {
        int rc2 = cli_report(path, hs_mlpd_reader_error(r));
        if (rc2)
            rc = rc2;
    }
    if (hs_mlpd_reader_skipped(r))
        cli_warnf("%s: %llu buffers were cut short; the first: %s",
                  strcmp(path, "-") ? path : "<stdin>",
                  (unsigned long long)hs_mlpd_reader_skipped(r),
                  hs_mlpd_reader_skip_warning(r));
    hs_mlpd_reader_free(r);
    free(cs);
    return rc;
}
