/* strbuf.h — a growable, always NUL-terminated byte string; the one string builder of gpuport.
 * Allocation failure sets `failed` and turns later appends into no-ops, so callers check once. */
#ifndef GP_UTIL_STRBUF_H
#define GP_UTIL_STRBUF_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>

#include "util/compiler.h"

typedef struct gp_strbuf {
    char *data; /* NUL-terminated; NULL until the first append */
    size_t len;
    size_t cap;
    bool failed; /* an allocation failed: the contents are incomplete */
} gp_strbuf;

#define GP_STRBUF_INIT                                                                             \
    {                                                                                              \
        NULL, 0, 0, false                                                                          \
    }

void gp_strbuf_append(gp_strbuf *sb, const char *s, size_t n);
void gp_strbuf_puts(gp_strbuf *sb, const char *s);
void gp_strbuf_putc(gp_strbuf *sb, char c);
void gp_strbuf_printf(gp_strbuf *sb, const char *fmt, ...) GP_PRINTF_LIKE(2, 3);
void gp_strbuf_vprintf(gp_strbuf *sb, const char *fmt, va_list ap);
/* Appends `s` escaped for XML text and attribute values (SVG, JUnit): the five special
 * characters as entities; control characters other than tab and newline as '?'. */
void gp_strbuf_put_xml(gp_strbuf *sb, const char *s);
/* The contents ("" when empty); valid until the next append. */
const char *gp_strbuf_cstr(const gp_strbuf *sb);
/* Hands the buffer to the caller (free() it) and resets sb; NULL if an allocation failed. */
char *gp_strbuf_take(gp_strbuf *sb);
void gp_strbuf_reset(gp_strbuf *sb);
void gp_strbuf_free(gp_strbuf *sb);

#endif
