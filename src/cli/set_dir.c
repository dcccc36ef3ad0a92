/*
 * A directory replaced as a unit (set_dir.h): DIR a symbolic link to the
 * newest complete set, swapped with rename(2).
 */
#include "set_dir.h"
#include "cli.h"
#include "report_dir.h"

#include <dirent.h>
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* A path made like printf's text; NULL when out of memory. */
static char *pathf(const char *fmt, ...)
    __attribute__((format(printf, 1, 2)));
static char *pathf(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char *p;
    if (vasprintf(&p, fmt, ap) < 0)
        p = NULL;
    va_end(ap);
    return p;
}

static bool is_empty_dir(const char *path)
{
    DIR *dh = opendir(path);
    struct dirent *e;
    bool empty = dh != NULL;
    while (empty && (e = readdir(dh)))
        empty = !strcmp(e->d_name, ".") || !strcmp(e->d_name, "..");
    if (dh)
        closedir(dh);
    return empty;
}

/* DIR as it stands: missing, an earlier watch's link, or an empty
 * directory; *why says what else it is. */
static bool usable(set_dir *d, const char *leaf, const char **why)
{
    struct stat st;
    if (lstat(d->dir, &st) != 0) {
        *why = strerror(errno);
        return errno == ENOENT;
    }
    if (S_ISDIR(st.st_mode)) {
        d->take_empty = is_empty_dir(d->dir);
        *why = "a directory with other files";
        return d->take_empty;
    }
    *why = S_ISLNK(st.st_mode) ? "a link an earlier watch did not make"
                               : "not a directory";
    char target[4096];
    ssize_t n = S_ISLNK(st.st_mode)
                    ? readlink(d->dir, target, sizeof target - 1) : -1;
    if (n <= 0)
        return false;
    target[n] = 0;
    size_t pre = strlen(leaf) + strlen(".heapscope/") + 1;
    const char *set = target + pre;
    if ((size_t)n <= pre || target[0] != '.' ||
        strncmp(target + 1, leaf, strlen(leaf)) ||
        strncmp(target + 1 + strlen(leaf), ".heapscope/", 11) ||
        strchr(set, '/') || !strcmp(set, ".") || !strcmp(set, ".."))
        return false;
    d->current = pathf("%s/%s", d->parent, target);
    if (d->current && stat(d->current, &st) != 0) {
        free(d->current); /* a set removed by hand: DIR is replaced */
        d->current = NULL;
    }
    return true;
}

int set_dir_open(set_dir *d, const char *dir)
{
    memset(d, 0, sizeof *d);
    size_t n = strlen(dir);
    while (n > 1 && dir[n - 1] == '/')
        n--;
    if (!(d->dir = strndup(dir, n)))
        return EXIT_INTERNAL;
    char *slash = strrchr(d->dir, '/');
    const char *leaf = slash ? slash + 1 : d->dir;
    if (!*leaf || !strcmp(leaf, ".") || !strcmp(leaf, "..")) {
        cli_errorf("watch: -d %s: name a directory of its own (watch "
                   "replaces it as a whole)", dir);
        return EXIT_USAGE;
    }
    d->parent = slash ? (slash == d->dir ? strdup("/")
                                         : strndup(d->dir, (size_t)(slash - d->dir)))
                      : strdup(".");
    d->store = d->parent ? pathf("%s/.%s.heapscope", d->parent, leaf) : NULL;
    if (!d->store)
        return EXIT_INTERNAL;
    const char *why;
    if (!usable(d, leaf, &why)) {
        cli_errorf("watch: -d %s: %s; watch keeps DIR as a link to its "
                   "newest complete report set, so give a new name, an "
                   "empty directory or one an earlier watch made", dir, why);
        return EXIT_IO;
    }
    return EXIT_OK;
}

/* Links the current set's files into the new set `to`. */
static int carry_over(const set_dir *d, const char *to)
{
    DIR *dh = d->current ? opendir(d->current) : NULL;
    struct dirent *e;
    int rc = EXIT_OK;
    while (dh && rc == EXIT_OK && (e = readdir(dh))) {
        if (e->d_name[0] == '.')
            continue;
        char *from = pathf("%s/%s", d->current, e->d_name);
        char *at = pathf("%s/%s", to, e->d_name);
        if (!from || !at) {
            rc = EXIT_INTERNAL;
        } else if (link(from, at) != 0) {
            cli_errorf("%s: cannot link into the new report set: %s", from,
                       strerror(errno));
            rc = EXIT_IO;
        }
        free(from);
        free(at);
    }
    if (dh)
        closedir(dh);
    return rc;
}

int set_dir_begin(set_dir *d, char **path)
{
    *path = NULL;
    char *made = NULL;
    int e = report_dir_make(d->parent, &made);
    if (made && !d->made)
        d->made = made; /* removed again when nothing is ever shown */
    else
        free(made);
    if (e || (mkdir(d->store, 0777) != 0 && errno != EEXIST)) {
        cli_errorf("%s: cannot make the directory: %s",
                   e ? d->parent : d->store, strerror(e ? e : errno));
        return EXIT_IO;
    }
    for (int tries = 0; tries < 1000 && !*path; tries++) {
        char *p = pathf("%s/%ld-%u", d->store, (long)getpid(), d->serial++);
        if (!p)
            return EXIT_INTERNAL;
        if (mkdir(p, 0777) == 0)
            *path = p;
        else if (errno != EEXIST) {
            cli_errorf("%s: cannot make the directory: %s", p,
                       strerror(errno));
            free(p);
            return EXIT_IO;
        } else
            free(p);
    }
    if (!*path)
        return EXIT_IO;
    int rc = carry_over(d, *path);
    if (rc != EXIT_OK) {
        set_dir_abort(d, *path);
        *path = NULL;
    }
    return rc;
}

void set_dir_abort(set_dir *d, char *path)
{
    if (path)
        report_dir_remove(path);
    free(path);
    if (!d->current) { /* nothing was ever shown: leave nothing */
        rmdir(d->store);
        report_dir_unmake(d->parent, d->made);
    }
}

int set_dir_commit(set_dir *d, char *path)
{
    const char *set = strrchr(path, '/') + 1;
    const char *leaf = strrchr(d->store, '/') + 1;
    char *target = pathf("%s/%s", leaf, set);
    char *tmp = pathf("%s/.link-%s", d->store, set);
    int rc = target && tmp ? EXIT_OK : EXIT_INTERNAL;
    if (rc == EXIT_OK && symlink(target, tmp) != 0) {
        cli_errorf("%s: cannot make a link: %s", tmp, strerror(errno));
        rc = EXIT_IO;
    }
    /* An empty directory cannot be renamed over: it goes, and for this
     * moment DIR is missing, never partial. */
    if (rc == EXIT_OK && d->take_empty && rmdir(d->dir) != 0 &&
        errno != ENOENT) {
        cli_errorf("%s: cannot replace the directory: %s", d->dir,
                   strerror(errno));
        rc = EXIT_IO;
    }
    if (rc == EXIT_OK && rename(tmp, d->dir) != 0) {
        cli_errorf("%s: cannot point it at the new report set: %s", d->dir,
                   strerror(errno));
        rc = EXIT_IO;
    }
    if (tmp && rc != EXIT_OK)
        unlink(tmp);
    free(target);
    free(tmp);
    if (rc != EXIT_OK) {
        set_dir_abort(d, path);
        return rc;
    }
    d->take_empty = false;
    if (d->previous)
        report_dir_remove(d->previous);
    free(d->previous);
    d->previous = d->current;
    d->current = path;
    return EXIT_OK;
}

void set_dir_close(set_dir *d)
{
    if (d->previous)
        report_dir_remove(d->previous);
    free(d->previous);
    free(d->current);
    free(d->store);
    free(d->made);
    free(d->parent);
    free(d->dir);
    memset(d, 0, sizeof *d);
}
