/*
 * The report set written as one unit (report_dir.h): every file goes to a
 * temporary directory inside the target first, so a full disk or any other
 * failure while writing leaves the previous set whole; only then are the
 * files renamed into place, each rename atomic.
 */
#include "report_dir.h"

#include <dirent.h>
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

typedef enum what {
    W_SVG, W_PDF, W_HP, W_CSV, W_FOLDED, W_TFOLDED, W_SPEEDSCOPE, W_AFOLDED,
    W_TICKY,
    W_HTML
} what;

static const struct output {
    what w;
    const char *ext;
} outputs[] = {
    {W_SVG, ".svg"},   {W_PDF, ".pdf"},       {W_HP, ".hp"},
    {W_CSV, ".csv"},   {W_FOLDED, ".folded"}, {W_TFOLDED, ".time.folded"},
    {W_SPEEDSCOPE, ".speedscope.json"}, {W_AFOLDED, ".alloc.folded"},
    {W_TICKY, ".ticky.csv"}, {W_HTML, ".html"},
};
#define NOUT (sizeof outputs / sizeof outputs[0])

/* One file of the report set: what its set_file's arg points to. */
typedef struct report_file {
    const hs_census *c;
    const report_set *set;
    what w;
    const hs_page_link *links; /* the page's links to the other files */
    size_t nlinks;
    hs_membuf *svg; /* the SVG chart as written, for the page to embed */
} report_file;

/* Whether this run writes output w for census c. */
static bool wanted(const hs_census *c, const report_set *set, what w)
{
    bool heap = hs_census_sample_count(c) > 0;
    switch (w) {
    case W_HP:
    case W_FOLDED: return heap && !set->alloc_samples;
    case W_SVG:
    case W_PDF: return heap && hs_chart_available();
    case W_TFOLDED:
    case W_SPEEDSCOPE: return hs_census_tprof_count(c) > 0;
    case W_AFOLDED: return hs_census_alloc_site_count(c) > 0;
    case W_TICKY: return hs_census_has_ticky(c);
    case W_HTML: return true;
    default: return heap;
    }
}

void report_set_init(report_set *s)
{
    hs_chart_options co;
    hs_chart_options_init(&co);
    memset(s, 0, sizeof *s);
    s->bands = co.bands;
    s->sort = co.sort;
    s->kind = co.kind;
}

/* The SVG chart, kept in j->svg for the page, which embeds the same
 * chart (hs_page_options.chart_svg): drawn once for both. */
static int render_svg(const hs_census *c, hs_sink *out, const report_file *j,
                      const hs_chart_options *co)
{
    hs_membuf_free(j->svg);
    hs_sink ms = hs_membuf_sink(j->svg);
    int st = hs_render_chart(c, &ms, co);
    if (st == HS_OK)
        st = hs_sink_write(out, j->svg->data, j->svg->len);
    if (st != HS_OK)
        hs_membuf_free(j->svg);
    return st;
}

static int render(const hs_census *c, hs_sink *out, const void *arg)
{
    const report_file *j = arg;
    const report_set *s = j->set;
    hs_chart_options co;
    hs_chart_options_init(&co);
    co.bands = s->bands;
    co.include = s->include;
    co.exclude = s->exclude;
    co.sort = s->sort;
    co.kind = s->kind;
    hs_folded_options fo;
    hs_folded_options_init(&fo);
    fo.source = HS_FOLDED_HEAP;
    fo.weight = HS_WEIGHT_PEAK;
    fo.per_capability = false;
    hs_page_options po;
    hs_speedscope_options so;
    hs_ticky_options to;
    switch (j->w) {
    case W_SVG:
        return render_svg(c, out, j, &co);
    case W_PDF:
        co.format = HS_CHART_PDF;
        return hs_render_chart(c, out, &co);
    case W_HP: return hs_render_hp(c, out);
    case W_CSV: return hs_render_csv(c, out, HS_CSV_LONG);
    case W_FOLDED: return hs_render_folded(c, out, &fo);
    case W_TFOLDED:
        fo.source = HS_FOLDED_TIME;
        return hs_render_folded(c, out, &fo);
    case W_SPEEDSCOPE:
        hs_speedscope_options_init(&so);
        so.name = cli_input_base(s->input);
        return hs_render_speedscope(c, out, &so);
    case W_AFOLDED:
        fo.source = HS_FOLDED_ALLOC;
        fo.weight = HS_WEIGHT_BYTES;
        return hs_render_folded(c, out, &fo);
    case W_TICKY:
        hs_ticky_options_init(&to);
        to.format = HS_TICKY_CSV;
        return hs_render_ticky(c, out, &to);
    case W_HTML:
        hs_page_options_init(&po);
        po.input = strcmp(s->input, "-") ? s->input : "<stdin>";
        po.bands = s->bands;
        po.include = s->include;
        po.exclude = s->exclude;
        po.sort = s->sort;
        po.kind = s->kind;
        po.gc_json = s->gc_json;
        po.links = j->links;
        po.nlinks = j->nlinks;
        po.chart_svg = j->svg->data;
        return hs_render_page(c, out, &po);
    }
    return HS_ERR_INVALID;
}

void report_dir_prepare(void)
{
    /* the fonts depend on the format and size alone, as render sets them */
    hs_chart_options co[2];
    hs_chart_options_init(&co[0]);
    co[1] = co[0];
    co[1].format = HS_CHART_PDF;
    cli_charts_prepare(co, 2);
}

/* DIR/BASEEXT, or BASEEXT when dir is NULL; NULL when out of memory. */
static char *join(const char *dir, const char *base, const char *ext)
{
    size_t n = (dir ? strlen(dir) : 0) + strlen(base) + strlen(ext) + 2;
    char *p = malloc(n);
    if (p)
        snprintf(p, n, "%s%s%s%s", dir ? dir : "", dir ? "/" : "", base, ext);
    return p;
}

/* mkdir -p, keeping in *made the shallowest directory it made (NULL when
 * none), so a failed run can remove what it made. Returns 0 or errno. */
static int make_dir(const char *dir, char **made)
{
    *made = NULL;
    char *p = strdup(dir);
    if (!p)
        return ENOMEM;
    int e = 0;
    for (char *q = p + 1;; q++) {
        if (*q == '/' || *q == 0) {
            char c = *q;
            *q = 0;
            if (mkdir(p, 0777) == 0) {
                if (!*made && !(*made = strdup(p)))
                    e = ENOMEM;
            } else if (errno != EEXIST) {
                e = errno;
            }
            *q = c;
            if (!c || e)
                break;
        }
    }
    free(p);
    struct stat st;
    if (!e && stat(dir, &st) != 0)
        e = errno;
    else if (!e && !S_ISDIR(st.st_mode))
        e = ENOTDIR;
    return e;
}

/* Removes `dir` and its parents up to `made` (all made by this run, so
 * empty once the temporary directory is gone). */
static void unmake_dir(const char *dir, const char *made)
{
    char *p = made ? strdup(dir) : NULL;
    if (p)
        cli_rmdir_made(p, strlen(made));
    free(p);
}

static void remove_tmp(const char *tmp)
{
    DIR *d = opendir(tmp);
    struct dirent *e;
    while (d && (e = readdir(d))) {
        if (strcmp(e->d_name, ".") && strcmp(e->d_name, "..")) {
            char *p = join(tmp, e->d_name, "");
            if (p)
                unlink(p);
            free(p);
        }
    }
    if (d)
        closedir(d);
    rmdir(tmp);
}

static bool is_input(const report_set *s, const char *path)
{
    struct stat st;
    return s->input_st && stat(path, &st) == 0 &&
           st.st_dev == s->input_st->st_dev && st.st_ino == s->input_st->st_ino;
}

/* The index of the first file at or after i to write in the lane
 * `beside`, or n. */
static size_t next_in_lane(const set_file *files, size_t n, size_t i,
                           bool beside)
{
    while (i < n &&
           (files[i].action != SET_WRITE || files[i].beside != beside))
        i++;
    return i;
}

/* Writes files[i] into tmp. An exit code. */
static int write_one(const char *tmp, const set_file *f)
{
    char *path = join(tmp, f->name, "");
    int rc = path ? f->write(path, f->arg) : EXIT_INTERNAL;
    free(path);
    return rc;
}

/* Writes the files of one lane in the set's order, up to the first
 * failure. An exit code. */
static int write_lane(const char *tmp, const set_file *files, size_t n,
                      bool beside)
{
    int rc = EXIT_OK;
    for (size_t i = next_in_lane(files, n, 0, beside); i < n && !rc;
         i = next_in_lane(files, n, i + 1, beside))
        rc = write_one(tmp, &files[i]);
    return rc;
}

/* The files marked beside, written in a second thread; its messages held
 * in a memory stream until the calling thread's files are written. */
typedef struct beside {
    const char *tmp;
    const set_file *files;
    size_t n;
    int rc;
    FILE *held;
    char *text;
    size_t len;
    pthread_t thread;
} beside;

static void *beside_run(void *arg)
{
    beside *b = arg;
    cli_hold_messages(b->held);
    b->rc = write_lane(b->tmp, b->files, b->n, true);
    cli_hold_messages(NULL);
    return NULL;
}

/* Starts the second thread; false (nothing started, nothing held) when
 * it cannot be: the caller then writes those files itself. */
static bool beside_start(beside *b)
{
    b->held = open_memstream(&b->text, &b->len);
    if (b->held && cli_thread_start(&b->thread, beside_run, b) == 0)
        return true;
    if (b->held)
        fclose(b->held);
    free(b->text);
    return false;
}

/* Waits for the second thread. rc is what the calling thread's files
 * came to: its failure stands, and the second thread's messages are
 * dropped, as the files after a failure are never written; otherwise its
 * messages are shown, after the calling thread's, and its code is the
 * set's. */
static int beside_end(beside *b, int rc)
{
    pthread_join(b->thread, NULL);
    fclose(b->held);
    if (rc == EXIT_OK) {
        fwrite(b->text, 1, b->len, stderr);
        rc = b->rc;
    }
    free(b->text);
    return rc;
}

/*
 * Writes the files to write into tmp, up to the first failure. The files
 * marked beside (all after the others in the set's order) are written in
 * a second thread, started once the calling thread has written its first
 * file, which they may read (the page embeds the SVG chart); in the
 * calling thread after its own when no thread can be started. An exit
 * code, and the messages, of writing the files one by one in order.
 */
static int write_files(const char *tmp, const set_file *files, size_t n)
{
    beside b = {tmp, files, n, EXIT_OK, NULL, NULL, 0, 0};
    size_t i = next_in_lane(files, n, 0, false);
    int rc = i < n ? write_one(tmp, &files[i]) : EXIT_OK;
    bool two = rc == EXIT_OK && next_in_lane(files, n, 0, true) < n &&
               beside_start(&b);
    while (rc == EXIT_OK && i < n &&
           (i = next_in_lane(files, n, i + 1, false)) < n)
        rc = write_one(tmp, &files[i]);
    if (two)
        return beside_end(&b, rc);
    return rc == EXIT_OK ? write_lane(tmp, files, n, true) : rc;
}

static void human_size(char *buf, size_t n, const char *path)
{
    struct stat st;
    double v = stat(path, &st) == 0 ? (double)st.st_size : 0;
    static const char *const u[] = {"B", "KiB", "MiB", "GiB"};
    int k = 0;
    while (v >= 1024 && k < 3) {
        v /= 1024;
        k++;
    }
    if (k)
        snprintf(buf, n, "%.*f %s", v < 10 ? 2 : v < 100 ? 1 : 0, v, u[k]);
    else
        snprintf(buf, n, "%.0f B", v);
}

/* Moves the new set into place and drops the old set's other files. */
static int swap_in(const char *dir, const char *shown_dir, const char *tmp,
                   const set_file *files, size_t n, bool quiet)
{
    int rc = EXIT_OK;
    for (size_t i = 0; i < n && rc == EXIT_OK; i++) {
        if (files[i].action == SET_KEEP)
            continue;
        char *from = join(tmp, files[i].name, "");
        char *to = join(dir, files[i].name, "");
        char *shown = join(shown_dir, files[i].name, "");
        if (!from || !to || !shown) {
            rc = EXIT_INTERNAL;
        } else if (files[i].action == SET_WRITE) {
            if (rename(from, to) != 0) {
                cli_errorf("%s: cannot rename into place: %s", shown,
                           strerror(errno));
                rc = EXIT_IO;
            } else if (!quiet) {
                char size[32];
                human_size(size, sizeof size, to);
                printf("wrote %s (%s)\n", shown, size);
            }
        } else if (unlink(to) != 0 && errno != ENOENT) {
            cli_errorf("%s: cannot remove the previous run's file: %s", shown,
                       strerror(errno));
            rc = EXIT_IO;
        }
        free(from);
        free(to);
        free(shown);
    }
    return rc;
}

int dir_set_write(const char *dir, const char *shown_dir,
                  const set_file *files, size_t n,
                  bool quiet)
{
    char *made = NULL;
    sigset_t held; /* an interrupt waits until the guard knows the dirs */
    cli_hold_interrupts(&held);
    int e = make_dir(dir, &made);
    if (e) {
        cli_release_interrupts(&held);
        cli_errorf("%s: cannot make the directory: %s", dir, strerror(e));
        free(made);
        return EXIT_IO;
    }
    char *tmp = join(dir, ".heapscope-", "XXXXXX");
    if (!tmp || !mkdtemp(tmp)) {
        int me = errno;
        free(tmp);
        unmake_dir(dir, made);
        cli_release_interrupts(&held);
        cli_errorf("%s: cannot make a temporary directory: %s", dir,
                   strerror(me));
        free(made);
        return EXIT_IO;
    }
    cli_guard_install(); /* a crash or stall in a library removes tmp */
    cli_guard_workdir(tmp);
    cli_guard_made(dir, made);
    cli_release_interrupts(&held);
    cli_guard_watch(true);
    int rc = write_files(tmp, files, n);
    cli_guard_watch(false);
    if (rc == EXIT_OK)
        rc = swap_in(dir, shown_dir ? shown_dir : dir, tmp, files, n, quiet);
    remove_tmp(tmp);
    cli_guard_workdir(NULL);
    free(tmp);
    if (rc != EXIT_OK)
        unmake_dir(dir, made);
    free(made);
    return rc;
}

int report_dir_no_data(const hs_census *c, const char *input)
{
    char why[320];
    cli_errorf("%s: %s", cli_input_name(input),
               cli_no_data_reason(c, "no heap samples, time profile or GC "
                                  "events (run the program with +RTS -h -l "
                                  "or -p -l)", "no heap shots, allocations "
                                  "or GC events (run mono with "
                                  "--profile=log:heapshot, alloc or gc)",
                                  why, sizeof why));
    return EXIT_NO_DATA;
}

int report_dir_make(const char *dir, char **made)
{
    return make_dir(dir, made);
}

void report_dir_unmake(const char *dir, const char *made)
{
    unmake_dir(dir, made);
}

void report_dir_remove(const char *dir)
{
    remove_tmp(dir);
}

static int write_report_file(const char *path, const void *arg)
{
    const report_file *f = arg;
    return cli_write_output("report", f->c, path, render, f, f->set->input,
                            "nothing to write");
}

/* Fills files[i] (and rf[i], links) for output i; false when out of
 * memory. A file that is the input is left alone, said when wanted. */
static bool plan_file(const hs_census *c, const report_set *set, size_t i,
                      set_file *file, report_file *rf, hs_page_link *links,
                      size_t *nlinks, hs_membuf *svg)
{
    char *final = join(set->dir, set->base, outputs[i].ext);
    char *name = join(NULL, set->base, outputs[i].ext);
    bool want = wanted(c, set, outputs[i].w);
    *rf = (report_file){c, set, outputs[i].w, links, 0, svg};
    /* the charts in the calling thread, where the fonts are loaded once;
     * the rest beside them, the page once the SVG it embeds is written */
    *file = (set_file){name, SET_REMOVE, write_report_file, rf,
                       set->two_threads && outputs[i].w != W_SVG &&
                           outputs[i].w != W_PDF};
    if (final && is_input(set, final)) {
        if (want)
            cli_warnf("%s: not written: it is the input (use -d DIR)", final);
        file->action = SET_KEEP;
    } else if (want) {
        file->action = SET_WRITE;
        if (outputs[i].w != W_HTML)
            links[(*nlinks)++] = (hs_page_link){name, NULL};
    }
    free(final);
    return final && name;
}

int report_dir_write(const hs_census *c, const report_set *set)
{
    set_file files[NOUT];
    report_file rf[NOUT];
    hs_page_link links[NOUT];
    size_t nlinks = 0;
    bool ok = true;
    hs_membuf svg = {0};
    for (size_t i = 0; i < NOUT; i++)
        ok &= plan_file(c, set, i, &files[i], &rf[i], links, &nlinks, &svg);
    for (size_t i = 0; i < NOUT; i++)
        rf[i].nlinks = nlinks;
    int rc = ok ? cli_check_charts() : EXIT_INTERNAL;
    if (!ok)
        cli_errorf("out of memory");
    if (rc == EXIT_OK)
        rc = dir_set_write(set->dir, set->shown_dir, files, NOUT, set->quiet);
    for (size_t i = 0; i < NOUT; i++)
        free((char *)files[i].name);
    hs_membuf_free(&svg);
    return rc;
}
