/*
 * libFuzzer target for the HTTP server's routing (src/live/live_route.c,
 * what live_http.c answers every request with).
 *
 * Input: a method, a newline, the path as a client sent it (libmicrohttpd
 * hands both over as C strings, so a NUL ends either), and anything after
 * a second newline (the version, which routing does not read). Checked:
 * only GET and HEAD are served, every other method is 405 with exactly
 * "Allow: GET, HEAD"; a snapshot is served only at exactly one of the
 * documented paths (an escaped or longer path such as "/%00" or
 * "/metrics/../" is 404); headers carry no control bytes; every answer
 * that is not a snapshot has a body.
 */
#include "fuzz_common.h"
#include "live/live_route.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The documented paths and what they serve (README, `watch --http`),
 * written out here as the oracle. */
static const struct {
    const char *path;
    int snap;
} documented[] = {
    {"/", HS_SNAP_PAGE},          {"/metrics", HS_SNAP_METRICS},
    {"/census.csv", HS_SNAP_CSV}, {"/summary.json", HS_SNAP_SUMMARY},
    {"/chart.svg", HS_SNAP_CHART}, {"/status.json", HS_SNAP_STATUS},
    {"/data.json", HS_SNAP_DATA},
};

static int documented_snap(const char *url)
{
    for (size_t i = 0; i < sizeof documented / sizeof *documented; i++)
        if (strcmp(url, documented[i].path) == 0)
            return documented[i].snap;
    return -1;
}

/* A header value: printable ASCII only, so no header can be split. */
static void check_header_value(const char *v)
{
    CHECK(v != NULL && v[0] != 0);
    for (const char *p = v; *p; p++)
        CHECK(*p >= 0x20 && *p < 0x7f);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > 4096)
        return 0;
    /* method \n url [\n rest]; each part ends at its first NUL too */
    char *buf = malloc(size + 2);
    CHECK(buf != NULL);
    memcpy(buf, data, size);
    buf[size] = buf[size + 1] = 0;
    char *method = buf, *url = memchr(buf, '\n', size);
    if (url) {
        *url++ = 0;
        char *rest = strchr(url, '\n');
        if (rest)
            *rest = 0;
    } else {
        url = buf + size + 1; /* "" */
    }

    hs__http_answer a;
    hs__http_route(method, url, &a);
    bool get = strcmp(method, "GET") == 0 || strcmp(method, "HEAD") == 0;
    int want = documented_snap(url);

    check_header_value(a.type);
    CHECK(a.status == 200 || a.status == 404 || a.status == 405);
    CHECK((a.status == 405) == !get);
    CHECK((a.allow != NULL) == (a.status == 405));
    if (a.allow)
        CHECK(strcmp(a.allow, "GET, HEAD") == 0);
    CHECK((a.status == 200) == (get && want >= 0));
    CHECK((a.snap >= 0) == (a.status == 200));
    CHECK(a.snap == (a.status == 200 ? want : -1));
    CHECK(a.snap < HS_SNAP_COUNT);
    CHECK((a.text == NULL) == (a.snap >= 0));
    if (a.text)
        CHECK(a.text[0] != 0);
    /* An escape never reaches a snapshot, whatever it decodes to. */
    if (strchr(url, '%'))
        CHECK(a.status != 200);
    free(buf);
    return 0;
}
