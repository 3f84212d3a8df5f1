/* stdlib.c — the parts of the C++ standard library CUDA kernels use as constants, read at parse
 * time once template arguments are in place: std::numeric_limits<T>::max() and its siblings
 * become the type's constant, std::is_same<A, B>::value and std::is_same_v<A, B> become 1 or 0.
 * Two names of one type are one type (typedefs, `unsigned` and `unsigned int`, int32_t and int),
 * as on the LP64 targets CUDA code is written for. */
#include <stdio.h>
#include <string.h>

#include "translate/parser.h"

/* The C++ type a name stands for on the targets CUDA code is written for (Linux, LP64): two
 * names of one type are one type (int32_t is int), two types of one size are not (long is not
 * long long, as std::is_same says). */
void tp_canon_type(parser *p, const char *text, char *out, size_t cap)
{
    char w[160];
    snprintf(w, sizeof w, "%s", text);
    for (int round = 0; round < 4; round++) {
        const tr_type *a = tp_alias_type(p, w);
        if (!a || !a->base || a->nptr || !strcmp(a->base, w)) break;
        snprintf(w, sizeof w, "%s", a->base);
    }
    const char *std = tp_std_typedef(w); /* uint, u_int32_t, intptr_t... */
    if (std) snprintf(w, sizeof w, "%s", std);
    static const char *const same[][2] = {
        {"unsigned", "unsigned int"},
        {"signed", "int"},
        {"signed int", "int"},
        {"long int", "long"},
        {"signed long", "long"},
        {"long long int", "long long"},
        {"signed long long", "long long"},
        {"unsigned long int", "unsigned long"},
        {"unsigned long long int", "unsigned long long"},
        {"short int", "short"},
        {"signed short", "short"},
        {"unsigned short int", "unsigned short"},
        {"int8_t", "signed char"},
        {"uint8_t", "unsigned char"},
        {"int16_t", "short"},
        {"uint16_t", "unsigned short"},
        {"int32_t", "int"},
        {"uint32_t", "unsigned int"},
        {"int64_t", "long"},
        {"uint64_t", "unsigned long"},
        {"size_t", "unsigned long"},
        {"ptrdiff_t", "long"},
        {"_Bool", "bool"},
        {"half", "__half"},
        {"gp_half", "__half"},
        {"nv_bfloat16", "__nv_bfloat16"},
        {"gp_bf16", "__nv_bfloat16"},
        {"struct", ""},
    };
    for (size_t i = 0; i < sizeof same / sizeof *same; i++)
        if (!strcmp(w, same[i][0])) snprintf(w, sizeof w, "%s", same[i][1]);
    if (!strncmp(w, "struct ", 7)) memmove(w, w + 7, strlen(w + 7) + 1);
    snprintf(out, cap, "%s", w);
}

/* The type spelled by tokens [b, e) of p->t, canonical (tp_canon_type); false when it is not a
 * type of words alone. */
static bool canon_type(parser *p, size_t b, size_t e, char *out, size_t cap)
{
    char w[160] = "";
    size_t k = 0;
    for (size_t i = b; i < e; i++) {
        const tr_token *t = &p->t[i];
        if (t->kind == TR_PUNCT && !strcmp(t->text, "::") && i > b &&
            !strcmp(p->t[i - 1].text, "std"))
            continue;
        if (t->kind != TR_IDENT) return false;
        if (!strcmp(t->text, "const") || !strcmp(t->text, "volatile")) continue;
        if (!strcmp(t->text, "std") && i + 1 < e && !strcmp(p->t[i + 1].text, "::")) continue;
        int n = snprintf(w + k, sizeof w - k, "%s%s", k ? " " : "", t->text);
        if (n < 0 || (size_t)n >= sizeof w - k) return false;
        k += (size_t)n;
    }
    if (!k) return false;
    tp_canon_type(p, w, out, cap);
    return true;
}

/* The end of the `<...>` list that starts at p->t[at] ('<'): the index of its '>' (0: none).
 * *comma gets the first top-level comma (0: none). */
static size_t angle_end(parser *p, size_t at, size_t *comma)
{
    int d = 0;
    *comma = 0;
    for (size_t i = at + 1; i < p->end; i++) {
        const char *s = p->t[i].text;
        if (p->t[i].kind != TR_PUNCT) continue;
        if (!strcmp(s, "<") || !strcmp(s, "(")) d++;
        if (!strcmp(s, ")")) d--;
        if (!strcmp(s, ">") && d-- == 0) return i;
        if (!strcmp(s, ",") && d == 0 && !*comma) *comma = i;
        if (!strcmp(s, ";") || !strcmp(s, "{")) return 0;
    }
    return 0;
}

typedef struct limits_row {
    const char *type;
    const char *max, *min, *lowest, *epsilon, *infinity, *nan;
} limits_row;

static const limits_row kLimits[] = {
    {"float", "3.402823466e+38f", "1.175494351e-38f", "(-3.402823466e+38f)", "1.192092896e-07f",
     "(1.0f / 0.0f)", "(0.0f / 0.0f)"},
    {"double", "1.7976931348623158e+308", "2.2250738585072014e-308", "(-1.7976931348623158e+308)",
     "2.2204460492503131e-16", "(1.0 / 0.0)", "(0.0 / 0.0)"},
    {"int", "2147483647", "(-2147483647 - 1)", "(-2147483647 - 1)", "0", "0", "0"},
    {"unsigned int", "4294967295u", "0u", "0u", "0u", "0u", "0u"},
    {"long", "9223372036854775807ll", "(-9223372036854775807ll - 1)",
     "(-9223372036854775807ll - 1)", "0", "0", "0"},
    {"long long", "9223372036854775807ll", "(-9223372036854775807ll - 1)",
     "(-9223372036854775807ll - 1)", "0", "0", "0"},
    {"unsigned long", "18446744073709551615ull", "0ull", "0ull", "0ull", "0ull", "0ull"},
    {"unsigned long long", "18446744073709551615ull", "0ull", "0ull", "0ull", "0ull", "0ull"},
    {"short", "32767", "(-32767 - 1)", "(-32767 - 1)", "0", "0", "0"},
    {"unsigned short", "65535", "0", "0", "0", "0", "0"},
    {"char", "127", "(-127 - 1)", "(-127 - 1)", "0", "0", "0"},
    {"signed char", "127", "(-127 - 1)", "(-127 - 1)", "0", "0", "0"},
    {"unsigned char", "255", "0", "0", "0", "0", "0"},
    {"bool", "1", "0", "0", "0", "0", "0"},
};

/* At `numeric_limits` (after std::): `numeric_limits<T>::fn()` as T's constant. */
static tr_expr *numeric_limits(parser *p)
{
    const tr_token *at = tp_cur(p);
    size_t comma, close = tp_is_at(p, 1, "<") ? angle_end(p, p->i + 1, &comma) : 0;
    if (!close || comma || close + 4 >= p->end || strcmp(p->t[close + 1].text, "::") ||
        p->t[close + 2].kind != TR_IDENT || strcmp(p->t[close + 3].text, "(") ||
        strcmp(p->t[close + 4].text, ")"))
        tp_bail(p, "C++",
                "std::numeric_limits is translated as numeric_limits<T>::max(), min(), "
                "lowest(), epsilon(), infinity() or quiet_NaN()");
    char type[160];
    if (!canon_type(p, p->i + 2, close, type, sizeof type))
        tp_bail(p, "C++", "std::numeric_limits of a type the translation cannot read");
    const char *fn = p->t[close + 2].text;
    for (size_t r = 0; r < sizeof kLimits / sizeof *kLimits; r++) {
        const limits_row *row = &kLimits[r];
        if (strcmp(row->type, type)) continue;
        const char *v = !strcmp(fn, "max")         ? row->max
                        : !strcmp(fn, "min")       ? row->min
                        : !strcmp(fn, "lowest")    ? row->lowest
                        : !strcmp(fn, "epsilon")   ? row->epsilon
                        : !strcmp(fn, "infinity")  ? row->infinity
                        : !strcmp(fn, "quiet_NaN") ? row->nan
                                                   : NULL;
        if (!v)
            tp_bail(p, "C++",
                    "std::numeric_limits<%s>::%s is not translated (max, min, lowest, "
                    "epsilon, infinity and quiet_NaN are)",
                    type, fn);
        p->i = close + 5;
        return tp_mk_num(p, at, v);
    }
    tp_bail(p, "C++", "std::numeric_limits<%s> is not translated (only for arithmetic types)",
            type);
    return NULL;
}

/* At `is_same` or `is_same_v` (after std::): 1 when the two types are one, else 0. */
static tr_expr *is_same(parser *p)
{
    const tr_token *at = tp_cur(p);
    bool v = !strcmp(at->text, "is_same_v");
    size_t comma, close = tp_is_at(p, 1, "<") ? angle_end(p, p->i + 1, &comma) : 0;
    if (!close || !comma) tp_bail(p, "C++", "std::%s needs two types", at->text);
    size_t after = close + 1;
    if (!v) { /* is_same<A, B>::value */
        if (after + 1 >= p->end || strcmp(p->t[after].text, "::") ||
            strcmp(p->t[after + 1].text, "value"))
            tp_bail(p, "C++", "std::is_same is translated as std::is_same<A, B>::value");
        after += 2;
    }
    char a[160], b[160];
    if (!canon_type(p, p->i + 2, comma, a, sizeof a) ||
        !canon_type(p, comma + 1, close, b, sizeof b))
        tp_bail(p, "C++", "std::%s of a type the translation cannot read", at->text);
    p->i = after;
    return tp_mk_num(p, at, strcmp(a, b) ? "0" : "1");
}

tr_expr *tp_std_constant(parser *p)
{
    const char *w = tp_cur(p)->text;
    if (!strcmp(w, "numeric_limits")) return numeric_limits(p);
    if (!strcmp(w, "is_same") || !strcmp(w, "is_same_v")) return is_same(p);
    return NULL;
}

/* x names an array (a local or parameter array, or an array field): &x is its first element's
 * address, as far as copying bytes goes. */
static bool names_array(parser *p, const tr_expr *x)
{
    if (x->kind == TR_E_IDENT) return x->sym && x->sym->ndims > 0;
    if (x->kind != TR_E_MEMBER) return false;
    char base[160];
    int nptr;
    if (!tp_guess_type(p, x->a, base, sizeof base, &nptr) || strncmp(base, "struct ", 7))
        return false;
    const tr_struct *st = tp_find_struct(p->u, base + 7);
    for (int f = 0; st && f < st->nfields; f++)
        if (!strcmp(st->fields[f].name, x->name)) return st->fields[f].dims[0] != NULL;
    return false;
}

tr_expr *tp_memcpy_call(parser *p, tr_expr *call)
{
    if (call->a->kind != TR_E_IDENT || call->a->sym || strcmp(call->a->text, "memcpy") ||
        call->nargs != 3)
        return call;
    for (int i = 0; i < p->u->nfuncs; i++)
        if (!strcmp(p->u->funcs[i]->name, "memcpy")) return call; /* the file's own */
    const tr_token *at = &(tr_token){TR_IDENT, "", call->file, call->line, call->col, false};
    tp_make_item(p, "memcpy_bytes",
                 "__device__ void memcpy_bytes(unsigned char *dst, const unsigned char *src, "
                 "unsigned long long n)\n{\n    for (unsigned long long i = 0; i < n; i++)\n"
                 "        dst[i] = src[i];\n}\n",
                 at);
    tr_expr *args[3];
    for (int i = 0; i < 2; i++) {
        tr_expr *a = call->args[i];
        if (a->kind == TR_E_UNARY && !strcmp(a->text, "&") && names_array(p, a->a)) a = a->a;
        tr_expr *c = tp_new_expr(p, TR_E_CAST, at);
        tr_type *ty = tr_alloc(p->u, sizeof *ty);
        ty->base = tr_strdup(p->u, "unsigned char");
        ty->nptr = 1;
        ty->is_const = i == 1;
        c->type = ty;
        c->a = a;
        c->file = a->file, c->line = a->line, c->col = a->col;
        args[i] = c;
    }
    args[2] = call->args[2];
    tr_expr *e = tp_mk_call(p, at, "memcpy_bytes", 3, args);
    e->origin = "memcpy";
    return e;
}
