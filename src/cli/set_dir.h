/*
 * A directory that readers only ever see whole: `heapscope watch -d DIR`
 * rewrites its report set every few seconds, and no reader may find a new
 * chart beside an old .hp, half a set, or a work directory.
 *
 * DIR is a symbolic link to the newest complete set, a directory beside
 * it, hidden: PARENT/.LEAF.heapscope/SET. An update fills a new set
 * directory (the previous set's files are carried over as hard links, so
 * the files of other runs and names stay), then points DIR at it with
 * rename(2) of a new link, which replaces the old link atomically. Paths
 * such as DIR/NAME.svg keep working; a reader who opens DIR (cd, a
 * directory descriptor, realpath) holds one set, which stays whole until
 * the update after the next one (or the end of the watch) removes it.
 */
#ifndef HEAPSCOPE_SET_DIR_H
#define HEAPSCOPE_SET_DIR_H

#include <stdbool.h>

typedef struct set_dir {
    char *dir;        /* DIR as given, without trailing slashes */
    char *parent;     /* the directory DIR stands in ("." when none) */
    char *store;      /* PARENT/.LEAF.heapscope: the sets */
    char *made;       /* the shallowest parent this watch made, or NULL */
    char *current;    /* the set DIR points at (a path), or NULL */
    char *previous;   /* the set before it, kept for readers; or NULL */
    bool take_empty;  /* DIR is an empty directory, replaced at the first
                         update */
    unsigned serial;  /* names new sets and links */
} set_dir;

/*
 * Checks that `dir` can be kept as a set: missing (made at the first
 * update, with its parents), a link a previous watch made, or an empty
 * directory. Anything else (a directory with other files, a link
 * elsewhere, a file) is refused with a message: its files are not
 * watch's to replace. Returns an exit code.
 */
int set_dir_open(set_dir *d, const char *dir);

/*
 * A new set directory holding links to the current set's files, for the
 * caller to fill; *path is freed by set_dir_commit or set_dir_abort.
 * Returns an exit code after printing any error.
 */
int set_dir_begin(set_dir *d, char **path);

/* Points DIR at the filled set `path`; on failure the previous set stays
 * and `path` is removed. Returns an exit code after printing any error. */
int set_dir_commit(set_dir *d, char *path);

/* Removes an unfinished set `path`. */
void set_dir_abort(set_dir *d, char *path);

/* The end: removes the set before the current one, frees d. */
void set_dir_close(set_dir *d);

#endif
