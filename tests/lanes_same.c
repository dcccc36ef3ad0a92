/*
 * One log read both ways into outcomes that compare whole (lanes_same.h).
 */
#include "lanes_same.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* strdup that aborts: a test cannot go on without its text */
static char *dup_text(const char *s)
{
    char *t = strdup(s ? s : "");
    if (!t)
        abort();
    return t;
}

char *onepass_text(const hs_summary *s, bool json)
{
    hs_membuf m = {0};
    hs_sink k = hs_membuf_sink(&m);
    if (json)
        hs_summary_render_json(s, &k);
    else
        hs_summary_render_text(s, &k);
    char *t = dup_text(m.data);
    hs_membuf_free(&m);
    return t;
}

char *onepass_join(char *a, char *b)
{
    char *both = malloc(strlen(a) + strlen(b) + 1);
    if (!both)
        abort();
    strcpy(both, a);
    strcat(both, b);
    free(a);
    free(b);
    return both;
}

char *onepass_csv(const hs_census *c)
{
    hs_membuf m = {0};
    hs_sink k = hs_membuf_sink(&m);
    hs_render_csv(c, &k, HS_CSV_LONG);
    char *t = dup_text(m.data);
    hs_membuf_free(&m);
    return t;
}

/* --- the lent thread --------------------------------------------------- */

static void *loan_run(void *arg)
{
    lanes_loan *l = arg;
    l->fn(l->arg);
    return NULL;
}

static int loan_start(void *user, void (*fn)(void *), void *arg)
{
    lanes_loan *l = user;
    l->fn = fn;
    l->arg = arg;
    l->starts++;
    return pthread_create(&l->thread, NULL, loan_run, l);
}

static void loan_join(void *user)
{
    pthread_join(((lanes_loan *)user)->thread, NULL);
}

void lanes_loan_init(lanes_loan *l)
{
    memset(l, 0, sizeof *l);
    hs_thread_loan_init(&l->loan);
    l->loan.start = loan_start;
    l->loan.join = loan_join;
    l->loan.user = l;
}

/* --- the outcomes ------------------------------------------------------ */

void lanes_summary_outcome(int fd, const hs_summary_window *w,
                           const hs_thread_loan *loan, lanes_outcome *o)
{
    memset(o, 0, sizeof *o);
    hs_summary *s = hs_summary_new();
    hs_reader *r = hs_reader_new();
    if (!s || !r || hs_summary_set_input(s, "log") != HS_OK ||
        (w && hs_summary_set_window(s, w) != HS_OK))
        abort();
    o->st = loan ? hs_summary_load_fd_lent(s, r, fd, loan)
                 : hs_summary_load_fd(s, r, fd);
    o->rerr = *hs_reader_error(r);
    o->serr = *hs_summary_error(s);
    snprintf(o->warning, sizeof o->warning, "%s",
             hs_reader_warning(r) ? hs_reader_warning(r) : "");
    o->offset = hs_reader_offset(r);
    o->finish = hs_summary_finish(s);
    o->text = onepass_text(s, true);
    const hs_summary_stats *st = hs_summary_get_stats(s);
    o->end_ns = st ? st->to_ns : 0;
    hs_reader_free(r);
    hs_summary_free(s);
}

/* What a census shows of the events the lanes hand it, as text: its
 * figures, heap lines, markers, messages and warnings, and its CSV. */
static char *census_text(const hs_census *c)
{
    const hs_census_info *in = hs_census_get_info(c);
    hs_membuf m = {0};
    hs_sink k = hs_membuf_sink(&m);
    hs_sink_printf(&k, "%llu %llu %u %d %llu %llu %llu %u\n",
                   (unsigned long long)in->events,
                   (unsigned long long)in->end_time_ns, in->capabilities,
                   in->complete, (unsigned long long)in->cut_offset,
                   (unsigned long long)in->time_samples,
                   (unsigned long long)in->cost_centres, in->breakdown);
    for (int line = 0; line < HS_LINE_COUNT; line++) {
        const hs_census_point *pt;
        size_t n = hs_census_heap_line(c, (hs_heap_line)line, &pt);
        for (size_t i = 0; i < n; i++)
            hs_sink_printf(&k, "L%d %llu %llu\n", line,
                           (unsigned long long)pt[i].time_ns,
                           (unsigned long long)pt[i].bytes);
    }
    for (size_t i = 0; i < hs_census_marker_count(c); i++)
        hs_sink_printf(&k, "M %llu %s\n",
                       (unsigned long long)hs_census_marker_at(c, i)->time_ns,
                       hs_census_marker_at(c, i)->text);
    for (size_t i = 0; i < hs_census_message_count(c); i++)
        hs_sink_printf(&k, "U %s\n", hs_census_message_at(c, i)->text);
    for (size_t i = 0; i < hs_census_warning_count(c); i++)
        hs_sink_printf(&k, "W %s\n", hs_census_warning(c, i));
    char *csv = onepass_csv(c);
    hs_sink_printf(&k, "%s", csv);
    free(csv);
    char *t = dup_text(m.data);
    hs_membuf_free(&m);
    return t;
}

void lanes_census_outcome(int fd, const hs_thread_loan *loan,
                          bool with_summary, lanes_outcome *o)
{
    memset(o, 0, sizeof *o);
    hs_census *c = hs_census_new();
    hs_summary *s = with_summary ? hs_summary_new() : NULL;
    if (!c || (with_summary && !s))
        abort();
    o->st = loan ? hs_census_load_summary_fd_lent(c, s, fd, loan, &o->rerr)
                 : hs_census_load_summary_fd(c, s, fd, &o->rerr);
    if (s) {
        o->finish = hs_summary_finish(s);
        o->serr = *hs_summary_error(s);
    }
    o->text = onepass_join(o->st >= 0 ? census_text(c) : dup_text(""),
                           s ? onepass_text(s, true) : dup_text(""));
    hs_summary_free(s);
    hs_census_free(c);
}

void lanes_path_outcome(int fd, lanes_path path, const hs_summary_window *w,
                        const hs_thread_loan *loan, lanes_outcome *o)
{
    if (path == LANES_SUMMARY)
        lanes_summary_outcome(fd, w, loan, o);
    else
        lanes_census_outcome(fd, loan, path == LANES_CENSUS, o);
}

static bool same_error(const hs_error *a, const hs_error *b)
{
    return a->code == b->code && a->offset == b->offset &&
           a->event_index == b->event_index &&
           strcmp(a->message, b->message) == 0;
}

bool lanes_same_outcome(const lanes_outcome *a, const lanes_outcome *b)
{
    return a->st == b->st && a->finish == b->finish &&
           same_error(&a->rerr, &b->rerr) && same_error(&a->serr, &b->serr) &&
           strcmp(a->warning, b->warning) == 0 && a->offset == b->offset &&
           strcmp(a->text, b->text) == 0;
}

void lanes_outcome_free(lanes_outcome *o)
{
    free(o->text);
    o->text = NULL;
}
