/* launch.c — how the file's host code launches each kernel: the <<<grid, block, shared>>> of its
 * first launch site (dim3 variables followed to their definitions, constants evaluated where the
 * file gives them), the call's arguments and the element counts of the buffers they name (from
 * their cudaMalloc), for the report, a comment in the output and a ready `gpuport run` line. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "translate/lower.h"
#include "translate/parser.h"
#include "translate/pp.h"
#include "util/strbuf.h"

enum { MAX_ARGS = 32 };

static bool is(const tr_token *t, const char *s)
{
    return !strcmp(t->text, s);
}

/* The tokens [b, e) as text: spaces between words and around operators, none inside brackets. */
static char *text_of(tr_unit *u, const tr_token *t, size_t b, size_t e)
{
    gp_strbuf sb = GP_STRBUF_INIT;
    for (size_t i = b; i < e; i++) {
        bool tight =
            i == b || is(&t[i], ")") || is(&t[i], "]") || is(&t[i], ",") || is(&t[i - 1], "(") ||
            is(&t[i - 1], "[") || (is(&t[i], "(") && t[i - 1].kind == TR_IDENT) || is(&t[i], ".") ||
            is(&t[i - 1], ".") || is(&t[i - 1], "&") || is(&t[i], "->") || is(&t[i - 1], "->");
        if (!tight) gp_strbuf_putc(&sb, ' ');
        gp_strbuf_puts(&sb, t[i].text);
    }
    char *out = tr_strdup(u, gp_strbuf_cstr(&sb));
    gp_strbuf_free(&sb);
    return out;
}

/* The value of the integer expression [b, e) when the file fixes it (numbers, kept macros, host
 * constants), as text; otherwise the expression as written. */
static char *value_of(parser *p, const tr_token *t, size_t b, size_t e)
{
    tr_tokens x = {0};
    bool ok = e > b;
    for (size_t i = b; ok && i < e; i++) {
        tr_token c = t[i];
        if (c.kind == TR_IDENT && is(&c, "sizeof") && i + 3 < e + 1 && is(&t[i + 1], "(") &&
            is(&t[i + 3], ")")) {
            /* sizeof(float): the sizes every target agrees on */
            static const char *const sizes[][2] = {
                {"char", "1"},    {"short", "2"},    {"int", "4"},     {"unsigned", "4"},
                {"float", "4"},   {"double", "8"},   {"int32_t", "4"}, {"uint32_t", "4"},
                {"int64_t", "8"}, {"uint64_t", "8"}, {"size_t", "8"}};
            const char *v = NULL;
            for (size_t k = 0; !v && k < sizeof sizes / sizeof *sizes; k++)
                if (is(&t[i + 2], sizes[k][0])) v = sizes[k][1];
            if (!v) {
                ok = false;
                break;
            }
            tr_token num = c;
            num.kind = TR_NUMBER;
            num.text = (char *)v;
            ok = tr_tokens_push(&x, &num) == 0;
            i += 3;
            continue;
        }
        if (c.kind == TR_IDENT) {
            const char *v = is(&c, "true") ? "1" : is(&c, "false") ? "0" : NULL;
            for (size_t k = 0; !v && k < p->u->pp.nkept; k++)
                if (!strcmp(p->u->pp.kept[k].name, c.text)) v = p->u->pp.kept[k].body;
            if (!v) v = tp_host_const_value(p, c.text);
            if (!v) {
                ok = false;
                break;
            }
            tr_tokens lexed = {0};
            char err[64];
            ok = tr_lex("<value>", -1, v, strlen(v), &lexed, err, sizeof err) == 0;
            for (size_t q = 0; ok && q + 1 < lexed.n; q++)
                ok = tr_tokens_push(&x, &lexed.v[q]) == 0;
            tr_tokens_free(&lexed);
            continue;
        }
        /* 256u, 1024L: the number */
        ok = tr_tokens_push(&x, &c) == 0;
    }
    long long v = 0;
    ok = ok && tr_const_eval(x.v, x.n, &v);
    tr_tokens_free(&x);
    if (!ok) return text_of(p->u, t, b, e);
    char num[32];
    snprintf(num, sizeof num, "%lld", v);
    return tr_strdup(p->u, num);
}

/* Splits [b, e) at top-level commas: the starts of up to cap parts in at[], their ends in to[]. */
static int split(const tr_token *t, size_t b, size_t e, size_t *at, size_t *to, int cap)
{
    int n = 0, depth = 0;
    size_t s = b;
    for (size_t i = b; i <= e; i++) {
        if (i < e && (is(&t[i], "(") || is(&t[i], "[") || is(&t[i], "{"))) depth++;
        if (i < e && (is(&t[i], ")") || is(&t[i], "]") || is(&t[i], "}"))) depth--;
        if (i == e || (depth == 0 && is(&t[i], ","))) {
            if (i > s && n < cap) {
                at[n] = s;
                to[n++] = i;
            }
            s = i + 1;
        }
    }
    return n;
}

size_t tr_closing(const tr_token *t, size_t i, size_t n)
{
    int depth = 0;
    for (; i < n; i++) {
        if (is(&t[i], "(") || is(&t[i], "{") || is(&t[i], "[")) depth++;
        if ((is(&t[i], ")") || is(&t[i], "}") || is(&t[i], "]")) && --depth == 0) return i;
    }
    return n;
}

/* A launch's grid or block: a dim3 variable's dimensions (its last definition before the launch),
 * `dim3(a, b)`, or one expression. */
static void dims_of(parser *p, size_t b, size_t e, size_t before, char **out)
{
    const tr_token *t = p->lt;
    size_t at[3], to[3];
    for (int d = 0; d < 3; d++)
        out[d] = NULL;
    if (e == b + 1 && t[b].kind == TR_IDENT) {
        for (size_t i = before; i-- > 1;) {
            if (!is(&t[i], t[b].text)) continue;
            /* dim3 NAME(...), or a later declarator of the same statement: dim3 a(...), NAME(...)
             */
            bool decl = is(&t[i - 1], "dim3");
            for (size_t k = i - 1; !decl && is(&t[i - 1], ",") && k > 0; k--) {
                if (is(&t[k], ";") || is(&t[k], "{") || is(&t[k], "}")) break;
                if (is(&t[k], "dim3") && (is(&t[k - 1], ";") || is(&t[k - 1], "{") ||
                                          is(&t[k - 1], "}") || is(&t[k - 1], "const")))
                    decl = true;
            }
            if (!decl) continue;
            size_t k = i + 1;
            if (is(&t[k], "=") && is(&t[k + 1], "dim3")) k += 2;
            if (!is(&t[k], "(") && !is(&t[k], "{")) break;
            size_t c = tr_closing(t, k, before);
            int n = split(t, k + 1, c, at, to, 3);
            for (int d = 0; d < n; d++)
                out[d] = value_of(p, t, at[d], to[d]);
            return;
        }
    }
    if (e > b + 1 && is(&t[b], "dim3") && (is(&t[b + 1], "(") || is(&t[b + 1], "{"))) {
        int n = split(t, b + 2, e - 1, at, to, 3);
        for (int d = 0; d < n; d++)
            out[d] = value_of(p, t, at[d], to[d]);
        return;
    }
    out[0] = value_of(p, t, b, e);
}

/* The element count of the buffer `name` from its `cudaMalloc(&name, BYTES)`: BYTES without its
 * `* sizeof(T)` factor (through one variable: `size_t bytes = n * sizeof(float);`). */
static char *count_of(parser *p, const char *name)
{
    const tr_token *t = p->u->pp.toks.v;
    size_t n = p->u->pp.toks.n;
    for (size_t i = 0; i + 4 < n; i++) {
        if (t[i].kind != TR_IDENT ||
            (strcmp(t[i].text, "cudaMalloc") && strcmp(t[i].text, "cudaMallocManaged")) ||
            !is(&t[i + 1], "("))
            continue;
        size_t c = tr_closing(t, i + 1, n), at[4], to[4];
        int na = split(t, i + 2, c, at, to, 4);
        if (na < 2) continue;
        bool named = false;
        for (size_t k = at[0]; k + 1 < to[0]; k++)
            named |= is(&t[k], "&") && is(&t[k + 1], name) && k + 2 == to[0];
        if (!named) continue;
        size_t b = at[1], e = to[1];
        for (int hop = 0; hop < 2; hop++) {
            /* BYTES = COUNT * sizeof(T) or sizeof(T) * COUNT */
            for (size_t k = b; k + 1 < e; k++) {
                if (!is(&t[k], "sizeof") || !is(&t[k + 1], "(")) continue;
                size_t sc = tr_closing(t, k + 1, e);
                if (sc >= e) break;
                if (k > b && is(&t[k - 1], "*") && sc + 1 == e) return value_of(p, t, b, k - 1);
                if (k == b && sc + 1 < e && is(&t[sc + 1], "*")) return value_of(p, t, sc + 2, e);
                break;
            }
            if (e != b + 1 || t[b].kind != TR_IDENT || hop) break;
            /* one variable: its initialiser */
            size_t d = 0;
            for (size_t k = 1; k + 1 < n && !d; k++)
                if (is(&t[k], t[b].text) && is(&t[k + 1], "=") && t[k - 1].kind == TR_IDENT) d = k;
            if (!d) break;
            size_t end = d + 2;
            while (end < n && !is(&t[end], ";"))
                end++;
            b = d + 2;
            e = end;
        }
        return NULL;
    }
    return NULL;
}

/* A dimension of a launch's block as a number: NULL is 1; text the file does not fix, -1. */
static long long block_dim(const char *v)
{
    if (!v) return 1;
    char *end;
    long long n = strtoll(v, &end, 10);
    return end != v && !*end && n > 0 && n <= 4096 ? n : -1;
}

/* Every launch's block: the one they all give, when it is the same constant. */
static void note_block(parser *p, tr_func *f, size_t name_at, size_t cfg, size_t cfg_end)
{
    const tr_token *t = p->lt;
    size_t at[4], to[4];
    char *blk[3] = {NULL, NULL, NULL};
    int n = split(t, cfg, cfg_end, at, to, 4);
    if (n >= 2) dims_of(p, at[1], to[1], name_at, blk);
    long long v[3];
    bool fixed = n >= 2;
    for (int d = 0; d < 3; d++)
        fixed &= (v[d] = block_dim(blk[d])) > 0;
    if (f->block_varies) return;
    if (!fixed || (f->block_known && memcmp(f->block, v, sizeof v) != 0)) {
        f->block_known = false;
        f->block_varies = true;
        return;
    }
    memcpy(f->block, v, sizeof v);
    f->block_known = true;
}

static void record(parser *p, tr_func *f, size_t name_at, size_t cfg, size_t cfg_end, size_t call,
                   size_t call_end)
{
    const tr_token *t = p->lt;
    note_block(p, f, name_at, cfg, cfg_end);
    if (f->nlaunches++) return; /* the first launch is the one shown */
    tr_launch *l = tr_alloc(p->u, sizeof *l);
    l->file = t[name_at].file;
    l->line = t[name_at].line;
    size_t at[MAX_ARGS], to[MAX_ARGS];
    int n = split(t, cfg, cfg_end, at, to, 4);
    if (n >= 1) dims_of(p, at[0], to[0], name_at, l->grid);
    if (n >= 2) dims_of(p, at[1], to[1], name_at, l->block);
    if (n >= 3) l->shared = value_of(p, t, at[2], to[2]);
    n = split(t, call, call_end, at, to, MAX_ARGS);
    l->args = tr_alloc(p->u, (size_t)(n ? n : 1) * sizeof *l->args);
    l->arg_counts = tr_alloc(p->u, (size_t)(n ? n : 1) * sizeof *l->arg_counts);
    l->nargs = n;
    for (int i = 0; i < n; i++) {
        l->args[i] = value_of(p, t, at[i], to[i]);
        l->arg_counts[i] =
            to[i] == at[i] + 1 && t[at[i]].kind == TR_IDENT ? count_of(p, t[at[i]].text) : NULL;
    }
    f->launch = l;
}

/* A template id in the form both sides of a comparison agree on: the words of `k<Sum<float>,
 * true, 3>` and `k<Sum_float, 1, 3>` alike, `true`/`false` as 1/0, whatever separates them as
 * one '_' (`k_Sum_float_1_3`). */
static void canon_id(const char *in, char *out, size_t cap)
{
    size_t k = 0;
    for (const char *c = in; *c && k + 4 < cap;) {
        if (!isalnum((unsigned char)*c) && *c != '_') {
            if (k && out[k - 1] != '_') out[k++] = '_';
            if (*c == '*' || *c == '-') { /* k<float *> is not k<float>, k<-1> not k<1> */
                out[k++] = *c == '*' ? 'p' : 'm';
                out[k++] = '_';
            }
            c++;
            continue;
        }
        size_t n = 0;
        while (isalnum((unsigned char)c[n]) || c[n] == '_')
            n++;
        const char *w = n == 4 && !strncmp(c, "true", 4)    ? "1"
                        : n == 5 && !strncmp(c, "false", 5) ? "0"
                                                            : NULL;
        size_t wl = w ? 1 : n;
        if (k + wl + 1 >= cap) break;
        memcpy(out + k, w ? w : c, wl);
        k += wl;
        c += n;
    }
    while (k && out[k - 1] == '_')
        k--;
    out[k] = '\0';
}

/* The kernel a launch of `name` (with template arguments [ta, te), or none) runs: the one
 * kernel of that name, or the template instance with those arguments. */
static tr_func *launched(parser *p, const char *name, size_t ta, size_t te)
{
    tr_unit *u = p->u;
    tr_func *one = NULL;
    int n = 0;
    char id[256] = "";
    if (te > ta) {
        const tr_token *t = p->lt;
        size_t at[TR_MAX_TPARAMS], to[TR_MAX_TPARAMS];
        size_t k = (size_t)snprintf(id, sizeof id, "%s<", name);
        int na = split(t, ta, te, at, to, TR_MAX_TPARAMS);
        for (int i = 0; i < na && k < sizeof id; i++) {
            const char *v = value_of(p, t, at[i], to[i]);
            k += (size_t)snprintf(id + k, sizeof id - k, "%s%s", i ? ", " : "", v);
        }
        if (k < sizeof id) snprintf(id + k, sizeof id - k, ">");
    }
    char want[512], have[512];
    canon_id(id, want, sizeof want);
    for (int i = 0; i < u->nfuncs; i++) {
        tr_func *f = u->funcs[i];
        if (f->kind != TR_F_GLOBAL || !f->body) continue;
        if (te > ta && f->template_id) canon_id(f->template_id, have, sizeof have);
        bool match = te > ta ? f->template_id && !strcmp(have, want)
                             : !f->template_id && !strcmp(f->name, name);
        if (match) {
            one = f;
            n++;
        }
    }
    return n == 1 ? one : NULL; /* overloads: not told apart here */
}

static void scan_launches(parser *p, const tr_token *t, size_t n)
{
    p->lt = t, p->nlt = n;
    for (size_t i = 0; i + 3 < n; i++) {
        if (t[i].kind != TR_IDENT) continue;
        size_t k = i + 1, ta = 0, te = 0;
        if (is(&t[k], "<")) { /* template arguments */
            int depth = 0;
            ta = k + 1;
            for (; k < n; k++) {
                if (is(&t[k], "<")) depth++;
                if (is(&t[k], ">") && --depth == 0) break;
                if (is(&t[k], ";") || is(&t[k], "{")) break;
            }
            if (k >= n || !is(&t[k], ">")) continue;
            te = k++;
        }
        if (k + 1 >= n || !is(&t[k], "<<") || !is(&t[k + 1], "<")) continue;
        size_t cfg = k + 2, e = cfg;
        int depth = 0;
        for (; e + 1 < n; e++) {
            if (is(&t[e], "(") || is(&t[e], "[")) depth++;
            if (is(&t[e], ")") || is(&t[e], "]")) depth--;
            if (depth == 0 && is(&t[e], ">>") && is(&t[e + 1], ">")) break;
            if (is(&t[e], ";")) break;
        }
        if (e + 2 >= n || !is(&t[e], ">>") || !is(&t[e + 2], "(")) continue;
        size_t call = e + 3, call_end = tr_closing(t, e + 2, n);
        if (call_end >= n) continue;
        tr_func *f = launched(p, t[i].text, ta, te);
        if (f) record(p, f, i, cfg, e, call, call_end);
        i = call_end;
    }
}

void tp_scan_launches(parser *p)
{
    scan_launches(p, p->u->pp.toks.v, p->u->pp.toks.n);
    /* launches in host template bodies, their arguments in place (`scan<T, N><<<g, N / 2>>>` in
     * the body `run<float, 128>` makes) */
    for (int i = 0; i < p->nhost_bodies; i++) {
        scan_launches(p, p->host_bodies[i].v, p->host_bodies[i].n);
        tr_tokens_free(&p->host_bodies[i]);
    }
    free(p->host_bodies);
    p->host_bodies = NULL;
    p->nhost_bodies = 0;
    p->lt = p->u->pp.toks.v, p->nlt = p->u->pp.toks.n;
}

/* ---- what the report and the output say of a launch -------------------------------------- */
static void put_dims(gp_strbuf *sb, char *const *d)
{
    int n = d[2] ? 3 : d[1] ? 2 : 1;
    if (n > 1) gp_strbuf_puts(sb, "dim3(");
    for (int i = 0; i < n; i++)
        gp_strbuf_printf(sb, "%s%s", i ? ", " : "", d[i] ? d[i] : "1");
    if (n > 1) gp_strbuf_putc(sb, ')');
}

char *tr_launch_config(tr_unit *u, const tr_launch *l)
{
    gp_strbuf sb = GP_STRBUF_INIT;
    gp_strbuf_puts(&sb, "<<<");
    put_dims(&sb, l->grid);
    gp_strbuf_puts(&sb, ", ");
    put_dims(&sb, l->block);
    if (l->shared) gp_strbuf_printf(&sb, ", %s", l->shared);
    gp_strbuf_puts(&sb, ">>>");
    char *out = tr_strdup(u, gp_strbuf_cstr(&sb));
    gp_strbuf_free(&sb);
    return out;
}

static bool number(const char *s, bool integer)
{
    char *e = NULL;
    if (!s || !*s) return false;
    if (integer) {
        (void)strtoll(s, &e, 0);
    } else {
        (void)strtod(s, &e);
        if (e && (*e == 'f' || *e == 'F')) e++;
    }
    return e && !*e;
}

/* A placeholder for what the file does not fix: '<what>' (quoted for the shell). */
static void put_value(gp_strbuf *sb, const char *v, bool integer)
{
    if (number(v, integer)) {
        gp_strbuf_puts(sb, v);
        return;
    }
    gp_strbuf_puts(sb, "'<");
    for (const char *c = v ? v : "?"; *c; c++)
        if (*c != '\'') gp_strbuf_putc(sb, *c);
    gp_strbuf_puts(sb, ">'");
}

char *tr_run_line(tr_unit *u, const tr_func *f, const tr_param_info *params, int nparams,
                  const char *gpk)
{
    const tr_launch *l = f->launch;
    gp_strbuf sb = GP_STRBUF_INIT;
    gp_strbuf_printf(&sb, "gpuport run %s %s --global ", gpk, f->name);
    int nd = 1;
    for (int d = 1; d < 3; d++)
        if (l && (l->grid[d] || l->block[d])) nd = d + 1;
    for (int d = 0; d < nd; d++) {
        const char *g = l && l->grid[d] ? l->grid[d] : "1",
                   *b = l && l->block[d] ? l->block[d] : "1";
        if (d) gp_strbuf_putc(&sb, ',');
        if (!l) {
            gp_strbuf_puts(&sb, "'<work-items>'");
        } else if (number(g, true) && number(b, true)) {
            gp_strbuf_printf(&sb, "%lld", strtoll(g, NULL, 0) * strtoll(b, NULL, 0));
        } else {
            char both[600];
            snprintf(both, sizeof both, "(%s) * (%s)", g, b);
            put_value(&sb, both, true);
        }
    }
    if (l) {
        gp_strbuf_puts(&sb, " --group ");
        for (int d = 0; d < nd; d++) {
            if (d) gp_strbuf_putc(&sb, ',');
            put_value(&sb, l->block[d] ? l->block[d] : "1", true);
        }
    }
    for (int i = 0; i < nparams; i++) {
        const tr_param_info *p = &params[i];
        const char *arg = l && i < f->nparams && i < l->nargs ? l->args[i] : NULL;
        const char *count = l && i < f->nparams && i < l->nargs ? l->arg_counts[i] : NULL;
        gp_strbuf_printf(&sb, " %s=", p->name);
        if (!strcmp(p->kind, "GP_DYN_SHARED")) {
            gp_strbuf_puts(&sb, "shared:");
            put_value(&sb, l && l->shared ? l->shared : "bytes", true);
        } else if (!strcmp(p->kind, "GP_VAL")) {
            char v[256];
            snprintf(v, sizeof v, "%s", arg ? arg : p->name);
            size_t n = strlen(v); /* 2.0f: the number */
            if (n > 1 && (v[n - 1] == 'f' || v[n - 1] == 'F') && number(v, false)) v[n - 1] = 0;
            put_value(&sb, v, false);
        } else if (tp_find_struct(u, p->type)) { /* records gpuport run cannot make */
            put_value(&sb, "a buffer of its records", true);
        } else if (i >= f->nparams) { /* data the host fills (__constant__, __device__) */
            put_value(&sb, "a .npy of its data", true);
        } else {
            gp_strbuf_puts(&sb, !strcmp(p->kind, "GP_CBUF") ? "ones:" : "zeros:");
            put_value(&sb, count ? count : "elements", true);
        }
    }
    char *out = tr_strdup(u, gp_strbuf_cstr(&sb));
    gp_strbuf_free(&sb);
    return out;
}
