/*
 * A written log for the page's user messages (test_page, page_tool msglog
 * and the browser tests): -hT censuses every 10 ms over one second, two
 * user markers, and n user messages (traceEvent) spread evenly over the
 * run. Message 0 holds markup ("</script><script>..."), message 1 bytes
 * that are not UTF-8, message 2 a text longer than the page's bound made of
 * two-byte characters; the rest read "tick I" (every 1000th "phase I").
 */
#ifndef HEAPSCOPE_TEST_MSGLOG_H
#define HEAPSCOPE_TEST_MSGLOG_H

#include "evwriter.h"

#define MSGLOG_SCRIPT "</script><script>alert(1)</script>"
#define MSGLOG_ODD "odd \xff\xfe bytes & <b>"

void msglog_build(evw *w, size_t n);

#endif
