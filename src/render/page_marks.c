/*
 * The page's timed texts: the user markers, every one, and the user
 * messages (traceEvent), bounded. A log may hold millions of messages; the
 * page carries at most HS_PAGE_MAX_MESSAGES of them, each cut to
 * HS_PAGE_MESSAGE_BYTES bytes at a character boundary, so the page stays
 * a few MiB whatever the log. Past the bound it carries every k-th message
 * (k the smallest step that fits), spread over the run as the messages
 * are, and says so: "total" and "step" in the data, which the page shows.
 * Texts go through the one JSON writer (invalid UTF-8 as U+FFFD); the
 * script sink around the data escapes '<', '>' and '&'.
 */
#include "render/page_internal.h"
#include "common/json.h"

#include <stdint.h>
#include <string.h>

/* The length of s cut to at most max bytes, not inside a character. */
size_t hs__page_text_cut(const char *s, size_t len, size_t max)
{
    if (len <= max)
        return len;
    size_t at = 0;
    while (at < len) {
        size_t k = hs_utf8_char_len(s + at, len - at);
        if (!k)
            k = 1; /* a stray byte: written as U+FFFD by itself */
        if (at + k > max)
            break;
        at += k;
    }
    return at;
}

typedef const hs_census_marker *(*mark_at)(const hs_census *, size_t);

/* Every step-th text of a list from its first: [[time us, text], ...]. */
static void out_list(hs_outbuf *o, mark_at at, const hs_census *c, size_t n,
                     size_t step, size_t cut)
{
    hs_outbuf_putc(o, '[');
    for (size_t i = 0; i < n; i += step) {
        const hs_census_marker *m = at(c, i);
        size_t len = strlen(m->text);
        hs_outbuf_puts(o, i ? ",[" : "[");
        hs_outbuf_u64(o, hs__page_us(m->time_ns));
        hs_outbuf_putc(o, ',');
        hs_json_outbuf_string(o, m->text, hs__page_text_cut(m->text, len, cut));
        hs_outbuf_putc(o, ']');
    }
    hs_outbuf_putc(o, ']');
}

void hs__page_marks(hs_outbuf *o, const hs_census *c)
{
    hs_outbuf_puts(o, "\"markers\":");
    out_list(o, hs_census_marker_at, c, hs_census_marker_count(c), 1,
             SIZE_MAX);
    size_t n = hs_census_message_count(c);
    size_t step = n > HS_PAGE_MAX_MESSAGES
                      ? (n + HS_PAGE_MAX_MESSAGES - 1) / HS_PAGE_MAX_MESSAGES
                      : 1;
    hs_outbuf_puts(o, ",\n\"msgs\":{\"total\":");
    hs_outbuf_u64(o, n);
    hs_outbuf_puts(o, ",\"step\":");
    hs_outbuf_u64(o, step);
    hs_outbuf_puts(o, ",\"cut\":");
    hs_outbuf_u64(o, HS_PAGE_MESSAGE_BYTES);
    hs_outbuf_puts(o, ",\"list\":");
    out_list(o, hs_census_message_at, c, n, step, HS_PAGE_MESSAGE_BYTES);
    hs_outbuf_puts(o, "},\n");
}
