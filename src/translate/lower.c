/* lower.c — from the CUDA tree to dialect source. For every kernel, and for every combination of
 * address spaces a device function is called with (one clone each), the body is analysed — value
 * types, built-in indices, the address space of every pointer expression — and then printed.
 * Spaces are inferred from initialisers and assignments only; a pointer that gets two spaces, or
 * none, is refused: the translation never guesses. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "translate/lower.h"
#include "translate/map.h"
#include "util/strbuf.h"

typedef struct lctx {
    tr_unit *u;
    const tr_lower_options *opt;
    tr_func *f;
    tr_clone *clone; /* NULL for a kernel */
    bool kernel;
    bool final; /* the last analysis pass: resolve calls, report */
    bool changed;
    gp_strbuf *helpers;
    /* per kernel */
    tr_sym **hoist;
    int nhoist;
    tr_sym *dyn;
    tr_kernel_info *info;
} lctx;

static const char *const space_macro[] = {"", "GP_GLOBAL", "GP_SHARED", "GP_CONSTANT",
                                          "GP_PRIVATE"};
static const char *const space_name[] = {"none", "global", "shared", "constant", "private"};
static const char *const builtin_cuda[] = {"threadIdx", "blockIdx", "blockDim", "gridDim"};
static const char *const builtin_dialect[] = {"gp_local_id", "gp_group_id", "gp_local_size",
                                              "gp_num_groups"};

static void refuse(lctx *c, tr_expr *e, const char *construct, const char *fmt, ...)
{
    char buf[768];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    if (!c->final) return;
    tr_diag_add(c->u, true, e->file, e->line, e->col, construct, "%s", buf);
    if (!e->todo) e->todo = tr_strdup(c->u, buf);
}

static void note(lctx *c, int file, int line, const char *construct, const char *fmt, ...)
{
    char buf[768];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    if (c->final) tr_diag_add(c->u, false, file, line, 0, construct, "%s", buf);
}

/* ---- types ------------------------------------------------------------------------------ */
/* The dialect spelling of a CUDA base type, or NULL (with *why) when it has none. */
static const char *map_base(const char *b, const char **why)
{
    static const char *const same[] = {"void",     "char",           "signed char", "unsigned char",
                                       "short",    "unsigned short", "int",         "unsigned int",
                                       "float",    "double",         "bool",        "int8_t",
                                       "int16_t",  "int32_t",        "int64_t",     "uint8_t",
                                       "uint16_t", "uint32_t",       "uint64_t",    "size_t"};
    for (size_t i = 0; i < sizeof same / sizeof *same; i++)
        if (!strcmp(b, same[i])) return b;
    if (!strcmp(b, "long") || !strcmp(b, "long long")) return "int64_t";
    if (!strcmp(b, "unsigned long") || !strcmp(b, "unsigned long long")) return "uint64_t";
    if (!strcmp(b, "_Bool")) return "bool";
    if (!strcmp(b, "float2")) return "gp_float2";
    if (!strcmp(b, "float4")) return "gp_float4";
    if (!strcmp(b, "int2")) return "gp_int2";
    if (!strcmp(b, "int4")) return "gp_int4";
    if (!strcmp(b, "__half") || !strcmp(b, "half")) return "gp_half";
    if (!strcmp(b, "float3") || !strcmp(b, "int3") || !strcmp(b, "uint3"))
        *why = "3-component vectors are 12 bytes on CUDA and 16 on OpenCL and Metal: use the "
               "4-component type or separate values";
    else if (!strcmp(b, "dim3"))
        *why = "dim3 is host-side launch geometry: read gp_local_size()/gp_num_groups() per "
               "dimension";
    else if (!strcmp(b, "cudaTextureObject_t") || !strcmp(b, "cudaSurfaceObject_t"))
        *why = "texture and surface objects have no portable equivalent: pass a buffer";
    else if (!strcmp(b, "__half2") || !strcmp(b, "__nv_bfloat16"))
        *why =
            "packed half2 and bfloat16 arithmetic are not in the dialect (half is a storage type)";
    else if (!strcmp(b, "long double"))
        *why = "long double exists on no GPU";
    else
        *why = "this type is not in the dialect (int, unsigned, float, double, fixed-width "
               "integers, float2/float4, int2/int4, half)";
    return NULL;
}

static tr_vt base_vt(const char *b)
{
    if (!strcmp(b, "float")) return TR_VT_FLOAT;
    if (!strcmp(b, "double")) return TR_VT_DOUBLE;
    if (!strcmp(b, "__half") || !strcmp(b, "half")) return TR_VT_HALF;
    if (!strcmp(b, "bool") || !strcmp(b, "_Bool")) return TR_VT_BOOL;
    if (!strncmp(b, "float", 5) || !strncmp(b, "int", 3) || !strncmp(b, "uint", 4)) {
        if (!strcmp(b, "int") || !strcmp(b, "int8_t") || !strcmp(b, "int16_t") ||
            !strcmp(b, "int32_t"))
            return TR_VT_INT;
        if (!strcmp(b, "int64_t")) return TR_VT_LONG;
        if (!strcmp(b, "uint64_t")) return TR_VT_ULONG;
        if (!strncmp(b, "uint", 4) && b[4] >= '0' && b[4] <= '9' && strlen(b) > 5)
            return TR_VT_UINT;
        return TR_VT_VEC;
    }
    if (strstr(b, "long long") || !strcmp(b, "long") || !strcmp(b, "unsigned long") ||
        !strcmp(b, "size_t"))
        return strncmp(b, "unsigned", 8) == 0 || !strcmp(b, "size_t") ? TR_VT_ULONG : TR_VT_LONG;
    if (!strncmp(b, "unsigned", 8)) return TR_VT_UINT;
    return TR_VT_INT; /* char, short, int, signed char */
}

static bool is_int_vt(tr_vt v)
{
    return v == TR_VT_BOOL || v == TR_VT_INT || v == TR_VT_UINT || v == TR_VT_LONG ||
           v == TR_VT_ULONG;
}

/* C's usual arithmetic conversions, on the value types this translation tracks. */
static tr_vt arith(tr_vt a, tr_vt b)
{
    if (a == TR_VT_UNKNOWN || b == TR_VT_UNKNOWN) return TR_VT_UNKNOWN;
    if (a == TR_VT_VEC || b == TR_VT_VEC) return TR_VT_VEC;
    if (a == TR_VT_DOUBLE || b == TR_VT_DOUBLE) return TR_VT_DOUBLE;
    if (a == TR_VT_FLOAT || b == TR_VT_FLOAT || a == TR_VT_HALF || b == TR_VT_HALF)
        return TR_VT_FLOAT;
    if (a == TR_VT_ULONG || b == TR_VT_ULONG) return TR_VT_ULONG;
    if (a == TR_VT_LONG || b == TR_VT_LONG) return TR_VT_LONG;
    if (a == TR_VT_UINT || b == TR_VT_UINT) return TR_VT_UINT;
    return TR_VT_INT;
}

static tr_vt number_vt(const char *t)
{
    size_t n = strlen(t);
    bool hex = n > 1 && t[0] == '0' && (t[1] == 'x' || t[1] == 'X');
    bool fl = !hex && (strchr(t, '.') || strchr(t, 'e') || strchr(t, 'E'));
    char last = n ? t[n - 1] : 0;
    if (fl) return (last == 'f' || last == 'F') ? TR_VT_FLOAT : TR_VT_DOUBLE;
    bool u = strchr(t, 'u') || strchr(t, 'U');
    bool l = strchr(t, 'l') || strchr(t, 'L');
    return l ? (u ? TR_VT_ULONG : TR_VT_LONG) : (u ? TR_VT_UINT : TR_VT_INT);
}

static tr_space sym_space(lctx *c, tr_sym *s)
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

/* ---- analysis ----------------------------------------------------------------------------- */
static void infer_expr(lctx *c, tr_expr *e);
static void lower_function(lctx *parent, tr_func *f, tr_clone *clone);

static bool side_effect_free(const tr_expr *e)
{
    if (!e) return true;
    switch (e->kind) {
    case TR_E_ASSIGN:
    case TR_E_CALL:
    case TR_E_POSTFIX:
        return false;
    case TR_E_UNARY:
        if (!strcmp(e->text, "++") || !strcmp(e->text, "--")) return false;
        return side_effect_free(e->a);
    default:
        break;
    }
    for (int i = 0; i < e->nargs; i++)
        if (!side_effect_free(e->args[i])) return false;
    return side_effect_free(e->a) && side_effect_free(e->b) && side_effect_free(e->c);
}

/* Records the space a pointer variable is given at `at`. */
static void give_space(lctx *c, tr_sym *s, tr_space sp, const tr_expr *at)
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

static int cmp_func_name(const void *a, const void *b)
{
    return strcmp((*(tr_func *const *)a)->name, (*(tr_func *const *)b)->name);
}

/* The defined device function called `name`: bisection over the unit's functions sorted by name
 * (built on first use; calls are looked up for every call expression). */
static tr_func *find_func(lctx *c, const char *name)
{
    tr_unit *u = c->u;
    if (!u->sorted_funcs) {
        u->sorted_funcs =
            tr_alloc(u, (size_t)(u->nfuncs ? u->nfuncs : 1) * sizeof *u->sorted_funcs);
        for (int i = 0; i < u->nfuncs; i++)
            if (u->funcs[i]->body) u->sorted_funcs[u->nsorted++] = u->funcs[i];
        qsort(u->sorted_funcs, (size_t)u->nsorted, sizeof *u->sorted_funcs, cmp_func_name);
    }
    int lo = 0, hi = u->nsorted;
    while (lo < hi) {
        int mid = (lo + hi) / 2, r = strcmp(name, u->sorted_funcs[mid]->name);
        if (r == 0) return u->sorted_funcs[mid];
        if (r < 0)
            hi = mid;
        else
            lo = mid + 1;
    }
    return NULL;
}

static void add_hoist(tr_func *f, tr_unit *u, tr_sym *s)
{
    for (int i = 0; i < f->nhoisted; i++)
        if (f->hoisted[i] == s) return;
    tr_sym **n = tr_alloc(u, (size_t)(f->nhoisted + 1) * sizeof *n);
    if (f->nhoisted) memcpy(n, f->hoisted, (size_t)f->nhoisted * sizeof *n);
    n[f->nhoisted++] = s;
    f->hoisted = n;
}

static void infer_call_user(lctx *c, tr_expr *e, tr_func *g)
{
    if (e->nargs != g->nparams) {
        refuse(c, e, "call", "%s takes %d arguments, called with %d", g->name, g->nparams,
               e->nargs);
        return;
    }
    if (g->kind == TR_F_GLOBAL) {
        refuse(c, e, "dynamic parallelism",
               "calling a kernel from device code has no portable "
               "equivalent");
        return;
    }
    if (!c->final) return;
    tr_space *sp = tr_alloc(c->u, (size_t)(g->nparams ? g->nparams : 1) * sizeof *sp);
    for (int i = 0; i < g->nparams; i++) {
        if (!g->params[i]->type.nptr) continue;
        sp[i] = e->args[i]->space;
        if (sp[i] == TR_SP_NONE) {
            refuse(c, e->args[i], "address space",
                   "argument %d of %s is a pointer whose address "
                   "space is not known here",
                   i + 1, g->name);
            return;
        }
    }
    int k = 0;
    for (; k < g->nclones; k++)
        if (!memcmp(g->clones[k].spaces, sp, (size_t)g->nparams * sizeof *sp)) break;
    if (k == g->nclones) {
        if (g->visiting) {
            refuse(c, e, "recursion",
                   "%s calls itself (directly or through others): recursion "
                   "is not allowed in OpenCL and Metal kernels",
                   g->name);
            return;
        }
        tr_clone *nc = tr_alloc(c->u, (size_t)(g->nclones + 1) * sizeof *nc);
        if (g->nclones) memcpy(nc, g->clones, (size_t)g->nclones * sizeof *nc);
        g->clones = nc;
        tr_clone *cl = &g->clones[g->nclones++];
        cl->spaces = sp;
        gp_strbuf name = GP_STRBUF_INIT;
        gp_strbuf_puts(&name, g->name);
        /* the first combination keeps the name; others get the spaces as a suffix */
        if (k > 0) {
            gp_strbuf_puts(&name, "_");
            for (int i = 0; i < g->nparams; i++)
                if (sp[i]) gp_strbuf_putc(&name, space_name[sp[i]][0]);
        }
        cl->name = tr_strdup(c->u, gp_strbuf_cstr(&name));
        gp_strbuf_free(&name);
        lower_function(c, g, cl);
    } else if (g->visiting) {
        refuse(c, e, "recursion",
               "%s calls itself (directly or through others): recursion is not "
               "allowed in OpenCL and Metal kernels",
               g->name);
        return;
    }
    e->callee = g;
    e->callee_clone = k;
    e->vt = g->ret.nptr ? TR_VT_PTR : base_vt(g->ret.base);
    /* the callee's built-ins and hoisted shared arrays are passed through this function */
    c->f->builtins |= g->builtins;
    for (int i = 0; i < g->nhoisted; i++)
        add_hoist(c->f, c->u, g->hoisted[i]);
    c->f->uses_fp64 |= g->uses_fp64;
    c->f->uses_simd |= g->uses_simd;
}

/* The value of an integer constant expression the translator can read (a number, a kept
 * #define, unary - and ~ of one); false when it is anything else. */
static bool const_int(lctx *c, const tr_expr *e, long long *v)
{
    if (!e) return false;
    if (e->kind == TR_E_NUM) {
        char *end;
        unsigned long long u = strtoull(e->text, &end, 0);
        if (end == e->text || strspn(end, "uUlL") != strlen(end)) return false;
        *v = (long long)u;
        return true;
    }
    if (e->kind == TR_E_UNARY && (!strcmp(e->text, "-") || !strcmp(e->text, "~")) &&
        const_int(c, e->a, v)) {
        bool is_unsigned = e->a->kind == TR_E_NUM && strpbrk(e->a->text, "uU");
        *v = e->text[0] == '-' ? -*v : (is_unsigned ? (long long)(~(uint32_t)*v) : ~*v);
        return true;
    }
    if (e->kind == TR_E_CAST && e->type && !e->type->nptr && const_int(c, e->a, v)) {
        const char *t = e->type->base; /* (unsigned)-1 and friends */
        if (!strcmp(t, "unsigned int") || !strcmp(t, "unsigned") || !strcmp(t, "uint32_t"))
            *v = (long long)(uint32_t)*v;
        else if (!strcmp(t, "int") || !strcmp(t, "int32_t"))
            *v = (long long)(int32_t)(uint32_t)*v;
        return true;
    }
    if (e->kind == TR_E_IDENT && !e->sym)
        for (size_t k = 0; k < c->u->pp.nkept; k++)
            if (!strcmp(c->u->pp.kept[k].name, e->text)) {
                /* a kept macro's body is one number, maybe in parentheses: (0xffffffffu) */
                const char *b = c->u->pp.kept[k].body;
                size_t bl = strlen(b);
                char num[64];
                while (bl >= 2 && b[0] == '(' && b[bl - 1] == ')')
                    b++, bl -= 2;
                if (bl == 0 || bl >= sizeof num) return false;
                memcpy(num, b, bl);
                num[bl] = '\0';
                tr_expr ne = {.kind = TR_E_NUM, .text = num};
                return const_int(c, &ne, v);
            }
    return false;
}

static bool is_warp_size(lctx *c, const tr_expr *e)
{
    long long v;
    return (e->kind == TR_E_IDENT && !e->sym && !strcmp(e->text, "warpSize")) ||
           (const_int(c, e, &v) && v == 32);
}

/* __shfl*_sync and the votes: the full mask, the default (32) width, a 32-bit value, and the
 * caller's word that the targets have SIMD groups of 32. */
static void infer_simd(lctx *c, tr_expr *e, const tr_callmap *m)
{
    const char *name = m->cuda;
    bool sync = !strcmp(name, "__syncwarp"), shfl = !strncmp(name, "__shfl", 6);
    int lo = sync ? 0 : shfl ? 3 : 2, hi = sync ? 1 : shfl ? 4 : 2;
    e->vt =
        shfl || sync ? TR_VT_UNKNOWN : (!strcmp(name, "__ballot_sync") ? TR_VT_UINT : TR_VT_INT);
    if (e->nargs < lo || e->nargs > hi) {
        refuse(c, e, "call", "%s takes %d%s arguments, called with %d", name, lo,
               hi > lo ? (sync ? " or 1" : " or 4") : "", e->nargs);
        return;
    }
    if (!c->opt->simd_width) {
        refuse(c, e,
               sync   ? "__syncwarp"
               : shfl ? "warp shuffle"
                      : "warp vote",
               "%s: warp intrinsics assume SIMD groups of 32 lanes; translate with --simd-width 32 "
               "to map them to the dialect's gp_simd_* operations (the kernel then runs where SIMD "
               "groups have 32 lanes: CUDA, Apple GPUs, the CPU backend; not OpenCL)",
               name);
        return;
    }
    long long mask = -1; /* __syncwarp() without a mask is the full mask */
    if ((e->nargs > 0 && !const_int(c, e->args[0], &mask)) ||
        (mask != -1 && mask != 0xffffffffLL)) {
        refuse(c, e, "partial warp mask",
               "%s with a mask that is not the full mask 0xffffffff: the dialect's SIMD-group "
               "operations take every lane of the group (Metal and the CPU have no lane masks)",
               name);
        return;
    }
    if (e->nargs == 4 && !is_warp_size(c, e->args[3])) {
        refuse(c, e, "sub-warp width",
               "%s with a width other than 32: shuffles within segments of the warp are not in "
               "the dialect; shuffle over the whole SIMD group and mask the lane index instead",
               name);
        return;
    }
    if (shfl) {
        tr_vt v = e->args[1]->vt;
        if (v == TR_VT_DOUBLE || v == TR_VT_LONG || v == TR_VT_ULONG || v == TR_VT_HALF ||
            v == TR_VT_VEC || v == TR_VT_PTR) {
            refuse(c, e, "64-bit or vector shuffle",
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

static void infer_call(lctx *c, tr_expr *e)
{
    for (int i = 0; i < e->nargs; i++)
        infer_expr(c, e->args[i]);
    if (e->a->kind != TR_E_IDENT) {
        refuse(c, e, "call", "only named functions can be called");
        return;
    }
    const char *name = e->a->text;
    tr_func *g = find_func(c, name);
    if (g) {
        infer_call_user(c, e, g);
        return;
    }
    const tr_callmap *m = tr_map_call(name);
    if (!m) {
        bool prototype_only = false;
        for (int i = 0; i < c->u->nfuncs; i++)
            if (!strcmp(c->u->funcs[i]->name, name)) prototype_only = true;
        refuse(c, e, "unknown function",
               prototype_only ? "%s is declared but not defined in this file: the translation "
                                "needs its body"
                              : "%s is not a device function of this file nor one the dialect maps",
               name);
        return;
    }
    if (m->kind == TR_CALL_REFUSE) {
        refuse(c, e, m->construct, "%s: %s", name, m->reason);
        return;
    }
    if (m->arity >= 0 && e->nargs != m->arity) {
        refuse(c, e, "call", "%s takes %d arguments, called with %d", name, m->arity, e->nargs);
        return;
    }
    if (m->reason) note(c, e->file, e->line, name, "%s", m->reason);
    switch (m->kind) {
    case TR_CALL_FLOAT_MATH: {
        bool all_float = true, any_double = false;
        for (int i = 0; i < e->nargs; i++) {
            all_float &= e->args[i]->vt == TR_VT_FLOAT || e->args[i]->vt == TR_VT_HALF;
            any_double |= e->args[i]->vt == TR_VT_DOUBLE || is_int_vt(e->args[i]->vt);
        }
        e->vt = all_float ? TR_VT_FLOAT : TR_VT_DOUBLE;
        if (!all_float && any_double) c->f->uses_fp64 = true;
        break;
    }
    case TR_CALL_MINMAX: {
        tr_vt v = arith(e->args[0]->vt, e->args[1]->vt);
        e->vt = v;
        if (is_int_vt(v) && (!side_effect_free(e->args[0]) || !side_effect_free(e->args[1])))
            refuse(c, e, name,
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
        if (p->vt != TR_VT_PTR) {
            refuse(c, e, "atomic", "%s needs a pointer as its first argument", name);
        } else if (!strcmp(elem, "float") && !strcmp(m->out, "add")) {
            if (p->space != TR_SP_GLOBAL)
                refuse(c, e, "float atomic on shared memory",
                       "atomicAdd on a float in %s memory: the dialect has float atomic add on "
                       "global memory only (Metal and OpenCL have no float atomics on "
                       "threadgroup/local memory); accumulate into an int, or reduce with "
                       "gp_barrier()",
                       space_name[p->space]);
            e->vt = TR_VT_FLOAT;
        } else if (!i32) {
            refuse(c, e, "64-bit atomic",
                   "%s on %s: the portable atomic subset is 32-bit int and unsigned (and float "
                   "add on global memory); 64-bit atomics are missing on Metal and OpenCL 1.2",
                   name, elem[0] ? elem : "this type");
        } else {
            e->vt = base_vt(elem);
        }
        break;
    }
    case TR_CALL_BARRIER:
        e->vt = TR_VT_UNKNOWN;
        break;
    case TR_CALL_SIMD:
        infer_simd(c, e, m);
        break;
    default:
        if (!strncmp(m->out, "gp_make_", 8))
            e->vt = TR_VT_VEC;
        else if (!strcmp(m->out, "gp_float_to_half"))
            e->vt = TR_VT_HALF;
        else if (!strcmp(m->cuda, "__float2int_rz"))
            e->vt = TR_VT_INT;
        else if (!strcmp(m->cuda, "__mul24"))
            e->vt = TR_VT_INT;
        else if (!strcmp(m->cuda, "__umul24"))
            e->vt = TR_VT_UINT;
        else if (!strcmp(m->cuda, "__ldg"))
            e->vt = TR_VT_UNKNOWN;
        else
            e->vt = TR_VT_FLOAT;
        break;
    }
}

static bool builtin_member(tr_expr *e)
{
    if (e->kind != TR_E_MEMBER || strcmp(e->text, ".") != 0 || e->a->kind != TR_E_IDENT ||
        e->a->sym)
        return false;
    for (int b = 0; b < TR_B_COUNT; b++)
        if (!strcmp(e->a->text, builtin_cuda[b])) {
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

static void infer_expr(lctx *c, tr_expr *e)
{
    if (!e) return;
    e->space = TR_SP_NONE;
    e->elem = NULL;
    switch (e->kind) {
    case TR_E_NUM:
        e->vt = number_vt(e->text);
        return;
    case TR_E_CHAR:
        e->vt = TR_VT_INT;
        return;
    case TR_E_STR:
        e->vt = TR_VT_UNKNOWN;
        return;
    case TR_E_RAW:
        return;
    case TR_E_BUILTIN:
        e->vt = TR_VT_UINT;
        c->f->builtins |= 1u << (e->bkind * 3 + e->dim);
        return;
    case TR_E_IDENT: {
        tr_sym *s = e->sym;
        if (!s) {
            for (size_t k = 0; k < c->u->pp.nkept; k++)
                if (!strcmp(c->u->pp.kept[k].name, e->text)) {
                    e->vt = number_vt(c->u->pp.kept[k].body + strspn(c->u->pp.kept[k].body, "(-"));
                    return;
                }
            for (int b = 0; b < TR_B_COUNT; b++)
                if (!strcmp(e->text, builtin_cuda[b])) {
                    refuse(c, e, "built-in index",
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
                refuse(c, e, "warpSize",
                       "warpSize is the width of CUDA's warps (32): translate with --simd-width 32 "
                       "to make it gp_simd_width() (the kernel then runs where SIMD groups have 32 "
                       "lanes: CUDA, Apple GPUs, the CPU backend; not OpenCL)");
            } else if (!find_func(c, e->text) && !tr_map_call(e->text))
                refuse(c, e, "unknown name", "'%s' is not declared in device code", e->text);
            e->vt = TR_VT_UNKNOWN;
            return;
        }
        if (s->kind == TR_SYM_DYN_SHARED || s->kind == TR_SYM_SHARED) {
            if (s->owner && s->owner != c->f) { /* cannot happen: names are scoped */
            } else if (!c->kernel || s->kind == TR_SYM_DYN_SHARED) {
                add_hoist(c->f, c->u, s);
            }
        }
        if (s->type.nptr || s->ndims) {
            e->vt = TR_VT_PTR;
            e->space = sym_space(c, s);
            e->elem = s->type.base;
            if (s->ndims > 1) e->elem = NULL; /* a row, not an element */
        } else {
            e->vt = base_vt(s->type.base);
        }
        if (!strcmp(s->type.base, "double")) c->f->uses_fp64 = true;
        return;
    }
    case TR_E_MEMBER:
        if (builtin_member(e)) {
            infer_expr(c, e);
            return;
        }
        infer_expr(c, e->a);
        e->vt = TR_VT_UNKNOWN;
        if (!strcmp(e->name, "x") || !strcmp(e->name, "y") || !strcmp(e->name, "z") ||
            !strcmp(e->name, "w")) {
            const char *b = e->a->vt == TR_VT_PTR ? e->a->elem : NULL;
            if (e->a->kind == TR_E_IDENT && e->a->sym && !e->a->sym->type.nptr)
                b = e->a->sym->type.base;
            e->vt = b && !strncmp(b, "int", 3) ? TR_VT_INT : TR_VT_FLOAT;
        }
        return;
    case TR_E_CALL:
        infer_call(c, e);
        return;
    case TR_E_INDEX: {
        infer_expr(c, e->a);
        infer_expr(c, e->b);
        tr_sym *s = e->a->kind == TR_E_IDENT ? e->a->sym : NULL;
        if (s && s->ndims > 1) { /* a row of a multi-dimensional array */
            e->vt = TR_VT_PTR;
            e->space = e->a->space;
            e->elem = s->type.base;
            return;
        }
        if (e->a->kind == TR_E_INDEX && e->a->vt == TR_VT_PTR) {
            e->vt = base_vt(e->a->elem ? e->a->elem : "int");
            return;
        }
        e->vt = e->a->elem ? base_vt(e->a->elem) : TR_VT_UNKNOWN;
        return;
    }
    case TR_E_UNARY:
        infer_expr(c, e->a);
        if (!strcmp(e->text, "&")) {
            e->vt = TR_VT_PTR;
            tr_expr *x = e->a;
            if (x->kind == TR_E_INDEX) {
                tr_expr *base = x->a;
                while (base->kind == TR_E_INDEX)
                    base = base->a;
                e->space = base->space;
                e->elem = x->a->kind == TR_E_INDEX ? x->a->elem : x->a->elem;
                if (base->kind == TR_E_IDENT && base->sym) e->elem = base->sym->type.base;
            } else if (x->kind == TR_E_IDENT && x->sym) {
                tr_sym *s = x->sym;
                e->space = s->kind == TR_SYM_SHARED     ? TR_SP_SHARED
                           : s->kind == TR_SYM_CONSTANT ? TR_SP_CONSTANT
                                                        : TR_SP_PRIVATE;
                e->elem = s->type.base;
            } else if (x->kind == TR_E_UNARY && !strcmp(x->text, "*")) {
                e->space = x->a->space;
                e->elem = x->a->elem;
            } else {
                refuse(c, e, "address space",
                       "the address space of this '&' expression cannot be "
                       "inferred");
            }
        } else if (!strcmp(e->text, "*")) {
            e->vt = e->a->elem ? base_vt(e->a->elem) : TR_VT_UNKNOWN;
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
        if (e->a->vt == TR_VT_HALF && strcmp(e->text, "&") != 0)
            refuse(c, e, "half arithmetic",
                   "half is a storage type in the dialect: convert with "
                   "__half2float first");
        return;
    case TR_E_POSTFIX:
        infer_expr(c, e->a);
        e->vt = e->a->vt;
        e->space = e->a->space;
        e->elem = e->a->elem;
        if (e->a->kind == TR_E_IDENT && e->a->sym && e->a->sym->kind == TR_SYM_PARAM &&
            !e->a->sym->type.nptr)
            e->a->sym->assigned = true;
        return;
    case TR_E_BINARY: {
        infer_expr(c, e->a);
        infer_expr(c, e->b);
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
            e->vt = !strcmp(op, "<<") || !strcmp(op, ">>") ? e->a->vt : arith(e->a->vt, e->b->vt);
            /* a double literal in float arithmetic: CUDA computes it in double */
            tr_expr *lit = e->a->kind == TR_E_NUM && e->a->vt == TR_VT_DOUBLE   ? e->a
                           : e->b->kind == TR_E_NUM && e->b->vt == TR_VT_DOUBLE ? e->b
                                                                                : NULL;
            tr_expr *other = lit == e->a ? e->b : e->a;
            if (lit && other->vt == TR_VT_FLOAT)
                note(c, lit->file, lit->line, "double literal",
                     "%s is a double literal: CUDA and the CPU compute '%s' in double, Metal and "
                     "OpenCL without fp64 in float; write %sf if float is meant",
                     lit->text, op, lit->text);
        }
        if (e->a->vt == TR_VT_HALF || e->b->vt == TR_VT_HALF)
            refuse(c, e, "half arithmetic",
                   "half is a storage type in the dialect: convert with "
                   "__half2float first");
        return;
    }
    case TR_E_ASSIGN:
        infer_expr(c, e->a);
        infer_expr(c, e->b);
        e->vt = e->a->vt;
        if (e->a->kind == TR_E_IDENT && e->a->sym) {
            tr_sym *s = e->a->sym;
            if (s->type.nptr && !s->ndims && !strcmp(e->text, "="))
                give_space(c, s, e->b->space, e);
            if (s->kind == TR_SYM_PARAM && !s->type.nptr) s->assigned = true;
            if (s->kind == TR_SYM_PARAM && s->type.nptr && !c->kernel && c->final) {
                tr_space want = sym_space(c, s);
                if (e->b->space && want && e->b->space != want)
                    refuse(c, e, "address space",
                           "parameter %s points into %s memory but is "
                           "assigned a %s pointer here",
                           s->name, space_name[want], space_name[e->b->space]);
            }
            if (s->kind == TR_SYM_PARAM && s->type.nptr && c->kernel && c->final && e->b->space &&
                e->b->space != TR_SP_GLOBAL)
                refuse(c, e, "address space",
                       "kernel parameter %s (global memory) is assigned a "
                       "%s pointer",
                       s->name, space_name[e->b->space]);
        }
        return;
    case TR_E_COND:
        infer_expr(c, e->a);
        infer_expr(c, e->b);
        infer_expr(c, e->c);
        if (e->b->vt == TR_VT_PTR || e->c->vt == TR_VT_PTR) {
            e->vt = TR_VT_PTR;
            e->elem = e->b->elem ? e->b->elem : e->c->elem;
            if (e->b->space == e->c->space) {
                e->space = e->b->space;
            } else if (e->b->space && e->c->space) {
                refuse(c, e, "address space",
                       "this conditional picks a %s pointer or a %s pointer: its address space "
                       "depends on control flow",
                       space_name[e->b->space], space_name[e->c->space]);
            }
        } else {
            e->vt = arith(e->b->vt, e->c->vt);
        }
        return;
    case TR_E_CAST: {
        infer_expr(c, e->a);
        const char *why = NULL;
        if (!map_base(e->type->base, &why)) refuse(c, e, e->type->base, "%s", why);
        if (e->type->nptr) {
            e->vt = TR_VT_PTR;
            e->space = e->a->space;
            e->elem = e->type->base;
            if (e->a->vt != TR_VT_PTR)
                refuse(c, e, "address space", "an integer cast to a pointer has no address space");
        } else {
            e->vt = base_vt(e->type->base);
        }
        if (!strcmp(e->type->base, "double")) c->f->uses_fp64 = true;
        return;
    }
    case TR_E_SIZEOF_TYPE:
        e->vt = TR_VT_ULONG;
        return;
    case TR_E_SIZEOF_EXPR:
        infer_expr(c, e->a);
        e->vt = TR_VT_ULONG;
        return;
    case TR_E_COMMA:
        infer_expr(c, e->a);
        infer_expr(c, e->b);
        e->vt = e->b->vt;
        e->space = e->b->space;
        e->elem = e->b->elem;
        return;
    case TR_E_INIT:
        for (int i = 0; i < e->nargs; i++)
            infer_expr(c, e->args[i]);
        return;
    }
}

static void infer_stmt(lctx *c, tr_stmt *s)
{
    if (!s) return;
    switch (s->kind) {
    case TR_S_BLOCK:
        for (int i = 0; i < s->n; i++)
            infer_stmt(c, s->list[i]);
        return;
    case TR_S_DECL:
        for (int i = 0; i < s->ndecls; i++) {
            tr_sym *sym = s->decls[i].sym;
            const char *why = NULL;
            if (c->final && !map_base(sym->type.base, &why)) {
                tr_expr at = {.file = sym->file, .line = sym->line, .col = sym->col};
                tr_diag_add(c->u, true, at.file, at.line, at.col, sym->type.base, "%s: %s",
                            sym->name, why);
            }
            if (!strcmp(sym->type.base, "double")) c->f->uses_fp64 = true;
            for (int d = 0; d < sym->ndims; d++)
                infer_expr(c, sym->dims[d]);
            if (s->decls[i].init) {
                infer_expr(c, s->decls[i].init);
                if (sym->type.nptr && !sym->ndims)
                    give_space(c, sym, s->decls[i].init->space, s->decls[i].init);
            }
            if ((sym->kind == TR_SYM_SHARED || sym->kind == TR_SYM_DYN_SHARED) &&
                (!c->kernel || sym->kind == TR_SYM_DYN_SHARED)) {
                if (!c->kernel && sym->kind == TR_SYM_SHARED && sym->ndims > 1 && c->final)
                    tr_diag_add(c->u, true, sym->file, sym->line, sym->col, "__shared__",
                                "%s: a multi-dimensional __shared__ array in a device function "
                                "cannot be passed in from the kernel on every target; declare it "
                                "in the kernel, or make it one-dimensional",
                                sym->name);
                add_hoist(c->f, c->u, sym);
            }
        }
        return;
    case TR_S_EXPR:
    case TR_S_RETURN:
    case TR_S_CASE:
        infer_expr(c, s->e);
        return;
    case TR_S_IF:
        infer_expr(c, s->cond);
        infer_stmt(c, s->body);
        infer_stmt(c, s->els);
        return;
    case TR_S_FOR:
        infer_stmt(c, s->init);
        infer_expr(c, s->cond);
        infer_expr(c, s->step);
        infer_stmt(c, s->body);
        return;
    case TR_S_WHILE:
    case TR_S_DO:
    case TR_S_SWITCH:
        infer_expr(c, s->cond);
        infer_stmt(c, s->body);
        return;
    default:
        return;
    }
}

/* Local pointers of the function body (for resetting and checking their spaces). */
static void collect_locals(tr_stmt *s, tr_sym ***out, int *n, tr_unit *u)
{
    if (!s) return;
    if (s->kind == TR_S_DECL)
        for (int i = 0; i < s->ndecls; i++) {
            tr_sym **nl = tr_alloc(u, (size_t)(*n + 1) * sizeof *nl);
            if (*n) memcpy(nl, *out, (size_t)*n * sizeof *nl);
            nl[(*n)++] = s->decls[i].sym;
            *out = nl;
        }
    collect_locals(s->init, out, n, u);
    collect_locals(s->body, out, n, u);
    collect_locals(s->els, out, n, u);
    for (int i = 0; i < s->n; i++)
        collect_locals(s->list[i], out, n, u);
}

/* ---- printing ----------------------------------------------------------------------------- */
static void emit_expr(lctx *c, gp_strbuf *sb, tr_expr *e, int prec);
static void emit_todo(gp_strbuf *sb, const char *why);

static void emit_type_prefix(gp_strbuf *sb, const tr_type *t, tr_space sp)
{
    const char *why;
    const char *b = map_base(t->base, &why);
    if (t->nptr && sp) gp_strbuf_printf(sb, "%s ", space_macro[sp]);
    if (t->is_volatile) gp_strbuf_puts(sb, "volatile ");
    /* GP_CONSTANT is `const` on CUDA already, and C++ rejects `const const` */
    if (t->is_const && !(t->nptr && sp == TR_SP_CONSTANT)) gp_strbuf_puts(sb, "const ");
    if (b)
        gp_strbuf_puts(sb, b);
    else
        emit_todo(sb, why); /* refused already; --partial marks the place */
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
        static const char *const lv[][4] = {{"||"},
                                            {"&&"},
                                            {"|"},
                                            {"^"},
                                            {"&"},
                                            {"==", "!="},
                                            {"<", ">", "<=", ">="},
                                            {"<<", ">>"},
                                            {"+", "-"},
                                            {"*", "/", "%"}};
        for (int l = 0; l < 10; l++)
            for (int k = 0; k < 4 && lv[l][k]; k++)
                if (!strcmp(e->text, lv[l][k])) return 4 + l;
        return 4;
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

static const char *sym_name(lctx *c, tr_sym *s)
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
static void emit_hoisted_arg(lctx *c, gp_strbuf *sb, tr_sym *s)
{
    if (s->owner == c->f)
        gp_strbuf_puts(sb, s->name);
    else
        gp_strbuf_printf(sb, "%s_%s", s->owner->name, s->name);
}

static void emit_builtin(lctx *c, gp_strbuf *sb, int bk, int dim)
{
    if (c->kernel)
        gp_strbuf_printf(sb, "(unsigned)%s(%d)", builtin_dialect[bk], dim);
    else
        gp_strbuf_printf(sb, "gp_%s_%c", builtin_cuda[bk], "xyz"[dim]);
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

static void emit_args(lctx *c, gp_strbuf *sb, tr_expr *e)
{
    for (int i = 0; i < e->nargs; i++) {
        if (i) gp_strbuf_puts(sb, ", ");
        emit_expr(c, sb, e->args[i], 2);
    }
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
            emit_hoisted_arg(c, sb, g->hoisted[i]);
            first = false;
        }
        for (int b = 0; b < 12; b++)
            if (g->builtins & (1u << b)) {
                gp_strbuf_puts(sb, first ? "" : ", ");
                emit_builtin(c, sb, b / 3, b % 3);
                first = false;
            }
        gp_strbuf_putc(sb, ')');
        return;
    }
    const tr_callmap *m = tr_map_call(e->a->text);
    if (!m) return;
    switch (m->kind) {
    case TR_CALL_SAME:
    case TR_CALL_RENAME:
        gp_strbuf_printf(sb, "%s(", m->out);
        emit_args(c, sb, e);
        gp_strbuf_putc(sb, ')');
        return;
    case TR_CALL_FLOAT_MATH:
        gp_strbuf_printf(sb, "%s(", e->vt == TR_VT_FLOAT ? m->out : m->cuda);
        emit_args(c, sb, e);
        gp_strbuf_putc(sb, ')');
        return;
    case TR_CALL_MINMAX:
        if (is_int_vt(e->vt))
            gp_strbuf_printf(sb, "gp_%s(", m->out);
        else
            gp_strbuf_printf(sb, "%s%s(", !strcmp(m->out, "min") ? "fmin" : "fmax",
                             e->vt == TR_VT_DOUBLE ? "" : "f");
        emit_args(c, sb, e);
        gp_strbuf_putc(sb, ')');
        return;
    case TR_CALL_ATOMIC:
        if (e->vt == TR_VT_FLOAT)
            gp_strbuf_puts(sb, "gp_atomic_add_float(");
        else
            gp_strbuf_printf(sb, "gp_atomic_%s(", m->out);
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
        emit_expr(c, sb, e->args[1], 2);
        if (strncmp(m->cuda, "__shfl", 6) == 0) {
            gp_strbuf_puts(sb, ", ");
            emit_expr(c, sb, e->args[2], 2);
        }
        gp_strbuf_putc(sb, ')');
        return;
    case TR_CALL_TEMPLATE:
        for (const char *p = m->out; *p; p++) {
            if (*p == '$' && p[1] >= '1' && p[1] <= '9' && p[1] - '1' < e->nargs) {
                emit_expr(c, sb, e->args[p[1] - '1'], 14);
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

static void emit_todo(gp_strbuf *sb, const char *why)
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
        emit_expr(c, sb, child, 0);
        gp_strbuf_putc(sb, ')');
        return;
    }
    emit_expr(c, sb, child, prec);
}

static void emit_expr(lctx *c, gp_strbuf *sb, tr_expr *e, int prec)
{
    if (!e) return;
    if (e->todo) {
        emit_todo(sb, e->todo);
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
        else
            gp_strbuf_puts(sb, e->sym ? sym_name(c, e->sym) : e->text);
        break;
    case TR_E_NUM:
    case TR_E_CHAR:
    case TR_E_STR:
    case TR_E_RAW:
        gp_strbuf_puts(sb, e->text);
        break;
    case TR_E_BUILTIN:
        emit_builtin(c, sb, e->bkind, e->dim);
        break;
    case TR_E_CALL:
        emit_call(c, sb, e);
        break;
    case TR_E_INDEX:
        emit_expr(c, sb, e->a, 15);
        gp_strbuf_putc(sb, '[');
        emit_expr(c, sb, e->b, 1);
        gp_strbuf_putc(sb, ']');
        break;
    case TR_E_MEMBER:
        emit_expr(c, sb, e->a, 15);
        gp_strbuf_printf(sb, "%s%s", e->text, e->name);
        break;
    case TR_E_UNARY:
        gp_strbuf_puts(sb, e->text);
        /* `- -x` and `& &x` must not fuse into `--x` / `&&x` */
        if (e->a->kind == TR_E_UNARY && e->a->text[0] == e->text[0]) gp_strbuf_putc(sb, ' ');
        emit_expr(c, sb, e->a, 14);
        break;
    case TR_E_POSTFIX:
        emit_expr(c, sb, e->a, 15);
        gp_strbuf_puts(sb, e->text);
        break;
    case TR_E_BINARY:
        if (c->kernel && (dim = global_id_pattern(e)) >= 0) {
            gp_strbuf_printf(sb, "(unsigned)gp_global_id(%d)", dim);
            break;
        }
        emit_operand(c, sb, e, e->a, my);
        gp_strbuf_printf(sb, " %s ", e->text);
        emit_operand(c, sb, e, e->b, my + 1);
        break;
    case TR_E_ASSIGN:
        emit_expr(c, sb, e->a, 3);
        gp_strbuf_printf(sb, " %s ", e->text);
        emit_expr(c, sb, e->b, 2);
        break;
    case TR_E_COND:
        emit_expr(c, sb, e->a, 4);
        gp_strbuf_puts(sb, " ? ");
        emit_expr(c, sb, e->b, 1);
        gp_strbuf_puts(sb, " : ");
        emit_expr(c, sb, e->c, 3);
        break;
    case TR_E_CAST:
        gp_strbuf_putc(sb, '(');
        emit_type_prefix(sb, e->type, e->space);
        while (sb->len && sb->data[sb->len - 1] == ' ')
            sb->data[--sb->len] = '\0';
        gp_strbuf_putc(sb, ')');
        emit_expr(c, sb, e->a, 14);
        break;
    case TR_E_SIZEOF_TYPE:
        gp_strbuf_puts(sb, "sizeof(");
        emit_type_prefix(sb, e->type, TR_SP_NONE);
        while (sb->len && sb->data[sb->len - 1] == ' ')
            sb->data[--sb->len] = '\0';
        gp_strbuf_putc(sb, ')');
        break;
    case TR_E_SIZEOF_EXPR:
        gp_strbuf_puts(sb, "sizeof(");
        emit_expr(c, sb, e->a, 1);
        gp_strbuf_putc(sb, ')');
        break;
    case TR_E_COMMA:
        emit_expr(c, sb, e->a, 1);
        gp_strbuf_puts(sb, ", ");
        emit_expr(c, sb, e->b, 2);
        break;
    case TR_E_INIT:
        gp_strbuf_puts(sb, "{");
        emit_args(c, sb, e);
        gp_strbuf_puts(sb, "}");
        break;
    }
    if (paren) gp_strbuf_putc(sb, ')');
}

static void indent(gp_strbuf *sb, int n)
{
    for (int i = 0; i < n; i++)
        gp_strbuf_puts(sb, "    ");
}

static void emit_decl(lctx *c, gp_strbuf *sb, tr_sym *s, tr_expr *init)
{
    if (s->kind == TR_SYM_SHARED) gp_strbuf_puts(sb, "GP_SHARED_DECL ");
    tr_space sp = s->type.nptr ? sym_space(c, s) : TR_SP_NONE;
    emit_type_prefix(sb, &s->type, sp);
    gp_strbuf_puts(sb, sym_name(c, s));
    for (int d = 0; d < s->ndims; d++) {
        gp_strbuf_putc(sb, '[');
        if (s->dims[d]) emit_expr(c, sb, s->dims[d], 1);
        gp_strbuf_putc(sb, ']');
    }
    if (init) {
        gp_strbuf_puts(sb, " = ");
        emit_expr(c, sb, init, 2);
    }
    gp_strbuf_puts(sb, ";");
}

static void emit_stmt(lctx *c, gp_strbuf *sb, tr_stmt *s, int lvl);

/* Bodies of if/for/while/do always get braces in the output. */
static void emit_body(lctx *c, gp_strbuf *sb, tr_stmt *s, int lvl)
{
    gp_strbuf_puts(sb, " {\n");
    if (s && s->kind == TR_S_BLOCK)
        for (int i = 0; i < s->n; i++)
            emit_stmt(c, sb, s->list[i], lvl + 1);
    else if (s && s->kind != TR_S_EMPTY)
        emit_stmt(c, sb, s, lvl + 1);
    indent(sb, lvl);
    gp_strbuf_puts(sb, "}");
}

static void emit_stmt(lctx *c, gp_strbuf *sb, tr_stmt *s, int lvl)
{
    if (!s) return;
    switch (s->kind) {
    case TR_S_BLOCK:
        indent(sb, lvl);
        gp_strbuf_puts(sb, "{\n");
        for (int i = 0; i < s->n; i++)
            emit_stmt(c, sb, s->list[i], lvl + 1);
        indent(sb, lvl);
        gp_strbuf_puts(sb, "}\n");
        return;
    case TR_S_DECL:
        for (int i = 0; i < s->ndecls; i++) {
            tr_sym *sym = s->decls[i].sym;
            /* shared arrays live at kernel scope (hoisted) or come in as parameters */
            if (sym->kind == TR_SYM_SHARED || sym->kind == TR_SYM_DYN_SHARED) continue;
            indent(sb, lvl);
            emit_decl(c, sb, sym, s->decls[i].init);
            gp_strbuf_putc(sb, '\n');
        }
        return;
    case TR_S_EXPR:
        indent(sb, lvl);
        emit_expr(c, sb, s->e, 1);
        gp_strbuf_puts(sb, ";\n");
        return;
    case TR_S_RETURN:
        indent(sb, lvl);
        gp_strbuf_puts(sb, "return");
        if (s->e) {
            gp_strbuf_putc(sb, ' ');
            emit_expr(c, sb, s->e, 1);
        }
        gp_strbuf_puts(sb, ";\n");
        return;
    case TR_S_IF:
        indent(sb, lvl);
        gp_strbuf_puts(sb, "if (");
        emit_expr(c, sb, s->cond, 1);
        gp_strbuf_putc(sb, ')');
        emit_body(c, sb, s->body, lvl);
        if (s->els) {
            gp_strbuf_puts(sb, " else");
            if (s->els->kind == TR_S_IF) {
                gp_strbuf_putc(sb, ' ');
                gp_strbuf tmp = GP_STRBUF_INIT;
                emit_stmt(c, &tmp, s->els, lvl);
                const char *t = gp_strbuf_cstr(&tmp);
                while (*t == ' ')
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
        indent(sb, lvl);
        gp_strbuf_puts(sb, "for (");
        if (s->init && s->init->kind == TR_S_DECL) {
            for (int i = 0; i < s->init->ndecls; i++) {
                gp_strbuf tmp = GP_STRBUF_INIT;
                emit_decl(c, &tmp, s->init->decls[i].sym, s->init->decls[i].init);
                if (i) { /* int i = 0, j = 0: later declarators without the type */
                    const char *t = gp_strbuf_cstr(&tmp);
                    const char *name = strstr(t, s->init->decls[i].sym->name);
                    gp_strbuf_printf(sb, ", %.*s", (int)(strlen(name ? name : t) - 1),
                                     name ? name : t);
                } else {
                    gp_strbuf_append(sb, gp_strbuf_cstr(&tmp), tmp.len - 1);
                }
                gp_strbuf_free(&tmp);
            }
        } else if (s->init) {
            emit_expr(c, sb, s->init->e, 1);
        }
        gp_strbuf_puts(sb, "; ");
        emit_expr(c, sb, s->cond, 1);
        gp_strbuf_puts(sb, "; ");
        emit_expr(c, sb, s->step, 1);
        gp_strbuf_putc(sb, ')');
        emit_body(c, sb, s->body, lvl);
        gp_strbuf_putc(sb, '\n');
        return;
    case TR_S_WHILE:
        indent(sb, lvl);
        gp_strbuf_puts(sb, "while (");
        emit_expr(c, sb, s->cond, 1);
        gp_strbuf_putc(sb, ')');
        emit_body(c, sb, s->body, lvl);
        gp_strbuf_putc(sb, '\n');
        return;
    case TR_S_DO:
        indent(sb, lvl);
        gp_strbuf_puts(sb, "do");
        emit_body(c, sb, s->body, lvl);
        gp_strbuf_puts(sb, " while (");
        emit_expr(c, sb, s->cond, 1);
        gp_strbuf_puts(sb, ");\n");
        return;
    case TR_S_SWITCH:
        indent(sb, lvl);
        gp_strbuf_puts(sb, "switch (");
        emit_expr(c, sb, s->cond, 1);
        gp_strbuf_putc(sb, ')');
        emit_body(c, sb, s->body, lvl);
        gp_strbuf_putc(sb, '\n');
        return;
    case TR_S_CASE:
        indent(sb, lvl > 0 ? lvl - 1 : 0);
        gp_strbuf_puts(sb, "case ");
        emit_expr(c, sb, s->e, 3);
        gp_strbuf_puts(sb, ":\n");
        return;
    case TR_S_DEFAULT:
        indent(sb, lvl > 0 ? lvl - 1 : 0);
        gp_strbuf_puts(sb, "default:\n");
        return;
    case TR_S_BREAK:
        indent(sb, lvl);
        gp_strbuf_puts(sb, "break;\n");
        return;
    case TR_S_CONTINUE:
        indent(sb, lvl);
        gp_strbuf_puts(sb, "continue;\n");
        return;
    case TR_S_EMPTY:
        indent(sb, lvl);
        gp_strbuf_puts(sb, ";\n");
        return;
    case TR_S_PRAGMA:
        gp_strbuf_printf(sb, "#%s\n", s->text);
        return;
    case TR_S_TODO:
        indent(sb, lvl);
        emit_todo(sb, s->text);
        gp_strbuf_puts(sb, ";\n");
        return;
    }
}

/* Static shared arrays declared anywhere in a kernel's body move to its outermost scope. */
static void emit_kernel_shared(lctx *c, gp_strbuf *sb, tr_stmt *s)
{
    if (!s) return;
    if (s->kind == TR_S_DECL)
        for (int i = 0; i < s->ndecls; i++)
            if (s->decls[i].sym->kind == TR_SYM_SHARED) {
                indent(sb, 1);
                emit_decl(c, sb, s->decls[i].sym, NULL);
                gp_strbuf_putc(sb, '\n');
            }
    emit_kernel_shared(c, sb, s->init);
    emit_kernel_shared(c, sb, s->body);
    emit_kernel_shared(c, sb, s->els);
    for (int i = 0; i < s->n; i++)
        emit_kernel_shared(c, sb, s->list[i]);
}

static void emit_signature_kernel(lctx *c, gp_strbuf *sb)
{
    tr_func *f = c->f;
    tr_kernel_info *ki = c->info;
    gp_strbuf_printf(sb, "GP_KERNEL(%s", f->name);
    for (int i = 0; i < f->nparams; i++) {
        tr_sym *p = f->params[i];
        const char *why = NULL;
        const char *b = map_base(p->type.base, &why);
        const char *kind = p->type.nptr ? (p->type.is_const ? "GP_CBUF" : "GP_BUF") : "GP_VAL";
        gp_strbuf_printf(sb, ", %s(", kind);
        if (b)
            gp_strbuf_puts(sb, b);
        else
            emit_todo(sb, why);
        gp_strbuf_printf(sb, ", %s%s)", p->name, p->assigned ? "_in" : "");
        if (!b) b = p->type.base;
        if (ki) tr_kernel_info_add_param(ki, kind, b, p->name);
    }
    for (int i = 0; i < c->nhoist; i++) {
        tr_sym *s = c->hoist[i];
        if (s->kind != TR_SYM_DYN_SHARED) continue;
        const char *why = NULL;
        const char *b = map_base(s->type.base, &why);
        gp_strbuf_printf(sb, ", GP_DYN_SHARED(%s, ", b ? b : s->type.base);
        emit_hoisted_arg(c, sb, s);
        gp_strbuf_putc(sb, ')');
        if (ki) tr_kernel_info_add_param(ki, "GP_DYN_SHARED", b ? b : s->type.base, s->name);
    }
    gp_strbuf_puts(sb, ")\n");
}

static void emit_signature_helper(lctx *c, gp_strbuf *sb)
{
    tr_func *f = c->f;
    gp_strbuf_puts(sb, "GP_FUNC ");
    emit_type_prefix(sb, &f->ret, TR_SP_NONE);
    gp_strbuf_printf(sb, "%s(", c->clone->name);
    bool first = true;
    for (int i = 0; i < f->nparams; i++) {
        tr_sym *p = f->params[i];
        if (!first) gp_strbuf_puts(sb, ", ");
        first = false;
        emit_type_prefix(sb, &p->type, p->type.nptr ? c->clone->spaces[i] : TR_SP_NONE);
        gp_strbuf_puts(sb, p->name);
    }
    for (int i = 0; i < f->nhoisted; i++) {
        tr_sym *s = f->hoisted[i];
        if (!first) gp_strbuf_puts(sb, ", ");
        first = false;
        const char *why = NULL;
        const char *b = map_base(s->type.base, &why);
        gp_strbuf_printf(sb, "GP_SHARED %s *", b ? b : s->type.base);
        emit_hoisted_arg(c, sb, s);
    }
    for (int b = 0; b < 12; b++)
        if (f->builtins & (1u << b)) {
            if (!first) gp_strbuf_puts(sb, ", ");
            first = false;
            gp_strbuf_printf(sb, "unsigned int gp_%s_%c", builtin_cuda[b / 3], "xyz"[b % 3]);
        }
    if (first) gp_strbuf_puts(sb, "void");
    gp_strbuf_puts(sb, ")\n");
}

static void lower_function(lctx *parent, tr_func *f, tr_clone *clone)
{
    lctx c = *parent;
    c.f = f;
    c.clone = clone;
    c.kernel = clone == NULL;
    c.hoist = NULL;
    c.nhoist = 0;
    if (c.kernel)
        c.info = parent->info;
    else
        c.info = NULL;
    f->visiting = true;
    tr_sym **locals = NULL;
    int nlocals = 0;
    collect_locals(f->body, &locals, &nlocals, c.u);
    for (int i = 0; i < nlocals; i++)
        locals[i]->seen_spaces = 0, locals[i]->conflict_line = 0;
    for (int i = 0; i < f->nparams; i++)
        f->params[i]->assigned = false;
    /* propagate pointer spaces to a fixed point, then one final pass that reports and descends */
    c.final = false;
    for (int pass = 0; pass < 16; pass++) {
        c.changed = false;
        infer_stmt(&c, f->body);
        if (!c.changed) break;
    }
    c.final = true;
    infer_stmt(&c, f->body);
    for (int i = 0; i < nlocals; i++) {
        tr_sym *s = locals[i];
        if (!s->type.nptr || s->ndims) continue;
        unsigned bits = s->seen_spaces, n = 0;
        for (int sp = 1; sp <= 4; sp++)
            n += (bits >> sp) & 1;
        if (n > 1) {
            char list[128] = "";
            for (int sp = 1; sp <= 4; sp++)
                if (bits & (1u << sp)) {
                    if (list[0]) strcat(list, " and ");
                    strcat(list, space_name[sp]);
                }
            tr_diag_add(c.u, true, s->file, s->line, s->col, "address space",
                        "pointer %s is given %s pointers (line %d): its address space depends on "
                        "control flow; use one pointer per space",
                        s->name, list, s->conflict_line);
        } else if (n == 0) {
            tr_diag_add(c.u, true, s->file, s->line, s->col, "address space",
                        "pointer %s is never given an address, so its address space is unknown; "
                        "initialise it where it is declared",
                        s->name);
        }
    }
    if (c.kernel) {
        /* every shared array the kernel or its callees need */
        for (int i = 0; i < f->nhoisted; i++) {
            tr_sym **n = tr_alloc(c.u, (size_t)(c.nhoist + 1) * sizeof *n);
            if (c.nhoist) memcpy(n, c.hoist, (size_t)c.nhoist * sizeof *n);
            n[c.nhoist++] = f->hoisted[i];
            c.hoist = n;
        }
        int ndyn = 0;
        for (int i = 0; i < c.nhoist; i++)
            ndyn += c.hoist[i]->kind == TR_SYM_DYN_SHARED;
        if (ndyn > 1)
            tr_diag_add(
                c.u, true, f->file, f->line, 0, "extern __shared__",
                "kernel %s uses %d extern __shared__ arrays (here or in the functions it "
                "calls); CUDA overlays them on one block, the dialect has one dynamic block "
                "per kernel: declare one and cast it",
                f->name, ndyn);
    }
    for (int i = 0; i < f->nparams; i++) {
        const char *why = NULL;
        tr_sym *p = f->params[i];
        if (!map_base(p->type.base, &why))
            tr_diag_add(c.u, true, p->file, p->line, p->col, p->type.base, "parameter %s: %s",
                        p->name, why);
        else if (c.kernel && !p->type.nptr && !strcmp(p->type.base, "size_t"))
            tr_diag_add(
                c.u, true, p->file, p->line, p->col, "size_t parameter",
                "parameter %s: size_t differs in size between hosts and OpenCL devices; use "
                "uint64_t or int",
                p->name);
    }
    if (f->ret.nptr)
        tr_diag_add(c.u, true, f->file, f->line, 0, "pointer return",
                    "%s returns a pointer: its address space would depend on the caller; return an "
                    "index instead",
                    f->name);
    /* print */
    gp_strbuf sb = GP_STRBUF_INIT;
    gp_strbuf_printf(&sb, "/* %s:%d */\n", c.u->pp.files[f->file], f->line);
    if (c.kernel) {
        emit_signature_kernel(&c, &sb);
        gp_strbuf_puts(&sb, "{\n");
        emit_kernel_shared(&c, &sb, f->body);
        for (int i = 0; i < c.nhoist; i++) {
            tr_sym *s = c.hoist[i];
            if (s->kind != TR_SYM_SHARED || s->owner == f) continue;
            indent(&sb, 1);
            gp_strbuf_puts(&sb, "GP_SHARED_DECL ");
            const char *why = NULL;
            const char *b = map_base(s->type.base, &why);
            gp_strbuf_printf(&sb, "%s %s_%s", b ? b : s->type.base, s->owner->name, s->name);
            for (int d = 0; d < s->ndims; d++) {
                gp_strbuf_putc(&sb, '[');
                if (s->dims[d]) {
                    lctx oc = c;
                    oc.f = s->owner;
                    emit_expr(&oc, &sb, s->dims[d], 1);
                }
                gp_strbuf_putc(&sb, ']');
            }
            gp_strbuf_puts(&sb, ";\n");
        }
    } else {
        emit_signature_helper(&c, &sb);
        gp_strbuf_puts(&sb, "{\n");
    }
    for (int i = 0; i < f->nparams; i++) /* value parameters the body assigns: copied on entry */
        if (c.kernel && f->params[i]->assigned) {
            tr_sym *p = f->params[i];
            const char *why = NULL;
            indent(&sb, 1);
            gp_strbuf_printf(&sb, "%s %s = %s_in;\n", map_base(p->type.base, &why), p->name,
                             p->name);
        }
    for (int i = 0; i < f->body->n; i++)
        emit_stmt(&c, &sb, f->body->list[i], 1);
    gp_strbuf_puts(&sb, "}\n\n");
    if (c.kernel) {
        tr_kernel_info_set_text(c.info, gp_strbuf_cstr(&sb));
    } else {
        gp_strbuf_append(c.helpers, sb.data ? sb.data : "", sb.len);
    }
    gp_strbuf_free(&sb);
    f->visiting = false;
}

void tr_lower_kernel(tr_unit *u, const tr_lower_options *opt, tr_func *kernel, gp_strbuf *helpers,
                     tr_kernel_info *info)
{
    lctx c = {0};
    c.u = u;
    c.opt = opt;
    c.helpers = helpers;
    c.info = info;
    lower_function(&c, kernel, NULL);
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
    infer_expr(&c, init);
    gp_strbuf_puts(out, "GP_CONSTANT_DECL ");
    tr_sym copy = *s;
    copy.kind = TR_SYM_LOCAL;
    copy.type.is_const = false; /* GP_CONSTANT_DECL says const already */
    emit_decl(&c, out, &copy, init);
    gp_strbuf_putc(out, '\n');
}

/* Words that are keywords or reserved in OpenCL C, the Metal Shading Language (C++14) or the
 * dialect (gp_, GP_): a CUDA identifier spelled like one gets a trailing '_' in the output. */
static const char *const reserved_words[] = {
    "global",    "local",     "constant",      "private",    "kernel",  "device",   "threadgroup",
    "thread",    "read_only", "write_only",    "read_write", "half",    "uint",     "uchar",
    "ushort",    "ulong",     "int2",          "int4",       "float2",  "float4",   "image1d_t",
    "image2d_t", "image3d_t", "sampler_t",     "event_t",    "texture", "sampler",  "class",
    "namespace", "template",  "typename",      "this",       "new",     "delete",   "operator",
    "using",     "public",    "protected",     "virtual",    "friend",  "mutable",  "explicit",
    "export",    "typeid",    "try",           "catch",      "throw",   "and",      "or",
    "not",       "xor",       "bitand",        "bitor",      "compl",   "and_eq",   "or_eq",
    "xor_eq",    "not_eq",    "static_assert", "alignas",    "alignof", "decltype", "noexcept",
    "nullptr",   "constexpr", "thread_local",  "metal",      "vertex",  "fragment", "visible",
    "patch",
};

static void rename_one(tr_unit *u, char **name, int file, int line, const char *what)
{
    bool clash = !strncmp(*name, "gp_", 3) || !strncmp(*name, "GP_", 3);
    for (size_t i = 0; !clash && i < sizeof reserved_words / sizeof *reserved_words; i++)
        clash = !strcmp(*name, reserved_words[i]);
    if (!clash) return;
    size_t n = strlen(*name);
    char *out = tr_alloc(u, n + 2);
    memcpy(out, *name, n);
    out[n] = '_';
    tr_diag_add(u, false, file, line, 0, "renamed",
                "%s '%s' is a reserved word in OpenCL C, Metal or the dialect: it is '%s' in the "
                "output%s",
                what, *name, out,
                !strcmp(what, "kernel") ? " (the host looks the kernel up by this name)" : "");
    *name = out;
}

void tr_rename_reserved(tr_unit *u)
{
    for (int i = 0; i < u->nconstants; i++)
        rename_one(u, &u->constants[i]->name, u->constants[i]->file, u->constants[i]->line, "name");
    for (int i = 0; i < u->nfuncs; i++) {
        tr_func *f = u->funcs[i];
        rename_one(u, &f->name, f->file, f->line, f->kind == TR_F_GLOBAL ? "kernel" : "function");
        for (int p = 0; p < f->nparams; p++)
            rename_one(u, &f->params[p]->name, f->params[p]->file, f->params[p]->line, "parameter");
        tr_sym **locals = NULL;
        int n = 0;
        collect_locals(f->body, &locals, &n, u);
        for (int k = 0; k < n; k++)
            rename_one(u, &locals[k]->name, locals[k]->file, locals[k]->line, "variable");
    }
}

const char *tr_space_name(tr_space sp)
{
    return space_name[sp];
}
