/* overload.c — C++ overloads in C: same-named kernels and device functions (and functions named
 * like a built-in the dialect maps, which would hide it) get names of their own, made of their
 * parameter types; each call goes to the overload its arguments choose, or is refused. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "translate/lower_impl.h"
#include "translate/map.h"

static bool defined(const tr_func *f)
{
    return f->body || f->refused;
}

/* name_float_intp: the source name, then each parameter's type ('p' per pointer level) */
static char *overload_name(tr_unit *u, const tr_func *f)
{
    gp_strbuf b = GP_STRBUF_INIT;
    gp_strbuf_puts(&b, f->name);
    for (int i = 0; i < f->nparams; i++) {
        const tr_type *t = &f->params[i]->type;
        gp_strbuf_putc(&b, '_');
        for (const char *c = t->base; *c; c++)
            gp_strbuf_putc(&b, *c == ' ' ? '_' : *c);
        for (int k = 0; k < t->nptr; k++)
            gp_strbuf_putc(&b, 'p');
    }
    if (!f->nparams) gp_strbuf_puts(&b, "_void");
    char *out = tr_strdup(u, gp_strbuf_cstr(&b));
    gp_strbuf_free(&b);
    return out;
}

bool tl_is_overloaded(const tr_unit *u, const char *name)
{
    for (int i = 0; i < u->nfuncs; i++)
        if (u->funcs[i]->src_name && !strcmp(u->funcs[i]->src_name, name)) return true;
    return false;
}

/* The one renamed overload of `name` that takes n arguments (NULL: none or several); *count
 * says how many do. */
static tr_func *by_arity(const tr_unit *u, const char *name, int n, int *count)
{
    tr_func *one = NULL;
    *count = 0;
    for (int i = 0; i < u->nfuncs; i++) {
        tr_func *f = u->funcs[i];
        if (f->src_name && !strcmp(f->src_name, name) && f->nparams == n) {
            one = f;
            ++*count;
        }
    }
    return *count == 1 ? one : NULL;
}

/* An argument that cannot go to a vector parameter: a number, a component (v.x), a scalar
 * variable. */
static bool plainly_scalar(const tr_expr *a)
{
    if (a->kind == TR_E_NUM) return true;
    if (a->kind == TR_E_MEMBER && a->name && strlen(a->name) == 1 && strchr("xyzw", a->name[0]))
        return true;
    if (a->kind == TR_E_IDENT && a->sym && !a->sym->type.nptr && !a->sym->ndims)
        return tl_base_vt(a->sym->type.base) != TR_VT_VEC &&
               tl_base_vt(a->sym->type.base) != TR_VT_UNKNOWN;
    return false;
}

/* min(a.x, b.x) in a file that overloads min on vectors (helper_math.h) is CUDA's own min: no
 * overload can take a scalar where it has a vector. Named so here, before any analysis walks
 * every overload of the name for it. */
static void builtin_minmax(const tr_unit *u, tr_expr *e)
{
    const char *n = e->a->text;
    if (e->nargs != 2 || (strcmp(n, "min") && strcmp(n, "max"))) return;
    for (int i = 0; i < u->nfuncs; i++) {
        const tr_func *f = u->funcs[i];
        if (!f->src_name || strcmp(f->src_name, n) || f->nparams != 2) continue;
        bool impossible = false;
        for (int k = 0; k < 2 && !impossible; k++)
            impossible = !f->params[k]->type.nptr &&
                         tl_base_vt(f->params[k]->type.base) == TR_VT_VEC &&
                         plainly_scalar(e->args[k]);
        if (!impossible) return;
    }
    e->a->text = (char *)(n[1] == 'i' ? "gp__min" : "gp__max");
}

static void arity_calls(const tr_unit *u, tr_expr *e)
{
    if (!e) return;
    if (e->kind == TR_E_CALL && e->a && e->a->kind == TR_E_IDENT && !e->a->sym &&
        tl_is_overloaded(u, e->a->text))
        builtin_minmax(u, e);
    if (e->kind == TR_E_CALL && e->a && e->a->kind == TR_E_IDENT && !e->a->sym &&
        tl_is_overloaded(u, e->a->text)) {
        int n = 0;
        tr_func *g = by_arity(u, e->a->text, e->nargs, &n);
        const tr_callmap *m = tr_map_call(e->a->text);
        /* the only overload that takes this many arguments, and no built-in that does */
        if (g && !(m && (m->arity < 0 || m->arity == e->nargs))) e->a->text = g->name;
    }
    arity_calls(u, e->a);
    arity_calls(u, e->b);
    arity_calls(u, e->c);
    for (int i = 0; i < e->nargs; i++)
        arity_calls(u, e->args[i]);
}

static void arity_calls_stmt(const tr_unit *u, tr_stmt *s)
{
    if (!s) return;
    arity_calls(u, s->e);
    arity_calls(u, s->cond);
    arity_calls(u, s->step);
    for (int i = 0; i < s->ndecls; i++)
        arity_calls(u, s->decls[i].init);
    arity_calls_stmt(u, s->init);
    arity_calls_stmt(u, s->body);
    arity_calls_stmt(u, s->els);
    for (int i = 0; i < s->n; i++)
        arity_calls_stmt(u, s->list[i]);
}

/* Calls that leave out trailing parameters with default values get those values. */
static void default_calls(tr_unit *u, tr_expr *e)
{
    if (!e) return;
    if (e->kind == TR_E_CALL && e->a && e->a->kind == TR_E_IDENT && !e->a->sym) {
        tr_func *g = NULL;
        int n = 0;
        for (int i = 0; i < u->nfuncs; i++)
            if (defined(u->funcs[i]) && !strcmp(u->funcs[i]->name, e->a->text))
                g = u->funcs[i], n++;
        bool fill = n == 1 && e->nargs < g->nparams;
        for (int k = e->nargs; fill && k < g->nparams; k++)
            fill = g->params[k]->init != NULL;
        if (fill) {
            tr_expr **a = tr_alloc(u, (size_t)g->nparams * sizeof *a);
            if (e->nargs) memcpy(a, e->args, (size_t)e->nargs * sizeof *a);
            for (int k = e->nargs; k < g->nparams; k++)
                a[k] = g->params[k]->init;
            e->args = a;
            e->nargs = g->nparams;
        }
    }
    default_calls(u, e->a);
    default_calls(u, e->b);
    default_calls(u, e->c);
    for (int i = 0; i < e->nargs; i++)
        default_calls(u, e->args[i]);
}

static void default_calls_stmt(tr_unit *u, tr_stmt *s)
{
    if (!s) return;
    default_calls(u, s->e);
    default_calls(u, s->cond);
    default_calls(u, s->step);
    for (int i = 0; i < s->ndecls; i++)
        default_calls(u, s->decls[i].init);
    default_calls_stmt(u, s->init);
    default_calls_stmt(u, s->body);
    default_calls_stmt(u, s->els);
    for (int i = 0; i < s->n; i++)
        default_calls_stmt(u, s->list[i]);
}

void tr_rename_overloads(tr_unit *u)
{
    bool defaults = false;
    for (int i = 0; i < u->nfuncs && !defaults; i++)
        for (int k = 0; k < u->funcs[i]->nparams && !defaults; k++)
            defaults = u->funcs[i]->params[k]->init != NULL;
    for (int i = 0; defaults && i < u->nfuncs; i++)
        default_calls_stmt(u, u->funcs[i]->body);
    bool any = false;
    for (int i = 0; i < u->nfuncs; i++) {
        tr_func *f = u->funcs[i];
        if (!defined(f) || f->src_name || f->template_id || f->synthetic) continue;
        int same = 0;
        for (int j = 0; j < u->nfuncs; j++)
            same +=
                defined(u->funcs[j]) && !u->funcs[j]->template_id &&
                !strcmp(u->funcs[j]->src_name ? u->funcs[j]->src_name : u->funcs[j]->name, f->name);
        bool builtin = f->kind == TR_F_DEVICE && tr_map_call(f->name);
        if (same < 2 && !builtin && !f->is_operator) continue;
        /* every function of that name, this one included */
        const char *name = f->name;
        for (int j = i; j < u->nfuncs; j++) {
            tr_func *g = u->funcs[j];
            if (!defined(g) || g->src_name || g->template_id || strcmp(g->name, name)) continue;
            g->src_name = g->name;
            g->name = overload_name(u, g);
            for (int k = 0; k < j; k++) /* two with the same parameter types (const aside) */
                if (!strcmp(u->funcs[k]->name, g->name)) {
                    char buf[32];
                    snprintf(buf, sizeof buf, "_%d", j);
                    size_t n = strlen(g->name);
                    char *x = tr_alloc(u, n + strlen(buf) + 1);
                    memcpy(x, g->name, n);
                    memcpy(x + n, buf, strlen(buf) + 1);
                    g->name = x;
                }
            if (g->is_operator) {
                bool on_struct = false;
                for (int q = 0; q < g->nparams; q++)
                    on_struct |=
                        g->params[q]->type.base && !strncmp(g->params[q]->type.base, "struct ", 7);
                tr_diag_add(u, false, g->file, g->line, 0,
                            on_struct ? "struct operator" : "vector operator",
                            "this operator on %s is the function '%s' in the output, and each "
                            "use of it a call",
                            on_struct ? "a struct" : "vector types", g->name);
                continue;
            }
            tr_diag_add(
                u, false, g->file, g->line, 0, "overload",
                "%s %s is %s%s: it is '%s' in the output%s",
                g->kind == TR_F_GLOBAL ? "kernel" : "function", g->src_name,
                builtin ? "named like a built-in function" : "overloaded",
                builtin ? " (calls with the built-in's arguments stay the built-in)" : "", g->name,
                g->kind == TR_F_GLOBAL ? " (the host looks the kernel up by this name)" : "");
        }
        any = true;
    }
    if (!any) return;
    for (int i = 0; i < u->nfuncs; i++)
        arity_calls_stmt(u, u->funcs[i]->body);
}

/* Whether argument a has exactly parameter p's type. */
static bool exact(const tr_sym *p, const tr_expr *a)
{
    const tr_type *t = &p->type;
    if (t->nptr && !p->ref) {
        if (a->vt != TR_VT_PTR || !a->elem) return false;
        const char *why = NULL;
        const char *x = tl_map_base(t->base, &why), *y = tl_map_base(a->elem, &why);
        return x && y && !strcmp(x, y);
    }
    tr_vt v = tl_base_vt(t->base);
    if (v == TR_VT_VEC) /* the same vector type (float3 and float4 are both held in gp_float4) */
        return a->vt == TR_VT_VEC && a->vec && !strcmp(a->vec, t->base);
    return v != TR_VT_UNKNOWN && v == a->vt;
}

tr_func *tl_resolve_overload(lctx *c, const tr_expr *e, bool *ambiguous)
{
    tr_func *one = NULL;
    int n = 0;
    *ambiguous = false;
    for (int i = 0; i < c->u->nfuncs; i++) {
        tr_func *f = c->u->funcs[i];
        if (!f->src_name || strcmp(f->src_name, e->a->text) || f->nparams != e->nargs) continue;
        bool ok = true;
        for (int k = 0; ok && k < e->nargs; k++)
            ok = exact(f->params[k], e->args[k]);
        if (ok) {
            one = f;
            n++;
        }
    }
    /* an operator on vectors with a scalar of another arithmetic type (v * 2 for an operator
     * taking a float): the one operator overload that takes it after conversions */
    bool exact_none = n == 0;
    for (int i = 0; exact_none && i < c->u->nfuncs; i++) {
        tr_func *f = c->u->funcs[i];
        if (!f->is_operator || !f->src_name || strcmp(f->src_name, e->a->text) ||
            f->nparams != e->nargs)
            continue;
        bool ok = true;
        for (int k = 0; ok && k < e->nargs; k++)
            ok = tl_operator_arg_fits(f->params[k], e->args[k]);
        if (ok) {
            one = f;
            n += 1;
        }
    }
    *ambiguous = n > 1;
    return n == 1 ? one : NULL;
}

/* ---- parameters every call gives the same constant ---------------------------------------- */
/* `T shfl_xor(T v, int lane, int width = warpSize, unsigned mask = 0xffffffff)` (PyTorch's
 * WARP_SHFL_XOR and its copies): inside, `mask` and `width` are parameters, so the warp checks
 * (calls.c) could not tell the full mask and the width of 32. Where every call in the file gives
 * a parameter the same integer constant (defaults filled in above) and the body never changes it,
 * that parameter is that constant (sym->has_cvalue, read by tl_const_int). The output keeps the
 * parameter: the value only answers the checks. */

static bool const_arg(const tr_expr *e, long long *v)
{
    if (!e) return false;
    if (e->kind == TR_E_NUM) return tl_number_value(e->text, v);
    if (e->kind == TR_E_IDENT) {
        if (e->sym && e->sym->has_cvalue) {
            *v = e->sym->cvalue;
            return true;
        }
        if (!e->sym && !strcmp(e->text, "warpSize")) {
            *v = 32; /* what the warp checks take it for */
            return true;
        }
        return false;
    }
    if (e->kind == TR_E_UNARY && (!strcmp(e->text, "-") || !strcmp(e->text, "+")) &&
        const_arg(e->a, v)) {
        if (e->text[0] == '-') *v = -*v;
        return true;
    }
    return false;
}

/* s is written in e: assigned, incremented, its address taken, or passed to a reference
 * parameter of a function of the file (made a pointer later, in the analysis) */
static bool writes(tr_unit *u, const tr_expr *e, const tr_sym *s)
{
    if (!e) return false;
    bool target = e->a && e->a->kind == TR_E_IDENT && e->a->sym == s;
    if (target && (e->kind == TR_E_ASSIGN || e->kind == TR_E_POSTFIX ||
                   (e->kind == TR_E_UNARY &&
                    (!strcmp(e->text, "++") || !strcmp(e->text, "--") || !strcmp(e->text, "&")))))
        return true;
    if (e->kind == TR_E_CALL && e->a && e->a->kind == TR_E_IDENT && !e->a->sym)
        for (int k = 0; k < e->nargs; k++) {
            if (e->args[k]->kind != TR_E_IDENT || e->args[k]->sym != s) continue;
            for (int i = 0; i < u->nfuncs; i++) {
                const tr_func *g = u->funcs[i];
                /* by either name: an overload keeps its source's (calls are resolved later) */
                if (k < g->nparams &&
                    (!strcmp(g->name, e->a->text) ||
                     (g->src_name && !strcmp(g->src_name, e->a->text))) &&
                    (g->params[k]->ref || g->params[k]->type.is_ref))
                    return true;
            }
        }
    if (writes(u, e->a, s) || writes(u, e->b, s) || writes(u, e->c, s)) return true;
    for (int i = 0; i < e->nargs; i++)
        if (writes(u, e->args[i], s)) return true;
    return false;
}

static bool writes_stmt(tr_unit *u, const tr_stmt *st, const tr_sym *s)
{
    if (!st) return false;
    if (writes(u, st->e, s) || writes(u, st->cond, s) || writes(u, st->step, s)) return true;
    for (int i = 0; i < st->ndecls; i++)
        if (writes(u, st->decls[i].init, s)) return true;
    if (writes_stmt(u, st->init, s) || writes_stmt(u, st->body, s) || writes_stmt(u, st->els, s))
        return true;
    for (int i = 0; i < st->n; i++)
        if (writes_stmt(u, st->list[i], s)) return true;
    return false;
}

/* Locals initialised with a constant (read when parsed) that the function never changes:
 * `unsigned int mask = 0xffffffff;` is that constant as a `const` one would be. */
static void unchanged_locals(tr_unit *u, const tr_stmt *body, const tr_stmt *st)
{
    if (!st) return;
    for (int i = 0; st->kind == TR_S_DECL && i < st->ndecls; i++) {
        tr_sym *s = st->decls[i].sym;
        if (s->has_init_cvalue && !s->has_cvalue && !writes_stmt(u, body, s)) {
            s->has_cvalue = true;
            s->cvalue = s->init_cvalue;
        }
    }
    unchanged_locals(u, body, st->init);
    unchanged_locals(u, body, st->body);
    unchanged_locals(u, body, st->els);
    for (int i = 0; i < st->n; i++)
        unchanged_locals(u, body, st->list[i]);
}

typedef struct param_seen {
    char state; /* 0: no call yet, 1: one constant so far, 2: not one constant */
    long long value;
} param_seen;

/* The file's functions sorted by name, for the calls' lookups. */
typedef struct named_func {
    const char *name;
    int index; /* into u->funcs */
} named_func;
typedef struct by_name {
    tr_unit *u;
    named_func *order;
    int n;
} by_name;

static int cmp_named(const void *a, const void *b)
{
    return strcmp(((const named_func *)a)->name, ((const named_func *)b)->name);
}

/* The index of the one defined function called `name` (-1: none, or several). */
static int unique_callee(const by_name *bn, const char *name)
{
    int lo = 0, hi = bn->n;
    while (lo < hi) { /* the first whose name is not below `name` */
        int mid = (lo + hi) / 2;
        if (strcmp(bn->order[mid].name, name) < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    if (lo >= bn->n || strcmp(bn->order[lo].name, name)) return -1;
    if (lo + 1 < bn->n && !strcmp(bn->order[lo + 1].name, name)) return -1;
    return bn->order[lo].index;
}

static void seen_calls(const by_name *bn, param_seen **seen, const tr_expr *e)
{
    if (!e) return;
    if (e->kind == TR_E_CALL && e->a && e->a->kind == TR_E_IDENT && !e->a->sym) {
        int gi = unique_callee(bn, e->a->text);
        const tr_func *g = gi >= 0 ? bn->u->funcs[gi] : NULL;
        for (int k = 0; gi >= 0 && k < g->nparams; k++) {
            param_seen *ps = &seen[gi][k];
            long long v;
            bool c = k < e->nargs && const_arg(e->args[k], &v);
            if (!c || (ps->state == 1 && ps->value != v))
                ps->state = 2;
            else if (ps->state == 0)
                ps->state = 1, ps->value = v;
        }
    }
    seen_calls(bn, seen, e->a);
    seen_calls(bn, seen, e->b);
    seen_calls(bn, seen, e->c);
    for (int i = 0; i < e->nargs; i++)
        seen_calls(bn, seen, e->args[i]);
}

static void seen_calls_stmt(const by_name *bn, param_seen **seen, const tr_stmt *s)
{
    if (!s) return;
    seen_calls(bn, seen, s->e);
    seen_calls(bn, seen, s->cond);
    seen_calls(bn, seen, s->step);
    for (int i = 0; i < s->ndecls; i++)
        seen_calls(bn, seen, s->decls[i].init);
    seen_calls_stmt(bn, seen, s->init);
    seen_calls_stmt(bn, seen, s->body);
    seen_calls_stmt(bn, seen, s->els);
    for (int i = 0; i < s->n; i++)
        seen_calls_stmt(bn, seen, s->list[i]);
}

void tr_constant_params(tr_unit *u)
{
    if (!u->nfuncs) return;
    for (int i = 0; i < u->nfuncs; i++)
        unchanged_locals(u, u->funcs[i]->body, u->funcs[i]->body);
    bool any = false; /* a device function with a parameter that could be one */
    for (int i = 0; i < u->nfuncs && !any; i++)
        for (int k = 0; u->funcs[i]->kind == TR_F_DEVICE && k < u->funcs[i]->nparams; k++)
            any |= !u->funcs[i]->params[k]->type.nptr && !u->funcs[i]->params[k]->ndims;
    if (!any) return;
    by_name bn = {u, tr_alloc(u, (size_t)u->nfuncs * sizeof(named_func)), 0};
    for (int i = 0; i < u->nfuncs; i++)
        if (defined(u->funcs[i])) bn.order[bn.n++] = (named_func){u->funcs[i]->name, i};
    qsort(bn.order, (size_t)bn.n, sizeof *bn.order, cmp_named);
    param_seen **seen = tr_alloc(u, (size_t)u->nfuncs * sizeof *seen);
    for (int i = 0; i < u->nfuncs; i++)
        seen[i] = tr_alloc(u, (size_t)(u->funcs[i]->nparams + 1) * sizeof **seen);
    /* a parameter found constant can make its callees' constant: a few rounds */
    for (int round = 0; round < 4; round++) {
        for (int i = 0; i < u->nfuncs; i++)
            memset(seen[i], 0, (size_t)(u->funcs[i]->nparams + 1) * sizeof **seen);
        for (int i = 0; i < u->nfuncs; i++)
            seen_calls_stmt(&bn, seen, u->funcs[i]->body);
        bool more = false;
        for (int i = 0; i < u->nfuncs; i++) {
            tr_func *g = u->funcs[i];
            if (g->kind != TR_F_DEVICE || !g->body) continue;
            for (int k = 0; k < g->nparams; k++) {
                tr_sym *s = g->params[k];
                if (seen[i][k].state != 1 || s->has_cvalue || s->ref || s->type.is_ref ||
                    s->type.nptr || s->ndims || writes_stmt(u, g->body, s))
                    continue;
                s->has_cvalue = true;
                s->cvalue = seen[i][k].value;
                more = true;
            }
        }
        if (!more) break;
    }
}
