/* shquote.c — see shquote.h. */
#include "util/shquote.h"

#include <stdlib.h>
#include <string.h>

static int plain(unsigned char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
           (c && strchr("_-./,:=+@%", c));
}

char *gp_shell_quote(const char *s)
{
    size_t n = strlen(s), quotes = 0;
    int all_plain = n > 0;
    for (size_t i = 0; i < n; i++) {
        all_plain &= plain((unsigned char)s[i]);
        quotes += s[i] == '\'';
    }
    char *out = malloc(n + 3 * quotes + 3);
    if (!out) return NULL;
    if (all_plain) return memcpy(out, s, n + 1);
    char *o = out;
    *o++ = '\'';
    for (size_t i = 0; i < n; i++) {
        if (s[i] == '\'') {
            memcpy(o, "'\\''", 4);
            o += 4;
        } else {
            *o++ = s[i];
        }
    }
    *o++ = '\'';
    *o = '\0';
    return out;
}
