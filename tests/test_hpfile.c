/*
 * Tests of .hp files: the renderer against the runtime's own .hp of the
 * same run for every sample in samples/ (keys and bytes per sample), hp2ps
 * on the output when it is installed, the .hp reader (round trips byte for
 * byte, MARK lines, pipes) and malformed files, each with the line number
 * and what was expected. Chunks, order, memory and names are in
 * test_hpfile_exact.c.
 */
#include "evwriter.h"
#include "hp_load.h"
#include "testutil.h"
#include <heapscope/heapscope.h>

#include <CUnit/Basic.h>

#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

/*
 * A parsed .hp: per sample (closing ones included), keys and bytes with
 * repeated keys summed; "(N)" prefixes stripped when asked (the runtime's
 * -hc ccs ids).
 */
struct hp_key { char *key; unsigned long long bytes; };
struct hp_sample { struct hp_key *keys; size_t n; };
struct hp_file { struct hp_sample *s; size_t n; };

static void hp_free(struct hp_file *h)
{
    for (size_t i = 0; i < h->n; i++) {
        for (size_t k = 0; k < h->s[i].n; k++)
            free(h->s[i].keys[k].key);
        free(h->s[i].keys);
    }
    free(h->s);
}

static void hp_parse(const char *text, bool strip, struct hp_file *h)
{
    memset(h, 0, sizeof *h);
    const char *p = text;
    struct hp_sample *cur = NULL;
    while (*p) {
        const char *e = strchr(p, '\n');
        size_t n = e ? (size_t)(e - p) : strlen(p);
        if (n >= 12 && strncmp(p, "BEGIN_SAMPLE", 12) == 0) {
            h->s = realloc(h->s, (h->n + 1) * sizeof *h->s);
            cur = &h->s[h->n++];
            memset(cur, 0, sizeof *cur);
        } else if (n >= 10 && strncmp(p, "END_SAMPLE", 10) == 0) {
            cur = NULL;
        } else if (cur) {
            const char *tab = NULL;
            for (const char *q = p; q < p + n; q++)
                if (*q == '\t')
                    tab = q;
            if (tab) {
                const char *k = p;
                if (strip && *k == '(') {
                    const char *q = k + 1;
                    while (q < tab && *q >= '0' && *q <= '9')
                        q++;
                    if (q < tab && *q == ')' && q > k + 1)
                        k = q + 1;
                }
                size_t kl = (size_t)(tab - k);
                unsigned long long v = strtoull(tab + 1, NULL, 10);
                size_t i;
                for (i = 0; i < cur->n; i++)
                    if (strlen(cur->keys[i].key) == kl &&
                        memcmp(cur->keys[i].key, k, kl) == 0)
                        break;
                if (i == cur->n) {
                    cur->keys = realloc(cur->keys,
                                        (cur->n + 1) * sizeof *cur->keys);
                    cur->keys[i].key = strndup(k, kl);
                    cur->keys[i].bytes = 0;
                    cur->n++;
                }
                cur->keys[i].bytes += v;
            }
        }
        p = e ? e + 1 : p + n;
    }
}

/* Whether two samples hold the same keys with the same bytes. */
static bool same_sample(const struct hp_sample *a, const struct hp_sample *b,
                        char *why, size_t whylen)
{
    if (a->n != b->n) {
        snprintf(why, whylen, "%zu keys vs %zu", a->n, b->n);
        return false;
    }
    for (size_t i = 0; i < a->n; i++) {
        size_t k;
        for (k = 0; k < b->n; k++)
            if (strcmp(a->keys[i].key, b->keys[k].key) == 0)
                break;
        if (k == b->n || a->keys[i].bytes != b->keys[k].bytes) {
            snprintf(why, whylen, "key '%s': %llu vs %s", a->keys[i].key,
                     a->keys[i].bytes, k == b->n ? "absent" : "other bytes");
            return false;
        }
    }
    return true;
}

/* ---- tests ------------------------------------------------------------ */

/* Every samples/PROG-hX.eventlog against the runtime's PROG-hX.hp. */
static void test_samples_match_runtime(void)
{
    const char *dir = tu_samples_dir();
    DIR *d = dir ? opendir(dir) : NULL;
    if (!d) {
        printf("\n  note: no samples/ directory; skipped ");
        return;
    }
    struct dirent *de;
    int compared = 0;
    bool have_hp2ps = access("/usr/bin/hp2ps", X_OK) == 0;
    while ((de = readdir(d))) {
        size_t n = strlen(de->d_name);
        if (n < 12 || strcmp(de->d_name + n - 9, ".eventlog") != 0)
            continue;
        char base[1024], path[2048], hp_path[2048];
        snprintf(base, sizeof base, "%.*s", (int)(n - 9), de->d_name);
        snprintf(path, sizeof path, "%s/%s", dir, de->d_name);
        snprintf(hp_path, sizeof hp_path, "%s/%s.hp", dir, base);
        size_t len;
        char *runtime = tu_slurp(hp_path, &len);
        if (!runtime)
            continue; /* a time profile (-p): no .hp */
        int st;
        hs_census *c = load_path(path, &st);
        CU_ASSERT_EQUAL(st, HS_OK);
        char *ours = render_hp(c);
        CU_ASSERT_PTR_NOT_NULL_FATAL(ours);
        bool hc = strcmp(base + strlen(base) - 3, "-hc") == 0;
        struct hp_file a, b;
        hp_parse(ours, false, &a);
        hp_parse(runtime, hc, &b);
        CU_ASSERT_EQUAL(a.n, b.n);
        if (a.n != b.n)
            printf("\n  %s: %zu samples vs the runtime's %zu", base, a.n,
                   b.n);
        for (size_t i = 0; i < a.n && i < b.n; i++) {
            char why[512];
            bool same = same_sample(&a.s[i], &b.s[i], why, sizeof why);
            CU_ASSERT_TRUE(same);
            if (!same)
                printf("\n  %s sample %zu: %s", base, i, why);
        }
        /* the first lines are the runtime's header, JOB included */
        CU_ASSERT_TRUE(strncmp(ours, "JOB \"", 5) == 0);
        const char *nl = strchr(runtime, '\n');
        CU_ASSERT_TRUE(nl && strncmp(ours, runtime,
                                     (size_t)(nl - runtime)) == 0);
        compared++;

        if (have_hp2ps) {
            char tmpdir[] = "/tmp/heapscope-hp2ps-XXXXXX";
            CU_ASSERT_PTR_NOT_NULL_FATAL(mkdtemp(tmpdir));
            char file[4096], cmd[8300], ps[4200];
            snprintf(file, sizeof file, "%s/%s.hp", tmpdir, base);
            snprintf(ps, sizeof ps, "%s/%s.ps", tmpdir, base);
            FILE *f = fopen(file, "w");
            fputs(ours, f);
            fclose(f);
            snprintf(cmd, sizeof cmd, "cd '%s' && hp2ps '%s.hp' 2>&1",
                     tmpdir, base);
            int rc = system(cmd);
            CU_ASSERT_EQUAL(rc, 0);
            struct stat sb;
            CU_ASSERT_TRUE(stat(ps, &sb) == 0 && sb.st_size > 1000);
            unlink(ps);
            unlink(file);
            rmdir(tmpdir);
        }
        hp_free(&a);
        hp_free(&b);
        free(ours);
        free(runtime);
        hs_census_free(c);
    }
    closedir(d);
    CU_ASSERT_TRUE(compared >= 7);
    if (!have_hp2ps)
        printf("\n  note: no /usr/bin/hp2ps; its check skipped ");
}

/* Runtime .hp files and heapscope's own come back byte for byte. */
static void test_round_trip(void)
{
    const char *dir = tu_samples_dir();
    DIR *d = dir ? opendir(dir) : NULL;
    if (!d) {
        printf("\n  note: no samples/ directory; skipped ");
        return;
    }
    struct dirent *de;
    int done = 0;
    while ((de = readdir(d))) {
        size_t n = strlen(de->d_name);
        if (n < 4 || strcmp(de->d_name + n - 3, ".hp") != 0)
            continue;
        char path[2048], evpath[2048];
        snprintf(path, sizeof path, "%s/%s", dir, de->d_name);
        snprintf(evpath, sizeof evpath, "%s/%.*s.eventlog", dir,
                 (int)(n - 3), de->d_name);
        size_t len;
        char *text = tu_slurp(path, &len);
        int st;
        hs_census *c = load_path(path, &st);
        CU_ASSERT_EQUAL(st, HS_OK);
        CU_ASSERT_EQUAL(hs_census_get_info(c)->source, HS_SOURCE_HP);
        char *again = render_hp(c);
        CU_ASSERT_TRUE(again && strcmp(again, text) == 0);
        if (!again || strcmp(again, text) != 0)
            printf("\n  %s does not come back identical", de->d_name);
        free(again);
        free(text);
        hs_census_free(c);

        /* eventlog -> .hp -> census -> .hp */
        c = load_path(evpath, &st);
        if (c) {
            char *first = render_hp(c);
            int s2;
            hs_error err;
            hs_census *c2 = load_text(first, &s2, &err);
            CU_ASSERT_EQUAL(s2, HS_OK);
            CU_ASSERT_EQUAL(hs_census_sample_count(c2),
                            hs_census_sample_count(c));
            CU_ASSERT_EQUAL(hs_census_marker_count(c2),
                            hs_census_marker_count(c));
            char *second = render_hp(c2);
            CU_ASSERT_TRUE(first && second && strcmp(first, second) == 0);
            free(first);
            free(second);
            hs_census_free(c2);
            hs_census_free(c);
        }
        done++;
    }
    closedir(d);
    CU_ASSERT_TRUE(done >= 7);
}

static void test_reader(void)
{
    int st;
    hs_error err;
    hs_census *c = load_text(good_hp, &st, &err);
    CU_ASSERT_EQUAL(st, HS_OK);
    const hs_census_info *in = hs_census_get_info(c);
    CU_ASSERT_STRING_EQUAL(in->job, "prog \"quoted\" +RTS -hy");
    CU_ASSERT_STRING_EQUAL(in->program, "prog");
    CU_ASSERT_STRING_EQUAL(in->date, "Sun Nov 22 00:21 2026");
    CU_ASSERT_EQUAL(in->breakdown, HS_BREAKDOWN_TYPE_DESCR);
    CU_ASSERT_EQUAL(in->end_time_ns, 40000000);
    CU_ASSERT_TRUE(in->complete);
    /* the empty first and closing samples are the format's, not data;
     * an empty census between them is data */
    CU_ASSERT_EQUAL_FATAL(hs_census_sample_count(c), 3);
    CU_ASSERT_EQUAL(hs_census_sample_time(c, 0), 10000000);
    CU_ASSERT_EQUAL(hs_census_sample_total(c, 0), 124);
    const hs_census_entry *e;
    CU_ASSERT_EQUAL(hs_census_sample_entries(c, 1, &e), 0);
    CU_ASSERT_EQUAL(hs_census_sample_entries(c, 2, &e), 1);
    CU_ASSERT_STRING_EQUAL(hs_census_band_name(c, 0), "Integer -> IO ()");
    CU_ASSERT_EQUAL(hs_census_marker_count(c), 2);
    CU_ASSERT_EQUAL(hs_census_marker_at(c, 0)->time_ns, 5000000);
    CU_ASSERT_STRING_EQUAL(hs_census_marker_at(c, 0)->text, "");
    char *again = render_hp(c);
    CU_ASSERT_STRING_EQUAL(again, good_hp);
    free(again);
    hs_census_free(c);

    /* CRLF line ends, spaces instead of a TAB, no header at all */
    c = load_text("BEGIN_SAMPLE 1.5\r\nfoo bar 12\r\nEND_SAMPLE 1.5\r\n",
                  &st, &err);
    CU_ASSERT_EQUAL(st, HS_OK);
    CU_ASSERT_EQUAL(hs_census_sample_count(c), 1);
    CU_ASSERT_EQUAL(hs_census_sample_time(c, 0), 1500000000);
    CU_ASSERT_STRING_EQUAL(hs_census_band_name(c, 0), "foo bar");
    hs_census_free(c);

    /* a band may be called END_SAMPLE: a TAB line is always a band */
    c = load_text("BEGIN_SAMPLE 1\nEND_SAMPLE\t7\nEND_SAMPLE 1\n", &st,
                  &err);
    CU_ASSERT_EQUAL(st, HS_OK);
    CU_ASSERT_EQUAL(hs_census_sample_total(c, 0), 7);
    hs_census_free(c);

    /* cut inside a sample: it holds part of a census and is left out,
     * with a warning naming it, as in a cut eventlog */
    c = load_text("JOB \"x\"\nBEGIN_SAMPLE 0.1\nA\t5\n", &st, &err);
    CU_ASSERT_EQUAL(st, HS_TRUNCATED);
    CU_ASSERT_EQUAL(err.code, HS_TRUNCATED);
    CU_ASSERT_PTR_NOT_NULL(strstr(err.message, "line 2"));
    CU_ASSERT_PTR_NOT_NULL(strstr(err.message, "was cut and is left out"));
    CU_ASSERT_EQUAL(hs_census_sample_count(c), 0);
    CU_ASSERT_FALSE(hs_census_get_info(c)->complete);
    hs_census_free(c);

    /* cut in the middle of a line, inside a sample or between samples:
     * the whole samples before it stay, and the file is read (the runtime
     * ends every line; a fragment that does not parse is the cut's) */
    static const char *const cuts[] = {
        "BEGIN_SAMPLE 0.1\nA\t5\nEND_SAMPLE 0.1\nBEGIN_SAMPLE 0.2\nA\t7\nB",
        "BEGIN_SAMPLE 0.1\nA\t5\nEND_SAMPLE 0.1\nBEGIN_SAMPLE 0.2\nA\t7\nB\t1",
        "BEGIN_SAMPLE 0.1\nA\t5\nEND_SAMPLE 0.1\nBEGIN_SAM",
        "BEGIN_SAMPLE 0.1\nA\t5\nEND_SAMPLE 0.1\nEND_SAM",
    };
    for (size_t i = 0; i < sizeof cuts / sizeof cuts[0]; i++) {
        c = load_text(cuts[i], &st, &err);
        CU_ASSERT_EQUAL(st, HS_TRUNCATED);
        CU_ASSERT_EQUAL(hs_census_sample_count(c), 1);
        CU_ASSERT_EQUAL(hs_census_sample_total(c, 0), 5);
        CU_ASSERT_EQUAL(err.line, i < 2 ? 6 : 4);
        hs_census_free(c);
    }
    /* a whole last line without its line break is no cut */
    c = load_text("BEGIN_SAMPLE 0.1\nA\t5\nEND_SAMPLE 0.1", &st, &err);
    CU_ASSERT_EQUAL(st, HS_OK);
    CU_ASSERT_EQUAL(hs_census_sample_count(c), 1);
    hs_census_free(c);
}

static void test_malformed(void)
{
    static const struct {
        const char *text;
        unsigned line;
        const char *says;
    } cases[] = {
        {"JOB prog\n", 1, "quoted string after JOB"},
        {"JOB \"unterminated\n", 1, "quoted string after JOB"},
        {"JOB \"x\"\nfoo\t12\n", 2, "expected JOB, DATE"},
        {"BEGIN_SAMPLE abc\n", 1, "time in seconds after BEGIN_SAMPLE"},
        {"BEGIN_SAMPLE -1\n", 1, "time in seconds"},
        {"BEGIN_SAMPLE 1\nBEGIN_SAMPLE 2\n", 2, "END_SAMPLE for the sample "
                                               "begun at line 1"},
        {"END_SAMPLE 1\n", 1, "without a BEGIN_SAMPLE"},
        {"BEGIN_SAMPLE 1\nA\tlots\n", 2, "byte count after the band name"},
        {"BEGIN_SAMPLE 1\nA\t99999999999999999999999\n", 2, "byte count"},
        /* one past the largest: 20 digits, which the fast path leaves to
         * the general one's overflow check */
        {"BEGIN_SAMPLE 1\nA\t18446744073709551616\nEND_SAMPLE 1\n", 2,
         "byte count"},
        {"BEGIN_SAMPLE 1\nlonely\n", 2, "a band name, a TAB"},
        {"BEGIN_SAMPLE 1\n\t12\n", 2, "band name before"},
        {"\n\nMARK x\n", 3, "time in seconds after MARK"},
        {"DATE \"a\" trailing\n", 1, "quoted string after DATE"},
        {"", 0, "no such line"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        int st;
        hs_error err;
        hs_census *c = load_text(cases[i].text, &st, &err);
        CU_ASSERT_EQUAL(st, HS_ERR_PARSE);
        CU_ASSERT_EQUAL(err.code, HS_ERR_PARSE);
        if (cases[i].line)
            CU_ASSERT_EQUAL(err.line, cases[i].line);
        bool says = strstr(err.message, cases[i].says) != NULL;
        CU_ASSERT_TRUE(says);
        if (!says || st != HS_ERR_PARSE)
            printf("\n  case %zu: %d line %llu '%s'", i, st,
                   (unsigned long long)err.line, err.message);
        hs_census_free(c);
    }
}

/* A .hp through a pipe a byte at a time, detected by content. */
static void test_pipe(void)
{
    int fds[2];
    CU_ASSERT_EQUAL_FATAL(pipe(fds), 0);
    pid_t pid = fork();
    CU_ASSERT_TRUE_FATAL(pid >= 0);
    if (pid == 0) {
        close(fds[0]);
        for (size_t i = 0; good_hp[i]; i++)
            if (write(fds[1], good_hp + i, 1) != 1)
                _exit(1);
        _exit(0);
    }
    close(fds[1]);
    hs_census *c = hs_census_new();
    hs_error err;
    CU_ASSERT_EQUAL(hs_census_load_fd(c, fds[0], &err), HS_OK);
    close(fds[0]);
    int status;
    waitpid(pid, &status, 0);
    CU_ASSERT_EQUAL(hs_census_get_info(c)->source, HS_SOURCE_HP);
    CU_ASSERT_EQUAL(hs_census_sample_count(c), 3);
    char *again = render_hp(c);
    CU_ASSERT_STRING_EQUAL(again, good_hp);
    free(again);
    hs_census_free(c);
}



int main(void)
{
    static const tu_test tests[] = {
        {"samples equal the runtime's .hp; hp2ps takes them", test_samples_match_runtime},
        {".hp round trips", test_round_trip},
        {".hp reader", test_reader},
        {"malformed .hp", test_malformed},
        {".hp through a pipe", test_pipe},
        {NULL, NULL},
    };
    return tu_main("hpfile", NULL, NULL, tests);
}
