/*
 * heapscope watch: what it writes besides status lines. The -d report set
 * (the files `heapscope report` writes, swapped in as a whole: set_dir.h,
 * so a reader always finds one complete set) and the snapshots the HTTP server
 * hands out. Both are rendered on the reader's thread, which owns the
 * census.
 */
#include "watch.h"
#include "report_dir.h"

#include <stdlib.h>
#include <string.h>

/* The outputs' name: the program's when the log gives it and the source's
 * own name says nothing of it (a FIFO, standard input, a socket); else the
 * source's (a followed file is named as report names it). */
static const char *base_name(const watch *w)
{
    if (!w->src || !w->live || hs_live_source_kind_of(w->src) == HS_LIVE_FILE)
        return w->base;
    const char *p = hs_census_get_info(hs_live_census(w->live))->program;
    const char *slash = p ? strrchr(p, '/') : NULL;
    if (slash)
        p = slash + 1;
    if (!p || !*p || strcmp(p, ".") == 0 || strcmp(p, "..") == 0)
        return w->base;
    return p;
}

char *watch_run_name(const watch *w)
{
    const char *base = base_name(w);
    size_t n = strlen(base) + 32;
    char *s = malloc(n);
    if (!s)
        return NULL;
    if (w->run <= 1)
        snprintf(s, n, "%s", base);
    else
        snprintf(s, n, "%s-run%u", base, w->run);
    return s;
}

/* The stream's GC summary so far as JSON, for the page's GC tab (the
 * page takes it as text: renderers do not depend on the summary). Given
 * when report gives one for the same bytes: the log has GC statistics. */
static void summary_json(watch *w, hs_membuf *m)
{
    hs_summary *sum = hs_live_summary(w->live);
    if (strcmp(w->state, "running") == 0)
        hs_summary_snapshot(sum);
    hs_sink s = hs_membuf_sink(m);
    if (hs_summary_error(sum)->code != HS_OK ||
        !hs_summary_get_stats(sum)->has_gc ||
        hs_summary_render_json(sum, &s) != HS_OK)
        hs_membuf_free(m);
}

/* `heapscope report`'s set, as it writes it (report_dir.c), with the
 * stream's own GC summary for the page: heap samples, a time profile or
 * GC figures are enough for a set, as they are for report. */
int watch_write_dir(watch *w, bool final)
{
    const hs_census *c = hs_live_census(w->live);
    hs_membuf gc = {0};
    summary_json(w, &gc);
    if (!hs_census_sample_count(c) && !hs_census_tprof_count(c) && !gc.data)
        return final ? report_dir_no_data(c, w->spec) : EXIT_OK;
    char *name = watch_run_name(w), *path = NULL;
    int rc = name ? set_dir_begin(&w->sets, &path) : EXIT_INTERNAL;
    if (rc == EXIT_OK) {
        report_set set;
        report_set_init(&set);
        set.dir = path;
        set.shown_dir = w->sets.dir;
        set.base = name;
        set.input = w->spec;
        set.gc_json = gc.data;
        set.quiet = !final || w->json;
        rc = report_dir_write(c, &set);
        if (rc == EXIT_OK)
            rc = set_dir_commit(&w->sets, path);
        else
            set_dir_abort(&w->sets, path);
    }
    hs_membuf_free(&gc);
    free(name);
    if (rc && !final)
        cli_warnf("the report in %s is not updated this time; its previous "
                  "files stay", w->dir);
    return final ? rc : EXIT_OK;
}

/* --- HTTP snapshots --------------------------------------------------- */

/* The status object with the stream's error added for the page. */
static int render_status(watch *w, hs_sink *out)
{
    hs_live_metrics m;
    if (hs_live_get_metrics(w->live, &m) != HS_OK)
        memset(&m, 0, sizeof m);
    return hs_live_render_status(w->live, &m, out, w->state, w->error);
}

static int render_snap(watch *w, hs_live_snap kind, hs_sink *out)
{
    hs_census *c = hs_live_census(w->live);
    hs_live_metrics m;
    switch (kind) {
    case HS_SNAP_PAGE:
    case HS_SNAP_DATA: {
        /* The library's live page from the first byte: heap lines and GC
         * figures before the first census, and why it is not there yet. */
        hs_page_options po;
        hs_page_options_init(&po);
        po.input = w->spec;
        po.live_url = "/data.json";
        po.live_interval_ms = (unsigned)(w->interval * 1000);
        po.notice = w->hint;
        hs_membuf gc = {0};
        summary_json(w, &gc);
        po.gc_json = gc.data;
        int st = kind == HS_SNAP_PAGE ? hs_render_page(c, out, &po)
                                      : hs_render_page_data(c, out, &po);
        hs_membuf_free(&gc);
        return st;
    }
    case HS_SNAP_METRICS:
        if (hs_live_get_metrics(w->live, &m) != HS_OK)
            return HS_ERR_NO_DATA;
        return hs_live_render_prometheus(w->live, &m, out, w->top);
    case HS_SNAP_CSV:
        return hs_render_csv(c, out, HS_CSV_LONG);
    case HS_SNAP_SUMMARY:
        if (strcmp(w->state, "running") == 0)
            hs_summary_snapshot(hs_live_summary(w->live));
        return hs_summary_render_json(hs_live_summary(w->live), out);
    case HS_SNAP_CHART: {
        hs_chart_options co;
        hs_chart_options_init(&co);
        return hs_chart_available() ? hs_render_chart(c, out, &co)
                                    : HS_ERR_NO_DATA;
    }
    case HS_SNAP_STATUS:
        return render_status(w, out);
    default:
        return HS_ERR_INVALID;
    }
}

void watch_serve(watch *w, unsigned wanted)
{
    for (int k = 0; k < HS_SNAP_COUNT; k++) {
        if (!(wanted & (1u << k)))
            continue;
        hs_membuf m = {0};
        hs_sink s = hs_membuf_sink(&m);
        /* A snapshot that cannot be rendered (no samples yet) is left
         * unpublished: the client gets the previous one, or 503. */
        if (render_snap(w, (hs_live_snap)k, &s) == HS_OK)
            hs_live_server_publish(w->srv, (hs_live_snap)k, m.data, m.len);
        hs_membuf_free(&m);
    }
}
