/*
 * Reading an input fd in chunks with read(). See input.h.
 */
#include "read/input.h"
#include "common/internal.h"

#include <errno.h>
#include <pthread.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* read() buffer. A chunk that stays in the CPU's cache while the kernel
 * copies it in and the decoder walks it: reads decode 2.3x faster than the
 * same file mapped (bench/run.sh, 300 MB log from the page cache: 0.12 s
 * against 0.28 s; the mapped walk misses the TLB and the cache on every
 * new page), and 128 KiB (a core's L2) faster than 1 MiB, whose copy
 * leaves the cache: on a real 300 MB -N2 log (bench/ratios.sh) the
 * kernel's copy took 0.07 s against 0.21 s, events --count 166-196 ms of
 * CPU against 302-352 ms. */
#define READ_BLOCK (1u << 17)
/* Where the buffer starts: a cache line. The kernel's copy into a buffer
 * 16 bytes off one (where a large malloc block starts, after its header)
 * took 3.5 times as long on the project's machine (AMD EPYC, rep movsb):
 * 115 ms of system time for a 163 MB file against 33 ms. */
#define BUF_ALIGN 64u
/* The most hs_input_peek() holds: the buffer is never smaller. */
#define PEEK_MAX (1u << 16)

/* READ_BLOCK, or less for a regular file with less than that left: its
 * remaining bytes and one more (to see the end in the same read), but at
 * least PEEK_MAX. A 4 KiB .hp then costs 64 KiB, not 1 MiB. */
static size_t block_size(int fd)
{
    struct stat st;
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode))
        return READ_BLOCK;
    off_t at = lseek(fd, 0, SEEK_CUR);
    if (at < 0 || at > st.st_size)
        return READ_BLOCK;
    uint64_t left = (uint64_t)(st.st_size - at);
    if (left >= READ_BLOCK)
        return READ_BLOCK;
    return left + 1 > PEEK_MAX ? (size_t)left + 1 : PEEK_MAX;
}

void hs_input_open(hs_input *in, int fd, const hs_allocator *alloc)
{
    memset(in, 0, sizeof *in);
    in->fd = fd;
    in->alloc = alloc;
}

/* One read() into buf after the peeked bytes, EINTR retried. */
static int read_more(hs_input *in)
{
    if (!in->buf) {
        size_t cap = block_size(in->fd);
        in->block = hs_malloc(in->alloc, cap + BUF_ALIGN - 1);
        if (!in->block)
            return HS_ERR_NOMEM;
        in->buf = in->block + (-(uintptr_t)in->block & (BUF_ALIGN - 1));
        in->buf_cap = cap;
    }
    for (;;) {
        ssize_t n = read(in->fd, in->buf + in->buf_len,
                         in->buf_cap - in->buf_len);
        if (n > 0) {
            in->buf_len += (size_t)n;
            return HS_OK;
        }
        if (n == 0) {
            in->eof = true;
            return HS_OK;
        }
        if (errno != EINTR) {
            in->err_no = errno;
            return HS_ERR_IO;
        }
    }
}

static int ahead_next(hs_input *in, const uint8_t **data, size_t *len);
static void ahead_start(hs_input *in);

int hs_input_next(hs_input *in, const uint8_t **data, size_t *len)
{
    *data = NULL;
    *len = 0;
    if (in->want_ahead && !in->buf_len && !in->eof) {
        in->want_ahead = false;
        ahead_start(in);
    }
    if (in->ahead)
        return ahead_next(in, data, len);
    if (!in->buf_len && !in->eof) {
        int st = read_more(in);
        if (st < 0) {
            errno = in->err_no;
            return st;
        }
    }
    if (!in->buf_len)
        return HS_DONE;
    *data = in->buf;
    *len = in->buf_len;
    in->offset += in->buf_len;
    in->buf_len = 0;
    return HS_OK;
}

int hs_input_peek(hs_input *in, size_t n, const uint8_t **data,
                  size_t *len)
{
    if (in->ahead)
        return HS_ERR_MISUSE;
    if (n > PEEK_MAX)
        n = PEEK_MAX;
    while (in->buf_len < n && !in->eof) {
        int st = read_more(in);
        if (st < 0) {
            errno = in->err_no;
            return st;
        }
    }
    *data = in->buf ? in->buf : (const uint8_t *)"";
    *len = in->buf_len;
    return HS_OK;
}

static void ahead_stop(hs_input *in);

void hs_input_close(hs_input *in)
{
    ahead_stop(in);
    hs_free(in->alloc, in->block);
    in->block = in->buf = NULL;
    in->buf_len = 0;
}

/* --- reading ahead in a second thread (hs_input_read_ahead) ------------ */

/* Chunks read ahead: one held by the caller, the others filled meanwhile.
 * The thread, faster than the decoder, waits until half of them are free
 * and fills them in a row: one wake-up for AHEAD_BUFS / 2 chunks, not one
 * a chunk (8,500 context switches for a 300 MB log). */
#define AHEAD_BUFS 8

typedef struct hs_input_ahead {
    uint8_t *block[AHEAD_BUFS], *buf[AHEAD_BUFS];
    pthread_t thread;
    int fd;
    pthread_mutex_t lock;   /* guards the fields below */
    pthread_cond_t ready;   /* a chunk read, or the end */
    pthread_cond_t room;    /* a chunk given back, or stop */
    size_t len[AHEAD_BUFS];
    size_t full;            /* chunks read and not given back */
    size_t take;            /* the caller's next (or held) chunk */
    bool held;              /* the caller holds buf[take] */
    bool waiting;           /* the thread waits for half the ring */
    bool end, stop;
    int err_no;             /* the failed read()'s errno, at the end */
} hs_input_ahead;

void hs_input_read_ahead(hs_input *in) { in->want_ahead = true; }

static void *ahead_run(void *arg)
{
    hs_input_ahead *a = arg;
    size_t fill = 0;
    pthread_mutex_lock(&a->lock);
    while (!a->stop) {
        if (a->full == AHEAD_BUFS) {
            a->waiting = true;
            pthread_cond_wait(&a->room, &a->lock);
            continue;
        }
        pthread_mutex_unlock(&a->lock);
        ssize_t n;
        do
            n = read(a->fd, a->buf[fill], READ_BLOCK);
        while (n < 0 && errno == EINTR);
        int e = n < 0 ? errno : 0;
        pthread_mutex_lock(&a->lock);
        if (n > 0) {
            a->len[fill] = (size_t)n;
            a->full++;
            fill = (fill + 1) % AHEAD_BUFS;
        } else {
            a->end = true;
            a->err_no = e;
            a->stop = true;
        }
        pthread_cond_signal(&a->ready);
    }
    pthread_mutex_unlock(&a->lock);
    return NULL;
}

/* Frees a (its lock and conditions too when `made`). */
static void ahead_free(hs_input *in, hs_input_ahead *a, bool made)
{
    if (made) {
        pthread_cond_destroy(&a->room);
        pthread_cond_destroy(&a->ready);
        pthread_mutex_destroy(&a->lock);
    }
    for (size_t i = 0; i < AHEAD_BUFS; i++)
        hs_free(in->alloc, a->block[i]);
    hs_free(in->alloc, a);
}

/* Starts the thread for a regular file; nothing when it cannot. */
static void ahead_start(hs_input *in)
{
    struct stat st;
    if (fstat(in->fd, &st) != 0 || !S_ISREG(st.st_mode) ||
        block_size(in->fd) < READ_BLOCK) /* under a chunk left */
        return;
    hs_input_ahead *a = hs_calloc(in->alloc, 1, sizeof *a);
    bool ok = a != NULL;
    for (size_t i = 0; ok && i < AHEAD_BUFS; i++) {
        a->block[i] = hs_malloc(in->alloc, READ_BLOCK + BUF_ALIGN - 1);
        ok = a->block[i] != NULL;
        if (ok)
            a->buf[i] = a->block[i] +
                        (-(uintptr_t)a->block[i] & (BUF_ALIGN - 1));
    }
    if (!ok) {
        if (a)
            ahead_free(in, a, false);
        return;
    }
    a->fd = in->fd;
    pthread_mutex_init(&a->lock, NULL);
    pthread_cond_init(&a->ready, NULL);
    pthread_cond_init(&a->room, NULL);
    if (pthread_create(&a->thread, NULL, ahead_run, a) == 0)
        in->ahead = a;
    else
        ahead_free(in, a, true);
}

/* hs_input_next() once the thread reads: gives the held chunk back, and
 * hands out the next one read. */
static int ahead_next(hs_input *in, const uint8_t **data, size_t *len)
{
    hs_input_ahead *a = in->ahead;
    pthread_mutex_lock(&a->lock);
    if (a->held) {
        a->held = false;
        a->full--;
        a->take = (a->take + 1) % AHEAD_BUFS;
        if (a->waiting && a->full <= AHEAD_BUFS / 2) {
            a->waiting = false;
            pthread_cond_signal(&a->room);
        }
    }
    while (!a->full && !a->end)
        pthread_cond_wait(&a->ready, &a->lock);
    int st = HS_OK;
    if (a->full) {
        a->held = true;
        *data = a->buf[a->take];
        *len = a->len[a->take];
        in->offset += *len;
    } else if (a->err_no) {
        st = HS_ERR_IO;
        errno = in->err_no = a->err_no;
    } else {
        st = HS_DONE;
        in->eof = true;
    }
    pthread_mutex_unlock(&a->lock);
    return st;
}

/* Ends the thread (a read() of a regular file returns) and frees it. */
static void ahead_stop(hs_input *in)
{
    hs_input_ahead *a = in->ahead;
    if (!a)
        return;
    pthread_mutex_lock(&a->lock);
    a->stop = true;
    pthread_cond_signal(&a->room);
    pthread_mutex_unlock(&a->lock);
    pthread_join(a->thread, NULL);
    ahead_free(in, a, true);
    in->ahead = NULL;
}
