/*
 * gen_eventlog: write a synthetic but realistic GHC eventlog of a given size.
 *
 *   cc -O2 -Wall -Wextra -o gen_eventlog bench/gen_eventlog.c
 *   gen_eventlog -s SIZE[K|M|G] [-c CAPS] [--seed N] [-b BLOCK] [-i MS] [-v] -o OUT|-
 *
 * The log imitates a threaded, heap-profiled (+RTS -N<caps> -hc -l) GHC 9.x
 * program: the 9.x event-type table, startup events and cost-centre
 * definitions in the global buffer, per-capability blocks of scheduler, GC and
 * heap-size events, and global-buffer blocks holding -hc heap censuses (one per
 * sampling interval, taken during a major GC).  See bench/README.md for the
 * event mix.  Everything is big-endian, as written by the RTS; see
 * /work/shared/spec/FORMAT-NOTES.md.
 *
 * The output is exactly SIZE bytes (a final user message pads the last
 * few hundred bytes) and is a pure function of (SIZE, CAPS, seed, BLOCK, MS).
 * Plain C99 + libc, no libm.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------------ */
/* Event types                                                          */

/* Tags, sizes and descriptions come from heapscope's one event table. */
#include "../include/heapscope/events.h"

#define VAR HS_EVSIZE_VAR

/* Every type in the table: its declared size and description by tag. */
static const struct evtype { int32_t size; const char *desc; } table[256] = {
#define ROW(tag, NAME, size, min, m, FIELDS, desc) [tag] = {size, desc},
    HS_EVENT_TABLE(ROW)
#undef ROW
};

/* The types a GHC 9.x RTS declares (9.0's, plus MEM_RETURN, BLOCKS_SIZE
 * and IPE from 9.2 and NONMOVING_PRUNED_SEGMENTS from 9.10), in its order. */
static const uint16_t event_types[] = {
    HS_EV_CREATE_THREAD, HS_EV_RUN_THREAD, HS_EV_STOP_THREAD, HS_EV_THREAD_RUNNABLE,
    HS_EV_MIGRATE_THREAD, HS_EV_THREAD_WAKEUP, HS_EV_GC_START, HS_EV_GC_END,
    HS_EV_REQUEST_SEQ_GC, HS_EV_REQUEST_PAR_GC, HS_EV_CREATE_SPARK_THREAD,
    HS_EV_LOG_MSG, HS_EV_BLOCK_MARKER, HS_EV_USER_MSG, HS_EV_GC_IDLE, HS_EV_GC_WORK,
    HS_EV_GC_DONE, HS_EV_CAPSET_CREATE, HS_EV_CAPSET_DELETE, HS_EV_CAPSET_ASSIGN_CAP,
    HS_EV_CAPSET_REMOVE_CAP, HS_EV_RTS_IDENTIFIER, HS_EV_PROGRAM_ARGS,
    HS_EV_PROGRAM_ENV, HS_EV_OSPROCESS_PID, HS_EV_OSPROCESS_PPID, HS_EV_SPARK_COUNTERS,
    HS_EV_SPARK_CREATE, HS_EV_SPARK_DUD, HS_EV_SPARK_OVERFLOW, HS_EV_SPARK_RUN,
    HS_EV_SPARK_STEAL, HS_EV_SPARK_FIZZLE, HS_EV_SPARK_GC, HS_EV_WALL_CLOCK_TIME,
    HS_EV_THREAD_LABEL, HS_EV_CAP_CREATE, HS_EV_CAP_DELETE, HS_EV_CAP_DISABLE,
    HS_EV_CAP_ENABLE, HS_EV_HEAP_ALLOCATED, HS_EV_HEAP_SIZE, HS_EV_HEAP_LIVE,
    HS_EV_HEAP_INFO_GHC, HS_EV_GC_STATS_GHC, HS_EV_GC_GLOBAL_SYNC, HS_EV_TASK_CREATE,
    HS_EV_TASK_MIGRATE, HS_EV_TASK_DELETE, HS_EV_USER_MARKER, HS_EV_HACK_BUG_T9003,
    HS_EV_MEM_RETURN, HS_EV_BLOCKS_SIZE, HS_EV_HEAP_PROF_BEGIN,
    HS_EV_HEAP_PROF_COST_CENTRE, HS_EV_HEAP_PROF_SAMPLE_BEGIN,
    HS_EV_HEAP_PROF_SAMPLE_COST_CENTRE, HS_EV_HEAP_PROF_SAMPLE_STRING,
    HS_EV_HEAP_PROF_SAMPLE_END, HS_EV_HEAP_BIO_PROF_SAMPLE_BEGIN,
    HS_EV_PROF_SAMPLE_COST_CENTRE, HS_EV_PROF_BEGIN, HS_EV_IPE, HS_EV_USER_BINARY_MSG,
    HS_EV_CONC_MARK_BEGIN, HS_EV_CONC_MARK_END, HS_EV_CONC_SYNC_BEGIN,
    HS_EV_CONC_SYNC_END, HS_EV_CONC_SWEEP_BEGIN, HS_EV_CONC_SWEEP_END,
    HS_EV_CONC_UPD_REM_SET_FLUSH, HS_EV_NONMOVING_HEAP_CENSUS,
    HS_EV_NONMOVING_PRUNED_SEGMENTS,
};
#define N_EVENT_TYPES (sizeof event_types / sizeof event_types[0])

/* fixed payload size per tag (VAR for variable), filled from the table */
static uint16_t tag_size[256];

/* ------------------------------------------------------------------ */
/* Utilities                                                            */

static const char *progname = "gen_eventlog";

static void die(const char *fmt, ...)
{
    va_list ap;
    fprintf(stderr, "%s: ", progname);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
    exit(1);
}

static void *xmalloc(size_t n)
{
    void *p = malloc(n ? n : 1);
    if (!p)
        die("out of memory (%zu bytes)", n);
    return p;
}

/* splitmix64: small, fast, good enough, and fully deterministic */
static uint64_t rng_state;

static inline uint64_t rnd(void)
{
    uint64_t z = (rng_state += UINT64_C(0x9e3779b97f4a7c15));
    z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
    return z ^ (z >> 31);
}

/* uniform in [0, n) for n < 2^32 */
static inline uint32_t below(uint32_t n)
{
    return (uint32_t)(((rnd() >> 32) * (uint64_t)n) >> 32);
}

/* uniform in [lo, hi] */
static inline uint64_t range(uint64_t lo, uint64_t hi)
{
    return lo + rnd() % (hi - lo + 1);
}

/* true with probability permille/1000 */
static inline int chance(uint32_t per_mille)
{
    return below(1000) < per_mille;
}

static inline uint8_t *put8(uint8_t *p, uint8_t v) { p[0] = v; return p + 1; }
static inline uint8_t *put16(uint8_t *p, uint16_t v)
{
    p[0] = (uint8_t)(v >> 8); p[1] = (uint8_t)v;
    return p + 2;
}
static inline uint8_t *put32(uint8_t *p, uint32_t v)
{
    p[0] = (uint8_t)(v >> 24); p[1] = (uint8_t)(v >> 16);
    p[2] = (uint8_t)(v >> 8); p[3] = (uint8_t)v;
    return p + 4;
}
static inline uint8_t *put64(uint8_t *p, uint64_t v)
{
    put32(p, (uint32_t)(v >> 32));
    put32(p + 4, (uint32_t)v);
    return p + 8;
}
static inline uint8_t *putstr(uint8_t *p, const char *s) /* with NUL */
{
    size_t n = strlen(s) + 1;
    memcpy(p, s, n);
    return p + n;
}

/* ------------------------------------------------------------------ */
/* Output and event buffers                                             */

static FILE *out;
static uint64_t out_bytes;      /* bytes handed to stdio */
static uint64_t pending_bytes;  /* bytes sitting in open event buffers */
static uint64_t block_size = 2u << 20;

static uint64_t stat_count[256], stat_bytes[256];
static uint64_t stat_clamped;   /* timestamps that had to be clamped (bug) */

static void out_write(const void *p, size_t n)
{
    if (n && fwrite(p, 1, n, out) != n)
        die("write error: %s", strerror(errno));
    out_bytes += n;
}

static inline uint64_t total_bytes(void) { return out_bytes + pending_bytes; }

#define BLOCK_MARKER_BYTES 24   /* u16 tag, u64 ts, u32 size, u64 end, u16 cap */

typedef struct {
    uint8_t *mem;
    size_t len;                 /* bytes used, including the marker */
    int open;
    uint16_t capno;             /* 0xffff = global buffer */
    uint64_t first_ts, last_ts;
} EvBuf;

static void buf_init(EvBuf *b, uint16_t capno)
{
    b->mem = xmalloc(block_size);
    b->len = 0;
    b->open = 0;
    b->capno = capno;
    b->first_ts = b->last_ts = 0;
}

static void buf_flush(EvBuf *b)
{
    uint8_t *p;
    if (!b->open)
        return;
    p = put16(b->mem, HS_EV_BLOCK_MARKER);
    p = put64(p, b->first_ts);
    p = put32(p, (uint32_t)b->len);
    p = put64(p, b->last_ts);
    put16(p, b->capno);
    out_write(b->mem, b->len);
    pending_bytes -= b->len;
    b->len = 0;
    b->open = 0;
}

/* Start an event of `payload` bytes at `ts` in buffer b; returns where the
 * payload goes.  Variable-size events get their u16 length written here. */
static inline uint8_t *ev(EvBuf *b, uint16_t tag, uint64_t ts, size_t payload)
{
    int var = tag_size[tag] == VAR;
    size_t n = 10 + (var ? 2 : 0) + payload;
    uint8_t *p;

    if (b->open && b->len + n > block_size)
        buf_flush(b);
    if (!b->open) {
        b->open = 1;
        b->len = BLOCK_MARKER_BYTES;
        b->first_ts = b->last_ts = ts;
        pending_bytes += BLOCK_MARKER_BYTES;
        stat_count[HS_EV_BLOCK_MARKER]++;
        stat_bytes[HS_EV_BLOCK_MARKER] += BLOCK_MARKER_BYTES;
    }
    if (ts < b->last_ts) {      /* never expected; keeps the output valid */
        ts = b->last_ts;
        stat_clamped++;
    }
    b->last_ts = ts;
    p = b->mem + b->len;
    b->len += n;
    pending_bytes += n;
    stat_count[tag]++;
    stat_bytes[tag] += n;
    p = put16(p, tag);
    p = put64(p, ts);
    if (var)
        p = put16(p, (uint16_t)payload);
    return p;
}

static inline void ev0(EvBuf *b, uint16_t tag, uint64_t ts) { (void)ev(b, tag, ts, 0); }

static void ev_str(EvBuf *b, uint16_t tag, uint64_t ts, const char *s) /* no NUL */
{
    size_t n = strlen(s);
    memcpy(ev(b, tag, ts, n), s, n);
}

/* ------------------------------------------------------------------ */
/* Simulation state                                                     */

#define CAPSET_OSPROCESS 0
#define CAPSET_CLOCKDOMAIN 1
#define MAX_CAPS 256

/* thread stop statuses (rts/include/rts/Constants.h) */
enum {
    ST_HEAP_OVERFLOW = 1, ST_STACK_OVERFLOW = 2, ST_YIELDING = 3,
    ST_FINISHED = 5, ST_FOREIGN_CALL = 6, ST_BLOCKED_MVAR = 7,
    ST_BLOCKED_BLACKHOLE = 8, ST_BLOCKED_STM = 12,
    ST_BLOCKED_THROWTO = 16, ST_BLOCKED_MVAR_READ = 20
};

typedef struct {
    EvBuf buf;
    uint64_t t;                 /* the capability's clock (ns) */
    uint64_t alloc_since_gc;    /* bytes allocated in its nursery */
    uint64_t total_alloc;       /* HEAP_ALLOCATED value */
    uint32_t *rq;               /* run queue (ring buffer of thread ids) */
    uint32_t rq_head, rq_len, rq_cap;
    uint64_t sparks[7];         /* created dud overflowed converted gcd fizzled remaining */
} Cap;

static int ncaps = 2;
static Cap caps[MAX_CAPS];
static EvBuf gbuf;              /* the global buffer (cap 0xffff) */

typedef struct { uint32_t tid; uint16_t cap; } Blocked;
static Blocked *blocked;
static uint32_t nblocked, blocked_cap;
static uint32_t next_tid = 1, nlive;

static const uint64_t nursery = 4u << 20;       /* -A4m */
static const uint64_t alloc_rate_x256 = 72;     /* bytes allocated per ns, x256 */
static uint64_t sample_interval = 100000000;    /* -i0.1 */
static uint64_t next_census;
static uint64_t era;
static uint64_t n_gcs, n_major;

/* heap model */
static uint64_t live_bytes = 24u << 20;
static uint64_t heap_mblocks = 64;              /* heap size in MB */

/* output phase: 0 normal, 1 no censuses, 2 no GCs/user messages */
static int phase;

static void rq_push(Cap *c, uint32_t tid)
{
    if (c->rq_len == c->rq_cap) {
        uint32_t ncap = c->rq_cap ? c->rq_cap * 2 : 64, i;
        uint32_t *n = xmalloc(ncap * sizeof *n);
        for (i = 0; i < c->rq_len; i++)
            n[i] = c->rq[(c->rq_head + i) % c->rq_cap];
        free(c->rq);
        c->rq = n;
        c->rq_cap = ncap;
        c->rq_head = 0;
    }
    c->rq[(c->rq_head + c->rq_len++) % c->rq_cap] = tid;
}

static uint32_t rq_pop(Cap *c)
{
    uint32_t tid = c->rq[c->rq_head];
    c->rq_head = (c->rq_head + 1) % c->rq_cap;
    c->rq_len--;
    return tid;
}

static void block_thread(uint32_t tid, int cap)
{
    if (nblocked == blocked_cap) {
        blocked_cap = blocked_cap ? blocked_cap * 2 : 256;
        blocked = realloc(blocked, blocked_cap * sizeof *blocked);
        if (!blocked)
            die("out of memory");
    }
    blocked[nblocked].tid = tid;
    blocked[nblocked].cap = (uint16_t)cap;
    nblocked++;
}

/* ------------------------------------------------------------------ */
/* Cost centres and stacks                                              */

typedef struct {
    uint32_t id;
    char label[48], module[40], srcloc[160];
    uint8_t is_caf;
    uint16_t nchild;
    uint16_t child[6];          /* indices of likely callees */
} CostCentre;

static CostCentre *ccs;
static uint32_t nccs, n_user_ccs_start;
static uint32_t cc_main_idx, cc_system_idx, cc_pinned_idx;

#define NSTACKS 1200
#define MAXDEPTH 12
typedef struct {
    uint8_t depth;
    uint32_t cc[MAXDEPTH];      /* cost centre ids, innermost first */
    uint64_t weight;            /* relative residency */
} Stack;
static Stack stacks[NSTACKS];
static uint32_t stack_order[NSTACKS];   /* census ranking */
static uint32_t census_n = 80;          /* entries in the current census */

static const char *lib_modules[] = {
    "GHC.Types", "GHC.Tuple", "GHC.Classes", "GHC.CString", "GHC.Base",
    "GHC.Show", "GHC.Read", "GHC.Real", "GHC.Enum", "GHC.Num", "GHC.List",
    "GHC.Float", "GHC.Word", "GHC.Int", "GHC.Arr", "GHC.ST", "GHC.STRef",
    "GHC.IORef", "GHC.MVar", "GHC.Weak", "GHC.Stable", "GHC.Ptr",
    "GHC.Exception", "GHC.Conc.Sync", "GHC.Conc.Signal", "GHC.TopHandler",
    "GHC.Unicode", "GHC.Stack.CCS", "GHC.Stack.Types", "GHC.IO.Handle.FD",
    "GHC.IO.Handle.Text", "GHC.IO.Handle.Internals", "GHC.IO.Encoding",
    "GHC.IO.Encoding.Iconv", "GHC.IO.Encoding.UTF8", "GHC.IO.FD",
    "GHC.IO.Exception", "GHC.Event.Thread", "GHC.Event.Manager",
    "GHC.Event.TimerManager", "GHC.Event.IntTable", "GHC.Event.EPoll",
    "GHC.Event.Control", "GHC.Event.Unique", "GHC.Event.PSQ",
    "GHC.Num.Integer", "GHC.Num.Natural", "Data.OldList", "Data.Maybe",
    "Data.Typeable.Internal", "Data.Dynamic", "Data.Bits", "Foreign.C.Error",
    "Foreign.C.String", "Foreign.Marshal.Alloc", "Foreign.Marshal.Array",
    "System.IO", "System.Posix.Internals", "Text.Read.Lex",
    "Text.ParserCombinators.ReadP", "Data.Map.Internal", "Data.IntMap.Internal",
    "Data.Set.Internal", "Data.Sequence.Internal", "Data.Text.Internal",
    "Data.Text.Encoding", "Data.ByteString.Internal", "Data.ByteString.Builder",
    "Data.HashMap.Internal", "Data.Aeson.Types.Internal", "Data.Vector.Mutable",
    "Control.Monad.State.Strict", "Control.Concurrent.STM.TVar",
};

static const char *user_modules[] = {
    "Main", "App.Server", "App.Handler", "App.Router", "App.Config",
    "App.Cache", "App.Json", "App.Db.Pool", "App.Db.Query", "App.Metrics",
    "App.Log", "App.Types", "App.Util", "App.Session", "App.Worker",
    "Data.Index.Tree", "Data.Index.Build", "Data.Queue.Bounded",
    "Codec.Wire.Parser", "Codec.Wire.Render", "Codec.Wire.Lexer",
    "Engine.Eval", "Engine.Compile", "Engine.Optimise",
};

static const char *fun_names[] = {
    "main", "run", "serve", "handle", "handleRequest", "parseRequest",
    "renderResponse", "encode", "decode", "insert", "insertWith", "lookup",
    "lookupDefault", "delete", "update", "alter", "union", "unionWith",
    "fromList", "toList", "foldlStrict", "foldr", "mapAccum", "traverseRows",
    "worker", "dispatch", "route", "compile", "eval", "evalExpr", "simplify",
    "inline", "buildIndex", "merge", "mergeSorted", "split", "splitAt",
    "tokenize", "lexer", "parseExpr", "parseTerm", "parseFactor", "render",
    "renderRow", "flush", "readChunk", "writeChunk", "withConnection",
    "query", "decodeRow", "encodeRow", "newSession", "expire", "evict",
    "record", "observe", "histogram", "logLine", "formatTime", "mkKey",
    "hashKey", "normalise", "validate", "checkInvariant", "rebalance",
    "step", "loop", "go", "enqueue", "dequeue", "drain", "schedule",
    "accept", "recvAll", "sendAll", "chunksOf", "pack", "unpack",
};

static const char *local_names[] = { "go", "loop", "\\", "step", "k", "f", "aux" };

static void make_cost_centres(void)
{
    size_t nlib = sizeof lib_modules / sizeof lib_modules[0];
    size_t nmod = sizeof user_modules / sizeof user_modules[0];
    size_t nfun = sizeof fun_names / sizeof fun_names[0];
    static const struct { const char *l, *m; } builtins[] = {
        {"IDLE", "IDLE"}, {"PINNED", "SYSTEM"}, {"DONT_CARE", "MAIN"},
        {"OVERHEAD_of", "PROFILING"}, {"GC", "GC"}, {"SYSTEM", "SYSTEM"},
        {"MAIN", "MAIN"},
    };
    uint32_t nuser = 200 + below(60), i, j;
    uint32_t total = 7 + (uint32_t)nlib + (uint32_t)nmod + nuser;

    ccs = xmalloc(total * sizeof *ccs);
    memset(ccs, 0, total * sizeof *ccs);
    nccs = 0;
    for (i = 0; i < 7; i++) {
        CostCentre *c = &ccs[nccs++];
        snprintf(c->label, sizeof c->label, "%s", builtins[i].l);
        snprintf(c->module, sizeof c->module, "%s", builtins[i].m);
        snprintf(c->srcloc, sizeof c->srcloc, "<built-in>");
        if (!strcmp(builtins[i].l, "MAIN")) cc_main_idx = i;
        if (!strcmp(builtins[i].l, "SYSTEM")) cc_system_idx = i;
        if (!strcmp(builtins[i].l, "PINNED")) cc_pinned_idx = i;
    }
    for (i = 0; i < nlib; i++) {
        CostCentre *c = &ccs[nccs++];
        snprintf(c->label, sizeof c->label, "CAF");
        snprintf(c->module, sizeof c->module, "%s", lib_modules[i]);
        snprintf(c->srcloc, sizeof c->srcloc, "<entire-module>");
        c->is_caf = 1;
    }
    for (i = 0; i < nmod; i++) {
        CostCentre *c = &ccs[nccs++];
        snprintf(c->label, sizeof c->label, "CAF");
        snprintf(c->module, sizeof c->module, "%s", user_modules[i]);
        snprintf(c->srcloc, sizeof c->srcloc, "<entire-module>");
        c->is_caf = 1;
    }
    n_user_ccs_start = nccs;
    /* "main" in Main comes first so stacks can start there */
    for (i = 0; i < nuser; i++) {
        CostCentre *c = &ccs[nccs++];
        uint32_t mi = i == 0 ? 0 : below((uint32_t)nmod);
        const char *m = user_modules[mi];
        const char *f = i == 0 ? "main" : fun_names[below((uint32_t)nfun)];
        char path[64];
        uint32_t line = 10 + below(600);
        size_t k;

        if (i > 0 && chance(250))
            snprintf(c->label, sizeof c->label, "%s.%s", f,
                     local_names[below(sizeof local_names / sizeof local_names[0])]);
        else
            snprintf(c->label, sizeof c->label, "%s", f);
        snprintf(c->module, sizeof c->module, "%s", m);
        if (!strcmp(m, "Main"))
            snprintf(path, sizeof path, "app/Main.hs");
        else {
            snprintf(path, sizeof path, "src/%s.hs", m);
            for (k = 4; path[k] && strcmp(path + k, ".hs"); k++)
                if (path[k] == '.')
                    path[k] = '/';
        }
        /* one random number per statement: argument order is unspecified */
        if (chance(400)) {
            uint32_t c1 = 1 + below(9), l2 = line + 2 + below(40), c2 = 5 + below(70);
            snprintf(c->srcloc, sizeof c->srcloc, "%s:(%u,%u)-(%u,%u)", path,
                     line, c1, l2, c2);
        } else {
            uint32_t c1 = 1 + below(30), c2 = 32 + below(50);
            snprintf(c->srcloc, sizeof c->srcloc, "%s:%u:%u-%u", path, line, c1, c2);
        }
    }
    /* ids: the RTS dumps its cost-centre list newest first, so ids count down */
    for (i = 0; i < nccs; i++)
        ccs[i].id = nccs - i;
    /* call graph among user cost centres (plus a few library CAFs) */
    for (i = n_user_ccs_start; i < nccs; i++) {
        CostCentre *c = &ccs[i];
        c->nchild = (uint16_t)(2 + below(5));
        for (j = 0; j < c->nchild; j++)
            c->child[j] = (uint16_t)(n_user_ccs_start + 1 + below(nuser - 1));
    }
}

static uint64_t stack_hash(const Stack *s)
{
    uint64_t h = UINT64_C(1469598103934665603);
    uint32_t i;
    for (i = 0; i < s->depth; i++)
        h = (h ^ s->cc[i]) * UINT64_C(1099511628211);
    return h ^ s->depth;
}

/* A pool of distinct cost-centre stacks shaped like a call tree: most start at
 * main, some at a CAF, plus the SYSTEM and PINNED stacks every -hc profile has. */
static void make_stacks(void)
{
    enum { HT = 4096 };
    static uint64_t seen[HT];
    uint32_t n = 0, tries = 0, i;
    static const uint8_t depth_dist[] = {   /* weights for depth 1..12 */
        4, 8, 12, 14, 14, 12, 10, 8, 6, 5, 4, 3
    };
    uint32_t depth_total = 0;

    for (i = 0; i < MAXDEPTH; i++)
        depth_total += depth_dist[i];
    memset(seen, 0, sizeof seen);

    while (n < NSTACKS && tries++ < 200 * NSTACKS) {
        Stack s;
        uint32_t path[MAXDEPTH], d, r, cur, k;
        uint64_t h;
        size_t slot;

        memset(&s, 0, sizeof s);
        if (n == 0 || n == 1) {
            s.depth = 1;
            s.cc[0] = ccs[n == 0 ? cc_system_idx : cc_pinned_idx].id;
        } else {
            r = below(depth_total);
            for (d = 0; r >= depth_dist[d]; d++)
                r -= depth_dist[d];
            d++;
            if (d <= 3 && chance(200)) {
                /* a CAF and what it calls */
                cur = 7 + below(n_user_ccs_start - 7);
                path[0] = cur;
                cur = ccs[n_user_ccs_start + 1 + below(nccs - n_user_ccs_start - 1)].child[0];
                for (k = 1; k < d; k++) {
                    path[k] = cur;
                    cur = ccs[cur].child[below(ccs[cur].nchild)];
                }
            } else {
                cur = n_user_ccs_start;     /* main */
                for (k = 0; k < d; k++) {
                    path[k] = cur;
                    cur = ccs[cur].child[below(ccs[cur].nchild)];
                }
            }
            s.depth = (uint8_t)d;
            for (k = 0; k < d; k++)             /* innermost first */
                s.cc[k] = ccs[path[d - 1 - k]].id;
        }
        h = stack_hash(&s) | 1;
        for (slot = h % HT; seen[slot] && seen[slot] != h; slot = (slot + 1) % HT)
            ;
        if (seen[slot] == h)
            continue;
        seen[slot] = h;
        /* heavy-tailed residency weights */
        s.weight = UINT64_C(1) << (4 + below(18));
        s.weight += below(1u << 12);
        if (n < 2)
            s.weight = UINT64_C(1) << 20;
        stacks[n++] = s;
    }
    if (n < NSTACKS)
        die("internal error: could not build the stack pool (%u)", n);
    for (i = 0; i < NSTACKS; i++)
        stack_order[i] = i;
    for (i = NSTACKS - 1; i > 2; i--) {     /* keep SYSTEM, PINNED first */
        uint32_t j = 2 + below(i - 1);
        uint32_t t = stack_order[i];
        stack_order[i] = stack_order[j];
        stack_order[j] = t;
    }
}

/* ------------------------------------------------------------------ */
/* Header and startup                                                   */

static void write_header(void)
{
    size_t cap = 16384, i;
    uint8_t *h = xmalloc(cap), *p = h;

    p = put32(p, 0x68647262);   /* hdrb */
    p = put32(p, 0x68657462);   /* hetb */
    for (i = 0; i < N_EVENT_TYPES; i++) {
        const struct evtype *t = &table[event_types[i]];
        size_t dl = strlen(t->desc);
        p = put32(p, 0x65746200);       /* etb\0 */
        p = put16(p, event_types[i]);
        p = put16(p, (uint16_t)t->size);
        p = put32(p, (uint32_t)dl);
        memcpy(p, t->desc, dl);
        p += dl;
        p = put32(p, 0);                /* no extra info */
        p = put32(p, 0x65746500);       /* ete\0 */
    }
    p = put32(p, 0x68657465);   /* hete */
    p = put32(p, 0x68647265);   /* hdre */
    p = put32(p, 0x64617462);   /* datb */
    out_write(h, (size_t)(p - h));
    free(h);
}

/* variable event from a list of NUL-terminated strings after a u32 capset */
static void ev_capset_strings(EvBuf *b, uint16_t tag, uint64_t ts, uint32_t capset,
                              const char *const *v, size_t n, int nul_terminate_last)
{
    size_t len = 4, i;
    uint8_t *p;
    for (i = 0; i < n; i++)
        len += strlen(v[i]) + 1;
    if (!nul_terminate_last)
        len--;
    p = put32(ev(b, tag, ts, len), capset);
    for (i = 0; i < n; i++) {
        size_t l = strlen(v[i]) + (i + 1 < n || nul_terminate_last ? 1 : 0);
        memcpy(p, v[i], l);
        p += l;
    }
}

static void startup(void)
{
    uint64_t t = 80000 + below(40000);
    char ncap_arg[16], i_arg[32];
    const char *args[] = {
        "./bench-server", "--workers", "64", "--port", "8080",
        "+RTS", ncap_arg, "-hc", "-l", i_arg, "-RTS",
    };
    const char *env[] = {
        "HOME=/home/bench", "LANG=C.UTF-8", "LOGNAME=bench",
        "PATH=/usr/local/bin:/usr/bin:/bin", "PWD=/home/bench/server",
        "SHELL=/bin/bash", "TERM=xterm-256color", "USER=bench",
        "_=/home/bench/server/./bench-server",
    };
    uint8_t *p;
    int c;
    uint32_t i;

    snprintf(ncap_arg, sizeof ncap_arg, "-N%d", ncaps);
    if (sample_interval % 1000000 == 0)
        snprintf(i_arg, sizeof i_arg, "-i%g", (double)sample_interval / 1e9);
    else
        snprintf(i_arg, sizeof i_arg, "-i%.6f", (double)sample_interval / 1e9);

    p = put32(ev(&gbuf, HS_EV_CAPSET_CREATE, t, 6), CAPSET_OSPROCESS);
    put16(p, 2);                            /* CapsetOsProcess */
    p = put32(ev(&gbuf, HS_EV_CAPSET_CREATE, t += 50, 6), CAPSET_CLOCKDOMAIN);
    put16(p, 3);                            /* CapsetClockDomain */
    for (c = 0; c < ncaps; c++) {
        put16(ev(&gbuf, HS_EV_CAP_CREATE, t += 1000 + below(200), 2), (uint16_t)c);
        p = put32(ev(&gbuf, HS_EV_CAPSET_ASSIGN_CAP, t += 30, 6), CAPSET_OSPROCESS);
        put16(p, (uint16_t)c);
        p = put32(ev(&gbuf, HS_EV_CAPSET_ASSIGN_CAP, t += 60, 6), CAPSET_CLOCKDOMAIN);
        put16(p, (uint16_t)c);
    }
    p = put32(ev(&gbuf, HS_EV_WALL_CLOCK_TIME, t += 300, 16), CAPSET_CLOCKDOMAIN);
    p = put64(p, UINT64_C(1735689600) + below(30000000));
    put32(p, below(1000000) * 1000);
    p = put32(ev(&gbuf, HS_EV_OSPROCESS_PID, t += 600, 8), CAPSET_OSPROCESS);
    put32(p, 1000 + below(60000));
    p = put32(ev(&gbuf, HS_EV_OSPROCESS_PPID, t += 200, 8), CAPSET_OSPROCESS);
    put32(p, 1000 + below(60000));
    {
        const char *rts[] = { "GHC-9.4.8 rts_thr_p" };
        ev_capset_strings(&gbuf, HS_EV_RTS_IDENTIFIER, t += 800, CAPSET_OSPROCESS, rts, 1, 0);
    }
    ev_capset_strings(&gbuf, HS_EV_PROGRAM_ARGS, t += 400, CAPSET_OSPROCESS,
                      args, sizeof args / sizeof args[0], 1);
    ev_capset_strings(&gbuf, HS_EV_PROGRAM_ENV, t += 2000, CAPSET_OSPROCESS,
                      env, sizeof env / sizeof env[0], 1);

    /* HEAP_INFO_GHC: capset, gens, max heap, alloc area, mblock, block */
    p = put32(ev(&gbuf, HS_EV_HEAP_INFO_GHC, t += 40000, 38), CAPSET_OSPROCESS);
    p = put16(p, 2);
    p = put64(p, 0);
    p = put64(p, nursery);
    p = put64(p, 1u << 20);
    put64(p, 4096);

    /* HEAP_PROF_BEGIN: profile id, period, breakdown (1 = -hc), 7 filters */
    p = put8(ev(&gbuf, HS_EV_HEAP_PROF_BEGIN, t += 150000, 1 + 8 + 4 + 7), 0);
    p = put64(p, sample_interval);
    p = put32(p, 1);
    memset(p, 0, 7);

    for (i = 0; i < nccs; i++) {
        const CostCentre *cc = &ccs[i];
        size_t len = 4 + strlen(cc->label) + 1 + strlen(cc->module) + 1 +
                     strlen(cc->srcloc) + 1 + 1;
        p = put32(ev(&gbuf, HS_EV_HEAP_PROF_COST_CENTRE, t += 80 + below(1000), len), cc->id);
        p = putstr(p, cc->label);
        p = putstr(p, cc->module);
        p = putstr(p, cc->srcloc);
        put8(p, cc->is_caf);
    }

    /* each capability: its task, the main thread / IO manager threads */
    for (c = 0; c < ncaps; c++) {
        Cap *cp = &caps[c];
        uint64_t ct = t + 1000 + below(5000);
        p = put64(ev(&cp->buf, HS_EV_TASK_CREATE, ct, 18), UINT64_C(0x7f3a10000000) + ((uint64_t)c << 24));
        p = put16(p, (uint16_t)c);
        put64(p, 20000 + (uint64_t)c);
        cp->t = ct + 2000;
    }
    /* flush the startup events, as the RTS does, so definitions come first */
    buf_flush(&gbuf);
    for (c = 0; c < ncaps; c++)
        buf_flush(&caps[c].buf);
    next_census = t + sample_interval;
}

/* ------------------------------------------------------------------ */
/* Scheduler events                                                     */

/* forkIO on capability ci at ts; returns the time of the last event posted */
static uint64_t new_thread(int ci, uint64_t ts)
{
    Cap *c = &caps[ci];
    uint32_t tid = next_tid++;
    put32(ev(&c->buf, HS_EV_CREATE_THREAD, ts, 4), tid);
    if (chance(100)) {
        char lbl[32];
        size_t n = (size_t)snprintf(lbl, sizeof lbl, "worker-%u", tid);
        uint8_t *p = put32(ev(&c->buf, HS_EV_THREAD_LABEL, ts += 200, 4 + n), tid);
        memcpy(p, lbl, n);
    }
    put32(ev(&c->buf, HS_EV_THREAD_RUNNABLE, ts += 150 + below(300), 4), tid);
    rq_push(c, tid);
    nlive++;
    return ts;
}

/* wake a random blocked thread from capability ci at time ts */
static void wake_one(int ci, uint64_t ts)
{
    uint32_t k = below(nblocked);
    Blocked b = blocked[k];
    uint8_t *p;
    blocked[k] = blocked[--nblocked];
    p = put32(ev(&caps[ci].buf, HS_EV_THREAD_WAKEUP, ts, 6), b.tid);
    put16(p, b.cap);
    rq_push(&caps[b.cap], b.tid);
}

static void user_event(int ci, uint64_t ts)
{
    static const char *phases[] = {
        "rebuild index", "flush cache", "compact sessions", "reload config",
        "checkpoint", "rotate logs",
    };
    char msg[128];
    /* one random number per statement: argument order is unspecified */
    if (chance(500)) {
        const char *what = phases[below(6)];
        uint32_t n = below(100000);
        snprintf(msg, sizeof msg, "%s #%u", what, n);
        ev_str(&caps[ci].buf, HS_EV_USER_MARKER, ts, msg);
    } else {
        uint32_t req = next_tid * 7 + below(1000);
        const char *verb = chance(700) ? "served" : "stored";
        uint32_t rows = below(5000), us = 20 + below(90000);
        snprintf(msg, sizeof msg, "req %u: %s %u rows in %u us", req, verb, rows, us);
        ev_str(&caps[ci].buf, HS_EV_USER_MSG, ts, msg);
    }
}

/* slice length in ns: mostly short (1-500 us), sometimes a whole 20 ms
 * context-switch quantum */
static uint64_t slice_len(void)
{
    uint32_t e;
    if (chance(10))
        return 20000000 + below(200000);
    e = 10 + below(9);
    return (UINT64_C(1) << e) + below(1u << e);
}

static void do_gc(int leader);

/* One scheduler round on capability ci. */
static void cap_step(int ci)
{
    Cap *c = &caps[ci];
    uint64_t t = c->t, d, u;
    uint32_t tid, status, blocker = 0;
    int o;

    if (c->rq_len == 0) {
        /* idle: wait for something (timer, IO manager, another cap) */
        t += 2000 + below(200000);
        for (o = 0; o < ncaps; o++) {
            Cap *oc = &caps[o];
            if (o != ci && oc->rq_len >= 3 && oc->t <= t) {
                uint8_t *p;
                tid = rq_pop(oc);
                p = put32(ev(&oc->buf, HS_EV_MIGRATE_THREAD, oc->t, 6), tid);
                put16(p, (uint16_t)ci);
                rq_push(c, tid);
                break;
            }
        }
        if (c->rq_len == 0) {
            int mine = -1;
            uint32_t k;
            for (k = 0; k < nblocked && k < 16; k++)
                if (blocked[nblocked - 1 - k].cap == ci) {
                    mine = (int)(nblocked - 1 - k);
                    break;
                }
            if (mine >= 0 && (nlive > 40 || chance(600))) {
                Blocked b = blocked[mine];
                uint8_t *p;
                blocked[mine] = blocked[--nblocked];
                p = put32(ev(&c->buf, HS_EV_THREAD_WAKEUP, t, 6), b.tid);
                put16(p, (uint16_t)ci);
                rq_push(c, b.tid);
            } else {
                t = new_thread(ci, t);
            }
            t += 500 + below(3000);
        }
    }

    tid = rq_pop(c);
    put32(ev(&c->buf, HS_EV_RUN_THREAD, t, 4), tid);
    d = slice_len();
    /* things the thread does while it runs, at increasing times u */
    u = t;
    if (phase < 2 && chance(6))
        user_event(ci, u += d / 3);
    if (chance(nlive < 30 ? 120 : nlive < 300 ? 40 : 5))
        u = new_thread(ci, u + d / 4);
    if (nblocked && chance(nblocked > 200 ? 400 : 180))
        wake_one(ci, u += d / 4);
    t = t + d > u + 100 ? t + d : u + 100;
    c->alloc_since_gc += (d * alloc_rate_x256) >> 8;

    if (c->alloc_since_gc >= nursery) {
        status = ST_HEAP_OVERFLOW;
    } else {
        uint32_t r = below(1000);
        if (r < 420) status = ST_HEAP_OVERFLOW;
        else if (r < 600) status = ST_YIELDING;
        else if (r < 760) status = ST_BLOCKED_MVAR;
        else if (r < 800) status = ST_BLOCKED_MVAR_READ;
        else if (r < 830) status = ST_BLOCKED_BLACKHOLE;
        else if (r < 845) status = ST_BLOCKED_STM;
        else if (r < 850) status = ST_BLOCKED_THROWTO;
        else if (r < 920) status = ST_FOREIGN_CALL;
        else if (r < 940) status = ST_STACK_OVERFLOW;
        else status = nlive > 8 ? ST_FINISHED : ST_YIELDING;
    }
    if (status == ST_BLOCKED_BLACKHOLE)
        blocker = tid > 1 ? 1 + below(tid - 1) : 1;
    {
        uint8_t *p = put32(ev(&c->buf, HS_EV_STOP_THREAD, t, 10), tid);
        p = put16(p, (uint16_t)status);
        put32(p, blocker);
    }
    switch (status) {
    case ST_FINISHED:
        nlive--;
        break;
    case ST_BLOCKED_MVAR: case ST_BLOCKED_MVAR_READ: case ST_BLOCKED_BLACKHOLE:
    case ST_BLOCKED_STM: case ST_BLOCKED_THROWTO:
        block_thread(tid, ci);
        break;
    default:
        /* push work to an idle capability now and then */
        if (ncaps > 1 && c->rq_len >= 1 && chance(60)) {
            o = (int)below((uint32_t)ncaps - 1);
            if (o >= ci)
                o++;
            if (caps[o].rq_len == 0) {
                uint8_t *p = put32(ev(&c->buf, HS_EV_MIGRATE_THREAD, t + 300, 6), tid);
                put16(p, (uint16_t)o);
                rq_push(&caps[o], tid);
                t += 300;
                break;
            }
        }
        rq_push(c, tid);
        break;
    }
    c->t = t + 200 + below(2000);

    if (c->alloc_since_gc >= nursery && phase < 2)
        do_gc(ci);
}

/* ------------------------------------------------------------------ */
/* GC and heap census                                                   */

static void census(uint64_t *tp)
{
    uint64_t t = *tp, sum = 0, total;
    uint32_t i, n, shift = 0;
    int dn;

    /* slowly changing set and size of the census */
    dn = (int)below(9) - 4;
    if ((int)census_n + dn < 20) census_n = 20;
    else if ((int)census_n + dn > 200) census_n = 200;
    else census_n = (uint32_t)((int)census_n + dn);
    n = census_n;
    for (i = 0; i < 3; i++) {
        uint32_t a = 2 + below(n + 20 - 2), b = 2 + below(NSTACKS - 2), x;
        x = stack_order[a]; stack_order[a] = stack_order[b]; stack_order[b] = x;
    }
    for (i = 0; i < n; i++) {
        Stack *s = &stacks[stack_order[i]];
        /* drift: most bands wobble, a few grow steadily */
        if ((stack_order[i] & 15) == 3)
            s->weight += (s->weight >> 5) + 1;
        else if (chance(500))
            s->weight += s->weight >> 4;
        else if (s->weight > 64)
            s->weight -= s->weight >> 4;
        if (s->weight > (UINT64_C(1) << 40))
            s->weight >>= 1;
        sum += s->weight;
    }
    total = live_bytes;
    /* integer shares of the live heap (no floating point, for the sake of
     * reproducibility): total * w / sum with both factors below 2^32 */
    while ((sum >> shift) >= (UINT64_C(1) << 31))
        shift++;

    put64(ev(&gbuf, HS_EV_HEAP_PROF_SAMPLE_BEGIN, t, 8), era);
    for (i = 0; i < n; i++) {
        const Stack *s = &stacks[stack_order[i]];
        uint64_t bytes = total * (s->weight >> shift) / ((sum >> shift) | 1);
        uint8_t *p;
        uint32_t k;
        bytes = (bytes & ~(uint64_t)7) + 16;
        t += 300 + below(1500);
        p = put8(ev(&gbuf, HS_EV_HEAP_PROF_SAMPLE_COST_CENTRE, t, 1 + 8 + 1 + 4u * s->depth), 0);
        p = put64(p, bytes);
        p = put8(p, s->depth);
        for (k = 0; k < s->depth; k++)
            p = put32(p, s->cc[k]);
    }
    t += 2000 + below(5000);
    put64(ev(&gbuf, HS_EV_HEAP_PROF_SAMPLE_END, t, 8), era);
    era++;
    *tp = t;
}

static void heap_ev(Cap *c, uint16_t tag, uint64_t ts, uint64_t v)
{
    put64(put32(ev(&c->buf, tag, ts, 12), CAPSET_OSPROCESS), v);
}

static void spark_counters(Cap *c, uint64_t ts)
{
    uint8_t *p;
    int k;
    if (chance(100)) {
        uint64_t n = below(40);
        c->sparks[0] += n;                  /* created */
        c->sparks[3] += n - n / 8;          /* converted */
        c->sparks[5] += n / 8;              /* fizzled */
    }
    p = ev(&c->buf, HS_EV_SPARK_COUNTERS, ts, 56);
    for (k = 0; k < 7; k++)
        p = put64(p, c->sparks[k]);
}

static void do_gc(int leader)
{
    Cap *L = &caps[leader];
    uint64_t T = L->t, S = 0, E, dur, copied, t;
    uint64_t gc_end[MAX_CAPS];
    int i, major, do_census, rounds;

    ev0(&L->buf, ncaps > 1 ? HS_EV_REQUEST_PAR_GC : HS_EV_REQUEST_SEQ_GC, T);
    /* the other capabilities stop at their next heap check */
    for (i = 0; i < ncaps; i++) {
        Cap *c = &caps[i];
        if (i == leader)
            continue;
        if (c->t < T && c->rq_len > 0) {
            uint32_t tid = rq_pop(c);
            uint64_t stop = T + 1000 + below(20000);
            uint8_t *p;
            put32(ev(&c->buf, HS_EV_RUN_THREAD, c->t, 4), tid);
            p = put32(ev(&c->buf, HS_EV_STOP_THREAD, stop, 10), tid);
            p = put16(p, ST_HEAP_OVERFLOW);
            put32(p, 0);
            c->alloc_since_gc += ((stop - c->t) * alloc_rate_x256) >> 8;
            c->t = stop;
            rq_push(c, tid);
        }
        if (c->t > S)
            S = c->t;
    }
    if (T > S)
        S = T;
    S += 1000 + below(10000);

    do_census = phase == 0 && S >= next_census;
    major = do_census || chance(70);
    if (major) {
        copied = live_bytes;
        dur = live_bytes / 4 + 50000 + below(500000);     /* ~4 GB/s */
    } else {
        copied = 20000 + below(1500000);
        dur = copied / 2 + 20000 + below(200000);
    }
    E = S + dur;

    for (i = 0; i < ncaps; i++) {
        Cap *c = &caps[i];
        uint64_t g = S + below(3000), span;
        int r;
        ev0(&c->buf, HS_EV_GC_START, g);
        rounds = (int)below(3);
        span = (E - g) / (uint64_t)(2 * rounds + 3);
        ev0(&c->buf, HS_EV_GC_WORK, g += 500 + below(2000));
        for (r = 0; r < rounds; r++) {
            ev0(&c->buf, HS_EV_GC_IDLE, g += span);
            ev0(&c->buf, HS_EV_GC_WORK, g += span / 4);
        }
        ev0(&c->buf, HS_EV_GC_IDLE, g += span);
        ev0(&c->buf, HS_EV_GC_DONE, g += 20 + below(100));
        if (chance(500)) {
            ev0(&c->buf, HS_EV_GC_IDLE, g += 100 + below(400));
            ev0(&c->buf, HS_EV_GC_DONE, g += 20 + below(100));
        }
        gc_end[i] = g;
    }

    t = S;
    for (i = 0; i < ncaps; i++)
        if (gc_end[i] > t)
            t = gc_end[i];
    t += 200 + below(2000);
    if (do_census) {
        census(&t);
        while (next_census <= S)
            next_census += sample_interval;
    }

    /* heap model: live data follows a sawtooth (a cache that fills up over
     * five minutes and is then dropped) plus noise */
    if (major) {
        uint64_t target = (UINT64_C(32) << 20) + ((S / 1000000000u) % 300) * (400u << 10);
        int64_t noise = (int64_t)(live_bytes / 128) * ((int64_t)below(5) - 2);
        live_bytes = (uint64_t)((int64_t)live_bytes + ((int64_t)target - (int64_t)live_bytes) / 4 + noise);
        if (live_bytes < (UINT64_C(8) << 20))
            live_bytes = UINT64_C(8) << 20;
        live_bytes &= ~(uint64_t)7;
        n_major++;
    }
    {
        uint64_t need = (live_bytes * 2 + (uint64_t)ncaps * nursery) >> 20;
        if (need + 2 > heap_mblocks)
            heap_mblocks = need + 2 + below(8);
        if (major && heap_mblocks > need + 16) {
            uint8_t *p = put32(ev(&L->buf, HS_EV_MEM_RETURN, t += 300, 16), CAPSET_OSPROCESS);
            uint32_t ret = (uint32_t)((heap_mblocks - need) / 2);
            p = put32(p, (uint32_t)heap_mblocks);
            p = put32(p, (uint32_t)need);
            put32(p, ret);
            heap_mblocks -= ret;
        }
    }

    /* stat_endGC: allocation of every capability, then the leader's summary */
    t += 500 + below(1500);
    for (i = 0; i < ncaps; i++) {
        Cap *c = &caps[i];
        c->total_alloc += c->alloc_since_gc;
        c->alloc_since_gc = 0;
        heap_ev(c, HS_EV_HEAP_ALLOCATED, t > c->buf.last_ts ? t : c->buf.last_ts, c->total_alloc);
    }
    ev0(&L->buf, HS_EV_GC_END, t += 200 + below(300));
    ev0(&L->buf, HS_EV_GC_GLOBAL_SYNC, t += 100 + below(300));
    {
        uint8_t *p = put32(ev(&L->buf, HS_EV_GC_STATS_GHC, t += 50, 58), CAPSET_OSPROCESS);
        uint64_t slop = 16000 + below(40000), frag = (512u << 10) + below(1u << 20);
        uint64_t maxc = ncaps > 1 ? range(copied / 2, copied) : 0;
        p = put16(p, major ? 1 : 0);
        p = put64(p, copied & ~(uint64_t)7);
        p = put64(p, slop & ~(uint64_t)7);
        p = put64(p, frag & ~(uint64_t)4095);
        p = put32(p, (uint32_t)ncaps);
        p = put64(p, maxc & ~(uint64_t)7);
        p = put64(p, copied & ~(uint64_t)7);
        put64(p, (copied / 2) & ~(uint64_t)7);
    }
    if (major)
        heap_ev(L, HS_EV_HEAP_LIVE, t += 40 + below(200), live_bytes);
    heap_ev(L, HS_EV_HEAP_SIZE, t += 40 + below(200), heap_mblocks << 20);
    heap_ev(L, HS_EV_BLOCKS_SIZE, t += 40 + below(200),
            (heap_mblocks << 20) - (((heap_mblocks << 20) / 8) & ~(uint64_t)4095));
    spark_counters(L, t += 100 + below(300));
    L->t = t + 300 + below(1000);

    for (i = 0; i < ncaps; i++) {
        Cap *c = &caps[i];
        uint64_t w;
        if (i == leader)
            continue;
        w = (t > c->buf.last_ts ? t : c->buf.last_ts) + 500 + below(3000);
        ev0(&c->buf, HS_EV_GC_END, w);
        spark_counters(c, w += 100 + below(300));
        c->t = w + 300 + below(1000);
    }
    n_gcs++;
}

/* ------------------------------------------------------------------ */
/* Driver                                                               */

static int next_cap(void)
{
    int i, best = 0;
    for (i = 1; i < ncaps; i++)
        if (caps[i].t < caps[best].t)
            best = i;
    return best;
}

static void shutdown_events(void)
{
    uint64_t t = 0;
    int c;
    uint8_t *p;
    for (c = 0; c < ncaps; c++)
        if (caps[c].t > t)
            t = caps[c].t;
    if (gbuf.last_ts > t)
        t = gbuf.last_ts;
    t += 50000;
    for (c = 0; c < ncaps; c++) {
        put16(ev(&gbuf, HS_EV_CAP_DELETE, t += 100, 2), (uint16_t)c);
        p = put32(ev(&gbuf, HS_EV_CAPSET_REMOVE_CAP, t += 30, 6), CAPSET_OSPROCESS);
        put16(p, (uint16_t)c);
        p = put32(ev(&gbuf, HS_EV_CAPSET_REMOVE_CAP, t += 30, 6), CAPSET_CLOCKDOMAIN);
        put16(p, (uint16_t)c);
    }
    put32(ev(&gbuf, HS_EV_CAPSET_DELETE, t += 100, 4), CAPSET_OSPROCESS);
    put32(ev(&gbuf, HS_EV_CAPSET_DELETE, t += 100, 4), CAPSET_CLOCKDOMAIN);
}

/* A user message of exactly `gap` bytes (including any new block marker)
 * on capability 0, so the file has exactly the requested size. */
static void pad_exact(uint64_t gap)
{
    static const char words[] =
        "shutdown: served=1843022 stored=220481 errors=17 p50_us=412 p99_us=9120 "
        "cache_hits=991023 cache_misses=40212 sessions=1022 gc_pause_max_us=14210 ";
    EvBuf *b = &caps[0].buf;
    uint64_t overhead = 12, n, k;
    uint8_t *p;

    if (!b->open || b->len + gap > block_size) {
        buf_flush(b);
        overhead += BLOCK_MARKER_BYTES;
    }
    if (gap < overhead)
        die("internal error: cannot pad %" PRIu64 " bytes", gap);
    n = gap - overhead;
    p = ev(b, HS_EV_USER_MSG, caps[0].t, (size_t)n);
    for (k = 0; k < n; k++)
        p[k] = (uint8_t)words[k % (sizeof words - 1)];
    if (n && p[n - 1] == ' ')
        p[n - 1] = '.';
}

static uint64_t parse_size(const char *s)
{
    char *end;
    unsigned long long v;
    uint64_t mul = 1;
    errno = 0;
    v = strtoull(s, &end, 10);
    if (errno || end == s)
        die("bad size '%s'", s);
    switch (*end) {
    case 'k': case 'K': mul = UINT64_C(1) << 10; end++; break;
    case 'm': case 'M': mul = UINT64_C(1) << 20; end++; break;
    case 'g': case 'G': mul = UINT64_C(1) << 30; end++; break;
    case '\0': break;
    default: die("bad size '%s' (use a number with an optional K, M or G suffix)", s);
    }
    if (*end == 'B' || *end == 'b')
        end++;
    if (*end)
        die("bad size '%s'", s);
    return (uint64_t)v * mul;
}

static void usage(FILE *f)
{
    fprintf(f,
        "usage: %s -s SIZE[K|M|G] [-c CAPS] [--seed N] [-b BLOCK] [-i MS] [-v] -o OUT|-\n"
        "  -s SIZE    size of the eventlog to write (exact; K/M/G are powers of 1024)\n"
        "  -c CAPS    number of capabilities, 1-%d (default 2)\n"
        "  --seed N   random seed (default 1); output is a function of all options\n"
        "  -b BLOCK   event buffer (block) size, 64K-16M (default 2M, as the RTS)\n"
        "  -i MS      heap profile sampling interval in ms of simulated time\n"
        "             (default 100, as +RTS -i0.1); smaller = more heap samples\n"
        "  -v         print the event mix to stderr\n"
        "  -o OUT     output file, - for stdout\n", progname, MAX_CAPS);
}

int main(int argc, char **argv)
{
    uint64_t target = 0, seed = 1, startup_bytes, r1, r2, r3, slice_max, shut_max;
    const char *outpath = NULL;
    int verbose = 0, i;
    size_t k;

    for (i = 1; i < argc; i++) {
        const char *a = argv[i];
        const char *val = NULL;
#define NEEDARG() do { if (i + 1 >= argc) die("%s needs an argument", a); val = argv[++i]; } while (0)
        if (!strcmp(a, "-s")) { NEEDARG(); target = parse_size(val); }
        else if (!strcmp(a, "-c")) {
            NEEDARG();
            ncaps = atoi(val);
            if (ncaps < 1 || ncaps > MAX_CAPS)
                die("-c must be between 1 and %d", MAX_CAPS);
        }
        else if (!strcmp(a, "--seed")) { NEEDARG(); seed = strtoull(val, NULL, 0); }
        else if (!strncmp(a, "--seed=", 7)) seed = strtoull(a + 7, NULL, 0);
        else if (!strcmp(a, "-b")) {
            NEEDARG();
            block_size = parse_size(val);
            if (block_size < (64u << 10) || block_size > (16u << 20))
                die("-b must be between 64K and 16M");
        }
        else if (!strcmp(a, "-i")) {
            double ms;
            NEEDARG();
            ms = strtod(val, NULL);
            if (!(ms >= 0.1 && ms <= 1e6))
                die("-i must be between 0.1 and 1000000 (ms)");
            sample_interval = (uint64_t)(ms * 1e6);
        }
        else if (!strcmp(a, "-o")) { NEEDARG(); outpath = val; }
        else if (!strcmp(a, "-v")) verbose = 1;
        else if (!strcmp(a, "-h") || !strcmp(a, "--help")) { usage(stdout); return 0; }
        else { usage(stderr); die("unknown argument '%s'", a); }
#undef NEEDARG
    }
    if (!target || !outpath) {
        usage(stderr);
        return 2;
    }

    for (k = 0; k < 256; k++)
        tag_size[k] = 0;
    for (k = 0; k < N_EVENT_TYPES; k++)
        tag_size[event_types[k]] = (uint16_t)table[event_types[k]].size;

    rng_state = seed * UINT64_C(0x2545f4914f6cdd1d) + 0x1234567;
    make_cost_centres();
    make_stacks();

    if (!strcmp(outpath, "-"))
        out = stdout;
    else if (!(out = fopen(outpath, "wb")))
        die("cannot open %s: %s", outpath, strerror(errno));
    setvbuf(out, NULL, _IOFBF, 1u << 20);

    buf_init(&gbuf, 0xffff);
    for (i = 0; i < ncaps; i++)
        buf_init(&caps[i].buf, (uint16_t)i);

    write_header();
    startup();
    startup_bytes = total_bytes();

    /* Reserves (bytes) so that no step can overshoot the target:
     * slice_max bounds one cap_step() without GC, shut_max the shutdown
     * events, r2 one GC, r1 one GC with a census. */
    slice_max = 640 + 3 * BLOCK_MARKER_BYTES;
    shut_max = 128 + (uint64_t)ncaps * 64;
    r3 = slice_max + shut_max + 12 + BLOCK_MARKER_BYTES + 2;
    r2 = r3 + (uint64_t)ncaps * (slice_max + 320) + 640;
    r1 = r2 + 2 * 18 + 200 * (22 + 4 * MAXDEPTH) + BLOCK_MARKER_BYTES;
    if (target < startup_bytes + r3)
        die("size too small: the header and startup events alone take %" PRIu64
            " bytes; use at least %" PRIu64, startup_bytes, startup_bytes + r3);

    while (total_bytes() + r1 < target)
        cap_step(next_cap());
    phase = 1;
    while (total_bytes() + r2 < target)
        cap_step(next_cap());
    phase = 2;
    while (total_bytes() + r3 < target)
        cap_step(next_cap());

    shutdown_events();
    pad_exact(target - 2 - total_bytes());
    for (i = 0; i < ncaps; i++)
        buf_flush(&caps[i].buf);
    buf_flush(&gbuf);
    {
        uint8_t end[2];
        put16(end, 0xffff);
        out_write(end, 2);
    }
    if (fflush(out) != 0 || (out != stdout && fclose(out) != 0))
        die("write error: %s", strerror(errno));
    if (out_bytes != target)
        die("internal error: wrote %" PRIu64 " bytes, wanted %" PRIu64, out_bytes, target);

    if (verbose) {
        uint64_t nev = 0, sim = 0;
        for (k = 0; k < 256; k++)
            nev += stat_count[k];
        for (i = 0; i < ncaps; i++)
            if (caps[i].t > sim)
                sim = caps[i].t;
        fprintf(stderr, "%s: %" PRIu64 " bytes, %" PRIu64 " events, %d caps, seed %" PRIu64
                ", %.1f s simulated, %" PRIu64 " GCs (%" PRIu64 " major), %" PRIu64
                " heap samples, %u cost centres, %u threads created\n",
                progname, out_bytes, nev, ncaps, seed, (double)sim / 1e9, n_gcs, n_major,
                era, nccs, next_tid - 1);
        fprintf(stderr, "%4s %-45s %12s %8s\n", "tag", "description", "events", "bytes%");
        for (k = 0; k < N_EVENT_TYPES; k++) {
            uint16_t tg = event_types[k];
            if (stat_count[tg])
                fprintf(stderr, "%4u %-45.45s %12" PRIu64 " %7.2f%%\n", tg,
                        table[tg].desc, stat_count[tg],
                        100.0 * (double)stat_bytes[tg] / (double)out_bytes);
        }
        if (stat_clamped)
            fprintf(stderr, "warning: %" PRIu64 " timestamps clamped\n", stat_clamped);
    }
    return stat_clamped ? 3 : 0;
}
