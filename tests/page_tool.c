/*
 * Writes the pages the browser tests open that no command writes yet:
 *   page_tool compare BEFORE AFTER OUT.html   (hs_render_page_compare)
 *   page_tool data FILE                       (hs_render_page_data to stdout)
 *   page_tool live FILE URL OUT.html          (a page that polls URL)
 *   page_tool msglog N OUT.eventlog           (tests/msglog.h's log)
 */
#include <heapscope/heapscope.h>

#include "msglog.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static hs_census *load(const char *path)
{
    int fd = open(path, O_RDONLY);
    hs_census *c = fd >= 0 ? hs_census_new() : NULL;
    hs_error err;
    if (!c || hs_census_load_fd(c, fd, &err) < 0) {
        fprintf(stderr, "page_tool: cannot load %s\n", path);
        hs_census_free(c);
        c = NULL;
    }
    if (fd >= 0)
        close(fd);
    return c;
}

int main(int argc, char **argv)
{
    hs_page_options opt;
    hs_page_options_init(&opt);
    hs_error err;
    if (argc == 5 && strcmp(argv[1], "compare") == 0) {
        hs_census *a = load(argv[2]), *b = load(argv[3]);
        hs_output *o = a && b ? hs_output_open(argv[4], &err) : NULL;
        opt.input = argv[2];
        opt.input_after = argv[3];
        int st = o ? hs_render_page_compare(a, b, hs_output_sink(o), &opt) : -1;
        if (st == HS_OK)
            st = hs_output_commit(o, &err);
        else
            hs_output_abort(o);
        hs_census_free(a);
        hs_census_free(b);
        return st == HS_OK ? 0 : 1;
    }
    if (argc == 3 && strcmp(argv[1], "data") == 0) {
        hs_census *c = load(argv[2]);
        hs_output *o = c ? hs_output_open("-", &err) : NULL;
        int st = o ? hs_render_page_data(c, hs_output_sink(o), &opt) : -1;
        if (st == HS_OK)
            st = hs_output_commit(o, &err);
        else
            hs_output_abort(o);
        hs_census_free(c);
        return st == HS_OK ? 0 : 1;
    }
    if (argc == 5 && strcmp(argv[1], "live") == 0) {
        hs_census *c = load(argv[2]);
        hs_output *o = c ? hs_output_open(argv[4], &err) : NULL;
        opt.live_url = argv[3];
        opt.live_interval_ms = 200;
        int st = o ? hs_render_page(c, hs_output_sink(o), &opt) : -1;
        if (st == HS_OK)
            st = hs_output_commit(o, &err);
        else
            hs_output_abort(o);
        hs_census_free(c);
        if (st != HS_OK)
            fprintf(stderr, "page_tool: %s\n", hs_strerror(st));
        return st == HS_OK ? 0 : 1;
    }
    if (argc == 4 && strcmp(argv[1], "msglog") == 0) {
        evw w;
        msglog_build(&w, strtoul(argv[2], NULL, 10));
        FILE *f = fopen(argv[3], "wb");
        int bad = !f || fwrite(w.data, 1, w.len, f) != w.len;
        bad |= f && fclose(f) != 0;
        evw_free(&w);
        return bad;
    }
    fprintf(stderr, "usage: page_tool compare BEFORE AFTER OUT | data FILE | "
            "live FILE URL OUT | msglog N OUT\n");
    return 2;
}
