/*
 * Writes the -hi eventlog the browser tests open (GHC 9.0 has no -hi):
 *   hilog OUT.eventlog
 * Twenty samples 50 ms apart of six info tables with IPE records in two
 * modules and two source files, and one address without a record:
 *   leaky_info   (Leak, Leak.hs)     grows all along: still growing
 *   late_info    (Leak, Leak.hs)     flat, then grows in the last third
 *   cache_info   (Data.Cache)        constant
 *   spike_info   (Data.Cache)        one spike, then rises a little, low
 *   drain_info   (Leak, Leak.hs)     shrinks
 *   list_info    (Data.Cache)        a closure with spaces in its type
 *   0x7000       no record
 */
#include "evwriter.h"

#include <stdio.h>

typedef struct table {
    uint64_t addr;
    const char *name, *closure, *type, *label, *module, *src;
} table;

static const table tables[] = {
    {0x4010, "leaky_info", "THUNK", "Map Int [Char]", "leaky", "Leak",
     "Leak.hs:6:34-37"},
    {0x4020, "late_info", "THUNK", "[Int]", "late", "Leak", "Leak.hs:12:5-40"},
    {0x4030, "cache_info", "CONSTR_2_0", "Cache", "Cache", "Data.Cache",
     "src/Data/Cache.hs:20:3-30"},
    {0x4040, "spike_info", "FUN", "Int -> Int", "spike", "Data.Cache",
     "src/Data/Cache.hs:31:1-22"},
    {0x4050, "drain_info", "THUNK", "IO ()", "drain", "Leak",
     "Leak.hs:(20,1)-(24,30)"},
    {0x4060, "list_info", "CONSTR", "Maybe (Int, Int)", "go", "Data.Cache",
     "src/Data/Cache.hs:40:7-9"},
};

static uint64_t bytes_of(size_t k, uint64_t i)
{
    switch (k) {
    case 0: return 4096 * (i + 1);
    case 1: return i < 14 ? 8000 : 8000 + 6000 * (i - 13);
    case 2: return 20000;
    case 3: return i == 5 ? 90000 : i >= 17 ? 800 * (i - 16) : 0;
    case 4: return 60000 - 2800 * i;
    default: return 1000 + 16 * (i % 3);
    }
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: hilog OUT.eventlog\n");
        return 2;
    }
    evw w;
    evw_start_ghc92(&w);
    for (size_t k = 0; k < sizeof tables / sizeof *tables; k++) {
        const table *t = &tables[k];
        evw_ipe(&w, 0, t->addr, t->name, t->closure, t->type, t->label,
                t->module, t->src);
    }
    evw_heap_prof_begin(&w, 0, 50000000, 8); /* -hi */
    for (uint64_t i = 0; i < 20; i++) {
        uint64_t t = (i + 1) * 50000000u;
        evw_sample_begin(&w, t, i);
        for (size_t k = 0; k < sizeof tables / sizeof *tables; k++) {
            char addr[24];
            uint64_t b = bytes_of(k, i);
            snprintf(addr, sizeof addr, "0x%llx",
                     (unsigned long long)tables[k].addr);
            if (b)
                evw_sample_string(&w, t, b, addr);
        }
        evw_sample_string(&w, t, 512, "0x7000");
        evw_sample_end(&w, t, i);
    }
    evw_data_end(&w);
    FILE *f = fopen(argv[1], "wb");
    int ok = f && fwrite(w.data, 1, w.len, f) == w.len;
    if (f && fclose(f) != 0)
        ok = 0;
    evw_free(&w);
    if (!ok)
        perror(argv[1]);
    return ok ? 0 : 1;
}
