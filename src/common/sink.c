/*
 * Sinks: where renderers write. An hs_output writes a named file
 * atomically (temporary file beside it, renamed on commit) so that a failed
 * run never leaves half a file; hs_membuf collects output in memory.
 *
 * Nothing here changes process-wide state: the temporary file is created
 * with mode 0666 and the kernel applies the umask (reading the umask needs
 * two umask() calls, a race for a threaded embedder), and a named file is
 * written through a file descriptor and a buffer of the output's own, so
 * every allocation goes through the output's allocator.
 */
#include "heapscope/sink.h"
#include "common/internal.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

enum { OUT_BUF = 1u << 16 };

struct hs_output {
    hs_allocator alloc_store;
    const hs_allocator *alloc;
    int fd;         /* -1 for standard output (written through stdio) */
    bool direct;    /* written in place: not a regular file */
    char *path;     /* final name, NULL for standard output */
    char *tmp_path; /* temporary name beside it */
    int error;      /* errno of the first failed write, 0 = none */
    size_t len;     /* bytes waiting in buf */
    char *buf;      /* OUT_BUF bytes; NULL for standard output */
    hs_sink sink;
};

int hs_sink_write(hs_sink *s, const void *data, size_t len)
{
    if (!len)
        return HS_OK;
    return s->write(s->ctx, data, len) ? HS_ERR_IO : HS_OK;
}

static int fd_write(void *ctx, const void *data, size_t len);
static int mem_write(void *ctx, const void *data, size_t len);

/* The allocator of a sink this file made (an output's or a membuf's);
 * the C library's for a sink of the caller's. */
static const hs_allocator *sink_allocator(const hs_sink *s)
{
    if (s->write == fd_write)
        return ((const struct hs_output *)s->ctx)->alloc;
    if (s->write == mem_write)
        return ((const hs_membuf *)s->ctx)->alloc;
    return NULL;
}

int hs_sink_printf(hs_sink *s, const char *fmt, ...)
{
    char small[512];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(small, sizeof small, fmt, ap);
    va_end(ap);
    if (n < 0)
        return HS_ERR_IO;
    if ((size_t)n < sizeof small)
        return hs_sink_write(s, small, (size_t)n);
    const hs_allocator *alloc = sink_allocator(s);
    char *big = hs_malloc(alloc, (size_t)n + 1);
    if (!big)
        return HS_ERR_NOMEM;
    va_start(ap, fmt);
    vsnprintf(big, (size_t)n + 1, fmt, ap);
    va_end(ap);
    int st = hs_sink_write(s, big, (size_t)n);
    hs_free(alloc, big);
    return st;
}

/* Writes all of data to the file, keeping the first failure's errno. */
static int write_all(hs_output *o, const char *data, size_t len)
{
    for (size_t off = 0; off < len && !o->error;) {
        ssize_t n = write(o->fd, data + off, len - off);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            o->error = n < 0 ? errno : EIO;
        else
            off += (size_t)n;
    }
    return o->error ? -1 : 0;
}

static int drain(hs_output *o)
{
    int st = write_all(o, o->buf, o->len);
    o->len = 0;
    return st;
}

static int fd_write(void *ctx, const void *data, size_t len)
{
    hs_output *o = ctx;
    if (o->error)
        return -1;
    if (len > OUT_BUF - o->len && drain(o) != 0)
        return -1;
    if (len >= OUT_BUF) /* large writes go straight through */
        return write_all(o, data, len);
    memcpy(o->buf + o->len, data, len);
    o->len += len;
    return 0;
}

/* Standard output through stdio, keeping the first failure's errno (the
 * stream's error flag alone does not tell a full disk from a hang-up). */
static int stdout_write(void *ctx, const void *data, size_t len)
{
    hs_output *o = ctx;
    if (o->error)
        return -1;
    errno = 0;
    if (fwrite(data, 1, len, stdout) == len)
        return 0;
    o->error = errno ? errno : EIO;
    return -1;
}

/* "cannot WHAT PATH: CAUSE" in *err (when not NULL). Out of memory is
 * not an I/O error: the command exits 5, not 3. Returns the code. */
static int set_errno_error(hs_error *err, const char *what, const char *path,
                           int e)
{
    return hs__error_set(err, e == ENOMEM ? HS_ERR_NOMEM : HS_ERR_IO, NULL,
                         "cannot %s %s: %s", what, path, strerror(e));
}

/* Replaces the last six characters of tmp ("PATH.tmpXXXXXX") by a fresh
 * suffix: the kernel's randomness when it has some, else the clock. */
static void fresh_suffix(char *tmp, unsigned attempt)
{
    static const char letters[] =
        "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
    unsigned char r[6];
    if (getrandom(r, sizeof r, GRND_NONBLOCK) != (ssize_t)sizeof r) {
        struct timespec ts;
        clock_gettime(CLOCK_MONOTONIC, &ts);
        uint64_t x = (uint64_t)ts.tv_nsec * 2654435761u ^
                     (uint64_t)getpid() << 20 ^ attempt;
        for (size_t i = 0; i < sizeof r; i++, x >>= 8)
            r[i] = (unsigned char)x;
    }
    char *p = tmp + strlen(tmp) - sizeof r;
    for (size_t i = 0; i < sizeof r; i++)
        p[i] = letters[r[i] % (sizeof letters - 1)];
}

/*
 * Creates the temporary file beside o->path: mode 0666 less the umask,
 * as any new file, or the mode of the file it will replace, so a rename
 * keeps that file's permissions. Returns the fd or -1 with errno set.
 */
static int create_temp(hs_output *o, size_t size, const struct stat *old)
{
    snprintf(o->tmp_path, size, "%s.tmpXXXXXX", o->path);
    for (unsigned attempt = 0; attempt < 100; attempt++) {
        fresh_suffix(o->tmp_path, attempt);
        int fd = open(o->tmp_path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC,
                      0666);
        if (fd >= 0) {
            if (old)
                (void)fchmod(fd, old->st_mode & 07777);
            return fd;
        }
        if (errno != EEXIST)
            return -1;
    }
    errno = EEXIST;
    return -1;
}

/* Opens a named output: in place for a device or FIFO, else a temporary
 * file beside it. Returns HS_OK or an error in *err. */
static int open_named(hs_output *o, const char *path, hs_error *err)
{
    struct stat sb;
    bool exists = stat(path, &sb) == 0;
    size_t size = strlen(path) + 16;
    if (!(o->path = hs_strndup(o->alloc, path, strlen(path))) ||
        !(o->buf = hs_malloc(o->alloc, OUT_BUF)) ||
        !(o->tmp_path = hs_malloc(o->alloc, size))) {
        return set_errno_error(err, "write", path, ENOMEM);
    }
    if (exists && !S_ISREG(sb.st_mode)) {
        /* A device, FIFO or socket (/dev/null, a named pipe) is written in
         * place: renaming a temporary file over it would replace it. */
        hs_free(o->alloc, o->tmp_path);
        o->tmp_path = NULL;
        o->direct = true;
        o->fd = open(path, O_WRONLY | O_CLOEXEC);
    } else {
        o->fd = create_temp(o, size, exists ? &sb : NULL);
    }
    if (o->fd < 0) {
        int e = errno;
        if (o->tmp_path) {
            hs_free(o->alloc, o->tmp_path); /* nothing was created */
            o->tmp_path = NULL;
            return set_errno_error(err, "create a file beside", path, e);
        }
        return set_errno_error(err, "write", path, e);
    }
    return HS_OK;
}

hs_output *hs_output_open(const char *path, hs_error *err)
{
    return hs_output_open_with(path, NULL, err);
}

hs_output *hs_output_open_with(const char *path, const hs_allocator *alloc,
                               hs_error *err)
{
    hs__error_clear(err);
    hs_output *o = hs_calloc(alloc, 1, sizeof *o);
    if (!o) {
        set_errno_error(err, "write", path ? path : "-", ENOMEM);
        return NULL;
    }
    o->alloc = hs_alloc_copy(&o->alloc_store, alloc);
    o->fd = -1;
    if (!path || strcmp(path, "-") == 0) {
        o->sink.write = stdout_write;
        o->sink.ctx = o;
        return o;
    }
    if (open_named(o, path, err) != HS_OK) {
        hs_output_abort(o);
        return NULL;
    }
    o->sink.write = fd_write;
    o->sink.ctx = o;
    return o;
}

hs_sink *hs_output_sink(hs_output *o) { return &o->sink; }

static void output_free(hs_output *o)
{
    const hs_allocator *a = o->alloc;
    hs_free(a, o->buf);
    hs_free(a, o->tmp_path);
    hs_free(a, o->path);
    hs_free(a, o);
}

int hs_output_commit(hs_output *o, hs_error *err)
{
    hs__error_clear(err);
    if (!o->path) {
        errno = 0;
        if (fflush(stdout) != 0 && !o->error)
            o->error = errno ? errno : EIO;
        if (ferror(stdout) && !o->error)
            o->error = EIO;
        if (o->error) {
            int code = set_errno_error(err, "write", "standard output",
                                       o->error);
            output_free(o);
            return code;
        }
        output_free(o);
        return HS_OK;
    }
    drain(o);
    if (close(o->fd) != 0 && !o->error)
        o->error = errno;
    o->fd = -1;
    if (o->error) {
        int code = set_errno_error(err, "write", o->path, o->error);
        hs_output_abort(o);
        return code;
    }
    if (!o->direct && rename(o->tmp_path, o->path) != 0) {
        int code = set_errno_error(err, "create", o->path, errno);
        hs_output_abort(o);
        return code;
    }
    output_free(o);
    return HS_OK;
}

int hs_output_fail(hs_output *o, int status, hs_error *err)
{
    const char *path = o->path ? o->path : "standard output";
    hs__error_clear(err);
    if (status == HS_ERR_IO && o->error)
        status = set_errno_error(err, "write", path, o->error);
    else
        hs__error_set(err, status, NULL, "cannot write %s: %s", path,
                      hs_strerror(status));
    hs_output_abort(o);
    return status;
}

void hs_output_abort(hs_output *o)
{
    if (!o)
        return;
    if (o->fd >= 0)
        close(o->fd);
    else if (!o->path)
        fflush(stdout);
    if (o->tmp_path)
        unlink(o->tmp_path);
    output_free(o);
}

/* --- memory ------------------------------------------------------------- */

void hs_membuf_init(hs_membuf *m, const hs_allocator *alloc)
{
    memset(m, 0, sizeof *m);
    m->alloc = alloc;
}

static int mem_write(void *ctx, const void *data, size_t len)
{
    hs_membuf *m = ctx;
    if (len > SIZE_MAX - m->len - 1 ||
        !hs_grow(m->alloc, (void **)&m->data, &m->cap, m->len + len + 1, 1)) {
        errno = ENOMEM;
        return -1;
    }
    memcpy(m->data + m->len, data, len);
    m->len += len;
    m->data[m->len] = 0;
    return 0;
}

hs_sink hs_membuf_sink(hs_membuf *m)
{
    return (hs_sink){mem_write, m};
}

void hs_membuf_free(hs_membuf *m)
{
    if (!m)
        return;
    hs_free(m->alloc, m->data);
    m->data = NULL;
    m->len = m->cap = 0;
}
