/*
 * Loading an .mlpd: the statistical sampler's CPU samples (`--profile=
 * log:sample`) into the census's time profile, as mprof-report's
 * `--reports=sample` counts them. A SAMPLE_HIT carries the interrupted
 * instruction pointer and the thread's managed frames, innermost first;
 * the pointer is resolved at the end of the file, when every method's
 * code (METHOD_JIT) and every unmanaged symbol (SAMPLE_USYM) is known:
 *
 *   - inside a method's code: that method (its latest code: a method
 *     compiled again keeps only its last range, as in mprof-report). Where
 *     ranges overlap (a managed-to-native wrapper shares its method's
 *     code), the method mprof-report finds first: it walks its method
 *     hash table in slot order, ((method >> 2) & 0xffff) % 9371;
 *   - else the unmanaged symbol at or below it, when less than 4096 bytes
 *     below (mprof-report's rule: the profiler gives symbol sizes of 0);
 *   - else one frame, UNRESOLVED (mprof-report's "Unresolved hits").
 *
 * The stack of a hit is its managed frames with the resolved pointer on
 * top, unless that is the innermost frame already, so a flame graph's
 * leaves count what mprof-report counts per method.
 */
#include "load/load_mlpd.h"

#include <stdlib.h>
#include <string.h>

#define UNRESOLVED "(unresolved)"
#define USYM_REACH 4096u
#define DEFAULT_TICK_NS 10000000u /* the sampler's default: 100 Hz */

struct code { uint64_t start, size, method; };
struct usym { uint64_t addr; const char *name; };

struct mlpd_cpu {
    struct code *code;
    size_t ncode, cap_code;
    ptr_map code_of;         /* method -> its entry in code[] */
    uint64_t max_size;       /* the longest code range */
    struct usym *usym;
    size_t nusym, cap_usym;
    hs_intern hits;          /* key: ip, then the frames innermost first */
    uint64_t *key;           /* a hit key being built */
    size_t cap_key;
    struct hit { uint64_t time; uint32_t k; } *rec; /* every hit, in order */
    size_t nrec, cap_rec;
    hs_intern names;         /* frame names: their index is the cc id */
    uint32_t *ids;           /* every hit key's stack, one after another */
    size_t nids, cap_ids;
    size_t *off;             /* per hit key: its stack's start in ids */
};

/* The loader's sample state, made on first use; NULL when out of memory. */
static struct mlpd_cpu *cpu_of(struct loader *l)
{
    if (!l->cpu && (l->cpu = hs_calloc(l->a, 1, sizeof *l->cpu))) {
        hs_intern_init(&l->cpu->hits, l->a);
        hs_intern_init(&l->cpu->code_of.tab, l->a);
        hs_intern_init(&l->cpu->names, l->a);
    }
    return l->cpu;
}

void hs__mlpd_cpu_free(struct loader *l)
{
    struct mlpd_cpu *s = l->cpu;
    if (!s)
        return;
    hs_free(l->a, s->code);
    hs_free(l->a, s->usym);
    hs_free(l->a, s->key);
    hs_free(l->a, s->rec);
    hs_free(l->a, s->off);
    hs_free(l->a, s->ids);
    hs_intern_free(&s->hits);
    hs_intern_free(&s->code_of.tab);
    hs_intern_free(&s->names);
    hs_free(l->a, s);
    l->cpu = NULL;
}

int hs__mlpd_on_code(struct loader *l, const hs_mlpd_event *ev)
{
    if (!ev->u.jit.code_size)
        return HS_OK; /* referenced, never compiled: no code to hit */
    struct mlpd_cpu *s = cpu_of(l);
    uint32_t i;
    bool added;
    if (!s || !hs__ptr_map_put(&s->code_of, ev->u.jit.method, &i, &added) ||
        (added && !hs_grow(l->a, (void **)&s->code, &s->cap_code,
                           s->ncode + 1, sizeof *s->code)))
        return HS_ERR_NOMEM;
    if (added)
        s->ncode++;
    s->code[i] = (struct code){ev->u.jit.code, ev->u.jit.code_size,
                               ev->u.jit.method};
    if (ev->u.jit.code_size > s->max_size)
        s->max_size = ev->u.jit.code_size;
    return HS_OK;
}

static int on_usym(struct loader *l, struct mlpd_cpu *s,
                   const hs_mlpd_event *ev)
{
    const char *name = hs__mlpd_keep(l, ev->u.usym.name ? ev->u.usym.name
                                                        : "");
    if (!name || !hs_grow(l->a, (void **)&s->usym, &s->cap_usym,
                          s->nusym + 1, sizeof *s->usym))
        return HS_ERR_NOMEM;
    s->usym[s->nusym++] = (struct usym){ev->u.usym.address, name};
    return HS_OK;
}

/* Each instruction pointer of a hit is one sample (mprof-report's count;
 * Mono 6.8 writes one per hit). */
static int on_hit(struct loader *l, struct mlpd_cpu *s,
                  const hs_mlpd_event *ev)
{
    size_t n = ev->nframes;
    if (n > SIZE_MAX / sizeof *s->key - 1 ||
        !hs_grow(l->a, (void **)&s->key, &s->cap_key, n + 1, sizeof *s->key))
        return HS_ERR_NOMEM;
    if (n)
        memcpy(s->key + 1, ev->frames, n * sizeof *s->key);
    uint64_t time = hs__mlpd_figures_rel(&l->m->fig, ev->time);
    for (size_t i = 0; i < ev->u.hit.nips; i++) {
        uint32_t k;
        bool added;
        s->key[0] = ev->u.hit.ips[i];
        if (!hs_intern_put(&s->hits, s->key, (n + 1) * sizeof *s->key, &k,
                           &added) ||
            !hs_grow(l->a, (void **)&s->rec, &s->cap_rec, s->nrec + 1,
                     sizeof *s->rec))
            return HS_ERR_NOMEM;
        s->rec[s->nrec++] = (struct hit){time, k};
    }
    return HS_OK;
}

int hs__mlpd_on_sample(struct loader *l, const hs_mlpd_event *ev)
{
    struct mlpd_cpu *s = cpu_of(l);
    if (!s)
        return HS_ERR_NOMEM;
    return ev->kind == HS_MLPD_SAMPLE_USYM ? on_usym(l, s, ev)
                                           : on_hit(l, s, ev);
}

static int cmp_code(const void *a, const void *b)
{
    const struct code *x = a, *y = b;
    return x->start < y->start ? -1 : x->start > y->start;
}

static int cmp_usym(const void *a, const void *b)
{
    const struct usym *x = a, *y = b;
    return x->addr < y->addr ? -1 : x->addr > y->addr;
}

/* The index of the last element of a sorted array (n elements of `size`
 * bytes, key(elem) its address) at or below ip, or SIZE_MAX. */
static size_t below(const void *arr, size_t n, size_t size,
                    uint64_t (*key)(const void *), uint64_t ip)
{
    size_t lo = 0, hi = n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (key((const char *)arr + mid * size) <= ip)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo ? lo - 1 : SIZE_MAX;
}

static uint64_t code_key(const void *p) { return ((const struct code *)p)->start; }
static uint64_t usym_key(const void *p) { return ((const struct usym *)p)->addr; }

/* mprof-report's method hash slot (its HASH_SIZE is 9371). */
static uint64_t slot_of(uint64_t method)
{
    return ((method >> 2) & 0xffff) % 9371u;
}

/* The method whose code holds ip, the one in the lowest slot where ranges
 * overlap (sorted by start: every candidate starts within max_size below
 * ip); false when none does. */
static bool method_at(const struct mlpd_cpu *s, uint64_t ip,
                      uint64_t *method)
{
    size_t i = below(s->code, s->ncode, sizeof *s->code, code_key, ip);
    bool found = false;
    for (; i != SIZE_MAX && ip - s->code[i].start < s->max_size; i--) {
        const struct code *c = &s->code[i];
        if (ip - c->start < c->size &&
            (!found || slot_of(c->method) < slot_of(*method))) {
            *method = c->method;
            found = true;
        }
        if (i == 0)
            break;
    }
    return found;
}

/* What ip hit: a method (*method set, NULL returned) or a name. */
static const char *resolve(const struct mlpd_cpu *s, uint64_t ip,
                           uint64_t *method)
{
    if (method_at(s, ip, method))
        return NULL;
    size_t i = below(s->usym, s->nusym, sizeof *s->usym, usym_key, ip);
    if (i != SIZE_MAX && ip - s->usym[i].addr < USYM_REACH)
        return s->usym[i].name;
    return UNRESOLVED;
}

/* The cost-centre id of a frame name, defined in the census when new. */
static int name_id(struct loader *l, struct mlpd_cpu *s, const char *name,
                   uint32_t *id)
{
    bool added;
    if (!name || !hs_intern_put(&s->names, name, strlen(name), id, &added))
        return HS_ERR_NOMEM;
    return added ? hs__census_build_cost_centre(l->c, *id, name) : HS_OK;
}

/* The ticks of hit key k into the census. */
/* The stack of hit key k, innermost first, appended to s->ids from
 * s->off[k] on (its end is s->off[k + 1]). */
static int stack_of(struct loader *l, struct mlpd_cpu *s, size_t k)
{
    const uint64_t *key = (const uint64_t *)s->hits.keys[k].ptr;
    size_t n = s->hits.keys[k].len / sizeof *key - 1;
    if (n >= UINT32_MAX || !hs_grow(l->a, (void **)&s->ids, &s->cap_ids,
                                    s->nids + n + 1, sizeof *s->ids))
        return HS_ERR_NOMEM;
    uint32_t *ids = s->ids + s->nids;
    uint64_t method = 0;
    const char *leaf = resolve(s, key[0], &method);
    size_t depth = 0;
    int st = HS_OK;
    if (leaf)
        st = name_id(l, s, leaf, &ids[depth++]);
    else if (!n || key[1] != method)
        st = name_id(l, s, hs__mlpd_method_name(l->m, method),
                     &ids[depth++]);
    for (size_t f = 0; f < n && !st; f++)
        st = name_id(l, s, hs__mlpd_method_name(l->m, key[1 + f]),
                     &ids[depth++]);
    s->nids += depth;
    s->off[k + 1] = s->nids;
    return st;
}

/* The sampler's period from the profiler's options: sample=FREQ in Hz. */
static uint64_t tick_of(const char *args)
{
    const char *p = args ? strstr(args, "sample=") : NULL;
    unsigned long hz = p ? strtoul(p + 7, NULL, 10) : 0;
    return hz ? 1000000000u / hz : DEFAULT_TICK_NS;
}

int hs__mlpd_build_cpu(struct loader *l, const char *args)
{
    struct mlpd_cpu *s = l->cpu;
    if (!s || !s->hits.count)
        return HS_OK;
    if (s->ncode > 1)
        qsort(s->code, s->ncode, sizeof *s->code, cmp_code);
    if (s->nusym > 1)
        qsort(s->usym, s->nusym, sizeof *s->usym, cmp_usym);
    uint64_t tick = tick_of(args);
    size_t nk = s->hits.count;
    if (!(s->off = hs_calloc(l->a, nk + 1, sizeof *s->off)))
        return HS_ERR_NOMEM;
    int st = HS_OK;
    for (size_t k = 0; k < nk && !st; k++)
        st = stack_of(l, s, k);
    /* every hit in file order, with its time: the profile over time */
    for (size_t i = 0; i < s->nrec && !st; i++) {
        size_t k = s->rec[i].k;
        st = hs__census_build_time_sample(l->c, s->ids + s->off[k],
                                          (uint32_t)(s->off[k + 1] -
                                                     s->off[k]),
                                          tick, s->rec[i].time);
    }
    return st;
}
