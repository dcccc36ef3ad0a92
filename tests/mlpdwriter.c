/* A tiny .mlpd writer for constructed files (mlpdwriter.h). */
#include "mlpdwriter.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void w_bytes(struct wr *w, const void *p, size_t n)
{
    if (n > sizeof w->b - w->n) { /* a test writing more than it has room for */
        fprintf(stderr, "mlpdwriter: %zu bytes past the writer's %zu\n",
                n, sizeof w->b);
        abort();
    }
    memcpy(w->b + w->n, p, n);
    w->n += n;
}

void w_u(struct wr *w, uint64_t v, unsigned size)
{
    for (unsigned i = 0; i < size; i++)
        w->b[w->n++] = (uint8_t)(v >> (8 * i));
}

void w_uleb(struct wr *w, uint64_t v)
{
    do {
        uint8_t b = v & 0x7f;
        v >>= 7;
        w->b[w->n++] = b | (v ? 0x80 : 0);
    } while (v);
}

void w_sleb(struct wr *w, int64_t v)
{
    for (;;) {
        uint8_t b = v & 0x7f;
        v >>= 7;
        bool done = (v == 0 && !(b & 0x40)) || (v == -1 && (b & 0x40));
        w->b[w->n++] = b | (done ? 0 : 0x80);
        if (done)
            return;
    }
}

void w_header(struct wr *w, uint8_t ptr_size)
{
    w_u(w, 0x4D505A01u, 4);
    const uint8_t v[4] = {3, 0, 17, ptr_size};
    w_bytes(w, v, 4);
    w_u(w, 1700000000000ull, 8);
    w_u(w, 1000, 8);
    w_u(w, 20, 4);
    w_u(w, 0, 4);
    w_u(w, 42, 4);
    w_u(w, 0, 2);
    static const char *const strs[] = {"log:alloc", "x86", "linux"};
    for (int i = 0; i < 3; i++) {
        w_u(w, strlen(strs[i]) + 1, 4);
        w_bytes(w, strs[i], strlen(strs[i]) + 1);
    }
}

void w_buffer_at(struct wr *w, uint64_t ptr_base, uint64_t time,
                 const uint8_t *p, size_t n)
{
    w_u(w, 0x4D504C01u, 4);
    w_u(w, n, 4);
    w_u(w, time, 8);
    w_u(w, ptr_base, 8);
    w_u(w, 0x1000, 8);
    w_u(w, 7, 8);
    w_u(w, 0, 8);
    w_bytes(w, p, n);
}

