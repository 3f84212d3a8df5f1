/* calls.c — calls of CUDA's own functions: math, atomics, min/max, warp shuffles and votes, each
 * checked against what the dialect can express (map.c holds the names). */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "translate/lower_impl.h"
#include "translate/map.h"

/* The call's first argument is the full mask (none: __syncwarp()); refused otherwise. */
static bool full_mask(lctx *c, tr_expr *e, const char *name)
{
    long long mask = -1;
    if ((e->nargs > 0 && !tl_const_int(c, e->args[0], &mask)) ||
        (mask != -1 && mask != 0xffffffffLL)) {
        tl_refuse(c, e, "partial warp mask",
                  "%s with a mask that is not the full mask 0xffffffff: the dialect's SIMD-group "
                  "operations take every lane of the group (Metal and the CPU have no lane masks)",
                  name);
        return false;
    }
    return true;
}

/* __shfl*_sync and the votes: the full mask, the default (32) width, a 32-bit value, and the
 * caller's word that the targets have SIMD groups of 32. */
static void infer_simd(lctx *c, tr_expr *e, const tr_callmap *m)
{
    const char *name = e->origin ? e->origin : m->cuda;
    /* in a helper the translation wrote for a cooperative-group operation: that operation */
    if (!e->origin && c->f->synthetic && !strncmp(c->f->name, "cg_reduce_", 10))
        name = "cg::reduce over a thread_block_tile (made of warp shuffles)";
    else if (!e->origin && c->f->synthetic && !strncmp(c->f->name, "cg_", 3))
        name = "a thread_block_tile operation (made of warp shuffles)";
    bool sync = !strcmp(m->cuda, "__syncwarp"), shfl = !strncmp(m->cuda, "__shfl", 6);
    int lo = sync ? 0 : shfl ? 3 : 2, hi = sync ? 1 : shfl ? 4 : 2;
    e->vt =
        shfl || sync ? TR_VT_UNKNOWN : (!strcmp(m->cuda, "__ballot_sync") ? TR_VT_UINT : TR_VT_INT);
    if (e->nargs < lo || e->nargs > hi) {
        tl_refuse(c, e, "call", "%s takes %d%s arguments, called with %d", name, lo,
                  hi > lo ? (sync ? " or 1" : " or 4") : "", e->nargs);
        return;
    }
    if (!c->opt->simd_width) {
        tl_refuse(
            c, e,
            sync   ? "__syncwarp"
            : shfl ? "warp shuffle"
                   : "warp vote",
            "%s: warp intrinsics assume SIMD groups of 32 lanes; translate with --simd-width 32 "
            "to map them to the dialect's gp_simd_* operations (the kernel then runs where SIMD "
            "groups have 32 lanes: CUDA, Apple GPUs, the CPU backend; not OpenCL)",
            name);
        return;
    }
    if (!full_mask(c, e, name)) return;
    if (e->nargs == 4 && !tl_is_warp_size(c, e->args[3])) {
        tl_refuse(c, e, "sub-warp width",
                  "%s with a width other than 32: shuffles within segments of the warp are not in "
                  "the dialect; shuffle over the whole SIMD group and mask the lane index instead",
                  name);
        return;
    }
    if (shfl) {
        tr_vt v = e->args[1]->vt;
        if (v == TR_VT_DOUBLE || v == TR_VT_LONG || v == TR_VT_ULONG || v == TR_VT_HALF ||
            v == TR_VT_BF16 || v == TR_VT_VEC || v == TR_VT_PTR) {
            tl_refuse(c, e, "64-bit or vector shuffle",
                      "%s of a value that is not a 32-bit int, unsigned or float: the dialect's "
                      "shuffles move 32-bit values (the CPU backend's emulation has no other); "
                      "shuffle the parts separately",
                      name);
            return;
        }
        e->vt = v == TR_VT_BOOL ? TR_VT_INT : v;
    }
    c->f->uses_simd = true;
}

/* Arguments for reference parameters are passed by address (once: the analysis runs many
 * passes over the same tree). */
static void pass_references(lctx *c, tr_expr *e, tr_func *g)
{
    if (e->refs_done || e->nargs != g->nparams) return;
    e->refs_done = true;
    for (int i = 0; i < g->nparams; i++) {
        if (!g->params[i]->ref) continue;
        tr_expr *a = tr_alloc(c->u, sizeof *a);
        *a = (tr_expr){.kind = TR_E_UNARY,
                       .file = e->args[i]->file,
                       .line = e->args[i]->line,
                       .col = e->args[i]->col,
                       .text = tr_strdup(c->u, "&"),
                       .a = e->args[i]};
        if (e->args[i]->kind == TR_E_UNARY && !strcmp(e->args[i]->text, "*"))
            a = e->args[i]->a; /* &*p is p */
        e->args[i] = a;
    }
}

/* __half and __half2 arithmetic: each argument must be what the signature says (m->construct,
 * map.h): CUDA converts other values to its parameter types, where the dialect's functions take
 * the bits they are given. The result's type from the signature. */
static void infer_half(lctx *c, tr_expr *e, const tr_callmap *m, const char *name)
{
    static const char *const what[] = {"a __half", "a __half2", "a float2", "a number"};
    const char *sig = m->construct;
    for (int i = 0; i < e->nargs && sig[i] && sig[i] != '>'; i++) {
        const tr_expr *a = e->args[i];
        const char *vec = a->vt == TR_VT_VEC && a->vec ? tr_vector_type(a->vec, NULL, NULL) : NULL;
        int want = sig[i] == 'h' ? 0 : sig[i] == '2' ? 1 : sig[i] == 'F' ? 2 : 3;
        bool ok = want == 0   ? a->vt == TR_VT_HALF
                  : want == 1 ? vec && !strcmp(vec, "gp_half2")
                  : want == 2 ? vec && !strcmp(vec, "gp_float2")
                              : a->vt != TR_VT_HALF && a->vt != TR_VT_BF16 && a->vt != TR_VT_VEC &&
                                    a->vt != TR_VT_PTR && a->vt != TR_VT_UNKNOWN;
        if (!ok) {
            tl_refuse(c, e, name,
                      "%s's argument %d is not %s (or its type is not known here): CUDA converts "
                      "it to the parameter's type, where the dialect's %s takes the bits it is "
                      "given; pass %s",
                      name, i + 1, what[want], m->out, what[want]);
            return;
        }
    }
    const char *arrow = strchr(sig, '>');
    char r = arrow ? arrow[1] : 'h';
    e->vt = r == 'h' ? TR_VT_HALF : r == 'i' ? TR_VT_INT : r == 'f' ? TR_VT_FLOAT : TR_VT_VEC;
    e->vec = r == '2' ? "half2" : r == 'F' ? "float2" : NULL;
}

void tl_infer_call(lctx *c, tr_expr *e)
{
    tr_func *g = e->a->kind == TR_E_IDENT ? tl_find_func(c, e->a->text) : NULL;
    bool overloaded = !g && e->a->kind == TR_E_IDENT && tl_is_overloaded(c->u, e->a->text);
    if (g) pass_references(c, e, g);
    for (int i = 0; i < e->nargs; i++)
        tl_infer_expr(c, e->args[i]);
    if (e->a->kind != TR_E_IDENT) {
        tl_refuse(c, e, "call", "only named functions can be called");
        return;
    }
    if (overloaded) { /* the overload the argument types choose, exactly, or the built-in */
        bool ambiguous = false;
        g = tl_resolve_overload(c, e, &ambiguous);
        bool refs = false;
        for (int i = 0; g && i < g->nparams; i++)
            refs |= g->params[i]->ref;
        bool vec = false; /* CUDA's built-in functions take no vectors: one of the file's does */
        for (int i = 0; i < e->nargs; i++)
            vec |= e->args[i]->vt == TR_VT_VEC;
        if (g && !refs) {
            e->a->text = g->name;
        } else if (g && g->is_operator) {
            /* a += b on vectors: the operator takes its left operand by reference */
            e->a->text = g->name;
            pass_references(c, e, g);
            for (int i = 0; i < e->nargs; i++)
                tl_infer_expr(c, e->args[i]);
        } else if (!g && !ambiguous && vec) {
            tl_refuse(c, e, "overload",
                      "%s of a vector: the file's overload for that vector type is meant, and the "
                      "translation does not choose overloads by vector types (the built-in %s "
                      "would compute something else)",
                      e->a->text, e->a->text);
            return;
        } else if (g || ambiguous || !tr_map_call(e->a->text)) {
            tl_refuse(c, e, "overload",
                      "%s is overloaded and %s: C++ chooses by conversion rules the translation "
                      "does not follow; cast the arguments to the parameter types of one",
                      e->a->text,
                      g           ? "this overload takes references"
                      : ambiguous ? "several overloads match these arguments"
                                  : "no overload takes exactly these argument types");
            return;
        }
    }
    const char *name = e->a->text;
    if (g) {
        g->used = true;
        /* a shuffle with a width, made a helper's call (coop.c): its mask checked here */
        if (e->origin && !strncmp(e->origin, "__shfl", 6) && !full_mask(c, e, e->origin)) return;
        tl_infer_call_user(c, e, g);
        return;
    }
    const tr_callmap *m = tr_map_call(name);
    if (!m) {
        tr_func *known = NULL;
        for (int i = 0; i < c->u->nfuncs; i++)
            if (!strcmp(c->u->funcs[i]->name, name)) known = c->u->funcs[i];
        if (known && known->refused) { /* defined, but its body was refused: say why */
            known->used = true;
            tl_refuse(c, e, "untranslated function",
                      "%s (line %d) is not translated, so neither is this call: %s", name,
                      known->refused_line, known->refused);
        } else {
            char hint[300] = "";
            if (c->u->pp.missing)
                snprintf(hint, sizeof hint,
                         " (it may come from \"%s\", which was not found: give -I DIR)",
                         c->u->pp.missing);
            tl_refuse(c, e, "unknown function",
                      known ? "%s is declared but not defined in this file: the translation "
                              "needs its body%s"
                            : "%s is not a device function of this file nor one the dialect "
                              "maps%s",
                      name, hint);
        }
        return;
    }
    if (m->kind == TR_CALL_REFUSE) {
        tl_refuse(c, e, m->construct, "%s: %s", name, m->reason);
        return;
    }
    if (m->arity >= 0 && e->nargs != m->arity) {
        tl_refuse(c, e, "call", "%s takes %d arguments, called with %d", name, m->arity, e->nargs);
        return;
    }
    if (m->reason) tl_note(c, e->file, e->line, name, "%s", m->reason);
    if (e->origin && !strcmp(e->origin, "assert")) { /* said once, at the first */
        bool said = false;
        for (int i = 0; i < c->u->ndiags && !said; i++)
            said = !c->u->diags[i].refusal && !strcmp(c->u->diags[i].construct, "assert");
        if (!said)
            tl_note(c, e->file, e->line, "assert",
                    "assert (here and in the rest of the file) prints CUDA's message (file, line, "
                    "block, thread, condition) where its condition is false, and the work-item "
                    "goes on: CUDA would stop the kernel and fail the launch; translate with -D "
                    "NDEBUG to leave asserts out");
    }
    if (!c->kernel && m->out && !strcmp(m->out, "gp_printf"))
        tl_note(c, e->file, e->line, "printf",
                "printf in the helper %s: Metal below macOS 15 prints through a buffer that only "
                "a kernel's body holds, and refuses gp_printf in a helper function, so a kernel "
                "that calls %s does not build there (it prints on the CPU, OpenCL, CUDA and "
                "Metal with os_log); move the call into the kernel to print everywhere",
                c->f->name, c->f->name);
    switch (m->kind) {
    case TR_CALL_FLOAT_MATH: {
        bool all_float = true, any_double = false;
        for (int i = 0; i < e->nargs; i++) {
            all_float &= e->args[i]->vt == TR_VT_FLOAT || e->args[i]->vt == TR_VT_HALF ||
                         e->args[i]->vt == TR_VT_BF16;
            any_double |= e->args[i]->vt == TR_VT_DOUBLE || tl_is_int_vt(e->args[i]->vt);
        }
        e->vt = all_float ? TR_VT_FLOAT : TR_VT_DOUBLE;
        if (!all_float && any_double) c->f->uses_fp64 = true;
        break;
    }
    case TR_CALL_MINMAX: {
        /* abs(x): one argument, CUDA's overloads (int, float, double) */
        tr_vt v = e->nargs == 1 ? tl_arith(e->args[0]->vt, TR_VT_INT)
                                : tl_arith(e->args[0]->vt, e->args[1]->vt);
        if (name[0] == 'u' || name[0] == 'l') /* umin, llmax, ullmin: CUDA's fixed types */
            v = name[0] == 'u' && name[1] == 'l' ? TR_VT_ULONG
                : name[0] == 'u'                 ? TR_VT_UINT
                                                 : TR_VT_LONG;
        e->vt = v;
        if (e->nargs == 1 && tl_is_int_vt(v) && v != TR_VT_INT) {
            tl_refuse(c, e, name, "%s of a 64-bit or unsigned integer: only int's is translated",
                      name);
            break;
        }
        if (tl_is_int_vt(v) && (!tl_side_effect_free(e->args[0]) ||
                                (e->nargs > 1 && !tl_side_effect_free(e->args[1]))))
            tl_refuse(c, e, name,
                      "%s with side effects in its arguments: the dialect's gp_%s "
                      "evaluates them twice; compute them into variables first",
                      name, name);
        if (v == TR_VT_DOUBLE) c->f->uses_fp64 = true;
        break;
    }
    case TR_CALL_ATOMIC: {
        tr_expr *p = e->args[0];
        const char *elem = p->elem ? p->elem : "";
        bool i32 = !strcmp(elem, "int") || !strcmp(elem, "unsigned int") ||
                   !strcmp(elem, "int32_t") || !strcmp(elem, "uint32_t");
        bool i64 = !strcmp(elem, "long long") || !strcmp(elem, "unsigned long long") ||
                   !strcmp(elem, "int64_t") || !strcmp(elem, "uint64_t") || !strcmp(elem, "long") ||
                   !strcmp(elem, "unsigned long") || !strcmp(elem, "long long int") ||
                   !strcmp(elem, "unsigned long long int");
        if (p->vt != TR_VT_PTR) {
            tl_refuse(c, e, "atomic", "%s needs a pointer as its first argument", name);
        } else if (!strcmp(elem, "float") && !strcmp(m->out, "add")) {
            /* gp_atomic_add_float, or _shared on group memory (print.c) */
            if (p->space != TR_SP_GLOBAL && p->space != TR_SP_SHARED)
                tl_refuse(c, e, "float atomic",
                          "atomicAdd on a float in %s memory: the dialect has float atomic add on "
                          "global and shared memory",
                          tl_space_name[p->space]);
            e->vt = TR_VT_FLOAT;
        } else if ((!strcmp(m->out, "inc") || !strcmp(m->out, "dec")) &&
                   strcmp(elem, "unsigned int") && strcmp(elem, "uint32_t")) {
            tl_refuse(c, e, name, "%s on %s: CUDA's %s is on unsigned int", name,
                      elem[0] ? elem : "this type", name);
        } else if (!i32 && (i64 || (!strcmp(elem, "double") && !strcmp(m->out, "add")))) {
            /* gp_atomic64_*, gp_atomic_add_double: global memory, GP_REQUIRES_ATOMIC64 */
            if (p->space != TR_SP_GLOBAL)
                tl_refuse(c, e, "64-bit atomic",
                          "%s on %s in %s memory: the dialect's 64-bit atomics are on global "
                          "memory",
                          name, elem, tl_space_name[p->space]);
            e->vt = tl_base_vt(elem);
            c->f->uses_atomic64 = true;
            if (e->vt == TR_VT_DOUBLE) c->f->uses_fp64 = true;
        } else if (!i32) {
            tl_refuse(c, e, "64-bit atomic",
                      "%s on %s: the portable atomic subset is 32-bit int and unsigned, 64-bit "
                      "integers and double add on global memory, and float add",
                      name, elem[0] ? elem : "this type");
        } else {
            e->vt = tl_base_vt(elem);
        }
        break;
    }
    case TR_CALL_BARRIER:
        e->vt = TR_VT_UNKNOWN;
        break;
    case TR_CALL_SIMD:
        infer_simd(c, e, m);
        break;
    case TR_CALL_HALF:
        infer_half(c, e, m, name);
        break;
    default:
        if (!strncmp(m->out, "gp_make_", 8)) {
            e->vt = TR_VT_VEC;
            e->vec = tr_vector_type(m->cuda + 5, NULL, NULL) ? m->cuda + 5 : NULL;
        } else if (!strcmp(m->out, "gp_float_to_half"))
            e->vt = TR_VT_HALF;
        else if (!strcmp(m->out, "gp_float_to_bf16"))
            e->vt = TR_VT_BF16;
        else if (!strcmp(m->cuda, "__float2int_rz"))
            e->vt = TR_VT_INT;
        else if (!strcmp(m->cuda, "__mul24"))
            e->vt = TR_VT_INT;
        else if (!strcmp(m->cuda, "__umul24"))
            e->vt = TR_VT_UINT;
        else if (!strncmp(m->cuda, "lround", 6) || !strncmp(m->cuda, "llround", 7) ||
                 !strncmp(m->cuda, "lrint", 5) || !strncmp(m->cuda, "llrint", 6))
            e->vt = TR_VT_LONG;
        else if (!strncmp(m->cuda, "__ld", 4) || !strncmp(m->cuda, "__st", 4) ||
                 !strcmp(m->out, "gp_sincos"))
            e->vt = TR_VT_UNKNOWN;
        else if (!strcmp(m->out, "gp_isnan") || !strcmp(m->out, "gp_isinf") ||
                 !strcmp(m->out, "gp_isfinite") || !strcmp(m->out, "gp_signbit") ||
                 !strcmp(m->out, "gp_float_as_int"))
            e->vt = TR_VT_INT;
        else if (!strcmp(m->out, "gp_float_as_uint"))
            e->vt = TR_VT_UINT;
        else if (!strcmp(m->out, "gp_double_as_long") || !strcmp(m->out, "gp_long_as_double")) {
            e->vt = m->out[3] == 'd' ? TR_VT_LONG : TR_VT_DOUBLE;
            c->f->uses_fp64 = true;
        } else
            e->vt = TR_VT_FLOAT;
        break;
    }
}
