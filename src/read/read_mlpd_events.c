/*
 * Decoding the events of Mono's log profiler, data version 17 (Mono 6.x):
 * the code for every event byte is generated from the table of
 * heapscope/mlpd_events.h, one `case` per row with its fields read in
 * file order, so the layouts are written once (shared/spec/MLPD-NOTES.md
 * records them from real files).
 *
 * Every event is: the event byte (low nibble type, high nibble subtype),
 * a uleb128 time delta, then its fields. Decoding is all-or-nothing: an
 * event is decoded into locals and the buffer's running time and method
 * are committed only when the whole event lay inside the available bytes,
 * so an event cut by a chunk edge is simply decoded again once its bytes
 * have arrived.
 */
#include "read/read_mlpd.h"
#include "read/read_mlpd_cursor.h"
#include "read/read_mlpd_alloc.h"

#include <string.h>

static MLPD_INLINE uint64_t get_ptr(mlpd_decoder *d, mlpd_cursor *c)
{
    return (d->ptr_base + (uint64_t)get_sleb(c)) & d->mask;
}

static MLPD_INLINE uint64_t get_obj(mlpd_decoder *d, mlpd_cursor *c)
{
    return ((d->obj_base + (uint64_t)get_sleb(c)) & d->mask) << 3;
}

/* The next method: the buffer's running value plus a signed delta. */
static MLPD_INLINE uint64_t get_method(mlpd_decoder *d, mlpd_cursor *c, uint64_t *m)
{
    *m += (uint64_t)get_sleb(c);
    return *m & d->mask;
}

static bool grow_col(mlpd_decoder *d, unsigned k, size_t n)
{
    return hs_grow(d->alloc, (void **)&d->col[k], &d->colcap[k], n ? n : 1,
                   sizeof *d->col[k]);
}

/* Room for n records of size bytes (n is bounded by the buffer's bytes). */
static bool grow_rec(mlpd_decoder *d, size_t n, size_t size)
{
    return hs_grow(d->alloc, &d->rec, &d->reccap, (n ? n : 1) * size, 1);
}

/* The frames of BT and FRAMES: uleb count, then running method deltas.
 * *m is the running method value, advanced as frames are read. */
static int get_bt(mlpd_decoder *d, mlpd_cursor *c, hs_mlpd_event *ev,
                  uint64_t *m)
{
    size_t n = get_count(c);
    if (!grow_col(d, 0, n))
        return -1;
    for (size_t i = 0; i < n && c->status == CUR_OK; i++)
        d->col[0][i] = get_method(d, c, m);
    ev->frames = d->col[0];
    ev->nframes = n;
    return 0;
}

static void counter_value(mlpd_cursor *c, hs_mlpd_counter_value *v)
{
    switch (v->type) {
    case HS_MLPD_COUNTER_INT: case HS_MLPD_COUNTER_WORD:
    case HS_MLPD_COUNTER_LONG: case HS_MLPD_COUNTER_TIME_INTERVAL:
        v->i = get_sleb(c);
        break;
    case HS_MLPD_COUNTER_UINT: case HS_MLPD_COUNTER_ULONG:
        v->u = get_uleb(c);
        break;
    case HS_MLPD_COUNTER_DOUBLE:
        if (c->end - c->p < 8) {
            if (c->status == CUR_OK)
                c->status = CUR_SHORT;
            c->p = c->end;
            break;
        }
        memcpy(&v->d, c->p, 8); /* the writer's native double */
        c->p += 8;
        break;
    case HS_MLPD_COUNTER_STRING:
        v->s = get_byte(c) ? get_str(c) : NULL;
        break;
    default:
        bad(c, "an unknown counter type");
    }
}

/* --- the code the table's fields expand to ------------------------------
 * In a row: d the decoder, c the cursor, ev the event, m_ the running
 * method value. A field is F(m, KIND, cname, name, arg, wf, WHEN, wv). */

#define READ_ULEB get_uleb(c)
#define READ_U8 get_byte(c)
#define READ_PTR get_ptr(d, c)
#define READ_OBJ get_obj(d, c)
#define READ_METHOD get_method(d, c, m_)
#define READ_STR get_str(c)
#define READ_ULEB_SUM (sum_ += get_uleb(c))

#define WHEN_ALL(x, v) 1
#define WHEN_IN(x, v) ((uint64_t)(x) < 64 && ((uint64_t)(v) >> (x) & 1))
#define WHEN_EQ(x, v) ((uint64_t)(x) == (uint64_t)(v))

#define HS__FIRST(a, b) a
#define HS__SECOND(a, b) b

/* The bit of each value a names list (HS_MLPD_META_TABLE) names. */
#define VALUE_BIT(v, NAME, s) | ((uint64_t)1 << (v))

#define DEC(m, K, cn, p, arg, wf, W, wv) DEC_##K(m, cn, arg, wf, W, wv)
#define DEC_SCALAR(m, cn, R, wf, W, wv) \
    if (WHEN_##W(ev->u.m.wf, wv)) \
        ev->u.m.cn = R;
#define DEC_ULEB(m, cn, a, wf, W, wv) DEC_SCALAR(m, cn, READ_ULEB, wf, W, wv)
#define DEC_U8(m, cn, a, wf, W, wv) DEC_SCALAR(m, cn, READ_U8, wf, W, wv)
#define DEC_PTR(m, cn, a, wf, W, wv) DEC_SCALAR(m, cn, READ_PTR, wf, W, wv)
#define DEC_OBJ(m, cn, a, wf, W, wv) DEC_SCALAR(m, cn, READ_OBJ, wf, W, wv)
#define DEC_METHOD(m, cn, a, wf, W, wv) \
    DEC_SCALAR(m, cn, READ_METHOD, wf, W, wv)
#define DEC_STR(m, cn, a, wf, W, wv) DEC_SCALAR(m, cn, READ_STR, wf, W, wv)
#define DEC_CONST(m, cn, a, wf, W, wv) ev->u.m.cn = HS__FIRST a;
#define DEC_SELECT(m, cn, a, wf, W, wv) ev->u.m.cn = get_byte(c);
#define DEC_BT(m, cn, a, wf, W, wv) \
    if (get_bt(d, c, ev, m_) < 0) \
        return -1; \
    ev->has_bt = true;
#define DEC_FRAMES(m, cn, a, wf, W, wv) \
    if (get_bt(d, c, ev, m_) < 0) \
        return -1;

/* COLUMNS, PAIRS: the count, then per element one value per column. */
#define COL_ONE(m, K, cn, p, a, wf, W, wv) +1
#define COL_GROW(m, K, cn, p, a, wf, W, wv) \
    if (!grow_col(d, 1 + k_, n_)) \
        return -1; \
    ev->u.m.cn = col_[k_] = d->col[1 + k_]; \
    k_++;
#define COL_READ(m, K, cn, p, a, wf, W, wv) col_[k_++][i_] = READ_##K;
#define DEC_COLUMNS(m, cn, COLS, wf, W, wv) \
    { \
        _Static_assert(0 COLS(COL_ONE, m) <= 2, "two columns at most"); \
        size_t n_ = get_count(c); \
        uint64_t *col_[2], sum_ = 0; \
        unsigned k_ = 0; \
        (void)sum_; \
        COLS(COL_GROW, m) \
        for (size_t i_ = 0; i_ < n_ && c->status == CUR_OK; i_++) { \
            k_ = 0; \
            COLS(COL_READ, m) \
        } \
        ev->u.m.cn = n_; \
    }
#define DEC_PAIRS DEC_COLUMNS

/* RECORDS, RECORDS_0: element fields into zeroed structs of type T. */
#define REC(T, K, cn, p, a, wf, W, wv) REC_##K(T, cn, a, wf, W, wv)
#define REC_SCALAR(T, cn, R, wf, W, wv) \
    if (WHEN_##W(((T *)rec_)->wf, wv)) \
        ((T *)rec_)->cn = R;
#define REC_STR(T, cn, a, wf, W, wv) REC_SCALAR(T, cn, READ_STR, wf, W, wv)
#define REC_ULEB(T, cn, a, wf, W, wv) \
    REC_SCALAR(T, cn, ((a) & HS_MLPD_FLAG_KEY && key_ ? key_ : READ_ULEB), \
               wf, W, wv)
#define REC_COUNTER(T, cn, a, wf, W, wv) counter_value(c, (T *)rec_);
#define REC_START \
    void *rec_ = (char *)d->rec + i_ * sz_; \
    memset(rec_, 0, sz_);
#define DEC_RECORDS(m, cn, RECS, wf, W, wv) \
    { \
        size_t n_ = get_count(c), sz_ = sizeof *ev->u.m.cn; \
        uint64_t key_ = 0; /* read in the file's order */ \
        if (!grow_rec(d, n_, sz_)) \
            return -1; \
        for (size_t i_ = 0; i_ < n_ && c->status == CUR_OK; i_++) { \
            REC_START \
            RECS(REC, T) \
        } \
        ev->u.m.cn = d->rec; \
        ev->u.m.n = n_; \
    }
/* The key (the first field) is read first: 0 ends the records. */
#define DEC_RECORDS_0(m, cn, RECS, wf, W, wv) \
    { \
        size_t i_ = 0, sz_ = sizeof *ev->u.m.cn; \
        for (;;) { \
            uint64_t key_ = get_uleb(c); \
            if (c->status != CUR_OK || key_ == 0) \
                break; \
            if (!grow_rec(d, i_ + 1, sz_)) \
                return -1; \
            REC_START \
            RECS(REC, T) \
            i_++; \
        } \
        ev->u.m.cn = d->rec; \
        ev->u.m.n = i_; \
    }

/* After the fields: a SELECT value no name is given for is refused. */
#define CHECK(m, K, cn, p, a, wf, W, wv) CHECK_##K(m, cn, a)
#define CHECK_SELECT(m, cn, a) \
    if (!((0 HS__FIRST a(VALUE_BIT)) >> (ev->u.m.cn & 63) & 1) || \
        ev->u.m.cn >= 64) \
        bad(c, HS__SECOND a);
#define CHECK_ULEB(m, cn, a)
#define CHECK_U8(m, cn, a)
#define CHECK_PTR(m, cn, a)
#define CHECK_OBJ(m, cn, a)
#define CHECK_METHOD(m, cn, a)
#define CHECK_STR(m, cn, a)
#define CHECK_CONST(m, cn, a)
#define CHECK_BT(m, cn, a)
#define CHECK_FRAMES(m, cn, a)
#define CHECK_COLUMNS(m, cn, a)
#define CHECK_PAIRS(m, cn, a)
#define CHECK_RECORDS(m, cn, a)
#define CHECK_RECORDS_0(m, cn, a)

#define ROW(byte, KIND, m, FIELDS) \
    case byte: \
        ev->kind = HS_MLPD_##KIND; \
        FIELDS(DEC, m) \
        FIELDS(CHECK, m) \
        return 0;

/*
 * The fields of the row for `byte`. Returns 0, -1 when out of memory, or
 * 1 when no row has that byte (nothing read). Inlined: the running method
 * value stays in a register.
 */
static MLPD_INLINE int decode_row(mlpd_decoder *d, mlpd_cursor *c,
                                  hs_mlpd_event *ev, uint64_t *m_,
                                  uint8_t byte)
{
    switch (byte) {
        HS_MLPD_EVENT_TABLE(ROW)
    default:
        return 1;
    }
}

/*
 * An event byte no row has is refused: "an unknown NAME subtype" for a
 * type the table knows, after the fields of its fallback row where it has
 * one (*byte becomes that row's, and 1 is returned to read it), else
 * "an unknown event byte".
 */
static HS_NOINLINE int unknown_byte(mlpd_cursor *c, uint8_t *byte,
                                   const char **what)
{
#define TYPE_MSG(t, NAME, fb) [t] = "an unknown " #NAME " subtype",
#define TYPE_FALLBACK(t, NAME, fb) [t] = fb,
    static const char *const msg[16] = {HS_MLPD_TYPE_TABLE(TYPE_MSG)};
    static const int fallback[16] = {HS_MLPD_TYPE_TABLE(TYPE_FALLBACK)};
    unsigned t = *byte & 0x0f;
    if (!*what && msg[t] && fallback[t] >= 0) {
        *what = msg[t];
        *byte = (uint8_t)fallback[t];
        return 1;
    }
    bad(c, msg[t] ? msg[t] : "an unknown event byte");
    return 0;
}

/*
 * The fast path of ALLOC, nearly every event of a file written with
 * `alloc`: with room in the buffer for the longest event its frame count
 * allows (LEB_UNCHECKED_MAX bytes a value), checked once, its values are
 * read without a check per byte. Anything else (the buffer's last bytes,
 * a value of ten bytes, a backtrace longer than the scratch array) returns
 * false having changed nothing, and the general path below reads the
 * event, with its messages and offsets.
 */
bool hs__mlpd_general_only;

/*
 * The ALLOC at p, end its bytes at hand: its values into *a, its frames
 * (at most cap) into f, *m advanced over them; the end of the event, or
 * NULL (nothing in *m changed) when the fast path leaves it alone.
 */
static MLPD_INLINE const uint8_t *alloc_at(const mlpd_decoder *d,
                                           const uint8_t *p,
                                           const uint8_t *end, uint64_t *f,
                                           size_t cap, uint64_t *m,
                                           struct alloc_vals *a)
{
    p = alloc_head(p, end, cap, a);
    return p && a->n ? frames_at(d->mask, p, a->n, f, m) : p;
}

static MLPD_INLINE bool fast_alloc(mlpd_decoder *d, mlpd_cursor *c,
                                   hs_mlpd_event *ev)
{
    struct alloc_vals a;
    uint64_t m = d->method;
    const uint8_t *p = alloc_at(d, c->p, c->end, d->col[0], d->colcap[0],
                                &m, &a);
    if (!p)
        return false;
    memset(&ev->u, 0, sizeof ev->u);
    ev->kind = HS_MLPD_ALLOC;
    ev->byte = a.byte;
    ev->has_bt = a.byte == 0x10;
    ev->frames = ev->has_bt ? d->col[0] : NULL;
    ev->nframes = (size_t)a.n;
    ev->u.alloc.vtable = (d->ptr_base + a.vt) & d->mask;
    ev->u.alloc.object = ((d->obj_base + a.obj) & d->mask) << 3;
    ev->u.alloc.size = a.size;
    d->time += a.dt;
    d->method = m;
    ev->time = d->time;
    ev->size = (uint64_t)(p - c->p);
    c->p = p;
    return true;
}

/* Any event, by the table's rows (out of line: the fast path above keeps
 * its registers to itself). */
static HS_NOINLINE int decode_general(mlpd_decoder *d, mlpd_cursor *c,
                                      hs_mlpd_event *ev)
{
    const uint8_t *start = c->p;
    memset(&ev->u, 0, sizeof ev->u);
    ev->has_bt = false;
    ev->frames = NULL;
    ev->nframes = 0;
    ev->byte = get_byte(c);
    /* Deltas are added modulo 2^64: JIT and counter events can step back
     * in time with a 10-byte encoding of a negative delta. */
    uint64_t time = d->time + get_uleb(c);
    uint64_t m = d->method;
    int st = 0;
    uint8_t byte = ev->byte;
    const char *unknown = NULL;
    while (c->status == CUR_OK &&
           (st = decode_row(d, c, ev, &m, byte)) == 1 &&
           (st = unknown_byte(c, &byte, &unknown)) == 1)
        ;
    if (unknown)
        bad(c, unknown);
    if (st < 0)
        return -1;
    if (c->status != CUR_OK) {
        c->p = start;
        return c->status;
    }
    d->time = time;
    d->method = m;
    ev->time = time;
    ev->size = (uint64_t)(c->p - start);
    return CUR_OK;
}

int hs__mlpd_decode_event(mlpd_decoder *d, mlpd_cursor *c, hs_mlpd_event *ev)
{
    c->status = CUR_OK;
    c->what = NULL;
    if (!hs__mlpd_general_only && fast_alloc(d, c, ev))
        return CUR_OK;
    return decode_general(d, c, ev);
}

void hs__mlpd_decoder_free(mlpd_decoder *d)
{
    for (unsigned k = 0; k < 3; k++)
        hs_free(d->alloc, d->col[k]);
    hs_free(d->alloc, d->rec);
    hs_free(d->alloc, d->bt);
    memset(d, 0, sizeof *d);
}
