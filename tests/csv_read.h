/*
 * The render suite's CSV reader (csv_read.c).
 */
#ifndef HEAPSCOPE_TEST_CSV_READ_H
#define HEAPSCOPE_TEST_CSV_READ_H

#include <stdbool.h>
#include <stddef.h>

/*
 * CSV read back with libcsv in strict mode (a quote inside an unquoted
 * field, text after a closing quote or an unclosed quote fail), not with
 * the library's own code: rows of fields.
 */
struct csv_table {
    char ***rows;
    size_t *nfields;
    size_t nrows;
    char **row; /* the row being read */
    size_t nf;
};

/* Reads s into t (the caller frees t with table_free); false: not
 * strict CSV. */
bool csv_read(const char *s, struct csv_table *t);
void table_free(struct csv_table *t);

#endif
