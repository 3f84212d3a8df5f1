/* pp.c — the front end's preprocessor. The user's macros and the build's defines are expanded
 * (object- and function-like, # and ##, __VA_ARGS__, conditional compilation with constant
 * expressions); the prelude's macros are left as identifiers for the C compiler, which compiles
 * the result with the prelude in front. A token of a macro's body takes the position of the
 * macro's use, a token of an argument keeps its own, so positions in the expanded program still
 * point into the user's text. Expansion is bounded in depth and output size. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/cpu/gpk/gpk.h"
#include "util/intexpr.h"

#define GK_PP_MAX_TOKENS ((size_t)8 << 20) /* a bigger expansion is runaway */
#define GK_PP_MAX_DEPTH  200
#define GK_PP_MAX_IFS    256
#define GK_PP_BUCKETS    512

/* The macros of the CPU prelude (include/gpuport/kernel.h) that user code may name: they are
 * "defined" for #ifdef, but never expanded here. */
static const char *const gk_prelude_macros[] = {
    "GPUPORT_KERNEL_H",
    "GP_BUF",
    "GP_CBUF",
    "GP_VAL",
    "GP_DYN_SHARED",
    "GP_KERNEL",
    "gp_min",
    "gp_max",
    "gp_clamp",
    "GP_GLOBAL",
    "GP_SHARED",
    "GP_CONSTANT",
    "GP_PRIVATE",
    "GP_SHARED_DECL",
    "GP_CONSTANT_DECL",
    "GP_FUNC",
    "GP_REQUIRES_FP64",
    "GP_REQUIRES_ATOMIC64",
    "GP_REQUIRES_SIMD_WIDTH",
    "GP_REQUIRES_GROUP_SIZE",
    "gp_local_id",
    "gp_group_id",
    "gp_local_size",
    "gp_num_groups",
    "gp_global_id",
    "gp_global_size",
    "gp_barrier",
    "gp_simd_width",
    "gp_simd_lane",
    "gp_simd_shuffle",
    "gp_simd_shuffle_xor",
    "gp_simd_shuffle_up",
    "gp_simd_shuffle_down",
    "gp_simd_ballot",
    "gp_simd_any",
    "gp_simd_all",
    "gp_simd_barrier",
    GK_INT_ATOMIC_NAMES,
    "gp_rsqrt",
    "gp_make_float2",
    "gp_make_float4",
    "gp_make_int2",
    "gp_make_int4",
    "gp_isnan",
    "gp_isinf",
    "gp_isfinite",
    "gp_signbit",
    "gp_make_char2",
    "gp_make_char4",
    "gp_make_uchar2",
    "gp_make_uchar4",
    "gp_make_short2",
    "gp_make_short4",
    "gp_make_ushort2",
    "gp_make_ushort4",
    "gp_make_uint2",
    "gp_make_uint4",
    "gp_make_long2",
    "gp_make_long4",
    "gp_make_ulong2",
    "gp_make_ulong4",
    "gp_make_double2",
    "gp_make_double4",
    "GP_CPU_SIMD_WIDTH",
    "GP_CPU_ABI_VERSION",
    "INFINITY",
    "NAN",
    "HUGE_VALF",
    "HUGE_VAL",
};

bool gk_is_prelude_macro(const char *name, size_t n)
{
    for (size_t i = 0; i < sizeof gk_prelude_macros / sizeof *gk_prelude_macros; i++)
        if (strlen(gk_prelude_macros[i]) == n && !memcmp(gk_prelude_macros[i], name, n))
            return true;
    return false;
}

typedef struct gk_macro {
    const char *name;
    uint32_t nlen;
    bool func, variadic, opaque;
    const gk_token *params; /* their names */
    size_t nparams;
    gk_token *body;
    size_t nbody;
    struct gk_macro *next;
} gk_macro;

typedef struct gk_pp {
    gk_arena *a;
    gk_macro *buckets[GK_PP_BUCKETS];
    const gk_macro *active[GK_PP_MAX_DEPTH + 1];
    int depth;
    gk_files *files;
    size_t produced;
    char *err;
    size_t errlen;
    bool failed;
} gk_pp;

static unsigned gk_hash(const char *s, size_t n)
{
    unsigned h = 2166136261u;
    for (size_t i = 0; i < n; i++)
        h = (h ^ (unsigned char)s[i]) * 16777619u;
    return h % GK_PP_BUCKETS;
}

static gk_macro *gk_find(gk_pp *p, const char *s, size_t n)
{
    for (gk_macro *m = p->buckets[gk_hash(s, n)]; m; m = m->next)
        if (m->nlen == n && !memcmp(m->name, s, n)) return m;
    return NULL;
}

static void gk_undef(gk_pp *p, const char *s, size_t n)
{
    gk_macro **pm = &p->buckets[gk_hash(s, n)];
    while (*pm) {
        if ((*pm)->nlen == n && !memcmp((*pm)->name, s, n)) {
            *pm = (*pm)->next;
            return;
        }
        pm = &(*pm)->next;
    }
}

static gk_macro *gk_define(gk_pp *p, const char *s, size_t n)
{
    gk_undef(p, s, n);
    gk_macro *m = gk_alloc(p->a, sizeof *m);
    if (!m) return NULL;
    m->name = s;
    m->nlen = (uint32_t)n;
    unsigned h = gk_hash(s, n);
    m->next = p->buckets[h];
    p->buckets[h] = m;
    return m;
}

static int gk_fail(gk_pp *p, gk_pos pos, const char *fmt, const char *arg)
{
    if (!p->failed) {
        char msg[300];
        snprintf(msg, sizeof msg, fmt, arg);
        const char *file = pos.file < p->files->n ? p->files->names[pos.file] : "?";
        snprintf(p->err, p->errlen, "%s:%u:%u: %s", file, pos.line, pos.col, msg);
    }
    p->failed = true;
    return -1;
}

static int gk_emit(gk_pp *p, gk_toks *out, const gk_token *t)
{
    if (++p->produced > GK_PP_MAX_TOKENS)
        return gk_fail(p, t->pos, "macro expansion runs away (over %s tokens)", "8 million");
    if (out->n == out->cap) {
        size_t nc = out->cap ? out->cap * 2 : 256;
        gk_token *v = gk_alloc(p->a, nc * sizeof *v);
        if (!v) return gk_fail(p, t->pos, "%s", "out of memory expanding macros");
        if (out->n) memcpy(v, out->v, out->n * sizeof *v);
        out->v = v;
        out->cap = nc;
    }
    out->v[out->n++] = *t;
    return 0;
}

static bool gk_is_active(const gk_pp *p, const gk_macro *m)
{
    for (int i = 0; i < p->depth; i++)
        if (p->active[i] == m) return true;
    return false;
}

static int gk_expand(gk_pp *p, const gk_token *in, size_t n, gk_toks *out);

/* The tokens of one macro argument. */
typedef struct gk_arg {
    const gk_token *t;
    size_t n;
    gk_toks expanded;
    bool done;
} gk_arg;

static int gk_param_index(const gk_macro *m, const gk_token *t)
{
    if (t->kind != GK_IDENT) return -1;
    for (size_t i = 0; i < m->nparams; i++)
        if (m->params[i].len == t->len && !memcmp(m->params[i].text, t->text, t->len))
            return (int)i;
    if (m->variadic && gk_tok_is(t, "__VA_ARGS__")) return (int)m->nparams;
    return -1;
}

static int gk_stringify(gk_pp *p, const gk_arg *arg, gk_pos pos, gk_toks *out)
{
    gp_strbuf sb = GP_STRBUF_INIT;
    gp_strbuf_putc(&sb, '"');
    for (size_t i = 0; i < arg->n; i++) {
        const gk_token *t = &arg->t[i];
        if (i && t->space) gp_strbuf_putc(&sb, ' ');
        for (uint32_t k = 0; k < t->len; k++) {
            char c = t->text[k];
            if ((t->kind == GK_STRING || t->kind == GK_CHAR) && (c == '"' || c == '\\'))
                gp_strbuf_putc(&sb, '\\');
            gp_strbuf_putc(&sb, c);
        }
    }
    gp_strbuf_putc(&sb, '"');
    gk_token t = {0};
    t.kind = GK_STRING;
    t.pos = pos;
    t.text = sb.failed ? NULL : gk_strndup(p->a, sb.data, sb.len);
    t.len = (uint32_t)sb.len;
    gp_strbuf_free(&sb);
    if (!t.text) return gk_fail(p, pos, "%s", "out of memory expanding macros");
    return gk_emit(p, out, &t);
}

/* a ## b: the two spellings joined and read again as one token. */
static int gk_paste(gk_pp *p, gk_token *left, const gk_token *right)
{
    size_t n = (size_t)left->len + right->len;
    char *s = gk_alloc(p->a, n + 1);
    if (!s) return gk_fail(p, left->pos, "%s", "out of memory expanding macros");
    memcpy(s, left->text, left->len);
    memcpy(s + left->len, right->text, right->len);
    gk_toks one = {0};
    char err[128];
    if (gk_lex(p->a, s, n, left->pos.file, &one, err, sizeof err) != 0 || one.n != 1)
        return gk_fail(p, left->pos, "'##' does not make one token of '%s'", s);
    left->kind = one.v[0].kind;
    left->text = s;
    left->len = (uint32_t)n;
    left->blue = 0;
    return 0;
}

/* Substitutes the arguments into m's body; body tokens take `pos`. */
static int gk_substitute(gk_pp *p, const gk_macro *m, gk_arg *args, gk_pos pos, gk_toks *out)
{
    for (size_t i = 0; i < m->nbody; i++) {
        const gk_token *bt = &m->body[i];
        bool paste_next = i + 1 < m->nbody && gk_tok_is(&m->body[i + 1], "##");
        bool paste_prev = i > 0 && gk_tok_is(&m->body[i - 1], "##");
        if (m->func && gk_tok_is(bt, "#") && i + 1 < m->nbody) {
            int k = gk_param_index(m, &m->body[i + 1]);
            if (k >= 0) {
                if (gk_stringify(p, &args[k], pos, out) != 0) return -1;
                i++;
                continue;
            }
        }
        if (gk_tok_is(bt, "##")) {
            if (i + 1 >= m->nbody || out->n == 0) continue; /* checked at #define */
            const gk_token *rt = &m->body[i + 1];
            int k = m->func ? gk_param_index(m, rt) : -1;
            const gk_token *rv = rt;
            size_t rn = 1;
            if (k >= 0) {
                rv = args[k].t;
                rn = args[k].n;
            }
            /* GNU: `, ## __VA_ARGS__` drops the comma when there are no variadic arguments and
             * pastes nothing otherwise */
            if (k == (int)m->nparams && m->variadic && gk_tok_is(&out->v[out->n - 1], ",")) {
                if (rn == 0) out->n--;
                for (size_t j = 0; j < rn; j++)
                    if (gk_emit(p, out, &rv[j]) != 0) return -1;
                i++;
                continue;
            }
            if (rn > 0) {
                if (gk_paste(p, &out->v[out->n - 1], &rv[0]) != 0) return -1;
                for (size_t j = 1; j < rn; j++)
                    if (gk_emit(p, out, &rv[j]) != 0) return -1;
            }
            i++;
            continue;
        }
        int k = m->func ? gk_param_index(m, bt) : -1;
        if (k >= 0) {
            gk_arg *ag = &args[k];
            if (paste_next || paste_prev) {
                for (size_t j = 0; j < ag->n; j++)
                    if (gk_emit(p, out, &ag->t[j]) != 0) return -1;
            } else {
                if (!ag->done) {
                    if (gk_expand(p, ag->t, ag->n, &ag->expanded) != 0) return -1;
                    ag->done = true;
                }
                for (size_t j = 0; j < ag->expanded.n; j++) {
                    gk_token t = ag->expanded.v[j];
                    if (j == 0) t.space = bt->space;
                    if (gk_emit(p, out, &t) != 0) return -1;
                }
            }
            continue;
        }
        gk_token t = *bt;
        t.pos = pos;
        t.bol = 0;
        if (gk_emit(p, out, &t) != 0) return -1;
    }
    return 0;
}

/* Expands in[0, n) into out (appending). */
static int gk_expand(gk_pp *p, const gk_token *in, size_t n, gk_toks *out)
{
    for (size_t i = 0; i < n; i++) {
        const gk_token *t = &in[i];
        gk_macro *m = t->kind == GK_IDENT && !t->blue ? gk_find(p, t->text, t->len) : NULL;
        if (t->kind == GK_IDENT && gk_tok_is(t, "__LINE__")) {
            char num[16];
            snprintf(num, sizeof num, "%u", t->pos.line);
            gk_token nt = *t;
            nt.kind = GK_NUMBER;
            nt.text = gk_strndup(p->a, num, strlen(num));
            nt.len = (uint32_t)strlen(num);
            if (!nt.text || gk_emit(p, out, &nt) != 0) return -1;
            continue;
        }
        if (!m || m->opaque) {
            if (gk_emit(p, out, t) != 0) return -1;
            continue;
        }
        if (gk_is_active(p, m)) {
            gk_token bt = *t;
            bt.blue = 1;
            if (gk_emit(p, out, &bt) != 0) return -1;
            continue;
        }
        if (p->depth >= GK_PP_MAX_DEPTH)
            return gk_fail(p, t->pos, "macros nest deeper than %s levels", "200");
        gk_toks subst = {0};
        if (m->func) {
            if (i + 1 >= n || !gk_tok_is(&in[i + 1], "(")) { /* a name, not a call */
                if (gk_emit(p, out, t) != 0) return -1;
                continue;
            }
            size_t j = i + 2, start = j;
            int depth = 0;
            size_t cap = m->nparams + 2, nargs = 0;
            gk_arg *args = gk_alloc(p->a, cap * sizeof *args);
            if (!args) return gk_fail(p, t->pos, "%s", "out of memory expanding macros");
            for (;; j++) {
                if (j >= n)
                    return gk_fail(p, t->pos, "the arguments of macro '%s' are never closed",
                                   gk_strndup(p->a, m->name, m->nlen));
                const gk_token *u = &in[j];
                if (gk_tok_is(u, "(")) depth++;
                bool close = gk_tok_is(u, ")") && depth == 0;
                if (gk_tok_is(u, ")") && !close) depth--;
                bool comma =
                    gk_tok_is(u, ",") && depth == 0 && !(m->variadic && nargs >= m->nparams);
                if (close || comma) {
                    if (nargs == cap) {
                        gk_arg *g = gk_alloc(p->a, 2 * cap * sizeof *g);
                        if (!g) return gk_fail(p, t->pos, "%s", "out of memory expanding macros");
                        memcpy(g, args, cap * sizeof *g);
                        args = g;
                        cap *= 2;
                    }
                    args[nargs].t = &in[start];
                    args[nargs].n = j - start;
                    nargs++;
                    start = j + 1;
                    if (close) break;
                }
            }
            size_t want = m->nparams + (m->variadic ? 1 : 0);
            if (nargs == 1 && args[0].n == 0 && m->nparams == 0) nargs = 0;
            if (m->variadic && nargs == m->nparams) nargs++; /* empty __VA_ARGS__ */
            if (nargs != want)
                return gk_fail(p, t->pos,
                               "macro '%s' is called with the wrong number of "
                               "arguments",
                               gk_strndup(p->a, m->name, m->nlen));
            if (gk_substitute(p, m, args, t->pos, &subst) != 0) return -1;
            i = j;
        } else {
            if (gk_substitute(p, m, NULL, t->pos, &subst) != 0) return -1;
        }
        if (subst.n) subst.v[0].space = t->space;
        p->active[p->depth++] = m;
        int rc = gk_expand(p, subst.v, subst.n, out);
        p->depth--;
        if (rc != 0) return -1;
    }
    return 0;
}

/* ---- #if expressions ------------------------------------------------------------------------ */
typedef struct gk_ev {
    const gk_token *t;
    size_t n, i;
    bool bad;
} gk_ev;

static const gk_token *gk_ev_peek(gk_ev *e)
{
    return e->i < e->n ? &e->t[e->i] : NULL;
}

static bool gk_ev_take(gk_ev *e, const char *s)
{
    const gk_token *t = gk_ev_peek(e);
    if (t && gk_tok_is(t, s)) {
        e->i++;
        return true;
    }
    return false;
}

static long long gk_ev_cond(gk_ev *e);

static long long gk_ev_primary(gk_ev *e)
{
    const gk_token *t = gk_ev_peek(e);
    if (!t) {
        e->bad = true;
        return 0;
    }
    e->i++;
    if (gk_tok_is(t, "(")) {
        long long v = gk_ev_cond(e);
        if (!gk_ev_take(e, ")")) e->bad = true;
        return v;
    }
    if (gk_tok_is(t, "-")) return -gk_ev_primary(e);
    if (gk_tok_is(t, "+")) return gk_ev_primary(e);
    if (gk_tok_is(t, "!")) return !gk_ev_primary(e);
    if (gk_tok_is(t, "~")) return ~gk_ev_primary(e);
    if (t->kind == GK_NUMBER) {
        char buf[64];
        size_t n = t->len < sizeof buf - 1 ? t->len : sizeof buf - 1;
        memcpy(buf, t->text, n);
        buf[n] = '\0';
        char *end;
        unsigned long long v = strtoull(buf, &end, 0);
        while (*end == 'u' || *end == 'U' || *end == 'l' || *end == 'L')
            end++;
        if (*end) e->bad = true;
        return (long long)v;
    }
    if (t->kind == GK_CHAR) {
        if (t->len >= 3 && t->text[1] != '\\') return (unsigned char)t->text[1];
        if (t->len >= 4) {
            switch (t->text[2]) {
            case 'n':
                return '\n';
            case 't':
                return '\t';
            case '0':
                return 0;
            default:
                return (unsigned char)t->text[2];
            }
        }
        e->bad = true;
        return 0;
    }
    if (t->kind == GK_IDENT) return 0; /* an unknown name is 0 */
    e->bad = true;
    return 0;
}

static long long gk_ev_bin(gk_ev *e, int level)
{
    const char *const *ops = gp_int_binop_level(level);
    if (!ops) return gk_ev_primary(e);
    long long v = gk_ev_bin(e, level + 1);
    for (;;) {
        const gk_token *t = gk_ev_peek(e);
        const char *op = NULL;
        for (int k = 0; t && ops[k]; k++)
            if (gk_tok_is(t, ops[k])) op = ops[k];
        if (!op) return v;
        e->i++;
        v = gp_int_binop(op, v, gk_ev_bin(e, level + 1), &e->bad);
    }
}

static long long gk_ev_cond(gk_ev *e)
{
    long long c = gk_ev_bin(e, 0);
    if (!gk_ev_take(e, "?")) return c;
    long long a = gk_ev_cond(e);
    if (!gk_ev_take(e, ":")) e->bad = true;
    long long b = gk_ev_cond(e);
    return c ? a : b;
}

/* Evaluates the #if line in[0, n) (defined() first, then macros). */
static int gk_if_value(gk_pp *p, const gk_token *in, size_t n, gk_pos pos, bool *value)
{
    gk_toks pre = {0};
    for (size_t i = 0; i < n; i++) {
        if (gk_tok_is(&in[i], "defined")) {
            size_t j = i + 1;
            bool paren = j < n && gk_tok_is(&in[j], "(");
            if (paren) j++;
            if (j >= n || in[j].kind != GK_IDENT)
                return gk_fail(p, pos, "%s", "'defined' needs a macro name");
            bool d = gk_find(p, in[j].text, in[j].len) != NULL;
            if (paren && (j + 1 >= n || !gk_tok_is(&in[j + 1], ")")))
                return gk_fail(p, pos, "%s", "'defined(' is never closed");
            gk_token one = in[i];
            one.kind = GK_NUMBER;
            one.text = d ? "1" : "0";
            one.len = 1;
            if (gk_emit(p, &pre, &one) != 0) return -1;
            i = paren ? j + 1 : j;
            continue;
        }
        if (gk_emit(p, &pre, &in[i]) != 0) return -1;
    }
    gk_toks ex = {0};
    if (gk_expand(p, pre.v, pre.n, &ex) != 0) return -1;
    gk_ev e = {ex.v, ex.n, 0, false};
    long long v = gk_ev_cond(&e);
    if (e.bad || e.i != e.n || ex.n == 0)
        return gk_fail(p, pos, "%s", "#if needs a constant integer expression");
    *value = v != 0;
    return 0;
}

/* ---- directives ----------------------------------------------------------------------------- */
static int gk_directive_define(gk_pp *p, const gk_token *t, size_t n, gk_pos pos)
{
    if (n == 0 || t[0].kind != GK_IDENT) return gk_fail(p, pos, "%s", "#define needs a macro name");
    if (gk_tok_is(&t[0], "defined")) return gk_fail(p, pos, "%s", "'defined' cannot be defined");
    gk_macro *m = gk_define(p, t[0].text, t[0].len);
    if (!m) return gk_fail(p, pos, "%s", "out of memory");
    size_t i = 1;
    if (n > 1 && gk_tok_is(&t[1], "(") && !t[1].space) {
        m->func = true;
        gk_token *ps = gk_alloc(p->a, n * sizeof *ps);
        if (!ps) return gk_fail(p, pos, "%s", "out of memory");
        i = 2;
        size_t np = 0;
        if (i < n && gk_tok_is(&t[i], ")")) {
            i++;
        } else {
            for (;;) {
                if (i < n && gk_tok_is(&t[i], "...")) {
                    m->variadic = true;
                    i++;
                } else if (i < n && t[i].kind == GK_IDENT) {
                    ps[np++] = t[i++];
                } else {
                    return gk_fail(p, pos, "%s", "a macro parameter must be a name");
                }
                if (i < n && gk_tok_is(&t[i], ")")) {
                    i++;
                    break;
                }
                if (m->variadic || i >= n || !gk_tok_is(&t[i], ","))
                    return gk_fail(p, pos, "%s", "malformed macro parameter list");
                i++;
            }
        }
        m->params = ps;
        m->nparams = np;
    }
    m->body = (gk_token *)&t[i];
    m->nbody = n - i;
    if (m->nbody && (gk_tok_is(&m->body[0], "##") || gk_tok_is(&m->body[m->nbody - 1], "##")))
        return gk_fail(p, pos, "%s", "'##' cannot start or end a macro");
    return 0;
}

typedef struct gk_cond {
    bool active; /* this branch is taken */
    bool taken;  /* some branch of this #if was taken */
    bool parent; /* the enclosing region is active */
    bool in_else;
    gk_pos pos;
} gk_cond;

int gk_preprocess(gk_arena *a, const char *src, size_t len, const char *source_name,
                  const char *const *defines, uint32_t ndefines, gk_toks *out, gk_files *files,
                  char *err, size_t errlen)
{
    gk_pp *p = calloc(1, sizeof *p);
    if (!p) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    p->a = a;
    p->files = files;
    p->err = err;
    p->errlen = errlen;
    files->names = gk_alloc(a, 64 * sizeof(char *));
    if (!files->names) {
        free(p);
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    files->names[0] = gk_strndup(a, source_name, strlen(source_name));
    files->n = 1;
    for (size_t i = 0; i < sizeof gk_prelude_macros / sizeof *gk_prelude_macros; i++) {
        gk_macro *m = gk_define(p, gk_prelude_macros[i], strlen(gk_prelude_macros[i]));
        if (m) m->opaque = true;
    }
    static const char *const predef[] = {"GP_TARGET_CPU=1", "GP_DIALECT=1"};
    int rc = 0;
    for (uint32_t k = 0; k < 2 + ndefines && rc == 0; k++) {
        const char *d = k < 2 ? predef[k] : defines[k - 2];
        if (!d) continue;
        const char *eq = strchr(d, '=');
        size_t nl = eq ? (size_t)(eq - d) : strlen(d);
        char *name = gk_strndup(a, d, nl);
        const char *val = eq ? eq + 1 : "1";
        gk_toks vt = {0};
        char lerr[200];
        gk_macro *m = name ? gk_define(p, name, nl) : NULL;
        if (!m || gk_lex(a, val, strlen(val), 0, &vt, lerr, sizeof lerr) != 0) {
            snprintf(err, errlen, "%s: the define '%s' cannot be read", source_name, d);
            rc = -1;
            break;
        }
        for (size_t j = 0; j < vt.n; j++)
            vt.v[j].bol = 0;
        m->body = vt.v;
        m->nbody = vt.n;
    }
    gk_toks in = {0};
    char lerr[256];
    if (rc == 0 && gk_lex(a, src, len, 0, &in, lerr, sizeof lerr) != 0) {
        snprintf(err, errlen, "%s:%s", source_name, lerr);
        rc = -1;
    }
    gk_cond conds[GK_PP_MAX_IFS];
    int nconds = 0;
    bool active = true;
    int32_t line_delta = 0; /* #line: the line the source claims minus the physical one */
    uint16_t cur_file = 0;
    size_t i = 0;
    while (rc == 0 && i < in.n) {
        /* one logical line */
        size_t e = i + 1;
        while (e < in.n && !in.v[e].bol)
            e++;
        for (size_t k = i; k < e; k++) {
            in.v[k].pos.line = (uint32_t)((int32_t)in.v[k].pos.line + line_delta);
            in.v[k].pos.file = cur_file;
        }
        gk_token *t = &in.v[i];
        if (!gk_tok_is(t, "#")) {
            /* text lines up to the next directive, expanded together (a call may span lines) */
            size_t end = e;
            while (end < in.n && !(in.v[end].bol && gk_tok_is(&in.v[end], "#"))) {
                size_t le = end + 1;
                while (le < in.n && !in.v[le].bol)
                    le++;
                for (size_t k = end; k < le; k++) {
                    in.v[k].pos.line = (uint32_t)((int32_t)in.v[k].pos.line + line_delta);
                    in.v[k].pos.file = cur_file;
                }
                end = le;
            }
            if (active && gk_expand(p, &in.v[i], end - i, out) != 0) rc = -1;
            i = end;
            continue;
        }
        gk_pos pos = t->pos;
        const gk_token *d = i + 1 < e ? &in.v[i + 1] : NULL;
        const gk_token *rest = d ? d + 1 : NULL;
        size_t nrest = d ? e - i - 2 : 0;
        i = e;
        if (!d) continue; /* the null directive */
        if (gk_tok_is(d, "if") || gk_tok_is(d, "ifdef") || gk_tok_is(d, "ifndef")) {
            if (nconds == GK_PP_MAX_IFS) {
                rc = gk_fail(p, pos, "%s", "#if nests deeper than 256 levels");
                break;
            }
            bool v = false;
            if (active) {
                if (gk_tok_is(d, "if")) {
                    if (gk_if_value(p, rest, nrest, pos, &v) != 0) {
                        rc = -1;
                        break;
                    }
                } else {
                    if (nrest < 1 || rest[0].kind != GK_IDENT) {
                        rc = gk_fail(p, pos, "%s", "#ifdef needs a macro name");
                        break;
                    }
                    v = gk_find(p, rest[0].text, rest[0].len) != NULL;
                    if (gk_tok_is(d, "ifndef")) v = !v;
                }
            }
            conds[nconds++] = (gk_cond){active && v, v, active, false, pos};
            active = active && v;
        } else if (gk_tok_is(d, "elif") || gk_tok_is(d, "else")) {
            if (!nconds || conds[nconds - 1].in_else) {
                rc = gk_fail(p, pos, "#%s without #if", gk_tok_is(d, "else") ? "else" : "elif");
                break;
            }
            gk_cond *c = &conds[nconds - 1];
            bool v = false;
            if (c->parent && !c->taken) {
                if (gk_tok_is(d, "else")) {
                    v = true;
                } else if (gk_if_value(p, rest, nrest, pos, &v) != 0) {
                    rc = -1;
                    break;
                }
            }
            if (gk_tok_is(d, "else")) c->in_else = true;
            c->active = c->parent && !c->taken && v;
            c->taken = c->taken || c->active;
            active = c->active;
        } else if (gk_tok_is(d, "endif")) {
            if (!nconds) {
                rc = gk_fail(p, pos, "%s", "#endif without #if");
                break;
            }
            active = conds[--nconds].parent;
        } else if (!active) {
            continue;
        } else if (gk_tok_is(d, "define")) {
            if (gk_directive_define(p, rest, nrest, pos) != 0) rc = -1;
        } else if (gk_tok_is(d, "undef")) {
            if (nrest < 1 || rest[0].kind != GK_IDENT)
                rc = gk_fail(p, pos, "%s", "#undef needs a macro name");
            else
                gk_undef(p, rest[0].text, rest[0].len);
        } else if (gk_tok_is(d, "error")) {
            gp_strbuf sb = GP_STRBUF_INIT;
            for (size_t k = 0; k < nrest; k++)
                gp_strbuf_printf(&sb, "%s%.*s", k && rest[k].space ? " " : "", (int)rest[k].len,
                                 rest[k].text);
            rc = gk_fail(p, pos, "#error %s", gp_strbuf_cstr(&sb));
            gp_strbuf_free(&sb);
        } else if (gk_tok_is(d, "include")) {
            rc = gk_fail(p, pos, "%s",
                         "#include is not part of the kernel dialect (the prelude provides "
                         "the types and functions kernels use)");
        } else if (gk_tok_is(d, "line")) {
            if (nrest < 1 || rest[0].kind != GK_NUMBER) {
                rc = gk_fail(p, pos, "%s", "#line needs a line number");
                break;
            }
            long v = strtol(rest[0].text, NULL, 10);
            if (v < 1 || v > 100000000) {
                rc = gk_fail(p, pos, "%s", "#line number out of range");
                break;
            }
            /* the next physical line is line v */
            uint32_t phys_next = pos.line - (uint32_t)line_delta + 1;
            line_delta = (int32_t)(v - (long)phys_next);
            if (nrest >= 2 && rest[1].kind == GK_STRING && rest[1].len >= 2) {
                if (files->n >= 64) {
                    rc = gk_fail(p, pos, "%s", "more than 64 #line file names");
                    break;
                }
                files->names[files->n] = gk_strndup(a, rest[1].text + 1, rest[1].len - 2);
                cur_file = (uint16_t)files->n++;
            }
        } else if (gk_tok_is(d, "pragma") || gk_tok_is(d, "warning")) {
            /* pragmas (unroll hints) change no meaning; warnings are the compiler's to print */
        } else {
            rc = gk_fail(p, pos, "unknown directive #%s", gk_strndup(a, d->text, d->len));
        }
    }
    if (rc == 0 && nconds)
        rc = gk_fail(p, conds[nconds - 1].pos, "%s", "#if is never closed with #endif");
    if (rc == 0 && a->failed) {
        snprintf(err, errlen, "%s: out of memory preprocessing", source_name);
        rc = -1;
    }
    free(p);
    return rc;
}
