/*
 * The run's facts from PROGRAM_ARGS, kept raw: the arguments as the
 * program got them. The .hp JOB and DATE texts are the hp renderer's
 * business (render_hp.c), built from these facts and the wall clock.
 */
#include "heapscope/reader.h"
#include "census/census_impl.h"

#include <string.h>

/* PROGRAM_ARGS: NUL-terminated arguments, argv[0] first; the first event
 * stands (a forked program may write its own). */
int hs__census_set_program(hs_census *c, const hs_event *ev)
{
    if (c->info.program)
        return HS_OK;
    hs_str raw = ev->u.args.raw;
    const char *s = raw.ptr ? raw.ptr : "";
    /* Arguments are the pieces between NULs; a NUL at the very end ends
     * the last one rather than starting an empty one. argv[0] is always
     * there, possibly empty. */
    size_t n = 1;
    for (size_t i = 0; i < raw.len; i++)
        if (s[i] == 0 && i + 1 < raw.len)
            n++;
    const char **argv = hs_arena_alloc(&c->arena, n * sizeof *argv);
    if (!argv)
        return hs__census_nomem(c);
    size_t k = 0, start = 0;
    for (size_t i = 0; i <= raw.len && k < n; i++) {
        if (i < raw.len && s[i] != 0)
            continue;
        argv[k] = hs_arena_strndup(&c->arena, s + start, i - start);
        if (!argv[k++])
            return hs__census_nomem(c);
        start = i + 1;
    }
    c->info.argv = argv;
    c->info.argc = k;
    c->info.program = argv[0];
    return HS_OK;
}
