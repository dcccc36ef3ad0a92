/*
 * Tests of the one event table (heapscope/events.h): that its columns
 * agree with its field lists, and that every event type in it survives the
 * trip writer -> reader -> fingerprint with every field intact.
 */
#include <heapscope/heapscope.h>

#include "evhash.h"
#include "evwriter.h"
#include "testutil.h"

#include <CUnit/Basic.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define TAG_OF(tag, NAME, size, min, m, FIELDS, desc) tag,
static const uint16_t all_tags[] = {HS_EVENT_TABLE(TAG_OF)};
#define NTAGS (sizeof all_tags / sizeof all_tags[0])

/* Payload bytes a field always takes (0 for optional and variable ones),
 * and whether it has a fixed size at all. */
static size_t fixed_bytes(hs_field_kind k, bool *fixed)
{
    *fixed = true;
    switch (k) {
    case HS_FIELD_U8: return 1;
    case HS_FIELD_U16: return 2;
    case HS_FIELD_U32: case HS_FIELD_BREAKDOWN: return 4;
    case HS_FIELD_U64: case HS_FIELD_U64_HEX: return 8;
    case HS_FIELD_STACK: *fixed = false; return 1; /* the depth */
    default: *fixed = false; return 0;
    }
}

static void test_table_columns(void)
{
    for (size_t i = 0; i < NTAGS; i++) {
        const hs_event_desc *d = hs_event_get_desc(all_tags[i]);
        CU_ASSERT_PTR_NOT_NULL_FATAL(d);
        CU_ASSERT_EQUAL(d->tag, all_tags[i]);
        CU_ASSERT_STRING_EQUAL(hs_event_name(d->tag), d->name);
        CU_ASSERT(d->description[0] != 0);
        if (i)
            CU_ASSERT(all_tags[i - 1] < all_tags[i]); /* listed in order */
        if (d->min == HS_EVMIN_RAW) {
            CU_ASSERT_EQUAL(d->nfields, 0);
            continue;
        }
        /* min is exactly the mandatory bytes, all of them before the
         * first field whose size varies, so checking min once makes every
         * fixed read safe. */
        size_t need = 0;
        bool varied = false, ok = true;
        for (unsigned f = 0; f < d->nfields; f++) {
            bool fixed;
            size_t n = fixed_bytes(d->fields[f].kind, &fixed);
            if (n && varied)
                ok = false;
            need += n;
            varied |= !fixed;
        }
        CU_ASSERT_EQUAL(need, (size_t)d->min);
        CU_ASSERT(ok);
        if (need != (size_t)d->min || !ok)
            fprintf(stderr, "\n  %s: min %d, fields need %zu\n", d->name,
                    d->min, need);
        /* A fixed size declared by the runtime holds the newest layout. */
        if (d->size >= 0 && d->size != HS_EVSIZE_VAR)
            CU_ASSERT((size_t)d->size >= need);
    }
    CU_ASSERT_PTR_NULL(hs_event_get_desc(60));
    CU_ASSERT_PTR_NULL(hs_event_get_desc(HS_EV_DATA_END));
    CU_ASSERT_EQUAL(HS_EV_HEAP_PROF_SAMPLE_STRING, 164);
}

static const uint32_t ids[3] = {7, 0xfffffffeu, 42};

/* Sets field f of ev to a value that depends on the tag and the field, so
 * that a swapped or misplaced field changes the fingerprint. */
static void fill_field(hs_event *ev, const hs_field_desc *f, unsigned n,
                       char *text)
{
    char *p = (char *)ev + f->offset;
    uint64_t v = 0x0102030405060708ull * (n + 1) + ev->tag;
    switch (f->kind) {
    case HS_FIELD_U8: case HS_FIELD_CC_FLAGS: *(uint8_t *)p = (uint8_t)v; break;
    case HS_FIELD_U16: *(uint16_t *)p = (uint16_t)v; break;
    case HS_FIELD_U32: case HS_FIELD_U32_OPT: case HS_FIELD_BREAKDOWN:
        *(uint32_t *)p = (uint32_t)v;
        break;
    case HS_FIELD_U64: case HS_FIELD_U64_HEX: *(uint64_t *)p = v; break;
    case HS_FIELD_U64_OPT:
        *(uint64_t *)p = v;
        *(bool *)((char *)ev + f->aux) = true;
        break;
    case HS_FIELD_ARGS:
        memcpy(text, "./prog\0-x\0+RTS", 14);
        *(hs_str *)p = (hs_str){text, 14};
        *(uint32_t *)((char *)ev + f->aux) = 3;
        break;
    case HS_FIELD_STACK:
        *(uint8_t *)p = 3;
        *(const uint32_t **)((char *)ev + f->aux) = ids;
        break;
    default: /* strings */
        snprintf(text, 32, "%s-%u", f->name, n);
        *(hs_str *)p = (hs_str){text, strlen(text)};
        break;
    }
}

/* Every type with a known size, declared with the table's size. */
static void declare_all(evw *w)
{
    evw_init(w);
    evw_header_begin(w);
    for (size_t i = 0; i < NTAGS; i++) {
        const hs_event_desc *d = hs_event_get_desc(all_tags[i]);
        if (d->size != HS_EVSIZE_UNKNOWN)
            evw_declare_tag(w, d->tag);
    }
    evw_header_end(w);
}

static void test_round_trip(void)
{
    static char texts[NTAGS][16][32];
    hs_event sent[NTAGS];
    size_t nsent = 0;
    evw w;
    declare_all(&w);
    for (size_t i = 0; i < NTAGS; i++) {
        const hs_event_desc *d = hs_event_get_desc(all_tags[i]);
        if (d->size == HS_EVSIZE_UNKNOWN || d->tag == HS_EV_BLOCK_MARKER)
            continue;
        hs_event *ev = &sent[nsent++];
        memset(ev, 0, sizeof *ev);
        ev->tag = d->tag;
        for (unsigned f = 0; f < d->nfields; f++)
            fill_field(ev, &d->fields[f], f, texts[i][f]);
        size_t at = evw_write(&w, 1000 + i, ev);
        /* A raw type gets the payload its declared size asks for. */
        if (d->min == HS_EVMIN_RAW && d->size != HS_EVSIZE_VAR)
            for (int k = 0; k < d->size; k++)
                evw_u8(&w, (uint8_t)k);
        else if (d->min == HS_EVMIN_RAW)
            evw_event_end(&w, at);
        if (d->size != HS_EVSIZE_VAR)
            CU_ASSERT_EQUAL(w.len - at, 10u + (size_t)d->size);
    }
    evw_data_end(&w);

    hs_reader *r = hs_reader_new();
    CU_ASSERT_PTR_NOT_NULL_FATAL(r);
    hs_reader_feed(r, w.data, w.len);
    hs_event got;
    for (size_t i = 0; i < nsent; i++) {
        CU_ASSERT_EQUAL_FATAL(hs_reader_next(r, &got), HS_EVENT);
        const hs_event_desc *d = hs_event_get_desc(sent[i].tag);
        CU_ASSERT_EQUAL(got.tag, sent[i].tag);
        CU_ASSERT_EQUAL(got.known, d->min != HS_EVMIN_RAW);
        if (!got.known)
            continue;
        sent[i].known = true;
        if (evh_decoded(&got) != evh_decoded(&sent[i])) {
            CU_FAIL("an event's fields changed on the way");
            fprintf(stderr, "\n  %s: fields differ\n", d->name);
        }
    }
    CU_ASSERT_EQUAL(hs_reader_next(r, &got), HS_DONE);
    hs_reader_free(r);
    evw_free(&w);
}

int main(void)
{
    static const tu_test tests[] = {
        {"table columns agree with field lists", test_table_columns},
        {"every type round-trips", test_round_trip},
        {NULL, NULL},
    };
    return tu_main("evtable", NULL, NULL, tests);
}
