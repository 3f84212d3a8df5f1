/* csv.h — a reader of CSV/TSV files of numbers: one row per line, the same number of fields on
 * every row, an optional header row of names, '#' comment lines and blank lines skipped. The
 * values are parsed into a new float64 array (text cannot be viewed in place). */
#ifndef GP_FORMATS_CSV_H
#define GP_FORMATS_CSV_H

#include <stddef.h>
#include <stdint.h>

#include "formats/tensor.h"

/* Parses data[0..size) with the field separator `sep` (',' or '\t'). On success *out views a
 * heap array of doubles (returned in *owned; free() it) of shape [rows] for one column, else
 * [rows, columns]. Fields may be integers, decimals, exponents, nan, inf, -inf. 0, or -1 with
 * "line N, field M: reason" in err. */
int gp_csv_parse(const uint8_t *data, size_t size, char sep, gp_tensor_view *out, void **owned,
                 char *err, size_t errlen);

#endif
