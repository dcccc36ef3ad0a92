/*
 * libFuzzer target for the .hp parser.
 *
 * Input: the text of a (possibly hostile) .hp file. It is loaded twice,
 * through hs_census_load_hp() on a stdio stream and through
 * hs_census_load_fd() (which tells the format by content), and both must
 * give the same answer; then every renderer runs on the census, and what
 * `hp` writes must read back to the same samples (hp_round_trip).
 */
#include "fuzz_common.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > (1u << 20))
        return 0;
    int st_fd;
    hs_census *by_fd = load_bytes(data, size, &st_fd);

    hs_census *by_file = hs_census_new();
    CHECK(by_file != NULL);
    /* fmemopen refuses a zero-length buffer; an empty file is what the
     * fd path saw then. */
    static const char nothing[1];
    FILE *f = fmemopen(size ? (void *)data : (void *)nothing, size ? size : 1,
                       "r");
    CHECK(f != NULL);
    if (!size)
        (void)fgetc(f);
    hs_error err;
    memset(&err, 0, sizeof err);
    int st_file = hs_census_load_hp(by_file, f, &err);
    fclose(f);

    /* Text that does not start like an eventlog is parsed as .hp by both
     * paths; they must agree on success, the error and the census. */
    if (by_fd && hs_census_get_info(by_fd)->source == HS_SOURCE_HP) {
        CHECK(st_file == st_fd);
        same_census(by_fd, by_file);
    } else if (!by_fd && st_file < 0) {
        CHECK(err.code == st_file);
    }
    if (by_fd) {
        render_all(by_fd);
        hp_round_trip(by_fd);
    }
    hs_census_free(by_file);
    hs_census_free(by_fd);
    return 0;
}
