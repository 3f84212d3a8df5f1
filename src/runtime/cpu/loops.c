/* loops.c — see loops.h. Three walks over a kernel's tree, then the printer with hooks:
 *   1. names: every identifier is tied to the declaration it names (scopes as C has them), and
 *      every assignment, increment and address-of is counted against its variable;
 *   2. plan: the body's statement lists are cut into regions at barriers; a barrier may sit in a
 *      block, in an `if` with a group-uniform condition or in a `for` whose declared counters
 *      start, end and step uniformly; a statement with one SIMD-group operation cuts too (its
 *      operands go to per-item arrays at the end of the region before, the next region reads
 *      each item's result from its lanes); shared and uniform declarations move to the group
 *      level; each identifier a region reads is noted against the region;
 *   3. variables: a private declared in one region and read in another is recomputed in each
 *      region (when it is a function of the ids and uniform values, never assigned) or becomes
 *      an array with the work-item index last (so neighbouring items are neighbouring words).
 * Anything else (a barrier in a while, do or switch, or under a condition not proven uniform, a
 * return before a barrier, a break out of a loop with barriers, goto, two SIMD-group operations
 * in a statement or one under ?:, && or ||, a helper that reaches a barrier or a SIMD-group
 * operation) leaves the kernel as it is: it runs as fibers. */
#include "runtime/cpu/loops.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/cpu/check/check.h"
#include "runtime/cpu/gpk/gpk.h"
#include "util/strbuf.h"

#define WG_MAX_ELEMS 256 /* elements of a private array that may become per-item storage */

typedef enum wv_kind { WV_PLAIN, WV_UNIFORM, WV_REMAT, WV_EXPAND } wv_kind;

typedef struct wg_var {
    const char *name;
    gk_declarator *dc; /* NULL for a parameter */
    bool param;
    bool list_decl; /* declared by a region statement of a planned list (may cross) */
    bool scalar;    /* not an array (a pointer, a number, a struct) */
    bool addr;      /* &x, or & of an element */
    bool whole;     /* an array used other than fully indexed */
    bool cross;     /* read in a region other than its own */
    bool unique;    /* no other declaration of the kernel has its name */
    /* the group's own 32-bit integers: a GP_SHARED_DECL array or scalar, or the GP_DYN_SHARED
     * block, of int or unsigned (atomics on it need no atomic instruction, see wg_group_atomic) */
    bool group_int;
    bool shared_decl; /* a GP_SHARED_DECL variable: used through its address (wg_print_hoist) */
    wv_kind kind;
    int region; /* of its declaration; -1 at the group level */
    unsigned rank, elems;
    unsigned nassign; /* assignments, increments, address-of */
    unsigned id;
} wg_var;

typedef struct wg_scope {
    wg_var *v;
    struct wg_scope *next;
} wg_scope;

typedef enum ws_kind {
    WS_REGION,
    WS_BARRIER,
    WS_HOIST, /* a shared, static or uniform declaration: printed at the group level */
    WS_URETURN,
    WS_IF,
    WS_FOR,
    WS_BLOCK,
    WS_SIMD /* a statement with one SIMD-group operation: its operands at the end of region `pre`,
               the statement itself at the start of `region` */
} ws_kind;

typedef struct ws_note {
    ws_kind kind;
    int region;
    bool printed;
    int pre, simd; /* WS_SIMD: the region of the operands, the operation's number */
    bool pre_printed;
} ws_note;

typedef struct wg_use {
    wg_var *v;
    int region;
} wg_use;

typedef struct wg {
    gk_arena arena;
    const gk_unit *u;
    const gk_top *k;
    wg_var **vars;
    size_t nvars, capvars;
    wg_scope *scope;
    wg_use *uses;
    size_t nuses, capuses;
    int nregions;
    int final_region; /* the region still open at the end of the body, or -1 */
    bool *has_return; /* per region */
    bool *need;       /* nregions x nvars: recomputed vars a region declares */
    const char *why;
    gk_pos why_pos;
    char whybuf[200];
    const gk_expr **simd; /* the SIMD-group operation of each WS_SIMD statement */
    int nsimd;
    /* printing */
    int printing_region;
} wg;

static const char *const wg_sync_names[] = {
    "gp_barrier",         "gp_simd_shuffle",      "gp_simd_shuffle_xor",
    "gp_simd_shuffle_up", "gp_simd_shuffle_down", "gp_simd_ballot",
    "gp_simd_any",        "gp_simd_all",          "gp_simd_barrier",
};
static const char *const wg_uniform_calls[] = {"gp_local_size", "gp_group_id", "gp_num_groups",
                                               "gp_global_size", "gp_simd_width"};
static const char *const wg_id_calls[] = {"gp_local_id", "gp_global_id", "gp_simd_lane"};
/* the SIMD-group operations a region can run as a step of its own; the value's type is what the
 * first operand's is, as the dialect's macros have it */
static const char *const wg_simd_value_ops[] = {"gp_simd_shuffle", "gp_simd_shuffle_xor",
                                                "gp_simd_shuffle_up", "gp_simd_shuffle_down"};
static const char *const wg_simd_vote_ops[] = {"gp_simd_ballot", "gp_simd_any", "gp_simd_all"};
/* the integer atomics of the dialect (the float adds are compare-exchange loops: atomic in the
 * group's thread as they are) */
static const char *const wg_int_atomics[] = {"gp_atomic_add", "gp_atomic_sub", "gp_atomic_and",
                                             "gp_atomic_or",  "gp_atomic_xor", "gp_atomic_xchg",
                                             "gp_atomic_min", "gp_atomic_max", "gp_atomic_cas"};
static const char *const wg_int32_specs[] = {"int",          "signed",  "signed int", "unsigned",
                                             "unsigned int", "int32_t", "uint32_t"};

static bool wg_in(const char *s, const char *const *v, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (!strcmp(s, v[i])) return true;
    return false;
}
#define WG_IN(s, v) wg_in((s), (v), sizeof(v) / sizeof *(v))

/* Is t (after its array dimensions and typedefs) a plain 32-bit int or unsigned, as the group
 * atomics take (not volatile or const: their _Generic matches int32_t * and uint32_t * only)? */
static bool wg_int32_elems(const gk_type *t)
{
    for (int hops = 0; t && hops < 64; hops++) {
        if (t->quals & (GK_Q_VOLATILE | GK_Q_CONST)) return false;
        if (t->kind == GK_T_ARRAY)
            t = t->of;
        else if (t->kind == GK_T_BASE && t->alias)
            t = t->alias; /* uint32_t, or the kernel's own typedef */
        else
            break;
    }
    return t && t->kind == GK_T_BASE && !t->alias && t->spec && WG_IN(t->spec, wg_int32_specs);
}
static void wg_fail(wg *w, gk_pos pos, const char *fmt, const char *arg)
{
    if (w->why) return;
    snprintf(w->whybuf, sizeof w->whybuf, fmt, arg ? arg : "");
    w->why = w->whybuf;
    w->why_pos = pos;
}

/* ---- generic walks --------------------------------------------------------------------------- */

typedef bool (*wg_expr_pred)(const gk_expr *e, void *ctx);

/* Does e or anything below it satisfy f? */
static bool wg_expr_any(const gk_expr *e, wg_expr_pred f, void *ctx)
{
    if (!e) return false;
    if (f(e, ctx)) return true;
    if (wg_expr_any(e->a, f, ctx) || wg_expr_any(e->b, f, ctx) || wg_expr_any(e->c, f, ctx))
        return true;
    for (size_t i = 0; i < e->nargs; i++)
        if (wg_expr_any(e->args[i], f, ctx)) return true;
    for (size_t i = 0; i < e->nitems; i++) {
        if (wg_expr_any(e->items[i].value, f, ctx)) return true;
        for (size_t d = 0; d < e->items[i].ndesig; d++)
            if (wg_expr_any(e->items[i].desig[d].index, f, ctx)) return true;
    }
    return false;
}

static bool wg_decl_any(const gk_decl *d, wg_expr_pred f, void *ctx)
{
    for (size_t i = 0; i < d->ndecls; i++)
        if (wg_expr_any(d->decls[i].init, f, ctx)) return true;
    return false;
}

static bool wg_stmt_any(const gk_stmt *s, wg_expr_pred f, void *ctx)
{
    if (!s) return false;
    if (wg_expr_any(s->expr, f, ctx) || wg_expr_any(s->step, f, ctx)) return true;
    if (s->decl && wg_decl_any(s->decl, f, ctx)) return true;
    if (wg_stmt_any(s->init, f, ctx) || wg_stmt_any(s->body, f, ctx) ||
        wg_stmt_any(s->else_body, f, ctx))
        return true;
    for (size_t i = 0; i < s->nitems; i++)
        if (wg_stmt_any(s->items[i], f, ctx)) return true;
    return false;
}

static bool wg_is_name(const gk_expr *e, void *ctx)
{
    return e->kind == GK_E_IDENT && !strcmp(e->name, (const char *)ctx);
}

static bool wg_is_sync(const gk_expr *e, void *ctx)
{
    (void)ctx;
    return e->kind == GK_E_IDENT && WG_IN(e->name, wg_sync_names);
}

/* Does s hold a barrier or a SIMD-group operation (both split regions)? */
static bool wg_has_barrier(const gk_stmt *s)
{
    return wg_stmt_any(s, wg_is_sync, NULL);
}

static bool wg_is_simd_call(const gk_expr *e)
{
    return e && e->kind == GK_E_CALL && e->a->kind == GK_E_IDENT && !e->a->note &&
           (WG_IN(e->a->name, wg_simd_value_ops) || WG_IN(e->a->name, wg_simd_vote_ops));
}

typedef struct wg_simd_find {
    const gk_expr *call;
    int count;
    bool guarded; /* under ?:, && or ||: evaluated only for some items */
} wg_simd_find;

static void wg_find_simd(const gk_expr *e, wg_simd_find *f, bool guarded)
{
    if (!e) return;
    if (e->kind == GK_E_IDENT && WG_IN(e->name, wg_sync_names)) {
        f->count++; /* counted once per name: a call is its name plus its operands */
        return;
    }
    if (wg_is_simd_call(e)) {
        f->call = e;
        f->guarded |= guarded;
    }
    bool g = guarded || e->kind == GK_E_COND ||
             (e->kind == GK_E_BINARY && (!strcmp(e->op, "&&") || !strcmp(e->op, "||")));
    wg_find_simd(e->a, f, guarded); /* a condition or a left operand: always evaluated */
    wg_find_simd(e->b, f, g);
    wg_find_simd(e->c, f, g);
    for (size_t i = 0; i < e->nargs; i++)
        wg_find_simd(e->args[i], f, g);
    for (size_t i = 0; i < e->nitems; i++)
        wg_find_simd(e->items[i].value, f, g);
}

/* The SIMD-group operation of a statement that holds exactly one, unguarded, in an expression
 * statement or a declaration of one variable, and no barrier; NULL for anything else. */
static const gk_expr *wg_simd_stmt(const gk_stmt *s)
{
    wg_simd_find f = {NULL, 0, false};
    if (s->kind == GK_S_EXPR)
        wg_find_simd(s->expr, &f, false);
    else if (s->kind == GK_S_DECL && !s->decl->storage && s->decl->ndecls == 1 &&
             s->decl->decls[0].init && s->decl->decls[0].init->kind != GK_E_INIT)
        wg_find_simd(s->decl->decls[0].init, &f, false);
    else
        return NULL;
    return f.count == 1 && f.call && !f.guarded ? f.call : NULL;
}

static bool wg_is_barrier_stmt(const gk_stmt *s)
{
    const gk_expr *e = s->expr;
    return s->kind == GK_S_EXPR && e->kind == GK_E_CALL && e->nargs == 0 &&
           e->a->kind == GK_E_IDENT && !strcmp(e->a->name, "gp_barrier");
}

/* A statement kind found anywhere below s (goto, label, return ...). */
static const gk_stmt *wg_find_kind(const gk_stmt *s, gk_stmt_kind kind)
{
    if (!s) return NULL;
    if (s->kind == kind) return s;
    const gk_stmt *r;
    if ((r = wg_find_kind(s->init, kind)) || (r = wg_find_kind(s->body, kind)) ||
        (r = wg_find_kind(s->else_body, kind)))
        return r;
    for (size_t i = 0; i < s->nitems; i++)
        if ((r = wg_find_kind(s->items[i], kind))) return r;
    return NULL;
}

/* A break or continue below s that leaves s (not inside a loop or switch of its own). */
static const gk_stmt *wg_find_escape(const gk_stmt *s, bool in_loop, bool in_switch)
{
    if (!s) return NULL;
    if (s->kind == GK_S_BREAK && !in_loop && !in_switch) return s;
    if (s->kind == GK_S_CONTINUE && !in_loop) return s;
    bool loop = in_loop || s->kind == GK_S_FOR || s->kind == GK_S_WHILE || s->kind == GK_S_DO;
    bool sw = in_switch || s->kind == GK_S_SWITCH;
    const gk_stmt *r;
    if ((r = wg_find_escape(s->body, loop, sw)) || (r = wg_find_escape(s->else_body, loop, sw)))
        return r;
    for (size_t i = 0; i < s->nitems; i++)
        if ((r = wg_find_escape(s->items[i], loop, sw))) return r;
    return NULL;
}

/* ---- 1. names -------------------------------------------------------------------------------- */

static wg_var *wg_lookup(wg *w, const char *name)
{
    for (wg_scope *s = w->scope; s; s = s->next)
        if (!strcmp(s->v->name, name)) return s->v;
    return NULL;
}

static wg_var *wg_declare(wg *w, const char *name, gk_declarator *dc)
{
    wg_var *v = gk_alloc(&w->arena, sizeof *v);
    wg_scope *sc = gk_alloc(&w->arena, sizeof *sc);
    if (w->nvars == w->capvars) {
        size_t cap = w->capvars ? 2 * w->capvars : 32;
        wg_var **nv = realloc(w->vars, cap * sizeof *nv);
        if (!nv)
            v = NULL;
        else {
            w->vars = nv;
            w->capvars = cap;
        }
    }
    if (!v || !sc) {
        w->why = "out of memory";
        return NULL;
    }
    v->name = name;
    v->dc = dc;
    v->region = -1;
    v->id = (unsigned)w->nvars;
    w->vars[w->nvars++] = v;
    sc->v = v;
    sc->next = w->scope;
    w->scope = sc;
    if (dc) {
        dc->note = v;
        const gk_type *t = dc->type;
        v->elems = 1;
        while (t && t->kind == GK_T_ARRAY) {
            v->rank++;
            unsigned long n = 0;
            if (!t->dim || t->dim->kind != GK_E_NUMBER)
                n = 0;
            else
                n = strtoul(t->dim->op, NULL, 0);
            v->elems = n && v->elems <= WG_MAX_ELEMS ? v->elems * (unsigned)n : WG_MAX_ELEMS + 1;
            t = t->of;
        }
        v->scalar = v->rank == 0 && t && t->kind != GK_T_FUNC;
    }
    return v;
}

/* The variable an lvalue stores into: x, x.f, x[i] of an array x (not *p, p[i], p->f). */
static wg_var *wg_lvalue_var(const gk_expr *e)
{
    while (e) {
        if (e->kind == GK_E_IDENT) return e->note;
        if (e->kind == GK_E_MEMBER) {
            e = e->a;
            continue;
        }
        if (e->kind == GK_E_INDEX) {
            const wg_var *v = NULL;
            const gk_expr *r = e;
            while (r->kind == GK_E_INDEX)
                r = r->a;
            if (r->kind == GK_E_IDENT) v = r->note;
            if (v && v->rank) return (wg_var *)v;
            return NULL;
        }
        return NULL;
    }
    return NULL;
}

static void wg_names_expr(wg *w, gk_expr *e)
{
    if (!e) return;
    if (e->kind == GK_E_IDENT) {
        e->note = wg_lookup(w, e->name);
        return;
    }
    wg_names_expr(w, e->a);
    wg_names_expr(w, e->b);
    wg_names_expr(w, e->c);
    for (size_t i = 0; i < e->nargs; i++)
        wg_names_expr(w, e->args[i]);
    for (size_t i = 0; i < e->nitems; i++) {
        wg_names_expr(w, e->items[i].value);
        for (size_t d = 0; d < e->items[i].ndesig; d++)
            wg_names_expr(w, e->items[i].desig[d].index);
    }
    wg_var *v = NULL;
    bool addr = false;
    if (e->kind == GK_E_ASSIGN || e->kind == GK_E_POSTINC) v = wg_lvalue_var(e->a);
    if (e->kind == GK_E_UNARY && (!strcmp(e->op, "++") || !strcmp(e->op, "--")))
        v = wg_lvalue_var(e->a);
    if (e->kind == GK_E_UNARY && !strcmp(e->op, "&")) {
        v = wg_lvalue_var(e->a);
        addr = true;
    }
    if (v) {
        v->nassign++;
        if (addr) v->addr = true;
    }
}

static void wg_names_stmt(wg *w, gk_stmt *s)
{
    if (!s) return;
    wg_scope *saved = w->scope;
    switch (s->kind) {
    case GK_S_DECL:
        for (size_t i = 0; i < s->decl->ndecls; i++) {
            gk_declarator *dc = &s->decl->decls[i];
            for (const gk_type *t = dc->type; t; t = t->of)
                if (t->kind == GK_T_ARRAY) wg_names_expr(w, t->dim);
            wg_names_expr(w, dc->init);
            if (dc->name) wg_declare(w, dc->name, dc);
        }
        return; /* the names stay in the enclosing scope */
    case GK_S_BLOCK:
        for (size_t i = 0; i < s->nitems; i++)
            wg_names_stmt(w, s->items[i]);
        break;
    case GK_S_FOR:
        wg_names_stmt(w, s->init);
        wg_names_expr(w, s->expr);
        wg_names_expr(w, s->step);
        wg_names_stmt(w, s->body);
        break;
    default:
        wg_names_expr(w, s->expr);
        wg_names_expr(w, s->step);
        wg_names_stmt(w, s->body);
        wg_names_stmt(w, s->else_body);
        break;
    }
    w->scope = saved;
}

/* ---- 2. plan --------------------------------------------------------------------------------- */

/* Is e the same for every work-item of the group (and free of side effects and memory reads)? */
static bool wg_uniform(const gk_expr *e)
{
    if (!e) return true;
    switch (e->kind) {
    case GK_E_NUMBER:
    case GK_E_CHAR:
    case GK_E_SIZEOF_EXPR:
    case GK_E_SIZEOF_TYPE:
        return true;
    case GK_E_IDENT: {
        const wg_var *v = e->note;
        return v && v->kind == WV_UNIFORM;
    }
    case GK_E_CALL:
        if (e->a->kind != GK_E_IDENT || e->a->note || !WG_IN(e->a->name, wg_uniform_calls))
            return false;
        for (size_t i = 0; i < e->nargs; i++)
            if (!wg_uniform(e->args[i])) return false;
        return true;
    case GK_E_UNARY:
        if (strchr("-+!~", e->op[0]) && e->op[1] == 0) return wg_uniform(e->a);
        return false;
    case GK_E_CAST:
        return wg_uniform(e->a);
    case GK_E_BINARY:
        return wg_uniform(e->a) && wg_uniform(e->b);
    case GK_E_COND:
        return wg_uniform(e->a) && wg_uniform(e->b) && wg_uniform(e->c);
    default:
        return false;
    }
}

/* Is e a function of the ids and uniform values only (then it can be computed again)? */
static bool wg_item_pure(const gk_expr *e)
{
    if (!e) return true;
    switch (e->kind) {
    case GK_E_IDENT: {
        const wg_var *v = e->note;
        return v && (v->kind == WV_UNIFORM || v->kind == WV_REMAT);
    }
    case GK_E_CALL:
        if (e->a->kind == GK_E_IDENT && !e->a->note && WG_IN(e->a->name, wg_id_calls)) {
            for (size_t i = 0; i < e->nargs; i++)
                if (!wg_uniform(e->args[i])) return false;
            return true;
        }
        return wg_uniform(e);
    case GK_E_UNARY:
        if (strchr("-+!~", e->op[0]) && e->op[1] == 0) return wg_item_pure(e->a);
        return false;
    case GK_E_CAST:
        return wg_item_pure(e->a);
    case GK_E_BINARY:
        return wg_item_pure(e->a) && wg_item_pure(e->b);
    case GK_E_COND:
        return wg_item_pure(e->a) && wg_item_pure(e->b) && wg_item_pure(e->c);
    default:
        return wg_uniform(e);
    }
}

static ws_note *wg_note(wg *w, gk_stmt *s, ws_kind kind, int region)
{
    ws_note *n = gk_alloc(&w->arena, sizeof *n);
    if (!n) {
        w->why = "out of memory";
        return NULL;
    }
    n->kind = kind;
    n->region = region;
    s->note = n;
    return n;
}

typedef struct wg_scan {
    wg *w;
    int region;
} wg_scan;

static void wg_note_use(wg *w, wg_var *v, int region)
{
    if (v->region >= 0 && v->region != region) v->cross = true;
    if (w->nuses == w->capuses) {
        size_t cap = w->capuses ? 2 * w->capuses : 64;
        wg_use *nu = realloc(w->uses, cap * sizeof *nu);
        if (!nu) {
            w->why = "out of memory";
            return;
        }
        w->uses = nu;
        w->capuses = cap;
    }
    w->uses[w->nuses].v = v;
    w->uses[w->nuses++].region = region;
}

/* Notes every variable a region statement reads, and the region of what it declares. */
static void wg_scan_expr(wg *w, const gk_expr *e, int region)
{
    if (!e) return;
    if (e->kind == GK_E_INDEX) {
        const gk_expr *r = e;
        unsigned depth = 0;
        while (r->kind == GK_E_INDEX) {
            wg_scan_expr(w, r->b, region);
            r = r->a;
            depth++;
        }
        wg_var *v = r->kind == GK_E_IDENT ? r->note : NULL;
        if (v && v->rank) {
            if (depth != v->rank) v->whole = true;
            wg_note_use(w, v, region);
            return;
        }
        wg_scan_expr(w, r, region);
        return;
    }
    if (e->kind == GK_E_IDENT) {
        wg_var *v = e->note;
        if (!v) return;
        if (v->rank) v->whole = true;
        wg_note_use(w, v, region);
        return;
    }
    wg_scan_expr(w, e->a, region);
    wg_scan_expr(w, e->b, region);
    wg_scan_expr(w, e->c, region);
    for (size_t i = 0; i < e->nargs; i++)
        wg_scan_expr(w, e->args[i], region);
    for (size_t i = 0; i < e->nitems; i++) {
        wg_scan_expr(w, e->items[i].value, region);
        for (size_t d = 0; d < e->items[i].ndesig; d++)
            wg_scan_expr(w, e->items[i].desig[d].index, region);
    }
}

static void wg_scan_stmt(wg *w, const gk_stmt *s, int region)
{
    if (!s) return;
    if (s->kind == GK_S_DECL) {
        for (size_t i = 0; i < s->decl->ndecls; i++) {
            gk_declarator *dc = &s->decl->decls[i];
            for (const gk_type *t = dc->type; t; t = t->of)
                if (t->kind == GK_T_ARRAY) wg_scan_expr(w, t->dim, region);
            wg_scan_expr(w, dc->init, region);
            if (dc->note) ((wg_var *)dc->note)->region = region;
        }
        return;
    }
    if (s->kind == GK_S_RETURN) w->has_return[region] = true;
    wg_scan_expr(w, s->expr, region);
    wg_scan_expr(w, s->step, region);
    wg_scan_stmt(w, s->init, region);
    wg_scan_stmt(w, s->body, region);
    wg_scan_stmt(w, s->else_body, region);
    for (size_t i = 0; i < s->nitems; i++)
        wg_scan_stmt(w, s->items[i], region);
}

static bool wg_grow_regions(wg *w)
{
    bool *r = realloc(w->has_return, (size_t)(w->nregions + 1) * sizeof *r);
    if (!r) {
        w->why = "out of memory";
        return false;
    }
    r[w->nregions] = false;
    w->has_return = r;
    return true;
}

/* Is the declaration one that can move to the group level: every declarator a never-assigned
 * scalar with a uniform value, named by no other declaration? */
static bool wg_uniform_declarator(const gk_declarator *dc)
{
    const wg_var *v = dc->note;
    return v && v->scalar && v->unique && !v->nassign && dc->init && dc->init->kind != GK_E_INIT &&
           wg_uniform(dc->init);
}

static bool wg_uniform_decl(const gk_decl *d)
{
    if (d->storage || d->defines || !d->ndecls) return false;
    for (size_t i = 0; i < d->ndecls; i++)
        if (!wg_uniform_declarator(&d->decls[i])) return false;
    return true;
}

static void wg_plan_list(wg *w, gk_stmt **items, size_t n, bool top);

static void wg_plan_for(wg *w, gk_stmt *s)
{
    gk_stmt *init = s->init;
    if (!init || init->kind != GK_S_DECL || init->decl->storage) {
        wg_fail(w, s->pos,
                "a loop with a barrier declares no counter of its own (for (int i = ...; ...))",
                NULL);
        return;
    }
    /* the counters: uniform starts, assigned only by the step */
    for (size_t i = 0; i < init->decl->ndecls; i++) {
        gk_declarator *dc = &init->decl->decls[i];
        wg_var *v = dc->note;
        if (!v || !v->scalar || !dc->init || !wg_uniform(dc->init) || v->addr) {
            wg_fail(w, s->pos, "the counter %s of a loop with a barrier does not start uniformly",
                    dc->name);
            return;
        }
    }
    unsigned in_step = 0;
    for (size_t i = 0; i < init->decl->ndecls; i++)
        ((wg_var *)init->decl->decls[i].note)->kind = WV_UNIFORM;
    /* the step: assignments and increments of the counters by uniform values, joined by commas */
    const gk_expr *stack[32];
    size_t sp = 0;
    if (s->step) stack[sp++] = s->step;
    while (sp) {
        const gk_expr *e = stack[--sp];
        if (e->kind == GK_E_BINARY && !strcmp(e->op, ",") && sp + 2 <= 32) {
            stack[sp++] = e->a;
            stack[sp++] = e->b;
            continue;
        }
        const gk_expr *target = NULL;
        bool ok = false;
        if (e->kind == GK_E_POSTINC ||
            (e->kind == GK_E_UNARY && (!strcmp(e->op, "++") || !strcmp(e->op, "--")))) {
            target = e->a;
            ok = true;
        } else if (e->kind == GK_E_ASSIGN) {
            target = e->a;
            ok = wg_uniform(e->b);
        }
        const wg_var *v = target && target->kind == GK_E_IDENT ? target->note : NULL;
        bool mine = false;
        for (size_t i = 0; v && i < init->decl->ndecls; i++)
            if (init->decl->decls[i].note == v) mine = true;
        if (!ok || !mine) {
            wg_fail(w, s->pos, "the step of a loop with a barrier is not uniform", NULL);
            return;
        }
        in_step++;
    }
    unsigned total = 0;
    for (size_t i = 0; i < init->decl->ndecls; i++)
        total += ((wg_var *)init->decl->decls[i].note)->nassign;
    if (total != in_step) {
        wg_fail(w, s->pos, "a counter of a loop with a barrier is assigned in its body", NULL);
        return;
    }
    if (!wg_uniform(s->expr)) {
        wg_fail(w, s->pos,
                "the condition of a loop with a barrier is not proven uniform across the group",
                NULL);
        return;
    }
    const gk_stmt *esc = wg_find_escape(s->body, false, false);
    if (esc) {
        wg_fail(w, esc->pos, "a break or continue leaves a loop with a barrier", NULL);
        return;
    }
    if (wg_note(w, s, WS_FOR, -1)) wg_plan_list(w, &s->body, 1, false);
}

static void wg_plan_list(wg *w, gk_stmt **items, size_t n, bool top)
{
    int open = -1;
    for (size_t i = 0; i < n && !w->why; i++) {
        gk_stmt *s = items[i];
        if (s->kind == GK_S_BLOCK && wg_has_barrier(s)) {
            if (wg_note(w, s, WS_BLOCK, -1)) wg_plan_list(w, s->items, s->nitems, false);
            open = -1;
            continue;
        }
        if (wg_is_barrier_stmt(s) ||
            (s->kind == GK_S_EXPR && s->expr->kind == GK_E_CALL && s->expr->nargs == 0 &&
             s->expr->a->kind == GK_E_IDENT && !strcmp(s->expr->a->name, "gp_simd_barrier"))) {
            /* a SIMD-group barrier: the whole group's is at least as strong */
            wg_note(w, s, WS_BARRIER, -1);
            open = -1;
            continue;
        }
        const gk_expr *simd = wg_has_barrier(s) ? wg_simd_stmt(s) : NULL;
        if (simd) {
            /* its operands end the open region, the operation and the rest of the statement
             * start a new one */
            if (open < 0) {
                if (!wg_grow_regions(w)) return;
                open = w->nregions++;
            }
            const gk_expr **ns = realloc(w->simd, (size_t)(w->nsimd + 1) * sizeof *ns);
            if (!ns) {
                w->why = "out of memory";
                return;
            }
            w->simd = ns;
            if (!wg_grow_regions(w)) return;
            ws_note *sn = wg_note(w, s, WS_SIMD, w->nregions);
            if (!sn) return;
            sn->pre = open;
            sn->simd = w->nsimd;
            w->simd[w->nsimd++] = simd;
            for (size_t a = 0; a < simd->nargs; a++)
                wg_scan_expr(w, simd->args[a], open);
            open = w->nregions++;
            wg_scan_stmt(w, s, open);
            if (s->kind == GK_S_DECL) {
                wg_var *v = s->decl->decls[0].note;
                if (v) v->list_decl = true;
            }
            continue;
        }
        if (s->kind == GK_S_DECL &&
            (s->decl->storage & (GK_S_SHARED_DECL | GK_S_STATIC | GK_S_CONSTANT_DECL))) {
            for (size_t d = 0; d < s->decl->ndecls; d++) {
                wg_var *v = s->decl->decls[d].note;
                if (v && !v->unique) {
                    wg_fail(w, s->pos, "the shared or static %s has the name of another variable",
                            v->name);
                    return;
                }
                if (v) v->kind = WV_UNIFORM; /* the same object for every item */
                if (v && (s->decl->storage & GK_S_SHARED_DECL)) {
                    v->shared_decl = true;
                    v->group_int = wg_int32_elems(s->decl->decls[d].type);
                }
            }
            if (wg_decl_any(s->decl, wg_is_sync, NULL)) {
                wg_fail(w, s->pos, "a barrier in an initializer", NULL);
                return;
            }
            wg_note(w, s, WS_HOIST, -1);
            continue;
        }
        if (s->kind == GK_S_DECL && wg_uniform_decl(s->decl)) {
            for (size_t d = 0; d < s->decl->ndecls; d++)
                ((wg_var *)s->decl->decls[d].note)->kind = WV_UNIFORM;
            wg_note(w, s, WS_HOIST, -1);
            continue;
        }
        if (!wg_has_barrier(s)) {
            if (s->kind == GK_S_IF && !s->else_body && wg_uniform(s->expr)) {
                const gk_stmt *b = s->body;
                if (b->kind == GK_S_BLOCK && b->nitems == 1) b = b->items[0];
                if (b->kind == GK_S_RETURN && !b->expr) {
                    wg_note(w, s, WS_URETURN, -1);
                    open = -1;
                    continue;
                }
            }
            const gk_stmt *esc = wg_find_escape(s, false, false);
            if (esc) {
                wg_fail(w, esc->pos, "a break or continue leaves a loop with a barrier", NULL);
                return;
            }
            if (open < 0) {
                if (!wg_grow_regions(w)) return;
                open = w->nregions++;
            }
            wg_note(w, s, WS_REGION, open);
            /* the uniform declarators of a declaration move to the group level on their own */
            if (s->kind == GK_S_DECL && !s->decl->storage && !s->decl->defines)
                for (size_t d = 0; d < s->decl->ndecls; d++)
                    if (wg_uniform_declarator(&s->decl->decls[d]))
                        ((wg_var *)s->decl->decls[d].note)->kind = WV_UNIFORM;
            wg_scan_stmt(w, s, open);
            if (s->kind == GK_S_DECL)
                for (size_t d = 0; d < s->decl->ndecls; d++) {
                    wg_var *v = s->decl->decls[d].note;
                    if (v) v->list_decl = true;
                }
            continue;
        }
        open = -1;
        if (s->kind == GK_S_IF) {
            if (!wg_uniform(s->expr)) {
                wg_fail(w, s->pos,
                        "a barrier or SIMD-group operation under an if whose condition is not "
                        "proven uniform across the group",
                        NULL);
                return;
            }
            if (!wg_note(w, s, WS_IF, -1)) return;
            wg_plan_list(w, &s->body, 1, false);
            if (s->else_body) wg_plan_list(w, &s->else_body, 1, false);
            continue;
        }
        if (s->kind == GK_S_FOR) {
            wg_plan_for(w, s);
            continue;
        }
        static const char *const what[] = {
            [GK_S_WHILE] = "a while loop", [GK_S_DO] = "a do loop",   [GK_S_SWITCH] = "a switch",
            [GK_S_CASE] = "a case",        [GK_S_DEFAULT] = "a case", [GK_S_LABEL] = "a label",
        };
        const char *kind =
            (size_t)s->kind < sizeof what / sizeof *what && what[s->kind] ? what[s->kind] : NULL;
        if (kind)
            wg_fail(w, s->pos, "a barrier or SIMD-group operation in %s", kind);
        else if (wg_stmt_any(s, wg_is_name, (void *)"gp_barrier"))
            wg_fail(w, s->pos, "a barrier in an expression", NULL);
        else
            wg_fail(w, s->pos,
                    "a SIMD-group operation that is not the only one of its statement, or is "
                    "evaluated only for some work-items (under ?:, && or ||)",
                    NULL);
        return;
    }
    if (top) w->final_region = open;
}

/* ---- 3. variables ---------------------------------------------------------------------------- */

static void wg_decide(wg *w)
{
    for (size_t i = 0; i < w->nvars && !w->why; i++) {
        wg_var *v = w->vars[i];
        if (!v->cross || v->kind != WV_PLAIN) continue;
        const gk_declarator *dc = v->dc;
        gk_pos pos = dc ? dc->pos : w->k->pos;
        if (!v->list_decl || !v->unique) {
            wg_fail(w, pos, "%s lives across a barrier and has the name of another variable",
                    v->name);
            return;
        }
        if (v->scalar && !v->nassign && dc->init && dc->init->kind != GK_E_INIT &&
            wg_item_pure(dc->init)) {
            v->kind = WV_REMAT;
            continue;
        }
        if (dc->init && (dc->init->kind == GK_E_INIT || !v->scalar)) {
            wg_fail(w, pos, "%s lives across a barrier and has an initializer list", v->name);
            return;
        }
        if (!v->scalar && (v->whole || v->addr || v->elems > WG_MAX_ELEMS)) {
            wg_fail(w, pos,
                    "the array %s lives across a barrier and is used whole, has its address "
                    "taken, or is too large",
                    v->name);
            return;
        }
        v->kind = WV_EXPAND;
    }
    if (w->why) return;
    /* which regions declare which recomputed variables again: those they read, and what those
     * are computed from (declared earlier: one pass from the last) */
    size_t nv = w->nvars;
    w->need = calloc((size_t)w->nregions * nv + 1, sizeof *w->need);
    if (!w->need) {
        w->why = "out of memory";
        return;
    }
    for (size_t i = 0; i < w->nuses; i++) {
        const wg_use *u = &w->uses[i];
        if (u->v->kind == WV_REMAT && u->v->region != u->region)
            w->need[(size_t)u->region * nv + u->v->id] = true;
    }
    for (int r = 0; r < w->nregions; r++)
        for (size_t i = nv; i-- > 0;) {
            if (!w->need[(size_t)r * nv + i]) continue;
            for (size_t j = 0; j < i; j++) {
                wg_var *d = w->vars[j];
                if (d->kind == WV_REMAT && d->region != r &&
                    wg_expr_any(w->vars[i]->dc->init, wg_is_name, (void *)d->name))
                    w->need[(size_t)r * nv + j] = true;
            }
        }
}

/* ---- the kernel's analysis ------------------------------------------------------------------- */

/* The functions of the unit that reach a barrier or a SIMD-group operation. */
static bool wg_helper_syncs(const gk_unit *u, const char *name, int depth)
{
    if (depth > 16) return true;
    for (size_t i = 0; i < u->ntops; i++) {
        const gk_top *t = u->tops[i];
        if (t->kind != GK_TOP_FUNCTION || strcmp(t->decl->decls[0].name, name)) continue;
        if (wg_stmt_any(t->body, wg_is_sync, NULL)) return true;
        for (size_t j = 0; j < u->ntops; j++) {
            const gk_top *h = u->tops[j];
            if (h->kind == GK_TOP_FUNCTION && h != t &&
                wg_stmt_any(t->body, wg_is_name, (void *)h->decl->decls[0].name) &&
                wg_helper_syncs(u, h->decl->decls[0].name, depth + 1))
                return true;
        }
    }
    return false;
}

typedef struct wg_call_ctx {
    const gk_unit *u;
    const char *found;
} wg_call_ctx;

static bool wg_calls_syncing(const gk_expr *e, void *ctx)
{
    wg_call_ctx *c = ctx;
    if (e->kind != GK_E_CALL || e->a->kind != GK_E_IDENT) return false;
    if (wg_helper_syncs(c->u, e->a->name, 0)) {
        c->found = e->a->name;
        return true;
    }
    return false;
}

static bool wg_unit_name(const gk_unit *u, const char *name)
{
    for (size_t i = 0; i < u->ntops; i++) {
        const gk_top *t = u->tops[i];
        if (t->kind == GK_TOP_KERNEL && !strcmp(t->name, name)) return true;
        if ((t->kind == GK_TOP_DECL || t->kind == GK_TOP_FUNCTION) && t->decl)
            for (size_t d = 0; d < t->decl->ndecls; d++)
                if (t->decl->decls[d].name && !strcmp(t->decl->decls[d].name, name)) return true;
    }
    return false;
}

static void wg_analyse(wg *w)
{
    const gk_top *k = w->k;
    const gk_stmt *g;
    wg_call_ctx cc = {w->u, NULL};
    if (wg_stmt_any(k->body, wg_calls_syncing, &cc)) {
        wg_fail(w, k->pos, "the helper %s it calls has a barrier or a SIMD-group operation",
                cc.found);
        return;
    }
    if ((g = wg_find_kind(k->body, GK_S_GOTO)) || (g = wg_find_kind(k->body, GK_S_LABEL))) {
        wg_fail(w, g->pos, "it uses goto", NULL);
        return;
    }
    for (size_t i = 0; i < k->nparams; i++) {
        wg_var *v = wg_declare(w, k->params[i].name, NULL);
        if (!v) return;
        v->param = true;
        v->scalar = true;
        v->kind = WV_UNIFORM;
        v->group_int = k->params[i].kind == GK_KP_DYN && wg_int32_elems(k->params[i].type);
    }
    wg_scope *params = w->scope;
    for (size_t i = 0; i < k->body->nitems; i++)
        wg_names_stmt(w, k->body->items[i]);
    w->scope = params;
    for (size_t i = 0; i < w->nvars; i++) {
        wg_var *v = w->vars[i];
        if (v->param && v->nassign) {
            wg_fail(w, k->pos, "it assigns to its parameter %s", v->name);
            return;
        }
        v->unique = !v->param && !wg_unit_name(w->u, v->name);
        for (size_t j = 0; v->unique && j < w->nvars; j++)
            if (j != i && !strcmp(w->vars[j]->name, v->name)) v->unique = false;
    }
    w->final_region = -1;
    wg_plan_list(w, k->body->items, k->body->nitems, true);
    if (w->why) return;
    for (int r = 0; r < w->nregions; r++)
        if (w->has_return[r] && r != w->final_region) {
            wg_fail(w, k->pos, "a work-item may return before a barrier the others reach", NULL);
            return;
        }
    wg_decide(w);
}

/* ---- printing -------------------------------------------------------------------------------- */

static void wg_puts_line(gk_printer *p, const char *s)
{
    gk_print_indent(p);
    gp_strbuf_puts(p->out, s);
    gk_print_newline(p);
}

/* A declaration printed at the group level. Shared memory is thread-local on the CPU, and in a
 * dlopen'd object each access to it would call __tls_get_addr (GCC does not hoist the call out of
 * the x loop): its address is taken once here (GP__SHARED_ALIAS) and the regions use that
 * (GP__SHARED_USE, in wg_expr_hook). */
static void wg_print_hoist(gk_printer *p, const gk_stmt *s)
{
    gk_print_stmt(p, s);
    if (s->kind != GK_S_DECL || !(s->decl->storage & GK_S_SHARED_DECL)) return;
    for (size_t d = 0; d < s->decl->ndecls; d++) {
        const wg_var *v = s->decl->decls[d].note;
        if (!v || !v->shared_decl) continue;
        gk_print_indent(p);
        gp_strbuf_printf(p->out, "GP__SHARED_ALIAS(%s)", v->name);
        gk_print_newline(p);
    }
}

static unsigned wg_index_depth(const gk_expr *e, const gk_expr **root)
{
    unsigned d = 0;
    while (e->kind == GK_E_INDEX) {
        e = e->a;
        d++;
    }
    *root = e;
    return d;
}

static void wg_print_indices(gk_printer *p, const gk_expr *e)
{
    if (e->kind != GK_E_INDEX) return;
    wg_print_indices(p, e->a);
    gp_strbuf_putc(p->out, '[');
    gk_print_expr(p, e->b, GK_PREC_COMMA);
    gp_strbuf_putc(p->out, ']');
}

/* The value a SIMD-group operation gives this work-item, from the operands every item of the
 * group stored at the end of the region before (the dialect's semantics: src/runtime/cpu/fiber.c
 * and the prelude's gp__simd_src and gp__simd_vote). */
static void wg_print_simd_result(gk_printer *p, const gk_expr *e, int k)
{
    const char *name = e->a->name;
    if (WG_IN(name, wg_simd_vote_ops)) {
        const char *op = !strcmp(name, "gp_simd_ballot") ? "GP_CPU_SIMD_BALLOT"
                         : !strcmp(name, "gp_simd_any")  ? "GP_CPU_SIMD_ANY"
                                                         : "GP_CPU_SIMD_ALL";
        gp_strbuf_printf(p->out, "%sgp__simd_vote(%s, gp__sv%d, gp__li, (int)gp__n)",
                         strcmp(name, "gp_simd_ballot") ? "(int)" : "", op, k);
        return;
    }
    const char *op = !strcmp(name, "gp_simd_shuffle")       ? "GP_CPU_SIMD_SHUFFLE"
                     : !strcmp(name, "gp_simd_shuffle_xor") ? "GP_CPU_SIMD_XOR"
                     : !strcmp(name, "gp_simd_shuffle_up")  ? "GP_CPU_SIMD_UP"
                                                            : "GP_CPU_SIMD_DOWN";
    gp_strbuf_puts(p->out, "GP__SIMD_FROM(");
    gk_print_expr(p, e->args[0], GK_PREC_ASSIGN); /* for its type only: not evaluated */
    gp_strbuf_printf(p->out, ", gp__simd_src(%s, gp__sv%d, gp__sa%d[gp__li], gp__li, (int)gp__n))",
                     op, k, k);
}

/* The operands of SIMD-group operation k, stored by each work-item at the end of a region. */
static void wg_print_simd_operands(gk_printer *p, const gk_stmt *s, const gk_expr *e, int k)
{
    gk_print_line(p, s->pos);
    if (WG_IN(e->a->name, wg_simd_vote_ops)) {
        gp_strbuf_printf(p->out, "gp__sv%d[gp__li] = (", k);
        gk_print_expr(p, e->args[0], GK_PREC_COMMA);
        gp_strbuf_puts(p->out, ") ? 1u : 0u;");
    } else {
        gp_strbuf_printf(p->out, "gp__sv%d[gp__li] = GP__SIMD_BITS(", k);
        gk_print_expr(p, e->args[0], GK_PREC_ASSIGN);
        gp_strbuf_printf(p->out, "); gp__sa%d[gp__li] = (uint32_t)(", k);
        gk_print_expr(p, e->args[1], GK_PREC_COMMA);
        gp_strbuf_puts(p->out, ");");
    }
    gk_print_newline(p);
}

/* Does an atomic's address point into the group's own 32-bit integers, with the type `int *` or
 * `unsigned *`: &s (a shared scalar), &a[i]... (all of a shared array's dimensions), a or a + i
 * (a shared one-dimensional array), &d[i], d or d + i (the GP_DYN_SHARED block)? */
static bool wg_group_address(const gk_expr *e)
{
    unsigned depth = 0;
    bool amp = e->kind == GK_E_UNARY && !strcmp(e->op, "&");
    if (amp) {
        e = e->a;
        depth = wg_index_depth(e, &e);
    } else if (e->kind == GK_E_BINARY && (!strcmp(e->op, "+") || !strcmp(e->op, "-"))) {
        e = e->a; /* the pointer on the left: i + a is left as it is */
    }
    const wg_var *v = e->kind == GK_E_IDENT ? e->note : NULL;
    if (!v || !v->group_int) return false;
    if (v->param) return amp ? depth == 1 : true; /* the dynamic block: an int or unsigned * */
    if (amp) return depth == v->rank;             /* &s of a scalar, &a[i][j] of a 2-D array */
    return v->rank == 1;                          /* a, a + i: the array decays to its pointer */
}

/* An integer atomic on the group's shared memory, in the work-group loops form: the group runs
 * on one thread from its first region to its last and no other thread sees its shared memory, so
 * the operation is a plain read-modify-write (gp__group_atomic_* in kernel.h), which the compiler
 * may keep in registers, where a locked instruction costs tens of cycles per work-item. */
static bool wg_group_atomic(gk_printer *p, const gk_expr *e)
{
    if (e->a->kind != GK_E_IDENT || e->a->note || !WG_IN(e->a->name, wg_int_atomics) ||
        e->nargs < 2 || !wg_group_address(e->args[0]))
        return false;
    gp_strbuf_printf(p->out, "gp__group_%s(", e->a->name + 3);
    for (size_t i = 0; i < e->nargs; i++) {
        if (i) gp_strbuf_puts(p->out, ", ");
        gk_print_expr(p, e->args[i], GK_PREC_ASSIGN);
    }
    gp_strbuf_puts(p->out, ")");
    return true;
}

static bool wg_expr_hook(gk_printer *p, const gk_expr *e, int prec)
{
    (void)prec;
    const wg_var *v = NULL;
    if (e->kind == GK_E_CALL) {
        const wg *w = p->ctx;
        for (int k = 0; k < w->nsimd; k++)
            if (w->simd[k] == e) {
                wg_print_simd_result(p, e, k);
                return true;
            }
        return wg_group_atomic(p, e);
    }
    if (e->kind == GK_E_IDENT) {
        v = e->note;
        if (v && v->shared_decl) {
            gp_strbuf_printf(p->out, "GP__SHARED_USE(%s)", v->name);
            return true;
        }
        if (!v || v->kind != WV_EXPAND || v->rank) return false;
        gp_strbuf_printf(p->out, "%s[gp__li]", v->name);
        return true;
    }
    if (e->kind == GK_E_INDEX) {
        const gk_expr *root;
        unsigned d = wg_index_depth(e, &root);
        v = root->kind == GK_E_IDENT ? root->note : NULL;
        if (!v || v->kind != WV_EXPAND || v->rank != d) return false;
        gp_strbuf_puts(p->out, v->name);
        wg_print_indices(p, e);
        gp_strbuf_puts(p->out, "[gp__li]");
        return true;
    }
    return false;
}

static bool wg_stmt_hook(gk_printer *p, const gk_stmt *s)
{
    wg *w = p->ctx;
    if (s->kind == GK_S_RETURN && w->printing_region >= 0) {
        gk_print_line(p, s->pos);
        gp_strbuf_printf(p->out, "goto gp__next%d;", w->printing_region);
        gk_print_newline(p);
        return true;
    }
    const ws_note *n = s->note;
    if (s->kind != GK_S_DECL || !n || (n->kind != WS_REGION && n->kind != WS_SIMD)) return false;
    bool any = false;
    for (size_t i = 0; i < s->decl->ndecls; i++) {
        const wg_var *v = s->decl->decls[i].note;
        if (v && (v->kind == WV_EXPAND || v->kind == WV_UNIFORM)) any = true;
    }
    if (!any) return false;
    for (size_t i = 0; i < s->decl->ndecls; i++) {
        const gk_declarator *dc = &s->decl->decls[i];
        const wg_var *v = dc->note;
        if (v && ((v->kind == WV_EXPAND && !dc->init) || v->kind == WV_UNIFORM)) continue;
        gk_print_line(p, dc->pos.line ? dc->pos : s->pos);
        if (v && v->kind == WV_EXPAND) {
            gp_strbuf_printf(p->out, "%s[gp__li] = ", v->name);
        } else {
            gk_print_type(p, dc->type, dc->name);
            if (dc->init) gp_strbuf_puts(p->out, " = ");
        }
        if (dc->init) gk_print_expr(p, dc->init, GK_PREC_ASSIGN);
        gp_strbuf_putc(p->out, ';');
        gk_print_newline(p);
    }
    return true;
}

/* `type` with `n` items in its innermost place and the outer const dropped. */
static gk_type *wg_expanded_type(wg *w, const gk_type *t)
{
    gk_type *c = gk_alloc(&w->arena, sizeof *c);
    if (!c) return NULL;
    *c = *t;
    if (t->kind == GK_T_ARRAY) {
        c->of = wg_expanded_type(w, t->of);
        return c->of ? c : NULL;
    }
    c->quals &= ~(uint32_t)GK_Q_CONST;
    gk_type *a = gk_alloc(&w->arena, sizeof *a);
    gk_expr *n = gk_alloc(&w->arena, sizeof *n);
    if (!a || !n) return NULL;
    n->kind = GK_E_IDENT;
    n->name = n->op = "gp__n";
    a->kind = GK_T_ARRAY;
    a->of = c;
    a->dim = n;
    /* the base stays innermost: the array of items goes just above it */
    return a;
}

/* The type of an expanded variable: its own dimensions, then one per work-item, then the base. */
static gk_type *wg_soa_type(wg *w, const gk_type *t)
{
    if (t->kind == GK_T_ARRAY) {
        gk_type *c = gk_alloc(&w->arena, sizeof *c);
        if (!c) return NULL;
        *c = *t;
        c->of = wg_soa_type(w, t->of);
        return c->of ? c : NULL;
    }
    return wg_expanded_type(w, t);
}

static void wg_print_list(gk_printer *p, wg *w, gk_stmt *const *items, size_t n);

/* One region: the loop over the group's work-items of the statements from items[*at] on that
 * belong to it. A region may start with the rest of a SIMD-group statement (its operation) and
 * end with the operands of the next one; a SIMD-group statement whose operands are not yet
 * printed prints only those here, as a region of their own (*at stays). */
static void wg_print_region(gk_printer *p, wg *w, gk_stmt *const *items, size_t n, size_t *at)
{
    ws_note *first = items[*at]->note;
    bool pre_only = first->kind == WS_SIMD && !first->pre_printed;
    int r = pre_only ? first->pre : first->region;
    size_t end = *at + 1, tail = n; /* tail: the SIMD-group statement whose operands end it */
    if (pre_only)
        tail = *at;
    else
        for (; end < n && items[end]->note; end++) {
            const ws_note *ne = items[end]->note;
            if (ne->kind == WS_HOIST || (ne->kind == WS_REGION && ne->region == r)) continue;
            if (ne->kind == WS_SIMD && ne->pre == r) tail = end++;
            break;
        }
    /* what moves to the group level goes first */
    for (size_t j = *at; j < end; j++) {
        ws_note *nj = items[j]->note;
        if (nj->kind == WS_HOIST && !nj->printed) {
            wg_print_hoist(p, items[j]);
            nj->printed = true;
        }
        if (nj->kind == WS_REGION && items[j]->kind == GK_S_DECL)
            for (size_t d = 0; d < items[j]->decl->ndecls; d++) {
                const gk_declarator *dc = &items[j]->decl->decls[d];
                const wg_var *v = dc->note;
                if (!v || v->kind != WV_UNIFORM) continue;
                gk_print_line(p, dc->pos.line ? dc->pos : items[j]->pos);
                gk_print_type(p, dc->type, dc->name);
                gp_strbuf_puts(p->out, " = ");
                gk_print_expr(p, dc->init, GK_PREC_ASSIGN);
                gp_strbuf_puts(p->out, ";");
                gk_print_newline(p);
            }
    }
    wg_puts_line(p, "GP__WI_BEGIN");
    p->indent++;
    size_t nv = w->nvars;
    for (size_t i = 0; i < nv; i++) {
        if (!w->need[(size_t)r * nv + i]) continue;
        const gk_declarator *dc = w->vars[i]->dc;
        gk_print_line(p, dc->pos);
        gk_print_type(p, dc->type, dc->name);
        gp_strbuf_puts(p->out, " = ");
        gk_print_expr(p, dc->init, GK_PREC_ASSIGN);
        gp_strbuf_puts(p->out, ";");
        gk_print_newline(p);
    }
    w->printing_region = w->has_return[r] ? r : -1;
    for (size_t j = *at; j < end; j++) {
        ws_note *nj = items[j]->note;
        if (j == tail) {
            wg_print_simd_operands(p, items[j], w->simd[nj->simd], nj->simd);
            nj->pre_printed = true;
        } else if (nj->kind == WS_REGION || nj->kind == WS_SIMD) {
            gk_print_stmt(p, items[j]);
        }
    }
    w->printing_region = -1;
    if (w->has_return[r]) {
        gk_print_indent(p);
        gp_strbuf_printf(p->out, "gp__next%d:;", r);
        gk_print_newline(p);
    }
    p->indent--;
    wg_puts_line(p, "GP__WI_END");
    if (pre_only) return;
    *at = tail < n ? tail - 1 : end - 1; /* the list goes on with the statement at tail */
}

static void wg_print_block(gk_printer *p, wg *w, const gk_stmt *body)
{
    gp_strbuf_puts(p->out, "{");
    gk_print_newline(p);
    p->indent++;
    /* a block with a barrier is planned item by item (WS_BLOCK); a branch without one is a
     * region of its own, planned whole, its items unannotated */
    const ws_note *note = body->note;
    if (body->kind == GK_S_BLOCK && note && note->kind == WS_BLOCK)
        wg_print_list(p, w, body->items, body->nitems);
    else
        wg_print_list(p, w, (gk_stmt *const *)&body, 1);
    p->indent--;
    wg_puts_line(p, "}");
}

static void wg_print_list(gk_printer *p, wg *w, gk_stmt *const *items, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        const gk_stmt *s = items[i];
        ws_note *note = s->note;
        switch (note->kind) {
        case WS_BARRIER:
            break;
        case WS_HOIST:
            if (!note->printed) wg_print_hoist(p, s);
            note->printed = true;
            break;
        case WS_URETURN:
            gk_print_stmt(p, s);
            break;
        case WS_REGION:
            wg_print_region(p, w, items, n, &i);
            break;
        case WS_SIMD:
            if (!note->pre_printed) wg_print_region(p, w, items, n, &i); /* its operands */
            wg_print_region(p, w, items, n, &i);
            break;
        case WS_BLOCK:
            gk_print_line(p, s->pos);
            wg_print_block(p, w, s);
            break;
        case WS_IF:
            gk_print_line(p, s->pos);
            gp_strbuf_puts(p->out, "if (");
            gk_print_expr(p, s->expr, GK_PREC_COMMA);
            gp_strbuf_puts(p->out, ") ");
            wg_print_block(p, w, s->body);
            if (s->else_body) {
                gk_print_indent(p);
                gp_strbuf_puts(p->out, "else ");
                wg_print_block(p, w, s->else_body);
            }
            break;
        case WS_FOR:
            gk_print_line(p, s->pos);
            gp_strbuf_puts(p->out, "for (");
            gk_print_decl(p, s->init->decl);
            gp_strbuf_puts(p->out, " ");
            if (s->expr) gk_print_expr(p, s->expr, GK_PREC_COMMA);
            gp_strbuf_puts(p->out, "; ");
            if (s->step) gk_print_expr(p, s->step, GK_PREC_COMMA);
            gp_strbuf_puts(p->out, ") ");
            wg_print_block(p, w, s->body);
            break;
        }
    }
}

typedef struct wg_unit_ctx {
    const gp_build_request *req;
    wg **plans; /* per top: the plan of a kernel in the loops form, else NULL */
    size_t count;
} wg_unit_ctx;

static bool wg_top_hook(gk_printer *p, const gk_top *t)
{
    wg *w = t->note;
    if (t->kind != GK_TOP_KERNEL || !w) return false;
    gk_print_line(p, t->pos);
    gp_strbuf_puts(p->out, "GP_KERNEL_LOOPS(");
    gp_strbuf_puts(p->out, t->name);
    for (size_t i = 0; i < t->nparams; i++) {
        static const char *const kinds[] = {"GP_BUF", "GP_CBUF", "GP_VAL", "GP_DYN_SHARED"};
        gp_strbuf_printf(p->out, ", %s(%s, %s)", kinds[t->params[i].kind], t->params[i].type_text,
                         t->params[i].name);
    }
    gp_strbuf_puts(p->out, ")");
    gk_print_newline(p);
    gp_strbuf_puts(p->out, "{");
    gk_print_newline(p);
    p->indent++;
    wg_puts_line(p, "GP__WG_PROLOGUE");
    for (size_t i = 0; i < w->nvars; i++) {
        const wg_var *v = w->vars[i];
        if (v->kind != WV_EXPAND) continue;
        gk_print_indent(p);
        gk_print_type(p, wg_soa_type(w, v->dc->type), v->name);
        gp_strbuf_puts(p->out, ";");
        gk_print_newline(p);
    }
    for (int k = 0; k < w->nsimd; k++) {
        gk_print_indent(p);
        gp_strbuf_printf(p->out, "uint32_t gp__sv%d[gp__n], gp__sa%d[gp__n];", k, k);
        gp_strbuf_printf(p->out, " (void)gp__sa%d;", k);
        gk_print_newline(p);
    }
    void *saved = p->ctx;
    p->ctx = w;
    p->expr_hook = wg_expr_hook;
    p->stmt_hook = wg_stmt_hook;
    w->printing_region = -1;
    wg_print_list(p, w, t->body->items, t->body->nitems);
    p->expr_hook = NULL;
    p->stmt_hook = NULL;
    p->ctx = saved;
    p->indent--;
    gk_print_line(p, t->body->end);
    gp_strbuf_puts(p->out, "}");
    gk_print_newline(p);
    return true;
}

static void wg_free(wg *w)
{
    if (!w) return;
    free(w->vars);
    free(w->uses);
    free(w->has_return);
    free(w->need);
    free(w->simd);
    gk_arena_free(&w->arena);
    free(w);
}

bool gp_cpu_loops_enabled(void)
{
    const char *v = getenv("GPUPORT_CPU_LOOPS");
    if (!v || !*v || !strcmp(v, "1") || !strcmp(v, "auto")) return true;
    if (!strcmp(v, "0")) return false;
    static _Atomic int warned;
    if (!warned++)
        gp_log_info("GPUPORT_CPU_LOOPS=%s is not 0, 1 or auto; using auto (work-group loops where "
                    "they are proven safe)",
                    v);
    return true;
}

static const gp_kernel_sig *wg_sig(const gp_build_request *req, const char *name)
{
    for (uint32_t i = 0; i < req->num_kernels; i++)
        if (!strcmp(req->kernels[i].name, name)) return &req->kernels[i];
    return NULL;
}

gp_status gp_cpu_loops_text(const gp_build_request *req, char **text, size_t *len)
{
    *text = NULL;
    *len = 0;
    bool any = false;
    for (uint32_t i = 0; i < req->num_kernels; i++)
        if (req->kernels[i].uses_barrier || req->kernels[i].uses_simd) any = true;
    if (!any) return GP_OK;
    const char *pre;
    size_t npre;
    if (!gp_ck_prelude_part(req, &pre, &npre)) return GP_OK;
    gk_unit u;
    char err[600];
    if (gk_parse(&u, req->user_source, req->user_source_len, req->source_name, req->defines,
                 req->num_defines, err, sizeof err) != 0) {
        gp_log_info("%s: its kernels with barriers run as fibers: the CPU front end cannot read "
                    "the source (%s)",
                    req->source_name, err);
        gk_unit_free(&u);
        return GP_OK;
    }
    size_t nloops = 0;
    gp_status st = GP_OK;
    for (size_t i = 0; i < u.ntops; i++) {
        gk_top *t = u.tops[i];
        t->note = NULL;
        const gp_kernel_sig *sig = t->kind == GK_TOP_KERNEL ? wg_sig(req, t->name) : NULL;
        if (!sig || !(sig->uses_barrier || sig->uses_simd)) continue;
        wg *w = calloc(1, sizeof *w);
        if (!w) {
            st = gp_error_set(GP_ERR_OUT_OF_MEMORY, "out of host memory");
            break;
        }
        w->u = &u;
        w->k = t;
        wg_analyse(w);
        if (w->why) {
            const char *f = w->why_pos.file < u.files.n ? u.files.names[w->why_pos.file] : "?";
            gp_log_info("kernel '%s' runs its work-items as fibers on the CPU: %s (%s:%u)", t->name,
                        w->why, f, w->why_pos.line);
            wg_free(w);
            continue;
        }
        gp_log_info("kernel '%s' runs as work-group loops on the CPU (%d regions between its "
                    "barriers)",
                    t->name, w->nregions);
        t->note = w;
        nloops++;
    }
    if (st == GP_OK && nloops) {
        gp_strbuf sb = GP_STRBUF_INIT;
        gp_strbuf_append(&sb, pre, npre);
        gp_strbuf_putc(&sb, '\n');
        gk_printer p;
        memset(&p, 0, sizeof p);
        p.out = &sb;
        p.files = &u.files;
        p.top_hook = wg_top_hook;
        gk_print_unit(&p, &u);
        if (sb.failed) {
            gp_strbuf_free(&sb);
            st = gp_error_set(GP_ERR_OUT_OF_MEMORY, "out of host memory rewriting %s",
                              req->source_name);
        } else {
            *len = sb.len;
            *text = gp_strbuf_take(&sb);
        }
    }
    for (size_t i = 0; i < u.ntops; i++)
        if (u.tops[i]->kind == GK_TOP_KERNEL) {
            wg_free(u.tops[i]->note);
            u.tops[i]->note = NULL;
        }
    gk_unit_free(&u);
    return st;
}
