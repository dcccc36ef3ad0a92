/*
 * Sinks: where renderers write. An hs_output writes a named file
 * atomically (temporary file beside it, renamed on commit) so that a failed
 * run never leaves half a file; hs_membuf collects output in memory.
 */
#include "heapscope/render.h"
#include "internal.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int hs_sink_write(hs_sink *s, const void *data, size_t len)
{
    if (!len)
        return HS_OK;
    return s->write(s->ctx, data, len) ? HS_ERR_IO : HS_OK;
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
    char *big = malloc((size_t)n + 1);
    if (!big)
        return HS_ERR_NOMEM;
    va_start(ap, fmt);
    vsnprintf(big, (size_t)n + 1, fmt, ap);
    va_end(ap);
    int st = hs_sink_write(s, big, (size_t)n);
    free(big);
    return st;
}

struct hs_output {
    FILE *fp;
    bool direct;    /* written in place: not a regular file */
    char *path;     /* final name, NULL for standard output */
    char *tmp_path; /* temporary name beside it */
    hs_sink sink;
};

static int file_write(void *ctx, const void *data, size_t len)
{
    FILE *fp = ctx;
    return fwrite(data, 1, len, fp) == len ? 0 : -1;
}

static void set_io_error(hs_error *err, const char *fmt, const char *path,
                         int e)
{
    if (!err)
        return;
    memset(err, 0, sizeof *err);
    err->code = HS_ERR_IO;
    snprintf(err->message, sizeof err->message, fmt, path, strerror(e));
}

hs_output *hs_output_open(const char *path, hs_error *err)
{
    hs_output *o = calloc(1, sizeof *o);
    if (!o) {
        set_io_error(err, "cannot write %s: %s", path ? path : "-", ENOMEM);
        return NULL;
    }
    struct stat sb;
    if (!path || strcmp(path, "-") == 0) {
        o->fp = stdout;
    } else if (stat(path, &sb) == 0 && !S_ISREG(sb.st_mode)) {
        /* A device, FIFO or socket (/dev/null, a named pipe) is written in
         * place: renaming a temporary file over it would replace it. */
        o->path = strdup(path);
        o->fp = o->path ? fopen(path, "wb") : NULL;
        if (!o->fp) {
            int e = errno;
            hs_output_abort(o);
            set_io_error(err, "cannot write %s: %s", path, e);
            return NULL;
        }
        o->direct = true;
    } else {
        size_t n = strlen(path);
        o->path = strdup(path);
        o->tmp_path = malloc(n + 16);
        if (!o->path || !o->tmp_path) {
            hs_output_abort(o);
            set_io_error(err, "cannot write %s: %s", path, ENOMEM);
            return NULL;
        }
        snprintf(o->tmp_path, n + 16, "%s.tmpXXXXXX", path);
        int fd = mkstemp(o->tmp_path);
        if (fd < 0) {
            int e = errno;
            free(o->tmp_path);
            o->tmp_path = NULL;
            hs_output_abort(o);
            set_io_error(err, "cannot create a file beside %s: %s", path, e);
            return NULL;
        }
        /* mkstemp makes 0600; give the file the usual permissions. */
        mode_t mask = umask(0);
        umask(mask);
        fchmod(fd, 0666 & ~mask);
        o->fp = fdopen(fd, "wb");
        if (!o->fp) {
            int e = errno;
            close(fd);
            hs_output_abort(o);
            set_io_error(err, "cannot write %s: %s", path, e);
            return NULL;
        }
    }
    o->sink.write = file_write;
    o->sink.ctx = o->fp;
    return o;
}

hs_sink *hs_output_sink(hs_output *o) { return &o->sink; }

int hs_output_commit(hs_output *o, hs_error *err)
{
    int st = HS_OK;
    if (!o->path || o->direct) {
        bool bad = fflush(o->fp) != 0 || ferror(o->fp);
        int e = errno ? errno : EIO;
        if (o->direct && fclose(o->fp) != 0 && !bad) {
            bad = true;
            e = errno;
        }
        if (bad) {
            set_io_error(err, "cannot write %s: %s",
                         o->path ? o->path : "standard output", e);
            st = HS_ERR_IO;
        }
        free(o->path);
        free(o);
        return st;
    }
    int bad = ferror(o->fp);
    if (fclose(o->fp) != 0 || bad) {
        int e = bad ? EIO : errno;
        o->fp = NULL;
        set_io_error(err, "cannot write %s: %s", o->path, e);
        hs_output_abort(o);
        return HS_ERR_IO;
    }
    o->fp = NULL;
    if (rename(o->tmp_path, o->path) != 0) {
        set_io_error(err, "cannot create %s: %s", o->path, errno);
        hs_output_abort(o);
        return HS_ERR_IO;
    }
    free(o->tmp_path);
    free(o->path);
    free(o);
    return HS_OK;
}

void hs_output_abort(hs_output *o)
{
    if (!o)
        return;
    if (o->fp && o->fp != stdout)
        fclose(o->fp);
    else if (o->fp == stdout)
        fflush(stdout);
    if (o->tmp_path)
        unlink(o->tmp_path);
    free(o->tmp_path);
    free(o->path);
    free(o);
}

static int mem_write(void *ctx, const void *data, size_t len)
{
    hs_membuf *m = ctx;
    if (m->len + len + 1 > m->cap) {
        size_t cap = m->cap ? m->cap : 256;
        while (cap < m->len + len + 1)
            cap *= 2;
        char *d = realloc(m->data, cap);
        if (!d) {
            errno = ENOMEM;
            return -1;
        }
        m->data = d;
        m->cap = cap;
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
    free(m->data);
    m->data = NULL;
    m->len = m->cap = 0;
}
