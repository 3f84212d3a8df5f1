/* jscan.h — a JSON scanner for documents too large to be worth a tree: it checks JSON text against
 * the grammar (RFC 8259: no trailing commas, no comments, no control characters in strings,
 * \u escapes with whole surrogate pairs) and steps over it in place, decoding only the strings and
 * numbers its caller asks for. cJSON (util/json.h) stays the reader for everything of ordinary
 * size; this serves the few readers whose input holds hundreds of thousands of small records
 * (a freeze manifest's data list), which a tree would inflate tenfold in memory. */
#ifndef GP_UTIL_JSCAN_H
#define GP_UTIL_JSCAN_H

#include <stdbool.h>
#include <stddef.h>

#include "util/strbuf.h"

/* Nesting deeper than this is refused (cJSON's limit is 1000). */
#define GP_JSCAN_MAX_DEPTH 512

typedef struct gp_jscan {
    const char *text; /* the whole document */
    size_t len;
    size_t pos;        /* the next byte to read */
    const char *error; /* set by the first failure: what was wrong at pos */
} gp_jscan;

void gp_jscan_init(gp_jscan *s, const char *text, size_t len);
/* Steps over white space; returns the next byte, or 0 at the end of the text. */
char gp_jscan_peek(gp_jscan *s);
/* Consumes byte c (after white space): true, or false with the error set. */
bool gp_jscan_expect(gp_jscan *s, char c);
/* Consumes c when it comes next (after white space); false (and no error) when it does not. */
bool gp_jscan_accept(gp_jscan *s, char c);
/* A string at pos: decoded (UTF-8) into *out when out is not NULL (it is reset first). False
 * with the error set when it is not a valid JSON string. *has_nul (optional) says whether it
 * held \u0000. */
bool gp_jscan_string(gp_jscan *s, gp_strbuf *out, bool *has_nul);
/* A number at pos, by JSON's grammar; false with the error set otherwise. */
bool gp_jscan_number(gp_jscan *s, double *v);
/* Steps over one whole value of any kind, checking it. */
bool gp_jscan_skip_value(gp_jscan *s);
/* The first failure's message, "near byte N: what", into buf. */
void gp_jscan_error(const gp_jscan *s, char *buf, size_t n);

#endif
