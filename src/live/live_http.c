/*
 * The HTTP side of a followed stream, with libmicrohttpd.
 *
 * The reader's thread owns the census; this server never touches it. It
 * holds copies of rendered snapshots, one per kind, under one mutex. A
 * request for a stale or missing snapshot marks the kind wanted and waits
 * (at most WAIT_S) for the reader's thread to publish it; each connection
 * has a thread of its own (bounded in number, timed out when idle), so a
 * slow or vanished client holds only its own thread and a copy, never the
 * reader or another client.
 *
 * Response bodies are malloc'd copies because libmicrohttpd frees them
 * with free(); the server is not an object of the allocator contract.
 */
#include "heapscope/live.h"
#include "common/internal.h"
#include "live/live_route.h"

#include <arpa/inet.h>
#include <errno.h>
#include <netdb.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include <microhttpd.h>

/*
 * Slow clients: a connection that sends or takes nothing for
 * IDLE_TIMEOUT_S is closed (longer than WAIT_S, so a request waiting for
 * its snapshot is not), and there are slots for MAX_CONNECTIONS at once,
 * at most half of them from one address, so that dozens of clients
 * trickling their headers leave a scrape served. Their threads are small:
 * a handler only copies a snapshot.
 */
#define WAIT_S 3
#define IDLE_TIMEOUT_S 4
#define MAX_CONNECTIONS 256
#define THREAD_STACK (256u * 1024u)

struct snap {
    char *data;
    size_t len;
    bool fresh;
};

struct hs_live_server {
    struct MHD_Daemon *daemon;
    unsigned port;
    pthread_mutex_t lock;
    pthread_cond_t published;
    struct snap snaps[HS_SNAP_COUNT];
    unsigned wanted;
    bool stopping;
};

bool hs_live_server_available(void) { return true; }

unsigned hs_live_server_port(const hs_live_server *s) { return s->port; }

static enum MHD_Result reply(struct MHD_Connection *conn, unsigned code,
                             const char *type, const char *allow, char *body,
                             size_t len)
{
    struct MHD_Response *r =
        MHD_create_response_from_buffer(len, body, MHD_RESPMEM_MUST_FREE);
    if (!r) {
        free(body);
        return MHD_NO;
    }
    MHD_add_response_header(r, "Content-Type", type);
    MHD_add_response_header(r, "Cache-Control", "no-store");
    if (allow)
        MHD_add_response_header(r, "Allow", allow);
    enum MHD_Result ok = MHD_queue_response(conn, code, r);
    MHD_destroy_response(r);
    return ok;
}

static enum MHD_Result text_reply(struct MHD_Connection *conn, unsigned code,
                                  const char *allow, const char *text)
{
    char *body = strdup(text);
    return body ? reply(conn, code, "text/plain; charset=utf-8", allow, body,
                        strlen(text))
                : MHD_NO;
}

/* A copy of snapshot `kind`, waiting for a fresh one when it is stale. */
static char *take_snapshot(hs_live_server *s, hs_live_snap kind, size_t *len)
{
    struct timespec until;
    clock_gettime(CLOCK_REALTIME, &until);
    until.tv_sec += WAIT_S;
    pthread_mutex_lock(&s->lock);
    struct snap *sn = &s->snaps[kind];
    if (!sn->fresh) {
        s->wanted |= 1u << kind;
        while (!sn->fresh && !s->stopping &&
               pthread_cond_timedwait(&s->published, &s->lock, &until) == 0)
            ;
    }
    char *copy = NULL;
    if (sn->data && (copy = malloc(sn->len ? sn->len : 1)))
        memcpy(copy, sn->data, sn->len);
    *len = sn->len;
    pthread_mutex_unlock(&s->lock);
    return copy;
}

static enum MHD_Result handle(void *cls, struct MHD_Connection *conn,
                              const char *url, const char *method,
                              const char *version, const char *upload,
                              size_t *upload_size, void **con_cls)
{
    (void)version;
    (void)upload;
    (void)con_cls;
    hs_live_server *s = cls;
    if (*upload_size)
        return MHD_NO; /* nothing here takes a body */
    hs__http_answer a;
    hs__http_route(method, url, &a);
    if (a.snap < 0)
        return text_reply(conn, a.status, a.allow, a.text);
    size_t len;
    char *body = take_snapshot(s, (hs_live_snap)a.snap, &len);
    if (!body)
        return text_reply(conn, MHD_HTTP_SERVICE_UNAVAILABLE, NULL,
                          "no data yet\n");
    return reply(conn, a.status, a.type, NULL, body, len);
}

/* The path is routed as the client sent it: "/%00" must not become "/"
 * (libmicrohttpd's own unescaping ends the string at the NUL). */
static size_t keep_escapes(void *cls, struct MHD_Connection *conn, char *s)
{
    (void)cls;
    (void)conn;
    return strlen(s);
}

static void addr_err(hs_error *err, int code, const char *addr,
                     unsigned port, const char *why)
{
    bool v6 = strchr(addr, ':') != NULL;
    hs__error_set(err, code, NULL, "cannot listen on %s%s%s:%u: %s",
                  v6 ? "[" : "", addr, v6 ? "]" : "", port, why);
}

/* A listening socket on addr:port; -1 with *err set. */
static int listen_on(const char *addr, unsigned port, unsigned *bound,
                     hs_error *err)
{
    struct addrinfo hints = {.ai_socktype = SOCK_STREAM,
                             .ai_flags = AI_NUMERICHOST | AI_PASSIVE},
                    *res = NULL;
    char ps[16];
    snprintf(ps, sizeof ps, "%u", port);
    if (getaddrinfo(addr, ps, &hints, &res) != 0 || !res) {
        addr_err(err, HS_ERR_INVALID, addr, port,
                 "not a numeric IPv4 or IPv6 address");
        return -1;
    }
    int fd = socket(res->ai_family, SOCK_STREAM | SOCK_CLOEXEC, 0);
    int one = 1;
    if (fd >= 0)
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
    if (fd < 0 || bind(fd, res->ai_addr, res->ai_addrlen) != 0 ||
        listen(fd, 128) != 0) {
        addr_err(err, HS_ERR_IO, addr, port, strerror(errno));
        if (fd >= 0)
            close(fd);
        freeaddrinfo(res);
        return -1;
    }
    freeaddrinfo(res);
    struct sockaddr_storage ss;
    socklen_t sl = sizeof ss;
    getsockname(fd, (struct sockaddr *)&ss, &sl);
    *bound = ntohs(ss.ss_family == AF_INET6
                       ? ((struct sockaddr_in6 *)&ss)->sin6_port
                       : ((struct sockaddr_in *)&ss)->sin_port);
    return fd;
}

hs_live_server *hs_live_server_start(const char *addr, unsigned port,
                                     unsigned max_connections, hs_error *err)
{
    hs__error_clear(err);
    if (!addr)
        addr = "127.0.0.1";
    hs_live_server *s = hs_calloc(NULL, 1, sizeof *s);
    if (!s) {
        addr_err(err, HS_ERR_NOMEM, addr, port, "out of memory");
        return NULL;
    }
    pthread_mutex_init(&s->lock, NULL);
    pthread_condattr_t ca;
    pthread_condattr_init(&ca);
    pthread_cond_init(&s->published, &ca);
    pthread_condattr_destroy(&ca);
    int fd = listen_on(addr, port, &s->port, err);
    if (fd < 0) {
        hs_live_server_stop(s);
        return NULL;
    }
    unsigned limit = max_connections ? max_connections : MAX_CONNECTIONS;
    s->daemon = MHD_start_daemon(
        MHD_USE_THREAD_PER_CONNECTION | MHD_USE_INTERNAL_POLLING_THREAD |
            MHD_USE_POLL,
        0, NULL, NULL, handle, s, MHD_OPTION_LISTEN_SOCKET, fd,
        MHD_OPTION_CONNECTION_LIMIT, limit,
        MHD_OPTION_PER_IP_CONNECTION_LIMIT, limit > 1 ? limit / 2 : 1,
        MHD_OPTION_CONNECTION_TIMEOUT, (unsigned)IDLE_TIMEOUT_S,
        MHD_OPTION_THREAD_STACK_SIZE, (size_t)THREAD_STACK,
        MHD_OPTION_UNESCAPE_CALLBACK, keep_escapes, NULL,
        MHD_OPTION_END);
    if (!s->daemon) {
        close(fd);
        addr_err(err, HS_ERR_IO, addr, port, "the HTTP server did not start");
        hs_live_server_stop(s);
        return NULL;
    }
    return s;
}

unsigned hs_live_server_wanted(hs_live_server *s)
{
    pthread_mutex_lock(&s->lock);
    unsigned w = s->wanted;
    s->wanted = 0;
    pthread_mutex_unlock(&s->lock);
    return w;
}

void hs_live_server_invalidate(hs_live_server *s)
{
    pthread_mutex_lock(&s->lock);
    for (int k = 0; k < HS_SNAP_COUNT; k++)
        s->snaps[k].fresh = false;
    pthread_mutex_unlock(&s->lock);
}

int hs_live_server_publish(hs_live_server *s, hs_live_snap kind,
                           const void *data, size_t len)
{
    char *copy = hs_malloc(NULL, len ? len : 1);
    if (!copy)
        return HS_ERR_NOMEM;
    if (len)
        memcpy(copy, data, len);
    pthread_mutex_lock(&s->lock);
    hs_free(NULL, s->snaps[kind].data);
    s->snaps[kind] = (struct snap){copy, len, true};
    pthread_cond_broadcast(&s->published);
    pthread_mutex_unlock(&s->lock);
    return HS_OK;
}

void hs_live_server_stop(hs_live_server *s)
{
    if (!s)
        return;
    pthread_mutex_lock(&s->lock);
    s->stopping = true;
    pthread_cond_broadcast(&s->published);
    pthread_mutex_unlock(&s->lock);
    if (s->daemon)
        MHD_stop_daemon(s->daemon);
    for (int k = 0; k < HS_SNAP_COUNT; k++)
        hs_free(NULL, s->snaps[k].data);
    pthread_cond_destroy(&s->published);
    pthread_mutex_destroy(&s->lock);
    hs_free(NULL, s);
}
