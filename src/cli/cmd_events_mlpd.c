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

/* A string as `events` shows strings, or null. */
static void put_str(FILE *out, const char *s)
{
    if (s)
        cli_put_str(out, (hs_str){s, strlen(s)});
    else
        fputs("null", out);
}

/* A number of a field of this kind: pointers in hexadecimal. */
static void put_number(FILE *out, hs_mlpd_field_kind kind, uint64_t v)
{
    bool hex = kind == HS_MLPD_FIELD_PTR || kind == HS_MLPD_FIELD_OBJ ||
               kind == HS_MLPD_FIELD_METHOD ||
               kind == HS_MLPD_FIELD_FIXED_PTR;
    fprintf(out, hex ? "0x%llx" : "%llu", (unsigned long long)v);
}

static void put_counter(FILE *out, const hs_mlpd_counter_value *v)
{
    if (v->type == HS_MLPD_COUNTER_DOUBLE)
        fprintf(out, "%.17g", v->d);
    else if (v->type == HS_MLPD_COUNTER_STRING)
        put_str(out, v->s);
    else if (v->type == HS_MLPD_COUNTER_UINT ||
             v->type == HS_MLPD_COUNTER_ULONG)
        fprintf(out, "+%llu", (unsigned long long)v->u);
    else
        fprintf(out, "%+lld", (long long)v->i);
}

/* A scalar field's value, without its name. */
static void put_value(FILE *out, const void *base, const hs_mlpd_field_desc *f)
{
    if (f->kind == HS_MLPD_FIELD_STR)
        put_str(out, hs_mlpd_field_str(base, f));
    else if (f->kind == HS_MLPD_FIELD_COUNTER)
        put_counter(out, hs_mlpd_field_counter(base, f));
    else if (f->names)
        fputs(hs_mlpd_field_value_name(base, f), out);
    else
        put_number(out, f->kind, hs_mlpd_field_uint(base, f));
}

/* NAME=[v,v,...], one column of values. */
static void put_column(FILE *out, const char *name, hs_mlpd_field_kind kind,
                       const uint64_t *v, size_t n)
{
    fprintf(out, " %s=[", name);
    for (size_t i = 0; i < n; i++) {
        if (i)
            putc(',', out);
        put_number(out, kind, v[i]);
    }
    putc(']', out);
}

/* PAIRS: NAME=[a:b,a:b,...], an element's columns joined by ':'. */
static void put_pairs(FILE *out, const hs_mlpd_event *e,
                      const hs_mlpd_field_desc *f)
{
    size_t n = hs_mlpd_field_count(e, f);
    fprintf(out, " %s=[", f->name);
    for (size_t i = 0; i < n; i++) {
        for (unsigned k = 0; k < f->nelems; k++) {
            const hs_mlpd_field_desc *col = &f->elems[k];
            if (i || k)
                putc(k ? ':' : ',', out);
            put_number(out, col->kind, hs_mlpd_field_column(e, col)[i]);
        }
    }
    putc(']', out);
}

static bool shown(const void *base, const hs_mlpd_field_desc *f,
                  unsigned flag)
{
    return !(f->flags & (HS_MLPD_FLAG_HIDDEN | flag)) &&
           hs_mlpd_field_present(base, f);
}

/*
 * The elements of RECORDS as [key=v name=v ...], the key first; of
 * RECORDS_0 as key=value.
 */
static void put_records(FILE *out, const hs_mlpd_event *e,
                        const hs_mlpd_field_desc *f)
{
    bool bracket = f->kind == HS_MLPD_FIELD_RECORDS;
    for (size_t i = 0; i < hs_mlpd_field_count(e, f); i++) {
        const void *rec = hs_mlpd_field_record(e, f, i);
        fputs(bracket ? " [" : " ", out);
        for (unsigned k = 0; k < f->nelems; k++)
            if (f->elems[k].flags & HS_MLPD_FLAG_KEY) {
                if (bracket)
                    fprintf(out, "%s=", f->elems[k].name);
                put_value(out, rec, &f->elems[k]);
            }
        if (!bracket)
            putc('=', out);
        for (unsigned k = 0; k < f->nelems; k++) {
            const hs_mlpd_field_desc *ef = &f->elems[k];
            if (!shown(rec, ef, HS_MLPD_FLAG_KEY))
                continue;
            if (bracket)
                fprintf(out, " %s=", ef->name);
            put_value(out, rec, ef);
        }
        if (bracket)
            putc(']', out);
    }
}

/* One field as ` name=value`, by its kind; nothing when it is absent. */
static void put_field(FILE *out, const hs_mlpd_event *e,
                      const hs_mlpd_field_desc *f)
{
    if (!shown(e, f, 0))
        return;
    switch (f->kind) {
    case HS_MLPD_FIELD_BT: case HS_MLPD_FIELD_FRAMES:
        put_column(out, f->name, HS_MLPD_FIELD_METHOD,
                   hs_mlpd_field_column(e, f), hs_mlpd_field_count(e, f));
        break;
    case HS_MLPD_FIELD_COLUMNS:
        for (unsigned k = 0; k < f->nelems; k++)
            put_column(out, f->elems[k].name, f->elems[k].kind,
                       hs_mlpd_field_column(e, &f->elems[k]),
                       hs_mlpd_field_count(e, f));
        break;
    case HS_MLPD_FIELD_PAIRS:
        put_pairs(out, e, f);
        break;
    case HS_MLPD_FIELD_RECORDS: case HS_MLPD_FIELD_RECORDS_0:
        put_records(out, e, f);
        break;
    default:
        fprintf(out, " %s=", f->name);
        put_value(out, e, f);
        break;
    }
}

/* One event on a line: its fields as the table describes them. */
static void print_event(FILE *out, const hs_mlpd_event *e)
{
    const hs_mlpd_event_desc *d = hs_mlpd_event_get_desc(e);
    fprintf(out, "%llu 0x%llx %s", (unsigned long long)e->time,
            (unsigned long long)e->thread, hs_mlpd_kind_name(e->kind));
    for (unsigned i = 0; d && i < d->nfields; i++)
        put_field(out, e, &d->fields[i]);
    putc('\n', out);
}

static int on_event(void *user, const hs_mlpd_event *ev)
{
    uint64_t *counts = user;
    if (!counts)
        print_event(stdout, ev);
    else if (ev->kind != HS_MLPD_BUFFER)
        counts[ev->byte]++;
    return 0;
}

int cli_events_mlpd(const char *path, int fd, const uint8_t *first, size_t n,
                    bool count)
{
    hs_mlpd_reader *r = hs_mlpd_reader_new();
    uint64_t *counts = count ? calloc(256, sizeof *counts) : NULL;
    if (!r || (count && !counts)) {
        cli_errorf("out of memory");
        hs_mlpd_reader_free(r);
        free(counts);
        return EXIT_INTERNAL;
    }
    hs_mlpd_reader_feed(r, first, n);
    hs_mlpd_event ev;
    int st;
    while ((st = hs_mlpd_reader_next(r, &ev)) == HS_EVENT)
        on_event(counts, &ev);
    if (st >= 0 && count) {
        /* --count prints only at the end: say how the read goes */
        cli_progress_begin(fd, path);
        st = hs_mlpd_read_fd_count(r, fd, counts);
        cli_progress_end();
    } else if (st >= 0) {
        st = hs_mlpd_read_fd(r, fd, on_event, NULL);
    }
    for (unsigned b = 0; counts && b < 256; b++)
        if (counts[b])
            printf("%02x %s %llu\n", b, hs_mlpd_byte_desc((uint8_t)b)->name,
                   (unsigned long long)counts[b]);
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
    free(counts);
    return rc;
}
