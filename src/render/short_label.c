/*
 * Band names shortened for legends (short_label.h): the page's rule
 * (templates/page/format.mjs's midCut and shortLabels) in C, characters
 * counted as code points.
 */
#include "render/short_label.h"

#include <math.h>
#include <string.h>

static const char ellipsis[] = "\xe2\x80\xa6"; /* … */

/* The byte offset of character k of s (its length when k is past it). */
static size_t offset_of(const char *s, size_t len, size_t k)
{
    size_t o = 0;
    while (k-- > 0 && o < len) {
        size_t c = hs_utf8_char_len(s + o, len - o);
        o += c ? c : 1;
    }
    return o;
}

static size_t chars_of(const char *s, size_t len)
{
    size_t n = 0;
    for (size_t o = 0; o < len; n++) {
        size_t c = hs_utf8_char_len(s + o, len - o);
        o += c ? c : 1;
    }
    return n;
}

/* pre (may be empty) and s[0..len) cut in the middle to max characters. */
static char *mid_cut(const hs_allocator *a, const char *pre, const char *s,
                     size_t len, size_t max)
{
    size_t n = chars_of(s, len), plen = strlen(pre);
    size_t head = 0, tail = 0, cut = n > max;
    if (cut) {
        head = (size_t)ceil((double)(max - 1) * 0.45);
        head = head ? head : 1;
        tail = max - 1 > head ? max - 1 - head : 1;
    }
    size_t h = cut ? offset_of(s, len, head) : len;
    size_t t = cut ? offset_of(s, len, n - tail) : len;
    char *out = hs_malloc(a, plen + h + sizeof ellipsis + (len - t));
    if (!out)
        return NULL;
    memcpy(out, pre, plen);
    memcpy(out + plen, s, h);
    size_t o = plen + h;
    if (cut) {
        memcpy(out + o, ellipsis, sizeof ellipsis - 1);
        o += sizeof ellipsis - 1;
        memcpy(out + o, s + t, len - t);
        o += len - t;
    }
    out[o] = 0;
    return out;
}

/* The characters the names of group g (labels equal to labels[k]) share
 * at their start. */
static size_t shared_prefix(const char *const *names, char **labels,
                            size_t n, size_t k)
{
    size_t p = strlen(names[k]);
    for (size_t j = 0; j < n; j++) {
        if (strcmp(labels[j], labels[k]) != 0)
            continue;
        size_t q = 0;
        while (q < p && names[j][q] && names[j][q] == names[k][q])
            q++;
        p = q;
    }
    while (p > 0 && ((unsigned char)names[k][p] & 0xc0) == 0x80)
        p--; /* back to a character's start */
    return chars_of(names[k], p);
}

void hs__short_labels_free(const hs_allocator *a, char **labels, size_t n)
{
    for (size_t k = 0; labels && k < n; k++)
        hs_free(a, labels[k]);
    hs_free(a, labels);
}

/* Labels meeting another: cut after their group's shared prefix, then
 * the whole name where even that meets. */
static bool part_ways(const hs_allocator *a, const char *const *names,
                      char **labels, size_t n, size_t max)
{
    char **next = hs_calloc(a, n ? n : 1, sizeof *next);
    bool ok = next != NULL;
    for (size_t k = 0; k < n && ok; k++) {
        bool meets = false;
        for (size_t j = 0; j < n && !meets; j++)
            meets = j != k && strcmp(labels[j], labels[k]) == 0;
        if (!meets)
            continue;
        size_t p = shared_prefix(names, labels, n, k), from = p > 3 ? p - 3 : 0;
        size_t len = strlen(names[k]), o = offset_of(names[k], len, from);
        next[k] = mid_cut(a, ellipsis, names[k] + o, len - o, max - 1);
        ok = next[k] != NULL;
    }
    for (size_t k = 0; k < n && ok; k++)
        if (next[k]) {
            hs_free(a, labels[k]);
            labels[k] = next[k];
            next[k] = NULL;
        }
    for (size_t k = 0; k < n && ok; k++) {
        bool meets = false;
        for (size_t j = 0; j < n && !meets; j++)
            meets = j != k && strcmp(labels[j], labels[k]) == 0;
        next[k] = meets ? mid_cut(a, "", names[k], strlen(names[k]), SIZE_MAX)
                        : NULL;
        ok = !meets || next[k];
    }
    for (size_t k = 0; k < n && ok; k++)
        if (next[k]) {
            hs_free(a, labels[k]);
            labels[k] = next[k];
            next[k] = NULL;
        }
    hs__short_labels_free(a, next, n);
    return ok;
}

char **hs__short_labels(const hs_allocator *a, const char *const *names,
                        size_t n, size_t max)
{
    if (max < 2)
        max = 2;
    char **labels = hs_calloc(a, n ? n : 1, sizeof *labels);
    bool ok = labels != NULL;
    for (size_t k = 0; k < n && ok; k++)
        ok = (labels[k] = mid_cut(a, "", names[k], strlen(names[k]), max)) != NULL;
    if (ok)
        ok = part_ways(a, names, labels, n, max);
    if (!ok) {
        hs__short_labels_free(a, labels, n);
        return NULL;
    }
    return labels;
}
