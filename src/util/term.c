/* term.c — see term.h. (Windows consoles: term_win.c.) */
#include "util/term.h"

#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#if !defined(_WIN32)
#include <unistd.h>

bool gp_term_is_terminal(FILE *f)
{
    return isatty(fileno(f)) == 1;
}
bool gp_term_enable_vt(FILE *f)
{
    (void)f;
    return true;
}
void gp_term_init(void) {}
bool gp_term_reader_gone(FILE *f)
{
    (void)f;
    return errno == EPIPE;
}
#endif

bool gp_term_use_color(FILE *f)
{
    const char *nc = getenv("NO_COLOR");
    if (nc && *nc) return false;
    const char *term = getenv("TERM");
    if (term && strcmp(term, "dumb") == 0) return false;
    return gp_term_is_terminal(f) && gp_term_enable_vt(f);
}

const char *gp_term_color(FILE *f, gp_color c)
{
    if (!gp_term_use_color(f)) return "";
    switch (c) {
    case GP_COLOR_RESET:
        return "\033[0m";
    case GP_COLOR_RED:
        return "\033[31m";
    case GP_COLOR_GREEN:
        return "\033[32m";
    case GP_COLOR_YELLOW:
        return "\033[33m";
    case GP_COLOR_BLUE:
        return "\033[34m";
    case GP_COLOR_BOLD:
        return "\033[1m";
    case GP_COLOR_DIM:
        return "\033[2m";
    }
    return "";
}

static bool progress_shown;

void gp_term_progress(const char *fmt, ...)
{
    if (!gp_term_is_terminal(stderr) || !gp_term_enable_vt(stderr)) return;
    va_list ap;
    va_start(ap, fmt);
    fputs("\r", stderr);
    vfprintf(stderr, fmt, ap);
    fputs("\033[K", stderr);
    fflush(stderr);
    va_end(ap);
    progress_shown = true;
}

void gp_term_progress_done(void)
{
    if (!progress_shown) return;
    fputs("\r\033[K", stderr);
    fflush(stderr);
    progress_shown = false;
}

/* The length of the UTF-8 sequence at s (1..4) when it is well formed (no overlong form, no
 * surrogate, at most U+10FFFF) and not a C1 control; 0 otherwise. */
static size_t term_utf8_len(const unsigned char *s)
{
    unsigned c = s[0];
    size_t n;
    unsigned cp;
    if (c < 0xc2) return 0;
    if (c < 0xe0)
        n = 2, cp = c & 0x1f;
    else if (c < 0xf0)
        n = 3, cp = c & 0x0f;
    else if (c < 0xf5)
        n = 4, cp = c & 0x07;
    else
        return 0;
    for (size_t i = 1; i < n; i++) {
        if ((s[i] & 0xc0) != 0x80) return 0;
        cp = (cp << 6) | (s[i] & 0x3f);
    }
    static const unsigned lowest[5] = {0, 0, 0x80, 0x800, 0x10000};
    if (cp < lowest[n] || (cp >= 0xd800 && cp <= 0xdfff) || cp > 0x10ffff) return 0;
    if (cp >= 0x80 && cp <= 0x9f) return 0; /* C1: 0x9b alone is CSI on many terminals */
    return n;
}

/* The escaped form of the unit at p (one byte, or one UTF-8 sequence kept as it is) into out
 * (at least 5 bytes); returns the source bytes it covers and sets *len to the output length. */
static size_t term_unit(const unsigned char *p, bool keep_lines, char *out, size_t *len)
{
    unsigned c = *p;
    if ((c >= 0x20 && c < 0x7f) || (keep_lines && (c == '\n' || c == '\t'))) {
        out[0] = (char)c;
        *len = 1;
        return 1;
    }
    size_t n = c >= 0x80 ? term_utf8_len(p) : 0;
    if (n) {
        memcpy(out, p, n);
        *len = n;
        return n;
    }
    const char *named = c == '\n' ? "\\n" : c == '\r' ? "\\r" : c == '\t' ? "\\t" : NULL;
    if (named) {
        memcpy(out, named, 2);
        *len = 2;
    } else {
        snprintf(out, 5, "\\x%02x", c);
        *len = 4;
    }
    return 1;
}

void gp_term_escape(gp_strbuf *sb, const char *s, bool keep_lines)
{
    const unsigned char *p = (const unsigned char *)s;
    while (*p) {
        const unsigned char *q = p;
        while (*q >= 0x20 && *q < 0x7f) /* the common case: a run of printable ASCII */
            q++;
        if (q > p) {
            gp_strbuf_append(sb, (const char *)p, (size_t)(q - p));
            p = q;
            continue;
        }
        char u[5];
        size_t len;
        p += term_unit(p, keep_lines, u, &len);
        gp_strbuf_append(sb, u, len);
    }
}

const char *gp_term_safe(const char *s, char *buf, size_t n)
{
    if (!s) return "";
    const unsigned char *p = (const unsigned char *)s;
    char u[5];
    size_t len;
    while (*p) {
        size_t k = term_unit(p, false, u, &len);
        if (len != k || (unsigned char)u[0] != *p) break;
        p += k;
    }
    if (!*p) return s; /* nothing to escape */
    if (n < 4) return n ? (buf[0] = '\0', buf) : "";
    size_t o = 0;
    for (p = (const unsigned char *)s; *p;) {
        size_t k = term_unit(p, false, u, &len);
        /* room for this unit and, unless it is the last, "..." and the NUL */
        size_t need = len + (p[k] ? 4 : 1);
        if (o + need > n) {
            memcpy(buf + o, "...", 4);
            return buf;
        }
        memcpy(buf + o, u, len);
        o += len;
        p += k;
    }
    buf[o] = '\0';
    return buf;
}
