/*
 * heapscope/events.h: the one table of GHC eventlog event types.
 *
 * HS_EVENT_TABLE is an X-macro: every event type heapscope has a name for,
 * once, with its tag, its size as the GHC runtime declares it, the minimum
 * payload heapscope decodes, the hs_event union member its fields land in,
 * its field list and the runtime's description. From it come the HS_EV_*
 * tag constants below, the reader's decoding, hs_event_name(), the
 * `heapscope events` printer, the tests' event fingerprint and both test
 * and benchmark eventlog writers, so a new event is added in one place.
 *
 *   X(tag, NAME, size, min, member, FIELDS, description)
 *
 *   size    payload bytes the runtime declares (HS_EVSIZE_VAR: variable,
 *           HS_EVSIZE_UNKNOWN: obsolete or foreign, never written by us)
 *   min     payload bytes needed to decode the fields (older runtimes
 *           declare fewer: such events stay raw); HS_EVMIN_RAW: heapscope
 *           leaves the payload raw (`known` false) whatever its size
 *   FIELDS  a field-list macro HS_EVF_x(F, member), expanding to one
 *           F(member, KIND, cname, "printed name", aux) per field, in
 *           payload order; KIND is an hs_field_kind without HS_FIELD_
 *
 * At run time the same table is available as hs_event_desc records
 * (hs_event_get_desc() in reader.h).
 */
#ifndef HEAPSCOPE_EVENTS_H
#define HEAPSCOPE_EVENTS_H

/* Self-contained on purpose: bench/gen_eventlog.c, a plain C program
 * built without the library, includes it for the table alone. */
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define HS_EVSIZE_VAR 0xffff
#define HS_EVSIZE_UNKNOWN (-1)
#define HS_EVMIN_RAW (-1)

/* Field lists. aux names a second member some kinds fill (0 = none). */
#define HS_EVF_RAW(F, m)
#define HS_EVF_NONE(F, m)
#define HS_EVF_THREAD(F, m) F(m, U32, thread, "thread", 0)
#define HS_EVF_STOP_THREAD(F, m) F(m, U32, thread, "thread", 0) \
    F(m, U16, status, "status", 0) F(m, U32_OPT, blocked_on, "blocked_on", 0)
#define HS_EVF_MIGRATE(F, m) F(m, U32, thread, "thread", 0) \
    F(m, U16, cap, "new_cap", 0)
#define HS_EVF_WAKEUP(F, m) F(m, U32, thread, "thread", 0) \
    F(m, U16, cap, "other_cap", 0)
#define HS_EVF_BLOCK(F, m) F(m, U32, size, "block_size", 0) \
    F(m, U64, end_time, "end_time", 0) F(m, U16, cap, "block_cap", 0)
#define HS_EVF_TEXT(F, m) F(m, TEXT, text, "text", 0)
#define HS_EVF_BINARY(F, m) F(m, BINARY, text, "payload", 0)
#define HS_EVF_CAPSET_CREATE(F, m) F(m, U32, capset, "capset", 0) \
    F(m, U16, type, "type", 0)
#define HS_EVF_CAPSET(F, m) F(m, U32, capset, "capset", 0)
#define HS_EVF_CAPSET_CAP(F, m) F(m, U32, capset, "capset", 0) \
    F(m, U16, cap, "cap", 0)
#define HS_EVF_RTS_ID(F, m) F(m, U32, capset, "capset", 0) \
    F(m, TEXT, text, "name", 0)
#define HS_EVF_ARGS(F, m) F(m, U32, capset, "capset", 0) \
    F(m, ARGS, raw, "args", count)
#define HS_EVF_PID(F, m) F(m, U32, capset, "capset", 0) \
    F(m, U32, pid, "pid", 0)
#define HS_EVF_SPARK_COUNTERS(F, m) F(m, U64, created, "created", 0) \
    F(m, U64, dud, "dud", 0) F(m, U64, overflowed, "overflowed", 0) \
    F(m, U64, converted, "converted", 0) F(m, U64, gcd, "gcd", 0) \
    F(m, U64, fizzled, "fizzled", 0) F(m, U64, remaining, "remaining", 0)
#define HS_EVF_SPARK_STEAL(F, m) F(m, U16, cap, "victim_cap", 0)
#define HS_EVF_WALL_CLOCK(F, m) F(m, U32, capset, "capset", 0) \
    F(m, U64, sec, "sec", 0) F(m, U32, nsec, "nsec", 0)
#define HS_EVF_THREAD_LABEL(F, m) F(m, U32, thread, "thread", 0) \
    F(m, TEXT, label, "label", 0)
#define HS_EVF_CAP(F, m) F(m, U16, cap, "cap", 0)
#define HS_EVF_HEAP(F, m) F(m, U32, capset, "capset", 0) \
    F(m, U64, bytes, "bytes", 0)
#define HS_EVF_HEAP_INFO(F, m) F(m, U32, capset, "capset", 0) \
    F(m, U16, gens, "gens", 0) F(m, U64, max_heap, "max_heap", 0) \
    F(m, U64, alloc_area, "alloc_area", 0) F(m, U64, mblock, "mblock", 0) \
    F(m, U64, block, "block", 0)
#define HS_EVF_GC_STATS(F, m) F(m, U32, capset, "capset", 0) \
    F(m, U16, gen, "gen", 0) F(m, U64, copied, "copied", 0) \
    F(m, U64, slop, "slop", 0) F(m, U64, frag, "frag", 0) \
    F(m, U32, par_threads, "par_threads", 0) \
    F(m, U64, par_max_copied, "par_max_copied", 0) \
    F(m, U64, par_tot_copied, "par_tot_copied", 0) \
    F(m, U64_OPT, par_balanced_copied, "par_balanced_copied", has_balanced)
#define HS_EVF_TASK_CREATE(F, m) F(m, U64, task, "task", 0) \
    F(m, U16, cap, "cap", 0) F(m, U64, kernel_tid, "kernel_tid", 0)
#define HS_EVF_TASK_MIGRATE(F, m) F(m, U64, task, "task", 0) \
    F(m, U16, cap, "cap", 0) F(m, U16, new_cap, "new_cap", 0)
#define HS_EVF_TASK_DELETE(F, m) F(m, U64, task, "task", 0)
#define HS_EVF_MEM_RETURN(F, m) F(m, U32, capset, "capset", 0) \
    F(m, U32, current, "current", 0) F(m, U32, needed, "needed", 0) \
    F(m, U32, returned, "returned", 0)
#define HS_EVF_HEAP_PROF_BEGIN(F, m) F(m, U8, profile, "profile", 0) \
    F(m, U64, period, "period", 0) F(m, BREAKDOWN, breakdown, "breakdown", 0) \
    F(m, FILTER, filters[0], "module_filter", 0) \
    F(m, FILTER, filters[1], "closure_filter", 0) \
    F(m, FILTER, filters[2], "type_filter", 0) \
    F(m, FILTER, filters[3], "cc_filter", 0) \
    F(m, FILTER, filters[4], "ccs_filter", 0) \
    F(m, FILTER, filters[5], "retainer_filter", 0) \
    F(m, FILTER, filters[6], "bio_filter", 0)
#define HS_EVF_COST_CENTRE(F, m) F(m, U32, id, "id", 0) \
    F(m, CSTR_REQ, label, "label", 0) F(m, CSTR_REQ, module, "module", 0) \
    F(m, CSTR_REQ, srcloc, "srcloc", 0) F(m, CC_FLAGS, flags, "flags", 0)
#define HS_EVF_SAMPLE(F, m) F(m, U64, era, "era", 0)
#define HS_EVF_BIO_SAMPLE(F, m) F(m, U64, era, "era", 0) \
    F(m, U64, time, "sample_time", 0)
#define HS_EVF_CCS_SAMPLE(F, m) F(m, U8, profile, "profile", 0) \
    F(m, U64, bytes, "bytes", 0) F(m, STACK, depth, "stack", 0)
#define HS_EVF_STRING_SAMPLE(F, m) F(m, U8, profile, "profile", 0) \
    F(m, U64, bytes, "bytes", 0) F(m, CSTR, label, "label", 0)
#define HS_EVF_PROF_SAMPLE(F, m) F(m, U32, cap, "cap", 0) \
    F(m, U64, tick, "tick", 0) F(m, STACK, depth, "stack", 0)
#define HS_EVF_PROF_BEGIN(F, m) F(m, U64, tick_interval, "tick_interval", 0)
#define HS_EVF_CONC_MARK_END(F, m) F(m, U32, marked, "marked_objects", 0)
#define HS_EVF_NONMOVING_CENSUS(F, m) F(m, U16, blk_size, "blk_size", 0) \
    F(m, U32, active_segs, "active_segs", 0) \
    F(m, U32, filled_segs, "filled_segs", 0) \
    F(m, U32, live_blocks, "live_blocks", 0)
#define HS_EVF_PRUNED_SEGMENTS(F, m) F(m, U32, pruned, "pruned_segments", 0) \
    F(m, U32, free_segs, "free_segments", 0)
#define HS_EVF_TICKY_DEF(F, m) F(m, U64_HEX, id, "id", 0) \
    F(m, U16, arity, "arity", 0) F(m, CSTR, kinds, "arg_kinds", 0) \
    F(m, CSTR, name, "name", 0) \
    F(m, U64_OPT, info_table, "info_table", has_info_table) \
    F(m, CSTR, json, "json", 0)
#define HS_EVF_TICKY_SAMPLE(F, m) F(m, U64_HEX, id, "id", 0) \
    F(m, U64, entries, "entries", 0) F(m, U64, allocs, "allocs", 0) \
    F(m, U64, allocd, "allocd", 0)
#define HS_EVF_IPE(F, m) F(m, U64_HEX, address, "address", 0) \
    F(m, CSTR, table_name, "table_name", 0) \
    F(m, CSTR, closure_desc, "closure_desc", 0) \
    F(m, CSTR, type_desc, "type", 0) F(m, CSTR, label, "label", 0) \
    F(m, CSTR, module, "module", 0) F(m, CSTR, srcloc, "srcloc", 0)

#define HS__V HS_EVSIZE_VAR
#define HS__U HS_EVSIZE_UNKNOWN
#define HS__R HS_EVMIN_RAW

/* X(tag, NAME, size, min, member, FIELDS, description) */
#define HS_EVENT_TABLE(X) \
    X(0, CREATE_THREAD, 4, 4, thread, HS_EVF_THREAD, "Create thread") \
    X(1, RUN_THREAD, 4, 4, thread, HS_EVF_THREAD, "Run thread") \
    X(2, STOP_THREAD, 10, 6, stop_thread, HS_EVF_STOP_THREAD, "Stop thread") \
    X(3, THREAD_RUNNABLE, 4, 4, thread, HS_EVF_THREAD, "Thread runnable") \
    X(4, MIGRATE_THREAD, 6, 6, thread_cap, HS_EVF_MIGRATE, "Migrate thread") \
    X(5, RUN_SPARK, HS__U, HS__R, none, HS_EVF_RAW, "Run spark") \
    X(6, STEAL_SPARK, HS__U, HS__R, none, HS_EVF_RAW, "Steal spark") \
    X(7, SHUTDOWN, 0, HS__R, none, HS_EVF_RAW, "Shutdown") \
    X(8, THREAD_WAKEUP, 6, 6, thread_cap, HS_EVF_WAKEUP, "Wakeup thread") \
    X(9, GC_START, 0, 0, none, HS_EVF_NONE, "Starting GC") \
    X(10, GC_END, 0, 0, none, HS_EVF_NONE, "Finished GC") \
    X(11, REQUEST_SEQ_GC, 0, 0, none, HS_EVF_NONE, "Request sequential GC") \
    X(12, REQUEST_PAR_GC, 0, 0, none, HS_EVF_NONE, "Request parallel GC") \
    X(13, CREATE_SPARK, HS__U, HS__R, none, HS_EVF_RAW, "Create spark") \
    X(14, SPARK_TO_THREAD, HS__U, HS__R, none, HS_EVF_RAW, "Spark to thread") \
    X(15, CREATE_SPARK_THREAD, 4, 4, spark_thread, HS_EVF_THREAD, \
      "Create spark thread") \
    X(16, LOG_MSG, HS__V, 0, msg, HS_EVF_TEXT, "Log message") \
    X(17, STARTUP, HS__U, HS__R, none, HS_EVF_RAW, "Startup") \
    X(18, BLOCK_MARKER, 14, 14, block, HS_EVF_BLOCK, "Block marker") \
    X(19, USER_MSG, HS__V, 0, msg, HS_EVF_TEXT, "User message") \
    X(20, GC_IDLE, 0, 0, none, HS_EVF_NONE, "GC idle") \
    X(21, GC_WORK, 0, 0, none, HS_EVF_NONE, "GC working") \
    X(22, GC_DONE, 0, 0, none, HS_EVF_NONE, "GC done") \
    X(23, VERSION, HS__V, HS__R, none, HS_EVF_RAW, "Version") \
    X(24, PROGRAM_INVOCATION, HS__V, HS__R, none, HS_EVF_RAW, \
      "Program invocation") \
    X(25, CAPSET_CREATE, 6, 6, capset_create, HS_EVF_CAPSET_CREATE, \
      "Create capability set") \
    X(26, CAPSET_DELETE, 4, 4, capset_delete, HS_EVF_CAPSET, \
      "Delete capability set") \
    X(27, CAPSET_ASSIGN_CAP, 6, 6, capset_cap, HS_EVF_CAPSET_CAP, \
      "Add capability to capability set") \
    X(28, CAPSET_REMOVE_CAP, 6, 6, capset_cap, HS_EVF_CAPSET_CAP, \
      "Remove capability from capability set") \
    X(29, RTS_IDENTIFIER, HS__V, 4, rts_identifier, HS_EVF_RTS_ID, \
      "RTS name and version") \
    X(30, PROGRAM_ARGS, HS__V, 4, args, HS_EVF_ARGS, "Program arguments") \
    X(31, PROGRAM_ENV, HS__V, 4, args, HS_EVF_ARGS, \
      "Program environment variables") \
    X(32, OSPROCESS_PID, 8, 8, pid, HS_EVF_PID, "Process ID") \
    X(33, OSPROCESS_PPID, 8, 8, pid, HS_EVF_PID, "Parent process ID") \
    X(34, SPARK_COUNTERS, 56, 56, spark_counters, HS_EVF_SPARK_COUNTERS, \
      "Spark counters") \
    X(35, SPARK_CREATE, 0, 0, none, HS_EVF_NONE, "Spark create") \
    X(36, SPARK_DUD, 0, 0, none, HS_EVF_NONE, "Spark dud") \
    X(37, SPARK_OVERFLOW, 0, 0, none, HS_EVF_NONE, "Spark overflow") \
    X(38, SPARK_RUN, 0, 0, none, HS_EVF_NONE, "Spark run") \
    X(39, SPARK_STEAL, 2, 2, spark_steal, HS_EVF_SPARK_STEAL, "Spark steal") \
    X(40, SPARK_FIZZLE, 0, 0, none, HS_EVF_NONE, "Spark fizzle") \
    X(41, SPARK_GC, 0, 0, none, HS_EVF_NONE, "Spark GC") \
    X(42, INTERN_STRING, HS__V, HS__R, none, HS_EVF_RAW, "Intern string") \
    X(43, WALL_CLOCK_TIME, 16, 16, wall_clock, HS_EVF_WALL_CLOCK, \
      "Wall clock time") \
    X(44, THREAD_LABEL, HS__V, 4, thread_label, HS_EVF_THREAD_LABEL, \
      "Thread label") \
    X(45, CAP_CREATE, 2, 2, cap, HS_EVF_CAP, "Create capability") \
    X(46, CAP_DELETE, 2, 2, cap, HS_EVF_CAP, "Delete capability") \
    X(47, CAP_DISABLE, 2, 2, cap, HS_EVF_CAP, "Disable capability") \
    X(48, CAP_ENABLE, 2, 2, cap, HS_EVF_CAP, "Enable capability") \
    X(49, HEAP_ALLOCATED, 12, 12, heap, HS_EVF_HEAP, \
      "Total heap memory ever allocated") \
    X(50, HEAP_SIZE, 12, 12, heap, HS_EVF_HEAP, \
      "Current heap size (number of allocated mblocks)") \
    X(51, HEAP_LIVE, 12, 12, heap, HS_EVF_HEAP, "Current heap live data") \
    X(52, HEAP_INFO_GHC, 38, 38, heap_info, HS_EVF_HEAP_INFO, \
      "Heap static parameters") \
    X(53, GC_STATS_GHC, 58, 50, gc_stats, HS_EVF_GC_STATS, "GC statistics") \
    X(54, GC_GLOBAL_SYNC, 0, 0, none, HS_EVF_NONE, \
      "Synchronise stop-the-world GC") \
    X(55, TASK_CREATE, 18, 18, task_create, HS_EVF_TASK_CREATE, \
      "Task create") \
    X(56, TASK_MIGRATE, 12, 12, task_migrate, HS_EVF_TASK_MIGRATE, \
      "Task migrate") \
    X(57, TASK_DELETE, 8, 8, task_delete, HS_EVF_TASK_DELETE, "Task delete") \
    X(58, USER_MARKER, HS__V, 0, msg, HS_EVF_TEXT, "User marker") \
    X(59, HACK_BUG_T9003, 0, HS__R, none, HS_EVF_RAW, \
      "Empty event for bug #9003") \
    X(90, MEM_RETURN, 16, 16, mem_return, HS_EVF_MEM_RETURN, \
      "Memory return statistics") \
    X(91, BLOCKS_SIZE, 12, 12, heap, HS_EVF_HEAP, \
      "Current heap size (size of allocated blocks)") \
    X(100, MER_START_PAR_CONJUNCTION, HS__U, HS__R, none, HS_EVF_RAW, \
      "Start a parallel conjunction") \
    X(101, MER_STOP_PAR_CONJUNCTION, HS__U, HS__R, none, HS_EVF_RAW, \
      "Stop a parallel conjunction") \
    X(102, MER_CREATE_SPARK, HS__U, HS__R, none, HS_EVF_RAW, \
      "Create a spark for a parallel conjunction") \
    X(103, MER_FUT_CREATE, HS__U, HS__R, none, HS_EVF_RAW, "Create a future") \
    X(104, MER_FUT_WAIT_NOSUSPEND, HS__U, HS__R, none, HS_EVF_RAW, \
      "Wait on a future without suspending") \
    X(105, MER_FUT_WAIT_SUSPENDED, HS__U, HS__R, none, HS_EVF_RAW, \
      "Wait on a future by suspending") \
    X(106, MER_FUT_SIGNAL, HS__U, HS__R, none, HS_EVF_RAW, "Signal a future") \
    X(107, MER_LOOKING_FOR_GLOBAL_CONTEXT, HS__U, HS__R, none, HS_EVF_RAW, \
      "Looking for a global context") \
    X(108, MER_WORK_STEALING, HS__U, HS__R, none, HS_EVF_RAW, \
      "Work stealing") \
    X(109, MER_LOOKING_FOR_LOCAL_SPARK, HS__U, HS__R, none, HS_EVF_RAW, \
      "Looking for a local spark") \
    X(110, MER_RELEASE_CONTEXT, HS__U, HS__R, none, HS_EVF_RAW, \
      "Release a context") \
    X(111, MER_ENGINE_SLEEPING, HS__U, HS__R, none, HS_EVF_RAW, \
      "Engine sleeping") \
    X(112, MER_CALLING_MAIN, HS__U, HS__R, none, HS_EVF_RAW, "Calling main") \
    X(140, PERF_NAME, HS__V, HS__R, none, HS_EVF_RAW, "Perf event name") \
    X(141, PERF_COUNTER, HS__U, HS__R, none, HS_EVF_RAW, "Perf counter") \
    X(142, PERF_TRACEPOINT, HS__U, HS__R, none, HS_EVF_RAW, \
      "Perf tracepoint") \
    X(160, HEAP_PROF_BEGIN, HS__V, 13, heap_prof_begin, \
      HS_EVF_HEAP_PROF_BEGIN, "Start of heap profile") \
    X(161, HEAP_PROF_COST_CENTRE, HS__V, 4, cost_centre, HS_EVF_COST_CENTRE, \
      "Cost center definition") \
    X(162, HEAP_PROF_SAMPLE_BEGIN, 8, 8, sample, HS_EVF_SAMPLE, \
      "Start of heap profile sample") \
    X(163, HEAP_PROF_SAMPLE_COST_CENTRE, HS__V, 10, ccs_sample, \
      HS_EVF_CCS_SAMPLE, "Heap profile cost-centre sample") \
    X(164, HEAP_PROF_SAMPLE_STRING, HS__V, 9, string_sample, \
      HS_EVF_STRING_SAMPLE, "Heap profile string sample") \
    X(165, HEAP_PROF_SAMPLE_END, 8, 8, sample, HS_EVF_SAMPLE, \
      "End of heap profile sample") \
    X(166, HEAP_BIO_PROF_SAMPLE_BEGIN, 16, 16, bio_sample, HS_EVF_BIO_SAMPLE, \
      "Start of heap profile (biographical) sample") \
    X(167, PROF_SAMPLE_COST_CENTRE, HS__V, 13, prof_sample, \
      HS_EVF_PROF_SAMPLE, "Time profile cost-centre stack") \
    X(168, PROF_BEGIN, 8, 8, prof_begin, HS_EVF_PROF_BEGIN, \
      "Start of a time profile") \
    X(169, IPE, HS__V, 8, ipe, HS_EVF_IPE, "Info Table Source Position") \
    X(181, USER_BINARY_MSG, HS__V, 0, msg, HS_EVF_BINARY, \
      "User binary message") \
    X(200, CONC_MARK_BEGIN, 0, 0, none, HS_EVF_NONE, \
      "Begin concurrent mark phase") \
    X(201, CONC_MARK_END, 4, 4, conc_mark_end, HS_EVF_CONC_MARK_END, \
      "End concurrent mark phase") \
    X(202, CONC_SYNC_BEGIN, 0, 0, none, HS_EVF_NONE, \
      "Begin concurrent GC synchronisation") \
    X(203, CONC_SYNC_END, 0, 0, none, HS_EVF_NONE, \
      "End concurrent GC synchronisation") \
    X(204, CONC_SWEEP_BEGIN, 0, 0, none, HS_EVF_NONE, \
      "Begin concurrent sweep") \
    X(205, CONC_SWEEP_END, 0, 0, none, HS_EVF_NONE, "End concurrent sweep") \
    X(206, CONC_UPD_REM_SET_FLUSH, 2, 2, cap, HS_EVF_CAP, \
      "Update remembered set flushed") \
    X(207, NONMOVING_HEAP_CENSUS, 14, 14, nonmoving_census, \
      HS_EVF_NONMOVING_CENSUS, "Nonmoving heap census") \
    X(208, NONMOVING_PRUNED_SEGMENTS, 8, 8, pruned_segments, \
      HS_EVF_PRUNED_SEGMENTS, \
      "Report the amount of segments pruned and remaining on the free list.") \
    X(210, TICKY_COUNTER_DEF, HS__V, 10, ticky_def, HS_EVF_TICKY_DEF, \
      "Ticky-ticky entry counter definition") \
    X(211, TICKY_COUNTER_SAMPLE, 32, 32, ticky_sample, HS_EVF_TICKY_SAMPLE, \
      "Ticky-ticky entry counter sample") \
    X(212, TICKY_COUNTER_BEGIN_SAMPLE, 0, 0, none, HS_EVF_NONE, \
      "Ticky-ticky entry counter begin sample")

/* Event tags, as GHC's EventLogFormat.h numbers them (without EVENT_). */
#define HS__EV_ENUM(tag, NAME, size, min, m, FIELDS, desc) HS_EV_##NAME = tag,
enum { HS_EVENT_TABLE(HS__EV_ENUM) HS_EV_DATA_END = 0xffff };
#undef HS__EV_ENUM

/* How a field is laid out in the payload and where it lands. */
typedef enum hs_field_kind {
    HS_FIELD_U8,        /* big-endian unsigned integers */
    HS_FIELD_U16,
    HS_FIELD_U32,
    HS_FIELD_U64,
    HS_FIELD_U64_HEX,   /* a u64 best shown in hexadecimal (an address) */
    HS_FIELD_BREAKDOWN, /* a u32 heap-profile breakdown (HS_BREAKDOWN_*) */
    HS_FIELD_U32_OPT,   /* a trailing u32 newer runtimes add; 0 when absent */
    HS_FIELD_U64_OPT,   /* a trailing u64; aux = a bool saying it was there */
    HS_FIELD_CC_FLAGS,  /* a trailing u8 of HS_CC_FLAG_*; 0 when absent */
    HS_FIELD_TEXT,      /* the rest of the payload, one trailing NUL dropped */
    HS_FIELD_BINARY,    /* the rest of the payload, verbatim */
    HS_FIELD_ARGS,      /* the rest: NUL-separated strings; aux = their count */
    HS_FIELD_CSTR,      /* a NUL-terminated string (a missing NUL ends it at
                           the payload's end; empty when nothing is left) */
    HS_FIELD_FILTER,    /* as CSTR; shown only when not empty */
    HS_FIELD_CSTR_REQ,  /* a NUL-terminated string that must be there */
    HS_FIELD_STACK      /* u8 depth, depth x u32 cost-centre ids (the
                           member's depth, stack and stack_raw) */
} hs_field_kind;

/* One field of an event type: offsets are into hs_event. */
typedef struct hs_field_desc {
    hs_field_kind kind;
    uint16_t offset;    /* of the field (for STACK: of depth) */
    uint16_t aux;       /* ARGS: count; U64_OPT: the present flag;
                           STACK: stack; else 0 */
    uint16_t aux2;      /* STACK: stack_raw; else 0 */
    const char *name;   /* as `heapscope events` prints it */
} hs_field_desc;

/* One event type of the table. */
typedef struct hs_event_desc {
    uint16_t tag;
    int32_t size;       /* as the runtime declares it, HS_EVSIZE_VAR or
                           HS_EVSIZE_UNKNOWN */
    int32_t min;        /* HS_EVMIN_RAW or payload bytes needed to decode */
    uint8_t nfields;
    const char *name;   /* "HEAP_PROF_SAMPLE_STRING" */
    const char *description; /* as the runtime's header describes it */
    const hs_field_desc *fields;
} hs_event_desc;

#ifdef __cplusplus
}
#endif

#endif
