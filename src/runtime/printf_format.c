/*
 * printf_format.c — the build-time check of gp_printf calls. Each backend prints with its own
 * printf (CUDA's device printf, OpenCL C's printf, the CPU's vsnprintf), and they agree only on
 * a small set of conversions; a format outside it would print differently, or not at all, on
 * some device. So every call in a source is read before any compiler sees it: the format must be
 * a string literal using only that set, with one argument per conversion, and %s only of literals.
 */
#include <stdio.h>
#include <string.h>

#include "runtime/core.h"

#define GP_PRINTF_MAX_ARGS 32 /* CUDA's device printf takes at most 32 arguments */

typedef struct gp_pf_scan {
    const char *s;
    size_t len, i;
    int line;
    const char *name;
} gp_pf_scan;

static int gp_pf_ident(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

static gp_status gp_pf_fail(const gp_pf_scan *p, int line, const char *fmt, const char *what)
{
    return gp_error_set(GP_ERR_BUILD, "%s:%d: gp_printf: %s%s", p->name, line, fmt, what);
}

/* Skips a comment or a string/char literal starting at p->i, counting lines. Returns 1 when
 * something was skipped. */
static int gp_pf_skip_lexeme(gp_pf_scan *p)
{
    const char *s = p->s;
    size_t n = p->len, i = p->i;
    if (s[i] == '/' && i + 1 < n && s[i + 1] == '/') {
        while (i < n && s[i] != '\n')
            i++;
    } else if (s[i] == '/' && i + 1 < n && s[i + 1] == '*') {
        i += 2;
        while (i < n && !(s[i] == '*' && i + 1 < n && s[i + 1] == '/')) {
            if (s[i] == '\n') p->line++;
            i++;
        }
        i = i < n ? i + 2 : n;
    } else if (s[i] == '"' || s[i] == '\'') {
        char q = s[i++];
        while (i < n && s[i] != q && s[i] != '\n') {
            if (s[i] == '\\' && i + 1 < n) {
                if (s[i + 1] == '\n') p->line++;
                i++;
            }
            i++;
        }
        if (i < n && s[i] == q) i++;
    } else {
        return 0;
    }
    p->i = i;
    return 1;
}

static void gp_pf_skip_space(gp_pf_scan *p)
{
    while (p->i < p->len) {
        char c = p->s[p->i];
        if (c == '\n') {
            p->line++;
            p->i++;
        } else if (c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v') {
            p->i++;
        } else if (c == '/' && p->i + 1 < p->len &&
                   (p->s[p->i + 1] == '/' || p->s[p->i + 1] == '*')) {
            gp_pf_skip_lexeme(p);
        } else if (c == '\\' && p->i + 1 < p->len && p->s[p->i + 1] == '\n') {
            p->i += 2;
            p->line++;
        } else {
            break;
        }
    }
}

/* Checks one conversion of `f` starting after its '%'; *i moves past it. Sets *is_string for
 * %s and *args to the arguments it takes (0 for %%). NULL or the reason it is refused. */
static const char *gp_pf_conversion(const char *f, size_t n, size_t *i, int *is_string, int *args)
{
    size_t k = *i;
    *is_string = 0;
    *args = 1;
    if (k < n && f[k] == '%') {
        *i = k + 1;
        *args = 0;
        return NULL;
    }
    while (k < n && strchr("-+ #0", f[k]))
        k++;
    if (k < n && f[k] == '*') return "a width taken from an argument (*) is not portable";
    while (k < n && f[k] >= '0' && f[k] <= '9')
        k++;
    if (k < n && f[k] == '.') {
        k++;
        if (k < n && f[k] == '*') return "a precision taken from an argument (.*) is not portable";
        while (k < n && f[k] >= '0' && f[k] <= '9')
            k++;
    }
    int is_long = 0;
    if (k < n && f[k] == 'l') {
        is_long = 1;
        k++;
    }
    if (k >= n) return "the format ends inside a conversion";
    char c = f[k];
    if (k < n && strchr("hLjzt", c))
        return "length modifiers other than l (as in %ld, %lu) are not portable";
    if (c == 'l') return "%ll is not portable; use %ld or %lu with int64_t or uint64_t";
    *i = k + 1;
    if (strchr("dux", c)) return NULL;
    if (is_long) return "l goes only with d, u and x (%ld, %lu, %lx)";
    if (strchr("fegc", c)) return NULL;
    if (c == 's') {
        *is_string = 1;
        return NULL;
    }
    if (c == 'i') return "%i is not in the portable set; use %d";
    if (c == 'X' || c == 'E' || c == 'G' || c == 'F')
        return "upper-case conversions are not in the portable set; use the lower-case one";
    if (c == 'p') return "%p is not portable (pointers differ per device); print an index";
    if (c == 'a' || c == 'A') return "%a is not portable; use %e or %g";
    if (c == 'o') return "%o is not in the portable set; use %x or %u";
    if (c == 'n') return "%n is not allowed";
    return "an unknown conversion; the portable set is %d %u %ld %lu %x %f %e %g %c %s %%";
}

/* Reads the format literal(s) at p->i into fmt (escapes kept as written: only '%' matters).
 * Returns 0 when the first argument is not a string literal. */
static int gp_pf_literal(gp_pf_scan *p, char *fmt, size_t cap, size_t *flen)
{
    size_t o = 0;
    int any = 0;
    for (;;) {
        gp_pf_skip_space(p);
        if (p->i >= p->len || p->s[p->i] != '"') break;
        size_t j = p->i + 1;
        while (j < p->len && p->s[j] != '"' && p->s[j] != '\n') {
            if (p->s[j] == '\\' && j + 1 < p->len) {
                if (o + 2 < cap) {
                    fmt[o++] = p->s[j];
                    fmt[o++] = p->s[j + 1];
                }
                j += 2;
                continue;
            }
            if (o + 1 < cap) fmt[o++] = p->s[j];
            j++;
        }
        if (j >= p->len || p->s[j] != '"') return 0;
        p->i = j + 1;
        any = 1;
    }
    fmt[o] = '\0';
    *flen = o;
    return any;
}

/* Splits the arguments after the format up to the closing parenthesis: their count, and for
 * each whether it begins with a string literal. Returns 0 when the call does not end. */
static int gp_pf_args(gp_pf_scan *p, int *count, unsigned char *literal, int cap)
{
    int depth = 0, n = 0;
    int at_start = 0;
    while (p->i < p->len) {
        gp_pf_skip_space(p);
        if (p->i >= p->len) break;
        char c = p->s[p->i];
        if (at_start) {
            if (n <= cap && n > 0) literal[n - 1] = c == '"';
            at_start = 0;
        }
        if (c == '"' || c == '\'') {
            gp_pf_skip_lexeme(p);
            continue;
        }
        p->i++;
        if (c == '(' || c == '[' || c == '{') {
            depth++;
        } else if (c == ')' || c == ']' || c == '}') {
            if (depth == 0) {
                *count = n;
                return c == ')';
            }
            depth--;
        } else if (c == ',' && depth == 0) {
            n++;
            at_start = 1;
        } else if (c == ';' && depth == 0) {
            return 0;
        }
    }
    return 0;
}

/* One call: p->i is just after "gp_printf". */
static gp_status gp_pf_call(gp_pf_scan *p, int line)
{
    gp_pf_skip_space(p);
    if (p->i >= p->len || p->s[p->i] != '(') return GP_OK; /* a name, not a call */
    p->i++;
    char fmt[4096];
    size_t flen = 0;
    if (!gp_pf_literal(p, fmt, sizeof fmt, &flen))
        return gp_pf_fail(p, line, "", "the format must be a string literal");
    int count = 0;
    unsigned char literal[GP_PRINTF_MAX_ARGS + 1] = {0};
    if (!gp_pf_args(p, &count, literal, GP_PRINTF_MAX_ARGS))
        return gp_pf_fail(p, line, "", "the call has no closing parenthesis");
    int used = 0;
    for (size_t i = 0; i < flen;) {
        if (fmt[i] == '\\' && i + 1 < flen) {
            i += 2;
            continue;
        }
        if (fmt[i++] != '%') continue;
        size_t start = i - 1;
        int is_string = 0, args = 0;
        const char *why = gp_pf_conversion(fmt, flen, &i, &is_string, &args);
        if (why) {
            char what[600];
            size_t end = start + 1; /* show the conversion up to its letter */
            while (end < flen && !((fmt[end] | 0x20) >= 'a' && (fmt[end] | 0x20) <= 'z'))
                end++;
            while (end < flen && fmt[end] == 'l')
                end++;
            end = end < flen ? end + 1 : flen;
            snprintf(what, sizeof what, "\"%.*s\" in the format: %s", (int)(end - start),
                     fmt + start, why);
            return gp_pf_fail(p, line, what, "");
        }
        if (is_string && used < count && used < GP_PRINTF_MAX_ARGS && !literal[used])
            return gp_pf_fail(p, line, "",
                              "%s prints only string literals on every device (argument "
                              "after the format is not one)");
        used += args;
    }
    if (count > GP_PRINTF_MAX_ARGS)
        return gp_pf_fail(p, line, "", "more than 32 arguments (CUDA's limit)");
    if (used != count) {
        char what[160];
        snprintf(what, sizeof what, "the format has %d conversion%s but %d argument%s follow%s",
                 used, used == 1 ? "" : "s", count, count == 1 ? "" : "s", count == 1 ? "s" : "");
        return gp_pf_fail(p, line, what, "");
    }
    return GP_OK;
}

gp_status gp_printf_scan(const char *src, size_t len, const char *name, uint32_t *calls)
{
    gp_pf_scan p = {src, len, 0, 1, name};
    static const char word[] = "gp_printf";
    const size_t wl = sizeof word - 1;
    int line_start = 1, directive = 0;
    *calls = 0;
    while (p.i < len) {
        char c = src[p.i];
        if (c == '\n') {
            p.line++;
            p.i++;
            line_start = 1;
            directive = 0;
            continue;
        }
        if (c == '\\' && p.i + 1 < len && src[p.i + 1] == '\n') { /* a continued line */
            p.line++;
            p.i += 2;
            continue;
        }
        if (line_start && c == '#') directive = 1;
        if (c != ' ' && c != '\t' && c != '\r') line_start = 0;
        if (gp_pf_skip_lexeme(&p)) continue;
        if (gp_pf_ident(c)) {
            size_t b = p.i;
            while (p.i < len && gp_pf_ident(src[p.i]))
                p.i++;
            if (p.i - b == wl && memcmp(src + b, word, wl) == 0) {
                (*calls)++;
                /* inside a #define the format may be a macro parameter: left to the compiler */
                gp_status st = directive ? GP_OK : gp_pf_call(&p, p.line);
                if (st != GP_OK) return st;
            }
            continue;
        }
        p.i++;
    }
    return GP_OK;
}
