/*
 * The .hp tests' helpers (test_hpfile*.c): a census loaded from a path or
 * from .hp text, rendered back as .hp, and a small good .hp file.
 */
#include "hp_load.h"

#include <CUnit/Basic.h>

#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

hs_census *load_path(const char *path, int *status)
{
    int fd = open(path, O_RDONLY);
    if (fd < 0)
        return NULL;
    hs_census *c = hs_census_new();
    hs_error err;
    *status = hs_census_load_fd(c, fd, &err);
    close(fd);
    return c;
}

hs_census *load_text(const char *text, int *status, hs_error *err)
{
    FILE *f = fmemopen((void *)text, strlen(text), "r");
    hs_census *c = hs_census_new();
    *status = hs_census_load_hp(c, f, err);
    fclose(f);
    return c;
}

char *render_hp(const hs_census *c)
{
    hs_membuf m = {0};
    hs_sink s = hs_membuf_sink(&m);
    CU_ASSERT_EQUAL(hs_render_hp(c, &s), HS_OK);
    return m.data;
}

const char good_hp[] =
    "JOB \"prog \"\"quoted\"\" +RTS -hy\"\n"
    "DATE \"Sun Nov 22 00:21 2026\"\n"
    "SAMPLE_UNIT \"seconds\"\n"
    "VALUE_UNIT \"bytes\"\n"
    "BEGIN_SAMPLE 0.000000\n"
    "END_SAMPLE 0.000000\n"
    "MARK 0.005000\n"
    "BEGIN_SAMPLE 0.010000\n"
    "Integer -> IO ()\t100\n"
    "[]\t24\n"
    "END_SAMPLE 0.010000\n"
    "BEGIN_SAMPLE 0.020000\n"
    "END_SAMPLE 0.020000\n"
    "BEGIN_SAMPLE 0.030000\n"
    "[]\t0\n"
    "END_SAMPLE 0.030000\n"
    "MARK 0.030000\n"
    "BEGIN_SAMPLE 0.040000\n"
    "END_SAMPLE 0.040000\n";
