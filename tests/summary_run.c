/*
 * The summary tests' helpers (test_summary*.c): a log summarised from
 * memory in chunks, and a summary rendered as text or JSON.
 */
#include "summary_run.h"

#include <CUnit/Basic.h>

#include <stdlib.h>
#include <string.h>

/*
 * Summarises a log held in memory, fed to the reader in chunks of
 * `chunk` bytes, with an optional window. Returns the finished summary
 * (caller frees) and hs_summary_finish()'s status in *fin.
 */
hs_summary *summarise(const uint8_t *data, size_t len, size_t chunk,
                             const hs_summary_window *w, int *fin)
{
    hs_summary *s = hs_summary_new();
    hs_reader *r = hs_reader_new();
    CU_ASSERT_FATAL(s && r);
    if (w)
        CU_ASSERT_EQUAL(hs_summary_set_window(s, w), HS_OK);
    int st = HS_NEED_INPUT;
    for (size_t off = 0; off < len && st != HS_DONE && st >= 0;) {
        size_t n = len - off < chunk ? len - off : chunk;
        hs_reader_feed(r, data + off, n);
        off += n;
        hs_event ev;
        while ((st = hs_reader_next(r, &ev)) == HS_EVENT)
            CU_ASSERT_EQUAL(hs_summary_add_event(s, &ev), HS_OK);
    }
    st = hs_reader_finish(r);
    CU_ASSERT(st == HS_DONE || st == HS_TRUNCATED);
    hs_reader_free(r);
    *fin = hs_summary_finish(s);
    return s;
}

char *summary_render(const hs_summary *s, bool json)
{
    hs_membuf m = {0};
    hs_sink k = hs_membuf_sink(&m);
    int st = json ? hs_summary_render_json(s, &k)
                  : hs_summary_render_text(s, &k);
    CU_ASSERT_EQUAL(st, HS_OK);
    char *t = strdup(m.data ? m.data : "");
    hs_membuf_free(&m);
    return t;
}
