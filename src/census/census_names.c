/*
 * Names of bands: cost centres and the runtime's names of their stacks
 * (-hc), undefined cost centres, and -hi info-table records.
 */
#include "heapscope/reader.h"
#include "census/census_impl.h"

#include <stdio.h>
#include <string.h>

static bool scratch_room(hs_census *c, size_t need)
{
    return hs_grow(c->alloc, (void **)&c->scratch, &c->cap_scratch, need, 1);
}

/* --- cost centres ---------------------------------------------------------- */

static const hs_cost_centre *find_cc(const hs_census *c, uint32_t id)
{
    uint32_t i = hs_intern_find(&c->cc_tab, &id, sizeof id);
    return i == UINT32_MAX ? NULL : c->ccs[i];
}

int hs__census_add_cost_centre(hs_census *c, const hs_event *ev)
{
    uint32_t id = ev->u.cost_centre.id;
    uint32_t idx;
    bool added;
    if (!hs_intern_put(&c->cc_tab, &id, sizeof id, &idx, &added))
        return hs__census_nomem(c);
    if (!added)
        return HS_OK; /* the first definition stands */
    if (!hs_grow(c->alloc, (void **)&c->ccs, &c->cap_ccs, (size_t)idx + 1,
                 sizeof *c->ccs))
        return hs__census_nomem(c);
    hs_cost_centre *cc = hs_arena_alloc(&c->arena, sizeof *cc);
    if (!cc)
        return hs__census_nomem(c);
    cc->id = id;
    cc->label = hs__census_dup(c, ev->u.cost_centre.label);
    cc->module = hs__census_dup(c, ev->u.cost_centre.module);
    cc->srcloc = hs__census_dup(c, ev->u.cost_centre.srcloc);
    cc->is_caf = ev->u.cost_centre.flags & HS_CC_FLAG_CAF;
    if (!cc->label || !cc->module || !cc->srcloc)
        return hs__census_nomem(c);
    c->ccs[idx] = cc;
    c->info.cost_centres++;
    return HS_OK;
}

/* Remembers that `id` was used undefined, warning once per id. */
void hs__census_note_undefined(hs_census *c, uint32_t id, const char *what)
{
    uint32_t idx;
    bool added;
    if (!hs_intern_put(&c->undef_tab, &id, sizeof id, &idx, &added) ||
        !added)
        return;
    hs__census_warnf(c, "cost centre %u is used by %s but never defined; it is shown "
          "as <cc %u>", id, what, id);
}

/*
 * Writes the runtime's .hp name of a cost-centre stack into c->scratch,
 * uncut: labels innermost first, "/" after each one but the last, a cost
 * centre labelled CAF written Module.CAF with no "/" after it (the
 * runtime's rule), the empty stack "MAIN". Returns false when out of
 * memory; *unresolved tells whether an id was undefined.
 */
bool hs__census_ccs_name(hs_census *c, const uint32_t *ids, uint32_t depth,
                     size_t *out_len, bool *unresolved)
{
    size_t len = 0;
    *unresolved = false;
    if (depth == 0) {
        if (!scratch_room(c, 5))
            return false;
        memcpy(c->scratch, "MAIN", 5);
        *out_len = 4;
        return true;
    }
    for (uint32_t i = 0; i < depth; i++) {
        const hs_cost_centre *cc = find_cc(c, ids[i]);
        char tmp[32];
        const char *a = tmp, *b = "";
        bool caf = false;
        if (!cc) {
            snprintf(tmp, sizeof tmp, "<cc %u>", ids[i]);
            *unresolved = true;
        } else if (strcmp(cc->label, "CAF") == 0) {
            a = cc->module;
            b = ".CAF";
            caf = true;
        } else {
            a = cc->label;
        }
        size_t la = strlen(a), lb = strlen(b);
        bool sep = !caf && i + 1 < depth;
        if (!scratch_room(c, len + la + lb + 2))
            return false;
        memcpy(c->scratch + len, a, la);
        len += la;
        memcpy(c->scratch + len, b, lb);
        len += lb;
        if (sep)
            c->scratch[len++] = '/';
    }
    c->scratch[len] = 0;
    *out_len = len;
    return true;
}

const char *hs__census_safe_name(hs_census *c, const char *s, size_t len,
                                 bool *failed)
{
    size_t bad = 0;
    for (size_t i = 0; i < len; i++)
        bad += s[i] == 0;
    if (!bad)
        return NULL;
    /* A band's name is a C string: a NUL would cut it (and merge it with
     * the band named by its first part), so NULs are shown as \x00. The
     * band itself stays apart from every other: its identity is its
     * exact bytes. */
    char *out = hs_arena_alloc(&c->arena, len + 3 * bad + 1);
    if (!out) {
        *failed = true;
        return NULL;
    }
    size_t k = 0;
    for (size_t i = 0; i < len; i++) {
        if (s[i] == 0) {
            memcpy(out + k, "\\x00", 4);
            k += 4;
        } else {
            out[k++] = s[i];
        }
    }
    out[k] = 0;
    hs__census_warnf(c, "a band name holds a NUL byte; it is shown as "
                     "'%.60s'", out);
    return out;
}

int hs__census_name_ccs_band(hs_census *c, struct band *b)
{
    size_t len;
    if (!hs__census_ccs_name(c, b->stack, b->depth, &len, &b->unresolved))
        return hs__census_nomem(c);
    bool failed = false;
    const char *safe = hs__census_safe_name(c, c->scratch, len, &failed);
    b->full = safe ? safe : hs_arena_strndup(&c->arena, c->scratch, len);
    if (failed || !b->full)
        return hs__census_nomem(c);
    b->name = hs__census_cut_name(c, b->full);
    return b->name ? HS_OK : hs__census_nomem(c);
}

/* --- -hi info-table records ---------------------------------------------- */

int hs__census_add_ipe(hs_census *c, const hs_event *ev)
{
    uint64_t addr = ev->u.ipe.address;
    uint32_t idx;
    bool added;
    c->info.ipe_records++;
    if (!hs_intern_put(&c->ipe_tab, &addr, sizeof addr, &idx, &added))
        return hs__census_nomem(c);
    if (!added)
        return HS_OK;
    if (!hs_grow(c->alloc, (void **)&c->ipes, &c->cap_ipes, (size_t)idx + 1,
                 sizeof *c->ipes))
        return hs__census_nomem(c);
    hs_census_ipe *r = &c->ipes[idx];
    r->address = addr;
    r->table_name = hs__census_dup(c, ev->u.ipe.table_name);
    r->closure_desc = hs__census_dup(c, ev->u.ipe.closure_desc);
    r->type_desc = hs__census_dup(c, ev->u.ipe.type_desc);
    r->label = hs__census_dup(c, ev->u.ipe.label);
    r->module = hs__census_dup(c, ev->u.ipe.module);
    r->srcloc = hs__census_dup(c, ev->u.ipe.srcloc);
    if (!r->table_name || !r->closure_desc || !r->type_desc || !r->label ||
        !r->module || !r->srcloc)
        return hs__census_nomem(c);
    return HS_OK;
}

/* Parses a -hi label ("0x" and hex digits, as C's %p prints on glibc). */
static bool parse_address(const char *s, uint64_t *out)
{
    if (s[0] != '0' || (s[1] != 'x' && s[1] != 'X') || !s[2])
        return false;
    uint64_t v = 0;
    for (const char *p = s + 2; *p; p++) {
        int d;
        if (*p >= '0' && *p <= '9')
            d = *p - '0';
        else if (*p >= 'a' && *p <= 'f')
            d = *p - 'a' + 10;
        else if (*p >= 'A' && *p <= 'F')
            d = *p - 'A' + 10;
        else
            return false;
        if (v >> 60)
            return false;
        v = v << 4 | (uint64_t)d;
    }
    *out = v;
    return true;
}

/*
 * -hi: names each address band after its info table:
 * "NAME :: TYPE at SRCLOC (ADDRESS)", parts left out when the record has
 * them empty. The address stays in the name so two tables with the same
 * name (a common case) remain two bands.
 */
int hs__census_resolve_ipe(hs_census *c)
{
    for (size_t i = 0; i < c->nbands; i++) {
        struct band *b = &c->bands[i];
        uint64_t addr;
        if (b->kind != BAND_STRING || !parse_address(b->name, &addr))
            continue;
        uint32_t k = hs_intern_find(&c->ipe_tab, &addr, sizeof addr);
        if (k == UINT32_MAX)
            continue;
        const hs_census_ipe *r = &c->ipes[k];
        size_t n = strlen(r->table_name) + strlen(r->type_desc) +
                   strlen(r->srcloc) + strlen(b->name) + 16;
        char *name = hs_arena_alloc(&c->arena, n);
        if (!name)
            return hs__census_nomem(c);
        size_t len = 0;
        len += (size_t)snprintf(name + len, n - len, "%s",
                                r->table_name[0] ? r->table_name : "?");
        if (r->type_desc[0])
            len += (size_t)snprintf(name + len, n - len, " :: %s",
                                    r->type_desc);
        if (r->srcloc[0])
            len += (size_t)snprintf(name + len, n - len, " at %s",
                                    r->srcloc);
        snprintf(name + len, n - len, " (%s)", b->name);
        b->name = name;
        b->ipe = k + 1;
    }
    return HS_OK;
}

/* Renames -hc bands made before their cost centres were defined, and
 * warns once per id still undefined. */
int hs__census_resolve_cost_centres(hs_census *c)
{
    for (size_t i = 0; i < c->nbands; i++) {
        struct band *b = &c->bands[i];
        if (!b->unresolved)
            continue;
        int st = hs__census_name_ccs_band(c, b);
        if (st)
            return st;
        for (uint32_t k = 0; k < b->depth; k++)
            if (!find_cc(c, b->stack[k]))
                hs__census_note_undefined(c, b->stack[k], "a heap sample");
    }
    for (size_t i = 0; i < c->tstack_tab.count; i++)
        for (uint32_t k = 0; k < c->tstacks[i].depth; k++)
            if (!find_cc(c, c->tstacks[i].ids[k]))
                hs__census_note_undefined(c, c->tstacks[i].ids[k],
                               "a time-profile sample");
    return HS_OK;
}

size_t hs_census_band_stack(const hs_census *c, size_t band,
                            const uint32_t **ids)
{
    if (band >= c->nbands || c->bands[band].kind != BAND_CCS) {
        *ids = NULL;
        return 0;
    }
    *ids = c->bands[band].stack;
    return c->bands[band].depth;
}

const hs_cost_centre *hs_census_cost_centre(const hs_census *c, uint32_t id)
{
    return find_cc(c, id);
}


const hs_census_ipe *hs_census_band_ipe(const hs_census *c, size_t band)
{
    if (band >= c->nbands || !c->bands[band].ipe)
        return NULL;
    return &c->ipes[c->bands[band].ipe - 1];
}
