/*
 * Writes a ticky-ticky eventlog for the page's browser test and for
 * looking at: ticky_log OUT.eventlog [COUNTERS [SAMPLES]] (default 60
 * counters, 40 samples). Each sample begins with BEGIN_SAMPLE and has the
 * counters that moved; the definitions come at the end, as the runtime
 * writes them, named "Mod.fK{v sK} (fun)" with a few odd names among
 * them; counter K's allocs per sample rise with the sample for even K and
 * fall for odd K, so sparklines differ.
 */
#include "evwriter.h"
#include <heapscope/heapscope.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void put(evw *w, uint64_t t, hs_event *ev) { evw_write(w, t, ev); }

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: ticky_log OUT.eventlog [COUNTERS [SAMPLES]]\n");
        return 2;
    }
    unsigned nc = argc > 2 ? (unsigned)atoi(argv[2]) : 60;
    unsigned ns = argc > 3 ? (unsigned)atoi(argv[3]) : 40;
    evw w;
    evw_init(&w);
    evw_header_begin(&w);
    evw_declare_ghc92(&w);
    evw_declare_tag(&w, HS_EV_TICKY_COUNTER_DEF);
    evw_declare_tag(&w, HS_EV_TICKY_COUNTER_SAMPLE);
    evw_declare_tag(&w, HS_EV_TICKY_COUNTER_BEGIN_SAMPLE);
    evw_header_end(&w);
    uint64_t t = 1000000;
    for (unsigned s = 0; s < ns; s++, t += 10000000) {
        hs_event ev = {0};
        ev.tag = HS_EV_TICKY_COUNTER_BEGIN_SAMPLE;
        put(&w, t, &ev);
        for (unsigned k = 0; k < nc; k++) {
            if ((k + s) % 5 == 4)
                continue; /* did not move */
            ev.tag = HS_EV_TICKY_COUNTER_SAMPLE;
            ev.u.ticky_sample.id = 0x400000 + 64 * (uint64_t)k;
            ev.u.ticky_sample.entries = (uint64_t)(k + 1) * 100 + s;
            ev.u.ticky_sample.allocs =
                (uint64_t)(nc - k) * 1024 * (k % 2 ? ns - s : s + 1);
            ev.u.ticky_sample.allocd = (uint64_t)(k % 7) * 48 * (s + 1);
            put(&w, t + 1 + k, &ev);
        }
    }
    static const char *const odd[] = {"bad \xff utf-8 (fun)", "<b>html</b> & co",
                                      "=SUM(A1)"};
    for (unsigned k = 0; k < nc; k++) {
        char name[64];
        snprintf(name, sizeof name, "Mod%u.f%u{v s%u} (fun)", k % 4, k, k);
        hs_event ev = {0};
        ev.tag = HS_EV_TICKY_COUNTER_DEF;
        ev.u.ticky_def.id = 0x400000 + 64 * (uint64_t)k;
        ev.u.ticky_def.arity = (uint16_t)(k % 4);
        const char *kinds = k % 4 == 0 ? "" : k % 4 == 1 ? "M" : k % 4 == 2 ? "pM" : "ppv";
        const char *nm = k < 3 ? odd[k] : name;
        ev.u.ticky_def.kinds = (hs_str){kinds, strlen(kinds)};
        ev.u.ticky_def.name = (hs_str){nm, strlen(nm)};
        ev.u.ticky_def.json = (hs_str){"", 0};
        put(&w, t + k, &ev);
    }
    evw_data_end(&w);
    FILE *f = fopen(argv[1], "wb");
    int ok = f && fwrite(w.data, 1, w.len, f) == w.len;
    ok = f && fclose(f) == 0 && ok;
    evw_free(&w);
    if (!ok)
        perror(argv[1]);
    return ok ? 0 : 1;
}
