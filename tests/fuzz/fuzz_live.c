/*
 * libFuzzer target for the live mode's input handling (`heapscope watch`):
 * an eventlog arriving in random-sized pieces with pauses between them,
 * through the same code as the watch loop: hs_live_source_read() on a
 * real descriptor (a Unix socket, a pipe, or a file followed as it grows)
 * into hs_live_feed(), or hs_live_feed() directly. No seam is needed: the
 * socket is a real one, on a listener in a private temporary folder.
 *
 * Input: one mode byte, four bytes seeding the schedule (piece sizes,
 * read sizes, where the pauses fall), then the stream.
 *
 *   mode bits 0-1  transport: 0 hs_live_feed, 1 pipe ("/proc/self/fd/N",
 *                  a FIFO to the source), 2 unix: socket, 3 followed file
 *            2     compaction (--max-samples) bounded by the schedule
 *            3     the page's data document at each pause, and the
 *                  live page (its HTML) at the last
 *            4     the census as CSV at each pause
 *            5     the -hc name limit (+RTS -L) from the schedule
 *
 * At each pause the state is snapshotted as watch does (status figures,
 * their JSON line, Prometheus text; the GC summary, the page's data and
 * the CSV at each pause that read events since the last) and the target
 * checks:
 *
 *  - the figures only grow (bytes = bytes fed, events, samples,
 *    collections, markers, the longest pause), the top bands are the
 *    largest first, and the texts are well formed (Prometheus lines parse,
 *    label values escaped; the JSON line and the page data are JSON; both
 *    valid UTF-8 whatever bytes the log's names hold);
 *  - with compaction, the census holds at most max_samples complete
 *    samples and one open: memory stays bounded however long the stream;
 *  - at the end, without compaction, the census equals the batch census
 *    of the same bytes (hs_census_load_fd), the summary equals a summary
 *    of the bytes read at once, and an error or a truncation is reported
 *    with the same code, offset and message as the batch load; with
 *    compaction the first and last sample times are the batch ones and no
 *    peak is lost;
 *  - without compaction, after every piece fed, the one pass agrees with
 *    the reader's events handed one by one to a census and a summary
 *    (live_compare.c): status, events, end time, capabilities, samples;
 *    at the end the status, error offset and message, CSV and summary;
 *  - a socket source sends eventlog-socket's census request intact, ends
 *    at the peer's close and reconnects.
 */
#include "fuzz_common.h"
#include "fuzz_report.h"
#include "textcheck.h"
#include "live_compare.h"

#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define HEAD 5
#define MAX_PIECE 65536 /* a pipe's capacity: a piece never blocks */

enum { VIA_FEED, VIA_PIPE, VIA_SOCKET, VIA_FILE };

/* --- the schedule: xorshift32 seeded from the input ----------------------- */

static uint32_t next_rand(uint32_t *s)
{
    *s ^= *s << 13;
    *s ^= *s >> 17;
    *s ^= *s << 5;
    return *s;
}

/* Mostly small pieces (the reader's edges), sometimes large ones. Through
 * a descriptor pieces of a few bytes cost a system call or three each and
 * teach the reader nothing hs_live_feed's do not: there they are rarer. */
static size_t piece_size(uint32_t *s, size_t left, bool direct)
{
    uint32_t r = next_rand(s);
    size_t n;
    switch (r & 3) {
    case 0: n = 1 + (r >> 8) % 16; break;
    case 1: n = 1 + (r >> 8) % (direct ? 16 : 4096); break;
    case 2: n = 1 + (r >> 8) % 512; break;
    default: n = 1 + (r >> 8) % MAX_PIECE; break;
    }
    return n < left ? n : left;
}

/* --- the listener of socket sources --------------------------------------- */

static char sock_dir[64], sock_path[96];
static int listener = -1;

static void remove_listener(void)
{
    if (listener >= 0)
        close(listener);
    unlink(sock_path);
    rmdir(sock_dir);
}

static int listen_once(void)
{
    if (listener >= 0)
        return listener;
    snprintf(sock_dir, sizeof sock_dir, "/tmp/hs-fuzz-live-XXXXXX");
    CHECK(mkdtemp(sock_dir) != NULL);
    snprintf(sock_path, sizeof sock_path, "%s/s", sock_dir);
    struct sockaddr_un sa = {.sun_family = AF_UNIX};
    snprintf(sa.sun_path, sizeof sa.sun_path, "%s", sock_path);
    listener = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    CHECK(listener >= 0);
    CHECK(bind(listener, (struct sockaddr *)&sa, sizeof sa) == 0);
    CHECK(listen(listener, 4) == 0);
    atexit(remove_listener);
    return listener;
}

/* --- one stream ------------------------------------------------------------ */

typedef struct run {
    hs_live *live;
    hs_live_source *src;
    int via;
    int peer;              /* our end: the descriptor the pieces go into */
    int mode;
    uint32_t rng;
    uint64_t fed;          /* bytes hs_live_feed() took while running */
    int status;            /* of the last feed: HS_OK, HS_DONE or an error */
    bool source_done;
    size_t max_samples, keep_recent, name_limit;
    hs_live_metrics last;  /* the previous pause's figures */
    bool looked;           /* a pause rendered the census and summary */
    live_general gen;      /* the event-by-event path (no compaction) */
    uint8_t buf[MAX_PIECE];
} run;

/* Buffers kept from one render to the next: a hostile log's summary may
 * list 65,536 generations, and under ASan growing a fresh buffer to that
 * size at every pause is a mapping, a copy and an unmapping per doubling. */
static hs_membuf scratch_gc, scratch_doc, scratch_x, scratch_y;

static hs_sink scratch(hs_membuf *m)
{
    m->len = 0;
    if (m->data)
        m->data[0] = '\0';
    return hs_membuf_sink(m);
}

static void feed(run *r, const void *p, size_t n)
{
    if (r->status != HS_OK)
        return; /* the watch loop stops feeding, as here */
    r->fed += n;
    r->status = hs_live_feed(r->live, p, n);
    live_compare_feed(&r->gen, r->live, r->status, p, n);
    CHECK(r->status == HS_OK || r->status == HS_DONE || r->status < 0);
}

/* Reads what the source has now, in reads of random size, as the watch
 * loop does with a timeout of 0. */
static void drain(run *r)
{
    while (!r->source_done && r->status == HS_OK) {
        size_t cap = 1 + next_rand(&r->rng) % MAX_PIECE, got;
        hs_error err;
        int st = hs_live_source_read(r->src, r->buf, cap, 0, &got, &err);
        CHECK(got <= cap);
        if (got)
            feed(r, r->buf, got);
        CHECK(st != HS_ERR_IO);
        if (st == HS_DONE)
            r->source_done = true;
        if (st != HS_OK)
            break;
        CHECK(got > 0);
    }
}

static void write_all(int fd, const uint8_t *p, size_t n)
{
    while (n) {
        ssize_t w = write(fd, p, n);
        CHECK(w > 0);
        p += w;
        n -= (size_t)w;
    }
}

/* The texts a live page shows of the census and the summary: the GC
 * summary's JSON, the page's data document and the CSV; at the last
 * pause, the live page itself (fuzz_report.c checks it). */
static void render_census(run *r, const hs_census *c, bool last)
{
    hs_membuf *gc = &scratch_gc, *b = &scratch_doc;
    hs_sink s = scratch(gc);
    int st = hs_summary_render_json(hs_live_summary(r->live), &s);
    CHECK(st == HS_OK || st == HS_ERR_NO_DATA);
    if (st == HS_OK)
        check_json(gc);

    /* A live page renders from the first byte, census or not. */
    if (r->mode & 8) {
        hs_page_options po;
        hs_page_options_init(&po);
        po.input = "fuzz";
        po.live_url = "/data.json";
        po.gc_json = st == HS_OK ? gc->data : NULL;
        s = scratch(b);
        int ps = hs_render_page_data(c, &s, &po);
        CHECK(ps == HS_OK || ps == HS_ERR_NOMEM);
        if (ps == HS_OK)
            check_json(b);
        if (last)
            check_page(c, po.gc_json, PAGE_LIVE | (r->rng & 0x1f));
    }
    if (r->mode & 16)
        render_csv_layout(c, HS_CSV_LONG);
}

static void snapshot(run *r, bool last)
{
    hs_live_metrics m;
    if (hs_live_get_metrics(r->live, &m) != HS_OK) {
        CHECK(r->status < 0); /* only a failed stream has no figures */
        return;
    }
    const hs_live_metrics *o = &r->last;
    CHECK(m.bytes == r->fed);
    CHECK(m.events >= o->events && m.markers >= o->markers);
    CHECK(m.max_pause_ns >= o->max_pause_ns);
    CHECK(m.n_gens >= o->n_gens && m.n_gens <= HS_LIVE_MAX_GENS);
    for (uint32_t g = 0; g < o->n_gens; g++)
        CHECK(m.collections[g] >= o->collections[g]);
    hs_census *c = hs_live_census(r->live);
    size_t n = hs_census_sample_count(c);
    CHECK(m.samples <= n);
    if (r->max_samples) /* bounded: complete ones, and one open */
        CHECK(n <= r->max_samples + 1);
    else
        CHECK(m.samples >= o->samples);
    CHECK(m.n_top <= HS_LIVE_TOP_BANDS);
    for (size_t k = 1; k < m.n_top; k++)
        CHECK(m.top_bytes[k] <= m.top_bytes[k - 1]);

    hs_membuf b;
    memset(&b, 0, sizeof b);
    hs_sink s = hs_membuf_sink(&b);
    CHECK(hs_live_render_json(r->live, &m, &s, "running") == HS_OK);
    CHECK(b.len > 0 && b.data[b.len - 1] == '\n' &&
          memchr(b.data, '\n', b.len) == b.data + b.len - 1);
    check_json(&b);
    hs_membuf_free(&b);

    memset(&b, 0, sizeof b);
    s = hs_membuf_sink(&b);
    CHECK(hs_live_render_prometheus(r->live, &m, &s, 1 + r->rng % 8) ==
          HS_OK);
    check_prometheus(&b);
    hs_membuf_free(&b);

    /* The summary, the page's data and the CSV are the census's and the
     * summary's, which change only with events: a pause that read none
     * since the one before would render the same bytes again. */
    if (last || !r->looked || m.events != o->events) {
        r->looked = true;
        render_census(r, c, last);
    }
    if (r->via == VIA_SOCKET && r->src && !r->source_done) {
        /* watch --census-every: the request reaches the program whole. */
        const uint8_t *req;
        size_t len = hs_live_census_request_bytes(&req);
        CHECK(hs_live_source_request_census(r->src) == HS_OK);
        uint8_t got[32];
        size_t have = 0;
        while (have < len) {
            ssize_t k = read(r->peer, got + have, len - have);
            CHECK(k > 0);
            have += (size_t)k;
        }
        CHECK(memcmp(got, req, len) == 0);
    } else if (r->src && r->via != VIA_SOCKET) {
        CHECK(hs_live_source_request_census(r->src) == HS_ERR_INVALID);
    }
    r->last = m;
}

/* Opens the transport: the source reads what r->peer is given. */
static bool open_transport(run *r)
{
    char spec[128];
    r->peer = -1;
    if (r->via == VIA_FEED)
        return true;
    int keep = -1; /* the source's side, opened by path through /proc */
    if (r->via == VIA_PIPE) {
        int p[2];
        if (pipe2(p, O_CLOEXEC) != 0)
            return false;
        keep = p[0];
        r->peer = p[1];
        snprintf(spec, sizeof spec, "/proc/self/fd/%d", keep);
    } else if (r->via == VIA_FILE) {
        r->peer = mem_fd("", 0);
        if (r->peer < 0)
            return false;
        snprintf(spec, sizeof spec, "/proc/self/fd/%d", r->peer);
    } else {
        listen_once();
        snprintf(spec, sizeof spec, "unix:%s", sock_path);
    }
    hs_error err;
    hs_live_source_options opt;
    hs_live_source_options_init(&opt);
    r->src = hs_live_source_open(spec, &opt, &err);
    if (keep >= 0)
        close(keep);
    CHECK(r->src != NULL);
    static const hs_live_source_kind kinds[] = {
        HS_LIVE_STREAM, HS_LIVE_STREAM, HS_LIVE_UNIX, HS_LIVE_FILE};
    CHECK(hs_live_source_kind_of(r->src) == kinds[r->via]);
    if (r->via == VIA_SOCKET) {
        r->peer = accept4(listener, NULL, NULL, SOCK_CLOEXEC);
        CHECK(r->peer >= 0);
    }
    return true;
}

/* The stream has ended on our side: a pipe or socket sees the close. */
static void close_transport(run *r)
{
    if (r->via == VIA_PIPE || r->via == VIA_SOCKET) {
        close(r->peer);
        r->peer = -1;
        while (!r->source_done) {
            size_t got;
            hs_error err;
            int st = hs_live_source_read(r->src, r->buf, sizeof r->buf, 1000,
                                         &got, &err);
            CHECK(st != HS_ERR_IO);
            if (got)
                feed(r, r->buf, got);
            r->source_done = st == HS_DONE;
        }
    }
    if (r->via == VIA_SOCKET) {
        /* The program restarted: the source connects again. */
        CHECK(hs_live_source_reconnect(r->src, 1000) == HS_OK);
        int again = accept4(listener, NULL, NULL, SOCK_CLOEXEC);
        CHECK(again >= 0);
        close(again);
    }
    if (r->peer >= 0)
        close(r->peer);
    hs_live_source_close(r->src);
    r->src = NULL;
}

/* --- the end: what the batch commands make of the same bytes --------------- */

static hs_summary *batch_summary(const uint8_t *data, size_t size)
{
    hs_reader *rd = hs_reader_new();
    hs_summary *sum = hs_summary_new();
    CHECK(rd && sum);
    hs_reader_feed(rd, data, size);
    hs_event ev;
    int st;
    while ((st = hs_reader_next(rd, &ev)) == HS_EVENT)
        if (hs_summary_add_event(sum, &ev) < 0)
            break;
    hs_reader_free(rd);
    return sum;
}

static void same_summary(hs_summary *live, const uint8_t *data, size_t size)
{
    hs_summary *sum = batch_summary(data, size);
    int a = hs_summary_finish(sum);
    hs_membuf *x = &scratch_x, *y = &scratch_y;
    hs_sink sx = scratch(x), sy = scratch(y);
    /* hs_live_finish() takes a log without GC events (HS_ERR_NO_DATA)
     * as finished: its renderers say what is missing. */
    int ra = a >= 0 || a == HS_ERR_NO_DATA ? hs_summary_render_json(sum, &sx)
                                           : a;
    int rb = hs_summary_render_json(live, &sy);
    CHECK(ra == rb);
    CHECK(x->len == y->len && memcmp(x->data, y->data, x->len) == 0);
    hs_summary_free(sum);
}

/* Whether the census's samples arrive in time order: otherwise compaction
 * merges them in the order they came, and the buckets' times are the
 * first-come samples' ones. */
static bool samples_in_order(const uint8_t *data, size_t size)
{
    hs_reader *rd = hs_reader_new();
    hs_census *c = hs_census_new();
    CHECK(rd && c);
    hs_reader_feed(rd, data, size);
    hs_event ev;
    while (hs_reader_next(rd, &ev) == HS_EVENT)
        if (hs_census_add_event(c, &ev) < 0)
            break;
    bool ordered = true;
    for (size_t i = 1; i < hs_census_sample_count(c); i++)
        if (hs_census_sample_time(c, i) < hs_census_sample_time(c, i - 1))
            ordered = false;
    hs_census_free(c);
    hs_reader_free(rd);
    return ordered;
}

static uint64_t peak_total(const hs_census *c)
{
    uint64_t peak = 0;
    for (size_t i = 0; i < hs_census_sample_count(c); i++)
        if (hs_census_sample_total(c, i) > peak)
            peak = hs_census_sample_total(c, i);
    return peak;
}

static void compare_batch(run *r, int fin, const uint8_t *data, size_t size)
{
    hs_census *batch = hs_census_new();
    CHECK(batch != NULL);
    if (r->mode & 32)
        hs_census_set_name_limit(batch, (unsigned)r->name_limit);
    int fd = mem_fd(data, size);
    if (fd < 0) {
        hs_census_free(batch);
        return;
    }
    hs_error err;
    memset(&err, 0, sizeof err);
    int st = hs_census_load_fd(batch, fd, &err);
    close(fd);
    const hs_error *le = hs_live_error(r->live);
    if (fin < 0) {
        /* The same complaint at the same byte as the batch load. */
        CHECK(st == fin);
        CHECK(err.code == le->code && err.offset == le->offset);
        CHECK(strcmp(err.message, le->message) == 0);
        hs_census_free(batch);
        return;
    }
    CHECK(st == (fin == HS_DONE ? HS_OK : HS_TRUNCATED));
    if (fin == HS_TRUNCATED)
        CHECK(strcmp(err.message, le->message) == 0);
    const hs_census *c = hs_live_census(r->live);
    if (!r->max_samples) {
        same_census(batch, c);
        same_summary(hs_live_summary(r->live), data, size);
    } else {
        size_t n = hs_census_sample_count(c), nb = hs_census_sample_count(batch);
        /* at most max_samples merged at the last SAMPLE_END, and the
         * sample open then */
        CHECK(n <= nb && n <= r->max_samples + 1);
        CHECK((n == 0) == (nb == 0));
        if (n && samples_in_order(data, size)) {
            CHECK(hs_census_sample_time(c, 0) == hs_census_sample_time(batch, 0));
            if (r->keep_recent) /* else the latest may be in a bucket */
                CHECK(hs_census_sample_time(c, n - 1) ==
                      hs_census_sample_time(batch, nb - 1));
        }
        CHECK(peak_total(c) >= peak_total(batch));
    }
    hs_live_metrics m;
    CHECK(hs_live_get_metrics(r->live, &m) == HS_OK);
    CHECK(m.events == hs_census_get_info(batch)->events);
    CHECK(m.samples == hs_census_sample_count(c));
    hs_census_free(batch);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < HEAD || size > (1u << 20))
        return 0;
    static run r; /* its buffer is large: not on the stack */
    memset(&r, 0, sizeof r);
    r.mode = data[0];
    r.via = r.mode & 3;
    memcpy(&r.rng, data + 1, 4);
    r.rng |= 1; /* xorshift's one fixed point is 0 */
    data += HEAD;
    size -= HEAD;

    r.live = hs_live_new();
    CHECK(r.live != NULL);
    if (r.mode & 4) {
        r.max_samples = 2 + next_rand(&r.rng) % 15;
        r.keep_recent = next_rand(&r.rng) % r.max_samples;
        hs_live_set_compaction(r.live, r.max_samples, r.keep_recent);
    }
    if (r.mode & 32) {
        r.name_limit = next_rand(&r.rng) % 40;
        hs_live_set_name_limit(r.live, (unsigned)r.name_limit);
    }
    if (!(r.mode & 4))
        CHECK(live_general_init(&r.gen,
                                r.mode & 32 ? (long)r.name_limit : -1));
    if (!open_transport(&r)) {
        live_general_free(&r.gen);
        hs_live_free(r.live);
        return 0;
    }

    size_t pos = 0;
    while (pos < size && r.status == HS_OK && !r.source_done) {
        size_t n = piece_size(&r.rng, size - pos, r.via == VIA_FEED);
        if (r.via == VIA_FEED)
            feed(&r, data + pos, n);
        else
            write_all(r.peer, data + pos, n);
        pos += n;
        if (r.src)
            drain(&r);
        if (next_rand(&r.rng) % 4 == 0) /* a pause: someone looks */
            snapshot(&r, false);
    }
    if (r.via != VIA_FEED)
        close_transport(&r);
    snapshot(&r, true);

    int fin = hs_live_finish(r.live);
    CHECK(fin == HS_DONE || fin == HS_TRUNCATED || fin < 0);
    CHECK(hs_live_finish(r.live) == HS_ERR_MISUSE);
    live_compare_finish(&r.gen, r.live, fin);
    live_general_free(&r.gen);
    /* Only an eventlog is a live stream; the batch load would take other
     * bytes as a .hp file. Bytes after the data-end marker are the live
     * mode's to ignore, and the batch load ignores them too. */
    if (size >= 4 && memcmp(data, "hdrb", 4) == 0)
        compare_batch(&r, fin, data, size);
    else if (size >= 4)
        CHECK(fin < 0);
    hs_live_free(r.live);
    return 0;
}
