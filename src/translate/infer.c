/* infer.c — the analysis of a function body: the value type and, for pointers, the address space
 * of every expression. Spaces come from initialisers and assignments only and are propagated to a
 * fixed point; a pointer that gets two, or none, is refused. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "translate/lower_impl.h"
#include "translate/map.h"
#include "translate/parser.h"

/* e (p[i], *p) reads an element of a buffer of 3-component vectors in global or constant
 * memory, which the output stores packed as CUDA does: read as a value, it is unpacked into the
 * 4-component type, unless the parent takes the element itself (a field, its address, the
 * target of an assignment), which clears the mark. */
static void mark_packed(tr_expr *e, const tr_expr *ptr)
{
    e->packed = e->vt == TR_VT_VEC && ptr->vt == TR_VT_PTR &&
                        (ptr->space == TR_SP_GLOBAL || ptr->space == TR_SP_CONSTANT)
                    ? tl_packed3(e->vec)
                    : NULL;
}

/* cuda_fp16.h's operators on two __half values: the prelude's function for op, or NULL (`!=` is
 * CUDA's unordered __hneu: not equal, or either a NaN) */
static const char *half_operator(const char *op)
{
    static const char *const ops[][2] = {{"+", "add"},  {"-", "sub"},  {"*", "mul"},  {"/", "div"},
                                         {"==", "eq"},  {"!=", "neu"}, {"<", "lt"},   {"<=", "le"},
                                         {">", "gt"},   {">=", "ge"},  {"+=", "add"}, {"-=", "sub"},
                                         {"*=", "mul"}, {"/=", "div"}};
    for (size_t i = 0; i < sizeof ops / sizeof *ops; i++)
        if (!strcmp(op, ops[i][0])) return ops[i][1];
    return NULL;
}

static bool half_op_compares(const char *f)
{
    return strcmp(f, "add") && strcmp(f, "sub") && strcmp(f, "mul") && strcmp(f, "div");
}

tr_space tl_sym_space(lctx *c, tr_sym *s)
{
    if (s->ndims) return s->type.space ? s->type.space : TR_SP_PRIVATE;
    if (!s->type.nptr) return TR_SP_NONE;
    if (s->kind == TR_SYM_PARAM) {
        if (c->kernel) return TR_SP_GLOBAL;
        for (int i = 0; i < c->f->nparams; i++)
            if (c->f->params[i] == s && c->clone) return c->clone->spaces[i];
        return TR_SP_NONE;
    }
    if (s->kind == TR_SYM_DYN_SHARED) return TR_SP_SHARED;
    unsigned bits = s->seen_spaces;
    for (int sp = TR_SP_GLOBAL; sp <= TR_SP_PRIVATE; sp++)
        if (bits == (1u << sp)) return (tr_space)sp;
    return TR_SP_NONE;
}

bool tl_side_effect_free(const tr_expr *e)
{
    if (!e) return true;
    switch (e->kind) {
    case TR_E_CALL: {
        /* math, min/max, conversions and loads the dialect maps compute a value and nothing
         * else (atomics, barriers, SIMD-group operations and the file's functions may not) */
        const tr_callmap *m = e->a && e->a->kind == TR_E_IDENT && !e->callee && !e->a->sym
                                  ? tr_map_call(e->a->text)
                                  : NULL;
        bool pure =
            m && strcmp(m->out ? m->out : "", "gp_printf") != 0 && /* it prints */
            (m->kind == TR_CALL_SAME || m->kind == TR_CALL_RENAME || m->kind == TR_CALL_HALF ||
             m->kind == TR_CALL_FLOAT_MATH || m->kind == TR_CALL_MINMAX ||
             (m->kind == TR_CALL_TEMPLATE && m->out && !strchr(m->out, '=')));
        if (!pure) return false;
        for (int i = 0; i < e->nargs; i++)
            if (!tl_side_effect_free(e->args[i])) return false;
        return true;
    }
    case TR_E_ASSIGN:
    case TR_E_POSTFIX:
        return false;
    case TR_E_UNARY:
        if (!strcmp(e->text, "++") || !strcmp(e->text, "--")) return false;
        return tl_side_effect_free(e->a);
    default:
        break;
    }
    for (int i = 0; i < e->nargs; i++)
        if (!tl_side_effect_free(e->args[i])) return false;
    return tl_side_effect_free(e->a) && tl_side_effect_free(e->b) && tl_side_effect_free(e->c);
}

/* A value converted implicitly between half (stored as its bits) and another arithmetic type:
 * C would convert the bits, CUDA converts the value; so the output converts the value. */
void tl_half_mix(lctx *c, const tr_expr *at, tr_vt to, const tr_expr *from)
{
    if (!from || from->vt == TR_VT_UNKNOWN || from->vt == TR_VT_PTR || to == TR_VT_UNKNOWN ||
        to == TR_VT_PTR || to == from->vt ||
        (to != TR_VT_HALF && to != TR_VT_BF16 && from->vt != TR_VT_HALF && from->vt != TR_VT_BF16))
        return;
    if ((to == TR_VT_HALF || to == TR_VT_BF16) &&
        (from->vt == TR_VT_HALF || from->vt == TR_VT_BF16)) {
        tl_refuse(c, (tr_expr *)at, "half conversion",
                  "a conversion between half and bfloat16: convert through float");
        return;
    }
    if (at->kind == TR_E_ASSIGN && strcmp(at->text, "=")) {
        tl_refuse(c, (tr_expr *)at, "half arithmetic",
                  "half is a storage type in the dialect: '%s' on a half is arithmetic; convert "
                  "with __half2float first",
                  at->text);
        return;
    }
    /* the value converted, as CUDA's conversion operators do (print.c) */
    ((tr_expr *)from)->convert = to == TR_VT_HALF         ? 'h'
                                 : to == TR_VT_BF16       ? 'b'
                                 : from->vt == TR_VT_BF16 ? 'g'
                                                          : 'f';
}

/* Records the space a pointer variable is given at `at`. */
void tl_give_space(lctx *c, tr_sym *s, tr_space sp, const tr_expr *at)
{
    if (!s || !s->type.nptr || s->ndims || s->kind == TR_SYM_PARAM || s->kind == TR_SYM_CONSTANT)
        return;
    if (sp == TR_SP_NONE) return;
    unsigned bit = 1u << sp;
    if (!(s->seen_spaces & bit)) {
        if (s->seen_spaces && !s->conflict_line) s->conflict_line = at ? at->line : s->line;
        s->seen_spaces |= bit;
        c->changed = true;
    }
}
static bool builtin_member(tr_expr *e)
{
    if (e->kind != TR_E_MEMBER || strcmp(e->text, ".") != 0 || e->a->kind != TR_E_IDENT ||
        e->a->sym)
        return false;
    for (int b = 0; b < TR_B_COUNT; b++)
        if (!strcmp(e->a->text, tl_builtin_cuda[b])) {
            int dim = !strcmp(e->name, "x")   ? 0
                      : !strcmp(e->name, "y") ? 1
                      : !strcmp(e->name, "z") ? 2
                                              : -1;
            if (dim < 0) return false;
            e->kind = TR_E_BUILTIN;
            e->bkind = (tr_builtin)b;
            e->dim = dim;
            return true;
        }
    return false;
}

/* An operator applied to a value of one of the file's structs: a call of the operator function
 * the file defines for it (vectors.c, as for vector types), or refused where there is none (C
 * has no operators on structs), never printed as it stands. */
static bool struct_operand(lctx *c, tr_expr *e, const tr_expr *a)
{
    if (!a || !strcmp(e->text, ",")) return false;
    const char *base = tl_struct_value(c, a);
    if (!base) return false;
    return tl_vector_operator(c, e);
}

void tl_infer_expr(lctx *c, tr_expr *e)
{
    if (!e) return;
    e->space = TR_SP_NONE;
    e->elem = NULL;
    if (e->kind != TR_E_CALL) e->vec = NULL;
    switch (e->kind) {
    case TR_E_NUM:
        e->vt = tl_number_vt(e->text);
        return;
    case TR_E_CHAR:
        e->vt = TR_VT_INT;
        return;
    case TR_E_STR:
        e->vt = TR_VT_UNKNOWN;
        return;
    case TR_E_RAW:
        return;
    case TR_E_CG:
        tl_refuse(c, e, "cooperative groups",
                  "a cooperative group used as a value: the translation follows groups through "
                  "variables, parameters and their methods only");
        return;
    case TR_E_BUILTIN:
        e->vt = TR_VT_UINT;
        c->f->builtins |= 1u << (e->bkind * 3 + e->dim);
        return;
    case TR_E_IDENT: {
        tr_sym *s = e->sym;
        if (!s && (!strcmp(e->text, "true") || !strcmp(e->text, "false"))) {
            e->vt = TR_VT_BOOL; /* C++'s, kept: every target has them (C through stdbool.h) */
            return;
        }
        if (s && s->type.cg) {
            tl_refuse(c, e, "cooperative groups",
                      "the group %s used as a value: the translation follows groups through "
                      "variables, parameters and their methods only",
                      s->name);
            return;
        }
        if (!s) {
            for (size_t k = 0; k < c->u->pp.nkept; k++)
                if (!strcmp(c->u->pp.kept[k].name, e->text)) {
                    e->vt =
                        tl_number_vt(c->u->pp.kept[k].body + strspn(c->u->pp.kept[k].body, "(-"));
                    return;
                }
            for (int b = 0; b < TR_B_COUNT; b++)
                if (!strcmp(e->text, tl_builtin_cuda[b])) {
                    tl_refuse(c, e, "built-in index",
                              "%s is used as a whole (dim3/uint3): read its "
                              ".x, .y and .z",
                              e->text);
                    return;
                }
            if (!strcmp(e->text, "warpSize")) {
                if (c->opt->simd_width) {
                    e->vt = TR_VT_INT;
                    c->f->uses_simd = true; /* the kernel assumes 32 lanes: say so */
                    return;
                }
                tl_refuse(
                    c, e, "warpSize",
                    "warpSize is the width of CUDA's warps (32): translate with --simd-width 32 "
                    "to make it gp_simd_width() (the kernel then runs where SIMD groups have 32 "
                    "lanes: CUDA, Apple GPUs, the CPU backend; not OpenCL)");
            } else if (!tl_find_func(c, e->text) && !tr_map_call(e->text))
                tl_refuse(c, e, "unknown name", "'%s' is not declared in device code%s%s%s",
                          e->text, c->u->pp.missing ? " (it may come from \"" : "",
                          c->u->pp.missing ? c->u->pp.missing : "",
                          c->u->pp.missing ? "\", which was not found: give -I DIR)" : "");
            e->vt = TR_VT_UNKNOWN;
            return;
        }
        if (s->as_buffer) { /* file-scope data the host fills: passed down as a buffer */
            s->used = true;
            tl_add_hoist(c->f, c->u, s);
        }
        if (s->kind == TR_SYM_DYN_SHARED || s->kind == TR_SYM_SHARED) {
            if (s->owner && s->owner != c->f) { /* cannot happen: names are scoped */
            } else if (!c->kernel || s->kind == TR_SYM_DYN_SHARED || !s->owner) {
                /* a function's own array, or one of the file's (every kernel declares it) */
                tl_add_hoist(c->f, c->u, s);
            }
        }
        if (s->type.nptr || s->ndims) {
            e->vt = TR_VT_PTR;
            e->space = tl_sym_space(c, s);
            e->elem = s->type.base;
            if (s->ndims > 1) e->elem = NULL; /* a row, not an element */
        } else {
            e->vt = tl_base_vt(s->type.base);
            if (e->vt == TR_VT_VEC) e->vec = s->type.base;
        }
        if (!strcmp(s->type.base, "double") || tl_vector_elem_vt(s->type.base) == TR_VT_DOUBLE)
            c->f->uses_fp64 = true;
        return;
    }
    case TR_E_MEMBER:
        if (builtin_member(e)) {
            tl_infer_expr(c, e);
            return;
        }
        tl_infer_expr(c, e->a);
        e->a->packed = NULL; /* p[i].x: a field of the packed element itself */
        e->vt = TR_VT_UNKNOWN;
        if (tl_infer_struct_member(c, e)) return;
        if (!strcmp(e->name, "x") || !strcmp(e->name, "y") || !strcmp(e->name, "z") ||
            !strcmp(e->name, "w")) {
            const char *b = e->a->vt == TR_VT_PTR   ? e->a->elem
                            : e->a->vt == TR_VT_VEC ? e->a->vec
                                                    : NULL;
            if (e->a->kind == TR_E_IDENT && e->a->sym && !e->a->sym->type.nptr)
                b = e->a->sym->type.base;
            e->vt = b && tl_vector_elem_vt(b) ? tl_vector_elem_vt(b) : TR_VT_FLOAT;
            if (e->vt == TR_VT_DOUBLE) c->f->uses_fp64 = true;
        }
        return;
    case TR_E_CALL:
        tl_infer_call(c, e);
        return;
    case TR_E_INDEX: {
        tl_infer_expr(c, e->a);
        tl_infer_expr(c, e->b);
        tr_sym *s = e->a->kind == TR_E_IDENT ? e->a->sym : NULL;
        if (s && s->ndims > 1) { /* a row of a multi-dimensional array */
            e->vt = TR_VT_PTR;
            e->space = e->a->space;
            e->elem = s->type.base;
            return;
        }
        if (e->a->kind == TR_E_INDEX && e->a->vt == TR_VT_PTR) {
            e->vt = tl_base_vt(e->a->elem ? e->a->elem : "int");
            if (e->vt == TR_VT_VEC) e->vec = e->a->elem;
            tl_mark_struct_value(e, e->a->elem, e->a->space);
            mark_packed(e, e->a);
            return;
        }
        e->vt = e->a->elem ? tl_base_vt(e->a->elem) : TR_VT_UNKNOWN;
        if (e->vt == TR_VT_VEC) e->vec = e->a->elem;
        tl_mark_struct_value(e, e->a->elem, e->a->space);
        mark_packed(e, e->a);
        return;
    }
    case TR_E_UNARY:
        tl_infer_expr(c, e->a);
        if (!strcmp(e->text, "&")) {
            e->a->packed = NULL; /* the element's address: a pointer into the packed buffer */
            e->vt = TR_VT_PTR;
            tr_expr *x = e->a;
            /* &s, &s.f of a value parameter (a member function's object): a kernel's is copied
             * on entry, so the address is a private one on every target (Metal passes values
             * in constant memory) */
            const tr_expr *b = x;
            while (b->kind == TR_E_MEMBER && !strcmp(b->text, "."))
                b = b->a;
            if (b->kind == TR_E_IDENT && b->sym && b->sym->kind == TR_SYM_PARAM &&
                !b->sym->type.nptr && !b->sym->ref)
                b->sym->assigned = true;
            if (x->kind == TR_E_INDEX) {
                tr_expr *base = x->a;
                while (base->kind == TR_E_INDEX)
                    base = base->a;
                e->space = base->space;
                e->elem = x->a->kind == TR_E_INDEX ? x->a->elem : x->a->elem;
                if (base->kind == TR_E_IDENT && base->sym) e->elem = base->sym->type.base;
            } else if (x->kind == TR_E_IDENT && x->sym) {
                tr_sym *s = x->sym;
                e->space = s->as_buffer                 ? TR_SP_GLOBAL
                           : s->kind == TR_SYM_SHARED   ? TR_SP_SHARED
                           : s->kind == TR_SYM_CONSTANT ? TR_SP_CONSTANT
                                                        : TR_SP_PRIVATE;
                e->elem = s->type.base;
            } else if (x->kind == TR_E_UNARY && !strcmp(x->text, "*")) {
                e->space = x->a->space;
                e->elem = x->a->elem;
            } else if (x->kind == TR_E_MEMBER && tl_struct_field_address(c, e)) {
                /* &s.f, &p->f: where the struct is */
            } else {
                tl_refuse(c, e, "address space",
                          "the address space of this '&' expression cannot be "
                          "inferred");
            }
        } else if (!strcmp(e->text, "*")) {
            e->vt = e->a->elem ? tl_base_vt(e->a->elem) : TR_VT_UNKNOWN;
            if (e->vt == TR_VT_VEC) e->vec = e->a->elem;
            tl_mark_struct_value(e, e->a->elem, e->a->space);
            mark_packed(e, e->a);
        } else if (e->a->vt == TR_VT_VEC && tl_vector_operator(c, e)) {
            return;
        } else if (strcmp(e->text, "&") && struct_operand(c, e, e->a)) {
            return;
        } else if (!strcmp(e->text, "!")) {
            e->vt = TR_VT_INT;
        } else {
            e->vt = e->a->vt == TR_VT_BOOL ? TR_VT_INT : e->a->vt;
            if (e->a->vt == TR_VT_PTR) {
                e->space = e->a->space;
                e->elem = e->a->elem;
            }
            if ((!strcmp(e->text, "++") || !strcmp(e->text, "--")) && e->a->kind == TR_E_IDENT &&
                e->a->sym && e->a->sym->kind == TR_SYM_PARAM && !e->a->sym->type.nptr)
                e->a->sym->assigned = true;
        }
        e->half_op = NULL;
        if (e->a->vt == TR_VT_HALF && !strcmp(e->text, "-")) { /* -h: gp_half_neg(h) */
            e->half_op = "neg";
            e->vt = TR_VT_HALF;
            return;
        }
        if ((e->a->vt == TR_VT_HALF || e->a->vt == TR_VT_BF16) && strcmp(e->text, "&") != 0)
            tl_refuse(c, e, "half arithmetic",
                      "half is a storage type in the dialect: convert with "
                      "__half2float first");
        return;
    case TR_E_POSTFIX:
        tl_infer_expr(c, e->a);
        e->vt = e->a->vt;
        e->space = e->a->space;
        e->elem = e->a->elem;
        if (e->a->kind == TR_E_IDENT && e->a->sym && e->a->sym->kind == TR_SYM_PARAM &&
            !e->a->sym->type.nptr)
            e->a->sym->assigned = true;
        return;
    case TR_E_BINARY: {
        tl_infer_expr(c, e->a);
        tl_infer_expr(c, e->b);
        if ((e->a->vt == TR_VT_VEC || e->b->vt == TR_VT_VEC) && tl_vector_operator(c, e)) return;
        if (struct_operand(c, e, e->a) || struct_operand(c, e, e->b)) return;
        const char *op = e->text;
        bool cmp = !strcmp(op, "==") || !strcmp(op, "!=") || !strcmp(op, "<") || !strcmp(op, ">") ||
                   !strcmp(op, "<=") || !strcmp(op, ">=") || !strcmp(op, "&&") || !strcmp(op, "||");
        if (cmp) {
            e->vt = TR_VT_INT;
        } else if (e->a->vt == TR_VT_PTR && e->b->vt != TR_VT_PTR) {
            e->vt = TR_VT_PTR, e->space = e->a->space, e->elem = e->a->elem;
        } else if (e->b->vt == TR_VT_PTR && e->a->vt != TR_VT_PTR && !strcmp(op, "+")) {
            e->vt = TR_VT_PTR, e->space = e->b->space, e->elem = e->b->elem;
        } else if (e->a->vt == TR_VT_PTR && e->b->vt == TR_VT_PTR) {
            e->vt = TR_VT_LONG; /* pointer difference */
        } else {
            e->vt =
                !strcmp(op, "<<") || !strcmp(op, ">>") ? e->a->vt : tl_arith(e->a->vt, e->b->vt);
            /* a double literal in float arithmetic: CUDA computes it in double */
            tr_expr *lit = e->a->kind == TR_E_NUM && e->a->vt == TR_VT_DOUBLE   ? e->a
                           : e->b->kind == TR_E_NUM && e->b->vt == TR_VT_DOUBLE ? e->b
                                                                                : NULL;
            tr_expr *other = lit == e->a ? e->b : e->a;
            if (lit && other->vt == TR_VT_FLOAT)
                tl_note(
                    c, lit->file, lit->line, "double literal",
                    "%s is a double literal: CUDA and the CPU compute '%s' in double, Metal and "
                    "OpenCL without fp64 in float; write %sf if float is meant",
                    lit->text, op, lit->text);
        }
        e->half_op = e->a->vt == TR_VT_HALF && e->b->vt == TR_VT_HALF ? half_operator(op) : NULL;
        if (e->half_op) {
            e->vt = half_op_compares(e->half_op) ? TR_VT_INT : TR_VT_HALF;
            return;
        }
        if (e->a->vt == TR_VT_HALF || e->b->vt == TR_VT_HALF || e->a->vt == TR_VT_BF16 ||
            e->b->vt == TR_VT_BF16)
            tl_refuse(c, e, "half arithmetic",
                      "half is a storage type in the dialect: convert with "
                      "__half2float first");
        return;
    }
    case TR_E_ASSIGN:
        tl_infer_expr(c, e->a);
        tl_infer_expr(c, e->b);
        e->pack = NULL;
        if (e->a->packed && !strcmp(e->text, "=")) {
            e->pack = e->a->packed; /* p[i] = v: the value packed into the element */
            e->a->packed = NULL;
        } else if (e->a->packed) {
            bool field = e->a->kind == TR_E_MEMBER;
            tl_refuse(c, e, "vector operator",
                      "%s on %s %s (stored packed, as CUDA stores it): write %s = %s %.*s v",
                      e->text, field ? "a struct field of type" : "an element of a buffer of",
                      e->a->vec ? e->a->vec : "3-component vectors", field ? "s.f" : "p[i]",
                      field ? "s.f" : "p[i]", (int)strlen(e->text) - 1, e->text);
            return;
        }
        if (e->a->vt == TR_VT_VEC && strcmp(e->text, "=") && tl_vector_operator(c, e)) return;
        if (strcmp(e->text, "=") && (struct_operand(c, e, e->a) || struct_operand(c, e, e->b)))
            return;
        if (e->b && e->b->kind == TR_E_INIT) /* C has braces in declarations only */
            tl_refuse(c, e, "brace assignment",
                      "assignment of a brace list (x = {a, b}): C and OpenCL C take braces only "
                      "in a declaration; assign the members one by one");
        e->vt = e->a->vt;
        e->vec = e->a->vec;
        e->half_op = strcmp(e->text, "=") && e->a->vt == TR_VT_HALF && e->b->vt == TR_VT_HALF &&
                             tl_side_effect_free(e->a)
                         ? half_operator(e->text) /* h += g: h = gp_half_add(h, g) */
                         : NULL;
        if (!e->half_op && strcmp(e->text, "=") != 0 &&
            (e->a->vt == TR_VT_HALF || e->a->vt == TR_VT_BF16))
            tl_refuse(c, e, "half arithmetic", /* h -= x would compute on the stored bits */
                      "half is a storage type in the dialect: convert with __half2float first "
                      "(%s on a half)",
                      e->text);
        tl_half_mix(c, e, e->a->vt, e->b);
        if (e->a->kind == TR_E_IDENT && e->a->sym) {
            tr_sym *s = e->a->sym;
            if (s->type.nptr && !s->ndims && !strcmp(e->text, "="))
                tl_give_space(c, s, e->b->space, e);
            if (s->kind == TR_SYM_PARAM && !s->type.nptr) s->assigned = true;
            if (s->kind == TR_SYM_PARAM && s->type.nptr && !c->kernel && c->final) {
                tr_space want = tl_sym_space(c, s);
                if (e->b->space && want && e->b->space != want)
                    tl_refuse(c, e, "address space",
                              "parameter %s points into %s memory but is "
                              "assigned a %s pointer here",
                              s->name, tl_space_name[want], tl_space_name[e->b->space]);
            }
            if (s->kind == TR_SYM_PARAM && s->type.nptr && c->kernel && c->final && e->b->space &&
                e->b->space != TR_SP_GLOBAL)
                tl_refuse(c, e, "address space",
                          "kernel parameter %s (global memory) is assigned a "
                          "%s pointer",
                          s->name, tl_space_name[e->b->space]);
        }
        return;
    case TR_E_COND:
        tl_infer_expr(c, e->a);
        tl_infer_expr(c, e->b);
        tl_infer_expr(c, e->c);
        if (e->b->vt == TR_VT_PTR || e->c->vt == TR_VT_PTR) {
            e->vt = TR_VT_PTR;
            e->elem = e->b->elem ? e->b->elem : e->c->elem;
            long long zero;
            if (e->b->space == e->c->space) {
                e->space = e->b->space;
            } else if (e->b->vt != TR_VT_PTR && tl_const_int(c, e->b, &zero) && zero == 0) {
                e->space = e->c->space; /* `n ? nullptr : p + i`: the null pointer is any */
            } else if (e->c->vt != TR_VT_PTR && tl_const_int(c, e->c, &zero) && zero == 0) {
                e->space = e->b->space; /* `n ? p + i : nullptr` */
            } else if (e->b->space && e->c->space) {
                tl_refuse(c, e, "address space",
                          "this conditional picks a %s pointer or a %s pointer: its address space "
                          "depends on control flow",
                          tl_space_name[e->b->space], tl_space_name[e->c->space]);
            }
        } else if (e->b->vt == e->c->vt && (e->b->vt == TR_VT_HALF || e->b->vt == TR_VT_BF16)) {
            e->vt = e->b->vt; /* one of two halves is a half, its bits as they are */
        } else if (e->b->vt == TR_VT_HALF || e->b->vt == TR_VT_BF16 || e->c->vt == TR_VT_HALF ||
                   e->c->vt == TR_VT_BF16) {
            e->vt = TR_VT_FLOAT;
            tl_refuse(c, e, "half arithmetic",
                      "half is a storage type in the dialect: this conditional picks a half or "
                      "another type; convert with __half2float first");
        } else {
            e->vt = tl_arith(e->b->vt, e->c->vt);
            e->vec = e->b->vt == TR_VT_VEC ? e->b->vec : e->c->vec;
        }
        return;
    case TR_E_CAST: {
        tl_infer_expr(c, e->a);
        const char *why = NULL;
        if (!tl_map_base(e->type->base, &why)) tl_refuse(c, e, e->type->base, "%s", why);
        if (e->type->nptr) {
            e->vt = TR_VT_PTR;
            e->space = e->a->space;
            e->elem = e->type->base;
            long long zero;
            if (e->a->vt != TR_VT_PTR && tl_const_int(c, e->a, &zero) && zero == 0)
                e->vt = TR_VT_INT; /* (T *)0, NULL as C spells it: the null pointer constant */
            else if (e->a->vt != TR_VT_PTR)
                tl_refuse(c, e, "address space",
                          "an integer cast to a pointer has no address space");
        } else {
            e->vt = tl_base_vt(e->type->base);
            if (e->vt == TR_VT_VEC) e->vec = e->type->base;
        }
        if (!strcmp(e->type->base, "double") || tl_vector_elem_vt(e->type->base) == TR_VT_DOUBLE)
            c->f->uses_fp64 = true;
        return;
    }
    case TR_E_SIZEOF_TYPE:
        e->vt = TR_VT_ULONG;
        if (tl_is_vec3(e->type->base) && !e->type->nptr)
            tl_refuse(c, e, e->type->base,
                      "sizeof(%s): CUDA packs a 3-component vector (float3: 12 bytes), the "
                      "translation holds it in the 4-component type",
                      e->type->base);
        return;
    case TR_E_SIZEOF_EXPR:
        tl_infer_expr(c, e->a);
        e->vt = TR_VT_ULONG;
        if (e->a->packed) {
            e->a->packed = NULL; /* sizeof(p[0]): the packed element's, as CUDA's */
        } else if (e->a->vt == TR_VT_VEC && tl_is_vec3(e->a->vec)) {
            tl_refuse(c, e, e->a->vec,
                      "sizeof of a %s: CUDA packs a 3-component vector (float3: 12 bytes), the "
                      "translation holds it in the 4-component type",
                      e->a->vec);
        }
        return;
    case TR_E_COMMA:
        tl_infer_expr(c, e->a);
        tl_infer_expr(c, e->b);
        e->vt = e->b->vt;
        e->space = e->b->space;
        e->elem = e->b->elem;
        e->vec = e->b->vec;
        return;
    case TR_E_INIT:
        for (int i = 0; i < e->nargs; i++)
            tl_infer_expr(c, e->args[i]);
        return;
    }
}

void tl_infer_stmt(lctx *c, tr_stmt *s)
{
    if (!s) return;
    switch (s->kind) {
    case TR_S_BLOCK:
        for (int i = 0; i < s->n; i++)
            tl_infer_stmt(c, s->list[i]);
        return;
    case TR_S_DECL:
        for (int i = 0; i < s->ndecls; i++) {
            tr_sym *sym = s->decls[i].sym;
            const char *why = NULL;
            if (c->final && !tl_map_base(sym->type.base, &why)) {
                tr_expr at = {.file = sym->file, .line = sym->line, .col = sym->col};
                tr_diag_add(c->u, true, at.file, at.line, at.col, sym->type.base, "%s: %s",
                            sym->name, why);
            }
            if (!strcmp(sym->type.base, "double") ||
                tl_vector_elem_vt(sym->type.base) == TR_VT_DOUBLE)
                c->f->uses_fp64 = true;
            tr_space psp = sym->type.nptr ? tl_sym_space(c, sym) : TR_SP_NONE;
            if (c->final && tl_is_vec3(sym->type.base) &&
                ((sym->type.nptr && (psp == TR_SP_GLOBAL || psp == TR_SP_CONSTANT) &&
                  !tl_packed3(sym->type.base)) ||
                 sym->kind == TR_SYM_DYN_SHARED))
                tr_diag_add(c->u, true, sym->file, sym->line, sym->col, sym->type.base,
                            "%s: a %s is packed in CUDA (float3: 12 bytes) and four components "
                            "on OpenCL and Metal, and the output packs only buffers of float3, "
                            "int3, uint3 and uchar3; store the 4-component type (or three "
                            "values)",
                            sym->name,
                            sym->kind == TR_SYM_DYN_SHARED ? "dynamic shared array of "
                                                             "3-component vectors"
                                                           : "pointer to a 3-component "
                                                             "vector");
            for (int d = 0; d < sym->ndims; d++) {
                tl_infer_expr(c, sym->dims[d]);
                long long dv;
                if (c->final && tl_local_dim(c, sym->dims[d], &dv) < 0)
                    tr_diag_add(c->u, true, sym->file, sym->line, sym->col, "array size",
                                "%s: its size names a local that is not an integer constant the "
                                "translation can compute (C would make it a variable-length "
                                "array, which OpenCL C has not); write the number or a #define",
                                sym->name);
            }
            if (s->decls[i].init) {
                tl_infer_expr(c, s->decls[i].init);
                if (sym->type.nptr && !sym->ndims)
                    tl_give_space(c, sym, s->decls[i].init->space, s->decls[i].init);
                if (!sym->type.nptr && !sym->ndims)
                    tl_half_mix(c, s->decls[i].init, tl_base_vt(sym->type.base), s->decls[i].init);
                if (!sym->type.nptr && !sym->ndims)
                    tl_pack_struct_init(c, sym->type.base, s->decls[i].init);
            }
            if ((sym->kind == TR_SYM_SHARED || sym->kind == TR_SYM_DYN_SHARED) &&
                (!c->kernel || sym->kind == TR_SYM_DYN_SHARED)) {
                tl_add_hoist(c->f, c->u, sym);
            }
        }
        return;
    case TR_S_EXPR:
    case TR_S_RETURN:
    case TR_S_CASE:
        tl_infer_expr(c, s->e);
        if (s->kind == TR_S_RETURN && s->e && !c->f->ret.nptr)
            tl_half_mix(c, s->e, tl_base_vt(c->f->ret.base), s->e);
        if (s->kind == TR_S_RETURN && s->e && c->f->ret.nptr && c->clone && c->final) {
            /* a pointer returned: where it points, alike for every return of this clone */
            if (s->e->space == TR_SP_NONE ||
                (c->clone->ret_space != TR_SP_NONE && c->clone->ret_space != s->e->space))
                c->clone->ret_spaces_differ = true;
            else
                c->clone->ret_space = s->e->space;
        }
        return;
    case TR_S_IF:
        tl_infer_expr(c, s->cond);
        tl_infer_stmt(c, s->body);
        tl_infer_stmt(c, s->els);
        return;
    case TR_S_FOR:
        tl_infer_stmt(c, s->init);
        tl_infer_expr(c, s->cond);
        tl_infer_expr(c, s->step);
        tl_infer_stmt(c, s->body);
        return;
    case TR_S_WHILE:
    case TR_S_DO:
    case TR_S_SWITCH:
        tl_infer_expr(c, s->cond);
        tl_infer_stmt(c, s->body);
        return;
    default:
        return;
    }
}

/* Local pointers of the function body (for resetting and checking their spaces). */
void tl_collect_locals(tr_stmt *s, tr_sym ***out, int *n, tr_unit *u)
{
    if (!s) return;
    if (s->kind == TR_S_DECL)
        for (int i = 0; i < s->ndecls; i++) {
            tr_sym **nl = tr_alloc(u, (size_t)(*n + 1) * sizeof *nl);
            if (*n) memcpy(nl, *out, (size_t)*n * sizeof *nl);
            nl[(*n)++] = s->decls[i].sym;
            *out = nl;
        }
    tl_collect_locals(s->init, out, n, u);
    tl_collect_locals(s->body, out, n, u);
    tl_collect_locals(s->els, out, n, u);
    for (int i = 0; i < s->n; i++)
        tl_collect_locals(s->list[i], out, n, u);
}
