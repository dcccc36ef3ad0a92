/*
 * The event table as the reader indexes it: one entry per tag below
 * HS__EVENT_TAGS (every tag GHC has named is), name NULL where the table
 * lists none. Internal to the library.
 */
#ifndef HEAPSCOPE_READ_EVENT_TABLE_H
#define HEAPSCOPE_READ_EVENT_TABLE_H

#include "heapscope/events.h"

#define HS__EVENT_TAGS 256

extern const hs_event_desc hs__event_table[HS__EVENT_TAGS];

#endif
