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

uint64_t evh_fields(const hs_event *e)
{
    uint64_t h = EVH_SEED;
    evh_mixu(&h, e->known);
    evh_mixu(&h, e->payload_len);
    evh_mix(&h, e->payload, e->payload_len);
    if (!e->known)
        return h;
    switch (e->tag) {
    case 0: case 1: case 3:
        evh_mixu(&h, e->u.thread.thread);
        break;
    case 2:
        evh_mixu(&h, e->u.stop_thread.thread);
        evh_mixu(&h, e->u.stop_thread.status);
        evh_mixu(&h, e->u.stop_thread.blocked_on);
        break;
    case 4: case 8:
        evh_mixu(&h, e->u.thread_cap.thread);
        evh_mixu(&h, e->u.thread_cap.cap);
        break;
    case 15:
        evh_mixu(&h, e->u.spark_thread.thread);
        break;
    case 18:
        evh_mixu(&h, e->u.block.size);
        evh_mixu(&h, e->u.block.end_time);
        evh_mixu(&h, e->u.block.cap);
        break;
    case 16: case 19: case 58: case 181:
        evh_mixs(&h, e->u.msg.text);
        break;
    case 25:
        evh_mixu(&h, e->u.capset_create.capset);
        evh_mixu(&h, e->u.capset_create.type);
        break;
    case 26:
        evh_mixu(&h, e->u.capset_delete.capset);
        break;
    case 27: case 28:
        evh_mixu(&h, e->u.capset_cap.capset);
        evh_mixu(&h, e->u.capset_cap.cap);
        break;
    case 29:
        evh_mixu(&h, e->u.rts_identifier.capset);
        evh_mixs(&h, e->u.rts_identifier.text);
        break;
    case 30: case 31:
        evh_mixu(&h, e->u.args.capset);
        evh_mixs(&h, e->u.args.raw);
        evh_mixu(&h, e->u.args.count);
        break;
    case 32: case 33:
        evh_mixu(&h, e->u.pid.capset);
        evh_mixu(&h, e->u.pid.pid);
        break;
    case 43:
        evh_mixu(&h, e->u.wall_clock.capset);
        evh_mixu(&h, e->u.wall_clock.sec);
        evh_mixu(&h, e->u.wall_clock.nsec);
        break;
    case 44:
        evh_mixu(&h, e->u.thread_label.thread);
        evh_mixs(&h, e->u.thread_label.label);
        break;
    case 49: case 50: case 51: case 91:
        evh_mixu(&h, e->u.heap.capset);
        evh_mixu(&h, e->u.heap.bytes);
        break;
    case 52:
        evh_mixu(&h, e->u.heap_info.capset);
        evh_mixu(&h, e->u.heap_info.gens);
        evh_mixu(&h, e->u.heap_info.max_heap);
        evh_mixu(&h, e->u.heap_info.alloc_area);
        evh_mixu(&h, e->u.heap_info.mblock);
        evh_mixu(&h, e->u.heap_info.block);
        break;
    case 53:
        evh_mixu(&h, e->u.gc_stats.capset);
        evh_mixu(&h, e->u.gc_stats.gen);
        evh_mixu(&h, e->u.gc_stats.copied);
        evh_mixu(&h, e->u.gc_stats.slop);
        evh_mixu(&h, e->u.gc_stats.frag);
        evh_mixu(&h, e->u.gc_stats.par_threads);
        evh_mixu(&h, e->u.gc_stats.par_max_copied);
        evh_mixu(&h, e->u.gc_stats.par_tot_copied);
        evh_mixu(&h, e->u.gc_stats.par_balanced_copied);
        evh_mixu(&h, e->u.gc_stats.has_balanced);
        break;
    case 55:
        evh_mixu(&h, e->u.task_create.task);
        evh_mixu(&h, e->u.task_create.cap);
        evh_mixu(&h, e->u.task_create.kernel_tid);
        break;
    case 57:
        evh_mixu(&h, e->u.task_delete.task);
        break;
    case 160:
        evh_mixu(&h, e->u.heap_prof_begin.profile);
        evh_mixu(&h, e->u.heap_prof_begin.period);
        evh_mixu(&h, e->u.heap_prof_begin.breakdown);
        for (int i = 0; i < 7; i++)
            evh_mixs(&h, e->u.heap_prof_begin.filters[i]);
        break;
    case 161:
        evh_mixu(&h, e->u.cost_centre.id);
        evh_mixs(&h, e->u.cost_centre.label);
        evh_mixs(&h, e->u.cost_centre.module);
        evh_mixs(&h, e->u.cost_centre.srcloc);
        evh_mixu(&h, e->u.cost_centre.flags);
        break;
    case 162: case 165:
        evh_mixu(&h, e->u.sample.era);
        break;
    case 166:
        evh_mixu(&h, e->u.bio_sample.era);
        evh_mixu(&h, e->u.bio_sample.time);
        break;
    case 163:
        evh_mixu(&h, e->u.ccs_sample.profile);
        evh_mixu(&h, e->u.ccs_sample.bytes);
        evh_mixu(&h, e->u.ccs_sample.depth);
        for (unsigned i = 0; i < e->u.ccs_sample.depth; i++)
            evh_mixu(&h, e->u.ccs_sample.stack[i]);
        break;
    case 164:
        evh_mixu(&h, e->u.string_sample.profile);
        evh_mixu(&h, e->u.string_sample.bytes);
        evh_mixs(&h, e->u.string_sample.label);
        break;
    case 167:
        evh_mixu(&h, e->u.prof_sample.cap);
        evh_mixu(&h, e->u.prof_sample.tick);
        evh_mixu(&h, e->u.prof_sample.depth);
        for (unsigned i = 0; i < e->u.prof_sample.depth; i++)
            evh_mixu(&h, e->u.prof_sample.stack[i]);
        break;
    case 168:
        evh_mixu(&h, e->u.prof_begin.tick_interval);
        break;
    case 169:
        evh_mixu(&h, e->u.ipe.address);
        evh_mixs(&h, e->u.ipe.table_name);
        evh_mixs(&h, e->u.ipe.closure_desc);
        evh_mixs(&h, e->u.ipe.type_desc);
        evh_mixs(&h, e->u.ipe.label);
        evh_mixs(&h, e->u.ipe.module);
        evh_mixs(&h, e->u.ipe.srcloc);
        break;
    default:
        break;
    }
    return h;
}
