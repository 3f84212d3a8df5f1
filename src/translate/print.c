/* print.c — printing the analysed tree as dialect source: expressions (with the parentheses
 * compilers ask for), statements, declarations with their address spaces, and the signatures of
 * kernels and device-function clones. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "translate/lower_impl.h"
#include "translate/map.h"
#include "util/strbuf.h"

void tl_emit_type_prefix(gp_strbuf *sb, const tr_type *t, tr_space sp)
{
    const char *why;
    const char *b = tl_map_base(t->base, &why);
    const char *pk =
        t->nptr == 1 && (sp == TR_SP_GLOBAL || sp == TR_SP_CONSTANT) ? tl_packed3(t->base) : NULL;
    char packed[32];
    if (pk) { /* a pointer into a buffer of 3-component vectors, stored as CUDA stores them */
        snprintf(packed, sizeof packed, "gp_packed_%s3", pk);
        b = packed;
    }
    if (t->nptr && sp) gp_strbuf_printf(sb, "%s ", tl_space_macro[sp]);
    if (t->is_volatile) gp_strbuf_puts(sb, "volatile ");
    /* GP_CONSTANT is `const` on CUDA already, and C++ rejects `const const` */
    if (t->is_const && !(t->nptr && sp == TR_SP_CONSTANT)) gp_strbuf_puts(sb, "const ");
    if (b)
        gp_strbuf_puts(sb, b);
    else
        tl_emit_todo(sb, why); /* refused already; --partial marks the place */
    if (t->nptr)
        gp_strbuf_puts(sb, " *");
    else
        gp_strbuf_putc(sb, ' ');
}

static int expr_prec(const tr_expr *e)
{
    switch (e->kind) {
    case TR_E_COMMA:
        return 1;
    case TR_E_ASSIGN:
        return 2;
    case TR_E_COND:
        return 3;
    case TR_E_BINARY: {
        int l = tr_binary_level(e->text);
        return l < 0 ? 4 : 4 + l;
    }
    case TR_E_UNARY:
    case TR_E_CAST:
    case TR_E_SIZEOF_EXPR:
    case TR_E_SIZEOF_TYPE:
        return 14;
    default:
        return 15;
    }
}

const char *tl_sym_name(lctx *c, tr_sym *s)
{
    if ((s->kind == TR_SYM_SHARED || s->kind == TR_SYM_DYN_SHARED) && s->owner &&
        s->owner != c->f) {
        /* passed in from elsewhere: named after its owner */
        static _Thread_local char buf[256];
        snprintf(buf, sizeof buf, "%s_%s", s->owner->name, s->name);
        return buf;
    }
    return s->name;
}

/* The argument a caller passes for a callee's hoisted array `s`. */
void tl_emit_hoisted_arg(lctx *c, gp_strbuf *sb, tr_sym *s)
{
    /* a shared scalar: the kernel declares it and passes its address (helpers take pointers) */
    if (c->kernel && s->kind == TR_SYM_SHARED && !s->ndims && !s->as_buffer)
        gp_strbuf_putc(sb, '&');
    if (!s->owner || s->owner == c->f) /* file-scope data passed as a buffer keeps its name */
        gp_strbuf_puts(sb, s->name);
    else
        gp_strbuf_printf(sb, "%s_%s", s->owner->name, s->name);
}

void tl_emit_builtin(lctx *c, gp_strbuf *sb, int bk, int dim)
{
    if (c->kernel)
        gp_strbuf_printf(sb, "(unsigned)%s(%d)", tl_builtin_dialect[bk], dim);
    else
        gp_strbuf_printf(sb, "gp_%s_%c", tl_builtin_cuda[bk], "xyz"[dim]);
}

/* blockIdx.d * blockDim.d + threadIdx.d (in any operand order): the global id. */
static int global_id_pattern(const tr_expr *e)
{
    if (e->kind != TR_E_BINARY || strcmp(e->text, "+")) return -1;
    for (int swap = 0; swap < 2; swap++) {
        const tr_expr *mul = swap ? e->b : e->a, *tid = swap ? e->a : e->b;
        if (mul->kind != TR_E_BINARY || strcmp(mul->text, "*") || tid->kind != TR_E_BUILTIN ||
            tid->bkind != TR_B_THREAD)
            continue;
        const tr_expr *x = mul->a, *y = mul->b;
        if (x->kind != TR_E_BUILTIN || y->kind != TR_E_BUILTIN || x->dim != tid->dim ||
            y->dim != tid->dim)
            continue;
        if ((x->bkind == TR_B_BLOCK && y->bkind == TR_B_BLOCKDIM) ||
            (x->bkind == TR_B_BLOCKDIM && y->bkind == TR_B_BLOCK))
            return tid->dim;
    }
    return -1;
}

/* m[i][j] of a multi-dimensional array passed as a buffer: one index into the flat buffer,
 * (i) * N + (j). */
static bool emit_flat_index(lctx *c, gp_strbuf *sb, tr_expr *e)
{
    tr_expr *idx[4];
    int n = 0;
    tr_expr *b = e;
    while (b->kind == TR_E_INDEX && n < 4) {
        idx[n++] = b->b;
        b = b->a;
    }
    if (b->kind != TR_E_IDENT || !b->sym || !b->sym->as_buffer || b->sym->ndims < 2 ||
        n != b->sym->ndims)
        return false;
    tr_sym *s = b->sym;
    gp_strbuf_printf(sb, "%s[", s->name);
    for (int d = 0; d < n; d++) { /* idx[n - 1] is the outermost index */
        if (d) gp_strbuf_puts(sb, " + ");
        gp_strbuf_putc(sb, '(');
        tl_emit_expr(c, sb, idx[n - 1 - d], 1);
        gp_strbuf_putc(sb, ')');
        for (int k = d + 1; k < n; k++) {
            gp_strbuf_puts(sb, " * (");
            tl_emit_expr(c, sb, s->dims[k], 1);
            gp_strbuf_putc(sb, ')');
        }
    }
    gp_strbuf_putc(sb, ']');
    return true;
}

static void emit_args(lctx *c, gp_strbuf *sb, tr_expr *e)
{
    for (int i = 0; i < e->nargs; i++) {
        if (i) gp_strbuf_puts(sb, ", ");
        tl_emit_expr(c, sb, e->args[i], 2);
    }
}

/* The f-suffixed math functions: C converts their arguments to float, which OpenCL's and Metal's
 * overloads would not (sqrtf(n) of an int is ambiguous there), so the conversion is written. */
static bool float_function(const tr_callmap *m)
{
    if (m->kind == TR_CALL_SAME) return true;
    size_t n = strlen(m->out);
    return m->kind == TR_CALL_RENAME && strcmp(m->out, "gp_printf") != 0 &&
           (!strcmp(m->out, "gp_rsqrt") || (n && m->out[n - 1] == 'f'));
}

/* The arguments, each converted to `vt` (float or double) unless it is one already. */
static void emit_args_as(lctx *c, gp_strbuf *sb, tr_expr *e, tr_vt vt)
{
    for (int i = 0; i < e->nargs; i++) {
        if (i) gp_strbuf_puts(sb, ", ");
        tr_vt a = e->args[i]->vt;
        if (a == TR_VT_HALF || a == TR_VT_BF16) { /* its value, not its bits */
            gp_strbuf_printf(sb, "%sgp_%s_to_float(", vt == TR_VT_FLOAT ? "" : "(double)",
                             a == TR_VT_HALF ? "half" : "bf16");
            tl_emit_expr(c, sb, e->args[i], 1);
            gp_strbuf_putc(sb, ')');
            continue;
        }
        if (a == vt || a == TR_VT_VEC) {
            tl_emit_expr(c, sb, e->args[i], 2);
            continue;
        }
        gp_strbuf_puts(sb, vt == TR_VT_FLOAT ? "(float)" : "(double)");
        tl_emit_expr(c, sb, e->args[i], 14);
    }
}

/* atomicInc / atomicDec with a limit: a compare-exchange loop, written once per address space
 * before the function that needs it. CUDA's semantics: inc stores old >= limit ? 0 : old + 1,
 * dec stores (old == 0 || old > limit) ? limit : old - 1; both return old. */
static const char *wrapping_atomic(lctx *c, const char *op, tr_space sp)
{
    bool inc = op[0] == 'i', shared = sp == TR_SP_SHARED;
    static const char *const names[2][2] = {{"atomicDec_global", "atomicDec_shared"},
                                            {"atomicInc_global", "atomicInc_shared"}};
    unsigned bit = 1u << (inc * 2 + shared);
    if (!(c->u->atomic_helpers & bit)) {
        c->u->atomic_helpers |= bit;
        gp_strbuf_printf(
            c->helpers,
            "/* CUDA's %s: a compare-exchange loop */\n"
            "GP_FUNC unsigned int %s(%s unsigned int *p, unsigned int limit)\n{\n"
            "    unsigned int old = gp_atomic_add(p, 0u);\n"
            "    for (;;) {\n"
            "        unsigned int seen = gp_atomic_cas(p, old, %s);\n"
            "        if (seen == old) return old;\n"
            "        old = seen;\n"
            "    }\n}\n\n",
            inc ? "atomicInc" : "atomicDec", names[inc][shared], shared ? "GP_SHARED" : "GP_GLOBAL",
            inc ? "old >= limit ? 0u : old + 1u" : "(old == 0u || old > limit) ? limit : old - 1u");
    }
    return names[inc][shared];
}

static void emit_call(lctx *c, gp_strbuf *sb, tr_expr *e)
{
    if (e->callee) {
        tr_func *g = e->callee;
        gp_strbuf_printf(sb, "%s(", g->clones[e->callee_clone].name);
        emit_args(c, sb, e);
        bool first = e->nargs == 0;
        for (int i = 0; i < g->nhoisted; i++) {
            gp_strbuf_puts(sb, first ? "" : ", ");
            tl_emit_hoisted_arg(c, sb, g->hoisted[i]);
            first = false;
        }
        for (int b = 0; b < 12; b++)
            if (g->builtins & (1u << b)) {
                gp_strbuf_puts(sb, first ? "" : ", ");
                tl_emit_builtin(c, sb, b / 3, b % 3);
                first = false;
            }
        gp_strbuf_putc(sb, ')');
        return;
    }
    const tr_callmap *m = tr_map_call(e->a->text);
    if (!m) return;
    switch (m->kind) {
    case TR_CALL_HALF: /* the arguments are of the types the signature asks (calls.c) */
    case TR_CALL_SAME:
    case TR_CALL_RENAME:
        gp_strbuf_printf(sb, "%s(", m->out);
        if (float_function(m))
            emit_args_as(c, sb, e, TR_VT_FLOAT);
        else
            emit_args(c, sb, e);
        gp_strbuf_putc(sb, ')');
        return;
    case TR_CALL_FLOAT_MATH:
        /* the double one: CUDA's own name, or another where the targets lack it (nearbyint) */
        gp_strbuf_printf(sb, "%s(",
                         e->vt == TR_VT_FLOAT ? m->out
                         : m->construct       ? m->construct
                                              : m->cuda);
        emit_args_as(c, sb, e, e->vt == TR_VT_FLOAT ? TR_VT_FLOAT : TR_VT_DOUBLE);
        gp_strbuf_putc(sb, ')');
        return;
    case TR_CALL_MINMAX:
        if (e->nargs == 1 && tl_is_int_vt(e->vt)) { /* abs of an int, wrapping as CUDA's does */
            gp_strbuf_puts(sb, "((");
            tl_emit_expr(c, sb, e->args[0], 0);
            gp_strbuf_puts(sb, ") < 0 ? (int)(0u - (unsigned int)(");
            tl_emit_expr(c, sb, e->args[0], 0);
            gp_strbuf_puts(sb, ")) : (");
            tl_emit_expr(c, sb, e->args[0], 0);
            gp_strbuf_puts(sb, "))");
            return;
        }
        if (e->nargs == 1) {
            gp_strbuf_printf(sb, "fabs%s(", e->vt == TR_VT_DOUBLE ? "" : "f");
            emit_args_as(c, sb, e, e->vt == TR_VT_DOUBLE ? TR_VT_DOUBLE : TR_VT_FLOAT);
            gp_strbuf_putc(sb, ')');
            return;
        }
        if (tl_is_int_vt(e->vt) && (m->cuda[0] == 'u' || m->cuda[0] == 'l')) {
            /* umin(a, b): both converted to unsigned int first, as CUDA's prototype does */
            const char *t = e->vt == TR_VT_UINT    ? "unsigned int"
                            : e->vt == TR_VT_ULONG ? "uint64_t"
                                                   : "int64_t";
            gp_strbuf_printf(sb, "gp_%s((%s)(", m->out, t);
            tl_emit_expr(c, sb, e->args[0], 0);
            gp_strbuf_printf(sb, "), (%s)(", t);
            tl_emit_expr(c, sb, e->args[1], 0);
            gp_strbuf_puts(sb, "))");
            return;
        }
        if (tl_is_int_vt(e->vt)) {
            gp_strbuf_printf(sb, "gp_%s(", m->out);
            emit_args(c, sb, e);
        } else {
            gp_strbuf_printf(sb, "%s%s(", !strcmp(m->out, "min") ? "fmin" : "fmax",
                             e->vt == TR_VT_DOUBLE ? "" : "f");
            emit_args_as(c, sb, e, e->vt == TR_VT_DOUBLE ? TR_VT_DOUBLE : TR_VT_FLOAT);
        }
        gp_strbuf_putc(sb, ')');
        return;
    case TR_CALL_ATOMIC:
        if (e->vt == TR_VT_FLOAT) {
            gp_strbuf_puts(sb, e->args[0]->space == TR_SP_SHARED ? "gp_atomic_add_float_shared("
                                                                 : "gp_atomic_add_float(");
        } else if (!strcmp(m->out, "inc") || !strcmp(m->out, "dec")) {
            long long limit;
            if (tl_const_int(c, e->args[1], &limit) && (uint32_t)limit == 0xffffffffu) {
                /* wrapping at the full range is plain modular arithmetic */
                gp_strbuf_printf(sb, "gp_atomic_%s(", m->out[0] == 'i' ? "add" : "sub");
                tl_emit_expr(c, sb, e->args[0], 2);
                gp_strbuf_puts(sb, ", 1u)");
                return;
            }
            gp_strbuf_printf(sb, "%s(", wrapping_atomic(c, m->out, e->args[0]->space));
        } else if (e->vt == TR_VT_DOUBLE) {
            gp_strbuf_puts(sb, "gp_atomic_add_double(");
        } else if (e->vt == TR_VT_LONG || e->vt == TR_VT_ULONG) {
            gp_strbuf_printf(sb, "gp_atomic64_%s(", m->out);
        } else {
            gp_strbuf_printf(sb, "gp_atomic_%s(", m->out);
        }
        emit_args(c, sb, e);
        gp_strbuf_putc(sb, ')');
        return;
    case TR_CALL_BARRIER:
        gp_strbuf_puts(sb, "gp_barrier()");
        return;
    case TR_CALL_SIMD: /* the mask (and the width, 32) are dropped: the dialect takes every lane */
        if (!strcmp(m->cuda, "__syncwarp")) {
            gp_strbuf_puts(sb, "gp_simd_barrier()");
            return;
        }
        gp_strbuf_printf(sb, "%s(", m->out);
        tl_emit_expr(c, sb, e->args[1], 2);
        if (strncmp(m->cuda, "__shfl", 6) == 0) {
            gp_strbuf_puts(sb, ", ");
            tl_emit_expr(c, sb, e->args[2], 2);
        }
        gp_strbuf_putc(sb, ')');
        return;
    case TR_CALL_TEMPLATE:
        for (const char *p = m->out; *p; p++) {
            if (*p == '$' && p[1] >= '1' && p[1] <= '9' && p[1] - '1' < e->nargs) {
                tl_emit_expr(c, sb, e->args[p[1] - '1'], 14);
                p++;
            } else {
                gp_strbuf_putc(sb, *p);
            }
        }
        return;
    case TR_CALL_REFUSE:
        return;
    }
}

void tl_emit_todo(gp_strbuf *sb, const char *why)
{
    gp_strbuf_puts(sb, "GP_TODO(\"");
    for (const char *p = why; *p; p++) {
        if (*p == '"' || *p == '\\') gp_strbuf_putc(sb, '\\');
        gp_strbuf_putc(sb, *p);
    }
    gp_strbuf_puts(sb, "\")");
}

static bool bitwise_or_logical(const char *op)
{
    return !strcmp(op, "&") || !strcmp(op, "|") || !strcmp(op, "^") || !strcmp(op, "<<") ||
           !strcmp(op, ">>") || !strcmp(op, "&&") || !strcmp(op, "||");
}

/* An operand of a binary operator; mixes of bitwise, shift and logical operators with others get
 * parentheses even where C's precedence makes them redundant (`v & (N - 1)`, as compilers ask). */
static void emit_operand(lctx *c, gp_strbuf *sb, const tr_expr *parent, tr_expr *child, int prec)
{
    if (child->kind == TR_E_BINARY && !child->todo && strcmp(child->text, parent->text) != 0 &&
        (bitwise_or_logical(parent->text) || bitwise_or_logical(child->text))) {
        gp_strbuf_putc(sb, '(');
        tl_emit_expr(c, sb, child, 0);
        gp_strbuf_putc(sb, ')');
        return;
    }
    tl_emit_expr(c, sb, child, prec);
}

/* gp_half_<op>(a, b) of an operator on two halves (a binary one, or a compound assignment) */
static void emit_half_call(lctx *c, gp_strbuf *sb, tr_expr *e)
{
    gp_strbuf_printf(sb, "gp_half_%s(", e->half_op);
    tl_emit_expr(c, sb, e->a, 1);
    gp_strbuf_puts(sb, ", ");
    tl_emit_expr(c, sb, e->b, 1);
    gp_strbuf_putc(sb, ')');
}

void tl_emit_expr(lctx *c, gp_strbuf *sb, tr_expr *e, int prec)
{
    if (!e) return;
    if (e->todo) {
        tl_emit_todo(sb, e->todo);
        return;
    }
    if (e->convert) { /* CUDA's implicit conversion, of the value (half holds its bits) */
        char k = e->convert;
        e->convert = 0;
        gp_strbuf_puts(sb, k == 'h'   ? "gp_float_to_half((float)("
                           : k == 'b' ? "gp_float_to_bf16((float)("
                           : k == 'g' ? "gp_bf16_to_float("
                                      : "gp_half_to_float(");
        tl_emit_expr(c, sb, e, 1);
        gp_strbuf_puts(sb, k == 'h' || k == 'b' ? "))" : ")");
        e->convert = k;
        return;
    }
    /* a value initialising a packed field (packed), an element of a packed buffer read as a
     * value (unpacked) */
    const char **wrap = e->pack && e->kind != TR_E_ASSIGN ? &e->pack
                        : e->packed                       ? &e->packed
                                                          : NULL;
    if (wrap) {
        const char *k = *wrap;
        *wrap = NULL;
        gp_strbuf_printf(sb, "gp_%s_%s3(", wrap == &e->pack ? "pack" : "unpack", k);
        tl_emit_expr(c, sb, e, 1);
        gp_strbuf_putc(sb, ')');
        *wrap = k;
        return;
    }
    int my = expr_prec(e);
    bool paren = my < prec;
    if (paren) gp_strbuf_putc(sb, '(');
    int dim;
    switch (e->kind) {
    case TR_E_IDENT:
        if (!e->sym && !strcmp(e->text, "warpSize") && c->opt->simd_width)
            gp_strbuf_puts(sb, "gp_simd_width()");
        else if (e->sym && !c->kernel && e->sym->kind == TR_SYM_SHARED && !e->sym->ndims &&
                 !e->sym->as_buffer) /* a shared scalar in a helper: a pointer to it came in */
            gp_strbuf_printf(sb, "(*%s)", tl_sym_name(c, e->sym));
        else
            gp_strbuf_puts(sb, e->sym ? tl_sym_name(c, e->sym) : e->text);
        if (e->sym && e->sym->as_buffer && !e->sym->ndims && !e->sym->type.nptr)
            gp_strbuf_puts(sb, "[0]"); /* a scalar passed as a buffer of one */
        break;
    case TR_E_NUM:
    case TR_E_CHAR:
    case TR_E_STR:
    case TR_E_RAW:
        gp_strbuf_puts(sb, e->text);
        break;
    case TR_E_BUILTIN:
        tl_emit_builtin(c, sb, e->bkind, e->dim);
        break;
    case TR_E_CALL:
        emit_call(c, sb, e);
        break;
    case TR_E_INDEX:
        if (emit_flat_index(c, sb, e)) break;
        tl_emit_expr(c, sb, e->a, 15);
        gp_strbuf_putc(sb, '[');
        tl_emit_expr(c, sb, e->b, 1);
        gp_strbuf_putc(sb, ']');
        break;
    case TR_E_MEMBER:
        tl_emit_expr(c, sb, e->a, 15);
        gp_strbuf_printf(sb, "%s%s", e->text, e->name);
        break;
    case TR_E_UNARY:
        if (e->half_op) {
            gp_strbuf_printf(sb, "gp_half_%s(", e->half_op);
            tl_emit_expr(c, sb, e->a, 1);
            gp_strbuf_putc(sb, ')');
            break;
        }
        gp_strbuf_puts(sb, e->text);
        /* `- -x` and `& &x` must not fuse into `--x` / `&&x` */
        if (e->a->kind == TR_E_UNARY && e->a->text[0] == e->text[0]) gp_strbuf_putc(sb, ' ');
        tl_emit_expr(c, sb, e->a, 14);
        break;
    case TR_E_POSTFIX:
        tl_emit_expr(c, sb, e->a, 15);
        gp_strbuf_puts(sb, e->text);
        break;
    case TR_E_BINARY:
        if (c->kernel && (dim = global_id_pattern(e)) >= 0) {
            gp_strbuf_printf(sb, "(unsigned)gp_global_id(%d)", dim);
            break;
        }
        if (e->half_op) { /* two halves: computed in float, rounded to half (the prelude's) */
            emit_half_call(c, sb, e);
            break;
        }
        emit_operand(c, sb, e, e->a, my);
        gp_strbuf_printf(sb, " %s ", e->text);
        emit_operand(c, sb, e, e->b, my + 1);
        break;
    case TR_E_ASSIGN:
        if (e->half_op) { /* h += g on halves: h = gp_half_add(h, g) */
            tl_emit_expr(c, sb, e->a, 3);
            gp_strbuf_puts(sb, " = ");
            emit_half_call(c, sb, e);
            break;
        }
        tl_emit_expr(c, sb, e->a, 3);
        gp_strbuf_printf(sb, " %s ", e->text);
        if (e->pack) gp_strbuf_printf(sb, "gp_pack_%s3(", e->pack);
        tl_emit_expr(c, sb, e->b, e->pack ? 1 : 2);
        if (e->pack) gp_strbuf_putc(sb, ')');
        break;
    case TR_E_COND:
        tl_emit_expr(c, sb, e->a, 4);
        gp_strbuf_puts(sb, " ? ");
        tl_emit_expr(c, sb, e->b, 1);
        gp_strbuf_puts(sb, " : ");
        tl_emit_expr(c, sb, e->c, 3);
        break;
    case TR_E_CAST:
        if (e->type->nptr && e->vt == TR_VT_INT) { /* (T *)0: a null pointer in any space */
            gp_strbuf_putc(sb, '0');
            break;
        }
        bool to16 = e->vt == TR_VT_HALF || e->vt == TR_VT_BF16,
             from16 = e->a->vt == TR_VT_HALF || e->a->vt == TR_VT_BF16;
        if (!e->type->nptr && e->vt != e->a->vt && (to16 || from16) && e->a->vt != TR_VT_PTR) {
            /* half and bfloat16 are stored as their bits: (float)h and (__half)f convert the
             * value, as CUDA's conversions do, not the bits (half <-> bf16 through float) */
            if (to16) {
                gp_strbuf_printf(sb, "gp_float_to_%s((float)(",
                                 e->vt == TR_VT_HALF ? "half" : "bf16");
                if (from16)
                    gp_strbuf_printf(sb, "gp_%s_to_float(",
                                     e->a->vt == TR_VT_HALF ? "half" : "bf16");
                tl_emit_expr(c, sb, e->a, 1);
                gp_strbuf_puts(sb, from16 ? ")))" : "))");
            } else {
                gp_strbuf_putc(sb, '(');
                tl_emit_type_prefix(sb, e->type, TR_SP_NONE);
                while (sb->len && sb->data[sb->len - 1] == ' ')
                    sb->data[--sb->len] = '\0';
                gp_strbuf_printf(sb, ")gp_%s_to_float(", e->a->vt == TR_VT_HALF ? "half" : "bf16");
                tl_emit_expr(c, sb, e->a, 1);
                gp_strbuf_putc(sb, ')');
            }
            break;
        }
        gp_strbuf_putc(sb, '(');
        tl_emit_type_prefix(sb, e->type, e->space);
        while (sb->len && sb->data[sb->len - 1] == ' ')
            sb->data[--sb->len] = '\0';
        gp_strbuf_putc(sb, ')');
        tl_emit_expr(c, sb, e->a, 14);
        break;
    case TR_E_SIZEOF_TYPE:
        gp_strbuf_puts(sb, "sizeof(");
        tl_emit_type_prefix(sb, e->type, TR_SP_NONE);
        while (sb->len && sb->data[sb->len - 1] == ' ')
            sb->data[--sb->len] = '\0';
        gp_strbuf_putc(sb, ')');
        break;
    case TR_E_SIZEOF_EXPR:
        gp_strbuf_puts(sb, "sizeof(");
        tl_emit_expr(c, sb, e->a, 1);
        gp_strbuf_putc(sb, ')');
        break;
    case TR_E_COMMA:
        tl_emit_expr(c, sb, e->a, 1);
        gp_strbuf_puts(sb, ", ");
        tl_emit_expr(c, sb, e->b, 2);
        break;
    case TR_E_INIT:
        gp_strbuf_puts(sb, "{");
        emit_args(c, sb, e);
        gp_strbuf_puts(sb, "}");
        break;
    case TR_E_CG: /* refused in the analysis */
        tl_emit_todo(sb, "a cooperative group used as a value");
        break;
    }
    if (paren) gp_strbuf_putc(sb, ')');
}

void tl_indent(gp_strbuf *sb, int n)
{
    for (int i = 0; i < n; i++)
        gp_strbuf_puts(sb, "    ");
}

/* An array dimension C++ takes as a constant: numbers, local `const int` with constant
 * initialisers, and + - * / % of them (written as a number where it names such a local). C would
 * make an array sized by a name a variable-length array, which cannot have an initialiser (and
 * OpenCL C has none at all): the number is written. */
static int int_type_size(const tr_type *t)
{
    static const char *const names[][2] = {
        {"char", "1"},           {"signed char", "1"},
        {"unsigned char", "1"},  {"int8_t", "1"},
        {"uint8_t", "1"},        {"short", "2"},
        {"unsigned short", "2"}, {"int16_t", "2"},
        {"uint16_t", "2"},       {"int", "4"},
        {"unsigned int", "4"},   {"unsigned", "4"},
        {"int32_t", "4"},        {"uint32_t", "4"},
        {"long long", "8"},      {"unsigned long long", "8"},
        {"int64_t", "8"},        {"uint64_t", "8"},
    };
    if (!t || !t->base || t->nptr) return 0;
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (!strcmp(t->base, names[i][0])) return names[i][1][0] - '0';
    return 0;
}

static bool names_local(const tr_expr *x)
{
    if (!x) return false;
    if (x->kind == TR_E_IDENT) return x->sym && x->sym->kind == TR_SYM_LOCAL;
    return names_local(x->a) || names_local(x->b);
}

static bool dim_value(lctx *c, const tr_expr *x, long long *v, int depth)
{
    if (!x || depth > 16) return false;
    if (x->kind == TR_E_IDENT && x->sym && x->sym->has_cvalue) { /* read when parsed */
        *v = x->sym->cvalue;
        return true;
    }
    if (x->kind == TR_E_SIZEOF_TYPE && int_type_size(x->type)) {
        *v = int_type_size(x->type);
        return true;
    }
    if (x->kind == TR_E_SIZEOF_TYPE && x->type && x->type->base && !x->type->nptr &&
        (!strcmp(x->type->base, "float") || !strcmp(x->type->base, "double"))) {
        *v = x->type->base[0] == 'f' ? 4 : 8;
        return true;
    }
    if (x->kind == TR_E_CAST && int_type_size(x->type)) return dim_value(c, x->a, v, depth + 1);
    if (x->kind == TR_E_IDENT && x->sym && x->sym->kind == TR_SYM_LOCAL && x->sym->init &&
        x->sym->type.is_const && !x->sym->type.nptr && !x->sym->ndims)
        return dim_value(c, x->sym->init, v, depth + 1);
    if (x->kind == TR_E_BINARY && x->text && strchr("+-*/%", x->text[0]) && !x->text[1]) {
        long long a, b;
        if (!dim_value(c, x->a, &a, depth + 1) || !dim_value(c, x->b, &b, depth + 1)) return false;
        if ((x->text[0] == '/' || x->text[0] == '%') && b == 0) return false;
        switch (x->text[0]) {
        case '+':
            *v = a + b;
            break;
        case '-':
            *v = a - b;
            break;
        case '*':
            *v = a * b;
            break;
        case '/':
            *v = a / b;
            break;
        default:
            *v = a % b;
            break;
        }
        return *v > 0 && *v < (1LL << 31);
    }
    return tl_const_int(c, x, v);
}

int tl_local_dim(lctx *c, const tr_expr *x, long long *v)
{
    if (!names_local(x)) return 0;
    return dim_value(c, x, v, 0) ? 1 : -1;
}

void tl_emit_decl(lctx *c, gp_strbuf *sb, tr_sym *s, tr_expr *init)
{
    if (s->kind == TR_SYM_SHARED) gp_strbuf_puts(sb, "GP_SHARED_DECL ");
    tr_space sp = s->type.nptr ? tl_sym_space(c, s) : TR_SP_NONE;
    tl_emit_type_prefix(sb, &s->type, sp);
    gp_strbuf_puts(sb, tl_sym_name(c, s));
    long long dimv;
    for (int d = 0; d < s->ndims; d++) {
        gp_strbuf_putc(sb, '[');
        const tr_expr *x = s->dims[d];
        if (x && x->kind == TR_E_IDENT && x->sym && x->sym->kind == TR_SYM_LOCAL && x->sym->init &&
            x->sym->init->kind == TR_E_NUM)
            gp_strbuf_puts(sb, x->sym->init->text); /* a local constant: C has no VLA here */
        else if (x && names_local(x) && dim_value(c, x, &dimv, 0))
            gp_strbuf_printf(sb, "%lld", dimv);
        else if (x)
            tl_emit_expr(c, sb, s->dims[d], 1);
        gp_strbuf_putc(sb, ']');
    }
    if (init && init->kind == TR_E_INIT && init->nargs == 3 && !s->ndims && !s->type.nptr &&
        tl_is_vec3(s->type.base)) {
        /* float3 v = {a, b, c}: the 4-component type of the output takes four */
        gp_strbuf_puts(sb, " = {");
        emit_args(c, sb, init);
        gp_strbuf_puts(sb, ", 0}");
    } else if (init) {
        gp_strbuf_puts(sb, " = ");
        tl_emit_expr(c, sb, init, 2);
    }
    gp_strbuf_puts(sb, ";");
}

void tl_emit_stmt(lctx *c, gp_strbuf *sb, tr_stmt *s, int lvl);

/* Bodies of if/for/while/do always get braces in the output. */
static void emit_body(lctx *c, gp_strbuf *sb, tr_stmt *s, int lvl)
{
    gp_strbuf_puts(sb, " {\n");
    if (s && s->kind == TR_S_BLOCK)
        for (int i = 0; i < s->n; i++) {
            if (s->list[i] && s->list[i]->kind != TR_S_EMPTY)
                tl_emit_stmt(c, sb, s->list[i], lvl + 1);
        }
    else if (s && s->kind != TR_S_EMPTY)
        tl_emit_stmt(c, sb, s, lvl + 1);
    tl_indent(sb, lvl);
    gp_strbuf_puts(sb, "}");
}

/* With #line directives: the column of an expression statement's first token (0: not known), so
 * that it can start where it started in the .cu line. */
static int stmt_column(const lctx *c, const tr_stmt *s)
{
    if (!c->opt || !c->opt->line_directives || !s->e) return 0;
    const tr_expr *e = s->e;
    while ((e->kind == TR_E_ASSIGN || e->kind == TR_E_BINARY || e->kind == TR_E_INDEX ||
            e->kind == TR_E_MEMBER || e->kind == TR_E_POSTFIX || e->kind == TR_E_CALL ||
            e->kind == TR_E_COMMA || e->kind == TR_E_COND) &&
           e->a)
        e = e->a;
    return e->line == s->line && (e->kind == TR_E_IDENT || e->kind == TR_E_NUM) ? e->col : 0;
}

/* The length of the base type a declaration of sym starts with (tl_emit_decl's prefix, without
 * a pointer's stars). */
static size_t decl_prefix_len(lctx *c, tr_sym *sym)
{
    gp_strbuf pre = GP_STRBUF_INIT;
    if (sym->kind == TR_SYM_SHARED) gp_strbuf_puts(&pre, "GP_SHARED_DECL ");
    tl_emit_type_prefix(&pre, &sym->type, sym->type.nptr ? tl_sym_space(c, sym) : TR_SP_NONE);
    /* up to a pointer's '*': `const float *p = a, *q = b` keeps q's star */
    const char *star = memchr(gp_strbuf_cstr(&pre), '*', pre.len);
    size_t n = star ? (size_t)(star - gp_strbuf_cstr(&pre)) : pre.len;
    gp_strbuf_free(&pre);
    return n;
}

/* Do the declarators of a for header's declaration all start with the same type? */
static bool for_decls_one_type(lctx *c, const tr_stmt *d)
{
    gp_strbuf a = GP_STRBUF_INIT, b = GP_STRBUF_INIT;
    bool same = true;
    for (int i = 0; i < d->ndecls && same; i++) {
        tr_sym *sym = d->decls[i].sym;
        gp_strbuf *t = i ? &b : &a;
        t->len = 0;
        tl_emit_type_prefix(t, &sym->type, sym->type.nptr ? tl_sym_space(c, sym) : TR_SP_NONE);
        same = i == 0 ||
               (a.len == b.len && memcmp(gp_strbuf_cstr(&a), gp_strbuf_cstr(&b), a.len) == 0);
    }
    gp_strbuf_free(&a);
    gp_strbuf_free(&b);
    return same;
}

void tl_emit_stmt(lctx *c, gp_strbuf *sb, tr_stmt *s, int lvl)
{
    if (!s) return;
    if (c->opt && c->opt->line_directives && s->line > 0 && s->kind != TR_S_BLOCK) {
        const char *f = c->u->pp.files[s->file];
        if (!strpbrk(f, "\"\\\n")) gp_strbuf_printf(sb, "#line %d \"%s\"\n", s->line, f);
    }
    switch (s->kind) {
    case TR_S_BLOCK:
        tl_indent(sb, lvl);
        gp_strbuf_puts(sb, "{\n");
        for (int i = 0; i < s->n; i++)
            if (s->list[i] && s->list[i]->kind != TR_S_EMPTY) /* `;`, a typedef, a static_assert */
                tl_emit_stmt(c, sb, s->list[i], lvl + 1);
        tl_indent(sb, lvl);
        gp_strbuf_puts(sb, "}\n");
        return;
    case TR_S_DECL:
        for (int i = 0; i < s->ndecls; i++) {
            tr_sym *sym = s->decls[i].sym;
            /* shared arrays live at kernel scope (hoisted) or come in as parameters */
            if (sym->kind == TR_SYM_SHARED || sym->kind == TR_SYM_DYN_SHARED) continue;
            tl_indent(sb, lvl);
            tl_emit_decl(c, sb, sym, s->decls[i].init);
            gp_strbuf_putc(sb, '\n');
        }
        return;
    case TR_S_EXPR:
        if (stmt_column(c, s) > 0)
            for (int i = 1; i < stmt_column(c, s); i++) /* at its column in the .cu line, too */
                gp_strbuf_putc(sb, ' ');
        else
            tl_indent(sb, lvl);
        tl_emit_expr(c, sb, s->e, 1);
        gp_strbuf_puts(sb, ";\n");
        return;
    case TR_S_RETURN:
        tl_indent(sb, lvl);
        gp_strbuf_puts(sb, "return");
        if (s->e) {
            gp_strbuf_putc(sb, ' ');
            tl_emit_expr(c, sb, s->e, 1);
        }
        gp_strbuf_puts(sb, ";\n");
        return;
    case TR_S_IF:
        tl_indent(sb, lvl);
        gp_strbuf_puts(sb, "if (");
        tl_emit_expr(c, sb, s->cond, 1);
        gp_strbuf_putc(sb, ')');
        emit_body(c, sb, s->body, lvl);
        if (s->els) {
            gp_strbuf_puts(sb, " else");
            if (s->els->kind == TR_S_IF) {
                gp_strbuf_putc(sb, ' ');
                gp_strbuf tmp = GP_STRBUF_INIT;
                tl_emit_stmt(c, &tmp, s->els, lvl);
                const char *t = gp_strbuf_cstr(&tmp);
                while (*t == ' ')
                    t++;
                if (*t == '#' && strchr(t, '\n')) /* its #line cannot follow the else */
                    for (t = strchr(t, '\n') + 1; *t == ' ';)
                        t++;
                gp_strbuf_puts(sb, t);
                gp_strbuf_free(&tmp);
                return;
            }
            emit_body(c, sb, s->els, lvl);
        }
        gp_strbuf_putc(sb, '\n');
        return;
    case TR_S_FOR:
        if (s->init && s->init->kind == TR_S_DECL && !for_decls_one_type(c, s->init)) {
            /* `int *p = a, n = 0`: declarators of two types, which no for header of C can
             * hold: declared in a block around the loop */
            tl_indent(sb, lvl);
            gp_strbuf_puts(sb, "{\n");
            tl_emit_stmt(c, sb, s->init, lvl + 1);
            tr_stmt loop = *s;
            loop.init = NULL;
            tl_emit_stmt(c, sb, &loop, lvl + 1);
            tl_indent(sb, lvl);
            gp_strbuf_puts(sb, "}\n");
            return;
        }
        tl_indent(sb, lvl);
        gp_strbuf_puts(sb, "for (");
        if (s->init && s->init->kind == TR_S_DECL) {
            /* int i = 0, j = 0: later declarators without their type, the first's */
            for (int i = 0; i < s->init->ndecls; i++) {
                tr_sym *sym = s->init->decls[i].sym;
                gp_strbuf tmp = GP_STRBUF_INIT;
                tl_emit_decl(c, &tmp, sym, s->init->decls[i].init);
                size_t skip = i ? decl_prefix_len(c, sym) : 0;
                if (i) gp_strbuf_puts(sb, ", ");
                gp_strbuf_append(sb, gp_strbuf_cstr(&tmp) + skip, tmp.len - skip - 1);
                gp_strbuf_free(&tmp);
            }
        } else if (s->init) {
            tl_emit_expr(c, sb, s->init->e, 1);
        }
        gp_strbuf_puts(sb, "; ");
        tl_emit_expr(c, sb, s->cond, 1);
        gp_strbuf_puts(sb, "; ");
        tl_emit_expr(c, sb, s->step, 1);
        gp_strbuf_putc(sb, ')');
        emit_body(c, sb, s->body, lvl);
        gp_strbuf_putc(sb, '\n');
        return;
    case TR_S_WHILE:
        tl_indent(sb, lvl);
        gp_strbuf_puts(sb, "while (");
        tl_emit_expr(c, sb, s->cond, 1);
        gp_strbuf_putc(sb, ')');
        emit_body(c, sb, s->body, lvl);
        gp_strbuf_putc(sb, '\n');
        return;
    case TR_S_DO:
        tl_indent(sb, lvl);
        gp_strbuf_puts(sb, "do");
        emit_body(c, sb, s->body, lvl);
        gp_strbuf_puts(sb, " while (");
        tl_emit_expr(c, sb, s->cond, 1);
        gp_strbuf_puts(sb, ");\n");
        return;
    case TR_S_SWITCH:
        tl_indent(sb, lvl);
        gp_strbuf_puts(sb, "switch (");
        tl_emit_expr(c, sb, s->cond, 1);
        gp_strbuf_putc(sb, ')');
        emit_body(c, sb, s->body, lvl);
        gp_strbuf_putc(sb, '\n');
        return;
    case TR_S_CASE:
        tl_indent(sb, lvl > 0 ? lvl - 1 : 0);
        gp_strbuf_puts(sb, "case ");
        tl_emit_expr(c, sb, s->e, 3);
        gp_strbuf_puts(sb, ":\n");
        return;
    case TR_S_DEFAULT:
        tl_indent(sb, lvl > 0 ? lvl - 1 : 0);
        gp_strbuf_puts(sb, "default:\n");
        return;
    case TR_S_BREAK:
        tl_indent(sb, lvl);
        gp_strbuf_puts(sb, "break;\n");
        return;
    case TR_S_CONTINUE:
        tl_indent(sb, lvl);
        gp_strbuf_puts(sb, "continue;\n");
        return;
    case TR_S_EMPTY:
        tl_indent(sb, lvl);
        gp_strbuf_puts(sb, ";\n");
        return;
    case TR_S_PRAGMA:
        gp_strbuf_printf(sb, "#%s\n", s->text);
        return;
    case TR_S_TODO:
        tl_indent(sb, lvl);
        tl_emit_todo(sb, s->text);
        gp_strbuf_puts(sb, ";\n");
        return;
    }
}

/* Static shared arrays declared anywhere in a kernel's body move to its outermost scope. */
void tl_emit_kernel_shared(lctx *c, gp_strbuf *sb, tr_stmt *s)
{
    if (!s) return;
    if (s->kind == TR_S_DECL)
        for (int i = 0; i < s->ndecls; i++)
            if (s->decls[i].sym->kind == TR_SYM_SHARED) {
                tl_indent(sb, 1);
                tl_emit_decl(c, sb, s->decls[i].sym, NULL);
                gp_strbuf_putc(sb, '\n');
            }
    tl_emit_kernel_shared(c, sb, s->init);
    tl_emit_kernel_shared(c, sb, s->body);
    tl_emit_kernel_shared(c, sb, s->els);
    for (int i = 0; i < s->n; i++)
        tl_emit_kernel_shared(c, sb, s->list[i]);
}

void tl_emit_signature_kernel(lctx *c, gp_strbuf *sb)
{
    tr_func *f = c->f;
    tr_kernel_info *ki = c->info;
    gp_strbuf_printf(sb, "GP_KERNEL(%s", f->name);
    for (int i = 0; i < f->nparams; i++) {
        tr_sym *p = f->params[i];
        const char *why = NULL;
        const char *b = tl_map_base(p->type.base, &why);
        const char *kind = p->type.nptr ? (p->type.is_const ? "GP_CBUF" : "GP_BUF") : "GP_VAL";
        char packed[32];
        bool by_value3 = !p->type.nptr && !p->ref && tl_packed3(p->type.base);
        if ((p->type.nptr || by_value3) && tl_packed3(p->type.base)) {
            /* float3 *: 12-byte elements; a float3 by value: its 12 bytes, unpacked on entry */
            snprintf(packed, sizeof packed, "gp_packed_%s3", tl_packed3(p->type.base));
            b = packed;
        }
        gp_strbuf_printf(sb, ", %s(", kind);
        if (b)
            gp_strbuf_puts(sb, b);
        else
            tl_emit_todo(sb, why);
        gp_strbuf_printf(sb, ", %s%s)", p->name, p->assigned || by_value3 ? "_in" : "");
        if (!b) b = p->type.base;
        if (ki) tr_kernel_info_add_param(ki, kind, b, p->name);
    }
    /* file-scope data the host fills, as buffers: in the order the file declares them */
    tr_sym *data[64];
    int nd = 0;
    for (int i = 0; i < c->nhoist && nd < 64; i++)
        if (c->hoist[i]->as_buffer) {
            int at = nd++;
            while (at > 0 && (data[at - 1]->file > c->hoist[i]->file ||
                              (data[at - 1]->file == c->hoist[i]->file &&
                               data[at - 1]->line > c->hoist[i]->line)))
                data[at] = data[at - 1], at--;
            data[at] = c->hoist[i];
        }
    for (int i = 0; i < nd; i++) {
        tr_sym *s = data[i];
        const char *why = NULL;
        const char *b = tl_map_base(s->type.base, &why);
        const char *kind = s->kind == TR_SYM_CONSTANT ? "GP_CBUF" : "GP_BUF";
        gp_strbuf_printf(sb, ", %s(%s, %s)", kind, b ? b : s->type.base, s->name);
        if (ki) tr_kernel_info_add_param(ki, kind, b ? b : s->type.base, s->name);
    }
    for (int i = 0; i < c->nhoist; i++) {
        tr_sym *s = c->hoist[i];
        if (s->kind != TR_SYM_DYN_SHARED) continue;
        const char *why = NULL;
        const char *b = tl_map_base(s->type.base, &why);
        gp_strbuf_printf(sb, ", GP_DYN_SHARED(%s, ", b ? b : s->type.base);
        tl_emit_hoisted_arg(c, sb, s);
        gp_strbuf_putc(sb, ')');
        if (ki) tr_kernel_info_add_param(ki, "GP_DYN_SHARED", b ? b : s->type.base, s->name);
    }
    gp_strbuf_puts(sb, ")\n");
}

void tl_emit_signature_helper(lctx *c, gp_strbuf *sb)
{
    tr_func *f = c->f;
    gp_strbuf_puts(sb, "GP_FUNC ");
    tl_emit_type_prefix(sb, &f->ret, f->ret.nptr ? c->clone->ret_space : TR_SP_NONE);
    gp_strbuf_printf(sb, "%s(", c->clone->name);
    bool first = true;
    for (int i = 0; i < f->nparams; i++) {
        tr_sym *p = f->params[i];
        if (!first) gp_strbuf_puts(sb, ", ");
        first = false;
        tl_emit_type_prefix(sb, &p->type, p->type.nptr ? c->clone->spaces[i] : TR_SP_NONE);
        gp_strbuf_puts(sb, p->name);
    }
    for (int i = 0; i < f->nhoisted; i++) {
        tr_sym *s = f->hoisted[i];
        if (!first) gp_strbuf_puts(sb, ", ");
        first = false;
        const char *why = NULL;
        const char *b = tl_map_base(s->type.base, &why);
        if (s->as_buffer)
            gp_strbuf_printf(sb, "GP_GLOBAL %s%s *", s->kind == TR_SYM_CONSTANT ? "const " : "",
                             b ? b : s->type.base);
        else if (s->ndims > 1) /* T (*name)[N]: a pointer to the rows it is indexed by */
            gp_strbuf_printf(sb, "GP_SHARED %s (*", b ? b : s->type.base);
        else
            gp_strbuf_printf(sb, "GP_SHARED %s *", b ? b : s->type.base);
        tl_emit_hoisted_arg(c, sb, s);
        if (!s->as_buffer && s->ndims > 1) {
            gp_strbuf_putc(sb, ')');
            lctx oc = *c; /* the sizes are the declaring function's expressions */
            if (s->owner) oc.f = s->owner;
            for (int d = 1; d < s->ndims; d++) {
                gp_strbuf_putc(sb, '[');
                if (s->dims[d]) tl_emit_expr(&oc, sb, s->dims[d], 1);
                gp_strbuf_putc(sb, ']');
            }
        }
    }
    for (int b = 0; b < 12; b++)
        if (f->builtins & (1u << b)) {
            if (!first) gp_strbuf_puts(sb, ", ");
            first = false;
            gp_strbuf_printf(sb, "unsigned int gp_%s_%c", tl_builtin_cuda[b / 3], "xyz"[b % 3]);
        }
    if (first) gp_strbuf_puts(sb, "void");
    gp_strbuf_puts(sb, ")\n");
}
void tr_emit_constant(tr_unit *u, tr_sym *s, tr_expr *init, gp_strbuf *out)
{
    lctx c = {0};
    c.u = u;
    c.final = true;
    tr_func none = {0};
    none.name = "";
    c.f = &none;
    c.kernel = true;
    tl_infer_expr(&c, init);
    gp_strbuf_puts(out, "GP_CONSTANT_DECL ");
    tr_sym copy = *s;
    copy.kind = TR_SYM_LOCAL;
    copy.type.is_const = false; /* GP_CONSTANT_DECL says const already */
    tl_emit_decl(&c, out, &copy, init);
    gp_strbuf_putc(out, '\n');
}
