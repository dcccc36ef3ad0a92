/*
 * libFuzzer target for the two lanes (issue 28): the input is an
 * eventlog's bytes, put in a regular file that is only memory (mem_fd:
 * a memfd, the lanes read only regular files), and read both ways: the
 * one pass (hs_summary_load_fd, hs_census_load_summary_fd) and the two
 * lanes with a thread lent through pthread_create/pthread_join
 * (hs_summary_load_fd_lent, hs_census_load_summary_fd_lent, with a
 * summary and with the census alone). Everything
 * must be the same (tests/lanes_same.c): the returns, the reader's and the
 * summary's error (code, offset, event index, message), the reader's
 * warning and offset, hs_summary_finish()'s return and the summary's
 * JSON; on the census's path also the census's figures, heap lines,
 * markers, messages, warnings and CSV. An input of odd length is read
 * once more both ways into a summary windowed to the middle half of the
 * one pass's run. A difference is a finding.
 *
 * A target of its own rather than a mode of fuzz_pipeline: the pipeline
 * draws every renderer, charts and diffs for each input (tens of runs a
 * second), while this one only loads (six to eight times), so the
 * fuzzer spends its time on the lanes' plan and merges; its seeds are the
 * threaded logs (two or more capabilities' blocks) that take the lanes.
 *
 * With HEAPSCOPE_FUZZ_LANES_COUNT set in the environment, prints at exit
 * how many inputs ran and how many of them took the lanes.
 */
#include "fuzz_common.h"
#include "../lanes_same.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static unsigned long runs, in_lanes, census_in_lanes, alone_in_lanes,
    windowed_in_lanes;

static void print_count(void)
{
    fprintf(stderr, "fuzz_lanes: %lu inputs, %lu in two lanes (summary), "
            "%lu (census), %lu (census alone), %lu (windowed)\n", runs,
            in_lanes, census_in_lanes, alone_in_lanes, windowed_in_lanes);
}

/* The bytes on fd read by `path` (the summary's with window w when not
 * NULL) both ways; whether the lanes started their thread. *end_ns:
 * where the one pass's summary window ends. */
static bool both_ways(int fd, lanes_path path, const hs_summary_window *w,
                      uint64_t *end_ns)
{
    lanes_loan tl;
    lanes_loan_init(&tl);
    lanes_outcome one, two;
    CHECK(lseek(fd, 0, SEEK_SET) == 0);
    lanes_path_outcome(fd, path, w, NULL, &one);
    CHECK(lseek(fd, 0, SEEK_SET) == 0);
    lanes_path_outcome(fd, path, w, &tl.loan, &two);
    CHECK(lanes_same_outcome(&one, &two));
    *end_ns = one.end_ns;
    lanes_outcome_free(&one);
    lanes_outcome_free(&two);
    return tl.starts > 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static bool counting;
    if (!counting && getenv("HEAPSCOPE_FUZZ_LANES_COUNT")) {
        counting = true;
        atexit(print_count);
    }
    if (size > (1u << 20))
        return 0;
    int fd = mem_fd(data, size);
    if (fd < 0)
        return 0;
    runs++;
    uint64_t end;
    in_lanes += both_ways(fd, LANES_SUMMARY, NULL, &end);
    census_in_lanes += both_ways(fd, LANES_CENSUS, NULL, &end);
    alone_in_lanes += both_ways(fd, LANES_CENSUS_ALONE, NULL, &end);
    if (size & 1) { /* an odd length: the summary windowed too */
        hs_summary_window w;
        hs_summary_window_init(&w);
        w.from_ns = end / 4;
        w.to_ns = end / 4 * 3;
        windowed_in_lanes += both_ways(fd, LANES_SUMMARY, &w, &end);
    }
    close(fd);
    return 0;
}
