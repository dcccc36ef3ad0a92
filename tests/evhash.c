#include "evhash.h"

#define FNV_PRIME 1099511628211ull

void evh_mix(uint64_t *h, const void *p, size_t n)
{
    const uint8_t *b = p;
    for (size_t i = 0; i < n; i++) {
        *h ^= b[i];
        *h *= FNV_PRIME;
    }
}

void evh_mixu(uint64_t *h, uint64_t v)
{
    uint8_t b[8];
    for (int i = 0; i < 8; i++)
        b[i] = (uint8_t)(v >> (8 * i));
    evh_mix(h, b, 8);
}

void evh_mixs(uint64_t *h, hs_str s)
{
    evh_mixu(h, s.len);
    evh_mix(h, s.ptr, s.len);
}

/* Every field the table lists for the tag, the way its kind says. */
uint64_t evh_decoded(const hs_event *e)
{
    uint64_t h = EVH_SEED;
    const hs_event_desc *d = hs_event_get_desc(e->tag);
    if (!e->known || !d)
        return h;
    for (unsigned i = 0; i < d->nfields; i++) {
        const hs_field_desc *f = &d->fields[i];
        uint64_t v = hs_event_field_uint(e, f);
        switch (f->kind) {
        case HS_FIELD_TEXT: case HS_FIELD_BINARY: case HS_FIELD_CSTR:
        case HS_FIELD_FILTER: case HS_FIELD_CSTR_REQ:
            evh_mixs(&h, hs_event_field_str(e, f));
            break;
        case HS_FIELD_ARGS:
            evh_mixs(&h, hs_event_field_str(e, f));
            evh_mixu(&h, v);
            break;
        case HS_FIELD_STACK: {
            const uint32_t *ids = hs_event_field_stack(e, f);
            const uint8_t *raw = hs_event_field_stack_raw(e, f);
            evh_mixu(&h, v);
            for (unsigned k = 0; k < v; k++)
                evh_mixu(&h, ids ? ids[k] : (uint32_t)raw[4 * k] << 24 |
                         (uint32_t)raw[4 * k + 1] << 16 |
                         (uint32_t)raw[4 * k + 2] << 8 | raw[4 * k + 3]);
            break;
        }
        case HS_FIELD_U64_OPT:
            evh_mixu(&h, v);
            evh_mixu(&h, hs_event_field_present(e, f));
            break;
        default:
            evh_mixu(&h, v);
            break;
        }
    }
    return h;
}

uint64_t evh_fields(const hs_event *e)
{
    uint64_t h = EVH_SEED;
    evh_mixu(&h, e->known);
    evh_mixu(&h, e->payload_len);
    evh_mix(&h, e->payload, e->payload_len);
    evh_mixu(&h, evh_decoded(e));
    return h;
}
