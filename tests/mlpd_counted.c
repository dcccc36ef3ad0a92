/*
 * Reading a .mlpd event by event or by counting (see mlpd_counted.h).
 */
#include "mlpd_counted.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int count_event(void *user, const hs_mlpd_event *ev)
{
    uint64_t *counts = user;
    if (ev->kind != HS_MLPD_BUFFER)
        counts[ev->byte]++;
    return 0;
}

void mlpd_counted_read(int fd, bool walker, mlpd_counted *o)
{
    memset(o, 0, sizeof *o);
    hs_mlpd_reader *r = hs_mlpd_reader_new();
    if (!r)
        abort();
    o->st = walker ? hs_mlpd_read_fd_count(r, fd, o->counts)
                   : hs_mlpd_read_fd(r, fd, count_event, o->counts);
    o->err = *hs_mlpd_reader_error(r);
    o->skipped = hs_mlpd_reader_skipped(r);
    if (hs_mlpd_reader_skip_warning(r))
        snprintf(o->warning, sizeof o->warning, "%s",
                 hs_mlpd_reader_skip_warning(r));
    o->offset = hs_mlpd_reader_offset(r);
    o->buffers = hs_mlpd_reader_buffers(r);
    hs_mlpd_reader_free(r);
}

bool mlpd_counted_same(const mlpd_counted *a, const mlpd_counted *b)
{
    return a->st == b->st && a->err.code == b->err.code &&
           a->err.offset == b->err.offset &&
           a->err.event_index == b->err.event_index &&
           !strcmp(a->err.message, b->err.message) &&
           a->skipped == b->skipped && !strcmp(a->warning, b->warning) &&
           a->offset == b->offset && a->buffers == b->buffers &&
           !memcmp(a->counts, b->counts, sizeof a->counts);
}
