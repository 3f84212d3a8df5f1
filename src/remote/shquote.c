/* shquote.c — see shquote.h. Single quotes are the only POSIX quoting with no special
 * characters inside, so the result does not depend on the remote shell's settings. */
#include "remote/shquote.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

void gp_shquote_append(gp_strbuf *sb, const char *word)
{
    gp_strbuf_putc(sb, '\'');
    for (const char *p = word; *p; p++) {
        if (*p == '\'')
            gp_strbuf_puts(sb, "'\\''");
        else
            gp_strbuf_putc(sb, *p);
    }
    gp_strbuf_putc(sb, '\'');
}

void gp_shquote_join(gp_strbuf *sb, char *const words[])
{
    for (size_t i = 0; words[i]; i++) {
        if (i > 0) gp_strbuf_putc(sb, ' ');
        gp_shquote_append(sb, words[i]);
    }
}

void gp_shquote_rsync_append(gp_strbuf *sb, const char *word)
{
    gp_strbuf_putc(sb, '\'');
    for (const char *p = word; *p; p++) {
        if (*p == '\'') gp_strbuf_putc(sb, '\'');
        gp_strbuf_putc(sb, *p);
    }
    gp_strbuf_putc(sb, '\'');
}

static bool shquote_bare(const char *word)
{
    if (!*word || *word == '=') return false;
    for (const char *p = word; *p; p++) {
        char c = *p;
        if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
              strchr("@%+=:,./_-", c)))
            return false;
    }
    return true;
}

void gp_shquote_display(gp_strbuf *sb, const char *word)
{
    if (shquote_bare(word))
        gp_strbuf_puts(sb, word);
    else
        gp_shquote_append(sb, word);
}

void gp_shquote_display_join(gp_strbuf *sb, char *const words[])
{
    for (size_t i = 0; words[i]; i++) {
        if (i > 0) gp_strbuf_putc(sb, ' ');
        gp_shquote_display(sb, words[i]);
    }
}

const char *gp_shquote_cmd(char *buf, size_t len, ...)
{
    gp_strbuf sb = GP_STRBUF_INIT;
    va_list ap;
    va_start(ap, len);
    const char *w;
    for (bool first = true; (w = va_arg(ap, const char *)) != NULL; first = false) {
        if (!first) gp_strbuf_putc(&sb, ' ');
        gp_shquote_display(&sb, w);
    }
    va_end(ap);
    snprintf(buf, len, "%s", sb.failed ? "" : gp_strbuf_cstr(&sb));
    gp_strbuf_free(&sb);
    return buf;
}
