/*
 * The render suite's CSV reader: libcsv in strict mode (csv_read.h).
 */
#include "csv_read.h"

#include <csv.h>
#include <stdlib.h>
#include <string.h>

void table_free(struct csv_table *t)
{
    for (size_t r = 0; r < t->nrows; r++) {
        for (size_t f = 0; f < t->nfields[r]; f++)
            free(t->rows[r][f]);
        free(t->rows[r]);
    }
    free(t->rows);
    free(t->nfields);
}

static void on_field(void *s, size_t len, void *user)
{
    struct csv_table *t = user;
    t->row = realloc(t->row, (t->nf + 1) * sizeof *t->row);
    t->row[t->nf++] = strndup(s, len);
}

static void on_row(int c, void *user)
{
    (void)c;
    struct csv_table *t = user;
    t->rows = realloc(t->rows, (t->nrows + 1) * sizeof *t->rows);
    t->nfields = realloc(t->nfields, (t->nrows + 1) * sizeof *t->nfields);
    t->rows[t->nrows] = t->row;
    t->nfields[t->nrows++] = t->nf;
    t->row = NULL;
    t->nf = 0;
}

static int no_space(unsigned char c)
{
    (void)c;
    return 0;
}

bool csv_read(const char *s, struct csv_table *t)
{
    memset(t, 0, sizeof *t);
    struct csv_parser p;
    if (csv_init(&p, CSV_STRICT | CSV_STRICT_FINI) != 0)
        return false;
    csv_set_space_func(&p, no_space); /* keep every byte of a field */
    size_t n = strlen(s);
    bool ok = csv_parse(&p, s, n, on_field, on_row, t) == n &&
              csv_fini(&p, on_field, on_row, t) == 0;
    csv_free(&p);
    for (size_t f = 0; f < t->nf; f++)
        free(t->row[f]);
    free(t->row);
    return ok;
}
