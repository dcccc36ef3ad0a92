/*
 * The stable sort by time of the census's timed arrays (census_finish.c):
 * markers, heap-line points and time-profile samples, whose elements start
 * with a u64 time. Such arrays arrive as sorted runs, one per capability
 * buffer, the capabilities' runs interleaved block by block, so that each
 * run overlaps in time only the few runs before it.
 */
#include "census/census_impl.h"

#include <string.h>

static inline uint64_t time_at(const unsigned char *a, size_t i, size_t size)
{
    uint64_t t;
    memcpy(&t, a + i * size, sizeof t);
    return t;
}

/* The natural merge sort behind sort_by_chains(): any input, in
 * O(n log n); tmp holds n elements. */
static void merge_runs(unsigned char *a, unsigned char *tmp, size_t n,
                       size_t size)
{
#define T(arr, i) time_at((arr), (i), size)
    for (;;) {
        size_t runs = 0, i = 0, out = 0;
        while (i < n) {
            /* run 1: [i, m), run 2: [m, e) */
            size_t m = i + 1;
            while (m < n && T(a, m - 1) <= T(a, m))
                m++;
            size_t e = m;
            if (m < n) {
                e = m + 1;
                while (e < n && T(a, e - 1) <= T(a, e))
                    e++;
            }
            size_t x = i, y = m;
            while (x < m || y < e) {
                size_t from = (y >= e || (x < m && T(a, x) <= T(a, y)))
                                  ? x++ : y++;
                memcpy(tmp + out * size, a + from * size, size);
                out++;
            }
            runs++;
            i = e;
        }
        memcpy(a, tmp, n * size);
        if (runs <= 1)
            break;
    }
#undef T
}

/* Sorted runs chained: a run joins the chain whose last time is the
 * latest not after the run's first, so each chain is in time order. */
#define MAX_CHAINS 8
typedef struct chains {
    size_t n;
    size_t head[MAX_CHAINS], tail[MAX_CHAINS]; /* run indexes */
    uint64_t last[MAX_CHAINS];
} chains;
typedef struct run {
    size_t start, end, next; /* next: the chain's next run, or SIZE_MAX */
} run;

/* The runs of a in runs[] (nruns of them), chained in *ch; false when
 * they need more than MAX_CHAINS chains. */
static bool chain_runs(const unsigned char *a, size_t n, size_t size,
                       run *runs, chains *ch)
{
    ch->n = 0;
    for (size_t i = 0, k = 0; i < n; k++) {
        size_t e = i + 1;
        while (e < n && time_at(a, e - 1, size) <= time_at(a, e, size))
            e++;
        uint64_t first = time_at(a, i, size);
        size_t best = SIZE_MAX;
        for (size_t c = 0; c < ch->n; c++)
            if (ch->last[c] <= first &&
                (best == SIZE_MAX || ch->last[c] > ch->last[best]))
                best = c;
        if (best == SIZE_MAX) {
            if (ch->n == MAX_CHAINS)
                return false;
            best = ch->n++;
            ch->head[best] = k;
        } else {
            runs[ch->tail[best]].next = k;
        }
        runs[k] = (run){i, e, SIZE_MAX};
        ch->tail[best] = k;
        ch->last[best] = time_at(a, e - 1, size);
        i = e;
    }
    return true;
}

/* The chain whose next element comes first by (time, position in a),
 * other than `skip`; SIZE_MAX when none has one left. */
static size_t first_chain(const unsigned char *a, size_t size,
                          const size_t *at, const size_t *cur, size_t nc,
                          size_t skip)
{
    size_t best = SIZE_MAX;
    uint64_t bt = 0;
    for (size_t c = 0; c < nc; c++) {
        if (c == skip || cur[c] == SIZE_MAX)
            continue;
        uint64_t t = time_at(a, at[c], size);
        if (best == SIZE_MAX || t < bt || (t == bt && at[c] < at[best])) {
            best = c;
            bt = t;
        }
    }
    return best;
}

/* Merges the chains into tmp by (time, position in a): the stable order.
 * What the first chain has before the next chain's element is copied at
 * once: a log's capabilities take turns a block at a time, so each turn
 * is one copy. */
static void merge_chains(const unsigned char *a, unsigned char *tmp,
                         size_t n, size_t size, const run *runs,
                         const chains *ch)
{
    size_t at[MAX_CHAINS], cur[MAX_CHAINS], nc = ch->n;
    for (size_t c = 0; c < nc; c++) {
        cur[c] = ch->head[c];
        at[c] = runs[cur[c]].start;
    }
    for (size_t out = 0; out < n;) {
        size_t best = first_chain(a, size, at, cur, nc, SIZE_MAX);
        size_t next = first_chain(a, size, at, cur, nc, best);
        size_t from = at[best], to = from + 1, end = runs[cur[best]].end;
        if (next == SIZE_MAX) {
            to = end;
        } else {
            uint64_t nt = time_at(a, at[next], size);
            while (to < end && (time_at(a, to, size) < nt ||
                                (time_at(a, to, size) == nt &&
                                 to < at[next])))
                to++;
        }
        memcpy(tmp + out * size, a + from * size, (to - from) * size);
        out += to - from;
        at[best] = to;
        if (to == end) {
            cur[best] = runs[cur[best]].next;
            if (cur[best] != SIZE_MAX)
                at[best] = runs[cur[best]].start;
        }
    }
}

/*
 * The general way (any order, any number of capabilities): the runs are
 * chained per capability (a run continues the chain that ends latest
 * before it) and the few chains merged at once into a copy, each element
 * copied once. An order the chains cannot follow (more than MAX_CHAINS of
 * them) takes a natural merge sort, O(n log n).
 */
static bool sort_by_chains(const hs_allocator *alloc, unsigned char *a,
                           size_t n, size_t size)
{
    size_t nruns = 1;
    for (size_t i = 1; i < n; i++)
        nruns += time_at(a, i - 1, size) > time_at(a, i, size);
    if (nruns == 1)
        return true;
    unsigned char *tmp = hs_calloc(alloc, n, size);
    run *runs = hs_calloc(alloc, nruns, sizeof *runs);
    if (!tmp || !runs) {
        hs_free(alloc, tmp);
        hs_free(alloc, runs);
        return false;
    }
    chains ch;
    if (chain_runs(a, n, size, runs, &ch)) {
        merge_chains(a, tmp, n, size, runs, &ch);
        memcpy(a, tmp, n * size);
    } else {
        merge_runs(a, tmp, n, size);
    }
    hs_free(alloc, runs);
    hs_free(alloc, tmp);
    return true;
}


/* The first index in [lo, hi) whose time is above t (`ties_before`) or
 * at or above t (not), the times in [lo, hi) sorted: a gallop from the
 * end `from_hi` names, then a binary search, so that an answer near that
 * end costs a few steps. */
static inline size_t gallop(const unsigned char *a, size_t size, size_t lo,
                            size_t hi, uint64_t t, bool ties_before,
                            bool from_hi)
{
#define BEFORE(k) (ties_before ? time_at(a, (k), size) <= t \
                               : time_at(a, (k), size) < t)
    size_t step = 1;
    if (from_hi) {
        while (hi > lo) {
            size_t at = hi - lo > step ? hi - step : lo;
            if (BEFORE(at)) {
                lo = at + 1;
                break;
            }
            hi = at;
            step *= 2;
        }
    } else {
        while (lo < hi) {
            size_t at = hi - lo > step ? lo + step - 1 : hi - 1;
            if (!BEFORE(at)) {
                hi = at;
                break;
            }
            lo = at + 1;
            step *= 2;
        }
    }
    while (lo < hi) { /* the answer is in [lo, hi] */
        size_t mid = lo + (hi - lo) / 2;
        if (BEFORE(mid))
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
#undef BEFORE
}

/* Merges a[p, i) and a[i, q), each sorted, in place through buf (room
 * for the shorter): left before right at equal times. */
static inline void merge_pair(unsigned char *a, unsigned char *buf, size_t size,
                       size_t p, size_t i, size_t q)
{
#define AT(k) (a + (k) * size)
    if (q - i <= i - p) { /* the right part in buf, merged from the end */
        memcpy(buf, AT(i), (q - i) * size);
        size_t k = i, j = q - i, out = q;
        while (j > 0) {
            const unsigned char *r = buf + (j - 1) * size;
            if (k > p && time_at(a, k - 1, size) > time_at(r, 0, size))
                memcpy(AT(--out), AT(--k), size);
            else {
                memcpy(AT(--out), r, size);
                j--;
            }
        }
    } else { /* the left part in buf, merged from the start */
        memcpy(buf, AT(p), (i - p) * size);
        size_t x = 0, y = i, out = p, nl = i - p;
        while (x < nl) {
            const unsigned char *l = buf + x * size;
            if (y < q && time_at(a, y, size) < time_at(l, 0, size))
                memcpy(AT(out++), AT(y++), size);
            else {
                memcpy(AT(out++), l, size);
                x++;
            }
        }
    }
#undef AT
}

/* The size of the elements sort_in_place() takes: every array sorted here
 * (a marker, a point, a time-profile sample). */
enum { IN_PLACE_SIZE = 16 };

/*
 * The usual way: each run merged into the sorted part before it, in
 * place, the elements it passes moved through a buffer the size of the
 * shorter side; no copy of the whole array, and only the overlap moves.
 * Real logs move about 1.5 elements per element (the 920,000 points of
 * a -N2 log, markers). false as soon as the moves so far pass four per
 * element so far (many capabilities, or an order no log gives: the waste
 * stays a fraction of the work) or out of memory: the array is then a
 * stable permutation of what it was, sorted up to some run, which the
 * general way finishes alike.
 */
static bool sort_in_place(const hs_allocator *alloc, unsigned char *a,
                          size_t n, size_t i)
{
    const size_t size = IN_PLACE_SIZE; /* a constant: the copies are moves */
    unsigned char *buf = NULL;
    size_t cap = 0, moved = 0;
    bool ok = true;
    while (i < n) {
        size_t e = i + 1;
        while (e < n && time_at(a, e - 1, size) <= time_at(a, e, size))
            e++;
        /* the run's first element goes after the ties before it; its
         * elements at or after the sorted part's last stay */
        size_t p = gallop(a, size, 0, i, time_at(a, i, size), true, true);
        size_t q = gallop(a, size, i, e, time_at(a, i - 1, size), false,
                          false);
        size_t shorter = q - i < i - p ? q - i : i - p;
        moved += (q - p) + shorter;
        if (moved > 4 * e + 4096 ||
            !hs_grow(alloc, (void **)&buf, &cap, shorter, size)) {
            ok = false;
            break;
        }
        merge_pair(a, buf, size, p, i, q);
        i = e;
    }
    hs_free(alloc, buf);
    return ok;
}

/* Stable sort by time; false when out of memory. */
bool hs__census_sort_by_time(const hs_allocator *alloc, void *base, size_t n,
                             size_t size)
{
    unsigned char *a = base;
    size_t i = 1;
    while (i < n && time_at(a, i - 1, size) <= time_at(a, i, size))
        i++;
    if (i >= n)
        return true;
    if (size == IN_PLACE_SIZE && sort_in_place(alloc, a, n, i))
        return true;
    return sort_by_chains(alloc, a, n, size);
}
