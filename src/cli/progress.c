/*
 * Progress on long reads: a line on stderr, rewritten in place, saying how
 * far the reading of an input got ("heapscope: reading big.eventlog:
 * 120 MiB of 512 MiB (23%), 85.2 MiB/s"). Only when stderr is a terminal,
 * without --quiet, and once a read has lasted HEAPSCOPE_PROGRESS_AFTER
 * seconds (default 2).
 *
 * A thread watches the input from outside: it wakes at most four times a
 * second and asks the descriptor how far it is (its file offset; for a
 * pipe, the bytes the process has read, /proc/self/io's rchar, where
 * there is one), so the reading itself pays nothing and the library knows
 * nothing of it.
 */
#include "cli.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define TICK_NS 250000000L  /* at most four updates a second */

static struct {
    bool quiet;
    bool running, stop, shown;
    pthread_t thread;
    pthread_mutex_t lock;
    pthread_cond_t wake;
    int fd;
    bool seekable;
    uint64_t size, base;   /* size: 0 when unknown; base: rchar at start */
    double after;          /* seconds before the first line */
    char name[256];
} pg = {.lock = PTHREAD_MUTEX_INITIALIZER, .wake = PTHREAD_COND_INITIALIZER};

void cli_progress_quiet(bool quiet) { pg.quiet = quiet; }

static double now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + t.tv_nsec / 1e9;
}

/* The bytes the process has read (rchar), or false where unknown. */
static bool rchar(uint64_t *out)
{
    FILE *f = fopen("/proc/self/io", "r");
    if (!f)
        return false;
    unsigned long long v = 0;
    bool ok = fscanf(f, "rchar: %llu", &v) == 1;
    fclose(f);
    *out = v;
    return ok;
}

/* How far the input is, or false when that cannot be known. */
static bool position(uint64_t *at)
{
    if (pg.seekable) {
        off_t o = lseek(pg.fd, 0, SEEK_CUR);
        *at = o < 0 ? 0 : (uint64_t)o;
        return o >= 0;
    }
    uint64_t r;
    if (!rchar(&r))
        return false;
    *at = r > pg.base ? r - pg.base : 0;
    return true;
}

static void show(double elapsed)
{
    uint64_t at;
    if (!position(&at))
        return;
    char done[24], total[24], rate[24], line[400];
    hs_format_bytes(done, sizeof done, (double)at);
    hs_format_bytes(rate, sizeof rate, elapsed > 0 ? at / elapsed : 0);
    if (pg.size) {
        hs_format_bytes(total, sizeof total, (double)pg.size);
        snprintf(line, sizeof line, "\rheapscope: reading %s: %s of %s "
                 "(%.0f%%), %s/s\033[K", pg.name, done, total,
                 at >= pg.size ? 100.0 : 100.0 * at / pg.size, rate);
    } else {
        snprintf(line, sizeof line, "\rheapscope: reading %s: %s, %s/s\033[K",
                 pg.name, done, rate);
    }
    fputs(line, stderr);
    fflush(stderr);
    pg.shown = true;
}

static void *watch(void *arg)
{
    (void)arg;
    double start = now_s();
    pthread_mutex_lock(&pg.lock);
    while (!pg.stop) {
        double elapsed = now_s() - start;
        double wait = elapsed < pg.after ? pg.after - elapsed : 0;
        if (wait == 0 && elapsed >= pg.after)
            show(elapsed);
        wait = wait > 0 && wait < TICK_NS / 1e9 ? wait : TICK_NS / 1e9;
        struct timespec until;
        clock_gettime(CLOCK_REALTIME, &until);
        long ns = until.tv_nsec + (long)(wait * 1e9);
        until.tv_sec += ns / 1000000000L;
        until.tv_nsec = ns % 1000000000L;
        while (!pg.stop &&
               pthread_cond_timedwait(&pg.wake, &pg.lock, &until) == 0)
            ;
    }
    pthread_mutex_unlock(&pg.lock);
    return NULL;
}

/* Copies the input's name, bytes that could drive the terminal as '?'. */
static void set_name(const char *path)
{
    const char *s = cli_input_name(path);
    size_t n = 0;
    for (; s[n] && n + 1 < sizeof pg.name; n++)
        pg.name[n] = (unsigned char)s[n] < 0x20 || s[n] == 0x7f ? '?' : s[n];
    pg.name[n] = 0;
}

void cli_progress_begin(int fd, const char *path)
{
    if (pg.quiet || pg.running || !isatty(STDERR_FILENO))
        return;
    const char *env = getenv("HEAPSCOPE_PROGRESS_AFTER");
    pg.after = env && *env ? strtod(env, NULL) : 2.0;
    pg.after = pg.after >= 0 ? pg.after : 2.0;
    struct stat st;
    pg.seekable = fstat(fd, &st) == 0 && S_ISREG(st.st_mode) &&
                  lseek(fd, 0, SEEK_CUR) >= 0;
    pg.size = pg.seekable ? (uint64_t)st.st_size : 0;
    if (!pg.seekable && !rchar(&pg.base))
        return;
    pg.fd = fd;
    pg.stop = false;
    pg.shown = false;
    set_name(path);
    if (pg.after <= 0)
        show(0); /* from the start: at once, however short the read */
    pg.running = cli_thread_start(&pg.thread, watch, NULL) == 0;
}

void cli_progress_end(void)
{
    if (!pg.running)
        return;
    pthread_mutex_lock(&pg.lock);
    pg.stop = true;
    pthread_cond_signal(&pg.wake);
    pthread_mutex_unlock(&pg.lock);
    pthread_join(pg.thread, NULL);
    pg.running = false;
    if (pg.shown) {
        fputs("\r\033[K", stderr);
        fflush(stderr);
    }
}
