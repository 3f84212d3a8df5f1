/* shquote.c — see shquote.h. Single quotes are the only POSIX quoting with no special
 * characters inside, so the result does not depend on the remote shell's settings. */
#include "remote/shquote.h"

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
