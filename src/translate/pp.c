/* pp.c — see pp.h. Macros are expanded with a stack of the macros being expanded (so a macro
 * never expands inside itself), arguments are fully expanded before substitution except next to
 * # and ##, and every token a macro produces carries the line of the macro's use. */
#include "translate/pp.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/fs.h"

enum { PP_MAX_FILE = 16 << 20, PP_MAX_DEPTH = 32, PP_MAX_OUT = 8 << 20, PP_MAX_EXPAND_DEPTH = 200 };

typedef struct macro {
    char *name;
    bool fn, variadic, kept;
    bool std_name; /* a name a C or CUDA header defines: never kept by name in the output */
    char **params;
    int nparams;
    tr_tokens body;
} macro;

typedef struct pp {
    macro *m;
    size_t nm, capm;
    size_t *h; /* open-addressed index of m by name: 1 + the index, 0 empty (caph a power of 2) */
    size_t caph;
    tr_pp_result *res;
    const tr_pp_options *opt;
    char *err;
    size_t errlen;
    int depth;
    const char *active[PP_MAX_EXPAND_DEPTH]; /* macros being expanded */
    int nactive;
    char **once; /* the files (their real paths) that said #pragma once */
    size_t nonce;
    bool cut; /* the file being read is an including file's text cut at its #include */
} pp;

#define PP_FAIL(p, ...)                                                                            \
    do {                                                                                           \
        snprintf((p)->err, (p)->errlen, __VA_ARGS__);                                              \
        return -1;                                                                                 \
    } while (0)

static const char *fname(pp *p, int file)
{
    return file >= 0 && (size_t)file < p->res->nfiles ? p->res->files[file] : "?";
}

static size_t name_hash(const char *t)
{
    size_t h = 2166136261u;
    for (; *t; t++)
        h = (h ^ (unsigned char)*t) * 16777619u;
    return h;
}

static macro *find_macro(pp *p, const char *name)
{
    if (!p->caph) return NULL;
    for (size_t j = name_hash(name) & (p->caph - 1); p->h[j]; j = (j + 1) & (p->caph - 1))
        if (strcmp(p->m[p->h[j] - 1].name, name) == 0) return &p->m[p->h[j] - 1];
    return NULL;
}

/* Indexes every macro again, in a table at least twice their number. */
static int rehash(pp *p)
{
    size_t cap = p->caph ? p->caph : 128;
    while (cap < 2 * (p->nm + 1))
        cap *= 2;
    size_t *h = calloc(cap, sizeof *h);
    if (!h) return -1;
    free(p->h);
    p->h = h;
    p->caph = cap;
    for (size_t i = 0; i < p->nm; i++) {
        size_t j = name_hash(p->m[i].name) & (cap - 1);
        while (h[j])
            j = (j + 1) & (cap - 1);
        h[j] = i + 1;
    }
    return 0;
}

static void macro_free(macro *m)
{
    free(m->name);
    for (int i = 0; i < m->nparams; i++)
        free(m->params[i]);
    free(m->params);
    tr_tokens_free(&m->body);
}

static void undef(pp *p, const char *name)
{
    macro *m = find_macro(p, name);
    if (!m) return;
    macro_free(m);
    *m = p->m[--p->nm];
    if (rehash(p)) abort();
}

/* A body that is one number, possibly negated and parenthesised: kept by name in the output. */
static bool constant_body(const tr_tokens *b)
{
    size_t i = 0, n = b->n;
    if (n >= 2 && strcmp(b->v[0].text, "(") == 0 && strcmp(b->v[n - 1].text, ")") == 0) i = 1, n--;
    if (i < n && strcmp(b->v[i].text, "-") == 0) i++;
    return i + 1 == n && b->v[i].kind == TR_NUMBER;
}

/* The constants C and CUDA headers define, with their values: predefined, so that kernels using
 * them need no stubs, and expanded, so that the output has no #define a target's own headers
 * (math.h, float.h, OpenCL's and Metal's built-ins) would clash with. INFINITY and NAN are
 * constant expressions every target folds (fast math is off by default in the dialect). */
static const char *const std_names[][2] = {
    {"NULL", "0"},
    {"INFINITY", "(1.0f / 0.0f)"},
    {"HUGE_VALF", "(1.0f / 0.0f)"},
    {"HUGE_VAL", "(1.0 / 0.0)"},
    {"NAN", "(0.0f / 0.0f)"},
    {"FLT_MAX", "3.402823466e+38f"},
    {"MAXFLOAT", "3.402823466e+38f"},
    {"FLT_MIN", "1.175494351e-38f"},
    {"FLT_EPSILON", "1.192092896e-07f"},
    {"DBL_MAX", "1.7976931348623158e+308"},
    {"DBL_MIN", "2.2250738585072014e-308"},
    {"DBL_EPSILON", "2.2204460492503131e-16"},
    {"CHAR_BIT", "8"},
    {"SCHAR_MAX", "127"},
    {"UCHAR_MAX", "255"},
    {"SHRT_MAX", "32767"},
    {"SHRT_MIN", "(-32767 - 1)"},
    {"USHRT_MAX", "65535"},
    {"INT_MAX", "2147483647"},
    {"INT_MIN", "(-2147483647 - 1)"},
    {"UINT_MAX", "4294967295u"},
    {"INT32_MAX", "2147483647"},
    {"INT32_MIN", "(-2147483647 - 1)"},
    {"UINT32_MAX", "4294967295u"},
    {"LLONG_MAX", "9223372036854775807ll"},
    {"INT64_MAX", "9223372036854775807ll"},
    {"M_E", "2.7182818284590452354"},
    {"M_LOG2E", "1.4426950408889634074"},
    {"M_LOG10E", "0.43429448190325182765"},
    {"M_LN2", "0.69314718055994530942"},
    {"M_LN10", "2.30258509299404568402"},
    {"M_PI", "3.14159265358979323846"},
    {"M_PI_2", "1.57079632679489661923"},
    {"M_PI_4", "0.78539816339744830962"},
    {"M_1_PI", "0.31830988618379067154"},
    {"M_2_PI", "0.63661977236758134308"},
    {"M_2_SQRTPI", "1.12837916709551257390"},
    {"M_SQRT2", "1.41421356237309504880"},
    {"M_SQRT1_2", "0.70710678118654752440"},
    {"CUDART_INF_F", "(1.0f / 0.0f)"},
    {"CUDART_NAN_F", "(0.0f / 0.0f)"},
    {"CUDART_PI_F", "3.141592654f"},
    {"CUDART_PI", "3.1415926535897931e+0"},
    {"CUDART_SQRT_2PI_F", "2.506628275f"},
    /* <stdint.h>'s constant macros */
    {"UINT64_C(c)", "c##ull"},
    {"INT64_C(c)", "c##ll"},
    {"UINT32_C(c)", "c##u"},
    {"INT32_C(c)", "c"},
    {"UINT16_C(c)", "c"},
    {"INT16_C(c)", "c"},
    {"UINT8_C(c)", "c"},
    {"INT8_C(c)", "c"},
    /* GCC's other spellings of the qualifiers */
    {"__const__", "const"},
    {"__const", "const"},
    {"__volatile__", "volatile"},
    {"__signed__", "signed"},
};

static bool is_std_name(const char *name)
{
    size_t n = strlen(name);
    for (size_t i = 0; i < sizeof std_names / sizeof *std_names; i++)
        if (!strncmp(std_names[i][0], name, n) &&
            (std_names[i][0][n] == '\0' || std_names[i][0][n] == '('))
            return true;
    return false;
}

static int define(pp *p, const tr_tokens *d, size_t start, int file, int line, bool from_cli)
{
    if (start >= d->n || d->v[start].kind != TR_IDENT)
        PP_FAIL(p, "%s:%d: #define needs a macro name", fname(p, file), line);
    macro m = {0};
    m.name = strdup(d->v[start].text);
    size_t i = start + 1;
    /* function-like only when '(' follows the name with no space: compare columns */
    if (i < d->n && strcmp(d->v[i].text, "(") == 0 &&
        d->v[i].col == d->v[start].col + (int)strlen(d->v[start].text)) {
        m.fn = true;
        i++;
        while (i < d->n && strcmp(d->v[i].text, ")") != 0) {
            if (strcmp(d->v[i].text, "...") == 0) {
                m.variadic = true;
                i++;
                break;
            }
            if (d->v[i].kind != TR_IDENT) {
                macro_free(&m);
                PP_FAIL(p, "%s:%d: bad parameter list in #define", fname(p, file), line);
            }
            char **np = realloc(m.params, (size_t)(m.nparams + 1) * sizeof *np);
            if (!np) {
                macro_free(&m);
                PP_FAIL(p, "out of memory");
            }
            m.params = np;
            m.params[m.nparams++] = strdup(d->v[i].text);
            i++;
            if (i < d->n && strcmp(d->v[i].text, ",") == 0) i++;
        }
        if (i >= d->n || strcmp(d->v[i].text, ")") != 0) {
            macro_free(&m);
            PP_FAIL(p, "%s:%d: unterminated parameter list in #define", fname(p, file), line);
        }
        i++;
    }
    for (; i < d->n && d->v[i].kind != TR_EOF; i++) {
        tr_token t = d->v[i];
        t.file = file;
        t.line = line;
        if (tr_tokens_push(&m.body, &t)) {
            macro_free(&m);
            PP_FAIL(p, "out of memory");
        }
    }
    /* -D macros are expanded (the output then needs no -D); so are the standard names, even
     * where the file defines them itself */
    m.std_name = is_std_name(m.name);
    m.kept = !m.fn && !from_cli && !m.std_name && constant_body(&m.body);
    macro *old = find_macro(p, m.name);
    if (old) { /* redefined: replaced where it is */
        macro_free(old);
        *old = m;
    } else if (p->nm == p->capm) {
        size_t cap = p->capm ? p->capm * 2 : 64;
        macro *nm = realloc(p->m, cap * sizeof *nm);
        if (!nm) {
            macro_free(&m);
            PP_FAIL(p, "out of memory");
        }
        p->m = nm;
        p->capm = cap;
    }
    if (!old) {
        p->m[p->nm++] = m;
        if (2 * p->nm > p->caph) {
            if (rehash(p)) PP_FAIL(p, "out of memory");
        } else {
            size_t j = name_hash(m.name) & (p->caph - 1);
            while (p->h[j])
                j = (j + 1) & (p->caph - 1);
            p->h[j] = p->nm;
        }
    }
    if (m.kept && !from_cli) {
        tr_pp_result *r = p->res;
        tr_kept_macro *k = realloc(r->kept, (r->nkept + 1) * sizeof *k);
        if (!k) PP_FAIL(p, "out of memory");
        r->kept = k;
        size_t len = 0;
        for (size_t j = 0; j < m.body.n; j++)
            len += strlen(m.body.v[j].text);
        char *body = calloc(1, len + 1);
        for (size_t j = 0; body && j < m.body.n; j++)
            strcat(body, m.body.v[j].text);
        /* a redefinition replaces the earlier entry */
        size_t at = r->nkept;
        for (size_t j = 0; j < r->nkept; j++)
            if (strcmp(r->kept[j].name, m.name) == 0) {
                free(r->kept[j].name);
                free(r->kept[j].body);
                at = j;
            }
        r->kept[at] = (tr_kept_macro){strdup(m.name), body, file, line};
        if (at == r->nkept) r->nkept++;
    }
    return 0;
}

static bool is_active(pp *p, const char *name)
{
    for (int i = 0; i < p->nactive; i++)
        if (strcmp(p->active[i], name) == 0) return true;
    return false;
}

static int push_tok(pp *p, tr_tokens *out, const tr_token *t)
{
    if (out->n >= PP_MAX_OUT)
        PP_FAIL(p, "%s:%d: macro expansion runs away (over %d tokens)", fname(p, t->file), t->line,
                PP_MAX_OUT);
    if (tr_tokens_push(out, t)) PP_FAIL(p, "out of memory");
    return 0;
}

static int expand(pp *p, const tr_token *in, size_t n, tr_tokens *out, bool expand_kept,
                  int use_file, int use_line);

static int param_index(const macro *m, const char *name)
{
    for (int i = 0; i < m->nparams; i++)
        if (strcmp(m->params[i], name) == 0) return i;
    if (m->variadic && strcmp(name, "__VA_ARGS__") == 0) return m->nparams;
    return -1;
}

/* Joins two tokens' text and lexes the result back into one token (##). */
static int paste(pp *p, tr_tokens *out, const tr_token *right)
{
    if (out->n == 0) return push_tok(p, out, right);
    tr_token *left = &out->v[out->n - 1];
    size_t ll = strlen(left->text), rl = strlen(right->text);
    char *joined = malloc(ll + rl + 1);
    if (!joined) PP_FAIL(p, "out of memory");
    memcpy(joined, left->text, ll);
    memcpy(joined + ll, right->text, rl + 1);
    tr_tokens lexed = {0};
    char err[256];
    if (tr_lex("##", left->file, joined, ll + rl, &lexed, err, sizeof err) != 0 || lexed.n != 2) {
        tr_tokens_free(&lexed);
        free(joined);
        PP_FAIL(p, "%s:%d: pasting \"%s\" and \"%s\" does not give a valid token",
                fname(p, left->file), left->line, left->text, right->text);
    }
    free(left->text);
    left->text = joined;
    left->kind = lexed.v[0].kind;
    tr_tokens_free(&lexed);
    return 0;
}

static int stringize(pp *p, tr_tokens *out, const tr_tokens *arg, int file, int line)
{
    size_t len = 3;
    for (size_t i = 0; i < arg->n; i++)
        len += 2 * strlen(arg->v[i].text) + 1;
    char *s = malloc(len);
    if (!s) PP_FAIL(p, "out of memory");
    size_t k = 0;
    s[k++] = '"';
    for (size_t i = 0; i < arg->n; i++) {
        if (i) s[k++] = ' ';
        for (const char *c = arg->v[i].text; *c; c++) {
            if ((arg->v[i].kind == TR_STRING || arg->v[i].kind == TR_CHAR) &&
                (*c == '"' || *c == '\\'))
                s[k++] = '\\';
            s[k++] = *c;
        }
    }
    s[k++] = '"';
    s[k] = '\0';
    tr_token t = {TR_STRING, s, file, line, 1, false};
    int rc = push_tok(p, out, &t);
    free(s);
    return rc;
}

static int substitute(pp *p, const macro *m, tr_tokens *args, int nargs, tr_tokens *out,
                      bool expand_kept, int file, int line)
{
    for (size_t i = 0; i < m->body.n; i++) {
        const tr_token *t = &m->body.v[i];
        bool paste_next = i + 1 < m->body.n && strcmp(m->body.v[i + 1].text, "##") == 0;
        bool paste_prev = i > 0 && strcmp(m->body.v[i - 1].text, "##") == 0;
        if (strcmp(t->text, "##") == 0) continue;
        if (m->fn && strcmp(t->text, "#") == 0 && i + 1 < m->body.n) {
            int pi = param_index(m, m->body.v[i + 1].text);
            if (pi >= 0 && pi < nargs) {
                if (stringize(p, out, &args[pi], file, line)) return -1;
                i++;
                continue;
            }
        }
        int pi = m->fn && t->kind == TR_IDENT ? param_index(m, t->text) : -1;
        if (pi >= 0) {
            const tr_tokens *a = pi < nargs ? &args[pi] : NULL;
            if (paste_prev && m->variadic && pi == m->nparams && out->n &&
                !strcmp(out->v[out->n - 1].text, ",")) {
                /* GNU's `, ## __VA_ARGS__`: no variable arguments, no comma; else the comma and
                 * the arguments, nothing pasted */
                if (!a || a->n == 0) {
                    free(out->v[out->n - 1].text);
                    out->n--;
                }
                for (size_t j = 0; a && j < a->n; j++) {
                    tr_token c = a->v[j];
                    c.file = file, c.line = line;
                    if (push_tok(p, out, &c)) return -1;
                }
                continue;
            }
            if (paste_next || paste_prev) {
                for (size_t j = 0; a && j < a->n; j++) {
                    tr_token c = a->v[j];
                    c.file = file, c.line = line;
                    if (j == 0 && paste_prev ? paste(p, out, &c) : push_tok(p, out, &c)) return -1;
                }
            } else if (a && expand(p, a->v, a->n, out, expand_kept, file, line)) {
                return -1;
            }
            continue;
        }
        tr_token c = *t;
        c.file = file, c.line = line;
        if (paste_prev ? paste(p, out, &c) : push_tok(p, out, &c)) return -1;
    }
    return 0;
}

/* Collects the arguments of a function-like macro whose '(' is at in[*i]. */
static int collect_args(pp *p, const macro *m, const tr_token *in, size_t n, size_t *i,
                        tr_tokens **args, int *nargs)
{
    int cap = m->nparams + 2, k = 0, depth = 0;
    tr_tokens *a = calloc((size_t)cap, sizeof *a);
    if (!a) PP_FAIL(p, "out of memory");
    const tr_token *open = &in[*i];
    size_t j = *i + 1;
    for (; j < n; j++) {
        const char *s = in[j].text;
        if (in[j].kind == TR_PUNCT && strcmp(s, "(") == 0) depth++;
        if (in[j].kind == TR_PUNCT && strcmp(s, ")") == 0) {
            if (depth == 0) break;
            depth--;
        }
        if (in[j].kind == TR_PUNCT && strcmp(s, ",") == 0 && depth == 0 &&
            !(m->variadic && k >= m->nparams)) {
            if (++k >= cap) {
                tr_tokens *na = realloc(a, (size_t)(cap * 2) * sizeof *na);
                if (!na) break;
                memset(na + cap, 0, (size_t)cap * sizeof *na);
                a = na;
                cap *= 2;
            }
            continue;
        }
        if (tr_tokens_push(&a[k], &in[j])) break;
    }
    if (j >= n) {
        for (int q = 0; q < cap; q++)
            tr_tokens_free(&a[q]);
        free(a);
        PP_FAIL(p, "%s:%d: unterminated call of macro %s", fname(p, open->file), open->line,
                m->name);
    }
    *nargs = (k == 0 && a[0].n == 0 && m->nparams == 0) ? 0 : k + 1;
    int want = m->nparams + (m->variadic ? 1 : 0);
    if (*nargs != want && !(m->variadic && *nargs == m->nparams)) {
        for (int q = 0; q < cap; q++)
            tr_tokens_free(&a[q]);
        free(a);
        PP_FAIL(p, "%s:%d: macro %s takes %d argument%s, got %d", fname(p, open->file), open->line,
                m->name, m->nparams, m->nparams == 1 ? "" : "s", *nargs);
    }
    *i = j;
    *args = a;
    *nargs = cap; /* caller frees all cap slots */
    return 0;
}

static int expand(pp *p, const tr_token *in, size_t n, tr_tokens *out, bool expand_kept,
                  int use_file, int use_line)
{
    for (size_t i = 0; i < n; i++) {
        const tr_token *t = &in[i];
        macro *m = t->kind == TR_IDENT ? find_macro(p, t->text) : NULL;
        if (!m || is_active(p, m->name) || (m->kept && !expand_kept) ||
            (m->fn && !(i + 1 < n && strcmp(in[i + 1].text, "(") == 0))) {
            tr_token c = *t;
            if (use_file >= 0) c.file = use_file, c.line = use_line;
            if (push_tok(p, out, &c)) return -1;
            continue;
        }
        if (p->nactive >= PP_MAX_EXPAND_DEPTH)
            PP_FAIL(p, "%s:%d: macros nest deeper than %d", fname(p, t->file), t->line,
                    PP_MAX_EXPAND_DEPTH);
        int file = use_file >= 0 ? use_file : t->file, line = use_file >= 0 ? use_line : t->line;
        tr_tokens *args = NULL;
        int nslots = 0;
        if (m->fn) {
            size_t j = i + 1;
            if (collect_args(p, m, in, n, &j, &args, &nslots)) return -1;
            i = j;
        }
        tr_tokens body = {0};
        int rc = substitute(p, m, args, nslots, &body, expand_kept, file, line);
        for (int q = 0; q < nslots; q++)
            tr_tokens_free(&args[q]);
        free(args);
        if (rc == 0) {
            p->active[p->nactive++] = m->name;
            rc = expand(p, body.v, body.n, out, expand_kept, file, line);
            p->nactive--;
        }
        tr_tokens_free(&body);
        if (rc) return -1;
    }
    return 0;
}

/* ---- #if expressions -------------------------------------------------------------------- */
typedef struct cexpr {
    const tr_token *t;
    size_t n, i;
    bool bad;
} cexpr;

static long long ce_cond(cexpr *c);

static const char *ce_peek(cexpr *c)
{
    return c->i < c->n ? c->t[c->i].text : "";
}

static bool ce_eat(cexpr *c, const char *s)
{
    if (c->i < c->n && strcmp(c->t[c->i].text, s) == 0) {
        c->i++;
        return true;
    }
    return false;
}

static long long ce_primary(cexpr *c)
{
    if (c->i >= c->n) {
        c->bad = true;
        return 0;
    }
    const tr_token *t = &c->t[c->i];
    if (ce_eat(c, "(")) {
        long long v = ce_cond(c);
        if (!ce_eat(c, ")")) c->bad = true;
        return v;
    }
    if (ce_eat(c, "-")) return -ce_primary(c);
    if (ce_eat(c, "+")) return ce_primary(c);
    if (ce_eat(c, "!")) return !ce_primary(c);
    if (ce_eat(c, "~")) return ~ce_primary(c);
    c->i++;
    if (t->kind == TR_NUMBER) {
        char *end;
        long long v = (long long)strtoull(t->text, &end, 0);
        while (*end == 'u' || *end == 'U' || *end == 'l' || *end == 'L')
            end++;
        if (*end) c->bad = true;
        return v;
    }
    if (t->kind == TR_CHAR) return (unsigned char)t->text[1];
    if (t->kind == TR_IDENT) return 0; /* an identifier left after expansion is 0 */
    c->bad = true;
    return 0;
}

static long long ce_bin(cexpr *c, int level)
{
    if (level == TR_BINARY_LEVELS) return ce_primary(c);
    const char *const *ops = tr_binary_ops[level];
    long long v = ce_bin(c, level + 1);
    for (;;) {
        const char *op = NULL;
        for (int k = 0; k < 4 && ops[k]; k++)
            if (strcmp(ce_peek(c), ops[k]) == 0) op = ops[k];
        if (!op) return v;
        c->i++;
        long long r = ce_bin(c, level + 1);
        if (!strcmp(op, "||"))
            v = v || r;
        else if (!strcmp(op, "&&"))
            v = v && r;
        else if (!strcmp(op, "|"))
            v |= r;
        else if (!strcmp(op, "^"))
            v ^= r;
        else if (!strcmp(op, "&"))
            v &= r;
        else if (!strcmp(op, "=="))
            v = v == r;
        else if (!strcmp(op, "!="))
            v = v != r;
        else if (!strcmp(op, "<"))
            v = v < r;
        else if (!strcmp(op, ">"))
            v = v > r;
        else if (!strcmp(op, "<="))
            v = v <= r;
        else if (!strcmp(op, ">="))
            v = v >= r;
        else if (!strcmp(op, "<<"))
            v = (r >= 0 && r < 64) ? (long long)((unsigned long long)v << r) : 0;
        else if (!strcmp(op, ">>"))
            v = (r >= 0 && r < 64) ? v >> r : 0;
        else if (!strcmp(op, "+"))
            v = (long long)((unsigned long long)v + (unsigned long long)r);
        else if (!strcmp(op, "-"))
            v = (long long)((unsigned long long)v - (unsigned long long)r);
        else if (!strcmp(op, "*"))
            v = (long long)((unsigned long long)v * (unsigned long long)r);
        else if (r == 0 || (v == (-9223372036854775807LL - 1) && r == -1))
            c->bad = true, v = 0;
        else
            v = !strcmp(op, "/") ? v / r : v % r;
    }
}

static long long ce_cond(cexpr *c)
{
    long long v = ce_bin(c, 0);
    if (ce_eat(c, "?")) {
        long long a = ce_cond(c);
        if (!ce_eat(c, ":")) c->bad = true;
        long long b = ce_cond(c);
        return v ? a : b;
    }
    return v;
}

bool tr_const_eval(const tr_token *t, size_t n, long long *value)
{
    for (size_t i = 0; i < n; i++)
        if (t[i].kind == TR_IDENT || t[i].kind == TR_STRING) return false;
    cexpr c = {t, n, 0, false};
    long long v = n ? ce_cond(&c) : 0;
    if (!n || c.bad || c.i != n) return false;
    *value = v;
    return true;
}

static bool is_system_header(const char *name);
static bool local_header_exists(pp *p, const char *name, int file);

/* C++'s alternative spellings of operators (`#if not defined(X)`): the operator. */
static const char *alt_operator(const char *w)
{
    static const char *const alt[][2] = {{"not", "!"},     {"and", "&&"},   {"or", "||"},
                                         {"not_eq", "!="}, {"bitand", "&"}, {"bitor", "|"},
                                         {"xor", "^"},     {"compl", "~"}};
    for (size_t i = 0; i < sizeof alt / sizeof *alt; i++)
        if (!strcmp(w, alt[i][0])) return alt[i][1];
    return NULL;
}

/* `__has_include("x.h")` / `__has_include(<x.h>)` at d->v[*i]: 1 where the header is one the
 * translation reads or knows (a project header found as #include finds it, a C or CUDA system
 * header), 0 for another system header (an optional library: NVML, MPI...). *i is left on the
 * closing parenthesis; false when the form is not that. */
static bool has_include(pp *p, const tr_tokens *d, size_t *i, int file, long long *v)
{
    size_t j = *i + 1;
    if (j >= d->n || strcmp(d->v[j].text, "(")) return false;
    j++;
    char name[512] = "";
    size_t n = 0;
    if (j < d->n && d->v[j].kind == TR_STRING) {
        snprintf(name, sizeof name, "%s", d->v[j].text + 1);
        n = strlen(name);
        if (n) name[--n] = '\0'; /* the closing quote */
        j++;
    } else if (j < d->n && !strcmp(d->v[j].text, "<")) {
        for (j++; j < d->n && strcmp(d->v[j].text, ">") && d->v[j].kind != TR_EOF; j++) {
            size_t l = strlen(d->v[j].text);
            if (n + l >= sizeof name) { /* too long for a header's name */
                n = sizeof name;
                continue;
            }
            memcpy(name + n, d->v[j].text, l + 1);
            n += l;
        }
        if (j >= d->n || strcmp(d->v[j].text, ">") || n >= sizeof name) return false;
        j++;
    } else {
        return false;
    }
    if (j >= d->n || strcmp(d->v[j].text, ")")) return false;
    *i = j;
    *v = name[0] && (local_header_exists(p, name, file) || is_system_header(name));
    return true;
}

/* Evaluates the tokens of an #if / #elif line after the directive name. */
static int eval_if(pp *p, const tr_tokens *d, size_t start, int file, int line, bool *value)
{
    tr_tokens pre = {0}, ex = {0};
    for (size_t i = start; i < d->n && d->v[i].kind != TR_EOF; i++) {
        long long hv;
        if (d->v[i].kind == TR_IDENT &&
            (!strcmp(d->v[i].text, "__has_include") ||
             !strcmp(d->v[i].text, "__has_include_next")) &&
            has_include(p, d, &i, file, &hv)) {
            tr_token one = {TR_NUMBER, hv ? "1" : "0", file, line, 1, false};
            if (tr_tokens_push(&pre, &one)) break;
            continue;
        }
        if (d->v[i].kind == TR_IDENT && alt_operator(d->v[i].text)) {
            tr_token op = {TR_PUNCT, (char *)alt_operator(d->v[i].text), file, line, 1, false};
            if (tr_tokens_push(&pre, &op)) break;
            continue;
        }
        if (d->v[i].kind == TR_IDENT && strcmp(d->v[i].text, "defined") == 0) {
            size_t j = i + 1;
            bool paren = j < d->n && strcmp(d->v[j].text, "(") == 0;
            if (paren) j++;
            if (j >= d->n || d->v[j].kind != TR_IDENT) {
                tr_tokens_free(&pre);
                PP_FAIL(p, "%s:%d: 'defined' needs a macro name", fname(p, file), line);
            }
            tr_token one = {TR_NUMBER, find_macro(p, d->v[j].text) ? "1" : "0", file, line, 1,
                            false};
            if (tr_tokens_push(&pre, &one)) break;
            i = j + (paren ? 1 : 0);
            continue;
        }
        if (tr_tokens_push(&pre, &d->v[i])) break;
    }
    int rc = expand(p, pre.v, pre.n, &ex, true, -1, 0);
    tr_tokens_free(&pre);
    if (rc) {
        tr_tokens_free(&ex);
        return -1;
    }
    cexpr c = {ex.v, ex.n, 0, false};
    long long v = ex.n ? ce_cond(&c) : 0;
    bool bad = c.bad || c.i != c.n || ex.n == 0;
    tr_tokens_free(&ex);
    if (bad) PP_FAIL(p, "%s:%d: cannot evaluate this #if expression", fname(p, file), line);
    *value = v != 0;
    return 0;
}

/* ---- files and directives --------------------------------------------------------------- */
static int add_file(pp *p, const char *path)
{
    tr_pp_result *r = p->res;
    char **f = realloc(r->files, (r->nfiles + 1) * sizeof *f);
    if (!f) return -1;
    r->files = f;
    r->files[r->nfiles] = strdup(path);
    return (int)r->nfiles++;
}

static void note_system(pp *p, const char *name)
{
    tr_pp_result *r = p->res;
    for (size_t i = 0; i < r->nsystem; i++)
        if (strcmp(r->system_includes[i], name) == 0) return;
    char **s = realloc(r->system_includes, (r->nsystem + 1) * sizeof *s);
    if (!s) return;
    r->system_includes = s;
    r->system_includes[r->nsystem++] = strdup(name);
}

static int process_file(pp *p, const char *path, const char *text, size_t len, int incl_file,
                        int incl_line);

static char *dir_of(const char *path)
{
    const char *slash = strrchr(path, '/');
    return slash ? strndup(path, (size_t)(slash - path)) : strdup(".");
}

static void add_note(pp *p, int file, int line, const char *construct, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));
static void add_note(pp *p, int file, int line, const char *construct, const char *fmt, ...)
{
    tr_pp_result *r = p->res;
    tr_pp_note *n = realloc(r->notes, (r->nnotes + 1) * sizeof *n);
    if (!n) return;
    r->notes = n;
    char buf[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    r->notes[r->nnotes++] = (tr_pp_note){file, line, strdup(construct), strdup(buf)};
}

/* The C and C++ standard headers, POSIX's common ones and the CUDA toolkit's (and the CUDA
 * samples' host helpers): names a quoted #include may use for a header that is not the
 * project's own. */
static bool is_system_header(const char *name)
{
    static const char *const exact[] = {
        "assert.h",
        "ctype.h",
        "errno.h",
        "float.h",
        "limits.h",
        "math.h",
        "stdarg.h",
        "stdbool.h",
        "stddef.h",
        "stdint.h",
        "stdio.h",
        "stdlib.h",
        "string.h",
        "time.h",
        "inttypes.h",
        "unistd.h",
        "sys/time.h",
        "sys/types.h",
        "omp.h",
        "pthread.h",
        "helper_cuda.h",
        "helper_functions.h",
        "helper_string.h",
        "helper_timer.h",
        "helper_image.h",
        "math_constants.h",
        "device_launch_parameters.h",
        "device_functions.h",
        "sm_20_atomic_functions.h",
        "vector_types.h",
        "driver_types.h",
    };
    static const char *const cxx[] = {
        "algorithm", "array",    "cassert",  "cfloat",  "chrono", "climits",     "cmath",
        "cstdint",   "cstdio",   "cstdlib",  "cstring", "ctime",  "fstream",     "functional",
        "iomanip",   "iostream", "limits",   "map",     "memory", "numeric",     "random",
        "set",       "sstream",  "string",   "thread",  "tuple",  "type_traits", "unordered_map",
        "utility",   "vector",   "iterator", "mutex",   "atomic", "cstddef",     "stdexcept",
    };
    for (size_t i = 0; i < sizeof exact / sizeof *exact; i++)
        if (!strcmp(name, exact[i])) return true;
    for (size_t i = 0; i < sizeof cxx / sizeof *cxx; i++)
        if (!strcmp(name, cxx[i])) return true;
    /* cuda.h, cuda_runtime.h, cuda_fp16.h, cublas_v2.h, curand_kernel.h, cooperative_groups.h,
     * cooperative_groups/reduce.h, thrust/..., cub/... */
    static const char *const prefixes[] = {
        "cuda",    "cublas", "cufft", "curand", "cusparse", "cudnn", "nvrtc", "cooperative_groups",
        "thrust/", "cub/",   "nvml",  "nvtx",   "crt/"};
    for (size_t i = 0; i < sizeof prefixes / sizeof *prefixes; i++)
        if (!strncmp(name, prefixes[i], strlen(prefixes[i]))) return true;
    return false;
}

/* Whether "name" exists beside the including file or in an -I folder (the search do_include
 * makes). */
static bool local_header_exists(pp *p, const char *name, int file)
{
    char *dir = dir_of(fname(p, file));
    bool found = false;
    char *cand = name[0] == '/' ? strdup(name) : gp_path_join(dir, name);
    found = cand && gp_path_is_file(cand);
    free(cand);
    for (size_t i = 0; !found && p->opt && i < p->opt->ninclude_dirs; i++) {
        cand = gp_path_join(p->opt->include_dirs[i], name);
        found = cand && gp_path_is_file(cand);
        free(cand);
    }
    free(dir);
    return found;
}

/* <assert.h> as the C library has it: with NDEBUG defined where it is included, assert(e) is
 * nothing (as nvcc -DNDEBUG compiles it); without, assert stays a call (which is refused). */
static int assert_header(pp *p, const char *name)
{
    if (strcmp(name, "assert.h") && strcmp(name, "cassert")) return 0;
    undef(p, "assert");
    if (!find_macro(p, "NDEBUG")) return 0;
    static const char text[] = "assert(e) ((void)0)";
    tr_tokens d = {0};
    char err[128];
    int rc = tr_lex("<assert.h>", -1, text, strlen(text), &d, err, sizeof err);
    if (rc == 0) rc = define(p, &d, 0, -1, 0, true);
    tr_tokens_free(&d);
    return rc;
}

/* Files under `dir` (folders `depth` levels deep at most) whose path ends in "/name": the
 * first in *found, how many in *n; *budget entries are looked at, at most. */
static void project_search(const char *dir, const char *name, int depth, int *budget, char **found,
                           int *n)
{
    char **names = NULL, err[256];
    size_t count = 0;
    if (gp_dir_names(dir, &names, &count, err, sizeof err) != 0) return;
    size_t nl = strlen(name);
    for (size_t i = 0; i<count && * budget> 0 && *n < 2; i++, (*budget)--) {
        if (names[i][0] == '.') continue;
        char *path = gp_path_join(dir, names[i]);
        if (!path) continue;
        size_t pl = strlen(path);
        if (gp_path_is_dir(path)) {
            if (depth > 0) project_search(path, name, depth - 1, budget, found, n);
        } else if (pl > nl && path[pl - nl - 1] == '/' && !strcmp(path + pl - nl, name)) {
            if (!(*n)++) *found = strdup(path);
        }
        free(path);
    }
    gp_dir_names_free(names, count);
}

/* A quoted header found neither beside the including file nor in -I folders: the one file of
 * that name in the project around it (the including folder's parent, 3 levels down), as the
 * project's build names its folders with -I; NULL when there is none, several, or the parent
 * is no one project's (a folder of many). */
static char *project_header(const char *dir, const char *name)
{
    if (strstr(name, "..") || name[0] == '/') return NULL;
    char *root = dir_of(dir);
    char **names = NULL, err[256];
    size_t count = 0;
    char *found = NULL;
    int n = 0, budget = 2000;
    if (root && strcmp(root, dir) && gp_dir_names(root, &names, &count, err, sizeof err) == 0) {
        gp_dir_names_free(names, count);
        if (count <= 64) project_search(root, name, 3, &budget, &found, &n);
    }
    free(root);
    if (n != 1 || budget <= 0) {
        free(found);
        return NULL;
    }
    return found;
}

static int do_include(pp *p, const char *rest, int file, int line)
{
    while (*rest == ' ' || *rest == '\t')
        rest++;
    char close = *rest == '"' ? '"' : *rest == '<' ? '>' : 0;
    const char *end = close ? strchr(rest + 1, close) : NULL;
    if (!end) PP_FAIL(p, "%s:%d: #include needs \"file\" or <file>", fname(p, file), line);
    char *name = strndup(rest + 1, (size_t)(end - rest - 1));
    if (!name) PP_FAIL(p, "out of memory");
    /* <project.h> found in an -I folder is the project's own (nvcc searches -I for both
     * spellings); other <...> headers are the system's and the toolkit's, not translated */
    bool in_dirs = false;
    for (size_t i = 0;
         close == '>' && !is_system_header(name) && !in_dirs && p->opt && i < p->opt->ninclude_dirs;
         i++) {
        char *cand = gp_path_join(p->opt->include_dirs[i], name);
        in_dirs = cand && gp_path_is_file(cand);
        free(cand);
    }
    if (close == '>' && !in_dirs) {
        /* not the system's nor found: what it declares is unknown (the samples' helper_math.h
         * and its vector operators without -I Common), which the refusals that need it say */
        if (!is_system_header(name) && !p->res->missing) p->res->missing = strdup(name);
        note_system(p, name);
        int rc = assert_header(p, name);
        free(name);
        return rc;
    }
    if (!local_header_exists(p, name, file) && is_system_header(name)) {
        /* "cuda_runtime.h", "assert.h": a system header spelled with quotes */
        note_system(p, name);
        add_note(p, file, line, "system header",
                 "#include \"%s\" names a system or CUDA toolkit header: not read (kernels get "
                 "the dialect's prelude instead)",
                 name);
        int rc = assert_header(p, name);
        free(name);
        return rc;
    }
    if (p->depth >= PP_MAX_DEPTH) {
        free(name);
        PP_FAIL(p, "%s:%d: #include nested deeper than %d", fname(p, file), line, PP_MAX_DEPTH);
    }
    char *dir = dir_of(fname(p, file));
    char *found = NULL;
    /* whatever exists under the name is the header: a FIFO or a device is then refused by
     * the read below, naming it, rather than taken for a missing header */
    char *cand = close == '>'     ? NULL /* <...>: the -I folders only */
                 : name[0] == '/' ? strdup(name)
                                  : gp_path_join(dir, name);
    if (cand && gp_path_exists(cand) && !gp_path_is_dir(cand))
        found = cand;
    else
        free(cand);
    for (size_t i = 0; !found && p->opt && i < p->opt->ninclude_dirs; i++) {
        cand = gp_path_join(p->opt->include_dirs[i], name);
        if (cand && gp_path_exists(cand) && !gp_path_is_dir(cand))
            found = cand;
        else
            free(cand);
    }
    if (!found && close == '"' && (found = project_header(dir, name)) != NULL)
        add_note(p, file, line, "header found in the project",
                 "#include \"%s\": read %s, the one file of that name in the project (no -I "
                 "folder was given for it)",
                 name, found);
    free(dir);
    if (!found) {
        /* a project header that did not come with the file: what it declares is unknown, so
         * whatever uses it is refused by name; the rest translates */
        add_note(p, file, line, "missing header",
                 "#include \"%s\": not found (looked beside the file%s), not read; kernels "
                 "that use what it declares are refused (give -I DIR)",
                 name, p->opt && p->opt->ninclude_dirs ? " and in the -I folders" : "");
        if (!p->res->missing) p->res->missing = strdup(name);
        free(name);
        return 0;
    }
    free(name);
    char *real = realpath(found, NULL);
    for (size_t i = 0; real && i < p->nonce; i++)
        if (!strcmp(p->once[i], real)) { /* #pragma once, read already */
            free(real);
            free(found);
            return 0;
        }
    free(real);
    size_t flen = 0;
    char err[512];
    char *text = gp_read_file(found, PP_MAX_FILE, false, &flen, err, sizeof err);
    if (!text) {
        free(found);
        PP_FAIL(p, "%s:%d: %s", fname(p, file), line, err);
    }
    p->depth++;
    int rc = process_file(p, found, text, flen, file, line);
    p->depth--;
    free(text);
    free(found);
    return rc;
}

typedef struct cond {
    bool active; /* this branch's tokens are kept */
    bool taken;  /* some branch was taken already */
    bool parent; /* the enclosing region is active */
    bool seen_else;
} cond;

static int process_file(pp *p, const char *path, const char *text, size_t len, int incl_file,
                        int incl_line)
{
    int file = add_file(p, path);
    if (file < 0) PP_FAIL(p, "out of memory");
    tr_tokens toks = {0};
    if (tr_lex(path, file, text, len, &toks, p->err, p->errlen) != 0) {
        tr_tokens_free(&toks);
        return -1;
    }
    (void)incl_file, (void)incl_line;
    bool cut = p->cut; /* this file's own directives only: not the files it includes */
    p->cut = false;
    cond stack[64];
    int sp = 0;
    bool active = true;
    int rc = 0;
    size_t run_start = 0;
    for (size_t i = 0; i <= toks.n && rc == 0; i++) {
        bool directive = i < toks.n && toks.v[i].kind == TR_DIRECTIVE;
        bool end = i == toks.n || toks.v[i].kind == TR_EOF;
        if (!directive && !end) continue;
        if (active && i > run_start)
            rc = expand(p, toks.v + run_start, i - run_start, &p->res->toks, false, -1, 0);
        run_start = i + 1;
        if (end || rc) break;
        const tr_token *dt = &toks.v[i];
        tr_tokens d = {0};
        char err[256];
        if (tr_lex(path, file, dt->text, strlen(dt->text), &d, err, sizeof err) != 0) {
            tr_tokens_free(&d);
            snprintf(p->err, p->errlen, "%s:%d: malformed directive", path, dt->line);
            rc = -1;
            break;
        }
        for (size_t k = 0; k < d.n; k++)
            d.v[k].line = dt->line;
        const char *name = d.n > 1 ? d.v[0].text : "";
        const char *rest = dt->text + strspn(dt->text, " \t");
        rest += strlen(name);
        if (!strcmp(name, "if") || !strcmp(name, "ifdef") || !strcmp(name, "ifndef")) {
            if (sp >= 64) {
                snprintf(p->err, p->errlen, "%s:%d: #if nested deeper than 64", path, dt->line);
                rc = -1;
            } else {
                bool v = false;
                if (active) {
                    if (!strcmp(name, "if"))
                        rc = eval_if(p, &d, 1, file, dt->line, &v);
                    else if (d.n < 3 || d.v[1].kind != TR_IDENT) {
                        snprintf(p->err, p->errlen, "%s:%d: #%s needs a macro name", path, dt->line,
                                 name);
                        rc = -1;
                    } else {
                        v = (find_macro(p, d.v[1].text) != NULL) == (strcmp(name, "ifdef") == 0);
                    }
                }
                stack[sp++] = (cond){active && v, active && v, active, false};
                active = active && v;
            }
        } else if (!strcmp(name, "elif") || !strcmp(name, "else")) {
            if (sp == 0 || stack[sp - 1].seen_else) {
                snprintf(p->err, p->errlen, "%s:%d: #%s without #if", path, dt->line, name);
                rc = -1;
            } else {
                cond *c = &stack[sp - 1];
                bool v = false;
                if (!strcmp(name, "else")) {
                    c->seen_else = true;
                    v = true;
                } else if (c->parent && !c->taken) {
                    rc = eval_if(p, &d, 1, file, dt->line, &v);
                }
                c->active = c->parent && !c->taken && v;
                c->taken = c->taken || c->active;
                active = c->active;
            }
        } else if (!strcmp(name, "endif")) {
            if (sp == 0 && cut) {
                /* a cut text's tail: the #if it was taken in (an include guard) closes here */
            } else if (sp == 0) {
                snprintf(p->err, p->errlen, "%s:%d: #endif without #if", path, dt->line);
                rc = -1;
            } else {
                active = stack[--sp].parent;
            }
        } else if (!active) {
            /* skipped region: other directives are not even looked at */
        } else if (!strcmp(name, "define")) {
            rc = define(p, &d, 1, file, dt->line, false);
        } else if (!strcmp(name, "undef")) {
            if (d.n > 1 && d.v[1].kind == TR_IDENT) undef(p, d.v[1].text);
        } else if (!strcmp(name, "include")) {
            rc = do_include(p, rest, file, dt->line);
        } else if (!strcmp(name, "pragma")) {
            while (*rest == ' ' || *rest == '\t')
                rest++;
            if (strncmp(rest, "once", 4) == 0 && (!rest[4] || rest[4] == ' ' || rest[4] == '\t')) {
                /* this file is read once: the next #include of it is nothing */
                char *real = realpath(path, NULL);
                char **o = real ? realloc(p->once, (p->nonce + 1) * sizeof *o) : NULL;
                if (o) {
                    p->once = o;
                    p->once[p->nonce++] = real;
                } else {
                    free(real);
                }
            } else if (strncmp(rest, "unroll", 6) == 0) { /* other pragmas are the host's */
                tr_token t = {TR_DIRECTIVE, (char *)dt->text, file, dt->line, 1, true};
                rc = push_tok(p, &p->res->toks, &t);
            }
        } else if (!strcmp(name, "error")) {
            snprintf(p->err, p->errlen, "%s:%d: #error%s", path, dt->line, rest);
            rc = -1;
        } else if (!strcmp(name, "line") || !strcmp(name, "warning") || !strcmp(name, "ident") ||
                   d.n <= 1) {
            /* nothing to do */
        } else {
            snprintf(p->err, p->errlen, "%s:%d: unknown directive #%s", path, dt->line, name);
            rc = -1;
        }
        tr_tokens_free(&d);
    }
    /* a cut text may end inside the #ifs it was taken in (an include guard): they close after */
    bool open_taken = cut;
    for (int c = 0; c < sp && open_taken; c++)
        open_taken = stack[c].active;
    if (rc == 0 && sp > 0 && !open_taken) {
        snprintf(p->err, p->errlen, "%s: #if without #endif", path);
        rc = -1;
    }
    tr_tokens_free(&toks);
    return rc;
}

int tr_preprocess(const char *path, const tr_pp_options *opt, tr_pp_result *out, char *err,
                  size_t errlen)
{
    memset(out, 0, sizeof *out);
    pp p = {0};
    p.res = out;
    p.opt = opt;
    p.err = err;
    p.errlen = errlen;
    /* What nvcc defines when it compiles device code (the lowest architecture CUDA 13 knows; .cu
     * files are C++17 by default), and the toolkit version a CUDA 12 cuda_runtime.h (which nvcc
     * includes in every .cu file) gives: files test CUDART_VERSION to choose the CUDA 9 _sync
     * warp intrinsics over the maskless ones, so an undefined one (0) picked dead branches. */
    static const char *const predefined[] = {"__CUDACC__=1", "__NVCC__=1", "__CUDA_ARCH__=750",
                                             "__cplusplus=201703L", "CUDART_VERSION=12080",
                                             "__CUDACC_VER_MAJOR__=12", "__CUDACC_VER_MINOR__=8",
                                             "__CUDACC_VER_BUILD__=0",
                                             /* the host nvcc compiles for: 64-bit Linux, as the
                                              * LP64 sizes the translation uses */
                                             "__linux__=1", "__linux=1", "__unix__=1", "__unix=1",
                                             "__x86_64__=1", "__x86_64=1", "__LP64__=1", "_LP64=1"};
    enum { NPRE = sizeof predefined / sizeof *predefined };
    int rc = 0;
    for (size_t i = 0; rc == 0 && i < sizeof std_names / sizeof *std_names; i++) {
        tr_tokens d = {0};
        char text[128];
        snprintf(text, sizeof text, "%s %s", std_names[i][0], std_names[i][1]);
        if (tr_lex("<predefined>", -1, text, strlen(text), &d, err, errlen) != 0)
            rc = -1;
        else
            rc = define(&p, &d, 0, -1, 0, true);
        tr_tokens_free(&d);
    }
    for (size_t i = 0; rc == 0 && i < NPRE + (opt ? opt->ndefines : 0); i++) {
        const char *def = i < NPRE ? predefined[i] : opt->defines[i - NPRE];
        /* NAME, NAME=VALUE, F(a,b)=VALUE: the name part as written (a '(' right after the name
         * makes a function-like macro, as for nvcc -D), then the value, 1 when none is given */
        const char *eq = strchr(def, '=');
        size_t nl = eq ? (size_t)(eq - def) : strlen(def);
        size_t cap = strlen(def) + 4;
        char *text = malloc(cap);
        if (!text) return -1;
        snprintf(text, cap, "%.*s %s", (int)nl, def, eq ? eq + 1 : "1");
        tr_tokens d = {0};
        if (nl == 0 || tr_lex("<command line>", -1, text, strlen(text), &d, err, errlen) != 0) {
            if (nl == 0) snprintf(err, errlen, "-D %s: a macro needs a name", def);
            rc = -1;
        } else {
            rc = define(&p, &d, 0, -1, 0, true);
            if (rc)
                snprintf(err, errlen,
                         "-D %s: not a macro definition (NAME, NAME=VALUE or NAME(ARGS)=VALUE)",
                         def);
        }
        tr_tokens_free(&d);
        free(text);
    }
    /* CUDA's headers bring <assert.h> in: -D NDEBUG removes assert even where the file does
     * not include it itself */
    if (rc == 0) rc = assert_header(&p, "assert.h");
    for (size_t c = 0; rc == 0 && opt && c < opt->ncontexts; c++) {
        p.cut = true;
        rc = process_file(&p, opt->context_paths[c], opt->contexts[c], opt->context_lens[c], -1, 0);
        p.cut = false;
        out->context_end = out->toks.n;
    }
    out->main_file = (int)out->nfiles;
    if (rc == 0) {
        size_t len = 0;
        char *text = NULL;
        if (opt && opt->source) {
            rc = process_file(&p, path, opt->source, opt->source_len, -1, 0);
        } else {
            text = gp_read_file(path, PP_MAX_FILE, false, &len, err, errlen);
            rc = text ? process_file(&p, path, text, len, -1, 0) : -1;
            free(text);
        }
    }
    out->tail_begin = out->toks.n;
    if (rc == 0 && opt && opt->tail) {
        p.cut = true;
        rc = process_file(&p, opt->tail_path, opt->tail, opt->tail_len, -1, 0);
    }
    if (rc == 0) {
        tr_token eof = {TR_EOF, "", 0, 0, 1, true};
        rc = tr_tokens_push(&out->toks, &eof);
    }
    for (size_t i = 0; i < p.nm; i++)
        macro_free(&p.m[i]);
    free(p.m);
    free(p.h);
    for (size_t i = 0; i < p.nonce; i++)
        free(p.once[i]);
    free(p.once);
    if (rc) tr_pp_result_free(out);
    return rc;
}

void tr_pp_result_free(tr_pp_result *r)
{
    tr_tokens_free(&r->toks);
    for (size_t i = 0; i < r->nfiles; i++)
        free(r->files[i]);
    free(r->files);
    for (size_t i = 0; i < r->nsystem; i++)
        free(r->system_includes[i]);
    free(r->system_includes);
    free(r->missing);
    for (size_t i = 0; i < r->nkept; i++)
        free(r->kept[i].name), free(r->kept[i].body);
    free(r->kept);
    for (size_t i = 0; i < r->nnotes; i++)
        free(r->notes[i].construct), free(r->notes[i].text);
    free(r->notes);
    memset(r, 0, sizeof *r);
}
