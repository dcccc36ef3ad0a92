/*
 * The folded renderer's entry for the diff; not part of the public surface.
 */
#ifndef HEAPSCOPE_FOLDED_INTERNAL_H
#define HEAPSCOPE_FOLDED_INTERNAL_H

#include "heapscope/render.h"

/*
 * hs_render_folded(); with hp_keys, -hc stacks are named from their band
 * names, the runtime's .hp keys (labels only, "Module.CAF", "PINNED"), as
 * a runtime .hp's always are, even when the census has cost-centre
 * stacks. How the diff names the frames of an eventlog and a .hp alike.
 */
int hs__render_folded_keys(const hs_census *c, hs_sink *out,
                           const hs_folded_options *opt, bool hp_keys);

#endif
