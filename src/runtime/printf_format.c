/*
 * printf_format.c — the build-time check of gp_printf calls. Each backend prints with its own
 * printf (CUDA's device printf, OpenCL C's printf, the CPU's vsnprintf), and they agree only on
 * a small set of conversions; a format outside it would print differently, or not at all, on
 * some device. So every call in a source is read before any compiler sees it: the format must be
 * a string literal using only that set, with one argument per conversion, and %s only of literals.
 *
 * For a device without a printf (Metal below MSL 3.2) the same reading also collects the calls
 * into a table (each format and %s literal, by id) and rewrites the source so that each call
 * writes only its id and its argument values into a buffer (kernel.h gives the layout); after
 * the launch the host formats those records here, with the same reading of each conversion.
 */
#include <limits.h>
#include <math.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/core.h"

#define GP_PRINTF_MAX_ARGS 32 /* CUDA's device printf takes at most 32 arguments */

/* An edit of the source for the record path: [begin, end) becomes `text` (then the newlines
 * the range held, so that lines keep their numbers). */
typedef struct gp_pf_edit {
    size_t begin, end;
    char text[48];
} gp_pf_edit;

struct gp_pf_format {
    char *text;      /* the format, escapes decoded */
    char **literals; /* per argument: the %s literal's text (decoded), or NULL */
    uint32_t nargs;  /* arguments after the format */
    uint32_t lines;  /* lines a call prints (what a dropped call counts) */
    int line;        /* in the source */
};

struct gp_printf_table {
    atomic_int refs;
    uint32_t n;
    struct gp_pf_format *f;
};

typedef struct gp_pf_collect {
    gp_printf_table *t;
    size_t cap;
    gp_pf_edit *edits;
    size_t nedits, edits_cap;
    int in_kernel; /* the call being read is in a GP_KERNEL body */
    int directive; /* ... or in a preprocessor directive */
    int typed;     /* wrap each argument by its conversion's class (OpenCL C has no overloads) */
    size_t call_begin;
} gp_pf_collect;

typedef struct gp_pf_scan {
    const char *s;
    size_t len, i;
    int line;
    const char *name;
    gp_pf_collect *col; /* NULL: check only */
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

/* The widest field and the longest precision a conversion may ask for: a line of output stays a
 * line, and a record's rendering stays bounded whatever the format says. */
#define GP_PF_MAX_FIELD      4096
#define GP_PF_MAX_FIELD_TEXT "4096"

/* Skips the decimal digits at *k; nonzero when their value exceeds `max`. */
static int gp_pf_number_over(const char *f, size_t n, size_t *k, unsigned max)
{
    unsigned v = 0;
    int over = 0;
    while (*k < n && f[*k] >= '0' && f[*k] <= '9') {
        if (!over) {
            v = v * 10 + (unsigned)(f[*k] - '0');
            if (v > max) over = 1;
        }
        (*k)++;
    }
    return over;
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
    if (gp_pf_number_over(f, n, &k, GP_PF_MAX_FIELD))
        return "a width over " GP_PF_MAX_FIELD_TEXT " characters is refused";
    if (k < n && f[k] == '.') {
        k++;
        if (k < n && f[k] == '*') return "a precision taken from an argument (.*) is not portable";
        if (gp_pf_number_over(f, n, &k, GP_PF_MAX_FIELD))
            return "a precision over " GP_PF_MAX_FIELD_TEXT " is refused";
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
 * Returns 0 when the first argument is not a string literal. *begin: where the first starts. */
static int gp_pf_literal(gp_pf_scan *p, char *fmt, size_t cap, size_t *flen, size_t *begin)
{
    size_t o = 0;
    int any = 0;
    for (;;) {
        gp_pf_skip_space(p);
        if (!any) *begin = p->i;
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

/* Splits the arguments after the format up to the closing parenthesis: their count, for each
 * whether it begins with a string literal, and where it begins and ends (the comma or the
 * parenthesis after it). Returns 0 when the call does not end. */
static int gp_pf_args(gp_pf_scan *p, int *count, unsigned char *literal, size_t *begin, size_t *end,
                      int cap)
{
    int depth = 0, n = 0;
    int at_start = 0;
    while (p->i < p->len) {
        gp_pf_skip_space(p);
        if (p->i >= p->len) break;
        char c = p->s[p->i];
        if (at_start) {
            if (n <= cap && n > 0) {
                literal[n - 1] = c == '"';
                begin[n - 1] = p->i;
            }
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
                if (n > 0 && n <= cap) end[n - 1] = p->i - 1;
                *count = n;
                return c == ')';
            }
            depth--;
        } else if (c == ',' && depth == 0) {
            if (n > 0 && n <= cap) end[n - 1] = p->i - 1;
            n++;
            at_start = 1;
        } else if (c == ';' && depth == 0) {
            return 0;
        }
    }
    return 0;
}

/* ---- the table and the edits of the record path --------------------------------------------- */

/* Decodes the string literal(s) of src[begin, end) (adjacent literals joined; spaces, comments
 * and continued lines between them skipped) into out. Returns 0 when the range holds anything
 * else. */
static int gp_pf_decode(const char *s, size_t begin, size_t end, gp_strbuf *out)
{
    int any = 0;
    size_t i = begin;
    while (i < end) {
        char c = s[i];
        if (c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\f' || c == '\v') {
            i++;
            continue;
        }
        if (c == '\\' && i + 1 < end && s[i + 1] == '\n') {
            i += 2;
            continue;
        }
        if (c == '/' && i + 1 < end && (s[i + 1] == '/' || s[i + 1] == '*')) {
            gp_pf_scan q = {s, end, i, 0, "", NULL};
            gp_pf_skip_lexeme(&q);
            i = q.i;
            continue;
        }
        if (c != '"') return 0;
        any = 1;
        for (i++; i < end && s[i] != '"';) {
            if (s[i] != '\\' || i + 1 >= end) {
                gp_strbuf_putc(out, s[i++]);
                continue;
            }
            char e = s[i + 1];
            i += 2;
            switch (e) {
            case 'n':
                gp_strbuf_putc(out, '\n');
                break;
            case 't':
                gp_strbuf_putc(out, '\t');
                break;
            case 'r':
                gp_strbuf_putc(out, '\r');
                break;
            case 'a':
                gp_strbuf_putc(out, '\a');
                break;
            case 'b':
                gp_strbuf_putc(out, '\b');
                break;
            case 'f':
                gp_strbuf_putc(out, '\f');
                break;
            case 'v':
                gp_strbuf_putc(out, '\v');
                break;
            case '\n':
                break; /* a continued line inside the literal */
            case 'x': {
                unsigned v = 0;
                while (i < end && s[i] && strchr("0123456789abcdefABCDEF", s[i])) {
                    char h = s[i++];
                    v = v * 16 + (unsigned)(h <= '9' ? h - '0' : (h | 0x20) - 'a' + 10);
                }
                gp_strbuf_putc(out, (char)(unsigned char)v);
                break;
            }
            default:
                if (e >= '0' && e <= '7') {
                    unsigned v = (unsigned)(e - '0');
                    for (int k = 0; k < 2 && i < end && s[i] >= '0' && s[i] <= '7'; k++)
                        v = v * 8 + (unsigned)(s[i++] - '0');
                    gp_strbuf_putc(out, (char)(unsigned char)v);
                } else {
                    gp_strbuf_putc(out, e); /* \\ \" \' \? */
                }
            }
        }
        if (i >= end) return 0;
        i++; /* the closing quote */
    }
    return any;
}

static gp_status gp_pf_edit_add(gp_pf_collect *c, size_t begin, size_t end, const char *text)
{
    if (c->nedits == c->edits_cap) {
        size_t cap = c->edits_cap ? c->edits_cap * 2 : 16;
        gp_pf_edit *e = realloc(c->edits, cap * sizeof *e);
        if (!e) return gp_error_set(GP_ERR_OUT_OF_MEMORY, "out of host memory");
        c->edits = e;
        c->edits_cap = cap;
    }
    gp_pf_edit *e = &c->edits[c->nedits++];
    e->begin = begin;
    e->end = end;
    gp_copy_str(e->text, sizeof e->text, text);
    return GP_OK;
}

static void gp_pf_format_free(struct gp_pf_format *f)
{
    if (f->literals)
        for (uint32_t k = 0; k < f->nargs; k++)
            free(f->literals[k]);
    free(f->literals);
    free(f->text);
}

static void gp_pf_render(const struct gp_pf_format *f, const uint32_t *args, uint32_t nargs,
                         gp_strbuf *out);

/* Counts the lines of text: its newlines, plus one for an unfinished last line. */
static uint32_t gp_pf_count_lines(const char *t, size_t len)
{
    uint32_t n = 0;
    for (size_t i = 0; i < len; i++)
        n += t[i] == '\n';
    return n + (len && t[len - 1] != '\n');
}

/* Files the call just read (format at [fbegin, fend), arguments as gp_pf_args split them,
 * `string_arg[k]` when argument k is printed by %s) in the table, with its edits. */
static gp_status gp_pf_collect_call(gp_pf_scan *p, int line, size_t fbegin, size_t fend, int count,
                                    const size_t *abegin, const size_t *aend,
                                    const unsigned char *string_arg, const char *cls)
{
    gp_pf_collect *c = p->col;
    gp_printf_table *t = c->t;
    if (t->n == c->cap) {
        size_t cap = c->cap ? c->cap * 2 : 8;
        struct gp_pf_format *f = realloc(t->f, cap * sizeof *f);
        if (!f) return gp_error_set(GP_ERR_OUT_OF_MEMORY, "out of host memory");
        t->f = f;
        c->cap = cap;
    }
    struct gp_pf_format *f = &t->f[t->n];
    memset(f, 0, sizeof *f);
    f->line = line;
    f->nargs = (uint32_t)count;
    gp_strbuf sb = {0};
    gp_pf_decode(p->s, fbegin, fend, &sb);
    f->text = gp_strbuf_take(&sb);
    f->literals = count ? calloc((size_t)count, sizeof *f->literals) : NULL;
    if (!f->text || (count && !f->literals)) {
        gp_pf_format_free(f);
        return gp_error_set(GP_ERR_OUT_OF_MEMORY, "out of host memory");
    }
    t->n++; /* from here the table owns f */
    gp_status st = GP_OK;
    for (int k = 0; k < count && st == GP_OK; k++) {
        if (!string_arg[k]) continue;
        gp_strbuf lit = {0};
        if (!gp_pf_decode(p->s, abegin[k], aend[k], &lit)) {
            gp_strbuf_free(&lit);
            return gp_pf_fail(p, line, "",
                              "a %s argument must be a string literal and nothing else here "
                              "(Metal below MSL 3.2 prints from a buffer: the literal stays on "
                              "the host)");
        }
        f->literals[k] = gp_strbuf_take(&lit);
        if (!f->literals[k]) return gp_error_set(GP_ERR_OUT_OF_MEMORY, "out of host memory");
        st = gp_pf_edit_add(c, abegin[k], aend[k], c->typed ? "GP__PF_I(0)" : "0");
        if (st == GP_OK && c->typed && k == count - 1)
            st = gp_pf_edit_add(c, aend[k], aend[k], ", GP__PF_END");
    }
    /* typed: each other argument becomes GP__PF_<class>(arg), and a last element ends the list */
    for (int k = 0; k < count && st == GP_OK && c->typed; k++) {
        if (string_arg[k]) continue;
        char open[16];
        snprintf(open, sizeof open, "GP__PF_%c(", cls[k]);
        st = gp_pf_edit_add(c, abegin[k], abegin[k], open);
        if (st == GP_OK)
            st = gp_pf_edit_add(c, aend[k], aend[k], k == count - 1 ? "), GP__PF_END" : ")");
    }
    if (st != GP_OK) return st;
    gp_strbuf shown = {0}; /* what the call prints with every value 0: its line count */
    gp_pf_render(f, NULL, f->nargs, &shown);
    f->lines = gp_pf_count_lines(gp_strbuf_cstr(&shown), shown.len);
    gp_strbuf_free(&shown);
    char ids[48];
    if (c->typed)
        snprintf(ids, sizeof ids, "%u, %u, %d%s", t->n - 1, f->lines, count,
                 count ? "" : ", GP__PF_END");
    else
        snprintf(ids, sizeof ids, "%u, %u", t->n - 1, f->lines);
    st = gp_pf_edit_add(c, c->call_begin, c->call_begin + 9, "GP__PRINTF_REC");
    if (st == GP_OK) st = gp_pf_edit_add(c, fbegin, fend, ids);
    return st;
}

/* One call: p->i is just after "gp_printf". */
static gp_status gp_pf_call(gp_pf_scan *p, int line)
{
    gp_pf_skip_space(p);
    if (p->i >= p->len || p->s[p->i] != '(') return GP_OK; /* a name, not a call */
    p->i++;
    char fmt[4096];
    size_t flen = 0, fbegin = p->i;
    if (!gp_pf_literal(p, fmt, sizeof fmt, &flen, &fbegin)) {
        if (p->col && p->col->directive)
            return gp_pf_fail(p, line, "",
                              "in a #define whose format is not a string literal: the print "
                              "buffer (Metal below MSL 3.2, OpenCL) needs every format when the "
                              "program is built; write the literal in the call");
        return gp_pf_fail(p, line, "", "the format must be a string literal");
    }
    size_t fend = p->i;
    int count = 0;
    unsigned char literal[GP_PRINTF_MAX_ARGS + 1] = {0};
    unsigned char string_arg[GP_PRINTF_MAX_ARGS + 1] = {0};
    char cls[GP_PRINTF_MAX_ARGS + 1] = {0}; /* per argument: I, U or F, by its conversion */
    size_t abegin[GP_PRINTF_MAX_ARGS + 1] = {0}, aend[GP_PRINTF_MAX_ARGS + 1] = {0};
    if (!gp_pf_args(p, &count, literal, abegin, aend, GP_PRINTF_MAX_ARGS))
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
        if (is_string && used < GP_PRINTF_MAX_ARGS) string_arg[used] = 1;
        if (args && used < GP_PRINTF_MAX_ARGS) {
            char conv = fmt[i - 1];
            cls[used] = strchr("ux", conv) ? 'U' : strchr("feg", conv) ? 'F' : 'I';
        }
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
    if (!p->col) return GP_OK;
    if (!p->col->in_kernel && !p->col->directive)
        return gp_pf_fail(p, line, "",
                          "outside a GP_KERNEL body (in a helper function): the print buffer "
                          "(Metal below MSL 3.2, OpenCL) is held by a kernel's body only; move "
                          "the call into the kernel, or print on the cpu device");
    return gp_pf_collect_call(p, line, fbegin, fend, count, abegin, aend, string_arg, cls);
}

static gp_status gp_pf_scan_all(const char *src, size_t len, const char *name, uint32_t *calls,
                                gp_pf_collect *col)
{
    gp_pf_scan p = {src, len, 0, 1, name, col};
    static const char word[] = "gp_printf";
    const size_t wl = sizeof word - 1;
    int line_start = 1, directive = 0;
    int depth = 0, kernel_next = 0, in_kernel = 0; /* braces outside directives */
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
            if (!directive && depth == 0 && p.i - b == 9 && memcmp(src + b, "GP_KERNEL", 9) == 0)
                kernel_next = 1;
            if (p.i - b == wl && memcmp(src + b, word, wl) == 0) {
                (*calls)++;
                gp_status st = GP_OK;
                if (col) {
                    col->in_kernel = in_kernel;
                    col->directive = directive;
                    col->call_begin = b;
                    st = gp_pf_call(&p, p.line);
                } else if (!directive) {
                    /* inside a #define the format may be a macro parameter: left to the
                     * compiler */
                    st = gp_pf_call(&p, p.line);
                }
                if (st != GP_OK) return st;
            }
            continue;
        }
        if (!directive) {
            if (c == '{') {
                if (depth == 0 && kernel_next) in_kernel = 1;
                kernel_next = 0;
                depth++;
            } else if (c == '}' && depth > 0) {
                if (--depth == 0) in_kernel = 0;
            } else if (c == ';' && depth == 0) {
                kernel_next = 0;
            }
        }
        p.i++;
    }
    return GP_OK;
}

gp_status gp_printf_scan(const char *src, size_t len, const char *name, uint32_t *calls)
{
    return gp_pf_scan_all(src, len, name, calls, NULL);
}

void gp_printf_table_retain(gp_printf_table *t)
{
    if (t) atomic_fetch_add(&t->refs, 1);
}

void gp_printf_table_release(gp_printf_table *t)
{
    if (!t || atomic_fetch_sub(&t->refs, 1) != 1) return;
    for (uint32_t i = 0; i < t->n; i++)
        gp_pf_format_free(&t->f[i]);
    free(t->f);
    free(t);
}

uint32_t gp_printf_table_count(const gp_printf_table *t)
{
    return t ? t->n : 0;
}

static int gp_pf_edit_cmp(const void *a, const void *b)
{
    const gp_pf_edit *x = a, *y = b;
    return x->begin < y->begin ? -1 : x->begin > y->begin;
}

gp_status gp_printf_records_source(const char *src, size_t len, const char *name, bool typed,
                                   gp_printf_table **table, char **out, size_t *out_len)
{
    *table = NULL;
    *out = NULL;
    *out_len = 0;
    gp_pf_collect col = {0};
    col.typed = typed;
    col.t = calloc(1, sizeof *col.t);
    if (!col.t) return gp_error_set(GP_ERR_OUT_OF_MEMORY, "out of host memory");
    atomic_init(&col.t->refs, 1);
    uint32_t calls = 0;
    gp_status st = gp_pf_scan_all(src, len, name, &calls, &col);
    gp_strbuf sb = {0};
    if (st == GP_OK) {
        if (col.nedits) qsort(col.edits, col.nedits, sizeof *col.edits, gp_pf_edit_cmp);
        size_t at = 0;
        for (size_t e = 0; e < col.nedits; e++) {
            const gp_pf_edit *ed = &col.edits[e];
            gp_strbuf_append(&sb, src + at, ed->begin - at);
            gp_strbuf_puts(&sb, ed->text);
            for (size_t k = ed->begin; k < ed->end; k++) /* the lines keep their numbers */
                if (src[k] == '\n') gp_strbuf_puts(&sb, src[k - 1] == '\\' ? "\\\n" : "\n");
            at = ed->end;
        }
        gp_strbuf_append(&sb, src + at, len - at);
        *out_len = sb.len;
        *out = gp_strbuf_take(&sb);
        if (!*out) st = gp_error_set(GP_ERR_OUT_OF_MEMORY, "out of host memory");
    }
    free(col.edits);
    if (st != GP_OK) {
        gp_strbuf_free(&sb);
        gp_printf_table_release(col.t);
        return st;
    }
    *table = col.t;
    return GP_OK;
}

/* ---- formatting records on the host --------------------------------------------------------- */

static int64_t gp_pf_clamp_i64(double v)
{
    if (v != v) return 0;
    if (v >= 9223372036854775807.0) return INT64_MAX;
    if (v <= -9223372036854775808.0) return INT64_MIN;
    return (int64_t)v;
}

/* One call's text: the format with each conversion applied to its argument (a triple of
 * tag, low and high word; NULL: every value 0), the value converted to what the conversion reads
 * as a cast would (so a float printed with %d prints its integer part, never garbage). */
static void gp_pf_render(const struct gp_pf_format *f, const uint32_t *args, uint32_t nargs,
                         gp_strbuf *out)
{
    const char *t = f->text;
    size_t n = strlen(t), i = 0;
    uint32_t k = 0;
    while (i < n) {
        if (t[i] != '%') {
            size_t b = i;
            while (i < n && t[i] != '%')
                i++;
            gp_strbuf_append(out, t + b, i - b);
            continue;
        }
        size_t start = i++;
        int is_string = 0, nargs_taken = 0;
        const char *why = gp_pf_conversion(t, n, &i, &is_string, &nargs_taken);
        if (why || (nargs_taken && k >= nargs)) { /* not a conversion the build let through */
            if (why) i = start + 1;
            gp_strbuf_append(out, t + start, i - start);
            continue;
        }
        if (!nargs_taken) {
            gp_strbuf_putc(out, '%');
            continue;
        }
        char conv = t[i - 1];
        int is_long = i - start >= 2 && t[i - 2] == 'l';
        char spec[64];
        size_t mid = i - 1 - (size_t)is_long - (start + 1); /* flags, width, precision */
        if (mid > sizeof spec - 8) mid = sizeof spec - 8;
        spec[0] = '%';
        memcpy(spec + 1, t + start + 1, mid);
        size_t o = 1 + mid;
        uint32_t tag = args ? args[3 * k] : GP_PRINT_ARG_INT;
        uint64_t bits = args ? (uint64_t)args[3 * k + 1] | (uint64_t)args[3 * k + 2] << 32 : 0;
        double fv;
        int64_t iv;
        if (tag == GP_PRINT_ARG_FLOAT) {
            float x;
            uint32_t lo = (uint32_t)bits;
            memcpy(&x, &lo, sizeof x);
            fv = x;
            iv = gp_pf_clamp_i64(fv);
        } else if (tag == GP_PRINT_ARG_DOUBLE) {
            memcpy(&fv, &bits, sizeof fv);
            iv = gp_pf_clamp_i64(fv);
        } else if (tag == GP_PRINT_ARG_UINT) {
            fv = (double)bits;
            iv = (int64_t)bits;
        } else {
            iv = (int64_t)bits;
            fv = (double)iv;
        }
        uint64_t uv = (uint64_t)iv;
        if (conv == 'd' || conv == 'u' || conv == 'x') {
            spec[o++] = 'l';
            spec[o++] = 'l';
        }
        spec[o++] = conv;
        spec[o] = '\0';
        switch (conv) {
        case 'd':
            gp_strbuf_printf(out, spec, is_long ? (long long)iv : (long long)(int32_t)(uint32_t)uv);
            break;
        case 'u':
        case 'x':
            gp_strbuf_printf(out, spec,
                             is_long ? (unsigned long long)uv : (unsigned long long)(uint32_t)uv);
            break;
        case 'c':
            gp_strbuf_printf(out, spec, (int)(unsigned char)uv);
            break;
        case 's':
            gp_strbuf_printf(out, spec, f->literals && f->literals[k] ? f->literals[k] : "");
            break;
        default:
            gp_strbuf_printf(out, spec, fv);
            break; /* f e g */
        }
        k++;
    }
}

typedef struct gp_pf_rec {
    uint32_t group;
    size_t at; /* word offset of the record: arrival order within a group */
    uint32_t id, nargs;
} gp_pf_rec;

static int gp_pf_rec_cmp(const void *a, const void *b)
{
    const gp_pf_rec *x = a, *y = b;
    if (x->group != y->group) return x->group < y->group ? -1 : 1;
    return x->at < y->at ? -1 : x->at > y->at;
}

char *gp_printf_records_format(const gp_printf_table *t, const char *kernel, const uint32_t *buf,
                               size_t nwords, uint32_t limit, size_t *len)
{
    gp_strbuf out = {0};
    *len = 0;
    if (nwords < GP_PRINT_REC_HEADER) {
        gp_strbuf_printf(&out, "gpuport: kernel '%s': the print buffer is too short\n", kernel);
        goto done;
    }
    const uint32_t *recs = buf + GP_PRINT_REC_HEADER;
    size_t cap = nwords - GP_PRINT_REC_HEADER;
    if (buf[GP_PRINT_REC_CAPACITY] < cap) cap = buf[GP_PRINT_REC_CAPACITY];
    size_t used = buf[GP_PRINT_REC_CURSOR] < cap ? buf[GP_PRINT_REC_CURSOR] : cap;
    uint64_t full = buf[GP_PRINT_REC_DROPPED]; /* lines the device could not write */
    uint64_t over = 0;                         /* lines past the limit */
    const char *corrupt = NULL;
    size_t corrupt_at = 0;
    /* the records, checked against the table, then in group order */
    size_t n = 0, ncap = 0;
    gp_pf_rec *list = NULL;
    for (size_t at = 0; at + GP_PRINT_REC_FIXED <= used;) {
        const uint32_t *r = recs + at;
        if (r[0] == 0) break; /* reserved, never written: the record that did not fit */
        uint32_t id = r[0] - 1, na = r[2];
        if (!t || id >= t->n) {
            corrupt = "a format id the program does not have";
        } else if (na != t->f[id].nargs) {
            corrupt = "an argument count that is not its format's";
        } else if (at + GP_PRINT_REC_FIXED + (size_t)GP_PRINT_REC_ARG_WORDS * na > used) {
            corrupt = "a record past the end of what was written";
        } else {
            for (uint32_t k = 0; k < na && !corrupt; k++) {
                uint32_t tag = r[GP_PRINT_REC_FIXED + GP_PRINT_REC_ARG_WORDS * k];
                if (tag != GP_PRINT_ARG_INT && tag != GP_PRINT_ARG_UINT &&
                    tag != GP_PRINT_ARG_FLOAT && tag != GP_PRINT_ARG_DOUBLE)
                    corrupt = "an unknown argument type";
            }
        }
        if (corrupt) {
            corrupt_at = at;
            break;
        }
        if (n == ncap) {
            size_t c2 = ncap ? ncap * 2 : 64;
            gp_pf_rec *l2 = realloc(list, c2 * sizeof *l2);
            if (!l2) {
                corrupt = "no host memory to read it";
                corrupt_at = at;
                break;
            }
            list = l2;
            ncap = c2;
        }
        list[n].group = r[1];
        list[n].at = at;
        list[n].id = id;
        list[n].nargs = na;
        n++;
        at += GP_PRINT_REC_FIXED + (size_t)GP_PRINT_REC_ARG_WORDS * na;
    }
    if (n) qsort(list, n, sizeof *list, gp_pf_rec_cmp);
    uint64_t lines = 0;
    gp_strbuf one = {0};
    for (size_t i = 0; i < n; i++) {
        const struct gp_pf_format *f = &t->f[list[i].id];
        gp_strbuf_reset(&one);
        gp_pf_render(f, recs + list[i].at + GP_PRINT_REC_FIXED, list[i].nargs, &one);
        const char *txt = gp_strbuf_cstr(&one);
        size_t tl = one.len;
        uint32_t nl = gp_pf_count_lines(txt, tl);
        if (over || lines + nl > limit) { /* the first lines in group order, whole calls */
            over += nl;
            continue;
        }
        lines += nl;
        gp_strbuf_append(&out, txt, tl);
    }
    gp_strbuf_free(&one);
    free(list);
    int open_line = out.len && gp_strbuf_cstr(&out)[out.len - 1] != '\n';
    if (full || over) {
        if (open_line) gp_strbuf_putc(&out, '\n');
        open_line = 0;
        uint64_t d = full + over;
        gp_strbuf_printf(&out, "gpuport: kernel '%s': %llu line%s of gp_printf output dropped (",
                         kernel, (unsigned long long)d, d == 1 ? "" : "s");
        if (over)
            gp_strbuf_printf(&out,
                             "%llu past the limit of %u lines per launch; gp_print_set_limit or "
                             "GPUPORT_PRINT_LIMIT%s",
                             (unsigned long long)over, limit, full ? "; " : "");
        if (full)
            gp_strbuf_printf(&out, "%llu did not fit the launch's print buffer of %zu bytes",
                             (unsigned long long)full, cap * 4);
        gp_strbuf_puts(&out, ")\n");
    }
    if (corrupt) {
        if (open_line) gp_strbuf_putc(&out, '\n');
        gp_strbuf_printf(&out,
                         "gpuport: kernel '%s': the print buffer holds %s at word %zu; the rest "
                         "of its output is lost\n",
                         kernel, corrupt, corrupt_at);
    }
done:
    *len = out.len;
    return gp_strbuf_take(&out);
}

void gp_printf_records_emit(const gp_printf_table *t, const char *kernel, const uint32_t *buf,
                            size_t nwords)
{
    size_t len = 0;
    char *text = gp_printf_records_format(t, kernel, buf, nwords, gp_print_limit(), &len);
    if (text) gp_print_emit(text, len);
    free(text);
}
