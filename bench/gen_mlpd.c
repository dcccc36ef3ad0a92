/*
 * gen_mlpd: writes a synthetic Mono log-profiler file (.mlpd, format 3.0,
 * data version 17) of about SIZE megabytes to standard output, with the
 * event mix of an allocating, heap-shot program: classes, vtables and JIT
 * names first (as the profiler's writer thread puts them), then buffers of
 * 64 KiB from four threads with allocations carrying 4 to 20 frame
 * backtraces, GC events, and every 64th buffer a heap shot of HEAP_OBJECT
 * records with references. mprof-report reads it like a real file.
 *
 *     gen_mlpd 200 > /tmp/big.mlpd
 *
 * Deterministic (a fixed xorshift seed); never written into the repository.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define BUF 65536
#define CLASSES 300
#define METHODS 2000
#define PTR_BASE 0x7f0000000000ull
#define OBJ_BASE 0x7f1000000000ull

static uint8_t buf[BUF + 4096];
static size_t len;
static uint64_t now = 1000000000000ull, last_time, method_run;
static uint64_t ptr_base, obj_base, method_base, buf_start;
static uint32_t rng = 2463534242u;

static uint32_t next(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 17;
    rng ^= rng << 5;
    return rng;
}

static void byte(uint8_t b) { buf[len++] = b; }

static void uleb(uint64_t v)
{
    do {
        uint8_t b = v & 0x7f;
        v >>= 7;
        byte(v ? b | 0x80 : b);
    } while (v);
}

static void sleb(int64_t v)
{
    for (;;) {
        uint8_t b = v & 0x7f;
        v >>= 7;
        if ((v == 0 && !(b & 0x40)) || (v == -1 && (b & 0x40))) {
            byte(b);
            return;
        }
        byte(b | 0x80);
    }
}

static void str(const char *s)
{
    size_t n = strlen(s) + 1;
    memcpy(buf + len, s, n);
    len += n;
}

static void le(uint64_t v, int n)
{
    for (int i = 0; i < n; i++)
        putchar((int)(v >> (8 * i) & 0xff));
}

static void event(uint8_t b)
{
    byte(b);
    now += 50 + next() % 400;
    uleb(now - last_time);
    last_time = now;
}

static void ptr(uint64_t p) { sleb((int64_t)(p - ptr_base)); }
static void obj(uint64_t o) { sleb((int64_t)((o >> 3) - obj_base)); }
static void method(uint64_t m) { sleb((int64_t)(m - method_run)); method_run = m; }

static uint64_t class_ptr(int i) { return PTR_BASE + 0x100000 + (uint64_t)i * 0x80; }
static uint64_t vtable_ptr(int i) { return PTR_BASE + 0x200000 + (uint64_t)i * 0x40; }
static uint64_t method_ptr(int i) { return PTR_BASE + 0x400000 + (uint64_t)i * 0x30; }

static void begin(uint64_t first_method)
{
    len = 0;
    ptr_base = PTR_BASE;
    obj_base = OBJ_BASE >> 3;
    method_base = method_run = first_method;
    buf_start = last_time = now;
}

static void flush(uint64_t thread)
{
    le(0x4D504C01u, 4);
    le(len, 4);
    le(buf_start, 8);
    le(ptr_base, 8);
    le(obj_base, 8);
    le(thread, 8);
    le(method_base, 8);
    fwrite(buf, 1, len, stdout);
}

/* The writer thread's names: an image, classes, vtables, methods. */
static void names(void)
{
    begin(method_ptr(0));
    event(0x22); byte(2); ptr(PTR_BASE + 0x10); str("/app/Bench.exe");
    str("00000000-0000-0000-0000-000000000000");
    char name[128];
    for (int i = 0; i < CLASSES; i++) {
        if (len > BUF - 512) { flush(0x7f00000011c0ull); begin(method_ptr(0)); }
        snprintf(name, sizeof name, "Bench.Namespace%d.Class%d%s", i % 7, i,
                 i % 5 == 0 ? "[]" : "");
        event(0x22); byte(1); ptr(class_ptr(i)); ptr(PTR_BASE + 0x10); str(name);
        event(0x22); byte(7); ptr(vtable_ptr(i)); ptr(PTR_BASE + 0x20);
        ptr(class_ptr(i));
    }
    for (int i = 0; i < METHODS; i++) {
        if (len > BUF - 512) { flush(0x7f00000011c0ull); begin(method_ptr(i)); }
        snprintf(name, sizeof name, "Bench.Namespace%d.Class%d:Method%d (int,object)",
                 i % 7, i % CLASSES, i);
        event(0x43); method(method_ptr(i)); ptr(PTR_BASE + 0x1000000 + (uint64_t)i * 256);
        uleb(200); str(name);
    }
    flush(0x7f00000011c0ull);
}

static void alloc_buffer(uint64_t thread)
{
    begin(method_ptr(0));
    while (len < BUF - 400) {
        /* 50 call paths of 4 to 20 frames, each allocating any class */
        int cls = (int)(next() % CLASSES);
        int root = (int)(next() % 50);
        int depth = 4 + root % 17;
        event(0x10);
        ptr(vtable_ptr(cls));
        obj(OBJ_BASE + (uint64_t)(next() % (1u << 24)) * 8);
        uleb(16 + 8 * (next() % 16));
        uleb((uint64_t)depth);
        for (int f = 0; f < depth; f++)
            method(method_ptr((root * 37 + f * 13) % METHODS));
        if (next() % 500 == 0) {
            event(0x11); byte(0); byte(0);
            event(0x11); byte(5); byte(0);
            event(0x21); uleb(64u << 20);
        }
    }
    flush(thread);
}

static void heap_shot(uint64_t thread)
{
    begin(method_ptr(0));
    event(0x11); byte(6); byte(1);
    event(0x06);
    event(0x11); byte(0); byte(1);
    for (int n = 0; n < 3; n++) {
        while (len < BUF - 400) {
            event(0x26);
            obj(OBJ_BASE + (uint64_t)(next() % (1u << 24)) * 8);
            ptr(vtable_ptr((int)(next() % CLASSES)));
            uleb(16 + 8 * (next() % 16));
            byte(next() % 2);
            int refs = (int)(next() % 4);
            uleb((uint64_t)refs);
            for (int r = 0; r < refs; r++) {
                uleb(8);
                obj(OBJ_BASE + (uint64_t)(next() % (1u << 24)) * 8);
            }
        }
        if (n == 2) {
            event(0x16);
            event(0x11); byte(5); byte(1);
            event(0x11); byte(9); byte(1);
        }
        flush(thread);
        begin(method_ptr(0));
    }
}

int main(int argc, char **argv)
{
    long mb = argc > 1 ? atol(argv[1]) : 100;
    static const char args[] = "log:alloc,heapshot,output=bench.mlpd";
    le(0x4D505A01u, 4);
    putchar(3); putchar(0); putchar(17); putchar(8);
    le(1795415677000ull, 8);
    le(now - 50000, 8);
    le(20, 4); le(0, 4); le(4242, 4); le(40000, 2);
    le(sizeof args, 4); fwrite(args, 1, sizeof args, stdout);
    le(7, 4); fwrite("x86-64", 1, 7, stdout);
    le(6, 4); fwrite("linux", 1, 6, stdout);
    names();
    long buffers = mb * 16;
    for (long b = 0; b < buffers; b++) {
        uint64_t thread = 0x7f0000001000ull + (uint64_t)(b % 4) * 0x100000;
        if (b % 64 == 63)
            heap_shot(thread), b += 2;
        else
            alloc_buffer(thread);
    }
    return fflush(stdout) != 0;
}
