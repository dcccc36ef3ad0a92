/*
 * Tests of the interning table (src/common/util.c): hs_intern_put_words,
 * which the .mlpd loader keys allocation sites and pointers with, must be
 * hs_intern_put of the same words' bytes: the same index for the same
 * key whichever of the two put it, new keys numbered in first-seen order,
 * the key's bytes kept, across rehashes; hs_intern_is_words tells a
 * key's words from others. Also hs_grow()'s huge-page hint: an array of
 * HS_HUGE_MIN bytes or more from the C library is advised for huge pages
 * (the kernel marks its mapping "hg" in /proc/self/smaps), a smaller one
 * is not. Linked from the library's objects: neither is public.
 */
#include <heapscope/heapscope.h>

#include "common/internal.h"
#include "testutil.h"

#include <CUnit/Basic.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

/* A key of 1 to 9 words from i, the same for i and i + 500. */
static size_t key_of(unsigned i, uint64_t *w)
{
    size_t n = 1 + i % 500 % 9;
    for (size_t j = 0; j < n; j++)
        w[j] = (uint64_t)(i % 500) * 0x9e3779b97f4a7c15ull + j * 0x10001ull;
    return n;
}

static void test_words_match_bytes(void)
{
    hs_intern t;
    hs_intern_init(&t, NULL);
    /* Keys put as bytes and as words alternately, each many times. */
    for (unsigned round = 0; round < 3; round++)
        for (unsigned i = 0; i < 2000; i++) {
            uint64_t w[9];
            size_t n = key_of(i, w);
            uint32_t idx, again;
            bool added, added2;
            if ((i + round) % 2) {
                CU_ASSERT_FATAL(hs_intern_put_words(&t, w[0], w + 1, n - 1,
                                                    &idx, &added));
            } else {
                CU_ASSERT_FATAL(hs_intern_put(&t, w, n * 8, &idx, &added));
            }
            CU_ASSERT_EQUAL(hs_intern_find(&t, w, n * 8), idx);
            CU_ASSERT_FATAL(hs_intern_put(&t, w, n * 8, &again, &added2));
            CU_ASSERT_EQUAL(again, idx);
            CU_ASSERT_FALSE(added2);
            CU_ASSERT_FATAL(hs_intern_put_words(&t, w[0], w + 1, n - 1,
                                                &again, &added2));
            CU_ASSERT_EQUAL(again, idx);
            CU_ASSERT_FALSE(added2);
            CU_ASSERT_EQUAL(added, round == 0 && i < 500);
            if (round == 0 && i < 500)
                CU_ASSERT_EQUAL(idx, i);
            CU_ASSERT_TRUE(hs_intern_is_words(&t, idx, w[0], w + 1, n - 1));
            CU_ASSERT_FALSE(hs_intern_is_words(&t, idx, w[0] + 1, w + 1,
                                               n - 1));
            CU_ASSERT_FALSE(hs_intern_is_words(&t, idx, w[0], w + 1, n));
            if (n > 1)
                CU_ASSERT_FALSE(hs_intern_is_words(&t, idx, w[0], w + 1,
                                                   n - 2));
            CU_ASSERT_FALSE(hs_intern_is_words(&t, (uint32_t)t.count, w[0],
                                               w + 1, n - 1));
            CU_ASSERT_EQUAL(t.keys[idx].len, n * 8);
            CU_ASSERT_EQUAL(memcmp(t.keys[idx].ptr, w, n * 8), 0);
        }
    CU_ASSERT_EQUAL(t.count, 500);
    hs_intern_free(&t);
}

/* One word alone: the pointer maps' keys. */
static void test_single_words(void)
{
    hs_intern t;
    hs_intern_init(&t, NULL);
    for (uint64_t k = 0; k < 300; k++) {
        uint64_t key = k << 40 | 0x55;
        uint32_t idx;
        bool added;
        CU_ASSERT_FATAL(hs_intern_put_words(&t, key, NULL, 0, &idx, &added));
        CU_ASSERT_TRUE(added);
        CU_ASSERT_EQUAL(idx, k);
        CU_ASSERT_EQUAL(hs_intern_find(&t, &key, sizeof key), idx);
        CU_ASSERT_EQUAL(t.keys[idx].ptr[8], 0); /* NUL after the key */
    }
    hs_intern_free(&t);
}

/* Whether the mapping that holds p carries the flag `flag` in its
 * VmFlags line of /proc/self/smaps; -1 when p is in no mapping listed. */
static int mapping_has_flag(const void *p, const char *flag)
{
    FILE *f = fopen("/proc/self/smaps", "r");
    if (!f)
        return -1;
    char line[512];
    int found = -1;
    bool inside = false;
    uintptr_t a = (uintptr_t)p;
    while (fgets(line, sizeof line, f)) {
        unsigned long lo, hi;
        if (sscanf(line, "%lx-%lx ", &lo, &hi) == 2) {
            inside = a >= lo && a < hi;
        } else if (inside && !strncmp(line, "VmFlags:", 8)) {
            char want[8];
            snprintf(want, sizeof want, " %s", flag);
            found = strstr(line, want) != NULL;
            break;
        }
    }
    fclose(f);
    return found;
}

/* Whether advice for huge pages is taken here: THP enabled ("always" or
 * "madvise") and a mapping advised by hand marked "hg" (a container may
 * forbid it). */
static bool thp_on_request(void)
{
    FILE *f = fopen("/sys/kernel/mm/transparent_hugepage/enabled", "r");
    char line[128] = "";
    if (!f)
        return false;
    bool ok = fgets(line, sizeof line, f) && !strstr(line, "[never]");
    fclose(f);
    if (!ok)
        return false;
    size_t n = (size_t)4 << 20;
    void *m = mmap(NULL, n, PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (m == MAP_FAILED)
        return false;
    ok = madvise(m, n, MADV_HUGEPAGE) == 0 && mapping_has_flag(m, "hg") == 1;
    munmap(m, n);
    return ok;
}

static void test_huge_hint(void)
{
    if (!thp_on_request()) {
        printf("(no transparent huge pages here: not checked) ");
        return;
    }
    /* 1 MiB: below the hint's size, from its own mapping all the same */
    void *small = NULL, *big = NULL;
    size_t cap_small = 0, cap_big = 0;
    CU_ASSERT_FATAL(hs_grow(NULL, &small, &cap_small, (1u << 20) / 16, 16));
    CU_ASSERT_EQUAL(mapping_has_flag(small, "hg"), 0);
    /* grown past HS_HUGE_MIN in steps, as a census's entries grow */
    for (size_t need = 1024; cap_big * 12 < 2 * HS_HUGE_MIN; need *= 3)
        CU_ASSERT_FATAL(hs_grow(NULL, &big, &cap_big, need, 12));
    CU_ASSERT_TRUE(cap_big * 12 >= HS_HUGE_MIN);
    CU_ASSERT_EQUAL(mapping_has_flag(big, "hg"), 1);
    /* the array's last byte is in the same advised mapping: the advice
     * covers the whole array, not a part that would split its mapping
     * (a split mapping cannot be moved by mremap when it grows) */
    CU_ASSERT_EQUAL(mapping_has_flag((char *)big + cap_big * 12 - 1, "hg"), 1);
    free(small);
    free(big);
}

int main(void)
{
    static const tu_test tests[] = {
        {"words and bytes give the same index", test_words_match_bytes},
        {"one-word keys", test_single_words},
        {"big arrays hinted for huge pages", test_huge_hint},
        {NULL, NULL},
    };
    return tu_main("intern", NULL, NULL, tests);
}
