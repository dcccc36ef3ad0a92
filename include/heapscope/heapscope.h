/*
 * heapscope/heapscope.h: the whole public surface of libheapscope.
 *
 *   common.h   status codes, errors, allocators, text helpers; version.h
 *   sink.h     where output goes: atomic files, memory buffers
 *   events.h   the event types of the eventlog format
 *   reader.h   streaming eventlog decoder (events in, typed events out)
 *   census.h   census tables built from events or from a runtime .hp file
 *   ticky.h    the ticky-ticky counters a census holds
 *   render.h   the .hp, CSV, folded-stack and chart renderers
 *   summary.h  garbage-collector statistics as +RTS -s prints them
 *   page.h     the interactive report page (and its data, compare pages)
 *   diff.h     two runs compared band by band, and its renderers
 *
 * docs/ARCHITECTURE.md has the data flow and which part may use which.
 */
#ifndef HEAPSCOPE_HEAPSCOPE_H
#define HEAPSCOPE_HEAPSCOPE_H

#include "common.h"
#include "events.h"
#include "reader.h"
#include "census.h"
#include "ticky.h"
#include "sink.h"
#include "render.h"
#include "summary.h"
#include "mlpd.h"
#include "mlpd_census.h"
#include "load.h"
#include "page.h"
#include "live.h"
#include "diff.h"

#endif
