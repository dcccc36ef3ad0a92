/* Fingerprints of .mlpd events (mlpdhash.h). */
#include "mlpdhash.h"
#include "evhash.h"

#include <string.h>

static void mix_cstr(uint64_t *h, const char *s)
{
    evh_mixs(h, s ? (hs_str){s, strlen(s)} : (hs_str){"\xff", 1});
}

static void mix_list(uint64_t *h, const uint64_t *v, size_t n)
{
    evh_mixu(h, n);
    for (size_t i = 0; i < n; i++)
        evh_mixu(h, v[i]);
}

static void mix_counters(uint64_t *h, const hs_mlpd_event *e)
{
    if (e->kind == HS_MLPD_SAMPLE_COUNTERS_DESC) {
        for (size_t i = 0; i < e->u.counters_desc.n; i++) {
            const hs_mlpd_counter_desc *d = &e->u.counters_desc.descs[i];
            evh_mixu(h, d->section);
            mix_cstr(h, d->section_name);
            mix_cstr(h, d->name);
            evh_mixu(h, d->type ^ d->unit << 8 ^ d->variance << 16);
            evh_mixu(h, d->index);
        }
        return;
    }
    for (size_t i = 0; i < e->u.counters.n; i++) {
        const hs_mlpd_counter_value *v = &e->u.counters.values[i];
        evh_mixu(h, v->index ^ v->type << 32);
        evh_mixu(h, (uint64_t)v->i ^ v->u);
        evh_mix(h, &v->d, sizeof v->d);
        mix_cstr(h, v->s);
    }
}

/* The union member the kind selects, pointers followed. */
static void mix_fields(uint64_t *h, const hs_mlpd_event *e)
{
    switch (e->kind) {
    case HS_MLPD_METADATA:
        evh_mixu(h, e->u.meta.kind ^ (uint64_t)e->u.meta.action << 8);
        evh_mixu(h, e->u.meta.pointer ^ e->u.meta.image * 3 ^
                    e->u.meta.domain * 5 ^ e->u.meta.klass * 7);
        mix_cstr(h, e->u.meta.name);
        mix_cstr(h, e->u.meta.mvid);
        break;
    case HS_MLPD_METHOD_JIT:
        evh_mixu(h, e->u.jit.method ^ e->u.jit.code * 3 ^ e->u.jit.code_size);
        mix_cstr(h, e->u.jit.name);
        break;
    case HS_MLPD_GC_MOVE: mix_list(h, e->u.move.objects, e->u.move.n); break;
    case HS_MLPD_HEAP_OBJECT:
        evh_mix(h, &e->u.heap_object, 3 * sizeof(uint64_t));
        evh_mixu(h, e->u.heap_object.generation);
        mix_list(h, e->u.heap_object.ref_offsets, e->u.heap_object.nrefs);
        mix_list(h, e->u.heap_object.refs, e->u.heap_object.nrefs);
        break;
    case HS_MLPD_HEAP_ROOT:
        mix_list(h, e->u.roots.addresses, e->u.roots.n);
        mix_list(h, e->u.roots.objects, e->u.roots.n);
        break;
    case HS_MLPD_HEAP_ROOT_REGISTER:
        evh_mixu(h, e->u.root_register.start ^ e->u.root_register.key * 3);
        evh_mixu(h, e->u.root_register.size ^ e->u.root_register.source);
        mix_cstr(h, e->u.root_register.name);
        break;
    case HS_MLPD_SAMPLE_HIT:
        evh_mixu(h, e->u.hit.thread);
        mix_list(h, e->u.hit.ips, e->u.hit.nips);
        break;
    case HS_MLPD_SAMPLE_USYM:
        evh_mixu(h, e->u.usym.address ^ e->u.usym.size);
        mix_cstr(h, e->u.usym.name);
        break;
    case HS_MLPD_SAMPLE_COUNTERS_DESC:
    case HS_MLPD_SAMPLE_COUNTERS: mix_counters(h, e); break;
    case HS_MLPD_JITHELPER:
        evh_mixu(h, e->u.jithelper.type ^ e->u.jithelper.address * 3 ^
                    e->u.jithelper.size);
        mix_cstr(h, e->u.jithelper.name);
        break;
    case HS_MLPD_AOT_ID: mix_cstr(h, e->u.aot.id); break;
    default:
        /* the rest hold scalars only: the whole union, zeroed by the
         * reader beyond the member in use */
        evh_mix(h, &e->u, sizeof e->u);
        break;
    }
}

uint64_t mlpd_hash(const hs_mlpd_event *e)
{
    uint64_t h = EVH_SEED;
    evh_mixu(&h, (uint64_t)e->kind << 8 | e->byte);
    evh_mixu(&h, e->time);
    evh_mixu(&h, e->thread);
    evh_mixu(&h, e->offset);
    evh_mixu(&h, e->size);
    evh_mixu(&h, e->index);
    evh_mixu(&h, e->has_bt);
    mix_list(&h, e->frames, e->frames ? e->nframes : 0);
    mix_fields(&h, e);
    return h;
}
