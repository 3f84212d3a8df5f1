/* instrument.c — see instrument.h. Three passes over the unit, then the printer with hooks:
 *   1. names: every identifier of a kernel or helper is tied to what it names (a kernel
 *      parameter, a shared array, a local, a file-scope table, a function);
 *   2. provenance: a local pointer that is only ever assigned from one kernel parameter or shared
 *      array points into it (then its accesses are checked against that object; any other
 *      pointer is looked up among the launch's regions at run time);
 *   3. calls: which kernels reach a barrier or a SIMD-group operation (they run as fibers);
 * and the printing rewrites each access into GP__CK_P / GP__CK_Q / GP__CK_A (prelude.h) with the
 * index of its site, each index of a named array into GP__CK_IX / GP__CK_IXP, barriers, SIMD
 * operations and returns into the notes synccheck needs, and shared arrays into views of the
 * group's shared block the runtime lays out. */
#include "runtime/cpu/check/instrument.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define GP_CK_ABI_ONLY
#include "runtime/cpu/check/prelude.h"
#undef GP_CK_ABI_ONLY

#define CK_UNSET 0xfffffffeu

typedef enum ck_symkind { CK_PARAM, CK_SHARED, CK_LOCAL, CK_GLOBAL, CK_FUNC, CK_HPARAM } ck_symkind;

typedef struct ck_sym {
    const char *name;
    ck_symkind kind;
    const gk_type *type;
    uint32_t index;       /* PARAM: its position; SHARED: k; GLOBAL: its constant table or ~0 */
    gk_kparam_kind pkind; /* PARAM */
    uint32_t prov;        /* LOCAL pointers: the region they point into */
    bool conflict;        /* its address is taken: anything may be stored in it */
    bool tracked;         /* a private scalar or array declared without a value: initcheck */
    bool escapes;         /* an array of it decays to a pointer somewhere */
    const struct ck_sym *parr; /* LOCAL pointers: the private array they point into, or NULL */
    bool parr_set;
    const gk_expr **srcs; /* LOCAL pointers: what is assigned to them */
    size_t nsrcs, capsrcs;
    struct ck_sym *next;     /* scope chain */
    struct ck_sym *all_next; /* every local pointer, for the provenance pass */
} ck_sym;

typedef struct ck_fn {
    const gk_top *top;
    const char *name;
    bool sync; /* reaches gp_barrier or a gp_simd_* operation */
    const char **callees;
    size_t ncallees, capcallees;
} ck_fn;

typedef struct ck {
    gk_arena arena;
    const gk_unit *u;
    ck_sym *scope;
    ck_sym *pointers; /* every local pointer */
    ck_sym *globals;  /* file scope */
    ck_fn *fns;
    size_t nfns;
    ck_fn *cur_fn;
    uint32_t nshared; /* shared arrays of the kernel being read */
    bool in_for_init; /* reading a for statement's declaration */
    bool index_base;  /* naming the array operand of a subscript (no decay) */
    const char *consts[GP_CK_MAX_CONST];
    uint32_t nconst;
    /* printing */
    gp_strbuf sites;
    uint32_t nsites;
    gp_strbuf tables;
    gp_strbuf shared_rows; /* of the kernel being printed */
    uint32_t shared_count;
    const gk_top *printing; /* the kernel or helper being printed */
    bool plain;             /* printing a typeof copy: only renaming */
    const char *err_text;
    gk_pos err_pos;
} ck;

static const char *const ck_simd_ops[] = {
    "gp_simd_shuffle", "gp_simd_shuffle_xor", "gp_simd_shuffle_up", "gp_simd_shuffle_down",
    "gp_simd_ballot",  "gp_simd_any",         "gp_simd_all",
};
static const char *const ck_atomics[] = {
    GK_INT_ATOMIC_NAMES,
    "gp_atomic_add_float",
    "gp_atomic_add_float_shared",
    "gp_atomic_add_double",
};

static bool ck_in(const char *name, const char *const *list, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (!strcmp(name, list[i])) return true;
    return false;
}

static bool ck_is_simd_op(const char *name)
{
    return ck_in(name, ck_simd_ops, sizeof ck_simd_ops / sizeof *ck_simd_ops);
}

static bool ck_is_atomic(const char *name)
{
    return ck_in(name, ck_atomics, sizeof ck_atomics / sizeof *ck_atomics);
}

static void ck_fail(ck *c, gk_pos pos, const char *what)
{
    if (!c->err_text) {
        c->err_text = what;
        c->err_pos = pos;
    }
}

static void *ck_new(ck *c, size_t n)
{
    void *p = gk_alloc(&c->arena, n);
    if (!p) ck_fail(c, (gk_pos){0, 0, 0}, "out of memory instrumenting the source");
    return p;
}

/* ---- 1. names ------------------------------------------------------------------------------ */
static ck_sym *ck_declare(ck *c, const char *name, ck_symkind kind, const gk_type *type)
{
    ck_sym *s = ck_new(c, sizeof *s);
    if (!s) return NULL;
    s->name = name;
    s->kind = kind;
    s->type = type;
    s->prov = CK_UNSET;
    s->index = UINT32_MAX;
    s->next = c->scope;
    c->scope = s;
    return s;
}

static ck_sym *ck_lookup(ck *c, const char *name)
{
    for (ck_sym *s = c->scope; s; s = s->next)
        if (!strcmp(s->name, name)) return s;
    return NULL;
}

static const gk_type *ck_strip(const gk_type *t)
{
    while (t && t->kind == GK_T_BASE && t->alias)
        t = t->alias;
    return t;
}

static bool ck_is_ptr(const gk_type *t)
{
    t = ck_strip(t);
    return t && t->kind == GK_T_PTR;
}

static void ck_add_src(ck *c, ck_sym *s, const gk_expr *e)
{
    if (s->nsrcs == s->capsrcs) {
        size_t nc = s->capsrcs ? s->capsrcs * 2 : 4;
        const gk_expr **v = ck_new(c, nc * sizeof *v);
        if (!v) return;
        if (s->nsrcs) memcpy(v, s->srcs, s->nsrcs * sizeof *v);
        s->srcs = v;
        s->capsrcs = nc;
    }
    s->srcs[s->nsrcs++] = e;
}

static void ck_add_callee(ck *c, const char *name)
{
    ck_fn *f = c->cur_fn;
    if (!f) return;
    for (size_t i = 0; i < f->ncallees; i++)
        if (!strcmp(f->callees[i], name)) return;
    if (f->ncallees == f->capcallees) {
        size_t nc = f->capcallees ? f->capcallees * 2 : 4;
        const char **v = ck_new(c, nc * sizeof *v);
        if (!v) return;
        if (f->ncallees) memcpy(v, f->callees, f->ncallees * sizeof *v);
        f->callees = v;
        f->capcallees = nc;
    }
    f->callees[f->ncallees++] = name;
}

static void ck_names_stmt(ck *c, gk_stmt *s);

/* The variable an lvalue chain (members, subscripts of arrays) is rooted at, or NULL. */
static ck_sym *ck_root_sym(const gk_expr *e)
{
    while (e && (e->kind == GK_E_MEMBER || e->kind == GK_E_INDEX))
        e = e->a;
    return e && e->kind == GK_E_IDENT ? e->note : NULL;
}

static void ck_names_expr(ck *c, gk_expr *e)
{
    if (!e || c->err_text) return;
    bool ib = c->index_base;
    c->index_base = false;
    switch (e->kind) {
    case GK_E_IDENT:
        e->note = ck_lookup(c, e->name);
        if (!ib && e->note) {
            ck_sym *s = e->note;
            const gk_type *t = s->type;
            while (t && t->kind == GK_T_BASE && t->alias)
                t = t->alias;
            if (s->kind == CK_LOCAL && t && t->kind == GK_T_ARRAY) s->escapes = true;
        }
        return;
    case GK_E_INDEX:
        c->index_base = true;
        ck_names_expr(c, e->a);
        c->index_base = false;
        ck_names_expr(c, e->b);
        return;
    case GK_E_MEMBER:
        c->index_base = ib;
        ck_names_expr(c, e->a);
        c->index_base = false;
        return;
    case GK_E_SIZEOF_EXPR:
        c->index_base = true;
        ck_names_expr(c, e->a);
        c->index_base = false;
        return;
    case GK_E_CALL:
        if (e->a->kind == GK_E_IDENT) {
            const char *n = e->a->name;
            if (!strcmp(n, "gp_barrier") || !strcmp(n, "gp_simd_barrier") || ck_is_simd_op(n)) {
                if (c->cur_fn) c->cur_fn->sync = true;
            }
            ck_sym *s = ck_lookup(c, n);
            if (s && s->kind == CK_FUNC) ck_add_callee(c, n);
        }
        ck_names_expr(c, e->a);
        for (size_t i = 0; i < e->nargs; i++)
            ck_names_expr(c, e->args[i]);
        return;
    case GK_E_ASSIGN:
        ck_names_expr(c, e->a);
        ck_names_expr(c, e->b);
        if (e->a->kind == GK_E_IDENT && e->a->note) {
            ck_sym *s = e->a->note;
            if (s->kind == CK_LOCAL && ck_is_ptr(s->type) && !strcmp(e->op, "="))
                ck_add_src(c, s, e->b);
        }
        return;
    case GK_E_UNARY:
        if (!strcmp(e->op, "&")) c->index_base = true; /* &a[i] is no decay, but an escape */
        ck_names_expr(c, e->a);
        c->index_base = false;
        if (!strcmp(e->op, "&") && ck_root_sym(e->a)) ck_root_sym(e->a)->conflict = true;
        return;
    case GK_E_INIT:
        for (size_t i = 0; i < e->nitems; i++) {
            for (size_t d = 0; d < e->items[i].ndesig; d++)
                ck_names_expr(c, e->items[i].desig[d].index);
            ck_names_expr(c, e->items[i].value);
        }
        return;
    default:
        ck_names_expr(c, e->a);
        ck_names_expr(c, e->b);
        ck_names_expr(c, e->c);
        return;
    }
}

static void ck_names_decl(ck *c, gk_decl *d, bool in_kernel)
{
    for (size_t i = 0; i < d->ndecls; i++) {
        gk_declarator *dc = &d->decls[i];
        if (!dc->name) continue;
        if (d->storage & GK_S_TYPEDEF) continue; /* types: the parser resolved them */
        ck_symkind kind = (d->storage & GK_S_SHARED_DECL) ? CK_SHARED : CK_LOCAL;
        if (dc->type->kind == GK_T_FUNC) kind = CK_FUNC;
        ck_sym *s = ck_declare(c, dc->name, kind, dc->type);
        if (!s) return;
        dc->note = s;
        if (kind == CK_LOCAL && !dc->init && !c->in_for_init &&
            !(d->storage & (GK_S_STATIC | GK_S_REGISTER | GK_S_EXTERN))) {
            const gk_type *t = ck_strip(dc->type);
            while (t && t->kind == GK_T_ARRAY)
                t = ck_strip(t->of);
            /* scalars and the prelude's vectors (no padding: a whole read checks every byte) */
            bool scalar =
                t && t->kind == GK_T_BASE &&
                (!t->record || (t->record->tag && (!strncmp(t->record->tag, "gp_float", 8) ||
                                                   !strncmp(t->record->tag, "gp_int", 6))));
            s->tracked = scalar && (t == ck_strip(dc->type) || ck_strip(dc->type)->dim != NULL);
        }
        if (kind == CK_SHARED) {
            if (!in_kernel) {
                ck_fail(c, dc->pos,
                        "GP_SHARED_DECL outside a kernel body (the dialect allows "
                        "shared arrays only at a kernel's outermost scope)");
                return;
            }
            if (c->nshared >= GP_CK_MAX_SHARED) {
                ck_fail(c, dc->pos, "more than 32 shared arrays in one kernel");
                return;
            }
            s->index = c->nshared++;
        }
        if (dc->init) {
            ck_names_expr(c, dc->init);
            if (kind == CK_LOCAL && ck_is_ptr(dc->type)) ck_add_src(c, s, dc->init);
        }
        if (kind == CK_LOCAL && ck_is_ptr(dc->type)) {
            s->all_next = c->pointers;
            c->pointers = s;
        }
    }
}

static void ck_names_stmt(ck *c, gk_stmt *s)
{
    if (!s || c->err_text) return;
    ck_sym *saved = c->scope;
    switch (s->kind) {
    case GK_S_BLOCK:
        for (size_t i = 0; i < s->nitems; i++)
            ck_names_stmt(c, s->items[i]);
        break;
    case GK_S_DECL:
        ck_names_decl(c, s->decl, c->printing && c->printing->kind == GK_TOP_KERNEL);
        return; /* its names stay in scope */
    case GK_S_FOR:
        c->in_for_init = true;
        ck_names_stmt(c, s->init);
        c->in_for_init = false;
        ck_names_expr(c, s->expr);
        ck_names_expr(c, s->step);
        ck_names_stmt(c, s->body);
        break;
    default:
        ck_names_expr(c, s->expr);
        ck_names_expr(c, s->step);
        ck_names_stmt(c, s->body);
        ck_names_stmt(c, s->else_body);
        break;
    }
    c->scope = saved;
}

static ck_fn *ck_fn_of(ck *c, const char *name)
{
    for (size_t i = 0; i < c->nfns; i++)
        if (c->fns[i].name && !strcmp(c->fns[i].name, name)) return &c->fns[i];
    return NULL;
}

static void ck_names(ck *c)
{
    const gk_unit *u = c->u;
    c->fns = ck_new(c, (u->ntops + 1) * sizeof *c->fns);
    if (!c->fns) return;
    for (size_t i = 0; i < u->ntops && !c->err_text; i++) {
        gk_top *t = u->tops[i];
        if (t->kind == GK_TOP_DECL) {
            gk_decl *d = t->decl;
            for (size_t k = 0; k < d->ndecls; k++) {
                gk_declarator *dc = &d->decls[k];
                if (!dc->name || (d->storage & GK_S_TYPEDEF)) continue;
                if (dc->type->kind == GK_T_FUNC) {
                    if (!ck_lookup(c, dc->name)) ck_declare(c, dc->name, CK_FUNC, dc->type);
                    continue;
                }
                ck_sym *s = ck_declare(c, dc->name, CK_GLOBAL, dc->type);
                if (!s) return;
                dc->note = s;
                if (!(d->storage & GK_S_EXTERN)) {
                    if (c->nconst == GP_CK_MAX_CONST) {
                        ck_fail(c, dc->pos, "more than 32 file-scope tables");
                        return;
                    }
                    s->index = c->nconst;
                    c->consts[c->nconst++] = dc->name;
                }
            }
            continue;
        }
        if (t->kind != GK_TOP_FUNCTION && t->kind != GK_TOP_KERNEL) continue;
        ck_fn *f = &c->fns[c->nfns++];
        f->top = t;
        f->name = t->kind == GK_TOP_KERNEL ? NULL : t->decl->decls[0].name;
        if (t->kind == GK_TOP_FUNCTION && !ck_lookup(c, f->name))
            ck_declare(c, f->name, CK_FUNC, t->decl->decls[0].type);
        ck_sym *saved = c->scope;
        c->cur_fn = f;
        c->printing = t;
        c->nshared = 0;
        if (t->kind == GK_TOP_KERNEL) {
            for (size_t k = 0; k < t->nparams; k++) {
                const gk_kparam *kp = &t->params[k];
                const gk_type *ty = kp->type;
                if (kp->kind != GK_KP_VAL) {
                    gk_type *ptr = ck_new(c, sizeof *ptr);
                    if (!ptr) return;
                    ptr->kind = GK_T_PTR;
                    ptr->of = (gk_type *)kp->type;
                    ty = ptr;
                }
                ck_sym *s = ck_declare(c, kp->name, CK_PARAM, ty);
                if (!s) return;
                s->index = (uint32_t)k;
                s->pkind = kp->kind;
            }
        } else {
            const gk_type *ft = t->decl->decls[0].type;
            for (size_t k = 0; k < ft->nparams; k++)
                if (ft->params[k].name)
                    ck_declare(c, ft->params[k].name, CK_HPARAM, ft->params[k].type);
        }
        ck_names_stmt(c, t->body);
        c->scope = saved;
        c->cur_fn = NULL;
        c->printing = NULL;
    }
    c->globals = c->scope;
}

/* ---- 2. types and provenance ----------------------------------------------------------------- */
static const gk_type *ck_ptr_to(ck *c, const gk_type *t)
{
    if (!t) return NULL;
    gk_type *p = ck_new(c, sizeof *p);
    if (!p) return NULL;
    p->kind = GK_T_PTR;
    p->of = (gk_type *)t;
    return p;
}

static const gk_type *ck_member(const gk_type *t, const char *name)
{
    t = ck_strip(t);
    if (!t || t->kind != GK_T_BASE || !t->record) return NULL;
    for (size_t i = 0; i < t->record->nmembers; i++)
        if (t->record->members[i].name && !strcmp(t->record->members[i].name, name))
            return ck_strip(t->record->members[i].type);
    return NULL;
}

/* The type of e as far as the checker needs it (NULL: arithmetic or not known). */
static const gk_type *ck_type(ck *c, const gk_expr *e)
{
    const gk_type *t;
    switch (e->kind) {
    case GK_E_IDENT: {
        const ck_sym *s = e->note;
        return s && s->kind != CK_FUNC ? ck_strip(s->type) : NULL;
    }
    case GK_E_INDEX:
        t = ck_type(c, e->a);
        if (t && (t->kind == GK_T_PTR || t->kind == GK_T_ARRAY)) return ck_strip(t->of);
        t = ck_type(c, e->b);
        if (t && (t->kind == GK_T_PTR || t->kind == GK_T_ARRAY)) return ck_strip(t->of);
        return NULL;
    case GK_E_MEMBER:
        return ck_member(ck_type(c, e->a), e->name);
    case GK_E_ARROW:
        t = ck_type(c, e->a);
        if (t && (t->kind == GK_T_PTR || t->kind == GK_T_ARRAY)) return ck_member(t->of, e->name);
        return NULL;
    case GK_E_UNARY:
        if (!strcmp(e->op, "*")) {
            t = ck_type(c, e->a);
            return t && (t->kind == GK_T_PTR || t->kind == GK_T_ARRAY) ? ck_strip(t->of) : NULL;
        }
        if (!strcmp(e->op, "&")) return ck_ptr_to(c, ck_type(c, e->a));
        if (!strcmp(e->op, "++") || !strcmp(e->op, "--")) return ck_type(c, e->a);
        return NULL;
    case GK_E_POSTINC:
        return ck_type(c, e->a);
    case GK_E_CAST:
    case GK_E_COMPOUND:
        return ck_strip(e->type);
    case GK_E_COND:
        t = ck_type(c, e->b);
        return t ? t : ck_type(c, e->c);
    case GK_E_ASSIGN:
        return ck_type(c, e->a);
    case GK_E_BINARY:
        if (!strcmp(e->op, ",")) return ck_type(c, e->b);
        if (!strcmp(e->op, "+") || !strcmp(e->op, "-")) {
            t = ck_type(c, e->a);
            if (t && t->kind == GK_T_PTR) return t;
            if (t && t->kind == GK_T_ARRAY) return ck_ptr_to(c, t->of);
            if (e->op[0] == '+') {
                t = ck_type(c, e->b);
                if (t && t->kind == GK_T_PTR) return t;
                if (t && t->kind == GK_T_ARRAY) return ck_ptr_to(c, t->of);
            }
        }
        return NULL;
    case GK_E_CALL:
        if (e->a->kind == GK_E_IDENT) {
            const ck_sym *s = e->a->note;
            if (s && s->kind == CK_FUNC && s->type->kind == GK_T_FUNC) return ck_strip(s->type->of);
        }
        return NULL;
    default:
        return NULL;
    }
}

static bool ck_is_array_expr(ck *c, const gk_expr *e)
{
    const gk_type *t = ck_type(c, e);
    return t && t->kind == GK_T_ARRAY;
}

enum { CK_A_NONE, CK_A_PTR, CK_A_SHARED, CK_A_PRIVATE, CK_A_CONST };

#define CK_MAX_SUBS 8
typedef struct ck_acc {
    int kind;
    const gk_expr *step; /* PTR: the node that dereferences */
    const ck_sym *root;  /* arrays: the named array */
    uint32_t reg;
    const gk_expr *subs[CK_MAX_SUBS]; /* array subscripts, as met from the outside in */
    uint32_t nsubs;
} ck_acc;

static uint32_t ck_prov(ck *c, const gk_expr *e, int depth);

static uint32_t ck_sym_region(const ck_sym *s)
{
    if (!s) return GP_CK_REG_SEARCH;
    switch (s->kind) {
    case CK_PARAM:
        return s->pkind == GK_KP_VAL ? GP_CK_REG_SEARCH : s->index;
    case CK_SHARED:
        return GP_CK_REG_SHARED(s->index);
    case CK_GLOBAL:
        return s->index < GP_CK_MAX_CONST ? GP_CK_REG_CONST0 + s->index : GP_CK_REG_SEARCH;
    case CK_LOCAL:
        return ck_is_ptr(s->type) && s->prov != CK_UNSET ? s->prov : GP_CK_REG_SEARCH;
    default:
        return GP_CK_REG_SEARCH;
    }
}

/* What the lvalue L touches. */
static void ck_classify(ck *c, const gk_expr *L, ck_acc *a, int depth)
{
    memset(a, 0, sizeof *a);
    a->reg = GP_CK_REG_SEARCH;
    const gk_expr *n = L;
    for (;;) {
        switch (n->kind) {
        case GK_E_MEMBER:
            n = n->a;
            continue;
        case GK_E_INDEX:
            if (ck_is_array_expr(c, n->a) && a->nsubs < CK_MAX_SUBS) {
                a->subs[a->nsubs++] = n;
                n = n->a;
                continue;
            }
            a->kind = CK_A_PTR;
            a->step = n;
            a->reg = ck_prov(c, n->a, depth + 1);
            return;
        case GK_E_ARROW:
            a->kind = CK_A_PTR;
            a->step = n;
            a->reg = ck_prov(c, n->a, depth + 1);
            return;
        case GK_E_UNARY:
            if (!strcmp(n->op, "*")) {
                a->kind = CK_A_PTR;
                a->step = n;
                a->reg = ck_prov(c, n->a, depth + 1);
                return;
            }
            a->kind = CK_A_NONE;
            return;
        case GK_E_IDENT: {
            const ck_sym *s = n->note;
            a->root = s;
            if (s && s->kind == CK_SHARED) { /* shared scalars and structs are memory too */
                a->kind = CK_A_SHARED;
                a->reg = GP_CK_REG_SHARED(s->index);
                return;
            }
            if (!s || a->nsubs == 0) {
                a->kind = CK_A_NONE;
                return;
            }
            if (s->kind == CK_SHARED) {
                a->kind = CK_A_SHARED;
                a->reg = GP_CK_REG_SHARED(s->index);
            } else if (s->kind == CK_GLOBAL) {
                a->kind = CK_A_CONST;
            } else {
                a->kind = CK_A_PRIVATE;
            }
            return;
        }
        default:
            a->kind = CK_A_NONE;
            return;
        }
    }
}

static uint32_t ck_lvalue_region(ck *c, const gk_expr *L, int depth)
{
    if (L->kind == GK_E_IDENT) return ck_sym_region(L->note);
    ck_acc a;
    ck_classify(c, L, &a, depth);
    if (a.kind == CK_A_PTR || a.kind == CK_A_SHARED) return a.reg;
    if (a.kind == CK_A_CONST) return ck_sym_region(a.root);
    return GP_CK_REG_SEARCH;
}

/* The region a pointer-valued expression points into, when it can be known from the source. */
static uint32_t ck_prov(ck *c, const gk_expr *e, int depth)
{
    if (depth > 64) return GP_CK_REG_SEARCH;
    switch (e->kind) {
    case GK_E_IDENT:
        return ck_sym_region(e->note);
    case GK_E_CAST:
    case GK_E_POSTINC:
        return ck_prov(c, e->a, depth + 1);
    case GK_E_UNARY:
        if (!strcmp(e->op, "&")) return ck_lvalue_region(c, e->a, depth + 1);
        if (!strcmp(e->op, "++") || !strcmp(e->op, "--")) return ck_prov(c, e->a, depth + 1);
        return GP_CK_REG_SEARCH;
    case GK_E_BINARY:
        if (!strcmp(e->op, ",")) return ck_prov(c, e->b, depth + 1);
        if (!strcmp(e->op, "+") || !strcmp(e->op, "-")) {
            const gk_type *t = ck_type(c, e->a);
            if (t && (t->kind == GK_T_PTR || t->kind == GK_T_ARRAY))
                return ck_prov(c, e->a, depth + 1);
            t = ck_type(c, e->b);
            if (e->op[0] == '+' && t && (t->kind == GK_T_PTR || t->kind == GK_T_ARRAY))
                return ck_prov(c, e->b, depth + 1);
        }
        return GP_CK_REG_SEARCH;
    case GK_E_COND: {
        uint32_t b = ck_prov(c, e->b, depth + 1), d = ck_prov(c, e->c, depth + 1);
        return b == d ? b : GP_CK_REG_SEARCH;
    }
    case GK_E_ASSIGN:
        return ck_prov(c, strcmp(e->op, "=") ? e->a : e->b, depth + 1);
    case GK_E_INDEX:
    case GK_E_MEMBER:
    case GK_E_ARROW:
        if (ck_is_array_expr(c, e)) return ck_lvalue_region(c, e, depth + 1);
        return GP_CK_REG_SEARCH;
    default:
        return GP_CK_REG_SEARCH;
    }
}

/* Local pointers: the meet of what is assigned to them, to a fixed point. */
static void ck_provenance(ck *c)
{
    for (int round = 0; round < 16; round++) {
        bool changed = false;
        for (ck_sym *s = c->pointers; s; s = s->all_next) {
            uint32_t p = CK_UNSET;
            if (s->conflict || s->nsrcs == 0) {
                p = GP_CK_REG_SEARCH;
            } else {
                for (size_t i = 0; i < s->nsrcs; i++) {
                    const gk_expr *src = s->srcs[i];
                    uint32_t q;
                    if (src->kind == GK_E_IDENT && src->note &&
                        ((ck_sym *)src->note)->kind == CK_LOCAL &&
                        ((ck_sym *)src->note)->prov == CK_UNSET)
                        continue; /* no information yet */
                    q = ck_prov(c, src, 0);
                    if (p == CK_UNSET)
                        p = q;
                    else if (p != q)
                        p = GP_CK_REG_SEARCH;
                }
            }
            if (p != s->prov) {
                s->prov = p;
                changed = true;
            }
        }
        if (!changed) break;
    }
    for (ck_sym *s = c->pointers; s; s = s->all_next)
        if (s->prov == CK_UNSET) s->prov = GP_CK_REG_SEARCH;
}

/* The private array (a local array of this function) a pointer-valued expression points into, or
 * NULL. `*unknown` is set when it depends on a pointer not yet worked out. */
static const ck_sym *ck_parr(ck *c, const gk_expr *e, bool *unknown, int depth)
{
    if (depth > 64) return NULL;
    switch (e->kind) {
    case GK_E_IDENT: {
        const ck_sym *s = e->note;
        if (!s || s->kind != CK_LOCAL) return NULL;
        const gk_type *t = ck_strip(s->type);
        if (t && t->kind == GK_T_ARRAY) return s;
        if (t && t->kind == GK_T_PTR) {
            if (!s->parr_set) *unknown = true;
            return s->parr;
        }
        return NULL;
    }
    case GK_E_CAST:
    case GK_E_POSTINC:
        return ck_parr(c, e->a, unknown, depth + 1);
    case GK_E_UNARY:
        if (!strcmp(e->op, "++") || !strcmp(e->op, "--"))
            return ck_parr(c, e->a, unknown, depth + 1);
        if (!strcmp(e->op, "&")) {
            const gk_expr *n = e->a;
            while (n->kind == GK_E_INDEX && ck_is_array_expr(c, n->a))
                n = n->a;
            if (n->kind != GK_E_IDENT) return NULL;
            const ck_sym *s = n->note;
            const gk_type *t = s ? ck_strip(s->type) : NULL;
            return s && s->kind == CK_LOCAL && t && t->kind == GK_T_ARRAY ? s : NULL;
        }
        return NULL;
    case GK_E_BINARY:
        if (!strcmp(e->op, "+") || !strcmp(e->op, "-")) {
            const gk_type *t = ck_type(c, e->a);
            if (t && (t->kind == GK_T_PTR || t->kind == GK_T_ARRAY))
                return ck_parr(c, e->a, unknown, depth + 1);
            t = ck_type(c, e->b);
            if (e->op[0] == '+' && t && (t->kind == GK_T_PTR || t->kind == GK_T_ARRAY))
                return ck_parr(c, e->b, unknown, depth + 1);
        }
        return NULL;
    case GK_E_COND: {
        const ck_sym *b = ck_parr(c, e->b, unknown, depth + 1);
        return b == ck_parr(c, e->c, unknown, depth + 1) ? b : NULL;
    }
    case GK_E_ASSIGN:
        return strcmp(e->op, "=") ? ck_parr(c, e->a, unknown, depth + 1)
                                  : ck_parr(c, e->b, unknown, depth + 1);
    default:
        return NULL;
    }
}

/* Local pointers into private arrays: the one array every assignment points them into. */
static void ck_private_pointers(ck *c)
{
    for (int round = 0; round < 16; round++) {
        bool changed = false;
        for (ck_sym *s = c->pointers; s; s = s->all_next) {
            if (s->parr_set) continue;
            const ck_sym *a = NULL;
            bool unknown = false, none = s->conflict || s->nsrcs == 0;
            for (size_t i = 0; i < s->nsrcs && !none; i++) {
                bool u = false;
                const ck_sym *q = ck_parr(c, s->srcs[i], &u, 0);
                if (u) {
                    unknown = true;
                    continue;
                }
                if (!q || (a && a != q)) none = true;
                a = q;
            }
            if (none || !unknown) {
                s->parr = none ? NULL : a;
                s->parr_set = changed = true;
            }
        }
        if (!changed) break;
    }
    for (ck_sym *s = c->pointers; s; s = s->all_next)
        if (!s->parr_set) s->parr = NULL, s->parr_set = true;
}

/* ---- 3. calls ------------------------------------------------------------------------------ */
static void ck_calls(ck *c)
{
    for (bool changed = true; changed;) {
        changed = false;
        for (size_t i = 0; i < c->nfns; i++) {
            ck_fn *f = &c->fns[i];
            if (f->sync) continue;
            for (size_t k = 0; k < f->ncallees; k++) {
                ck_fn *g = ck_fn_of(c, f->callees[k]);
                if (g && g->sync) {
                    f->sync = changed = true;
                    break;
                }
            }
        }
    }
}

/* ---- printing ------------------------------------------------------------------------------ */
static void ck_puts(gk_printer *p, const char *s)
{
    gp_strbuf_puts(p->out, s);
}

static void ck_c_string(gp_strbuf *sb, const char *s)
{
    gp_strbuf_putc(sb, '"');
    for (; *s; s++) {
        unsigned char ch = (unsigned char)*s;
        if (ch == '"' || ch == '\\')
            gp_strbuf_printf(sb, "\\%c", ch);
        else if (ch < 0x20 || ch >= 0x7f)
            gp_strbuf_printf(sb, "\\%03o", ch);
        else
            gp_strbuf_putc(sb, (char)ch);
    }
    gp_strbuf_putc(sb, '"');
}

static uint32_t ck_site(ck *c, uint32_t kind, gk_pos pos, const char *object)
{
    gp_strbuf_printf(&c->sites, "    {%u, %u, %u, %u, ", kind, pos.line, pos.col, pos.file);
    ck_c_string(&c->sites, object ? object : "");
    gp_strbuf_printf(&c->sites, ", %d},\n",
                     c->printing && c->printing->kind == GK_TOP_FUNCTION ? 1 : 0);
    return c->nsites++;
}

/* An expression printed with only the renaming (for typeof and sizeof copies). */
static void ck_plain(gk_printer *p, const gk_expr *e, int prec)
{
    ck *c = p->ctx;
    bool was = c->plain;
    c->plain = true;
    gk_print_expr(p, e, prec);
    c->plain = was;
}

/* Short text naming what an access goes through, for reports. */
static const char *ck_object(gk_printer *p, const gk_expr *e, const char *prefix,
                             const char *suffix)
{
    ck *c = p->ctx;
    gp_strbuf sb = GP_STRBUF_INIT;
    gp_strbuf *saved = p->out;
    uint32_t line = p->line;
    p->out = &sb;
    gp_strbuf_puts(&sb, prefix);
    bool was = c->plain;
    c->plain = true;
    bool renamed = false;
    if (e->kind == GK_E_IDENT) {
        gp_strbuf_puts(&sb, e->name); /* the user's name, not the shared view */
        renamed = true;
    }
    if (!renamed) gk_print_expr(p, e, GK_PREC_POSTFIX);
    c->plain = was;
    gp_strbuf_puts(&sb, suffix);
    p->out = saved;
    p->line = line;
    if (sb.len > 60) {
        sb.data[57] = '.', sb.data[58] = '.', sb.data[59] = '.', sb.data[60] = '\0';
        sb.len = 60;
    }
    const char *s = sb.failed ? "" : gk_strndup(&c->arena, sb.data ? sb.data : "", sb.len);
    gp_strbuf_free(&sb);
    return s ? s : "";
}

static bool ck_is_sub(const ck_acc *a, const gk_expr *n, uint32_t *level)
{
    for (uint32_t i = 0; i < a->nsubs; i++)
        if (a->subs[i] == n) {
            *level = a->nsubs - 1 - i; /* dimension 0 is the one next to the name */
            return true;
        }
    return false;
}

/* how the chain checks the indices of the arrays it names: not at all, a shared array (the access
 * is then not performed), a private or constant array, arrays of sized members reached through a
 * pointer (both: the access goes to element 0) */
enum { CK_IX_NONE, CK_IX_SHARED, CK_IX_PRIVATE, CK_IX_MEMBER };

/* The lvalue chain of an access: its own nodes structurally, the expressions inside them (the
 * pointer it goes through, the indices) through the hooks. */
static void ck_chain(gk_printer *p, const gk_expr *e, const ck_acc *a, int ix, uint32_t site)
{
    ck *c = p->ctx;
    uint32_t level;
    switch (e->kind) {
    case GK_E_MEMBER:
        ck_chain(p, e->a, a, ix, site);
        ck_puts(p, ".");
        ck_puts(p, e->name);
        return;
    case GK_E_INDEX:
        if (ck_is_sub(a, e, &level)) {
            ck_chain(p, e->a, a, ix, site);
            ck_puts(p, "[");
            const gk_type *at = ck_type(c, e->a);
            if (ix == CK_IX_NONE || (ix == CK_IX_MEMBER && !(at && at->dim))) {
                gk_print_expr(p, e->b, GK_PREC_COMMA);
            } else {
                gp_strbuf_printf(p->out, "%s(%u, %u, ",
                                 ix == CK_IX_SHARED ? "GP__CK_IX" : "GP__CK_IXP", site, level);
                gk_print_expr(p, e->b, GK_PREC_ASSIGN);
                ck_puts(p, ", ");
                if (at && at->dim) {
                    gk_print_expr_plain(p, at->dim, GK_PREC_ASSIGN);
                } else {
                    ck_puts(p, "sizeof(");
                    ck_plain(p, e->a, GK_PREC_COMMA);
                    ck_puts(p, ") / sizeof((");
                    ck_plain(p, e->a, GK_PREC_COMMA);
                    ck_puts(p, ")[0])");
                }
                ck_puts(p, ")");
            }
            ck_puts(p, "]");
            return;
        }
        gk_print_expr(p, e->a, GK_PREC_POSTFIX);
        ck_puts(p, "[");
        gk_print_expr(p, e->b, GK_PREC_COMMA);
        ck_puts(p, "]");
        return;
    case GK_E_ARROW:
        gk_print_expr(p, e->a, GK_PREC_POSTFIX);
        ck_puts(p, "->");
        ck_puts(p, e->name);
        return;
    case GK_E_UNARY:
        ck_puts(p, "(*");
        gk_print_expr(p, e->a, GK_PREC_UNARY);
        ck_puts(p, ")");
        return;
    case GK_E_IDENT: /* the named object itself: renamed, not an access of its own */
        ck_plain(p, e, GK_PREC_POSTFIX);
        return;
    default:
        gk_print_expr(p, e, GK_PREC_POSTFIX);
        return;
    }
}

static const char *ck_access_object(gk_printer *p, const ck_acc *a)
{
    if (a->kind != CK_A_PTR) return a->root ? a->root->name : "";
    const gk_expr *s = a->step;
    if (s->kind == GK_E_INDEX) return ck_object(p, s->a, "", "");
    if (s->kind == GK_E_ARROW) {
        const char *base = ck_object(p, s->a, "", "->");
        char buf[128];
        snprintf(buf, sizeof buf, "%s%s", base, s->name);
        const char *r = gk_strndup(&((ck *)p->ctx)->arena, buf, strlen(buf));
        return r ? r : base;
    }
    return ck_object(p, s->a, "*", "");
}

/* An access through a pointer that indexes arrays of the pointee (p->v[k], p[i].m[r][c]): the
 * site of those indices, each checked against its member's size; UINT32_MAX when none. */
static uint32_t ck_member_ix_site(gk_printer *p, const ck_acc *a, const gk_expr *L)
{
    if (a->kind != CK_A_PTR || a->nsubs == 0) return UINT32_MAX;
    const gk_expr *arr = a->subs[a->nsubs - 1]->a;
    return ck_site(p->ctx, GP_CK_SITE_INDEX, L->pos, ck_object(p, arr, "", ""));
}

static bool ck_tracked(const ck_sym *s)
{
    return s && s->kind == CK_LOCAL && s->tracked && !s->conflict && !s->escapes;
}

/* An access of a tracked private variable (initcheck): through gp__ck_pv and its shadow. */
static bool ck_print_private(gk_printer *p, const gk_expr *L, uint32_t kind)
{
    ck *c = p->ctx;
    const ck_sym *root = ck_root_sym(L);
    if (!ck_tracked(root) || ck_is_array_expr(c, L)) return false;
    ck_acc a;
    ck_classify(c, L, &a, 0);
    uint32_t site = ck_site(c, kind, L->pos, root->name);
    uint32_t isite = a.nsubs ? ck_site(c, GP_CK_SITE_INDEX, L->pos, root->name) : 0;
    ck_puts(p, "(*(__typeof__(&(");
    ck_plain(p, L, GK_PREC_COMMA);
    gp_strbuf_printf(p->out, ")))gp__ck_pv(gp__ck, gp__li, %u, %u, (void *)(uintptr_t)&(", site,
                     kind);
    ck_chain(p, L, &a, a.nsubs ? CK_IX_PRIVATE : CK_IX_NONE, isite);
    gp_strbuf_printf(p->out, "), (const void *)(uintptr_t)&%s, gp__in_%s, (uint32_t)sizeof(",
                     root->name, root->name);
    ck_plain(p, L, GK_PREC_COMMA);
    ck_puts(p, ")))");
    return true;
}

/* The private array an access through a pointer goes into (NULL: none known). */
static const ck_sym *ck_access_parr(ck *c, const ck_acc *a)
{
    if (a->kind != CK_A_PTR) return NULL;
    bool unknown = false;
    const gk_expr *ptr = a->step->a;
    if (a->step->kind == GK_E_INDEX) {
        const gk_type *t = ck_type(c, ptr);
        if (!t || (t->kind != GK_T_PTR && t->kind != GK_T_ARRAY)) ptr = a->step->b;
    }
    const ck_sym *s = ck_parr(c, ptr, &unknown, 0);
    return unknown ? NULL : s;
}

/* An access through a pointer into a private array: checked against the array's bytes (outside:
 * reported, and the access goes to the array's first element instead). */
static bool ck_print_private_ptr(gk_printer *p, const gk_expr *L, const ck_acc *a, uint32_t kind)
{
    ck *c = p->ctx;
    const ck_sym *arr = ck_access_parr(c, a);
    if (!arr) return false;
    uint32_t site = ck_site(c, kind, L->pos, ck_access_object(p, a));
    uint32_t asite = ck_site(c, GP_CK_SITE_INDEX, L->pos, arr->name);
    uint32_t isite = ck_member_ix_site(p, a, L);
    ck_puts(p, "(*(__typeof__(&(");
    ck_plain(p, L, GK_PREC_COMMA);
    gp_strbuf_printf(p->out, ")))gp__ck_pp(gp__ck, gp__li, %u, %u, %u, (const void *)(uintptr_t)&(",
                     site, asite, kind);
    ck_chain(p, L, a, isite != UINT32_MAX ? CK_IX_MEMBER : CK_IX_NONE, isite);
    gp_strbuf_printf(p->out, "), (const void *)(uintptr_t)%s, sizeof(%s), (uint32_t)sizeof(",
                     arr->name, arr->name);
    ck_plain(p, L, GK_PREC_COMMA);
    ck_puts(p, ")))");
    return true;
}

/* Prints lvalue L accessed as `kind`; false when L touches no memory the checker follows (a
 * private variable), so the caller prints it as it is. */
static bool ck_print_lvalue(gk_printer *p, const gk_expr *L, uint32_t kind)
{
    ck *c = p->ctx;
    if (ck_print_private(p, L, kind)) return true;
    ck_acc a;
    ck_classify(c, L, &a, 0);
    if (a.kind == CK_A_NONE) return false;
    if (ck_is_array_expr(c, L)) { /* an array that decays: no access */
        ck_chain(p, L, &a, CK_IX_NONE, 0);
        return true;
    }
    if (a.kind == CK_A_PRIVATE || a.kind == CK_A_CONST) {
        uint32_t site = ck_site(c, GP_CK_SITE_INDEX, L->pos, a.root->name);
        ck_chain(p, L, &a, CK_IX_PRIVATE, site);
        return true;
    }
    if (ck_print_private_ptr(p, L, &a, kind)) return true;
    uint32_t site = ck_site(c, kind, L->pos, ck_access_object(p, &a));
    uint32_t isite = ck_member_ix_site(p, &a, L);
    ck_puts(p, a.kind == CK_A_SHARED ? "GP__CK_Q(__typeof__(&(" : "GP__CK_P(__typeof__(&(");
    ck_plain(p, L, GK_PREC_COMMA);
    gp_strbuf_printf(p->out, ")), %u, %u, %u, &(", site, a.reg, kind);
    if (a.kind == CK_A_SHARED)
        ck_chain(p, L, &a, CK_IX_SHARED, site);
    else
        ck_chain(p, L, &a, isite != UINT32_MAX ? CK_IX_MEMBER : CK_IX_NONE, isite);
    ck_puts(p, "))");
    return true;
}

/* A plain store `L = V` to memory the checker follows, printed with its value (uniform writes:
 * several work-items storing the value the word already holds are no race); false when L is not
 * such memory. */
static bool ck_print_store(gk_printer *p, const gk_expr *e)
{
    ck *c = p->ctx;
    const gk_expr *L = e->a;
    ck_acc a;
    ck_classify(c, L, &a, 0);
    if ((a.kind != CK_A_PTR && a.kind != CK_A_SHARED) || ck_is_array_expr(c, L) ||
        ck_access_parr(c, &a))
        return false;
    uint32_t site = ck_site(c, GP_CK_WRITE, L->pos, ck_access_object(p, &a));
    uint32_t isite = ck_member_ix_site(p, &a, L);
    ck_puts(p, a.kind == CK_A_SHARED ? "GP__CK_SET(gp__ck_arr, __typeof__(&("
                                     : "GP__CK_SET(gp__ck_acc, __typeof__(&(");
    ck_plain(p, L, GK_PREC_COMMA);
    gp_strbuf_printf(p->out, ")), %u, %u, &(", site, a.reg);
    if (a.kind == CK_A_SHARED)
        ck_chain(p, L, &a, CK_IX_SHARED, site);
    else
        ck_chain(p, L, &a, isite != UINT32_MAX ? CK_IX_MEMBER : CK_IX_NONE, isite);
    ck_puts(p, "), ");
    gk_print_expr(p, e->b, GK_PREC_ASSIGN);
    ck_puts(p, ")");
    return true;
}

/* The first argument of an atomic: the address it works on. A compare-exchange names the variable
 * holding its expected value (`cas`), to tell a write from a read. */
static void ck_print_atomic_target(gk_printer *p, const gk_expr *arg, const char *cas)
{
    ck *c = p->ctx;
    if (arg->kind == GK_E_UNARY && !strcmp(arg->op, "&")) {
        const gk_expr *L = arg->a;
        ck_acc a;
        ck_classify(c, L, &a, 0);
        if (a.kind == CK_A_PTR || a.kind == CK_A_SHARED) {
            uint32_t site = ck_site(c, GP_CK_ATOMIC, L->pos, ck_access_object(p, &a));
            ck_puts(p, a.kind == CK_A_SHARED ? (cas ? "GP__CK_ACQ" : "GP__CK_AQ")
                                             : (cas ? "GP__CK_AC" : "GP__CK_A"));
            ck_puts(p, "(__typeof__(&(");
            ck_plain(p, L, GK_PREC_COMMA);
            gp_strbuf_printf(p->out, ")), %u, %u, &(", site, a.reg);
            ck_chain(p, L, &a, a.kind == CK_A_SHARED ? CK_IX_SHARED : CK_IX_NONE, site);
            ck_puts(p, ")");
            if (cas) gp_strbuf_printf(p->out, ", &%s", cas);
            ck_puts(p, ")");
            return;
        }
        gk_print_expr(p, arg, GK_PREC_ASSIGN);
        return;
    }
    uint32_t site = ck_site(c, GP_CK_ATOMIC, arg->pos, ck_object(p, arg, "*", ""));
    ck_puts(p, cas ? "GP__CK_AC(__typeof__(" : "GP__CK_A(__typeof__(");
    ck_plain(p, arg, GK_PREC_COMMA);
    gp_strbuf_printf(p->out, "), %u, %u, ", site, ck_prov(c, arg, 0));
    gk_print_expr(p, arg, GK_PREC_ASSIGN);
    if (cas) gp_strbuf_printf(p->out, ", &%s", cas);
    ck_puts(p, ")");
}

/* An expression the C compiler folds to a constant (in case labels and array sizes a division
 * must stay one); identifiers the source does not declare are enumerators or prelude constants. */
static bool ck_is_constant(const gk_expr *e)
{
    switch (e->kind) {
    case GK_E_NUMBER:
    case GK_E_CHAR:
    case GK_E_SIZEOF_TYPE:
    case GK_E_SIZEOF_EXPR:
        return true;
    case GK_E_IDENT:
        return e->note == NULL;
    case GK_E_UNARY:
        return strcmp(e->op, "*") && strcmp(e->op, "&") && strcmp(e->op, "++") &&
               strcmp(e->op, "--") && ck_is_constant(e->a);
    case GK_E_CAST:
        return ck_is_constant(e->a);
    case GK_E_BINARY:
        return ck_is_constant(e->a) && ck_is_constant(e->b);
    case GK_E_COND:
        return ck_is_constant(e->a) && ck_is_constant(e->b) && ck_is_constant(e->c);
    default:
        return false;
    }
}

static void ck_print_call_args(gk_printer *p, const gk_expr *e, size_t from)
{
    for (size_t i = from; i < e->nargs; i++) {
        if (i > from) ck_puts(p, ", ");
        gk_print_expr(p, e->args[i], GK_PREC_ASSIGN);
    }
}

static bool ck_expr_hook(gk_printer *p, const gk_expr *e, int prec)
{
    ck *c = p->ctx;
    if (e->kind == GK_E_IDENT) {
        const ck_sym *s = e->note;
        if (s && s->kind == CK_SHARED) {
            /* a shared scalar or struct read by its bare name is an access too */
            if (!c->plain && c->printing) return ck_print_lvalue(p, e, GP_CK_READ);
            gp_strbuf_printf(p->out, "(*gp__sh_%s)", s->name);
            return true;
        }
        if (ck_tracked(s) && !c->plain && c->printing) return ck_print_private(p, e, GP_CK_READ);
        return false;
    }
    if (c->plain || !c->printing) return false;
    bool paren = gk_expr_prec(e) < prec;
    switch (e->kind) {
    case GK_E_INDEX:
    case GK_E_MEMBER:
    case GK_E_ARROW:
        return ck_print_lvalue(p, e, GP_CK_READ);
    case GK_E_UNARY:
        if (!strcmp(e->op, "*")) return ck_print_lvalue(p, e, GP_CK_READ);
        if (!strcmp(e->op, "++") || !strcmp(e->op, "--")) {
            if (paren) ck_puts(p, "(");
            ck_puts(p, e->op);
            if (!ck_print_lvalue(p, e->a, GP_CK_RMW)) gk_print_expr(p, e->a, GK_PREC_UNARY);
            if (paren) ck_puts(p, ")");
            return true;
        }
        if (!strcmp(e->op, "&")) {
            ck_acc a;
            ck_classify(c, e->a, &a, 0);
            if (a.kind == CK_A_NONE) return false;
            if (paren) ck_puts(p, "(");
            ck_puts(p, "&(");
            ck_chain(p, e->a, &a, CK_IX_NONE, 0);
            ck_puts(p, ")");
            if (paren) ck_puts(p, ")");
            return true;
        }
        return false;
    case GK_E_POSTINC:
        if (paren) ck_puts(p, "(");
        if (!ck_print_lvalue(p, e->a, GP_CK_RMW)) gk_print_expr(p, e->a, GK_PREC_POSTFIX);
        ck_puts(p, e->op);
        if (paren) ck_puts(p, ")");
        return true;
    case GK_E_BINARY:
        if ((!strcmp(e->op, "/") || !strcmp(e->op, "%")) && !ck_is_constant(e->b)) {
            /* an integer division the CPU would trap on */
            uint32_t site = ck_site(c, GP_CK_READ, e->op_pos, ck_object(p, e->b, "", ""));
            gp_strbuf_printf(p->out, "GP__CK_DIV(%u, %s, ", site, e->op);
            gk_print_expr(p, e->a, GK_PREC_ASSIGN);
            ck_puts(p, ", ");
            gk_print_expr(p, e->b, GK_PREC_ASSIGN);
            ck_puts(p, ")");
            return true;
        }
        return false;
    case GK_E_ASSIGN:
        if ((!strcmp(e->op, "/=") || !strcmp(e->op, "%=")) && !ck_is_constant(e->b)) {
            uint32_t site = ck_site(c, GP_CK_READ, e->op_pos, ck_object(p, e->b, "", ""));
            gp_strbuf_printf(p->out, "GP__CK_DIV_ASSIGN(%u, %c, &(", site, e->op[0]);
            if (!ck_print_lvalue(p, e->a, GP_CK_RMW)) gk_print_expr(p, e->a, GK_PREC_UNARY);
            ck_puts(p, "), ");
            gk_print_expr(p, e->b, GK_PREC_ASSIGN);
            ck_puts(p, ")");
            return true;
        }
        if (!strcmp(e->op, "=") && ck_print_store(p, e)) return true;
        if (paren) ck_puts(p, "(");
        if (!ck_print_lvalue(p, e->a, strcmp(e->op, "=") ? GP_CK_RMW : GP_CK_WRITE))
            gk_print_expr(p, e->a, GK_PREC_UNARY);
        ck_puts(p, " ");
        ck_puts(p, e->op);
        ck_puts(p, " ");
        gk_print_expr(p, e->b, GK_PREC_ASSIGN);
        if (paren) ck_puts(p, ")");
        return true;
    case GK_E_SIZEOF_EXPR:
        if (paren) ck_puts(p, "(");
        ck_puts(p, "sizeof(");
        ck_plain(p, e->a, GK_PREC_COMMA);
        ck_puts(p, ")");
        if (paren) ck_puts(p, ")");
        return true;
    case GK_E_CALL: {
        if (e->a->kind != GK_E_IDENT) return false;
        const ck_sym *callee = e->a->note;
        if (callee && callee->kind == CK_FUNC) {
            const ck_fn *f = ck_fn_of(c, callee->name);
            if (c->printing->kind != GK_TOP_KERNEL || !f || !f->sync) return false;
            /* where a barrier inside it is reached from: this line of the kernel */
            uint32_t site = ck_site(c, GP_CK_SITE_CALL, e->pos, callee->name);
            if (paren) ck_puts(p, "(");
            gp_strbuf_printf(p->out, "(gp__ck_call(gp__ck, gp__li, %u), %s(%s%s", site,
                             callee->name, p->helper_args, e->nargs ? ", " : "");
            ck_print_call_args(p, e, 0);
            ck_puts(p, "))");
            if (paren) ck_puts(p, ")");
            return true;
        }
        if (e->a->note) return false;
        const char *n = e->a->name;
        if (!strcmp(n, "gp_barrier") || !strcmp(n, "gp_simd_barrier")) {
            uint32_t site =
                ck_site(c, n[3] == 'b' ? GP_CK_SITE_BARRIER : GP_CK_SITE_SIMD_BARRIER, e->pos, n);
            gp_strbuf_printf(p->out, "%s(gp__ck, gp__li, %u)",
                             n[3] == 'b' ? "gp__ck_barrier" : "gp__ck_simd_barrier", site);
            return true;
        }
        if (ck_is_simd_op(n)) {
            uint32_t site = ck_site(c, GP_CK_SITE_SIMD, e->pos, n);
            gp_strbuf_printf(p->out, "GP__CK_NOTE(%u, %s(", site, n);
            ck_print_call_args(p, e, 0);
            ck_puts(p, "))");
            return true;
        }
        if ((!strcmp(n, "gp_atomic_cas") || !strcmp(n, "gp_atomic64_cas")) && e->nargs == 3) {
            /* the expected value once, in a variable the hook compares the word with */
            if (paren) ck_puts(p, "(");
            ck_puts(p, "({ __typeof__(+*(");
            ck_plain(p, e->args[0], GK_PREC_COMMA);
            ck_puts(p, ")) gp__ce = (");
            gk_print_expr(p, e->args[1], GK_PREC_ASSIGN);
            gp_strbuf_printf(p->out, "); %s(", n);
            ck_print_atomic_target(p, e->args[0], "gp__ce");
            ck_puts(p, ", gp__ce, ");
            gk_print_expr(p, e->args[2], GK_PREC_ASSIGN);
            ck_puts(p, "); })");
            if (paren) ck_puts(p, ")");
            return true;
        }
        if (ck_is_atomic(n) && e->nargs >= 1) {
            ck_puts(p, n);
            ck_puts(p, "(");
            ck_print_atomic_target(p, e->args[0], NULL);
            if (e->nargs > 1) ck_puts(p, ", ");
            ck_print_call_args(p, e, 1);
            ck_puts(p, ")");
            return true;
        }
        return false;
    }
    default:
        return false;
    }
}

static void ck_print_shared_decl(gk_printer *p, const gk_decl *d)
{
    ck *c = p->ctx;
    for (size_t i = 0; i < d->ndecls; i++) {
        const gk_declarator *dc = &d->decls[i];
        const ck_sym *s = dc->note;
        if (!s) continue;
        gk_print_line(p, dc->pos);
        ck_puts(p, "__typeof__(");
        gk_print_type(p, dc->type, NULL);
        gp_strbuf_printf(p->out, ") *const gp__sh_%s = (__typeof__(", s->name);
        gk_print_type(p, dc->type, NULL);
        gp_strbuf_printf(p->out, ") *)gp__ck->shared[%u]; (void)gp__sh_%s;", s->index, s->name);
        gk_print_newline(p);
        /* its row in the kernel's table, printed with the tables */
        uint32_t site = ck_site(c, GP_CK_WRITE, dc->pos, s->name);
        gp_strbuf *saved = p->out;
        uint32_t line = p->line;
        p->out = &c->shared_rows;
        ck_puts(p, "    {");
        ck_c_string(p->out, s->name);
        ck_puts(p, ", sizeof(");
        gk_print_type(p, dc->type, NULL);
        ck_puts(p, "), _Alignof(");
        gk_print_type(p, dc->type, NULL);
        ck_puts(p, "), sizeof(");
        const gk_type *elem = dc->type;
        uint32_t nd = 0;
        while (ck_strip(elem) && ck_strip(elem)->kind == GK_T_ARRAY) {
            elem = ck_strip(elem)->of;
            nd++;
        }
        gk_print_type(p, elem, NULL);
        gp_strbuf_printf(p->out, "), %u, %u, {", site, nd > 4 ? 4 : nd);
        const gk_type *t = ck_strip(dc->type);
        for (uint32_t k = 0; k < nd && k < 4; k++, t = ck_strip(t->of)) {
            if (k) ck_puts(p, ", ");
            ck_puts(p, "(long long)(");
            if (t->dim)
                gk_print_expr_plain(p, t->dim, GK_PREC_COMMA);
            else
                ck_puts(p, "0");
            ck_puts(p, ")");
        }
        if (!nd) ck_puts(p, "0");
        ck_puts(p, "}},\n");
        p->out = saved;
        p->line = line;
        c->shared_count++;
        if (dc->init) ck_fail(c, dc->pos, "a shared array cannot have an initializer");
    }
}

static bool ck_stmt_hook(gk_printer *p, const gk_stmt *s)
{
    ck *c = p->ctx;
    if (!c->printing) return false;
    if (s->kind == GK_S_DECL && (s->decl->storage & GK_S_SHARED_DECL)) {
        ck_print_shared_decl(p, s->decl);
        return true;
    }
    if (s->kind == GK_S_DECL) { /* initcheck's shadows of private variables without a value */
        bool any = false;
        for (size_t i = 0; i < s->decl->ndecls; i++)
            any = any || ck_tracked(s->decl->decls[i].note);
        if (!any) return false;
        gk_print_line(p, s->pos);
        gk_print_decl(p, s->decl);
        for (size_t i = 0; i < s->decl->ndecls; i++) {
            const ck_sym *v = s->decl->decls[i].note;
            if (ck_tracked(v))
                gp_strbuf_printf(
                    p->out,
                    " unsigned char gp__in_%s[sizeof(%s)]; __builtin_memset(gp__in_%s, "
                    "0, sizeof gp__in_%s);",
                    v->name, v->name, v->name, v->name);
        }
        gk_print_newline(p);
        return true;
    }
    if (s->kind == GK_S_RETURN && c->printing->kind == GK_TOP_KERNEL && !s->expr) {
        uint32_t site = ck_site(c, GP_CK_SITE_RETURN, s->pos, "return");
        gk_print_line(p, s->pos);
        gp_strbuf_printf(p->out, "{ gp__ck_ret(gp__ck, gp__li, %u); return; }", site);
        gk_print_newline(p);
        return true;
    }
    return false;
}

static void ck_body_begin(gk_printer *p, const gk_top *t)
{
    ck *c = p->ctx;
    c->printing = t;
    if (t->kind != GK_TOP_KERNEL) return;
    gp_strbuf_reset(&c->shared_rows);
    c->shared_count = 0;
    gk_print_indent(p);
    ck_puts(p, "gp_ck_ctx *const gp__ck = (gp_ck_ctx *)gp__g->check;");
    gk_print_newline(p);
    gk_print_indent(p);
    ck_puts(p, "const uint32_t gp__li = (uint32_t)(gp__gx - (int)gp__g->base[0]) + "
               "gp__g->local_size[0] * (gp__ly + gp__g->local_size[1] * gp__lz);");
    gk_print_newline(p);
    gk_print_indent(p);
    ck_puts(p, "(void)gp__ck; (void)gp__li;");
    gk_print_newline(p);
    p->need_line = true;
}

static void ck_body_end(gk_printer *p, const gk_top *t)
{
    ck *c = p->ctx;
    if (t->kind == GK_TOP_KERNEL) {
        uint32_t site = ck_site(c, GP_CK_SITE_END, t->body->end, "end");
        gk_print_line(p, t->body->end);
        gp_strbuf_printf(p->out, "gp__ck_end(gp__ck, gp__li, %u);", site);
        gk_print_newline(p);
        bool fibers = false;
        for (size_t i = 0; i < c->nfns; i++)
            if (c->fns[i].top == t) fibers = c->fns[i].sync;
        if (c->shared_count) {
            gp_strbuf_printf(&c->tables,
                             "static const gp_ck_shared_decl gp__ck_sh_%s[] = {\n%s};\n", t->name,
                             gp_strbuf_cstr(&c->shared_rows));
            gp_strbuf_printf(&c->tables,
                             "GP__CK_EXPORT const gp_ck_kernel gp__kcheck_%s = {GP_CK_ABI, %u, "
                             "\"%s\", %u, gp__ck_sh_%s};\n",
                             t->name, fibers ? (unsigned)GP_CK_K_FIBERS : 0u, t->name,
                             c->shared_count, t->name);
        } else {
            gp_strbuf_printf(&c->tables,
                             "GP__CK_EXPORT const gp_ck_kernel gp__kcheck_%s = {GP_CK_ABI, %u, "
                             "\"%s\", 0, 0};\n",
                             t->name, fibers ? (unsigned)GP_CK_K_FIBERS : 0u, t->name);
        }
    }
    c->printing = NULL;
}

int gp_ck_instrument(const gk_unit *u, gp_strbuf *out, char *err, size_t errlen)
{
    ck *c = calloc(1, sizeof *c);
    if (!c) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    c->u = u;
    ck_names(c);
    if (!c->err_text) ck_provenance(c);
    if (!c->err_text) ck_private_pointers(c);
    if (!c->err_text) ck_calls(c);
    int rc = 0;
    if (!c->err_text) {
        gk_printer p = {0};
        p.out = out;
        p.files = &u->files;
        p.ctx = c;
        p.expr_hook = ck_expr_hook;
        p.stmt_hook = ck_stmt_hook;
        p.body_begin = ck_body_begin;
        p.body_end = ck_body_end;
        p.helper_params = "gp_ck_ctx *gp__ck, uint32_t gp__li";
        p.helper_args = "gp__ck, gp__li";
        gk_print_unit(&p, u);
        gp_strbuf_puts(out, "\n/* the checker's tables */\n");
        gp_strbuf_printf(
            out, "static const gp_ck_site gp__ck_sites[] = {\n%s    {0, 0, 0, 0, \"\", 0}};\n",
            gp_strbuf_cstr(&c->sites));
        gp_strbuf_puts(out, "static const char *const gp__ck_files[] = {");
        for (size_t i = 0; i < u->files.n; i++) {
            if (i) gp_strbuf_puts(out, ", ");
            ck_c_string(out, u->files.names[i]);
        }
        gp_strbuf_puts(out, "};\n");
        gp_strbuf_puts(out, "static const void *const gp__ck_const_addr[] = {");
        for (uint32_t i = 0; i < c->nconst; i++)
            gp_strbuf_printf(out, "(const void *)&%s, ", c->consts[i]);
        gp_strbuf_puts(out, "0};\nstatic const uint64_t gp__ck_const_size[] = {");
        for (uint32_t i = 0; i < c->nconst; i++)
            gp_strbuf_printf(out, "sizeof(%s), ", c->consts[i]);
        gp_strbuf_puts(out, "0};\nstatic const char *const gp__ck_const_name[] = {");
        for (uint32_t i = 0; i < c->nconst; i++) {
            ck_c_string(out, c->consts[i]);
            gp_strbuf_puts(out, ", ");
        }
        gp_strbuf_puts(out, "0};\n");
        gp_strbuf_printf(out,
                         "GP__CK_EXPORT const gp_ck_program gp__ckprog = {GP_CK_ABI, %u, "
                         "gp__ck_sites, %u, gp__ck_files, %u, gp__ck_const_addr, "
                         "gp__ck_const_size, gp__ck_const_name};\n",
                         c->nsites, (unsigned)u->files.n, c->nconst);
        gp_strbuf_puts(out, gp_strbuf_cstr(&c->tables));
        if (out->failed || c->sites.failed || c->tables.failed)
            ck_fail(c, (gk_pos){0, 0, 0}, "out of memory instrumenting the source");
    }
    if (c->err_text) {
        const char *f = c->err_pos.file < u->files.n ? u->files.names[c->err_pos.file] : "?";
        snprintf(err, errlen, "%s:%u:%u: %s", f, c->err_pos.line, c->err_pos.col, c->err_text);
        rc = -1;
    }
    gp_strbuf_free(&c->sites);
    gp_strbuf_free(&c->tables);
    gp_strbuf_free(&c->shared_rows);
    gk_arena_free(&c->arena);
    free(c);
    return rc;
}
