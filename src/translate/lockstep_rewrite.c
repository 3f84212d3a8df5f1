/* lockstep_rewrite.c — the rewrite of warp-synchronous tails with SIMD-group shuffles (see
 * lockstep.h), for --simd-width 32. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "translate/lockstep_internal.h"
#include "translate/lower_impl.h"

/* ---- the rewrite of warp-synchronous tails ----------------------------------------------- *
 * In a region `if (tid < 32) { ... }` of a 1-D kernel (or a device function every call of which
 * is in one, with the index as a parameter), where every write to the shared array X is X[tid]
 * and every read is X[tid] or X[tid + c] (c >= 0, the same in every work-item), the lockstep
 * semantics — each statement's loads of the whole warp before its stores — are exactly:
 *     v = X[tid];  per statement: o = shuffle_down(v, c) (X[tid + c] itself where tid + c >= 32,
 *     which no statement writes), then v op= f(...);  at the end X[tid] = v.              */
typedef struct rw {
    ls *s;
    tr_func *fn;
    tr_sym *arr; /* X (its base array, or the pointer parameter) */
    tr_sym *alias[8];
    int nalias;
    tr_expr *lane; /* the work-item's index as the code writes it */
    tr_sym *lane_sym;
    const char *elem;
    tr_sym *v;
    int ntemps;
    tr_stmt **pre; /* statements to put before the current one */
    int npre;
} rw;

static bool is_x(rw *r, tr_expr *e)
{
    if (e->kind != TR_E_IDENT || !e->sym) return false;
    if (e->sym == r->arr) return true;
    for (int i = 0; i < r->nalias; i++)
        if (r->alias[i] == e->sym) return true;
    return false;
}

static bool is_lane(rw *r, tr_expr *e)
{
    if (r->lane_sym) return e->kind == TR_E_IDENT && e->sym == r->lane_sym;
    int bk, dim;
    return ls_is_builtin_member(e, &bk, &dim) && bk == TR_B_THREAD && dim == 0;
}

/* X[lane + c]: c (NULL for X[lane]); false when e is not an access of X at all. */
static bool x_access(rw *r, tr_expr *e, tr_expr **c, bool *other)
{
    *other = false;
    if (e->kind != TR_E_INDEX || !is_x(r, e->a)) return false;
    tr_expr *i = e->b;
    if (is_lane(r, i)) {
        *c = NULL;
        return true;
    }
    if (i->kind == TR_E_BINARY && !strcmp(i->text, "+")) {
        if (is_lane(r, i->a)) {
            *c = i->b;
            return true;
        }
        if (is_lane(r, i->b)) {
            *c = i->a;
            return true;
        }
    }
    *other = true;
    return true;
}

static bool uses_x(rw *r, tr_expr *e)
{
    if (!e) return false;
    if (is_x(r, e)) return true;
    if (uses_x(r, e->a) || uses_x(r, e->b) || uses_x(r, e->c)) return true;
    for (int i = 0; i < e->nargs; i++)
        if (uses_x(r, e->args[i])) return true;
    return false;
}

static tr_expr *mk(rw *r, tr_expr_kind k, const tr_expr *at)
{
    tr_expr *e = tr_alloc(r->s->u, sizeof *e);
    e->kind = k;
    e->file = at->file, e->line = at->line, e->col = at->col;
    return e;
}

static tr_expr *mk_ident(rw *r, tr_sym *sym, const tr_expr *at)
{
    tr_expr *e = mk(r, TR_E_IDENT, at);
    e->sym = sym;
    e->text = sym->name;
    return e;
}

static tr_stmt *mk_stmt(rw *r, tr_stmt_kind k, const tr_expr *at)
{
    tr_stmt *s = tr_alloc(r->s->u, sizeof *s);
    s->kind = k;
    s->file = at->file, s->line = at->line;
    return s;
}

static tr_sym *mk_local(rw *r, const char *name, const tr_expr *at)
{
    tr_sym *sym = tr_alloc(r->s->u, sizeof *sym);
    sym->name = tr_strdup(r->s->u, name);
    sym->kind = TR_SYM_LOCAL;
    sym->type.base = tr_strdup(r->s->u, r->elem);
    sym->owner = r->fn;
    sym->file = at->file, sym->line = at->line, sym->col = at->col;
    return sym;
}

static tr_stmt *mk_decl(rw *r, tr_sym *sym, tr_expr *init)
{
    tr_stmt *st = mk_stmt(r, TR_S_DECL, init);
    st->decls = tr_alloc(r->s->u, sizeof *st->decls);
    st->decls[0] = (tr_decl){sym, init};
    st->ndecls = 1;
    return st;
}

static void push_pre(rw *r, tr_stmt *st)
{
    tr_stmt **n = tr_alloc(r->s->u, (size_t)(r->npre + 1) * sizeof *n);
    if (r->npre) memcpy(n, r->pre, (size_t)r->npre * sizeof *n);
    n[r->npre++] = st;
    r->pre = n;
}

/* Replaces the reads of X in e (false: a use of X the rewrite does not know). */
static bool rewrite_reads(rw *r, tr_expr **pe)
{
    tr_expr *e = *pe;
    if (!e) return true;
    tr_expr *c;
    bool other;
    if (x_access(r, e, &c, &other)) {
        if (other) return false;
        if (!c) {
            *pe = mk_ident(r, r->v, e);
            return true;
        }
        if (uses_x(r, c)) return false;
        /* o = shuffle_down(v, c); if (lane + c >= 32) o = X[lane + c]; */
        char name[48];
        snprintf(name, sizeof name, "lockstep_o%d", ++r->ntemps);
        tr_sym *o = mk_local(r, name, e);
        long long k;
        bool constant = tl_const_int(&(lctx){.u = r->s->u}, c, &k);
        if (constant && k >= 32) {
            push_pre(r, mk_decl(r, o, e)); /* outside the warp: memory nobody writes here */
        } else {
            tr_expr *args[3] = {mk(r, TR_E_NUM, e), mk_ident(r, r->v, e), c};
            args[0]->text = tr_strdup(r->s->u, "0xffffffffu");
            tr_expr *call = mk(r, TR_E_CALL, e);
            call->a = mk(r, TR_E_IDENT, e);
            call->a->text = tr_strdup(r->s->u, "__shfl_down_sync");
            call->nargs = 3;
            call->args = tr_alloc(r->s->u, 3 * sizeof *call->args);
            memcpy(call->args, args, sizeof args);
            call->origin = "the warp-synchronous tail's shuffle";
            push_pre(r, mk_decl(r, o, call));
            if (!constant || k > 0) {
                tr_stmt *iff = mk_stmt(r, TR_S_IF, e);
                tr_expr *sum = mk(r, TR_E_BINARY, e);
                sum->text = tr_strdup(r->s->u, "+");
                sum->a = e->b->kind == TR_E_BINARY && is_lane(r, e->b->a) ? e->b->a : e->b->b;
                sum->b = c;
                tr_expr *ge = mk(r, TR_E_BINARY, e);
                ge->text = tr_strdup(r->s->u, ">=");
                ge->a = sum;
                ge->b = mk(r, TR_E_NUM, e);
                ge->b->text = tr_strdup(r->s->u, "32");
                iff->cond = ge;
                tr_stmt *as = mk_stmt(r, TR_S_EXPR, e);
                tr_expr *asg = mk(r, TR_E_ASSIGN, e);
                asg->text = tr_strdup(r->s->u, "=");
                asg->a = mk_ident(r, o, e);
                asg->b = e;
                as->e = asg;
                iff->body = as;
                push_pre(r, iff);
            }
        }
        *pe = mk_ident(r, o, e);
        return true;
    }
    if (is_x(r, e)) return false; /* X itself, not an element */
    if (e->kind == TR_E_CALL && e->a->kind == TR_E_IDENT && ls_find_body(r->s, e->a->text))
        return !uses_x(r, e);
    if (!rewrite_reads(r, &e->a) || !rewrite_reads(r, &e->b) || !rewrite_reads(r, &e->c))
        return false;
    for (int i = 0; i < e->nargs; i++)
        if (!rewrite_reads(r, &e->args[i])) return false;
    return true;
}

static tr_stmt *rewrite_stmt(rw *r, tr_stmt *st);

/* A statement under a condition: what it needs computed first stays under the condition. */
static tr_stmt *rewrite_child(rw *r, tr_stmt *st)
{
    if (!st || st->kind == TR_S_BLOCK) return rewrite_stmt(r, st);
    tr_stmt **saved = r->pre;
    int nsaved = r->npre;
    r->pre = NULL, r->npre = 0;
    tr_stmt *x = rewrite_stmt(r, st);
    if (x && r->npre) {
        tr_stmt *b = mk_stmt(r, TR_S_BLOCK, &(tr_expr){.file = st->file, .line = st->line});
        b->list = tr_alloc(r->s->u, (size_t)(r->npre + 1) * sizeof *b->list);
        copy_n(b->list, r->pre, (size_t)r->npre * sizeof *b->list);
        b->list[r->npre] = x;
        b->n = r->npre + 1;
        x = b;
    }
    r->pre = saved, r->npre = nsaved;
    return x;
}

/* One statement of the region; its replacement in *out (NULL when it cannot be rewritten). */
static tr_stmt *rewrite_stmt(rw *r, tr_stmt *st)
{
    if (!st) return NULL;
    switch (st->kind) {
    case TR_S_BLOCK: {
        tr_stmt *b = mk_stmt(r, TR_S_BLOCK, &(tr_expr){.file = st->file, .line = st->line});
        for (int i = 0; i < st->n; i++) {
            int before = r->npre;
            tr_stmt **saved = r->pre;
            r->pre = NULL, r->npre = 0;
            tr_stmt *x = rewrite_stmt(r, st->list[i]);
            if (!x) return NULL;
            tr_stmt **nl = tr_alloc(r->s->u, (size_t)(b->n + r->npre + 1) * sizeof *nl);
            if (b->n) memcpy(nl, b->list, (size_t)b->n * sizeof *nl);
            copy_n(nl + b->n, r->pre, (size_t)r->npre * sizeof *nl);
            b->n += r->npre;
            nl[b->n++] = x;
            b->list = nl;
            r->pre = saved, r->npre = before;
        }
        return b;
    }
    case TR_S_DECL:
        for (int i = 0; i < st->ndecls; i++) {
            tr_sym *sym = st->decls[i].sym;
            tr_expr *init = st->decls[i].init;
            if (sym->type.nptr && init && is_x(r, init) && r->nalias < 8) { /* p = X */
                r->alias[r->nalias++] = sym;
                continue;
            }
            if (sym->kind != TR_SYM_LOCAL || sym->type.nptr || sym->ndims) return NULL;
            if (!rewrite_reads(r, &st->decls[i].init)) return NULL;
        }
        return st;
    case TR_S_EXPR: {
        tr_expr *e = st->e;
        tr_expr *c;
        bool other;
        if (e->kind == TR_E_ASSIGN && x_access(r, e->a, &c, &other)) {
            if (other || c) return NULL; /* only a work-item's own element is written */
            if (!rewrite_reads(r, &e->b)) return NULL;
            e->a = mk_ident(r, r->v, e->a);
            return st;
        }
        if (!rewrite_reads(r, &st->e)) return NULL;
        return st;
    }
    case TR_S_IF: {
        /* only conditions every work-item of the warp agrees on */
        int n = r->s->nacc;
        val cv = ls_eval(r->s, st->cond);
        r->s->nacc = n;
        if (!ls_lane_free(&cv) || uses_x(r, st->cond)) return NULL;
        tr_stmt *body = rewrite_child(r, st->body);
        if (!body) return NULL;
        tr_stmt *els = st->els ? rewrite_child(r, st->els) : NULL;
        if (st->els && !els) return NULL;
        st->body = body;
        st->els = els;
        return st;
    }
    case TR_S_EMPTY:
    case TR_S_PRAGMA:
        return st;
    default:
        return NULL;
    }
}

/* Rewrites the statement in *slot (a region's body, or a function's). */
static bool rewrite_region(ls *s, tr_func *fn, tr_stmt **slot, tr_sym *arr, tr_sym *lane_sym,
                           tr_expr *lane, bool *done)
{
    tr_stmt *body = *slot;
    const char *elem = arr->type.base;
    if (strcmp(elem, "float") && strcmp(elem, "int") && strcmp(elem, "unsigned int")) return false;
    rw r = {0};
    r.s = s;
    r.fn = fn;
    r.arr = arr;
    r.lane = lane;
    r.lane_sym = lane_sym;
    r.elem = elem;
    tr_expr at = {.file = body->file, .line = body->line};
    r.v = mk_local(&r, "lockstep_v", &at);
    tr_stmt *b = rewrite_stmt(&r, body);
    if (!b || r.npre) return false;
    if (b->kind != TR_S_BLOCK) {
        tr_stmt *w = mk_stmt(&r, TR_S_BLOCK, &at);
        w->list = tr_alloc(s->u, sizeof *w->list);
        w->list[0] = b;
        w->n = 1;
        b = w;
    }
    /* v = X[lane] first, X[lane] = v last */
    tr_expr *xi = mk(&r, TR_E_INDEX, &at);
    xi->a = mk_ident(&r, arr, &at);
    xi->b = lane;
    tr_expr *xo = mk(&r, TR_E_INDEX, &at);
    xo->a = mk_ident(&r, arr, &at);
    xo->b = lane;
    tr_stmt **nl = tr_alloc(s->u, (size_t)(b->n + 2) * sizeof *nl);
    nl[0] = mk_decl(&r, r.v, xi);
    copy_n(nl + 1, b->list, (size_t)b->n * sizeof *nl);
    tr_stmt *store = mk_stmt(&r, TR_S_EXPR, &at);
    tr_expr *asg = mk(&r, TR_E_ASSIGN, &at);
    asg->text = tr_strdup(s->u, "=");
    asg->a = xo;
    asg->b = mk_ident(&r, r.v, &at);
    store->e = asg;
    nl[b->n + 1] = store;
    tr_stmt *nb = mk_stmt(&r, TR_S_BLOCK, &at);
    nb->list = nl;
    nb->n = b->n + 2;
    *slot = nb;
    *done = true;
    return true;
}

/* The declaration `T *p = init;` of local pointer p in st, or NULL. */
static tr_expr *decl_init(tr_stmt *st, tr_sym *p)
{
    if (!st) return NULL;
    for (int i = 0; i < st->ndecls; i++)
        if (st->decls[i].sym == p) return st->decls[i].init;
    tr_stmt *kids[3] = {st->init, st->body, st->els};
    for (int i = 0; i < 3; i++) {
        tr_expr *e = decl_init(kids[i], p);
        if (e) return e;
    }
    for (int i = 0; i < st->n; i++) {
        tr_expr *e = decl_init(st->list[i], p);
        if (e) return e;
    }
    return NULL;
}

/* The shared array (or pointer parameter) and index variable of a rewritable tail; an alias
 * (`volatile float *smem = sdata;`) stands for its array. */
static bool tail_parts(ls *s, const ls_access *a, tr_sym **arr, tr_sym **lane_sym)
{
    (void)s;
    tr_expr *x = a->at;
    if (x->kind != TR_E_INDEX || x->a->kind != TR_E_IDENT || !x->a->sym) return false;
    *arr = x->a->sym;
    /* through aliases (`volatile float *smem = sdata;`) to the pointer they all copy */
    for (int hop = 0; hop < 4 && (*arr)->kind == TR_SYM_LOCAL && (*arr)->type.nptr; hop++) {
        tr_expr *init = decl_init(a->fn->body, *arr);
        if (!init || init->kind != TR_E_IDENT || !init->sym) break;
        *arr = init->sym;
    }
    tr_expr *i = x->b;
    if (i->kind == TR_E_BINARY && !strcmp(i->text, "+")) i = i->a->kind == TR_E_IDENT ? i->a : i->b;
    *lane_sym = i->kind == TR_E_IDENT ? i->sym : NULL;
    return true;
}

bool ls_rewrite_tail(ls *s, tr_func *k, int *line)
{
    bool rewritten = false;
    if (s->lanes_used[1] || s->lanes_used[2]) return false;
    /* every conflict inside one warp-0 region: rewrite it (the caller then checks again) */
    tr_stmt *reg = s->acc[s->pairs[0][0]].region;
    tr_func *rfn = s->acc[s->pairs[0][0]].region_fn;
    bool one = reg != NULL;
    for (int p = 0; p < s->npairs && one; p++)
        for (int q = 0; q < 2; q++)
            one &= s->acc[s->pairs[p][q]].region == reg;
    tr_sym *arr = NULL, *lane_sym = NULL;
    const ls_access *a0 = &s->acc[s->pairs[0][0]];
    if (one && tail_parts(s, a0, &arr, &lane_sym)) {
        if (a0->fn == rfn) {
            /* the tail is in the region itself */
            tr_expr *lane = a0->at->b;
            if (lane->kind == TR_E_BINARY)
                lane = is_lane(&(rw){.lane_sym = lane_sym}, lane->a) ? lane->a : lane->b;
            /* through an alias `volatile float *p = sdata;`: rewrite on the array */
            rewrite_region(s, rfn, &reg->body, arr, lane_sym, lane, &rewritten);
        } else if (a0->fn->kind == TR_F_DEVICE && arr->kind == TR_SYM_PARAM && lane_sym &&
                   lane_sym->kind == TR_SYM_PARAM) {
            /* the tail is a device function called in the region (warpReduce(s, tid)):
             * rewritten when every access is in it */
            bool all_in = !a0->fn->ls_outside;
            for (int p = 0; p < s->npairs; p++)
                for (int q = 0; q < 2; q++)
                    all_in &= s->acc[s->pairs[p][q]].fn == a0->fn;
            for (int q = 0; q < a0->fn->nparams; q++)
                if (a0->fn->params[q] == lane_sym && !(a0->fn->ls_lane_params & (1u << q)))
                    all_in = false;
            tr_expr *lane = tr_alloc(s->u, sizeof *lane);
            *lane = (tr_expr){.kind = TR_E_IDENT,
                              .file = a0->at->file,
                              .line = a0->at->line,
                              .sym = lane_sym,
                              .text = lane_sym->name};
            if (all_in) rewrite_region(s, a0->fn, &a0->fn->body, arr, lane_sym, lane, &rewritten);
        }
    }
    *line = reg ? reg->line : k->line;
    return rewritten;
}
