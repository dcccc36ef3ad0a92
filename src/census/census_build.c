/*
 * The builder other readers use (census_build.h): the same sample path
 * as the eventlog's events, with bands named by their label bytes.
 */
#include "census/census_impl.h"
#include "census/census_build.h"
#include "heapscope/reader.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

static int usable(const hs_census *c)
{
    return c->error ? c->error : c->finished ? HS_ERR_MISUSE : HS_OK;
}

int hs__census_build_begin(hs_census *c, hs_source_kind source)
{
    int st = usable(c);
    if (!st)
        c->info.source = source;
    return st;
}

int hs__census_build_sample_begin(hs_census *c, uint64_t time_ns)
{
    int st = usable(c);
    return st ? st : hs__census_open_sample(c, time_ns);
}

int hs__census_build_reserve(hs_census *c, size_t n)
{
    int st = usable(c);
    if (st)
        return st;
    if (n > SIZE_MAX - c->nsamples ||
        !hs_grow(c->alloc, (void **)&c->samples, &c->cap_samples,
                 c->nsamples + n, sizeof *c->samples))
        return hs__census_nomem(c);
    return HS_OK;
}

int hs__census_build_bytes(hs_census *c, const char *name, size_t len,
                           uint64_t bytes)
{
    int st = usable(c);
    return st ? st : hs__census_string_entry(c, name, len, bytes);
}

int hs__census_build_sample_end(hs_census *c)
{
    int st = usable(c);
    if (!st)
        c->open = false;
    return st;
}

int hs__census_build_marker(hs_census *c, uint64_t time_ns, const char *text,
                            size_t len)
{
    int st = usable(c);
    return st ? st : hs__census_add_mark(c, CENSUS_MARKERS, time_ns,
                                           (hs_str){text, len});
}

static int set_str(hs_census *c, const char **field, const char *s)
{
    if (!s)
        return HS_OK;
    *field = hs_arena_strndup(&c->arena, s, strlen(s));
    return *field ? HS_OK : hs__census_nomem(c);
}

int hs__census_build_run(hs_census *c, const hs_census_run *run)
{
    int st = usable(c);
    if (st)
        return st;
    if ((st = set_str(c, &c->info.program, run->program)) ||
        (st = set_str(c, &c->info.job, run->job)) ||
        (st = set_str(c, &c->info.date, run->date)))
        return st;
    if (run->has_wall_clock) {
        c->info.has_wall_clock = true;
        c->info.wall_clock_sec = run->wall_clock_sec;
        c->info.wall_clock_nsec = run->wall_clock_nsec;
    }
    if (run->breakdown)
        c->info.breakdown = run->breakdown;
    if (run->sample_period_ns)
        c->info.sample_period_ns = run->sample_period_ns;
    if (run->end_ns > c->info.end_time_ns)
        c->info.end_time_ns = run->end_ns;
    return HS_OK;
}

int hs__census_build_cost_centre(hs_census *c, uint32_t id, const char *label)
{
    int st = usable(c);
    if (st)
        return st;
    hs_event ev;
    memset(&ev, 0, sizeof ev);
    ev.u.cost_centre.id = id;
    ev.u.cost_centre.label = (hs_str){label, strlen(label)};
    ev.u.cost_centre.module = ev.u.cost_centre.srcloc = (hs_str){"", 0};
    return hs__census_add_cost_centre(c, &ev);
}

int hs__census_build_time_sample(hs_census *c, const uint32_t *ids,
                                 uint32_t depth, uint64_t tick_ns,
                                 uint64_t time_ns)
{
    int st = usable(c);
    if (st)
        return st;
    const uint8_t *be = depth <= UINT32_MAX / 4
                            ? hs__census_to_be(c, ids, depth) : NULL;
    if (!be)
        return hs__census_nomem(c);
    if (!c->info.tick_interval_ns)
        c->info.tick_interval_ns = tick_ns;
    return hs__census_add_prof_sample(c, time_ns, be, depth, 0);
}

void hs__census_build_warn(hs_census *c, const char *fmt, ...)
{
    char buf[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    hs__census_warnf(c, "%s", buf);
}
