/*
 * A program outside the tree, built against an installed heapscope
 * through pkg-config only (scripts/check-install.sh): it reads a log into
 * a census, as an embedder would, and prints what it found.
 */
#include <heapscope/heapscope.h>

#include <fcntl.h>
#include <stdio.h>
#include <unistd.h>

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: consumer LOG\n");
        return 2;
    }
    /* the library linked must be at least the one compiled against */
    if (hs_version_number() < HS_VERSION_NUMBER) {
        fprintf(stderr, "libheapscope %s is older than its headers %s\n",
                hs_version(), HS_VERSION_STRING);
        return 2;
    }
    int fd = open(argv[1], O_RDONLY);
    if (fd < 0) {
        perror(argv[1]);
        return 3;
    }
    hs_census *c = hs_census_new();
    hs_error err;
    int st = c ? hs_census_load_fd(c, fd, &err) : HS_ERR_NOMEM;
    close(fd);
    if (st < 0) {
        fprintf(stderr, "%s: %s\n", argv[1], c ? err.message : "no memory");
        hs_census_free(c);
        return 1;
    }
    printf("heapscope %s (headers %s): %zu samples, %zu bands, charts %s\n",
           hs_version(), HS_VERSION_STRING, hs_census_sample_count(c),
           hs_census_band_count(c), hs_chart_available() ? "yes" : "no");
    hs_census_free(c);
    return 0;
}
