/*
 * Telling the input formats apart (heapscope/load.h): the one place that
 * decides, for loading a census and for the commands that read an input
 * themselves.
 */
#include "heapscope/load.h"
#include "heapscope/mlpd.h"
#include "common/internal.h"

#include <string.h>

/* The block marker's tag (EVENT_BLOCK_MARKER), big-endian, that a stream
 * from the eventlog socket may begin with before 'hdrb'. */
#define BLOCK_MARKER_TAG 18

hs_format hs_format_sniff(const void *data, size_t n)
{
    static const uint8_t magic[4] = {'h', 'd', 'r', 'b'};
    const uint8_t *b = data;
    if (n == 0)
        return HS_FORMAT_UNKNOWN;
    if (hs_mlpd_sniff(b, n))
        return b[0] == 0x1f ? HS_FORMAT_MLPD_GZIP : HS_FORMAT_MLPD;
    if (memcmp(b, magic, n < 4 ? n : 4) == 0 ||
        (n >= 2 && b[0] == 0 && b[1] == BLOCK_MARKER_TAG))
        return HS_FORMAT_EVENTLOG;
    if (n >= 4 && memcmp(b, "JOB", 3) == 0 && (b[3] == ' ' || b[3] == '\t'))
        return HS_FORMAT_HP;
    unsigned ch = b[0];
    if (ch == '\n' || ch == '\r' || ch == ' ' || ch == '\t' ||
        (ch >= 0x21 && ch < 0x7f))
        return HS_FORMAT_TEXT;
    return HS_FORMAT_UNKNOWN;
}
