/*
 * The HTTP server's calls in a build without libmicrohttpd: starting one
 * says so; the rest are never reached.
 */
#include "heapscope/live.h"
#include "common/internal.h"

#include <stdio.h>
#include <string.h>

bool hs_live_server_available(void) { return false; }

hs_live_server *hs_live_server_start(const char *addr, unsigned port,
                                     unsigned max_connections, hs_error *err)
{
    (void)addr;
    (void)port;
    (void)max_connections;
    hs__error_clear(err);
    hs__error_set(err, HS_ERR_INVALID, NULL,
                  "this heapscope was built without libmicrohttpd: no --http");
    return NULL;
}

unsigned hs_live_server_port(const hs_live_server *s) { (void)s; return 0; }
unsigned hs_live_server_wanted(hs_live_server *s) { (void)s; return 0; }
void hs_live_server_invalidate(hs_live_server *s) { (void)s; }

int hs_live_server_publish(hs_live_server *s, hs_live_snap kind,
                           const void *data, size_t len)
{
    (void)s;
    (void)kind;
    (void)data;
    (void)len;
    return HS_ERR_INVALID;
}

void hs_live_server_stop(hs_live_server *s) { (void)s; }
