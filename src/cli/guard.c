/*
 * Guards against failures inside cairo, pango, fontconfig and GLib, which
 * abort or crash when short of memory (ulimit -v) rather than return an
 * error, and whose start can wait forever: pango loads fontconfig in a
 * GLib worker thread and waits for it, and a thread that cannot be made
 * never comes. A fatal signal removes the set's work directory and exits
 * 5 with a message; so does a stall while charts or a set are written
 * (no CPU time used for STALL_SECONDS); and the first chart is preceded
 * by a check (hs_chart_check), so that most such failures are an exit
 * status before any file is written: never a crash beside half a set, a
 * work directory left behind, or a hang.
 */
#include "cli.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

/* A stall: this long without the process using CPU time while a chart
 * or a set is being written. Drawing is CPU-bound, so a process that has
 * used none for this long waits for what will not come (a GLib worker
 * thread that could not be made). */
enum { STALL_SECONDS = 20 };

static char workdir[PATH_MAX];
static volatile sig_atomic_t have_workdir;
/* the set's directory and the length of the shallowest of it the run
 * made, removed with the work directory when they are empty */
static char setdir[PATH_MAX];
static size_t made_len;
static volatile sig_atomic_t have_made;
/* an output written through a temporary file beside it: its directory
 * and the temporary names' prefix ("NAME.tmp") */
static char outdir[PATH_MAX], outprefix[NAME_MAX + 8];
static volatile sig_atomic_t have_output;

static void guard_interrupts(void);

/* Sets sig's action to handler with flags (async-signal-safe). */
static void set_action(int sig, void (*handler)(int), int flags)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = handler;
    sa.sa_flags = flags;
    sigemptyset(&sa.sa_mask);
    sigaction(sig, &sa, NULL);
}

void cli_guard_output(const char *path)
{
    /* a set's files are in its work directory, guarded whole (and written
     * by two threads: this one record stays theirs to leave alone) */
    if (have_workdir)
        return;
    have_output = 0;
    if (!path || strcmp(path, "-") == 0)
        return;
    const char *slash = strrchr(path, '/');
    const char *name = slash ? slash + 1 : path;
    size_t dlen = slash ? (size_t)(slash - path) + 1 : 0;
    if (dlen + 2 > sizeof outdir || strlen(name) + 5 > sizeof outprefix)
        return;
    memcpy(outdir, slash ? path : "./", slash ? dlen : 2);
    outdir[slash ? dlen : 2] = 0;
    strcpy(outprefix, name);
    strcat(outprefix, ".tmp");
    have_output = 1;
    guard_interrupts();
}

void cli_guard_made(const char *dir, const char *made)
{
    have_made = 0;
    if (dir && made && strlen(dir) < sizeof setdir &&
        strlen(made) <= strlen(dir)) {
        strcpy(setdir, dir);
        made_len = strlen(made);
        have_made = 1;
    }
}

void cli_guard_workdir(const char *dir)
{
    have_workdir = 0;
    if (!dir)
        have_made = 0;
    if (dir && strlen(dir) < sizeof workdir) {
        strcpy(workdir, dir);
        have_workdir = 1;
        guard_interrupts();
    }
}

void cli_rmdir_made(char *dir, size_t stop)
{
    size_t n = strlen(dir);
    while (n >= stop && rmdir(dir) == 0) {
        while (n > 0 && dir[n - 1] != '/')
            n--;
        if (n == 0)
            break;
        dir[--n] = 0;
    }
}

/* Removes the files of dir whose names start with prefix ("": all), with
 * async-signal-safe calls. */
static void remove_files(const char *dir, const char *prefix)
{
    size_t plen = strlen(prefix);
    int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    char buf[4096];
    long n;
    while (fd >= 0 && (n = syscall(SYS_getdents64, fd, buf, sizeof buf)) > 0)
        for (long off = 0; off < n;) {
            /* struct linux_dirent64: ino, off, reclen, type, name */
            unsigned short reclen;
            memcpy(&reclen, buf + off + 16, sizeof reclen);
            const char *name = buf + off + 19;
            if (strcmp(name, ".") && strcmp(name, "..") &&
                strncmp(name, prefix, plen) == 0)
                unlinkat(fd, name, 0);
            off += reclen;
        }
    if (fd >= 0)
        close(fd);
}

/* Removes the work directory (its files are flat: the set's and their
 * temporary names) and the output's temporary file. The set's second
 * writing thread may still make a file in the directory after its files
 * were removed (about one interrupt in a hundred left one): they are
 * removed again until the directory goes, after which no file can be made
 * in it. */
static void remove_workdir(void)
{
    int saved = errno;
    if (have_workdir) {
        for (int i = 0; i < 1000; i++) {
            remove_files(workdir, "");
            if (rmdir(workdir) == 0 || errno != ENOTEMPTY)
                break;
        }
        have_workdir = 0;
    }
    if (have_made) {
        cli_rmdir_made(setdir, made_len);
        have_made = 0;
    }
    if (have_output) {
        remove_files(outdir, outprefix);
        have_output = 0;
    }
    errno = saved;
}

/* Ctrl-C, SIGTERM or SIGHUP while a set or an output is written through
 * temporary names: those are removed, then the signal ends the process as
 * it would have (its status says so), the files in place untouched. */
static void on_interrupt(int sig)
{
    remove_workdir();
    set_action(sig, SIG_DFL, 0);
    raise(sig);
}

/* The signals on_interrupt() takes. */
static const int interrupts[] = {SIGINT, SIGTERM, SIGHUP};
enum { N_INTERRUPTS = sizeof interrupts / sizeof interrupts[0] };

/* Installs on_interrupt() for the signals still at their default action
 * (watch handles Ctrl-C and SIGTERM itself, as the end of its stream). */
static void guard_interrupts(void)
{
    static bool done;
    if (done)
        return;
    done = true;
    for (size_t i = 0; i < N_INTERRUPTS; i++) {
        struct sigaction old;
        if (sigaction(interrupts[i], NULL, &old) == 0 &&
            old.sa_handler == SIG_DFL && !(old.sa_flags & SA_SIGINFO))
            set_action(interrupts[i], on_interrupt, 0);
    }
}

void cli_hold_interrupts(sigset_t *old)
{
    sigset_t set;
    sigemptyset(&set);
    for (size_t i = 0; i < N_INTERRUPTS; i++)
        sigaddset(&set, interrupts[i]);
    pthread_sigmask(SIG_BLOCK, &set, old);
}

void cli_release_interrupts(const sigset_t *old)
{
    pthread_sigmask(SIG_SETMASK, old, NULL);
}

int cli_thread_start(pthread_t *thread, void *(*fn)(void *), void *arg)
{
    sigset_t old;
    cli_hold_interrupts(&old); /* the new thread's mask: held for good */
    int rc = pthread_create(thread, NULL, fn, arg);
    cli_release_interrupts(&old);
    return rc;
}

static void say(const char *s) { (void)!write(2, s, strlen(s)); }

static volatile sig_atomic_t watching;
static int64_t last_cpu_ns = -1;

static int64_t cpu_ns(void)
{
    struct timespec ts;
    if (clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts) != 0)
        return -1;
    return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

static void on_fatal(int sig);

/* The stall watchdog's tick: a stall is fatal, anything else re-arms. */
static void on_tick(int sig)
{
    int64_t now = cpu_ns();
    bool stalled = now >= 0 && last_cpu_ns >= 0 &&
                   now - last_cpu_ns < 10000000; /* under 10 ms */
    last_cpu_ns = now;
    if (stalled && watching)
        on_fatal(sig);
    if (watching)
        alarm(STALL_SECONDS);
}

static void on_fatal(int sig)
{
    remove_workdir();
    char num[4] = {(char)('0' + sig / 10 % 10), (char)('0' + sig % 10), 0};
    if (sig == SIGALRM) {
        say("heapscope: stalled: no progress in 20 s while drawing "
            "(pango waits for a thread that could not start: short of "
            "memory?); no file of the set was replaced\n");
    } else {
        say("heapscope: a library failed fatally (signal ");
        say(num[0] == '0' ? num + 1 : num);
        say("), probably short of memory (ulimit -v?); no file of the set "
            "was replaced\n");
    }
    _exit(EXIT_INTERNAL);
}

/* The stacks the handler runs on, so a thread whose stack a library
 * exhausted (GLib's out-of-memory message recurses until it does) still
 * exits with the message: the main thread's and cli_charts_prepare's. */
enum { ALT_STACK = 64 * 1024 };
static char main_alt[ALT_STACK], prepare_alt[ALT_STACK];

/* Makes mem this thread's signal stack; the one it had in *old. */
static void alt_stack(char *mem, stack_t *old)
{
    stack_t ss = {.ss_sp = mem, .ss_size = ALT_STACK, .ss_flags = 0};
    sigaltstack(&ss, old);
}

void cli_guard_install(void)
{
    static bool done;
    if (done)
        return;
    done = true;
    static const int sigs[] = {SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGTRAP,
                               SIGABRT};
    alt_stack(main_alt, NULL); /* the thread that installs it: the main one */
    for (size_t i = 0; i < sizeof sigs / sizeof sigs[0]; i++)
        set_action(sigs[i], on_fatal, SA_ONSTACK);
}

void cli_guard_watch(bool on)
{
    if (on == (watching != 0))
        return;
    watching = 0;
    alarm(0);
    if (!on)
        return;
    cli_guard_install();
    set_action(SIGALRM, on_tick, SA_RESTART);
    last_cpu_ns = cpu_ns();
    watching = 1;
    alarm(STALL_SECONDS);
}

/* The check run ahead in a thread of its own (cli_charts_prepare): the
 * charts' options, and its result once the thread has ended. */
static struct {
    hs_chart_options opts[2];
    size_t n;
    pthread_t thread;
    bool running;
    int st;
    hs_error err;
} ahead;

static void *prepare_run(void *arg)
{
    (void)arg;
    stack_t old;
    alt_stack(prepare_alt, &old);
    const hs_chart_options *opts[2] = {&ahead.opts[0], &ahead.opts[1]};
    ahead.st = hs_chart_prepare(opts, ahead.n, &ahead.err);
    /* the thread's own back: a sanitizer frees the one it made at the
     * thread's end */
    sigaltstack(&old, NULL);
    return NULL;
}

void cli_charts_prepare(const hs_chart_options *opts, size_t n)
{
    if (ahead.running || !hs_chart_available() || cli_threads() < 2 ||
        n > sizeof ahead.opts / sizeof ahead.opts[0])
        return;
    memcpy(ahead.opts, opts, n * sizeof *opts);
    ahead.n = n;
    cli_guard_install(); /* a library's crash in it exits as in a chart */
    ahead.running = cli_thread_start(&ahead.thread, prepare_run, NULL) == 0;
}

/* Waits for the thread cli_charts_prepare started, under the stall
 * watchdog; its result in *err. false when none was started. */
static bool prepared(int *st, hs_error *err)
{
    if (!ahead.running)
        return false;
    bool was = watching;
    cli_guard_watch(true);
    pthread_join(ahead.thread, NULL);
    cli_guard_watch(was);
    ahead.running = false;
    *st = ahead.st;
    *err = ahead.err;
    return true;
}

void cli_charts_prepare_end(void)
{
    int st;
    hs_error err;
    (void)prepared(&st, &err);
}

int cli_check_charts(void)
{
    static int rc = -1;
    if (rc >= 0 || !hs_chart_available())
        return rc < 0 ? EXIT_OK : rc;
    hs_error err;
    int st;
    if (!prepared(&st, &err)) {
        bool was = watching;
        cli_guard_watch(true);
        st = hs_chart_check(&err);
        cli_guard_watch(was);
    }
    rc = st == HS_OK ? EXIT_OK : EXIT_INTERNAL;
    if (st != HS_OK)
        cli_errorf("%s", err.message);
    return rc;
}

/* The thread cli_loan() lends, one call at a time. */
static struct {
    pthread_t thread;
    void (*fn)(void *);
    void *arg;
} lent;
static char lent_alt[ALT_STACK];

static void *lent_run(void *unused)
{
    (void)unused;
    stack_t old;
    alt_stack(lent_alt, &old);
    lent.fn(lent.arg);
    sigaltstack(&old, NULL);
    return NULL;
}

static int lend_start(void *user, void (*fn)(void *), void *arg)
{
    (void)user;
    lent.fn = fn;
    lent.arg = arg;
    cli_guard_install(); /* a crash in it exits as in the main thread */
    return cli_thread_start(&lent.thread, lent_run, NULL);
}

static void lend_join(void *user)
{
    (void)user;
    pthread_join(lent.thread, NULL);
}

const hs_thread_loan *cli_loan(void)
{
    static hs_thread_loan loan;
    if (cli_threads() < 2)
        return NULL;
    hs_thread_loan_init(&loan);
    loan.start = lend_start;
    loan.join = lend_join;
    return &loan;
}
