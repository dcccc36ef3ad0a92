/*
 * heapscope/summary.h: garbage-collector statistics rebuilt from the
 * eventlog, as +RTS -s prints them.
 */
#ifndef HEAPSCOPE_SUMMARY_H
#define HEAPSCOPE_SUMMARY_H

#include "common.h"
#include "reader.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct hs_summary hs_summary;

#ifdef __cplusplus
}
#endif

#endif
