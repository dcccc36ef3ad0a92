/*
 * heapscope/heapscope.h: the whole public surface of libheapscope.
 *
 *   reader.h   streaming eventlog decoder (events in, typed events out)
 *   census.h   census tables built from events or from a runtime .hp file
 *   render.h   sinks and the .hp, CSV, folded-stack and chart renderers
 *   summary.h  garbage-collector statistics as +RTS -s prints them
 */
#ifndef HEAPSCOPE_HEAPSCOPE_H
#define HEAPSCOPE_HEAPSCOPE_H

#include "common.h"
#include "reader.h"
#include "census.h"
#include "render.h"
#include "summary.h"

#endif
