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
 * With --every-event instead it writes one buffer with an event of every
 * event byte of the format (the tests' check of `heapscope events`).
 *
 * Deterministic (a fixed xorshift seed); never written into the repository.
 */
#include <stdbool.h>
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

/* METADATA of every kind under every action, each with its tail. */
static void every_metadata(void)
{
    for (int action = 0; action < 3; action++)
        for (int kind = 1; kind <= 7; kind++) {
            event((uint8_t)(0x02 | action << 5));
            byte((uint8_t)kind);
            ptr(PTR_BASE + 0x10 * (uint64_t)kind);
            if (kind == 1 || kind == 3 || kind >= 6)
                ptr(PTR_BASE + 0x100); /* image, or the domain */
            if (kind == 7)
                ptr(class_ptr(1));
            if (kind == 3 || kind == 2 || (kind == 1 && action == 1) ||
                ((kind == 4 || kind == 5) && action == 0))
                str(kind == 3 ? "mscorlib, Version=4.0.0.0" : "Name\t\"q\"");
            if (kind == 2 && action == 1)
                str("8CBC26EA-487B-4D78-A298-73ABED71C8B0");
        }
}

/* SAMPLE_COUNTERS_DESC and SAMPLE_COUNTERS with a value of each type. */
static void every_counter(void)
{
    event(0x37); uleb(3);
    uleb(1 << 8); str("Working set"); uleb(4); uleb(1); uleb(2); uleb(1);
    uleb(1 << 15); str("Perf section"); str("Hits"); uleb(1); uleb(0);
    uleb(1); uleb(2);
    uleb(2); str("Ratio"); uleb(5); uleb(0); uleb(0); uleb(3);
    event(0x47);
    for (unsigned type = 0; type <= 7; type++) {
        uleb(type + 1); uleb(type);
        if (type == 5) {
            double d = 0.1;
            memcpy(buf + len, &d, 8);
            len += 8;
        } else if (type == 6) {
            byte(1); str("text");
        } else if (type == 1 || type == 4) {
            uleb(1000 + type);
        } else {
            sleb(-(int64_t)type - 3);
        }
    }
    uleb(9); uleb(6); byte(0); /* a null string */
    uleb(0);
}

/* One buffer with an event of every byte the format has (`gen_mlpd
 * --every-event`), for tests of the decoder and the `events` printer. */
static void every_event(void)
{
    begin(method_ptr(0));
    event(0x00); ptr(vtable_ptr(1)); obj(OBJ_BASE + 64); uleb(24);
    event(0x10); ptr(vtable_ptr(2)); obj(OBJ_BASE + 128); uleb(32); uleb(2);
    method(method_ptr(3)); method(method_ptr(1));
    event(0x11); byte(6); byte(1);
    event(0x21); uleb(64u << 20);
    event(0x31); uleb(4); obj(OBJ_BASE + 64); obj(OBJ_BASE + 4096);
    obj(OBJ_BASE + 128); obj(OBJ_BASE + 8192);
    event(0x41); uleb(2); uleb(77); obj(OBJ_BASE + 64);
    event(0x61); uleb(1); uleb(78); obj(OBJ_BASE + 64); uleb(1);
    method(method_ptr(5));
    event(0x51); uleb(2); uleb(77);
    event(0x71); uleb(1); uleb(78); uleb(0);
    event(0x81); event(0x91);
    event(0xa1); obj(OBJ_BASE + 64); event(0xb1); obj(OBJ_BASE + 64);
    every_metadata();
    event(0x13); method(method_ptr(7)); event(0x23); method(method_ptr(8));
    event(0x33); method(method_ptr(2));
    event(0x43); method(method_ptr(9)); ptr(PTR_BASE + 0x5000); uleb(200);
    str("Bench:Method (int)");
    event(0x04); obj(OBJ_BASE + 256);
    event(0x84); obj(OBJ_BASE + 256); uleb(1); method(method_ptr(4));
    event(0x14); byte(2); uleb(1); method(method_ptr(6)); obj(OBJ_BASE + 256);
    event(0x05); byte(1); obj(OBJ_BASE + 512);
    event(0x85); byte(2); obj(OBJ_BASE + 512); uleb(1); method(method_ptr(6));
    event(0x06);
    event(0x26); obj(OBJ_BASE + 64); ptr(vtable_ptr(1)); uleb(24); byte(1);
    uleb(2); uleb(8); obj(OBJ_BASE + 128); uleb(8); obj(OBJ_BASE + 256);
    event(0x36); uleb(2); ptr(PTR_BASE + 0x700); obj(OBJ_BASE + 64);
    ptr(PTR_BASE + 0x708); obj(OBJ_BASE + 128);
    event(0x16);
    event(0x46); ptr(PTR_BASE + 0x800); uleb(64); byte(3); ptr(PTR_BASE + 8);
    str("static roots");
    event(0x56); ptr(PTR_BASE + 0x800);
    event(0x07); ptr(0x7f0000001000ull); uleb(2); ptr(PTR_BASE + 0x5010);
    ptr(PTR_BASE + 0x5020); uleb(1); method(method_ptr(9));
    event(0x17); ptr(PTR_BASE + 0x6000); uleb(48); str("libc_start");
    every_counter();
    event(0x18); byte(0); ptr(PTR_BASE + 0x9000); uleb(16);
    event(0x18); byte(5); ptr(PTR_BASE + 0x9100); uleb(32); str("tramp");
    event(0x0a); byte(1);
    event(0x1a); str("aot-id-1");
    flush(0x7f0000001000ull);
}

int main(int argc, char **argv)
{
    bool every = argc > 1 && strcmp(argv[1], "--every-event") == 0;
    long mb = argc > 1 && !every ? atol(argv[1]) : 100;
    static const char args[] = "log:alloc,heapshot,output=bench.mlpd";
    le(0x4D505A01u, 4);
    putchar(3); putchar(0); putchar(17); putchar(8);
    le(1795415677000ull, 8);
    le(now - 50000, 8);
    le(20, 4); le(0, 4); le(4242, 4); le(40000, 2);
    le(sizeof args, 4); fwrite(args, 1, sizeof args, stdout);
    le(7, 4); fwrite("x86-64", 1, 7, stdout);
    le(6, 4); fwrite("linux", 1, 6, stdout);
    if (every) {
        every_event();
        return fflush(stdout) != 0;
    }
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
