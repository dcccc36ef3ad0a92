/*
 * The one setter of an hs_error (src/common/error.c), which every part of
 * the library fills its records with: the first error stands (out of
 * memory included), a warning gives way, a NULL record is harmless, and a
 * record is filled whole. Linked from the library's objects: the setter
 * is not public.
 */
#include <heapscope/heapscope.h>

#include "common/internal.h"
#include "testutil.h"

#include <CUnit/Basic.h>

#include <string.h>

/* *e holds exactly this record. */
static void expect(const hs_error *e, int code, hs_error_at at,
                   const char *message)
{
    CU_ASSERT_EQUAL(e->code, code);
    CU_ASSERT_EQUAL(e->offset, at.offset);
    CU_ASSERT_EQUAL(e->event_index, at.event_index);
    CU_ASSERT_EQUAL(e->line, at.line);
    CU_ASSERT_STRING_EQUAL(e->message, message);
}

static const hs_error_at nowhere = {0, HS_NO_EVENT, 0};

static void test_fills_whole(void)
{
    hs_error e;
    memset(&e, 0x5a, sizeof e);
    hs__error_clear(&e);
    expect(&e, HS_OK, nowhere, "");
    hs_error_at at = {12, 3, 4};
    CU_ASSERT_EQUAL(hs__error_set(&e, HS_ERR_PARSE, &at, "bad %s at %d",
                                  "thing", 7), HS_ERR_PARSE);
    expect(&e, HS_ERR_PARSE, at, "bad thing at 7");
}

static void test_first_error_stands(void)
{
    hs_error e;
    hs__error_clear(&e);
    hs_error_at at = {5, 1, 0};
    hs__error_set(&e, HS_ERR_NOMEM, &at, "out of memory");
    /* a later error is returned, not recorded */
    CU_ASSERT_EQUAL(hs__error_set(&e, HS_ERR_IO, NULL, "later"), HS_ERR_IO);
    CU_ASSERT_EQUAL(hs__error_set(&e, HS_TRUNCATED, NULL, "cut"),
                    HS_TRUNCATED);
    expect(&e, HS_ERR_NOMEM, at, "out of memory");
}

static void test_warning_gives_way(void)
{
    hs_error e;
    hs__error_clear(&e);
    hs_error_at at = {9, 2, 7};
    hs__error_set(&e, HS_TRUNCATED, &at, "cut at %d", 9);
    hs__error_set(&e, HS_ERR_NOMEM, NULL, "out of memory");
    expect(&e, HS_ERR_NOMEM, nowhere, "out of memory");
}

static void test_null_and_long(void)
{
    CU_ASSERT_EQUAL(hs__error_set(NULL, HS_ERR_IO, NULL, "x"), HS_ERR_IO);
    hs__error_clear(NULL);
    char big[600];
    memset(big, 'a', sizeof big - 1);
    big[sizeof big - 1] = 0;
    hs_error e;
    hs__error_clear(&e);
    hs__error_set(&e, HS_ERR_INVALID, NULL, "%s", big);
    CU_ASSERT_EQUAL(strlen(e.message), sizeof e.message - 1);
}

int main(void)
{
    static const tu_test tests[] = {
        {"a record is filled whole", test_fills_whole},
        {"the first error stands", test_first_error_stands},
        {"a warning gives way to an error", test_warning_gives_way},
        {"NULL records, long messages", test_null_and_long},
        {NULL, NULL},
    };
    return tu_main("error", NULL, NULL, tests);
}
