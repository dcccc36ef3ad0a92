/*
 * A main() for the libFuzzer targets in builds without libFuzzer: runs
 * the target once on each file named on the command line. Every file of
 * tests/fuzz/regress/TARGET/ is replayed this way as a meson test, so an
 * input the fuzzer once found keeps passing in every build, sanitizers
 * or not. A violated property traps (exit by signal: the test fails).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int main(int argc, char **argv)
{
    for (int i = 1; i < argc; i++) {
        FILE *f = fopen(argv[i], "rb");
        if (!f) {
            perror(argv[i]);
            return 1;
        }
        size_t cap = 1 << 16, len = 0;
        uint8_t *buf = malloc(cap);
        size_t n;
        while (buf && (n = fread(buf + len, 1, cap - len, f)) > 0) {
            len += n;
            if (len == cap) {
                uint8_t *nb = realloc(buf, cap *= 2);
                if (!nb) {
                    free(buf);
                    buf = NULL;
                }
                buf = nb;
            }
        }
        int bad = ferror(f);
        fclose(f);
        if (!buf || bad) {
            fprintf(stderr, "%s: cannot read\n", argv[i]);
            free(buf);
            return 1;
        }
        LLVMFuzzerTestOneInput(buf, len);
        free(buf);
    }
    return 0;
}
