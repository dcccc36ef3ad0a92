#include "msglog.h"

#include <heapscope/events.h>

#include <stdio.h>
#include <string.h>

#define SECOND 1000000000ull

/* Message i of n: from 5 ms to 995 ms, evenly. */
static uint64_t msg_time(size_t i, size_t n)
{
    return 5000000ull + (SECOND - 10000000ull) / (n ? n : 1) * i;
}

static void message(evw *w, size_t i, size_t n)
{
    uint64_t t = msg_time(i, n);
    char text[1024];
    if (i == 0)
        snprintf(text, sizeof text, "%s", MSGLOG_SCRIPT);
    else if (i == 1)
        snprintf(text, sizeof text, "%s", MSGLOG_ODD);
    else if (i == 2) {
        /* 400 bytes of "é" (C3 A9): cut at a character boundary */
        for (size_t k = 0; k < 200; k++)
            memcpy(text + 2 * k, "\xc3\xa9", 2);
        text[400] = 0;
    } else if (i % 1000 == 0)
        snprintf(text, sizeof text, "phase %zu", i / 1000);
    else
        snprintf(text, sizeof text, "tick %zu", i);
    evw_string_event(w, HS_EV_USER_MSG, t, text);
}

void msglog_build(evw *w, size_t n)
{
    evw_start_ghc92(w);
    evw_heap_prof_begin(w, 1, 10000000, 7);
    size_t next = 0;
    for (uint64_t k = 0; k <= 100; k++) {
        uint64_t t = k * 10000000ull;
        /* the messages up to this census, in time order */
        while (next < n && msg_time(next, n) < t)
            message(w, next++, n);
        evw_sample_begin(w, t + 1, k);
        evw_sample_string(w, t + 2, 1000 * (k + 1), "ARR_WORDS");
        evw_sample_string(w, t + 3, 50000, "THUNK");
        evw_sample_end(w, t + 4, k);
        if (k == 30 || k == 70)
            evw_string_event(w, HS_EV_USER_MARKER, t + 5,
                             k == 30 ? "start work" : "end work");
    }
    while (next < n)
        message(w, next++, n);
    evw_data_end(w);
}
