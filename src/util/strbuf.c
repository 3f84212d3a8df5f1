/* strbuf.c — see strbuf.h. Growth doubles; a failed allocation poisons the buffer. */
#include "util/strbuf.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static bool strbuf_reserve(gp_strbuf *sb, size_t extra)
{
    if (sb->failed) return false;
    if (extra > (size_t)-1 / 2 - sb->len) {
        sb->failed = true;
        return false;
    }
    size_t need = sb->len + extra + 1;
    if (need <= sb->cap) return true;
    size_t cap = sb->cap ? sb->cap : 64;
    while (cap < need)
        cap *= 2;
    char *p = realloc(sb->data, cap);
    if (!p) {
        sb->failed = true;
        return false;
    }
    sb->data = p;
    sb->cap = cap;
    return true;
}

void gp_strbuf_append(gp_strbuf *sb, const char *s, size_t n)
{
    if (!strbuf_reserve(sb, n)) return;
    if (n) memcpy(sb->data + sb->len, s, n);
    sb->len += n;
    sb->data[sb->len] = '\0';
}

void gp_strbuf_puts(gp_strbuf *sb, const char *s)
{
    gp_strbuf_append(sb, s, strlen(s));
}

void gp_strbuf_putc(gp_strbuf *sb, char c)
{
    gp_strbuf_append(sb, &c, 1);
}

void gp_strbuf_vprintf(gp_strbuf *sb, const char *fmt, va_list ap)
{
    va_list ap2;
    va_copy(ap2, ap);
    int n = vsnprintf(NULL, 0, fmt, ap2);
    va_end(ap2);
    if (n < 0) {
        sb->failed = true;
        return;
    }
    if (!strbuf_reserve(sb, (size_t)n)) return;
    vsnprintf(sb->data + sb->len, (size_t)n + 1, fmt, ap);
    sb->len += (size_t)n;
}

void gp_strbuf_printf(gp_strbuf *sb, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    gp_strbuf_vprintf(sb, fmt, ap);
    va_end(ap);
}

void gp_strbuf_put_xml(gp_strbuf *sb, const char *s)
{
    for (; *s; s++) {
        switch (*s) {
        case '<':
            gp_strbuf_puts(sb, "&lt;");
            break;
        case '>':
            gp_strbuf_puts(sb, "&gt;");
            break;
        case '&':
            gp_strbuf_puts(sb, "&amp;");
            break;
        case '"':
            gp_strbuf_puts(sb, "&quot;");
            break;
        case '\'':
            gp_strbuf_puts(sb, "&apos;");
            break;
        default:
            gp_strbuf_putc(sb, (unsigned char)*s < 0x20 && *s != '\t' && *s != '\n' ? '?' : *s);
        }
    }
}

const char *gp_strbuf_cstr(const gp_strbuf *sb)
{
    return sb->data ? sb->data : "";
}

char *gp_strbuf_take(gp_strbuf *sb)
{
    char *p = sb->failed ? NULL : sb->data;
    if (!p && !sb->failed) p = calloc(1, 1);
    if (sb->failed) free(sb->data);
    sb->data = NULL;
    sb->len = sb->cap = 0;
    sb->failed = false;
    return p;
}

void gp_strbuf_reset(gp_strbuf *sb)
{
    sb->len = 0;
    if (sb->data) sb->data[0] = '\0';
}

void gp_strbuf_free(gp_strbuf *sb)
{
    free(sb->data);
    sb->data = NULL;
    sb->len = sb->cap = 0;
    sb->failed = false;
}
