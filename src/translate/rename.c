/* rename.c — identifiers that are reserved words on some target get a trailing '_'. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "translate/lower_impl.h"
#include "translate/map.h"

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

/* Built-in functions of OpenCL C or Metal that CUDA code often defines for itself (CUDA has none of
 * them; helper_math.h defines clamp, lerp-like mix, dot, length...): a device function of that
 * name would clash with the built-in overloads there. */
static const char *const builtin_functions[] = {
    "clamp",    "mix",   "step",     "smoothstep", "sign",        "degrees",        "radians",
    "dot",      "cross", "length",   "normalize",  "distance",    "select",         "mad",
    "rotate",   "fract", "saturate", "rint",       "popcount",    "mad24",          "mul24",
    "upsample", "hadd",  "rhadd",    "bitselect",  "fast_length", "fast_normalize",
};

/* The C math functions the output calls by these names (the dialect's `roundf(x)` is `round(x)`
 * on OpenCL and Metal, `sqrt` is called as is): a variable or parameter spelled like one would
 * hide the function in its scope (resize's `bool round` with roundf in the kernel). */
static const char *const math_functions[] = {
    "acos",     "acosh",     "asin",     "asinh",     "atan",   "atan2", "atanh", "cbrt",  "ceil",
    "copysign", "cos",       "cosh",     "erf",       "erfc",   "exp",   "exp2",  "exp10", "expm1",
    "fabs",     "fdim",      "floor",    "fma",       "fmax",   "fmin",  "fmod",  "frexp", "hypot",
    "ilogb",    "ldexp",     "lgamma",   "log",       "log10",  "log1p", "log2",  "logb",  "modf",
    "nan",      "nextafter", "pow",      "remainder", "rint",   "round", "rsqrt", "sin",   "sincos",
    "sinh",     "sqrt",      "tan",      "tanh",      "tgamma", "trunc", "min",   "max",   "abs",
    "isnan",    "isinf",     "isfinite", "signbit",
};

static bool rename_one(tr_unit *u, char **name, int file, int line, const char *what)
{
    bool clash = !strncmp(*name, "gp_", 3) || !strncmp(*name, "GP_", 3);
    for (size_t i = 0; !clash && i < sizeof reserved_words / sizeof *reserved_words; i++)
        clash = (*name)[0] == reserved_words[i][0] && !strcmp(*name, reserved_words[i]);
    /* a kernel too: OpenCL's `kernel void rotate(...)` became one of the built-in's overloads,
     * which the host could not look up by its name */
    bool fn = !strcmp(what, "function"), callable = fn || !strcmp(what, "kernel");
    for (size_t i = 0;
         callable && !clash && i < sizeof builtin_functions / sizeof *builtin_functions; i++)
        clash = (*name)[0] == builtin_functions[i][0] && !strcmp(*name, builtin_functions[i]);
    /* OpenCL C's conversions and reinterpretations: convert_float4, as_uint (sobel's own
     * convert_float4 clashed with PoCL's); its native_ and half_ math (a tridiagonal solver's
     * own native_divide on float4 clashed with PoCL's macro) */
    if (fn && !clash)
        clash = !strncmp(*name, "convert_", 8) || !strncmp(*name, "as_", 3) ||
                !strncmp(*name, "native_", 7) || !strncmp(*name, "half_", 5);
    bool math = false;
    for (size_t i = 0; !fn && !clash && i < sizeof math_functions / sizeof *math_functions; i++)
        math = clash = (*name)[0] == math_functions[i][0] && !strcmp(*name, math_functions[i]);
    if (!clash) return false;
    size_t n = strlen(*name);
    char *out = tr_alloc(u, n + 2);
    memcpy(out, *name, n);
    out[n] = '_';
    tr_diag_add(u, false, file, line, 0, "renamed",
                "%s '%s' is a %s in OpenCL C, Metal or the dialect: it is '%s' in the output%s",
                what, *name,
                callable ? "reserved word or a built-in function"
                : math   ? "math function the output may call"
                         : "reserved word",
                out, !strcmp(what, "kernel") ? " (the host looks the kernel up by this name)" : "");
    *name = out;
    return true;
}

/* Calls name functions by their text: renamed functions are renamed there too. */
static void rename_calls(tr_expr *e, const char *from, const char *to)
{
    if (!e) return;
    if (e->kind == TR_E_CALL && e->a && e->a->kind == TR_E_IDENT && !e->a->sym &&
        !strcmp(e->a->text, from))
        e->a->text = (char *)to;
    rename_calls(e->a, from, to);
    rename_calls(e->b, from, to);
    rename_calls(e->c, from, to);
    for (int i = 0; i < e->nargs; i++)
        rename_calls(e->args[i], from, to);
}

static void rename_calls_stmt(tr_stmt *s, const char *from, const char *to)
{
    if (!s) return;
    rename_calls(s->e, from, to);
    rename_calls(s->cond, from, to);
    rename_calls(s->step, from, to);
    for (int i = 0; i < s->ndecls; i++)
        rename_calls(s->decls[i].init, from, to);
    rename_calls_stmt(s->init, from, to);
    rename_calls_stmt(s->body, from, to);
    rename_calls_stmt(s->els, from, to);
    for (int i = 0; i < s->n; i++)
        rename_calls_stmt(s->list[i], from, to);
}

void tr_rename_reserved(tr_unit *u)
{
    for (int i = 0; i < u->nconstants; i++)
        rename_one(u, &u->constants[i]->name, u->constants[i]->file, u->constants[i]->line, "name");
    for (int i = 0; i < u->nglobals; i++)
        rename_one(u, &u->globals[i]->name, u->globals[i]->file, u->globals[i]->line, "name");
    for (int i = 0; i < u->nfuncs; i++) {
        tr_func *f = u->funcs[i];
        char *old = f->name;
        if (rename_one(u, &f->name, f->file, f->line,
                       f->kind == TR_F_GLOBAL ? "kernel" : "function"))
            for (int j = 0; j < u->nfuncs; j++)
                rename_calls_stmt(u->funcs[j]->body, old, f->name);
        for (int p = 0; p < f->nparams; p++)
            rename_one(u, &f->params[p]->name, f->params[p]->file, f->params[p]->line, "parameter");
        tr_sym **locals = NULL;
        int n = 0;
        tl_collect_locals(f->body, &locals, &n, u);
        for (int k = 0; k < n; k++)
            rename_one(u, &locals[k]->name, locals[k]->file, locals[k]->line, "variable");
    }
}

/* A type name the file declares that OpenCL C or Metal declares too: vector types CUDA lacks
 * (int8, double16, half3, bool2), Metal's matrices (float4x4) and packed vectors (packed_float3),
 * and the reserved words that are not also CUDA types. */
static bool target_type_name(const char *w)
{
    static const char *const bases[] = {"char", "uchar", "short", "ushort", "int",  "uint",
                                        "long", "ulong", "float", "double", "half", "bool"};
    const char *rest = w;
    if (!strncmp(rest, "packed_", 7)) rest += 7;
    for (size_t b = 0; b < sizeof bases / sizeof *bases; b++) {
        size_t n = strlen(bases[b]);
        if (strncmp(rest, bases[b], n)) continue;
        const char *d = rest + n;
        if (!strcmp(d, "8") || !strcmp(d, "16")) return rest == w;
        bool small = (d[0] == '2' || d[0] == '3' || d[0] == '4');
        if (small && !d[1]) /* CUDA has the other *2..*4 types itself (half2 in cuda_fp16.h) */
            return rest != w || !strcmp(bases[b], "bool") ||
                   (!strcmp(bases[b], "half") && d[0] != '2');
        if (small && d[1] == 'x' && (d[2] == '2' || d[2] == '3' || d[2] == '4') && !d[3])
            return rest == w && (!strcmp(bases[b], "float") || !strcmp(bases[b], "half") ||
                                 !strcmp(bases[b], "double"));
    }
    static const char *const cuda_types[] = {"half", "uint", "uchar",  "ushort", "ulong",
                                             "int2", "int4", "float2", "float4", "texture"};
    for (size_t i = 0; i < sizeof cuda_types / sizeof *cuda_types; i++)
        if (!strcmp(w, cuda_types[i])) return false;
    for (size_t i = 0; i < sizeof reserved_words / sizeof *reserved_words; i++)
        if (!strcmp(w, reserved_words[i])) return true;
    return false;
}

/* The token of the name a `typedef ... NAME;` or `using NAME = ...;` at i declares, or n. */
static size_t declared_type_at(const tr_token *t, size_t n, size_t i)
{
    if (t[i].kind != TR_IDENT) return n;
    if (!strcmp(t[i].text, "using"))
        return i + 2 < n && t[i + 1].kind == TR_IDENT && !strcmp(t[i + 2].text, "=") ? i + 1 : n;
    if (!strcmp(t[i].text, "struct") || !strcmp(t[i].text, "union") || !strcmp(t[i].text, "class"))
        return i + 2 < n && t[i + 1].kind == TR_IDENT && !strcmp(t[i + 2].text, "{") ? i + 1 : n;
    if (strcmp(t[i].text, "typedef")) return n;
    int depth = 0;
    for (size_t k = i + 1; k < n; k++) {
        const char *s = t[k].text;
        if (t[k].kind == TR_PUNCT && (!strcmp(s, "{") || !strcmp(s, "(") || !strcmp(s, "[")))
            depth++;
        else if (t[k].kind == TR_PUNCT && (!strcmp(s, "}") || !strcmp(s, ")") || !strcmp(s, "]")))
            depth--;
        else if (depth == 0 && !strcmp(s, ";"))
            return k > i + 1 && t[k - 1].kind == TR_IDENT ? k - 1 : n;
        if (depth < 0) return n;
    }
    return n;
}

/* NAME_, malloc'd as the lexer's token texts are */
static char *suffixed(const char *from, size_t len)
{
    char *to = malloc(len + 2);
    if (!to) abort();
    memcpy(to, from, len);
    memcpy(to + len, "_", 2);
    return to;
}

void tr_rename_type_names(tr_unit *u)
{
    tr_token *t = u->pp.toks.v;
    size_t n = u->pp.toks.n;
    for (size_t i = 0; i < n; i++) {
        size_t at = declared_type_at(t, n, i);
        if (at == n || !target_type_name(t[at].text)) continue;
        char *from = t[at].text;
        size_t len = strlen(from);
        tr_diag_add(u, false, t[at].file, t[at].line, t[at].col, "renamed",
                    "type '%s' is a built-in type in OpenCL C or Metal: it is '%s_' in the output",
                    from, from);
        for (size_t k = 0; k < n; k++)
            if (k != at && t[k].kind == TR_IDENT && !strcmp(t[k].text, from)) {
                free(t[k].text);
                t[k].text = suffixed(from, len);
            }
        t[at].text = suffixed(from, len);
        free(from);
    }
}
