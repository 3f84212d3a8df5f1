/* vectors.c — CUDA's vector types (char2 ... double4) in the dialect: which type holds each, and
 * what type its components are. A 3-component value is held in the 4-component type (w unused):
 * exact for values, which have no layout; in memory the host's 12-byte elements would not match
 * (refused there). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "translate/lower_impl.h"
#include "translate/map.h"

typedef struct vec_family {
    const char *cuda;    /* the prefix CUDA spells */
    const char *dialect; /* gp_<this><n> */
    const char *elem;    /* the component type in the output */
    tr_vt vt;            /* a component's value type, after C's promotions */
} vec_family;

static const vec_family families[] = {
    {"char", "char", "int8_t", TR_VT_INT},
    {"uchar", "uchar", "uint8_t", TR_VT_INT},
    {"short", "short", "int16_t", TR_VT_INT},
    {"ushort", "ushort", "uint16_t", TR_VT_INT},
    {"int", "int", "int", TR_VT_INT},
    {"uint", "uint", "uint32_t", TR_VT_UINT},
    /* long is 64 bits where CUDA runs (LP64 Linux), as the scalar mapping assumes */
    {"long", "long", "int64_t", TR_VT_LONG},
    {"ulong", "ulong", "uint64_t", TR_VT_ULONG},
    {"longlong", "long", "int64_t", TR_VT_LONG},
    {"ulonglong", "ulong", "uint64_t", TR_VT_ULONG},
    {"float", "float", "float", TR_VT_FLOAT},
    {"double", "double", "double", TR_VT_DOUBLE},
};

static const vec_family *family_of(const char *cuda, int *n)
{
    if (!cuda) return NULL;
    size_t len = strlen(cuda);
    if (len < 2 || cuda[len - 1] < '2' || cuda[len - 1] > '4') return NULL;
    for (size_t i = 0; i < sizeof families / sizeof *families; i++)
        if (strlen(families[i].cuda) == len - 1 && !strncmp(cuda, families[i].cuda, len - 1)) {
            if (n) *n = cuda[len - 1] - '0';
            return &families[i];
        }
    return NULL;
}

/* CUDA's __half2 (half2): two halves' bits in the dialect's gp_half2 (4 bytes, as CUDA's) */
static bool is_half2(const char *cuda)
{
    return cuda && (!strcmp(cuda, "__half2") || !strcmp(cuda, "half2"));
}

const char *tr_vector_type(const char *cuda, int *n, const char **elem)
{
    if (is_half2(cuda)) {
        if (n) *n = 2;
        if (elem) *elem = "gp_half";
        return "gp_half2";
    }
    int k = 0;
    const vec_family *f = family_of(cuda, &k);
    if (!f) return NULL;
    static const char *const names[][2] = {
        {"gp_char2", "gp_char4"},     {"gp_uchar2", "gp_uchar4"}, {"gp_short2", "gp_short4"},
        {"gp_ushort2", "gp_ushort4"}, {"gp_int2", "gp_int4"},     {"gp_uint2", "gp_uint4"},
        {"gp_long2", "gp_long4"},     {"gp_ulong2", "gp_ulong4"}, {"gp_long2", "gp_long4"},
        {"gp_ulong2", "gp_ulong4"},   {"gp_float2", "gp_float4"}, {"gp_double2", "gp_double4"},
    };
    if (n) *n = k;
    if (elem) *elem = f->elem;
    return names[f - families][k == 2 ? 0 : 1];
}

tr_vt tl_vector_elem_vt(const char *cuda)
{
    if (is_half2(cuda)) return TR_VT_HALF;
    const vec_family *f = family_of(cuda, NULL);
    return f ? f->vt : TR_VT_UNKNOWN;
}

const char *tl_packed3(const char *cuda)
{
    int n = 0;
    const char *out = tr_vector_type(cuda, &n, NULL);
    if (!out || n != 3) return NULL;
    static const char *const kinds[][2] = {
        {"gp_float4", "float"}, {"gp_int4", "int"}, {"gp_uint4", "uint"}, {"gp_uchar4", "uchar"}};
    for (size_t i = 0; i < sizeof kinds / sizeof *kinds; i++)
        if (!strcmp(out, kinds[i][0])) return kinds[i][1];
    return NULL;
}

bool tl_is_vec3(const char *cuda)
{
    int n = 0;
    return tr_vector_type(cuda, &n, NULL) && n == 3;
}

/* ---- operators on vector types ----------------------------------------------------------------
 * CUDA has no arithmetic on its vector types; code that has it defines operator functions (as
 * the samples' helper_math.h does). Each becomes a function named operator_<op>, renamed by its
 * parameter types as overloads are (overload.c), and each use of the operator on a vector value a
 * call of the overload its operands choose. */
static const char *const op_names[][2] = {
    {"+", "add"},         {"-", "sub"},         {"*", "mul"},          {"/", "div"},
    {"%", "mod"},         {"^", "xor"},         {"&", "and"},          {"|", "or"},
    {"<<", "shl"},        {">>", "shr"},        {"==", "eq"},          {"!=", "ne"},
    {"<", "lt"},          {">", "gt"},          {"<=", "le"},          {">=", "ge"},
    {"!", "not"},         {"~", "compl"},       {"+=", "add_assign"},  {"-=", "sub_assign"},
    {"*=", "mul_assign"}, {"/=", "div_assign"}, {"%=", "mod_assign"},  {"^=", "xor_assign"},
    {"&=", "and_assign"}, {"|=", "or_assign"},  {"<<=", "shl_assign"}, {">>=", "shr_assign"},
};

const char *tr_operator_suffix(const char *op)
{
    for (size_t i = 0; i < sizeof op_names / sizeof *op_names; i++)
        if (!strcmp(op_names[i][0], op)) return op_names[i][1];
    return NULL;
}

bool tl_vector_operator(lctx *c, tr_expr *e)
{
    const char *suffix = tr_operator_suffix(e->text);
    bool unary = e->kind == TR_E_UNARY;
    if (unary && strcmp(e->text, "-") && strcmp(e->text, "+") && strcmp(e->text, "!") &&
        strcmp(e->text, "~"))
        suffix = NULL; /* & and * are C's own; ++ and -- are not translated */
    char name[64];
    snprintf(name, sizeof name, "operator_%s", suffix ? suffix : "");
    /* an overload of that operator the operands can go to (the exact one is chosen in the call) */
    bool defined = false;
    int n = unary ? 1 : 2;
    for (int i = 0; suffix && i < c->u->nfuncs && !defined; i++) {
        const tr_func *f = c->u->funcs[i];
        if (strcmp(f->src_name ? f->src_name : f->name, name) || f->nparams != n) continue;
        defined = f->refused || (tl_operator_arg_fits(f->params[0], e->a) &&
                                 (unary || tl_operator_arg_fits(f->params[1], e->b)));
    }
    if (!defined) {
        char what[160];
        const char *sa = tl_struct_value(c, e->a), *sb = unary ? NULL : tl_struct_value(c, e->b);
        const char *x = sa                                   ? sa
                        : e->a->vt == TR_VT_VEC && e->a->vec ? e->a->vec
                        : e->a->vt == TR_VT_VEC              ? "vector"
                                                             : "scalar";
        const char *y = unary                                ? ""
                        : sb                                 ? sb
                        : e->b->vt == TR_VT_VEC && e->b->vec ? e->b->vec
                        : e->b->vt == TR_VT_VEC              ? "vector"
                                                             : "scalar";
        snprintf(what, sizeof what, "%s%s%s", x, unary ? "" : " and ", y);
        if (sa || sb)
            tl_refuse(c, e, "struct operator",
                      "'%s' on %s: C has no operators on structs, and this file defines no "
                      "operator%s for %s",
                      e->text, what, e->text, what);
        else
            tl_refuse(c, e, "vector operator",
                      "'%s' on %s: CUDA has no operators on vector types, and this file defines "
                      "no operator%s for %s%s%s%s",
                      e->text, what, e->text, what, c->u->pp.missing ? " (it may come from \"" : "",
                      c->u->pp.missing ? c->u->pp.missing : "",
                      c->u->pp.missing ? "\", which was not found: give -I DIR)" : "");
        return true;
    }
    tr_expr *fn = tr_alloc(c->u, sizeof *fn);
    *fn = (tr_expr){.kind = TR_E_IDENT,
                    .file = e->file,
                    .line = e->line,
                    .col = e->col,
                    .text = tr_strdup(c->u, name)};
    tr_expr **args = tr_alloc(c->u, (size_t)n * sizeof *args);
    args[0] = e->a;
    if (!unary) args[1] = e->b;
    e->kind = TR_E_CALL;
    e->a = fn;
    e->b = NULL;
    e->args = args;
    e->nargs = n;
    tl_infer_call(c, e);
    return true;
}

/* Whether argument a may go to parameter p of an operator function when no overload takes the
 * argument types exactly: vectors of the same type, or arithmetic scalars (converted on the
 * call, as C++ converts them for the one overload that takes them). */
bool tl_operator_arg_fits(const tr_sym *p, const tr_expr *a)
{
    if (p->type.nptr && !p->ref) return false;
    if (p->type.base && !strncmp(p->type.base, "struct ", 7)) { /* the same struct */
        const char *b = a->kind == TR_E_IDENT && a->sym && !a->sym->type.nptr && !a->sym->ndims
                            ? a->sym->type.base
                        : a->vt == TR_VT_UNKNOWN ? a->elem
                                                 : NULL;
        return b && !strcmp(b, p->type.base);
    }
    tr_vt v = tl_base_vt(p->type.base);
    if (v == TR_VT_VEC) return a->vt == TR_VT_VEC && a->vec && !strcmp(a->vec, p->type.base);
    bool scalar = v == TR_VT_INT || v == TR_VT_UINT || v == TR_VT_LONG || v == TR_VT_ULONG ||
                  v == TR_VT_FLOAT || v == TR_VT_DOUBLE;
    bool arg = a->vt == TR_VT_BOOL || a->vt == TR_VT_INT || a->vt == TR_VT_UINT ||
               a->vt == TR_VT_LONG || a->vt == TR_VT_ULONG || a->vt == TR_VT_FLOAT ||
               a->vt == TR_VT_DOUBLE;
    return scalar && arg && !p->ref;
}

long long tr_type_size(const char *b)
{
    static const struct {
        const char *name;
        int size;
    } sizes[] = {
        {"char", 1},
        {"signed char", 1},
        {"unsigned char", 1},
        {"bool", 1},
        {"int8_t", 1},
        {"uint8_t", 1},
        {"short", 2},
        {"unsigned short", 2},
        {"int16_t", 2},
        {"uint16_t", 2},
        {"__half", 2},
        {"half", 2},
        {"__nv_bfloat16", 2},
        {"nv_bfloat16", 2},
        {"int", 4},
        {"unsigned int", 4},
        {"unsigned", 4},
        {"int32_t", 4},
        {"uint32_t", 4},
        {"float", 4},
        {"long", 8},
        {"unsigned long", 8},
        {"long long", 8},
        {"int64_t", 8},
        {"uint64_t", 8},
        {"unsigned long long", 8},
        {"size_t", 8},
        {"double", 8},
        {"__half2", 4},
        {"half2", 4},
        {"__nv_bfloat162", 4},
    };
    if (!b) return 0;
    for (size_t i = 0; i < sizeof sizes / sizeof *sizes; i++)
        if (!strcmp(b, sizes[i].name)) return sizes[i].size;
    int n = 0;
    const char *elem = NULL;
    if (!tr_vector_type(b, &n, &elem)) return 0;
    /* a vector: its components (float3 is 12 bytes in CUDA; its elem is the output's name) */
    static const struct {
        const char *name;
        int size;
    } elems[] = {{"int8_t", 1},   {"uint8_t", 1}, {"int16_t", 2},  {"uint16_t", 2}, {"int", 4},
                 {"uint32_t", 4}, {"int64_t", 8}, {"uint64_t", 8}, {"float", 4},    {"double", 8}};
    for (size_t i = 0; i < sizeof elems / sizeof *elems; i++)
        if (!strcmp(elem, elems[i].name)) return (long long)n * elems[i].size;
    return 0;
}
