/*
 * The HTTP server's routes (see live_route.h): exact paths, GET and HEAD
 * only, nothing from the file system.
 */
#include "live/live_route.h"

#include <string.h>

static const struct route {
    const char *path;
    hs_live_snap kind;
    const char *type;
} routes[] = {
    {"/", HS_SNAP_PAGE, "text/html; charset=utf-8"},
    {"/metrics", HS_SNAP_METRICS, "text/plain; version=0.0.4; charset=utf-8"},
    {"/census.csv", HS_SNAP_CSV, "text/csv; charset=utf-8"},
    {"/summary.json", HS_SNAP_SUMMARY, "application/json"},
    {"/chart.svg", HS_SNAP_CHART, "image/svg+xml"},
    {"/status.json", HS_SNAP_STATUS, "application/json"},
    {"/data.json", HS_SNAP_DATA, "application/json"},
};

#define TEXT_TYPE "text/plain; charset=utf-8"

void hs__http_route(const char *method, const char *url, hs__http_answer *a)
{
    *a = (hs__http_answer){404, TEXT_TYPE, -1,
                           "not found: / /metrics /census.csv /summary.json "
                           "/chart.svg /status.json /data.json\n",
                           NULL};
    if (strcmp(method, "GET") != 0 && strcmp(method, "HEAD") != 0) {
        a->status = 405;
        a->text = "only GET and HEAD\n";
        a->allow = HS__HTTP_ALLOW;
        return;
    }
    for (size_t i = 0; i < sizeof routes / sizeof routes[0]; i++) {
        if (strcmp(url, routes[i].path) == 0) {
            *a = (hs__http_answer){200, routes[i].type, (int)routes[i].kind,
                                   NULL, NULL};
            return;
        }
    }
}
