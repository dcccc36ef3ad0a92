/*
 * The eventlog reader object and its settings: making and freeing it,
 * which tags it decodes, and what it can say about the stream so far
 * (read_eventlog.c frames the events).
 */
#include "heapscope/reader.h"
#include "common/internal.h"
#include "read/eventlog_internal.h"

#include <string.h>

hs_reader *hs_reader_new(void)
{
    return hs_reader_new_with(NULL);
}

hs_reader *hs_reader_new_with(const hs_allocator *alloc)
{
    hs_reader *r = hs_calloc(alloc, 1, sizeof *r);
    if (!r)
        return NULL;
    r->alloc = hs_alloc_copy(&r->alloc_store, alloc);
    r->type_info = hs_calloc(r->alloc, TYPE_INFO_START, sizeof *r->type_info);
    r->type_ntags = TYPE_INFO_START;
    r->stage = hs_malloc(r->alloc, STAGE_MAX);
    if (!r->type_info || !r->stage) {
        hs_reader_free(r);
        return NULL;
    }
    r->decode = true;
    r->state = ST_HDRB;
    r->block_cap = HS_CAP_NONE;
    hs__error_clear(&r->err);
    return r;
}

void hs_reader_free(hs_reader *r)
{
    if (!r)
        return;
    /* The allocator lives inside r: keep a copy to free r itself with. */
    hs_allocator store;
    const hs_allocator *a = hs_alloc_copy(&store, r->alloc);
    for (size_t i = 0; i < r->ndesc; i++)
        hs_free(a, r->descs[i].text);
    hs_free(a, r->descs);
    hs_free(a, r->type_info);
    hs_free(a, r->stage);
    hs_free(a, r);
}

void hs__reader_apply_flags(hs_reader *r)
{
    for (uint32_t t = 0; t < r->type_ntags; t++) {
        uint32_t size1 = r->type_info[t] & TI_SIZE;
        if (size1)
            r->type_info[t] = size1 | hs__type_flags(r, (uint16_t)t, size1);
    }
}

void hs_reader_set_decode(hs_reader *r, bool decode)
{
    r->decode = decode;
    r->decode_some = false;
    hs__reader_apply_flags(r);
}

void hs_reader_set_raw_stacks(hs_reader *r, bool raw_only)
{
    r->raw_stacks = raw_only;
}

void hs_reader_decode_only(hs_reader *r, const uint16_t *tags, size_t n)
{
    memset(r->decode_mask, 0, sizeof r->decode_mask);
    for (size_t i = 0; i < n; i++)
        r->decode_mask[tags[i] / 64] |= (uint64_t)1 << (tags[i] % 64);
    r->decode = true;
    r->decode_some = true;
    hs__reader_apply_flags(r);
}

uint64_t hs_reader_offset(const hs_reader *r)
{
    return r->item_off + r->stage_len;
}

bool hs_reader_header_done(const hs_reader *r) { return r->header_done; }

const hs_error *hs_reader_error(const hs_reader *r) { return &r->err; }

bool hs_reader_event_type(const hs_reader *r, uint16_t tag, int *size,
                          hs_str *desc)
{
    uint32_t info = hs__type_info(r, tag) & TI_SIZE;
    if (!info)
        return false;
    if (size)
        *size = info - 1 == VARIABLE_SIZE ? -1 : (int)(info - 1);
    if (desc) {
        const char *d = hs__type_desc(r, tag);
        desc->ptr = d ? d : "";
        desc->len = d ? strlen(d) : 0;
    }
    return true;
}
