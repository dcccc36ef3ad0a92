#include "evhash.h"

#include <string.h>

#define FNV_PRIME 1099511628211ull

/* A word at a time, not FNV-1a's byte at a time: the tests hash every
 * event of every sample many times over (and under ASan), and a multiply
 * per byte was half their time. Each step is a bijection of the running
 * value for a given word, so any one changed word changes the result. */
static inline uint64_t evh_step(uint64_t h, uint64_t w)
{
    h = (h ^ w) * FNV_PRIME;
    return h ^ (h >> 32);
}

void evh_mix(uint64_t *h, const void *p, size_t n)
{
    const uint8_t *b = p;
    uint64_t x = *h, w;
    for (; n >= 8; b += 8, n -= 8) {
        memcpy(&w, b, 8);
        x = evh_step(x, w);
    }
    if (n) { /* the tail, with its length in the byte it cannot fill */
        w = 0;
        memcpy(&w, b, n);
        x = evh_step(x, w ^ (uint64_t)n << 56);
    }
    *h = x;
}

void evh_mixu(uint64_t *h, uint64_t v)
{
    *h = evh_step(*h, v);
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
