/*
 * Loading a Mono log-profiler file (.mlpd) into a census: the event
 * loop. Heap shots are gathered per vtable and allocations per (vtable,
 * backtrace) while the file is read; names are given at the end
 * (load_mlpd_out.c), so a vtable described late is still named.
 */
#include "load/load_mlpd.h"
#include "census/census_impl.h"
#include "read/input.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#define DEFAULT_INTERVAL 10000000ull /* 10 ms */

static void mlpd_free(void *ext, const hs_allocator *a);

/* The census's .mlpd extension, made with the default options when it has
 * none; NULL when out of memory. */
static struct hs_census_mlpd *ext_get(hs_census *c)
{
    struct hs_census_mlpd *m = hs__census_ext(c, mlpd_free);
    if (m)
        return m;
    const hs_allocator *a = hs__census_allocator(c);
    m = hs_calloc(a, 1, sizeof *m);
    if (!m)
        return NULL;
    m->interval = DEFAULT_INTERVAL;
    hs__mlpd_figures_init(&m->fig, a);
    hs_intern_init(&m->classes.tab, a);
    hs_intern_init(&m->images.tab, a);
    hs_intern_init(&m->methods.tab, a);
    hs_intern_init(&m->shot_vt.tab, a);
    hs_intern_init(&m->sites, a);
    hs_intern_init(&m->buckets, a);
    hs_arena_init(&m->arena, a);
    hs__census_ext_set(c, m, mlpd_free);
    hs__census_build_mlpd_stats(c, &m->fig.s);
    hs__mlpd_label(c, m);
    return m;
}

static void mlpd_free(void *ext, const hs_allocator *a)
{
    struct hs_census_mlpd *m = ext;
    if (!m)
        return;
    hs__mlpd_figures_free(&m->fig);
    hs_intern_free(&m->classes.tab);
    hs_intern_free(&m->images.tab);
    hs_intern_free(&m->methods.tab);
    hs_intern_free(&m->shot_vt.tab);
    hs_intern_free(&m->sites);
    hs_intern_free(&m->buckets);
    hs_arena_free(&m->arena);
    hs_free(a, m->cl);
    hs_free(a, m->cchain);
    hs_free(a, m->im);
    hs_free(a, m->meth);
    hs_free(a, m->shots);
    hs_free(a, m->cells);
    hs_free(a, m->site_bytes);
    hs_free(a, m->site_count);
    hs_free(a, m->bucket_bytes);
    hs_free(a, m->bucket_count);
    hs_free(a, m);
}

int hs_census_set_mlpd_options(hs_census *c, hs_mlpd_group by,
                               hs_mlpd_samples samples, uint64_t interval_ns)
{
    if ((unsigned)by > HS_MLPD_BY_ASSEMBLY ||
        (unsigned)samples > HS_MLPD_SAMPLES_ALLOC)
        return HS_ERR_INVALID;
    struct hs_census_mlpd *m = ext_get(c);
    if (!m)
        return HS_ERR_NOMEM;
    m->by = by;
    m->samples = samples;
    m->interval = interval_ns ? interval_ns : DEFAULT_INTERVAL;
    hs__mlpd_label(c, m);
    return HS_OK;
}


/* The deepest allocation site kept from an emulated stack: the innermost
 * frames, as many as the profiler's own backtraces hold at most
 * (maxframes=32), so a deep recursion cannot make every site huge. */
#define MAX_CALL_FRAMES 32

static uint64_t rel(const struct loader *l, uint64_t t)
{
    return hs__mlpd_figures_rel(&l->m->fig, t);
}

/* The method stack of a thread, NULL when out of memory. */
static struct calls *calls_of(struct loader *l, uint64_t thread)
{
    uint32_t i;
    bool added;
    if (hs__mlpd_lookup(l, &l->threads, thread, (void **)&l->calls,
                        &l->cap_calls, sizeof *l->calls, &i, &added))
        return NULL;
    return &l->calls[i];
}

/* ENTER pushes; LEAVE and EXC_LEAVE pop when their method is on top, and
 * are ignored otherwise, as mprof-report does ("unmatched leave": a
 * method entered before the thread's first buffer, or a lost event). */
static int on_call(struct loader *l, const hs_mlpd_event *ev)
{
    struct calls *s = calls_of(l, ev->thread);
    if (!s)
        return HS_ERR_NOMEM;
    if (ev->kind == HS_MLPD_METHOD_ENTER) {
        if (!hs_grow(l->a, (void **)&s->m, &s->cap, s->n + 1, sizeof *s->m))
            return HS_ERR_NOMEM;
        s->m[s->n++] = ev->u.method.method;
    } else if (s->n && s->m[s->n - 1] == ev->u.method.method) {
        s->n--;
    }
    return HS_OK;
}

/*
 * The site of (vtable id, frames): a program allocates at a few hundred
 * sites over and over, so a table of recent sites picked by a cheap hash
 * (the vtable, the depth and the outer and inner frames) answers most
 * allocations with one comparison, before the full hash of every frame.
 */
static HS_ALWAYS_INLINE bool site_of(struct hs_census_mlpd *m, uint64_t vt,
                                     const uint64_t *frames, size_t n,
                                     uint32_t *si, bool *added)
{
    uint64_t h = (vt + n) * 0x9e3779b97f4a7c15ull;
    if (n)
        h ^= (frames[0] ^ frames[n - 1] >> 3) * 0xff51afd7ed558ccdull;
    uint32_t *r = &m->recent_site[h >> 56];
    if (*r && hs_intern_is_words(&m->sites, *r - 1, vt, frames, n)) {
        *si = *r - 1;
        *added = false;
        return true;
    }
    if (!hs_intern_put_words(&m->sites, vt, frames, n, si, added))
        return false;
    *r = *si + 1;
    return true;
}

/* An allocation of size bytes at time t with vtable id vt at site si
 * (new when added): counted. */
static HS_ALWAYS_INLINE int count_at_site(struct loader *l, uint32_t si,
                                          bool added, uint64_t vt, uint64_t t,
                                          uint64_t size)
{
    struct hs_census_mlpd *m = l->m;
    if (added) {
        if (!hs_grow(l->a, (void **)&m->site_bytes, &m->cap_site_bytes,
                     (size_t)si + 1, sizeof *m->site_bytes) ||
            !hs_grow(l->a, (void **)&m->site_count, &m->cap_site_count,
                     (size_t)si + 1, sizeof *m->site_count))
            return HS_ERR_NOMEM;
        m->site_bytes[si] = m->site_count[si] = 0;
    }
    m->site_bytes[si] = hs_add_sat(m->site_bytes[si], size);
    m->site_count[si]++;
    if (m->samples != HS_MLPD_SAMPLES_ALLOC)
        return HS_OK;
    uint32_t bi;
    if (!hs_intern_put_words(&m->buckets, rel(l, t) / m->interval,
                             &vt, 1, &bi, &added))
        return HS_ERR_NOMEM;
    if (added) {
        if (!hs_grow(l->a, (void **)&m->bucket_bytes, &m->cap_buckets,
                     (size_t)bi + 1, sizeof *m->bucket_bytes) ||
            !hs_grow(l->a, (void **)&m->bucket_count, &m->cap_bucket_count,
                     (size_t)bi + 1, sizeof *m->bucket_count))
            return HS_ERR_NOMEM;
        m->bucket_bytes[bi] = m->bucket_count[bi] = 0;
    }
    m->bucket_bytes[bi] = hs_add_sat(m->bucket_bytes[bi], size);
    m->bucket_count[bi]++;
    return HS_OK;
}

/* The site of an allocation with vtable id vt, its frames the
 * backtrace's (has_bt) or else the thread's emulated stack, into *si. */
static HS_ALWAYS_INLINE bool alloc_site(struct loader *l, uint64_t vt,
                                        bool has_bt, uint64_t thread,
                                        const uint64_t *frames,
                                        size_t nframes, uint32_t *si,
                                        bool *added)
{
    /* Without a backtrace in the event, the thread's emulated stack (in
     * `calls` mode; empty otherwise) is the allocation's call chain. */
    if (!has_bt && l->threads.tab.count) {
        uint32_t ti = hs__ptr_map_find(&l->threads, thread);
        const struct calls *s = ti == UINT32_MAX ? NULL : &l->calls[ti];
        nframes = s ? (s->n < MAX_CALL_FRAMES ? s->n : MAX_CALL_FRAMES) : 0;
        frames = nframes ? s->m + s->n - nframes : NULL;
    }
    return site_of(l->m, vt, frames, nframes, si, added);
}

static int on_alloc(struct loader *l, const hs_mlpd_event *ev)
{
    /* sites and intervals are keyed by vtable id */
    uint64_t vt = l->m->fig.vid;
    uint32_t si;
    bool added;
    if (!alloc_site(l, vt, ev->has_bt, ev->thread, ev->frames, ev->nframes,
                    &si, &added))
        return HS_ERR_NOMEM;
    return count_at_site(l, si, added, vt, ev->time, ev->u.alloc.size);
}

#define BT_SITES 1024

/* A run of ALLOCs from the reader: the figures first, as on_event. A
 * backtrace the reader gave an id finds its site by (id, vtable id)
 * before its frames are hashed and compared: in the entry its id picks
 * (the reader's ids are consecutive), which two classes allocated from
 * one backtrace would take in turn. */
static int on_allocs(struct loader *l, hs__mlpd_allocs *run)
{
    if (hs__mlpd_figures_allocs(&l->m->fig, run))
        return HS_ERR_NOMEM;
    l->events += run->n;
    for (size_t i = 0; i < run->n; i++) {
        const hs__mlpd_alloc *a = &run->a[i];
        uint32_t vid = run->vid[i], si;
        bool added = false;
        struct bt_site *e = a->bt ? &l->bt_site[a->bt % BT_SITES] : NULL;
        if (e && e->bt == a->bt && e->vid == vid) {
            si = e->site;
        } else {
            if (!alloc_site(l, vid, a->has_bt, run->thread,
                            run->frames + a->frame0, a->nframes, &si, &added))
                return HS_ERR_NOMEM;
            if (e)
                *e = (struct bt_site){a->bt, vid, si};
        }
        if (count_at_site(l, si, added, vid, a->time, a->size))
            return HS_ERR_NOMEM;
    }
    return HS_OK;
}

/* Ends the open shot (NULL when none is): its cells are those added
 * since it opened. */
static struct shot *end_shot(struct loader *l)
{
    struct hs_census_mlpd *m = l->m;
    if (!m->shot_open)
        return NULL;
    struct shot *s = &m->shots[m->nshots - 1];
    s->n = m->ncells - s->first;
    m->shot_open = false;
    return s;
}

static void close_shot(struct loader *l)
{
    end_shot(l);
}

/* A shot still open at the end of the file lost its HEAP_END to a cut or
 * a kill (inside a buffer, or between two: a shot spans many). It holds
 * part of the heap: it counts in no figure, and hs__mlpd_build makes it
 * the last sample, left open, which hs_census_finish leaves out and names
 * as it does an eventlog's cut sample. */
static void cut_shot(struct loader *l)
{
    if (!end_shot(l))
        return;
    l->m->cut_shot = true;
}

static int open_shot(struct loader *l, uint64_t time)
{
    struct hs_census_mlpd *m = l->m;
    close_shot(l);
    if (!hs_grow(l->a, (void **)&m->shots, &m->cap_shots, m->nshots + 1,
                 sizeof *m->shots))
        return HS_ERR_NOMEM;
    m->shots[m->nshots++] = (struct shot){rel(l, time), m->ncells, 0};
    hs__ptr_map_clear(&m->shot_vt, l->a);
    m->shot_open = true;
    return HS_OK;
}

static int on_heap_object(struct loader *l, const hs_mlpd_event *ev)
{
    struct hs_census_mlpd *m = l->m;
    /* Records of size 0 continue the previous object's references. */
    if (ev->u.heap_object.size == 0)
        return HS_OK;
    /* An object outside HEAP_START/HEAP_END (its start lost) still counts,
     * in a shot of its own, as mprof-report does. */
    if (!m->shot_open && open_shot(l, ev->time))
        return HS_ERR_NOMEM;
    uint32_t vi = m->fig.vid, ci;
    bool added;
    if (!hs__ptr_map_put(&m->shot_vt, vi, &ci, &added))
        return HS_ERR_NOMEM;
    uint64_t vt = vi;
    size_t at = m->shots[m->nshots - 1].first + ci;
    if (added) {
        if (!hs_grow(l->a, (void **)&m->cells, &m->cap_cells, m->ncells + 1,
                     sizeof *m->cells))
            return HS_ERR_NOMEM;
        m->cells[m->ncells++] = (struct cell){vt, 0, 0};
    }
    m->cells[at].bytes =
        hs_add_sat(m->cells[at].bytes, ev->u.heap_object.size);
    m->cells[at].count++;
    return HS_OK;
}

static int on_event(struct loader *l, const hs_mlpd_event *ev)
{
    /* The figures first: they resolve the vtable an event uses. */
    if (hs__mlpd_figures_add(&l->m->fig, ev))
        return HS_ERR_NOMEM;
    if (ev->kind == HS_MLPD_BUFFER)
        return HS_OK;
    l->events++;
    switch (ev->kind) {
    case HS_MLPD_METADATA: return hs__mlpd_on_metadata(l, ev);
    case HS_MLPD_METHOD_JIT: {
        int st = hs__mlpd_on_jit(l, ev);
        return st ? st : hs__mlpd_on_code(l, ev);
    }
    case HS_MLPD_SAMPLE_HIT: case HS_MLPD_SAMPLE_USYM:
        return hs__mlpd_on_sample(l, ev);
    case HS_MLPD_ALLOC: return on_alloc(l, ev);
    case HS_MLPD_METHOD_ENTER: case HS_MLPD_METHOD_LEAVE:
    case HS_MLPD_METHOD_EXC_LEAVE:
        return on_call(l, ev);
    case HS_MLPD_HEAP_START: return open_shot(l, ev->time);
    case HS_MLPD_HEAP_END: close_shot(l); return HS_OK;
    case HS_MLPD_HEAP_OBJECT: return on_heap_object(l, ev);
    case HS_MLPD_GC_RESIZE:
        /* Beside allocation rates a heap size would mean another unit. */
        if (l->m->samples == HS_MLPD_SAMPLES_ALLOC)
            return HS_OK;
        return hs__census_build_line(l->c, HS_LINE_HEAP_SIZE, rel(l, ev->time),
                               ev->u.resize.heap_size);
    default:
        return HS_OK;
    }
}

/* Decodes one chunk into the census; HS_OK or a negative error. */
static int feed(struct loader *l, hs_mlpd_reader *r, const uint8_t *data,
                size_t len, hs_error *err)
{
    hs_mlpd_reader_feed(r, data, len);
    hs_mlpd_event ev;
    int st;
    while ((st = hs__mlpd_reader_next_allocs(r, &ev, l->run)) == HS_EVENT ||
           st == HS__MLPD_ALLOCS)
        if (st == HS__MLPD_ALLOCS ? on_allocs(l, l->run) : on_event(l, &ev)) {
            hs__error_set(err, HS_ERR_NOMEM, NULL, "out of memory while "
                          "building the census");
            return HS_ERR_NOMEM;
        }
    if (st < 0 && err)
        *err = *hs_mlpd_reader_error(r);
    return st < 0 ? st : HS_OK;
}

/* Feeds the reader pre[0 .. npre), then the input to its end; HS_DONE,
 * HS_TRUNCATED or an error (in *err). */
static int read_all(struct loader *l, hs_mlpd_reader *r, hs_input *in,
                    const uint8_t *pre, size_t npre, hs_error *err)
{
    int st = npre ? feed(l, r, pre, npre, err) : HS_OK;
    while (st == HS_OK) {
        const uint8_t *data;
        size_t len;
        st = hs_input_next(in, &data, &len);
        if (st == HS_DONE)
            break;
        if (st < 0) {
            hs_error_at at = {hs_mlpd_reader_offset(r), HS_NO_EVENT, 0};
            hs__error_set(err, st, &at, "reading failed: %s",
                          st == HS_ERR_IO ? strerror(in->err_no)
                                          : "out of memory");
            return st;
        }
        st = feed(l, r, data, len, err);
    }
    if (st < 0 && st != HS_DONE)
        return st;
    st = hs_mlpd_reader_finish(r);
    if (st != HS_DONE && err)
        *err = *hs_mlpd_reader_error(r);
    return st;
}

/* What the header and the events tell about the run. */
static int set_info(struct loader *l, const hs_mlpd_reader *r)
{
    const hs_mlpd_header *h = hs_mlpd_reader_header(r);
    const char *program = l->m->fig.program;
    hs_census_run run;
    memset(&run, 0, sizeof run);
    run.end_ns = l->m->fig.s.duration_ns;
    run.program = program;
    char rts[96] = "";
    char *job = NULL;
    const hs_allocator *a = hs__census_allocator(l->c);
    if (h) {
        snprintf(rts, sizeof rts, "Mono log profiler %u.%u, data version %u%s",
                 h->major, h->minor, h->data_version,
                 hs_mlpd_reader_compressed(r) ? ", gzip" : "");
        /* The command as far as the file tells it: the profiler's options
         * and the program (the root domain's name), for titles and JOB. */
        const char *args = h->args ? h->args : "";
        size_t n = strlen(args) + (program ? strlen(program) : 0) + 24;
        if (!(job = hs_malloc(a, n)))
            return HS_ERR_NOMEM;
        snprintf(job, n, "mono --profile=%s%s%s", args, program ? " " : "",
                 program ? program : "");
        run.job = job;
        /* The header's wall clock has whole seconds only. */
        run.has_wall_clock = true;
        run.wall_clock_sec = h->startup_ms / 1000;
        run.wall_clock_nsec = (uint32_t)(h->startup_ms % 1000) * 1000000u;
    }
    int st = hs__census_build_run(l->c, &run);
    hs_free(a, job);
    return st ? st : hs__census_build_facts(l->c, h ? rts : NULL, l->events);
}

int hs__census_load_mlpd(hs_census *c, struct hs_input *in,
                         const uint8_t *pre, size_t npre, hs_error *err)
{
    struct loader l = {0};
    l.c = c;
    hs__error_clear(err);
    int bst = hs__census_build_begin(c, HS_SOURCE_MLPD);
    if (bst) {
        hs__error_set(err, bst, NULL, "the census cannot take an input now");
        return bst;
    }
    l.a = hs__census_allocator(c);
    if (!(l.m = ext_get(c))) {
        hs__error_set(err, HS_ERR_NOMEM, NULL, "out of memory");
        return HS_ERR_NOMEM;
    }
    hs_mlpd_reader *r = hs_mlpd_reader_new_with(l.a);
    l.run = r ? hs_malloc(l.a, sizeof *l.run) : NULL;
    l.bt_site = l.run ? hs_calloc(l.a, BT_SITES, sizeof *l.bt_site) : NULL;
    if (!l.bt_site) {
        hs_free(l.a, l.run);
        hs_mlpd_reader_free(r);
        hs__error_set(err, HS_ERR_NOMEM, NULL, "out of memory");
        return HS_ERR_NOMEM;
    }
    hs_intern_init(&l.threads.tab, l.a);
    int st = read_all(&l, r, in, pre, npre, err);
    hs_free(l.a, l.run);
    hs_free(l.a, l.bt_site);
    for (size_t i = 0; i < l.threads.tab.count; i++)
        hs_free(l.a, l.calls[i].m);
    hs_free(l.a, l.calls);
    hs_intern_free(&l.threads.tab);
    if (st < 0) {
        hs__mlpd_cpu_free(&l);
        hs_mlpd_reader_free(r);
        return st;
    }
    cut_shot(&l);
    hs__mlpd_figures_finish(&l.m->fig);
    if (st == HS_DONE && l.m->cut_shot)
        st = hs__mlpd_between_buffers(hs_mlpd_reader_offset(r), err);
    int bs = hs__mlpd_build(c, l.m);
    if (!bs) {
        const hs_mlpd_header *h = hs_mlpd_reader_header(r);
        bs = hs__mlpd_build_cpu(&l, h ? h->args : NULL);
    }
    hs__mlpd_cpu_free(&l);
    if (!bs)
        bs = set_info(&l, r);
    if (!bs)
        bs = hs_census_finish(c, st == HS_DONE);
    if (st == HS_TRUNCATED)
        c->info.cut_offset = hs_mlpd_reader_offset(r);
    if (!bs && st == HS_TRUNCATED && err)
        hs__census_fold_cut(c, err);
    if (!bs && st == HS_DONE && !hs_mlpd_reader_buffers(r))
        hs__census_build_warn(c, "%s", hs__mlpd_no_buffer);
    if (!bs && hs_mlpd_reader_skipped(r)) {
        char msg[400];
        snprintf(msg, sizeof msg, "%llu buffers held an unexpected value "
                 "and were cut short; the first: %s",
                 (unsigned long long)hs_mlpd_reader_skipped(r),
                 hs_mlpd_reader_skip_warning(r));
        hs__census_build_warn(c, "%s", msg);
    }
    hs_mlpd_reader_free(r);
    if (bs < 0) {
        hs__error_set(err, bs, NULL,
                      "out of memory while building the census");
        return bs;
    }
    if (st == HS_DONE)
        hs__error_clear(err);
    return st == HS_DONE ? HS_OK : HS_TRUNCATED;
}

int hs_census_load_mlpd_fd(hs_census *c, int fd, const void *prefix,
                           size_t n, hs_error *err)
{
    hs_input in;
    hs_input_open(&in, fd, hs__census_allocator(c));
    int st = hs__census_load_mlpd(c, &in, prefix, n, err);
    hs_input_close(&in);
    return st;
}
