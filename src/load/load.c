/*
 * Loading: hs_census_load_fd reads an eventlog, a runtime .hp file or a
 * Mono .mlpd (plain or gzip), told apart by its first bytes
 * (hs_format_sniff, sniff.c), into a census. Works on pipes: the bytes
 * read to decide are handed on to whichever parser takes them, nothing is
 * re-read. The readers' output is connected to the census's builder here
 * and in load_mlpd*.c, so that read/ knows nothing of the census and the
 * census nothing of the formats.
 */
#include "census/census_impl.h"
#include "census/census_build.h"
#include "read/input.h"
#include "read/read_hp.h"
#include "heapscope/load.h"
#include "heapscope/mlpd_census.h"
#include "load/load_eventlog.h"
#include "load/load_mlpd.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* hs_census_load_hp's stdio reads. */
#define READ_BLOCK (1u << 16)

/* A failure of the input itself: a read error or no memory for its
 * buffer. */
static void input_err(hs_error *err, int st, int e)
{
    if (st == HS_ERR_IO)
        hs__error_set(err, st, NULL, "reading failed%s%s", e ? ": " : "",
                      e ? strerror(e) : "");
    else
        hs__error_set(err, st, NULL, "out of memory");
}

/* --- .hp: the parser's callbacks into the builder ------------------------ */

static int hp_sample_begin(void *user, uint64_t t)
{
    return hs__census_build_sample_begin(user, t);
}

/* Every band line comes here: straight to the census's entry, without
 * the builder's check that the census still takes data (the parser stops
 * at the first error a callback returns, and the census is finished only
 * after it). */
static int hp_band(void *user, const char *name, size_t len, uint64_t bytes)
{
    return hs__census_string_entry(user, name, len, bytes);
}

/* A run of band lines of one sample, whole in the chunk. */
static int hp_bands(void *user, const hs_hp_band *lines, size_t n,
                    size_t *done)
{
    return hs__census_string_entries(user, lines, n, done);
}

static int hp_sample_end(void *user) { return hs__census_build_sample_end(user); }

static int hp_mark(void *user, uint64_t t)
{
    return hs__census_build_marker(user, t, "", 0);
}

static void hp_warn(void *user, const char *msg)
{
    hs__census_build_warn(user, "%s", msg);
}

static hs_hp_parser *hp_parser_for(hs_census *c)
{
    hs_hp_callbacks cb = {c,       hp_sample_begin, hp_band, hp_sample_end,
                          hp_mark, hp_warn,         hp_bands};
    if (hs__census_build_begin(c, HS_SOURCE_HP))
        return NULL;
    return hs__hp_parser_new(&cb, c->alloc);
}

/* Ends the parse and finishes the census with the header's facts. */
static int hp_finish(hs_census *c, hs_hp_parser *p, hs_error *err)
{
    hs_hp_facts f;
    int st = hs__hp_parser_finish(p, &f, err);
    if (st < 0)
        return st;
    hs_census_run run = {0};
    run.job = f.job;
    run.date = f.date;
    run.breakdown = f.breakdown;
    run.end_ns = f.end_ns;
    if (f.job) {
        /* The program is the JOB's first word. */
        size_t n = strcspn(f.job, " ");
        run.program = hs_arena_strndup(&c->arena, f.job, n);
        if (!run.program)
            st = hs__census_nomem(c);
    }
    int bs = st < 0 ? st : hs__census_build_run(c, &run);
    /* The runtime ends every sample with END_SAMPLE, so one left open by
     * a cut holds part of a census: it is left out, as in an eventlog. */
    c->seen_sample_end = true;
    if (!bs)
        bs = hs_census_finish(c, st != HS_TRUNCATED);
    if (bs) {
        hs__error_set(err, bs, NULL,
                      "out of memory while building the census");
        return bs;
    }
    if (st == HS_TRUNCATED && err) {
        c->info.cut_line = err->line;
        hs__census_fold_cut(c, err);
    }
    return st;
}

static int load_hp(hs_census *c, hs_input *in, hs_error *err)
{
    hs_hp_parser *p = hp_parser_for(c);
    if (!p) {
        hs__error_set(err, HS_ERR_NOMEM, NULL, "out of memory");
        return HS_ERR_NOMEM;
    }
    const uint8_t *buf;
    size_t n;
    int st = HS_OK;
    while (st == HS_OK) {
        int in_st = hs_input_next(in, &buf, &n);
        if (in_st < 0) {
            input_err(err, in_st, in->err_no);
            st = in_st;
            break;
        }
        if (in_st == HS_DONE) {
            st = hp_finish(c, p, err);
            break;
        }
        st = hs__hp_parser_feed(p, buf, n, err);
    }
    hs__hp_parser_free(p);
    if (st == HS_OK)
        hs__error_clear(err);
    return st;
}

int hs_census_load_hp(hs_census *c, FILE *in, hs_error *err)
{
    hs__error_clear(err);
    hs_hp_parser *p = hp_parser_for(c);
    /* on a 64-byte line, as hs_input's (read/input.c says why) */
    char *block = hs_malloc(c->alloc, READ_BLOCK + 63);
    char *buf = block ? block + (-(uintptr_t)block & 63) : NULL;
    if (!p || !buf) {
        hs__hp_parser_free(p);
        hs_free(c->alloc, block);
        hs__error_set(err, HS_ERR_NOMEM, NULL, "out of memory");
        return HS_ERR_NOMEM;
    }
    int st = HS_OK;
    for (;;) {
        size_t n = fread(buf, 1, READ_BLOCK, in);
        if (n && (st = hs__hp_parser_feed(p, buf, n, err)) != HS_OK)
            break;
        if (n < READ_BLOCK) {
            if (ferror(in)) {
                input_err(err, HS_ERR_IO, errno);
                st = HS_ERR_IO;
                break;
            }
            if (feof(in)) {
                st = hp_finish(c, p, err);
                break;
            }
        }
    }
    hs__hp_parser_free(p);
    hs_free(c->alloc, block);
    if (st == HS_OK)
        hs__error_clear(err);
    return st;
}

/* hs_census_load_fd(), and the events to s too (NULL: none), in a thread
 * of loan's too (NULL: none). */
static int load_fd(hs_census *c, hs_summary *s, int fd,
                   const hs_thread_loan *loan, hs_error *err)
{
    hs__error_clear(err);
    hs_input in;
    hs_input_open(&in, fd, c->alloc);
    /* A pipe may deliver a byte at a time: the input gathers the four
     * bytes of the magic (or the end) before deciding, and hands them on
     * to whichever parser takes them. */
    const uint8_t *head;
    size_t have;
    int st = hs_input_peek(&in, HS_FORMAT_SNIFF_BYTES, &head, &have);
    if (st < 0) {
        input_err(err, st, in.err_no);
        hs_input_close(&in);
        return st;
    }
    /* Text is taken for a .hp (whose parser then says what it expected
     * on which line); anything else goes to the eventlog reader, which
     * names the bad magic. */
    switch (hs_format_sniff(head, have)) {
    case HS_FORMAT_MLPD:
    case HS_FORMAT_MLPD_GZIP:
        st = hs__census_load_mlpd(c, &in, NULL, 0, err);
        break;
    case HS_FORMAT_HP:
    case HS_FORMAT_TEXT:
        st = load_hp(c, &in, err);
        break;
    default:
        st = hs__load_eventlog(c, s, &in, loan, err);
        break;
    }
    hs_input_close(&in);
    return st;
}

int hs_census_load_fd(hs_census *c, int fd, hs_error *err)
{
    return load_fd(c, NULL, fd, NULL, err);
}

int hs_census_load_summary_fd(hs_census *c, hs_summary *s, int fd,
                              hs_error *err)
{
    return load_fd(c, s, fd, NULL, err);
}

int hs_census_load_summary_fd_lent(hs_census *c, hs_summary *s, int fd,
                                   const hs_thread_loan *loan,
                                   hs_error *err)
{
    hs_thread_loan taken;
    hs_thread_loan_init(&taken);
    if (loan && hs__options_take(&taken, sizeof taken, loan)) {
        hs__error_set(err, HS_ERR_INVALID, NULL, "the thread loan was not "
                      "set up by hs_thread_loan_init");
        return HS_ERR_INVALID;
    }
    return load_fd(c, s, fd, loan ? &taken : NULL, err);
}
