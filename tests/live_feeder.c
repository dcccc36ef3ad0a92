/*
 * live_feeder: streams an eventlog at a controlled pace, as a running
 * program would, for the tests of `heapscope watch`.
 *
 *   live_feeder MODE TARGET INPUT [options]
 *
 * MODE fifo:  writes into the FIFO TARGET (opening it waits for a reader)
 *      file:  writes TARGET as a growing regular file
 *      unix:  listens on the Unix socket TARGET, as eventlog-socket does,
 *             and sends INPUT from its start to each connection
 *      tcp:   the same on 127.0.0.1, a free port written to the file TARGET
 * options:
 *   --chunk N             bytes per write (default 4096)
 *   --delay-ms MS         pause between writes (default 10)
 *   --pause-after-samples K --pause-ms MS
 *                         after the K-th complete heap census (the end of
 *                         its HEAP_PROF_SAMPLE_END) stop MS milliseconds;
 *                         the byte offset of that point goes to stdout as
 *                         "pause OFFSET" before the pause
 *   --pause-before-gc     the same pause (--pause-ms) just before the first
 *                         GC or heap event, as eventlog-socket's stream
 *                         does: the header first, GC events later
 *   --pause-before-census the same pause just before the first heap census
 *                         (HEAP_PROF_SAMPLE_BEGIN), as a program whose
 *                         eventlog is not flushed yet: GC events, no census
 *   --runs N              sockets: serve N connections one after another
 *   --expect-census       sockets: read what the client sends and print
 *                         "census-request" for each complete, exact
 *                         requestHeapCensus message ("bad-control" for
 *                         any other bytes)
 *   --wait-census MS      sockets, with --expect-census: before closing,
 *                         wait up to MS for one such message
 *
 * Every wait is bounded: the whole run ends by itself.
 */
#include <heapscope/heapscope.h>

#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

typedef struct feed {
    const char *mode, *target;
    unsigned char *data;
    size_t len;
    size_t chunk;
    int delay_ms, pause_ms, runs, wait_census_ms;
    long pause_samples;
    size_t pause_at;          /* SIZE_MAX: no pause */
    bool expect_census, pause_before_gc, pause_before_census;
    unsigned char ctl[64];    /* control bytes received, not yet matched */
    size_t nctl;
    int census_seen;
} feed;

static void die(const char *fmt, const char *a)
{
    fprintf(stderr, "live_feeder: ");
    fprintf(stderr, fmt, a);
    fprintf(stderr, "\n");
    exit(2);
}

static void sleep_ms(int ms)
{
    struct timespec ts = {ms / 1000, (long)(ms % 1000) * 1000000};
    while (nanosleep(&ts, &ts) != 0 && errno == EINTR)
        ;
}

static void load(feed *f, const char *path)
{
    FILE *in = fopen(path, "rb");
    if (!in)
        die("cannot open %s", path);
    size_t cap = 1 << 16;
    f->data = malloc(cap);
    size_t n;
    while (f->data && (n = fread(f->data + f->len, 1, cap - f->len, in)) > 0)
        if ((f->len += n) == cap)
            f->data = realloc(f->data, cap *= 2);
    fclose(in);
    if (!f->data)
        die("out of memory%s", "");
}

/* The end of the K-th HEAP_PROF_SAMPLE_END, found with heapscope's own
 * reader (fed the whole log at once, its offset after an event is the
 * event's end). */
static size_t sample_end_offset(const feed *f, long k)
{
    hs_reader *r = hs_reader_new();
    hs_event ev;
    long seen = 0;
    size_t at = SIZE_MAX;
    hs_reader_feed(r, f->data, f->len);
    while (hs_reader_next(r, &ev) == HS_EVENT)
        if (ev.tag == HS_EV_HEAP_PROF_SAMPLE_END && ++seen == k) {
            at = (size_t)hs_reader_offset(r);
            break;
        }
    hs_reader_free(r);
    if (at == SIZE_MAX)
        die("the log has fewer heap censuses than asked%s", "");
    return at;
}

/* The start of the first event the GC summary counts (a collection's
 * statistics or a heap line), or with census of the first heap census:
 * the end of the event before it. */
static size_t first_offset(const feed *f, bool census)
{
    hs_reader *r = hs_reader_new();
    hs_event ev;
    size_t before = 0, at = SIZE_MAX;
    hs_reader_feed(r, f->data, f->len);
    while (at == SIZE_MAX && hs_reader_next(r, &ev) == HS_EVENT) {
        bool hit;
        switch (ev.tag) {
        case HS_EV_GC_START: case HS_EV_GC_STATS_GHC:
        case HS_EV_HEAP_ALLOCATED: case HS_EV_HEAP_SIZE: case HS_EV_HEAP_LIVE:
        case HS_EV_BLOCKS_SIZE:
            hit = !census;
            break;
        case HS_EV_HEAP_PROF_SAMPLE_BEGIN:
            hit = census;
            break;
        default:
            hit = false;
        }
        if (hit)
            at = before;
        else
            before = (size_t)hs_reader_offset(r);
    }
    hs_reader_free(r);
    if (at == SIZE_MAX)
        die("the log has no %s", census ? "heap census" : "GC event");
    return at;
}

/* Reads control bytes the client sent, without waiting. */
static void read_control(feed *f, int fd, int wait_ms)
{
    const uint8_t *msg;
    size_t mlen = hs_live_census_request_bytes(&msg);
    struct pollfd p = {.fd = fd, .events = POLLIN};
    while (poll(&p, 1, wait_ms) > 0 && (p.revents & POLLIN)) {
        ssize_t n = recv(fd, f->ctl + f->nctl, sizeof f->ctl - f->nctl, 0);
        if (n <= 0)
            return;
        f->nctl += (size_t)n;
        while (f->nctl >= mlen) {
            bool ok = memcmp(f->ctl, msg, mlen) == 0;
            printf(ok ? "census-request\n" : "bad-control\n");
            fflush(stdout);
            f->census_seen += ok;
            memmove(f->ctl, f->ctl + mlen, f->nctl - mlen);
            f->nctl -= mlen;
        }
        if (wait_ms)
            return;
    }
}

static int send_all(int fd, const unsigned char *p, size_t n, bool sock)
{
    while (n) {
        ssize_t w = sock ? send(fd, p, n, MSG_NOSIGNAL) : write(fd, p, n);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            return -1;
        p += w;
        n -= (size_t)w;
    }
    return 0;
}

/* The whole log to fd at the set pace; -1 when the reader went away. */
static int stream(feed *f, int fd, bool sock)
{
    size_t off = 0;
    while (off < f->len) {
        size_t n = f->len - off < f->chunk ? f->len - off : f->chunk;
        if (f->pause_at > off && f->pause_at < off + n)
            n = f->pause_at - off;
        if (send_all(fd, f->data + off, n, sock) != 0)
            return -1;
        off += n;
        if (sock && f->expect_census)
            read_control(f, fd, 0);
        if (off == f->pause_at) {
            printf("pause %zu\n", off);
            fflush(stdout);
            sleep_ms(f->pause_ms);
        } else if (f->delay_ms) {
            sleep_ms(f->delay_ms);
        }
    }
    return 0;
}

static int listen_socket(feed *f)
{
    int fd;
    if (strcmp(f->mode, "unix") == 0) {
        struct sockaddr_un sa = {.sun_family = AF_UNIX};
        snprintf(sa.sun_path, sizeof sa.sun_path, "%s", f->target);
        unlink(f->target);
        fd = socket(AF_UNIX, SOCK_STREAM, 0);
        if (fd < 0 || bind(fd, (struct sockaddr *)&sa, sizeof sa) != 0)
            die("cannot bind %s", f->target);
    } else {
        struct sockaddr_in sa = {.sin_family = AF_INET,
                                 .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
        fd = socket(AF_INET, SOCK_STREAM, 0);
        socklen_t sl = sizeof sa;
        if (fd < 0 || bind(fd, (struct sockaddr *)&sa, sizeof sa) != 0 ||
            getsockname(fd, (struct sockaddr *)&sa, &sl) != 0)
            die("cannot bind 127.0.0.1%s", "");
        char tmp[4096];
        snprintf(tmp, sizeof tmp, "%s.tmp", f->target);
        FILE *pf = fopen(tmp, "w");
        if (!pf)
            die("cannot write %s", tmp);
        fprintf(pf, "%u\n", ntohs(sa.sin_port));
        fclose(pf);
        if (listen(fd, 4) != 0 || rename(tmp, f->target) != 0)
            die("cannot listen%s", "");
        return fd;
    }
    if (listen(fd, 4) != 0)
        die("cannot listen on %s", f->target);
    return fd;
}

static void serve_socket(feed *f)
{
    int lfd = listen_socket(f);
    for (int run = 0; run < f->runs; run++) {
        struct pollfd p = {.fd = lfd, .events = POLLIN};
        if (poll(&p, 1, 20000) <= 0)
            die("no client connected within 20 s%s", "");
        int fd = accept(lfd, NULL, NULL);
        if (fd < 0)
            die("accept failed%s", "");
        stream(f, fd, true);
        int waited = 0;
        while (f->expect_census && f->wait_census_ms &&
               f->census_seen == 0 && waited < f->wait_census_ms) {
            read_control(f, fd, 100);
            waited += 100;
        }
        close(fd);
    }
    close(lfd);
    if (strcmp(f->mode, "unix") == 0)
        unlink(f->target);
}

int main(int argc, char **argv)
{
    if (argc < 4)
        die("usage: live_feeder fifo|file|unix|tcp TARGET INPUT [options]%s",
            "");
    feed f = {.mode = argv[1], .target = argv[2], .chunk = 4096,
              .delay_ms = 10, .runs = 1, .pause_at = SIZE_MAX};
    load(&f, argv[3]);
    for (int i = 4; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (strcmp(a, "--expect-census") == 0) {
            f.expect_census = true;
            continue;
        }
        if (strcmp(a, "--pause-before-gc") == 0) {
            f.pause_before_gc = true;
            continue;
        }
        if (strcmp(a, "--pause-before-census") == 0) {
            f.pause_before_census = true;
            continue;
        }
        if (!v)
            die("%s needs a value", a);
        i++;
        if (strcmp(a, "--chunk") == 0 && atol(v) > 0)
            f.chunk = (size_t)atol(v);
        else if (strcmp(a, "--delay-ms") == 0)
            f.delay_ms = atoi(v);
        else if (strcmp(a, "--pause-after-samples") == 0)
            f.pause_samples = atol(v);
        else if (strcmp(a, "--pause-ms") == 0)
            f.pause_ms = atoi(v);
        else if (strcmp(a, "--runs") == 0)
            f.runs = atoi(v);
        else if (strcmp(a, "--wait-census") == 0)
            f.wait_census_ms = atoi(v);
        else
            die("unknown option %s", a);
    }
    if (f.pause_samples > 0)
        f.pause_at = sample_end_offset(&f, f.pause_samples);
    if (f.pause_before_gc || f.pause_before_census)
        f.pause_at = first_offset(&f, f.pause_before_census);
    signal(SIGPIPE, SIG_IGN);
    if (strcmp(f.mode, "unix") == 0 || strcmp(f.mode, "tcp") == 0) {
        serve_socket(&f);
    } else {
        bool fifo = strcmp(f.mode, "fifo") == 0;
        int fd = open(f.target, fifo ? O_WRONLY
                                     : O_WRONLY | O_CREAT | O_TRUNC, 0644);
        if (fd < 0)
            die("cannot open %s", f.target);
        stream(&f, fd, false);
        close(fd);
    }
    free(f.data);
    return 0;
}
