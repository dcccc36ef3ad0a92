/*
 * The HTTP server's routing on its own: a request's method and path to
 * what the answer is, without sockets or libmicrohttpd, so that the fuzz
 * target (tests/fuzz/fuzz_http.c) drives exactly what the server serves.
 * Internal to src/live/.
 */
#ifndef HEAPSCOPE_LIVE_ROUTE_H
#define HEAPSCOPE_LIVE_ROUTE_H

#include "heapscope/live.h"

/* What to answer. A route to a snapshot is status 200, whose body the
 * server copies from snapshot `snap` (503 while there is none yet);
 * every other answer has the static body `text`. */
typedef struct hs__http_answer {
    unsigned status;   /* 200, 404 or 405 */
    const char *type;  /* the Content-Type */
    int snap;          /* an hs_live_snap, or -1: the body is `text` */
    const char *text;  /* the body when snap < 0, else NULL */
    const char *allow; /* the Allow header (405), else NULL */
} hs__http_answer;

/* The methods every path allows, as the Allow header lists them. */
#define HS__HTTP_ALLOW "GET, HEAD"

/*
 * Routes method and url, the path as the client sent it: not unescaped
 * (the server installs an unescaper that leaves it alone), so "/%00" or
 * "/%6detrics" is no route's path but a 404. The query is not part of it.
 */
void hs__http_route(const char *method, const char *url, hs__http_answer *a);

#endif
