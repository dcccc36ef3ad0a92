/*
 * Where a followed eventlog's bytes come from. Every kind ends up as one
 * descriptor read with a timeout, so the caller's loop stays responsive
 * (status lines, HTTP snapshots, signals) whether bytes flow or not.
 *
 * A regular file gives end-of-file whenever the reader catches up with
 * the writer, so end-of-file there means "not yet": the file is polled
 * (every 50 ms at most) until the data-end marker (the caller's business),
 * --idle without growth, or the --pid process's exit.
 */
#include "heapscope/live.h"
#include "common/internal.h"

#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#define FILE_POLL_MS 50

struct hs_live_source {
    hs_live_source_kind kind;
    int fd;
    bool own_fd;
    hs_live_source_options opt;
    double last_growth;      /* monotonic seconds */
    bool pid_gone;           /* seen gone; one more read, then the end */
    char *target;            /* unix path or "host" */
    char *port;              /* tcp port */
    char name[256];          /* for messages */
};

/* eventlog-socket's requestHeapCensus: magic, protocol version 0, the
 * namespace with its length (15, the library's code; its README example
 * writes \x15), command 5. */
static const uint8_t census_request[] = {
    0xF0, 0x9E, 0x97, 0x8C, 0x00, 0x0F, 'e', 'v', 'e', 'n', 't', 'l', 'o',
    'g', '-', 's', 'o', 'c', 'k', 'e', 't', 0x05};

size_t hs_live_census_request_bytes(const uint8_t **msg)
{
    *msg = census_request;
    return sizeof census_request;
}

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

/* Connects the socket of a unix: or tcp: source; -1 with errno set. */
static int connect_socket(hs_live_source *s)
{
    if (s->kind == HS_LIVE_UNIX) {
        struct sockaddr_un sa = {.sun_family = AF_UNIX};
        if (strlen(s->target) >= sizeof sa.sun_path) {
            errno = ENAMETOOLONG;
            return -1;
        }
        strcpy(sa.sun_path, s->target);
        int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
        if (fd >= 0 && connect(fd, (struct sockaddr *)&sa, sizeof sa) != 0) {
            int e = errno;
            close(fd);
            errno = e;
            return -1;
        }
        return fd;
    }
    struct addrinfo hints = {.ai_socktype = SOCK_STREAM}, *res = NULL;
    int gai = getaddrinfo(s->target, s->port, &hints, &res);
    if (gai != 0) {
        errno = gai == EAI_SYSTEM ? errno : EHOSTUNREACH;
        return -1;
    }
    int fd = -1, e = ECONNREFUSED;
    for (struct addrinfo *a = res; a && fd < 0; a = a->ai_next) {
        fd = socket(a->ai_family, a->ai_socktype | SOCK_CLOEXEC,
                    a->ai_protocol);
        if (fd >= 0 && connect(fd, a->ai_addr, a->ai_addrlen) != 0) {
            e = errno;
            close(fd);
            fd = -1;
        }
    }
    freeaddrinfo(res);
    if (fd < 0)
        errno = e;
    return fd;
}

/* Splits "unix:PATH" and "tcp:HOST:PORT" (HOST may be [v6]). */
static int parse_socket_spec(hs_live_source *s, const char *spec,
                             hs_error *err)
{
    if (strncmp(spec, "unix:", 5) == 0) {
        s->kind = HS_LIVE_UNIX;
        s->target = hs_strndup(NULL, spec + 5, strlen(spec + 5));
        return s->target ? HS_OK : HS_ERR_NOMEM;
    }
    s->kind = HS_LIVE_TCP;
    const char *hp = spec + 4, *colon = strrchr(hp, ':');
    if (!colon || colon == hp || !colon[1]) {
        return hs__error_set(err, HS_ERR_INVALID, NULL,
                             "%s: expected tcp:HOST:PORT", spec);
    }
    size_t hl = (size_t)(colon - hp);
    if (hp[0] == '[' && hl > 2 && hp[hl - 1] == ']') {
        hp++;
        hl -= 2;
    }
    s->target = hs_strndup(NULL, hp, hl);
    s->port = hs_strndup(NULL, colon + 1, strlen(colon + 1));
    return s->target && s->port ? HS_OK : HS_ERR_NOMEM;
}

static int open_path(hs_live_source *s, const char *spec, hs_error *err)
{
    if (strcmp(spec, "-") == 0) {
        s->kind = HS_LIVE_STREAM;
        s->fd = 0;
        return HS_OK;
    }
    /* Typed by stat() before opening: an open only to look would count
     * as a FIFO's reader, let the writer's open through, and close under
     * it (the writer then dies of EPIPE). A FIFO's open waits here for
     * its writer, which may start late. */
    struct stat st;
    if (stat(spec, &st) == 0)
        s->fd = open(spec, O_RDONLY | O_CLOEXEC);
    if (s->fd < 0) {
        return hs__error_set(err, HS_ERR_IO, NULL, "%s: cannot open: %s",
                             spec, strerror(errno));
    }
    s->own_fd = true;
    s->kind = S_ISREG(st.st_mode) ? HS_LIVE_FILE : HS_LIVE_STREAM;
    return HS_OK;
}

void hs_live_source_options_init_size(hs_live_source_options *opt,
                                      size_t size)
{
    const hs_live_source_options def = {.size = sizeof def};
    hs__options_fill(opt, size, &def, sizeof def);
}

hs_live_source *hs_live_source_open(const char *spec,
                                    const hs_live_source_options *opt,
                                    hs_error *err)
{
    hs__error_clear(err);
    hs_live_source *s = hs_calloc(NULL, 1, sizeof *s);
    if (!s) {
        hs__error_set(err, HS_ERR_NOMEM, NULL, "out of memory");
        return NULL;
    }
    s->fd = -1;
    hs_live_source_options_init(&s->opt);
    if (hs__options_take(&s->opt, sizeof s->opt, opt)) {
        hs_free(NULL, s);
        hs__error_set(err, HS_ERR_INVALID, NULL, "live source options not "
                      "set up by hs_live_source_options_init");
        return NULL;
    }
    snprintf(s->name, sizeof s->name, "%s", spec);
    int st;
    if (strncmp(spec, "unix:", 5) == 0 || strncmp(spec, "tcp:", 4) == 0) {
        st = parse_socket_spec(s, spec, err);
        if (st == HS_OK) {
            s->fd = connect_socket(s);
            s->own_fd = true;
            if (s->fd < 0) {
                st = hs__error_set(err, HS_ERR_IO, NULL,
                                   "%s: cannot connect: %s", spec,
                                   strerror(errno));
            }
        } else if (st == HS_ERR_NOMEM) {
            hs__error_set(err, st, NULL, "out of memory");
        }
    } else {
        st = open_path(s, spec, err);
    }
    if (st != HS_OK) {
        hs_live_source_close(s);
        return NULL;
    }
    s->last_growth = now_s();
    return s;
}

void hs_live_source_close(hs_live_source *s)
{
    if (!s)
        return;
    if (s->own_fd && s->fd >= 0)
        close(s->fd);
    hs_free(NULL, s->target);
    hs_free(NULL, s->port);
    hs_free(NULL, s);
}

hs_live_source_kind hs_live_source_kind_of(const hs_live_source *s)
{
    return s->kind;
}

/* End-of-file of a followed file: the end, or only the writer's pace. */
static int file_at_end(hs_live_source *s, int timeout_ms)
{
    if (s->pid_gone)
        return HS_DONE;
    if (s->opt.pid > 0 && kill(s->opt.pid, 0) != 0 && errno == ESRCH) {
        /* It may have written its last bytes after the read that saw
         * end-of-file: read once more before ending. */
        s->pid_gone = true;
        return HS_NEED_INPUT;
    }
    if (s->opt.idle_seconds > 0 &&
        now_s() - s->last_growth >= s->opt.idle_seconds)
        return HS_DONE;
    int ms = timeout_ms < FILE_POLL_MS ? timeout_ms : FILE_POLL_MS;
    if (ms > 0)
        poll(NULL, 0, ms);
    return HS_NEED_INPUT;
}

int hs_live_source_read(hs_live_source *s, void *buf, size_t cap,
                        int timeout_ms, size_t *got, hs_error *err)
{
    *got = 0;
    hs__error_clear(err);
    if (s->fd < 0)
        return HS_DONE;
    if (s->kind != HS_LIVE_FILE) {
        struct pollfd p = {.fd = s->fd, .events = POLLIN};
        int r = poll(&p, 1, timeout_ms);
        if (r == 0 || (r < 0 && errno == EINTR))
            return HS_NEED_INPUT;
    }
    ssize_t n = read(s->fd, buf, cap);
    if (n > 0) {
        *got = (size_t)n;
        s->last_growth = now_s();
        return HS_OK;
    }
    if (n < 0 && (errno == EINTR || errno == EAGAIN))
        return HS_NEED_INPUT;
    if (n < 0 && errno != ECONNRESET) {
        return hs__error_set(err, HS_ERR_IO, NULL, "%.180s: cannot read: %.60s",
                             s->name, strerror(errno));
    }
    if (s->kind == HS_LIVE_FILE)
        return file_at_end(s, timeout_ms);
    if (s->kind != HS_LIVE_STREAM && s->own_fd) {
        close(s->fd); /* the program closed it; reconnect may follow */
        s->fd = -1;
    }
    return HS_DONE;
}

int hs_live_source_reconnect(hs_live_source *s, int timeout_ms)
{
    if (s->kind != HS_LIVE_UNIX && s->kind != HS_LIVE_TCP)
        return HS_ERR_INVALID;
    if (s->fd >= 0) { /* the run ended at its data-end marker */
        close(s->fd);
        s->fd = -1;
    }
    double until = now_s() + timeout_ms / 1e3;
    for (;;) {
        s->fd = connect_socket(s);
        if (s->fd >= 0)
            return HS_OK;
        double left = until - now_s();
        if (left <= 0)
            return HS_NEED_INPUT;
        poll(NULL, 0, left < 0.1 ? (int)(left * 1e3) + 1 : 100);
    }
}

int hs_live_source_request_census(hs_live_source *s)
{
    if (s->kind != HS_LIVE_UNIX && s->kind != HS_LIVE_TCP)
        return HS_ERR_INVALID;
    if (s->fd < 0)
        return HS_ERR_IO;
    size_t off = 0;
    while (off < sizeof census_request) {
        ssize_t n = send(s->fd, census_request + off,
                         sizeof census_request - off, MSG_NOSIGNAL);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return HS_ERR_IO;
        off += (size_t)n;
    }
    return HS_OK;
}
