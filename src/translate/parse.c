/* parse.c — the grammar of device code in the accepted CUDA C subset: types, expressions,
 * declarations and statements, into the tree of ast.h. A construct outside the subset is a
 * refusal at its line (tp_bail), and the function that holds it is kept out of the output. The
 * C++ that real kernels use is read too: references (held as pointers), functional casts,
 * nullptr, templates (template.c) and cooperative groups (coop.c). */
#include "util/strbuf.h"
#include "util/thread.h"
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "translate/map.h"
#include "translate/parser.h"

const tr_token *tp_cur(parser *p)
{
    static tr_token eof = {TR_EOF, "", 0, 0, 0, true};
    return p->i < p->end ? &p->t[p->i] : &eof;
}

bool tp_is(parser *p, const char *s)
{
    const tr_token *t = tp_cur(p);
    return t->kind != TR_EOF && t->kind != TR_STRING && t->kind != TR_CHAR && t->text[0] == s[0] &&
           strcmp(t->text, s) == 0;
}

bool tp_is_at(parser *p, size_t k, const char *s)
{
    return p->i + k < p->end && strcmp(p->t[p->i + k].text, s) == 0;
}

tr_tokens *tp_scratch_take(parser *p, int n)
{
    tp_scratch *s = calloc(1, sizeof *s + (size_t)n * sizeof s->lists[0]);
    if (!s) abort();
    s->n = n;
    s->next = p->scratch;
    p->scratch = s;
    return s->lists;
}

static void scratch_free(tp_scratch *s)
{
    for (int i = 0; i < s->n; i++)
        tr_tokens_free(&s->lists[i]);
    free(s);
}

void tp_scratch_drop(parser *p, tr_tokens *lists)
{
    for (tp_scratch **at = &p->scratch; *at; at = &(*at)->next)
        if ((*at)->lists == lists) {
            tp_scratch *s = *at;
            *at = s->next;
            scratch_free(s);
            return;
        }
}

void tp_scratch_unwind(parser *p, tp_scratch *mark)
{
    while (p->scratch && p->scratch != mark) {
        tp_scratch *s = p->scratch;
        p->scratch = s->next;
        scratch_free(s);
    }
}

tp_mark tp_mark_here(parser *p)
{
    return (tp_mark){p->t, p->n, p->end, p->nscope, p->naliases, p->scratch};
}

void tp_back_to(parser *p, const tp_mark *m)
{
    p->t = m->t, p->n = m->n, p->end = m->end;
    p->nscope = m->nscope;
    tp_aliases_truncate(p, m->naliases);
    tp_scratch_unwind(p, m->scratch);
}

_Noreturn void tp_bail(parser *p, const char *construct, const char *fmt, ...)
{
    const tr_token *t = tp_cur(p);
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(p->why, sizeof p->why, fmt, ap);
    va_end(ap);
    if (!strcmp(construct, "syntax") && !strcmp(t->text, "...")) { /* what the syntax was */
        construct = "variadic";
        snprintf(p->why, sizeof p->why,
                 "variadic parameters (C varargs, parameter packs) are outside the accepted "
                 "subset");
    }
    if (!strcmp(construct, "syntax") && p->u->pp.missing) { /* a name the header declares? */
        size_t n = strlen(p->why);
        snprintf(p->why + n, sizeof p->why - n,
                 " (a name from \"%s\", which was not found? give -I DIR)", p->u->pp.missing);
    }
    p->why_file = t->file;
    p->why_line = t->line;
    p->why_col = t->col;
    p->why_construct = construct;
    longjmp(p->fail, 1);
}

bool tp_accept(parser *p, const char *s)
{
    if (tp_is(p, s)) {
        p->i++;
        return true;
    }
    return false;
}

void tp_expect(parser *p, const char *s)
{
    if (!tp_accept(p, s)) {
        const tr_token *t = tp_cur(p);
        tp_bail(p, "syntax", "expected '%s' before '%s'", s,
                t->kind == TR_EOF ? "end of item" : t->text);
    }
}

tr_expr *tp_new_expr(parser *p, tr_expr_kind k, const tr_token *at)
{
    tr_expr *e = tr_alloc(p->u, sizeof *e);
    e->kind = k;
    e->file = at->file;
    e->line = at->line;
    e->col = at->col;
    return e;
}

/* ---- types -------------------------------------------------------------------------------- */
static const char *const base_words[] = {"void",   "char",   "short",    "int",  "long", "float",
                                         "double", "signed", "unsigned", "bool", "_Bool"};
static const char *const named_types[] = {
    "size_t",
    "ptrdiff_t",
    "int8_t",
    "int16_t",
    "int32_t",
    "int64_t",
    "uint8_t",
    "uint16_t",
    "uint32_t",
    "uint64_t",
    "float2",
    "float4",
    "int2",
    "int4",
    "uint2",
    "uint4",
    "float3",
    "int3",
    "uint3",
    "double2",
    "double4",
    "__half",
    "half",
    "__half2",
    "half2",
    "__nv_bfloat16",
    "dim3",
    "cudaTextureObject_t",
    "cudaSurfaceObject_t",
    "uchar4",
    "char4",
    "longlong2",
    "ulonglong2",
    /* the other vector types (vectors.c) */
    "char2",
    "char3",
    "uchar2",
    "uchar3",
    "short2",
    "short3",
    "short4",
    "ushort2",
    "ushort3",
    "ushort4",
    "long2",
    "long3",
    "long4",
    "ulong2",
    "ulong3",
    "ulong4",
    "longlong3",
    "longlong4",
    "ulonglong3",
    "ulonglong4",
    "double3",
};

bool tp_is_named_type(const char *s)
{
    return tp_in_list(s, named_types, sizeof named_types / sizeof *named_types);
}

bool tp_in_list(const char *s, const char *const *list, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (s[0] == list[i][0] && strcmp(s, list[i]) == 0) return true;
    return false;
}

bool tp_is_namespace(parser *p, const char *name)
{
    for (int i = 0; i < p->nnamespaces; i++)
        if (!strcmp(p->namespaces[i], name)) return true;
    return false;
}

/* The file's struct a type name names (its own name, or an alias of it); NULL: none. */
static tr_struct *struct_named(parser *p, const char *name)
{
    const tr_type *al = tp_alias_type(p, name);
    if (al && !al->nptr && al->base && !strncmp(al->base, "struct ", 7))
        return tp_find_struct(p->u, al->base + 7);
    return al ? NULL : tp_find_struct(p->u, name);
}

tr_struct *tp_find_struct(tr_unit *u, const char *name)
{
    for (int i = 0; i < u->nstructs; i++)
        if ((u->structs[i].tag && !strcmp(u->structs[i].tag, name)) ||
            !strcmp(u->structs[i].name, name))
            return &u->structs[i];
    return NULL;
}

/* The other names of the integer types that CUDA code uses without declaring them (Linux's
 * <sys/types.h> and <stdint.h> give them to every file nvcc builds): the type each names, or
 * NULL. */
const char *tp_std_typedef(const char *w)
{
    static const char *const names[][2] = {
        {"uint", "unsigned int"},
        {"ushort", "unsigned short"},
        {"uchar", "unsigned char"},
        {"ulong", "unsigned long"},
        {"u_int", "unsigned int"},
        {"u_short", "unsigned short"},
        {"u_char", "unsigned char"},
        {"u_long", "unsigned long"},
        {"u_int8_t", "uint8_t"},
        {"u_int16_t", "uint16_t"},
        {"u_int32_t", "uint32_t"},
        {"u_int64_t", "uint64_t"},
        {"clock_t", "long"},
        {"ssize_t", "long"},
        {"intptr_t", "long"},
        {"uintptr_t", "unsigned long"},
        /* cuComplex.h and cufft.h: complex values are CUDA's vectors of two */
        {"cuComplex", "float2"},
        {"cuFloatComplex", "float2"},
        {"cuDoubleComplex", "double2"},
        {"cufftComplex", "float2"},
        {"cufftDoubleComplex", "double2"},
        {"cufftReal", "float"},
        {"cufftDoubleReal", "double"},
    };
    if (w[0] != 'u' && w[0] != 'c' && w[0] != 's' && w[0] != 'i') return NULL;
    for (size_t i = 0; i < sizeof names / sizeof *names; i++)
        if (!strcmp(w, names[i][0])) return names[i][1];
    return NULL;
}

/* `std::uint8_t`, `std::size_t`: the integer types <cstdint> and <cstddef> also name in std. */
static bool std_qualified_type(parser *p)
{
    static const char *const names[] = {"size_t",  "int8_t",   "int16_t",  "int32_t", "int64_t",
                                        "uint8_t", "uint16_t", "uint32_t", "uint64_t"};
    return !strcmp(tp_cur(p)->text, "std") && tp_is_at(p, 1, "::") && p->i + 2 < p->end &&
           tp_in_list(p->t[p->i + 2].text, names, sizeof names / sizeof *names);
}

static typedef_alias *find_alias(parser *p, const char *name)
{
    for (int i = 0; i < p->naliases; i++)
        if (strcmp(p->aliases[i].name, name) == 0) return &p->aliases[i];
    /* a struct made while a block was read (`V<float> a = ...;` in a kernel made V_float): its
     * alias went with the block, its name is still a type (its members are read later) */
    for (int i = 0; i < p->u->nstructs; i++) {
        if (strcmp(p->u->structs[i].name, name)) continue;
        if (i >= p->nstruct_aliases) {
            int cap = p->u->nstructs;
            typedef_alias **na = tr_alloc(p->u, (size_t)cap * sizeof *na);
            if (p->nstruct_aliases)
                memcpy(na, p->struct_aliases, (size_t)p->nstruct_aliases * sizeof *na);
            p->struct_aliases = na;
            p->nstruct_aliases = cap;
        }
        if (!p->struct_aliases[i]) {
            typedef_alias *a = tr_alloc(p->u, sizeof *a);
            char base[300];
            snprintf(base, sizeof base, "struct %s", name);
            a->name = tr_strdup(p->u, name);
            a->type.base = tr_strdup(p->u, base);
            p->struct_aliases[i] = a;
        }
        return p->struct_aliases[i];
    }
    return NULL;
}

const tr_type *tp_alias_type(parser *p, const char *name)
{
    typedef_alias *a = find_alias(p, name);
    if (a) return &a->type;
    return NULL;
}

static const char *const qualifier_words[] = {
    "constexpr",     "typename",
    "const",         "volatile",
    "__restrict__",  "restrict",
    "__restrict",    "static",
    "extern",        "inline",
    "__inline__",    "__forceinline__",
    "__noinline__",  "__global__",
    "__device__",    "__host__",
    "__shared__",    "__constant__",
    "__managed__",   "register",
    "typedef",       "__launch_bounds__",
    "__align__",     "__grid_constant__",
    "__attribute__",
};

/* Every word that can start a declaration, sorted once, then found by bisection: the parser asks
 * at every statement and every parenthesis. */
static const char
    *type_words[sizeof base_words / sizeof *base_words + sizeof named_types / sizeof *named_types +
                sizeof qualifier_words / sizeof *qualifier_words + 6];
static size_t ntype_words;
static gp_once type_words_once = GP_ONCE_INIT;

static int cmp_word(const void *a, const void *b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

static void type_words_init(void)
{
    static const char *const more[] = {"struct", "class", "union", "enum", "template", "auto"};
    _Static_assert(
        sizeof type_words / sizeof *type_words >=
            sizeof base_words / sizeof *base_words + sizeof named_types / sizeof *named_types +
                sizeof qualifier_words / sizeof *qualifier_words + sizeof more / sizeof *more,
        "type_words holds every word");
    for (size_t i = 0; i < sizeof base_words / sizeof *base_words; i++)
        type_words[ntype_words++] = base_words[i];
    for (size_t i = 0; i < sizeof named_types / sizeof *named_types; i++)
        type_words[ntype_words++] = named_types[i];
    for (size_t i = 0; i < sizeof qualifier_words / sizeof *qualifier_words; i++)
        type_words[ntype_words++] = qualifier_words[i];
    for (size_t i = 0; i < sizeof more / sizeof *more; i++)
        type_words[ntype_words++] = more[i];
    qsort(type_words, ntype_words, sizeof *type_words, cmp_word);
}

/* The cooperative-group types, spelled without the namespace after `using namespace`. */
static const char *const cg_type_words[] = {"thread_block", "thread_block_tile", "thread_group",
                                            "grid_group",   "multi_grid_group",  "coalesced_group"};

bool tp_is_type_start(parser *p)
{
    const tr_token *t = tp_cur(p);
    if (t->kind != TR_IDENT) return false;
    gp_once_call(&type_words_once, type_words_init);
    const char *key = t->text;
    bool word = bsearch(&key, type_words, ntype_words, sizeof *type_words, cmp_word) != NULL;
    /* a variable named like a CUDA type (`int dim3`) is a variable where it is in scope */
    if (word && tp_in_list(key, named_types, sizeof named_types / sizeof *named_types) &&
        tp_lookup(p, key))
        return false;
    if (word) return true;
    if (tp_is_cg_namespace(p, key) && tp_is_at(p, 1, "::") && p->i + 2 < p->end &&
        tp_in_list(p->t[p->i + 2].text, cg_type_words,
                   sizeof cg_type_words / sizeof *cg_type_words))
        return true;
    if (tp_in_list(key, cg_type_words, sizeof cg_type_words / sizeof *cg_type_words) &&
        !tp_lookup(p, key))
        return true;
    if (find_alias(p, t->text)) return true;
    if (tp_is_at(p, 1, "<") && tp_struct_template_find(p, key) && !tp_lookup(p, key)) return true;
    return (tp_std_typedef(key) && !tp_lookup(p, key)) || std_qualified_type(p);
}

static void skip_parens(parser *p)
{
    int depth = 0;
    do {
        if (tp_is(p, "("))
            depth++;
        else if (tp_is(p, ")"))
            depth--;
        p->i++;
    } while (depth > 0 && p->i < p->end);
}

/* Declaration specifiers: qualifiers, CUDA attributes and one base type. */
/* At the name of a struct of the file left out (items.c noted why): refused with that reason,
 * at the use; nothing where the name is no such struct. */
static void left_out_struct(parser *p)
{
    const tr_token *t = tp_cur(p);
    size_t nl = strlen(t->text);
    for (int k = 0; t->kind == TR_IDENT && k < p->u->ndiags; k++) {
        const tr_diag *d = &p->u->diags[k];
        if (!d->refusal && !strcmp(d->construct, "struct") && !strncmp(d->reason, "struct ", 7) &&
            !strncmp(d->reason + 7, t->text, nl) && d->reason[7 + nl] == ' ') {
            const char *why = d->reason + 8 + nl;
            if (!strncmp(why, "is not translated: ", 19)) why += 19;
            tp_bail(p, "struct", "%s is a struct left out of the translation (%s:%d): %s", t->text,
                    p->u->pp.files[d->file], d->line, why);
        }
    }
}

specs tp_parse_specs(parser *p)
{
    specs s = {0};
    char base[64] = "";
    int longs = 0;
    bool is_unsigned = false, is_signed = false;
    for (;;) {
        const tr_token *t = tp_cur(p);
        if (t->kind != TR_IDENT) break;
        const char *w = t->text;
        if (!strcmp(w, "const") || !strcmp(w, "constexpr"))
            s.type.is_const = true;
        else if (!strcmp(w, "typename"))
            ;
        else if (!strcmp(w, "volatile"))
            s.type.is_volatile = true;
        else if (!strcmp(w, "__restrict__") || !strcmp(w, "restrict") || !strcmp(w, "__restrict"))
            s.type.restrict_ptr = true;
        else if (!strcmp(w, "static"))
            s.is_static = true;
        else if (!strcmp(w, "extern")) {
            s.is_extern = true;
            if (p->i + 1 < p->end && p->t[p->i + 1].kind == TR_STRING) p->i++; /* extern "C" */
        } else if (!strcmp(w, "inline") || !strcmp(w, "__inline__") ||
                   !strcmp(w, "__forceinline__") || !strcmp(w, "__noinline__") ||
                   !strcmp(w, "register") || !strcmp(w, "__grid_constant__"))
            ;
        else if (!strcmp(w, "__launch_bounds__") || !strcmp(w, "__align__") ||
                 !strcmp(w, "__attribute__")) { /* always_inline, unused...: no meaning here */
            p->i++;
            if (tp_is(p, "(")) skip_parens(p);
            continue;
        } else if (!strcmp(w, "__global__"))
            s.global = true;
        else if (!strcmp(w, "__device__"))
            s.device = true;
        else if (!strcmp(w, "__host__"))
            s.host = true;
        else if (!strcmp(w, "__shared__"))
            s.shared = true;
        else if (!strcmp(w, "__constant__"))
            s.constant = true;
        else if (!strcmp(w, "__managed__"))
            s.managed = true;
        else if (!strcmp(w, "typedef"))
            s.is_typedef = true;
        else if (!strcmp(w, "template"))
            tp_bail(p, "template",
                    "templates are not in the accepted subset: write one plain C "
                    "function per type");
        else if ((!strcmp(w, "struct") || !strcmp(w, "union")) && !base[0] && p->i + 1 < p->end &&
                 tp_find_struct(p->u, p->t[p->i + 1].text)) {
            /* struct Node: a plain struct of the file */
            p->i++;
            snprintf(base, sizeof base, "struct %s", tp_find_struct(p->u, tp_cur(p)->text)->name);
        } else if (!strcmp(w, "enum") && !base[0] && p->i + 1 < p->end &&
                   find_alias(p, p->t[p->i + 1].text)) {
            /* enum Mode: an enumeration of the file (items.c), its integer type */
        } else if (!strcmp(w, "struct") || !strcmp(w, "class") || !strcmp(w, "union") ||
                   !strcmp(w, "enum"))
            tp_bail(p, w,
                    "%ss are not in the accepted subset: pass their fields as separate "
                    "parameters or buffers",
                    w);
        else if (!strcmp(w, "auto")) {
            /* only where the initialiser says the type (a cooperative group): see
             * parse_decl_stmt */
            s.is_auto = true;
            snprintf(base, sizeof base, "auto");
        } else if (!base[0] && !longs && !is_unsigned && !is_signed &&
                   ((tp_is_cg_namespace(p, w) && tp_is_at(p, 1, "::") && p->i + 2 < p->end &&
                     tp_in_list(p->t[p->i + 2].text, cg_type_words,
                                sizeof cg_type_words / sizeof *cg_type_words)) ||
                    (tp_in_list(w, cg_type_words, sizeof cg_type_words / sizeof *cg_type_words) &&
                     !tp_lookup(p, w)))) {
            if (tp_is_at(p, 1, "::")) p->i += 2;
            const char *name = tp_cur(p)->text;
            p->i++;
            bool c = s.type.is_const;
            if (!tp_cg_type(p, name, &s.type))
                tp_bail(p, "cooperative groups",
                        "cooperative_groups::%s is not a group type the "
                        "translation knows",
                        name);
            s.type.is_const = c;
            snprintf(base, sizeof base, "cg");
            continue;
        } else if (!strcmp(w, "unsigned"))
            is_unsigned = true;
        else if (!strcmp(w, "signed"))
            is_signed = true;
        else if (!strcmp(w, "long"))
            longs++;
        else if (!strcmp(w, "short") || !strcmp(w, "int") || !strcmp(w, "char") ||
                 !strcmp(w, "float") || !strcmp(w, "double") || !strcmp(w, "void") ||
                 !strcmp(w, "bool") || !strcmp(w, "_Bool")) {
            if (base[0] && strcmp(base, "int") != 0 && strcmp(w, "int") != 0)
                tp_bail(p, "syntax", "two types in one declaration ('%s' and '%s')", base, w);
            if (!base[0] || strcmp(base, "int") == 0) snprintf(base, sizeof base, "%s", w);
        } else if (!base[0] && !longs && !is_unsigned && !is_signed &&
                   tp_in_list(w, named_types, sizeof named_types / sizeof *named_types) &&
                   !tp_lookup(p, w)) {
            snprintf(base, sizeof base, "%s", w);
        } else if (!base[0] && !longs && !is_unsigned && !is_signed && find_alias(p, w)) {
            typedef_alias *a = find_alias(p, w);
            bool c = s.type.is_const, v = s.type.is_volatile;
            s.type = a->type;
            s.alias_ndims = a->ndims;
            for (int d = 0; d < a->ndims; d++)
                s.alias_dims[d] = a->dims[d];
            s.type.is_const |= c;
            s.type.is_volatile |= v;
            snprintf(base, sizeof base, "%s", a->type.base);
        } else if (!base[0] && !longs && !is_unsigned && !is_signed && tp_is_at(p, 1, "<") &&
                   tp_struct_template_find(p, w) && !tp_lookup(p, w)) {
            /* S<float, 4>: the struct made of class template S for those arguments */
            snprintf(base, sizeof base, "struct %s", tp_struct_template_ref(p));
            continue;
        } else if (!base[0] && !longs && !is_unsigned && !is_signed && tp_std_typedef(w) &&
                   !tp_lookup(p, w)) {
            snprintf(base, sizeof base, "%s", tp_std_typedef(w));
        } else if (!base[0] && !longs && !is_unsigned && !is_signed && std_qualified_type(p)) {
            p->i += 2; /* std:: */
            continue;
        } else
            break;
        p->i++;
    }
    if (!base[0] && !longs && !is_unsigned && !is_signed) {
        left_out_struct(p);
        tp_bail(p, "syntax", "expected a type before '%s'", tp_cur(p)->text);
    }
    char full[96];
    if (longs >= 2)
        snprintf(full, sizeof full, "%slong long", is_unsigned ? "unsigned " : "");
    else if (longs == 1 && !strcmp(base, "double"))
        snprintf(full, sizeof full, "long double");
    else if (longs == 1)
        snprintf(full, sizeof full, "%slong", is_unsigned ? "unsigned " : "");
    else if (!base[0] || !strcmp(base, "int"))
        snprintf(full, sizeof full, "%sint", is_unsigned ? "unsigned " : "");
    else if (is_unsigned)
        snprintf(full, sizeof full, "unsigned %s", base);
    else if (is_signed && !strcmp(base, "char"))
        snprintf(full, sizeof full, "signed char");
    else
        snprintf(full, sizeof full, "%s", base);
    s.type.base = tr_strdup(p->u, full);
    return s;
}

/* ---- expressions -------------------------------------------------------------------------- */
static tr_expr *parse_unary(parser *p);

/* int, unsigned, long and the fixed-width integers, char, short, bool */
bool tp_integer_type_name(const char *b)
{
    static const char *const words[] = {"int",      "unsigned", "signed",  "long",     "short",
                                        "char",     "bool",     "size_t",  "int8_t",   "int16_t",
                                        "int32_t",  "int64_t",  "uint8_t", "uint16_t", "uint32_t",
                                        "uint64_t", "ptrdiff_t"};
    char w[32];
    for (;;) { /* every word of the type one of these (unsigned long long, int) */
        while (*b == ' ')
            b++;
        if (!*b) return true;
        size_t n = strcspn(b, " ");
        if (n >= sizeof w) return false;
        memcpy(w, b, n);
        w[n] = '\0';
        bool known = false;
        for (size_t i = 0; i < sizeof words / sizeof *words && !known; i++)
            known = !strcmp(w, words[i]);
        if (!known) return false;
        b += n;
    }
}

tr_sym *tp_lookup(parser *p, const char *name)
{
    for (int i = p->nscope - 1; i >= 0; i--)
        if (strcmp(p->scope[i]->name, name) == 0) return p->scope[i];
    for (int i = 0; i < p->u->nconstants; i++)
        if (strcmp(p->u->constants[i]->name, name) == 0) return p->u->constants[i];
    for (int i = 0; i < p->u->nglobals; i++)
        if (strcmp(p->u->globals[i]->name, name) == 0) return p->u->globals[i];
    return NULL;
}

/* ---- small trees, for what the translation writes in CUDA's terms ------------------------ */
tr_expr *tp_mk_ident(parser *p, const tr_token *at, const char *name)
{
    tr_expr *e = tp_new_expr(p, TR_E_IDENT, at);
    e->text = tr_strdup(p->u, name);
    return e;
}

tr_expr *tp_mk_num(parser *p, const tr_token *at, const char *text)
{
    tr_expr *e = tp_new_expr(p, TR_E_NUM, at);
    e->text = tr_strdup(p->u, text);
    return e;
}

tr_expr *tp_mk_binary(parser *p, const char *op, tr_expr *a, tr_expr *b)
{
    tr_expr *e = tr_alloc(p->u, sizeof *e);
    e->kind = TR_E_BINARY;
    e->file = a->file, e->line = a->line, e->col = a->col;
    e->text = tr_strdup(p->u, op);
    e->a = a;
    e->b = b;
    return e;
}

tr_expr *tp_mk_call(parser *p, const tr_token *at, const char *name, int nargs, tr_expr **args)
{
    tr_expr *e = tp_new_expr(p, TR_E_CALL, at);
    e->a = tp_mk_ident(p, at, name);
    e->nargs = nargs;
    e->args = tr_alloc(p->u, (size_t)(nargs ? nargs : 1) * sizeof *e->args);
    for (int i = 0; i < nargs; i++)
        e->args[i] = args[i];
    return e;
}

tr_expr *tp_mk_member(parser *p, const tr_token *at, const char *obj, const char *member)
{
    tr_expr *e = tp_new_expr(p, TR_E_MEMBER, at);
    e->text = tr_strdup(p->u, ".");
    e->name = tr_strdup(p->u, member);
    e->a = tp_mk_ident(p, at, obj);
    return e;
}

/* ---- guessing types --------------------------------------------------------------------- */
/* The arithmetic class of a type name, in the order of the usual arithmetic conversions (the
 * lower wins): 0 double, 1 float, 2 64-bit unsigned, 3 64-bit signed, 4 unsigned int, 5 int; the
 * types narrower than int are promoted to it (5). -1: not an arithmetic type auto can name. */
static int auto_class(const char *t)
{
    static const char *const names[][6] = {
        {"double"},
        {"float"},
        {"unsigned long long", "unsigned long", "uint64_t", "size_t"},
        {"long long", "long", "int64_t", "ptrdiff_t"},
        {"unsigned int", "uint32_t"},
        {"int", "int32_t", "short", "unsigned short", "int16_t", "uint16_t"},
    };
    static const char *const small[] = {"char",   "signed char", "unsigned char",
                                        "int8_t", "uint8_t",     "bool"};
    for (int c = 0; c < 6; c++)
        for (int k = 0; k < 6 && names[c][k]; k++)
            if (!strcmp(t, names[c][k])) return c;
    if (tp_in_list(t, small, sizeof small / sizeof *small)) return 5;
    return -1;
}

/* The type of an integer or floating literal, as C++ gives it (by suffix and by value). */
static bool auto_literal(const char *t, char *base, size_t cap)
{
    size_t n = strlen(t);
    bool hex = n > 1 && t[0] == '0' && (t[1] == 'x' || t[1] == 'X');
    if (!hex && (strchr(t, '.') || strchr(t, 'e') || strchr(t, 'E'))) {
        if (strpbrk(t, "lL")) return false; /* long double */
        return snprintf(base, cap, "%s", strpbrk(t, "fF") ? "float" : "double"), true;
    }
    bool u = strpbrk(t, "uU") != NULL;
    int longs = 0;
    for (const char *c = t; *c; c++)
        longs += *c == 'l' || *c == 'L';
    char *end = NULL;
    errno = 0;
    unsigned long long v = strtoull(t, &end, 0);
    if (errno || end == t) return false;
    bool other_base = hex || (t[0] == '0' && n > 1); /* hex and octal may be unsigned */
    if (!longs && !u && v <= 0x7fffffffull) return snprintf(base, cap, "int"), true;
    if (!longs && (u || other_base) && v <= 0xffffffffull)
        return snprintf(base, cap, "unsigned int"), true;
    if (!u && v <= 0x7fffffffffffffffull)
        return snprintf(base, cap, "%s", longs >= 2 ? "long long" : "long"), true;
    if (u || other_base)
        return snprintf(base, cap, "%s", longs >= 2 ? "unsigned long long" : "unsigned long"), true;
    return false;
}

static bool auto_type(parser *p, const tr_expr *e, char *base, size_t cap, int *nptr);
static bool auto_pointer(parser *p, const tr_expr *e, tr_type *t);

/* The return type of a call to one of the file's functions (defined before, not overloaded,
 * returning a value), or of the CUDA functions whose result has their argument's type. */
static bool auto_call_type(parser *p, const tr_expr *e, char *base, size_t cap)
{
    if (e->a->kind != TR_E_IDENT || e->a->sym) return false;
    const char *n = e->a->text;
    static const char *const same[] = {
        "__shfl_sync", "__shfl_down_sync", "__shfl_up_sync", "__shfl_xor_sync", "__ldg",
        "__ldcs",      "__ldcg",           "__ldca",         "__ldlu",          "__ldcv"};
    bool load = !strncmp(n, "__ld", 4);
    if (tp_in_list(n, same, sizeof same / sizeof *same) && e->nargs >= (load ? 1 : 2)) {
        int k;
        tr_type pt;
        if (load) /* the pointee's type, of a pointer the translation can type */
            return auto_pointer(p, e->args[0], &pt) && pt.nptr == 1 &&
                   (size_t)snprintf(base, cap, "%s", pt.base) < cap;
        if (!auto_type(p, e->args[1], base, cap, &k)) return false;
        return k == 0;
    }
    if ((!strcmp(n, "min") || !strcmp(n, "max")) && e->nargs == 2) {
        /* both arguments of one type: that type (mixed ones are for the mapping to say) */
        char a[64], b[64];
        int ka, kb;
        if (!auto_type(p, e->args[0], a, sizeof a, &ka) ||
            !auto_type(p, e->args[1], b, sizeof b, &kb) || ka || kb)
            return false;
        int ca = auto_class(a), cb = auto_class(b);
        if (ca < 0 || ca != cb || (ca == 5 && (strcmp(a, "int") || strcmp(b, "int")))) return false;
        return snprintf(base, cap, "%s", a), true;
    }
    /* the half and half2 intrinsics: the type their signature gives (map.c) */
    const tr_callmap *hm = tr_map_call(n);
    if (hm && hm->kind == TR_CALL_HALF && hm->construct && strchr(hm->construct, '>')) {
        char r = strchr(hm->construct, '>')[1];
        const char *t = r == 'h'   ? "__half"
                        : r == '2' ? "__half2"
                        : r == 'F' ? "float2"
                        : r == 'f' ? "float"
                        : r == 'i' ? "int"
                                   : NULL;
        return t && (size_t)snprintf(base, cap, "%s", t) < cap;
    }
    /* the C++ math functions: the float overload for a float, the double one otherwise */
    static const char *const math1[] = {
        "sin",   "cos",   "tan",  "asin", "acos",  "atan",  "sinh",  "cosh",  "tanh",
        "exp",   "exp2",  "log",  "log2", "log10", "sqrt",  "cbrt",  "floor", "ceil",
        "trunc", "round", "fabs", "erf",  "expm1", "log1p", "rsqrt", "rint"};
    if (!strcmp(n, "abs") && e->nargs == 1) { /* std::abs: the argument's type (int if promoted) */
        char a[64];
        int ka, ca;
        if (!auto_type(p, e->args[0], a, sizeof a, &ka) || ka || (ca = auto_class(a)) < 0 ||
            ca == 2 || ca == 4)
            return false;
        return snprintf(base, cap, "%s", ca == 5 ? "int" : a), true;
    }
    static const char *const math2[] = {"pow", "fmin", "fmax", "fmod", "atan2", "hypot"};
    bool one = tp_in_list(n, math1, sizeof math1 / sizeof *math1) && e->nargs == 1;
    if (one || (tp_in_list(n, math2, sizeof math2 / sizeof *math2) && e->nargs == 2)) {
        char a[64], b[64];
        int ka, kb = 0;
        if (!auto_type(p, e->args[0], a, sizeof a, &ka) || ka) return false;
        int ca = auto_class(a), cb = ca;
        if (!one && (!auto_type(p, e->args[1], b, sizeof b, &kb) || kb)) return false;
        if (!one) cb = auto_class(b);
        if (ca < 0 || cb < 0 || (!one && ca != cb) || (!one && ca > 1)) return false;
        return snprintf(base, cap, "%s", ca == 1 ? "float" : "double"), true;
    }
    const tr_func *f = NULL;
    for (int i = 0; i < p->u->nfuncs; i++) {
        const tr_func *g = p->u->funcs[i];
        if (strcmp(g->src_name ? g->src_name : g->name, n) != 0) continue;
        if (f) return false; /* overloaded: which one is for the overload resolution to say */
        f = g;
    }
    if (!f || f->kind == TR_F_GLOBAL || f->ret.nptr || f->ret.is_ref || f->ret.cg || !f->ret.base ||
        !strcmp(f->ret.base, "void") || f->nparams != e->nargs || f->template_id)
        return false;
    return snprintf(base, cap, "%s", f->ret.base), true;
}

/* The type C++ gives `auto x = e;` where the translation can tell it exactly: literals, casts,
 * variables, elements, CUDA's indices (unsigned int), the float math functions, the file's
 * functions, and arithmetic and comparisons of the arithmetic types (the usual arithmetic
 * conversions, 64-bit types included). false: not known, so refused. */
static bool auto_type(parser *p, const tr_expr *e, char *base, size_t cap, int *nptr)
{
    if (!e) return false;
    if (e->kind == TR_E_BUILTIN) return snprintf(base, cap, "unsigned int"), *nptr = 0, true;
    if (e->kind == TR_E_INIT && e->type && !e->type->nptr) /* T{a, b} */
        return *nptr = 0, (size_t)snprintf(base, cap, "%s", e->type->base) < cap;
    if (e->kind == TR_E_NUM) return *nptr = 0, auto_literal(e->text, base, cap);
    if (e->kind == TR_E_CALL && auto_call_type(p, e, base, cap)) return *nptr = 0, true;
    if (e->kind == TR_E_UNARY && (!strcmp(e->text, "-") || !strcmp(e->text, "~") ||
                                  !strcmp(e->text, "+") || !strcmp(e->text, "!"))) {
        int k;
        if (!auto_type(p, e->a, base, cap, &k) || k) return false;
        if (!strcmp(e->text, "!")) return snprintf(base, cap, "bool"), *nptr = 0, true;
        int c = auto_class(base);
        if (c < 0 || (c < 2 && !strcmp(e->text, "~"))) return false;
        if (c == 5) snprintf(base, cap, "int"); /* promoted */
        return *nptr = 0, true;
    }
    if (e->kind == TR_E_BINARY || e->kind == TR_E_COND) {
        const char *op = e->text;
        const tr_expr *x = e->kind == TR_E_COND ? e->b : e->a,
                      *y = e->kind == TR_E_COND ? e->c : e->b;
        char a[64], b[64];
        int na, nb;
        if (!auto_type(p, x, a, sizeof a, &na) || !auto_type(p, y, b, sizeof b, &nb)) return false;
        if (na || nb) return false;
        int ra = auto_class(a), rb = auto_class(b);
        if (ra < 0 || rb < 0) return false;
        if (e->kind == TR_E_BINARY &&
            (!strcmp(op, "<") || !strcmp(op, ">") || !strcmp(op, "<=") || !strcmp(op, ">=") ||
             !strcmp(op, "==") || !strcmp(op, "!=") || !strcmp(op, "&&") || !strcmp(op, "||")))
            return snprintf(base, cap, "bool"), *nptr = 0, true;
        if (e->kind == TR_E_BINARY && (!strcmp(op, "<<") || !strcmp(op, ">>"))) {
            /* the left operand's, promoted */
            snprintf(base, cap, "%s", ra == 5 ? "int" : a);
            return *nptr = 0, ra >= 2;
        }
        if (e->kind == TR_E_BINARY && strcmp(op, "+") && strcmp(op, "-") && strcmp(op, "*") &&
            strcmp(op, "/") && strcmp(op, "%") && strcmp(op, "&") && strcmp(op, "|") &&
            strcmp(op, "^"))
            return false;
        const char *w = ra < rb ? a : ra > rb ? b : a;
        snprintf(base, cap, "%s", (ra < rb ? ra : rb) == 5 ? "int" : w);
        *nptr = 0;
        return true;
    }
    if (e->kind == TR_E_MEMBER) { /* threadIdx.x and the other indices: unsigned int */
        static const char *const idx[] = {"threadIdx", "blockIdx", "blockDim", "gridDim"};
        if (e->a->kind == TR_E_IDENT && !e->a->sym && tp_in_list(e->a->text, idx, 4) &&
            !strcmp(e->text, ".") && strchr("xyz", e->name[0]) && !e->name[1])
            return snprintf(base, cap, "unsigned int"), *nptr = 0, true;
        /* a component of a CUDA vector: its element type */
        static const char *const vec[][2] = {
            {"double", "double"},
            {"float", "float"},
            {"int", "int"},
            {"uint", "unsigned int"},
            {"longlong", "long long"},
            {"ulonglong", "unsigned long long"},
            {"long", "long"},
            {"ulong", "unsigned long"},
            {"short", "short"},
            {"ushort", "unsigned short"},
            {"char", "signed char"},
            {"uchar", "unsigned char"},
        };
        char v[64];
        int k;
        if (!e->name || !strchr("xyzw", e->name[0]) || e->name[1] ||
            !tp_guess_type(p, e->a, v, sizeof v, &k) || k != (strcmp(e->text, ".") ? 1 : 0))
            return false;
        size_t n = strlen(v);
        if (n < 2 || v[n - 1] < '1' || v[n - 1] > '4' || (v[n - 2] >= '0' && v[n - 2] <= '9'))
            return false;
        for (size_t i = 0; i < sizeof vec / sizeof *vec; i++)
            if (strlen(vec[i][0]) == n - 1 && !strncmp(v, vec[i][0], n - 1))
                return snprintf(base, cap, "%s", vec[i][1]), *nptr = 0, true;
        return false;
    }
    return tp_guess_type(p, e, base, cap, nptr);
}

/* `auto q = p + i;` and the other pointer initialisers whose type the translation can tell: the
 * pointer's type, its pointee's constness included (its address space is inferred later, as for
 * any local pointer). */
static bool auto_pointer(parser *p, const tr_expr *e, tr_type *t)
{
    if (!e) return false;
    switch (e->kind) {
    case TR_E_IDENT:
        if (!e->sym || e->sym->type.cg || e->sym->type.is_ref) return false;
        if (e->sym->ndims > 1 || (e->sym->ndims && e->sym->type.nptr)) return false;
        if (!e->sym->ndims && !e->sym->type.nptr) return false;
        *t = (tr_type){0};
        t->base = e->sym->type.base;
        t->is_const = e->sym->type.is_const;
        t->is_volatile = e->sym->type.is_volatile;
        t->nptr = e->sym->ndims ? 1 : e->sym->type.nptr;
        return true;
    case TR_E_CAST:
        if (!e->type->nptr || e->type->cg) return false;
        *t = (tr_type){0};
        t->base = e->type->base;
        t->is_const = e->type->is_const;
        t->is_volatile = e->type->is_volatile;
        t->nptr = e->type->nptr;
        return true;
    case TR_E_BINARY: {
        if (strcmp(e->text, "+") && strcmp(e->text, "-")) return false;
        char b[64];
        int k;
        /* pointer + integer, integer + pointer, pointer - integer */
        const tr_expr *ptr = e->a, *off = e->b;
        if (!strcmp(e->text, "+") && !auto_pointer(p, e->a, t)) ptr = e->b, off = e->a;
        if (!auto_pointer(p, ptr, t)) return false;
        if (ptr == e->b && strcmp(e->text, "+")) return false;
        if (!auto_type(p, off, b, sizeof b, &k) || k) return false;
        int c = auto_class(b);
        return c >= 2 && strcmp(b, "bool") != 0;
    }
    case TR_E_UNARY:
        if (strcmp(e->text, "&")) return false;
        if (e->a->kind == TR_E_INDEX) { /* &a[i]: a's element type */
            if (!auto_pointer(p, e->a->a, t)) return false;
            char b[64];
            int k;
            return auto_type(p, e->a->b, b, sizeof b, &k) && !k && auto_class(b) >= 2;
        }
        if (e->a->kind == TR_E_IDENT && e->a->sym && !e->a->sym->ndims && !e->a->sym->type.nptr &&
            !e->a->sym->type.cg && !e->a->sym->type.is_ref) {
            *t = (tr_type){0};
            t->base = e->a->sym->type.base;
            t->is_const = e->a->sym->type.is_const;
            t->is_volatile = e->a->sym->type.is_volatile;
            t->nptr = 1;
            return true;
        }
        return false;
    case TR_E_COND: {
        tr_type a, b;
        if (!auto_pointer(p, e->b, &a) || !auto_pointer(p, e->c, &b)) return false;
        if (strcmp(a.base, b.base) || a.nptr != b.nptr || a.is_volatile != b.is_volatile)
            return false;
        *t = a;
        t->is_const = a.is_const || b.is_const;
        return true;
    }
    default:
        return false;
    }
}

bool tp_guess_type(parser *p, const tr_expr *e, char *base, size_t cap, int *nptr)
{
    if (!e) return false;
    switch (e->kind) {
    case TR_E_NUM: {
        const char *t = e->text;
        size_t n = strlen(t);
        bool hex = n > 1 && t[0] == '0' && (t[1] == 'x' || t[1] == 'X');
        bool fl = !hex && (strchr(t, '.') || strchr(t, 'e') || strchr(t, 'E'));
        *nptr = 0;
        if (fl)
            snprintf(base, cap, "%s", strpbrk(t, "fF") ? "float" : "double");
        else
            snprintf(base, cap, "%s", strpbrk(t, "uU") ? "unsigned int" : "int");
        return true;
    }
    case TR_E_IDENT:
        if (!e->sym || e->sym->type.cg) return false;
        snprintf(base, cap, "%s", e->sym->type.base);
        *nptr = e->sym->type.nptr + (e->sym->ndims ? 1 : 0);
        return true;
    case TR_E_INDEX:
    case TR_E_UNARY:
        if (e->kind == TR_E_UNARY && strcmp(e->text, "*") && strcmp(e->text, "-") &&
            strcmp(e->text, "&"))
            return false;
        if (!tp_guess_type(p, e->a, base, cap, nptr)) return false;
        if (e->kind == TR_E_INDEX || !strcmp(e->text, "*")) {
            if (!*nptr) return false;
            (*nptr)--;
        } else if (!strcmp(e->text, "&")) {
            (*nptr)++;
        }
        return true;
    case TR_E_CAST:
        snprintf(base, cap, "%s", e->type->base);
        *nptr = e->type->nptr;
        return true;
    case TR_E_MEMBER:
        if (!tp_guess_type(p, e->a, base, cap, nptr)) return false;
        if (!strncmp(base, "struct ", 7) && *nptr == !strcmp(e->text, "->")) {
            /* a field of one of the file's structs: its type */
            const tr_struct *st = tp_find_struct(p->u, base + 7);
            for (int f = 0; st && f < st->nfields; f++)
                if (!strcmp(st->fields[f].name, e->name) && st->fields[f].type.base) {
                    snprintf(base, cap, "%s", st->fields[f].type.base);
                    *nptr = st->fields[f].type.nptr + (st->fields[f].dims[0] ? 1 : 0);
                    return true;
                }
            return false;
        }
        /* vector members */
        if (*nptr) return false;
        if (!strncmp(base, "float", 5)) return snprintf(base, cap, "float"), true;
        if (!strncmp(base, "int", 3)) return snprintf(base, cap, "int"), true;
        return false;
    case TR_E_BINARY:
    case TR_E_COND: {
        char a[64], b[64];
        int na, nb;
        const tr_expr *x = e->kind == TR_E_COND ? e->b : e->a,
                      *y = e->kind == TR_E_COND ? e->c : e->b;
        if (e->kind == TR_E_BINARY && strchr("<>=!&|", e->text[0]) && strcmp(e->text, "&") &&
            strcmp(e->text, "|") && strcmp(e->text, "<<") && strcmp(e->text, ">>"))
            return snprintf(base, cap, "int"), *nptr = 0, true; /* comparisons */
        if (!tp_guess_type(p, x, a, sizeof a, &na)) return false;
        if (!tp_guess_type(p, y, b, sizeof b, &nb)) return false;
        /* a pointer plus or minus an integer, or either pointer of `c ? p : q` of one type */
        bool arith = e->kind == TR_E_BINARY && (!strcmp(e->text, "+") || !strcmp(e->text, "-"));
        if ((arith && na && !nb && tp_integer_type_name(b)) ||
            (arith && !strcmp(e->text, "+") && nb && !na && tp_integer_type_name(a)) ||
            (e->kind == TR_E_COND && na && na == nb && !strcmp(a, b))) {
            snprintf(base, cap, "%s", na ? a : b);
            *nptr = na ? na : nb;
            return true;
        }
        if (na || nb) return false;
        static const char *const rank[] = {"double",    "float",        "unsigned long long",
                                           "long long", "unsigned int", "int"};
        for (size_t i = 0; i < sizeof rank / sizeof *rank; i++)
            if (!strcmp(a, rank[i]) || !strcmp(b, rank[i])) {
                snprintf(base, cap, "%s", rank[i]);
                *nptr = 0;
                return true;
            }
        snprintf(base, cap, "int");
        *nptr = 0;
        return true;
    }
    case TR_E_CALL:
        if (e->a->kind == TR_E_IDENT) {
            const char *n = e->a->text;
            size_t l = strlen(n);
            /* the float math functions (expf, sqrtf, fmaxf...) and the conversions */
            if (l > 1 && n[l - 1] == 'f' && strncmp(n, "__", 2) != 0 &&
                (strstr("expf exp2f logf log2f log10f powf sqrtf fabsf fminf fmaxf fmodf fmaf "
                        "floorf ceilf truncf roundf sinf cosf tanf tanhf atanf rsqrtf erff",
                        n)))
                return snprintf(base, cap, "float"), *nptr = 0, true;
            if (!strcmp(n, "__half2float") || !strncmp(n, "__int2float", 11) ||
                !strncmp(n, "__uint2float", 12))
                return snprintf(base, cap, "float"), *nptr = 0, true;
        }
        return false;
    default:
        return false;
    }
}

/* The one dynamic shared block of the function, typed T: what the CUDA samples' SharedMemory<T>
 * hands out (an extern __shared__ array declared in its conversion operator). */
static tr_expr *dyn_shared_as(parser *p, const tr_token *at, tr_type *ty)
{
    tr_sym *s = NULL;
    for (int i = 0; i < p->nscope; i++)
        if (p->scope[i]->kind == TR_SYM_DYN_SHARED && !strcmp(p->scope[i]->name, "dyn_smem"))
            s = p->scope[i];
    if (!s) {
        s = tr_alloc(p->u, sizeof *s);
        s->name = tr_strdup(p->u, "dyn_smem");
        s->kind = TR_SYM_DYN_SHARED;
        s->type.base = tr_strdup(p->u, "unsigned char");
        s->type.space = TR_SP_SHARED;
        s->ndims = 1;
        s->owner = p->func;
        s->file = at->file, s->line = at->line, s->col = at->col;
        /* visible for the whole function: put it at the bottom of the scope */
        tp_scope_push(p, s);
        for (int i = p->nscope - 1; i > 0; i--)
            p->scope[i] = p->scope[i - 1];
        p->scope[0] = s;
    }
    tr_expr *id = tp_new_expr(p, TR_E_IDENT, at);
    id->text = tr_strdup(p->u, s->name);
    id->sym = s;
    tr_type *pt = tr_alloc(p->u, sizeof *pt);
    *pt = *ty;
    pt->nptr++;
    tr_expr *c = tp_new_expr(p, TR_E_CAST, at);
    c->type = pt;
    c->a = id;
    return c;
}

static bool paren_type_follows(parser *p)
{
    if (!tp_is(p, "(")) return false;
    p->i++;
    /* `(int(x) << 8)`: a functional cast inside parentheses, not a cast `(int)`; `(S::size - 1)`:
     * a static member of a struct type */
    bool r = tp_is_type_start(p) && !tp_is(p, "__restrict__") && !tp_is_at(p, 1, "::") &&
             !(tp_is_at(p, 1, "(") && !tp_is_at(p, 2, "*") && !tp_is_at(p, 2, "^"));
    p->i--;
    return r;
}

tr_expr *tp_parse_primary(parser *p)
{
    const tr_token *t = tp_cur(p);
    tr_expr *e;
    switch (t->kind) {
    case TR_NUMBER:
        e = tp_new_expr(p, TR_E_NUM, t);
        e->text = tr_strdup(p->u, t->text);
        p->i++;
        return e;
    case TR_STRING:
        tp_bail(p, "string literal",
                "string literals have no meaning in a kernel (outside printf's arguments, "
                "which become gp_printf's)");
    case TR_CHAR:
        e = tp_new_expr(p, TR_E_CHAR, t);
        e->text = tr_strdup(p->u, t->text);
        p->i++;
        return e;
    case TR_IDENT:
        if (!strcmp(t->text, "asm") || !strcmp(t->text, "__asm__") || !strcmp(t->text, "__asm"))
            tp_bail(p, "inline PTX", "inline PTX (asm) runs only on NVIDIA GPUs: write it in C");
        if ((e = tp_member_name(p, t)) != NULL) return e; /* this, a field in a member function */
        if (tp_is_at(p, 1, "<") && !tp_lookup(p, t->text) && tp_struct_template_find(p, t->text)) {
            /* S<args>(a, b), S<args>{a, b}: a value of the struct made for those arguments */
            const char *nm = tp_struct_template_ref(p);
            tr_struct *st = tp_find_struct(p->u, nm);
            if (st->has_ctor && (tp_is(p, "(") || tp_is(p, "{"))) return tp_ctor_expr_of(p, t, st);
            if (tp_is(p, "::")) return tp_static_member(p, t, st);
            if (!tp_is(p, "{")) tp_bail(p, "syntax", "expected '{' after %s<...>", t->text);
            tr_type *ty = tr_alloc(p->u, sizeof *ty);
            char base[300];
            snprintf(base, sizeof base, "struct %s", nm);
            ty->base = tr_strdup(p->u, base);
            e = tp_parse_primary(p);
            e->type = ty;
            return e;
        }
        if ((tp_is_at(p, 1, "(") || tp_is_at(p, 1, "{")) && !tp_lookup(p, t->text) &&
            (e = tp_ctor_expr(p)) != NULL)
            return e; /* S(a, b): a struct's constructor (members.c) */
        if (tp_is_at(p, 1, "{") && !tp_lookup(p, t->text) && tp_is_type_start(p)) {
            /* T{a, b}: a braced list of type T (a struct without a constructor, a vector),
             * taken where a whole value is (a return, an assignment, an initialiser); for a
             * scalar, T{v} is the conversion T(v) and T{} is 0 */
            tr_type *ty = tp_parse_type_name(p);
            if (ty->cg) tp_bail(p, "cooperative groups", "a group type used as a value");
            if (!tp_is(p, "{")) tp_bail(p, "syntax", "expected '{' after a type");
            tr_expr *list = tp_parse_primary(p);
            if (ty->nptr || (strncmp(ty->base, "struct ", 7) && !tp_is_named_type(ty->base))) {
                if (list->nargs > 1)
                    tp_bail(p, "brace list", "%s{...} of %d values for a scalar", t->text,
                            list->nargs);
                e = tp_new_expr(p, TR_E_CAST, t);
                e->type = ty;
                e->a = list->nargs ? list->args[0] : tp_mk_num(p, t, "0");
                return e;
            }
            list->type = ty;
            return list;
        }
        if (!strcmp(t->text, "static_cast") || !strcmp(t->text, "reinterpret_cast") ||
            !strcmp(t->text, "const_cast")) {
            p->i++;
            tp_expect(p, "<");
            tr_type *ty = tp_parse_type_name(p);
            tp_expect(p, ">");
            tp_expect(p, "(");
            e = tp_new_expr(p, TR_E_CAST, t);
            e->type = ty;
            e->a = tp_parse_expr(p);
            tp_expect(p, ")");
            return e;
        }
        if (!strcmp(t->text, "sizeof")) {
            p->i++;
            if (paren_type_follows(p)) {
                p->i++;
                e = tp_new_expr(p, TR_E_SIZEOF_TYPE, t);
                e->type = tp_parse_type_name(p);
                tp_expect(p, ")");
                return e;
            }
            size_t at = p->i + (tp_is(p, "(") ? 1u : 0u);
            if (at < p->end && p->t[at].kind == TR_STRING)
                tp_bail(p, "sizeof of a string literal",
                        "sizeof of a string literal (its length plus one) is not computed by the "
                        "translator: write the number");
            e = tp_new_expr(p, TR_E_SIZEOF_EXPR, t);
            e->a = parse_unary(p);
            return e;
        }
        if (!strcmp(t->text, "nullptr")) { /* the null pointer constant, as NULL is */
            p->i++;
            return tp_mk_num(p, t, "0");
        }
        if (!strcmp(t->text, "new") || !strcmp(t->text, "delete") || !strcmp(t->text, "this") ||
            !strcmp(t->text, "throw") || !strcmp(t->text, "operator"))
            tp_bail(p, "C++", "'%s' is C++, outside the accepted subset", t->text);
        /* a type of several words cast the same way, as a template's T(x) with T = unsigned
         * char reads: unsigned char(x) */
        int words = 0;
        static const char *const builtin[] = {"unsigned", "signed", "char", "short", "int", "long"};
        for (bool more = true; more && p->i + words < p->end; words += more) {
            more = false;
            for (size_t b = 0; b < sizeof builtin / sizeof *builtin; b++)
                more |= p->t[p->i + words].kind == TR_IDENT &&
                        !strcmp(p->t[p->i + words].text, builtin[b]);
        }
        if (tp_is_type_start(p) &&
            (tp_is_at(p, 1, "(") || (words >= 2 && tp_is_at(p, words, "("))) &&
            !tp_lookup(p, t->text) && !tp_is_cg_namespace(p, t->text)) {
            /* a functional cast: float(i), unsigned(x); not a call of a function of the file
             * named like a type (refused where it is declared, and here) */
            for (int i = 0; i < p->u->nfuncs; i++)
                if (!strcmp(p->u->funcs[i]->name, t->text))
                    tp_bail(p, "function named like a type",
                            "'%s(...)' calls a function that has the name of a CUDA type; it "
                            "would read as a conversion: rename the function",
                            t->text);
            tr_type *ty = tp_parse_type_name(p);
            if (ty->cg) tp_bail(p, "cooperative groups", "a group type used as a cast");
            tp_expect(p, "(");
            e = tp_new_expr(p, TR_E_CAST, t);
            e->type = ty;
            e->a = tp_parse_expr(p);
            tp_expect(p, ")");
            return e;
        }
        static const char *const cg_functions[] = {"this_thread_block",
                                                   "tiled_partition",
                                                   "this_grid",
                                                   "this_multi_grid",
                                                   "coalesced_threads",
                                                   "reduce",
                                                   "plus",
                                                   "greater",
                                                   "less",
                                                   "bit_and",
                                                   "bit_or",
                                                   "bit_xor",
                                                   "sync",
                                                   "inclusive_scan",
                                                   "exclusive_scan",
                                                   "memcpy_async",
                                                   "wait"};
        if (p->using_cg && !tp_lookup(p, t->text) &&
            tp_in_list(t->text, cg_functions, sizeof cg_functions / sizeof *cg_functions) &&
            (tp_is_at(p, 1, "(") || tp_is_at(p, 1, "<"))) {
            p->i++; /* `using namespace cooperative_groups`: the name without cg:: */
            return tp_cg_qualified(p, t, t->text);
        }
        if (tp_is_at(p, 1, "(") && tp_is_cub_alias(p, t->text) && !tp_lookup(p, t->text))
            return tp_cub_call(p);
        if (tp_is_at(p, 1, "::")) {
            if (!strcmp(t->text, "wmma") || !strcmp(t->text, "nvcuda"))
                tp_bail(p, "tensor cores (wmma)",
                        "the wmma tensor-core API runs only on NVIDIA GPUs");
            if (tp_is_cg_namespace(p, t->text)) {
                p->i += 2;
                const tr_token *n = tp_cur(p);
                if (n->kind != TR_IDENT) tp_bail(p, "syntax", "expected a name after '::'");
                p->i++;
                return tp_cg_qualified(p, t, n->text);
            }
            if (!strcmp(t->text, "std") && p->i + 2 < p->end && p->t[p->i + 2].kind == TR_IDENT) {
                p->i += 2; /* std::min, std::sqrt...: CUDA's device overloads of the C names */
                tr_expr *c = tp_std_constant(p); /* numeric_limits, is_same (stdlib.c) */
                return c ? c : tp_parse_primary(p);
            }
            if (tp_is_namespace(p, t->text) && p->i + 2 < p->end &&
                p->t[p->i + 2].kind == TR_IDENT) {
                p->i += 2; /* util::twice: the file's own namespace, flattened (items.c) */
                return tp_parse_primary(p);
            }
            tr_struct *qs = struct_named(p, t->text);
            if (qs && !tp_lookup(p, t->text)) { /* S::size, S::zeros(): static members */
                p->i++;
                return tp_static_member(p, t, qs);
            }
            if (p->i + 2 < p->end && p->t[p->i + 2].kind == TR_IDENT) {
                /* Mode::A: an enumerator (items.c) */
                char q[256];
                snprintf(q, sizeof q, "%s::%s", t->text, p->t[p->i + 2].text);
                tr_expr *h = tp_host_constant(p, &p->t[p->i + 2], q);
                if (h) {
                    p->i += 3;
                    return h;
                }
            }
            tp_bail(p, "C++", "namespaces and '::' are outside the accepted subset (%s::)",
                    t->text);
        }
        {
            const char *bits = tp_bit_intrinsic(p, t);
            if (bits) {
                e = tp_mk_ident(p, t, bits);
                e->origin = tr_strdup(p->u, t->text);
                p->i++;
                return e;
            }
            tr_template *tm = tp_template_find(p, t->text);
            if (tm && tp_is_at(p, 1, "<") && !tp_lookup(p, t->text)) {
                p->i++;
                const char *name = tp_template_ref(p, tm, t);
                e = tp_mk_ident(p, t, name);
                e->origin = tm->name;
                if (tp_is(p, "<<") && tp_is_at(p, 1, "<"))
                    tp_bail(p, "dynamic parallelism",
                            "launching a kernel from device code (dynamic parallelism) "
                            "has no equivalent on Metal, OpenCL or the CPU");
                return e;
            }
            for (int k = 0; k < p->nshared_accessors; k++)
                if (!strcmp(p->shared_accessors[k], t->text) && tp_is_at(p, 1, "<")) {
                    /* SharedMemory<T>(): the dynamic shared block as a T * */
                    p->i += 2;
                    tr_type *ty = tp_parse_type_name(p);
                    tp_expect(p, ">");
                    tp_expect(p, "(");
                    tp_expect(p, ")");
                    return dyn_shared_as(p, t, ty);
                }
        }
        e = tp_new_expr(p, TR_E_IDENT, t);
        e->text = tr_strdup(p->u, t->text);
        e->sym = tp_lookup(p, t->text);
        p->i++;
        if (!e->sym && tp_is(p, "<") && p->i + 1 < p->end) {
            /* tex2D<float>(...), f<int>(...) of a function the file does not template: read the
             * call, the lowering names it (maps it, or refuses it) */
            size_t save = p->i;
            p->i++;
            if (tp_is_type_start(p)) {
                tp_parse_type_name(p);
                if (!tp_accept(p, ">") || !tp_is(p, "(")) p->i = save;
            } else {
                p->i = save;
            }
        }
        if (!e->sym && !tp_is(p, "(")) {
            tr_expr *h = tp_host_constant(p, t, t->text);
            if (h) return h;
        }
        if (tp_is(p, "<<") && tp_is_at(p, 1, "<"))
            tp_bail(p, "dynamic parallelism",
                    "launching a kernel from device code (dynamic parallelism) "
                    "has no equivalent on Metal, OpenCL or the CPU");
        if (e->sym && e->sym->ref) { /* a reference reads and writes through its pointer */
            tr_expr *d = tp_new_expr(p, TR_E_UNARY, t);
            d->text = tr_strdup(p->u, "*");
            d->a = e;
            return d;
        }
        if (e->sym && e->sym->type.cg) { /* a group object: its methods follow */
            e->cg = e->sym->type.cg;
            e->cg_width = e->sym->type.cg_width;
        }
        return e;
    case TR_PUNCT:
        if (!strcmp(t->text, "(")) {
            p->i++;
            e = tp_parse_expr(p);
            tp_expect(p, ")");
            return e;
        }
        if (!strcmp(t->text, "{")) {
            p->i++;
            e = tp_new_expr(p, TR_E_INIT, t);
            while (!tp_is(p, "}")) {
                tr_expr **na = tr_alloc(p->u, (size_t)(e->nargs + 1) * sizeof *na);
                if (e->nargs) memcpy(na, e->args, (size_t)e->nargs * sizeof *na);
                na[e->nargs++] = tp_is(p, "{") ? tp_parse_primary(p) : tp_parse_assign(p);
                e->args = na;
                if (!tp_accept(p, ",")) break;
            }
            tp_expect(p, "}");
            return e;
        }
        break;
    default:
        break;
    }
    tp_bail(p, "syntax", "unexpected '%s'", t->kind == TR_EOF ? "end of item" : t->text);
    return NULL;
}

/* A string literal (adjacent ones joined) that is a whole argument of printf, which becomes
 * gp_printf (the .gpk build checks its format); NULL when the argument is anything else. */
static tr_expr *tp_parse_string_arg(parser *p)
{
    size_t j = p->i;
    while (j < p->end && p->t[j].kind == TR_STRING)
        j++;
    if (j == p->i || j >= p->end || p->t[j].kind == TR_STRING ||
        !(tp_is_at(p, j - p->i, ",") || tp_is_at(p, j - p->i, ")")))
        return NULL;
    tr_expr *e = tp_new_expr(p, TR_E_STR, tp_cur(p));
    size_t len = 0;
    for (size_t k = p->i; k < j; k++)
        len += strlen(p->t[k].text) + 1;
    char *text = tr_alloc(p->u, len + 1);
    text[0] = '\0';
    for (size_t k = p->i; k < j; k++) {
        if (k > p->i) strcat(text, " ");
        strcat(text, p->t[k].text);
    }
    e->text = text;
    p->i = j;
    return e;
}

/* A multi-dimensional array parameter (items.c) indexed in every dimension: one index into its
 * elements, a[(i * Y + j) * Z + k]. */
static tr_expr *parse_row_index(parser *p, tr_expr *e)
{
    const tr_sym *s = e->sym;
    tr_expr *idx = NULL;
    for (int d = 0; d <= s->nrow_dims; d++) {
        if (!tp_accept(p, "["))
            tp_bail(p, "array parameter",
                    "%s is a %d-dimensional array parameter: it is translated where it is "
                    "indexed in every dimension or passed whole to a function, not as a row",
                    s->name, s->nrow_dims + 1);
        tr_expr *j = tp_parse_expr(p);
        tp_expect(p, "]");
        idx = d ? tp_mk_binary(p, "+", tp_mk_binary(p, "*", idx, s->row_dims[d - 1]), j) : j;
    }
    tr_expr *x = tp_new_expr(p, TR_E_INDEX, tp_cur(p));
    x->a = e;
    x->b = idx;
    x->file = e->file, x->line = e->line, x->col = e->col;
    return x;
}

/* A call argument that is a whole multi-dimensional array: `a` of a parameter `T a[][Y]` (its
 * pointer), `&a[0][0]` of a local `T a[X][Y]` (the callee's parameter is such a pointer). NULL
 * for any other argument. */
static tr_expr *whole_array_argument(parser *p)
{
    const tr_token *t = tp_cur(p);
    if (t->kind != TR_IDENT || !(tp_is_at(p, 1, ",") || tp_is_at(p, 1, ")"))) return NULL;
    tr_sym *s = tp_lookup(p, t->text);
    if (!s || (!s->nrow_dims && s->ndims < 2)) return NULL;
    p->i++;
    tr_expr *e = tp_mk_ident(p, t, t->text);
    e->sym = s;
    if (s->nrow_dims) return e;
    for (int d = 0; d < s->ndims; d++) {
        tr_expr *x = tp_new_expr(p, TR_E_INDEX, t);
        x->a = e;
        x->b = tp_mk_num(p, t, "0");
        e = x;
    }
    tr_expr *a = tp_new_expr(p, TR_E_UNARY, t);
    a->text = tr_strdup(p->u, "&");
    a->a = e;
    return a;
}

static tr_expr *parse_postfix(parser *p)
{
    tr_expr *e = tp_parse_primary(p);
    if (e->kind == TR_E_IDENT && e->sym && e->sym->nrow_dims) e = parse_row_index(p, e);
    for (;;) {
        const tr_token *t = tp_cur(p);
        if (tp_accept(p, "[")) {
            tr_expr *x = tp_new_expr(p, TR_E_INDEX, t);
            x->a = e;
            x->b = tp_parse_expr(p);
            tp_expect(p, "]");
            tr_expr *op = tp_member_index(p, e, x->b); /* a struct's operator[] (members.c) */
            e = op ? op : x;
        } else if (tp_accept(p, "(")) {
            tr_expr *x = tp_new_expr(p, TR_E_CALL, t);
            x->a = e;
            x->line = e->line, x->col = e->col, x->file = e->file;
            bool method = e->kind == TR_E_MEMBER && e->a->kind == TR_E_IDENT && e->a->sym &&
                          e->a->sym->type.cg;
            bool prints = e->kind == TR_E_IDENT && !strcmp(e->text, "printf");
            tr_expr *group = NULL; /* the first group passed (dropped below) */
            while (!tp_is(p, ")")) {
                tr_expr *arg = prints ? tp_parse_string_arg(p) : NULL;
                if (!arg) arg = whole_array_argument(p);
                if (!arg) arg = tp_parse_assign(p);
                /* a group passed to a function is not passed at all: the callee's parameter is
                 * dropped too, and its width is in its type */
                if (method || !(arg->kind == TR_E_CG || (arg->kind == TR_E_IDENT && arg->cg))) {
                    tr_expr **na = tr_alloc(p->u, (size_t)(x->nargs + 1) * sizeof *na);
                    if (x->nargs) memcpy(na, x->args, (size_t)x->nargs * sizeof *na);
                    na[x->nargs++] = arg;
                    x->args = na;
                } else if (!group) {
                    group = arg;
                }
                if (!tp_accept(p, ",")) break;
            }
            tp_expect(p, ")");
            e = x;
            if (x->a->kind == TR_E_IDENT && !strcmp(x->a->text, "tex1Dfetch") && x->nargs == 2 &&
                x->args[0]->kind == TR_E_IDENT && x->args[0]->sym && x->args[0]->sym->texref) {
                /* tex1Dfetch(t, i) of a texture reference bound to linear memory: t[i] */
                e = tp_new_expr(p, TR_E_INDEX, t);
                e->a = x->args[0];
                e->b = x->args[1];
                e->line = x->line, e->col = x->col, e->file = x->file;
            } else if (method) {
                e = tp_cg_method(p, x, x->a->a->sym, x->a->name);
            } else if ((e = tp_sync_count_call(p, x)) != x) {
                /* a barrier that counts (coop.c) */
            } else if ((e = tp_memcpy_call(p, x)) != x) {
                /* memcpy: bytes copied (stdlib.c) */
            } else if ((e = tp_width_shuffle(p, x)) != x) {
                /* a shuffle within segments of the warp (coop.c) */
            } else if ((e = tp_member_call(p, x)) != x) {
                /* o.f(a): a struct's member function (members.c) */
            } else if (x->a->kind == TR_E_IDENT && !x->a->sym) {
                tr_template *tm = tp_template_find(p, x->a->text);
                const char *gi = tm && group ? tp_cg_instantiate(p, tm, group, t) : NULL;
                if (gi) { /* a function taking a thread_group: made for this group */
                    x->a->origin = tm->name;
                    x->a->text = (char *)gi;
                } else if (tm) {
                    x->a->origin = tm->name;
                    x->a->text = (char *)tp_template_deduce(p, tm, x);
                }
            }
        } else if (tp_is(p, ".") || tp_is(p, "->")) {
            tr_expr *x = tp_new_expr(p, TR_E_MEMBER, t);
            x->text = tr_strdup(p->u, t->text);
            p->i++;
            if (tp_cur(p)->kind != TR_IDENT) tp_bail(p, "syntax", "expected a member name");
            x->name = tr_strdup(p->u, tp_cur(p)->text);
            p->i++;
            x->a = e;
            x->line = e->line, x->col = e->col, x->file = e->file;
            e = x;
            char base[160];
            int nptr;
            const tr_struct *os;
            if (!tp_is(p, "(") && tp_guess_type(p, x->a, base, sizeof base, &nptr) &&
                nptr == (t->text[0] == '-' ? 1 : 0) && !strncmp(base, "struct ", 7) &&
                (os = tp_find_struct(p->u, base + 7)) != NULL) {
                tr_expr *c = tp_struct_constant(p, t, os, x->name); /* a.size: static */
                if (c) e = c;
            }
        } else if (tp_is(p, "++") || tp_is(p, "--")) {
            tr_expr *x = tp_new_expr(p, TR_E_POSTFIX, t);
            x->text = tr_strdup(p->u, t->text);
            x->a = e;
            p->i++;
            e = x;
        } else {
            /* file-scope arrays may become flat buffers: a row of one has no meaning then */
            int depth = 0;
            const tr_expr *b = e;
            while (b->kind == TR_E_INDEX)
                b = b->a, depth++;
            if (b->kind == TR_E_IDENT && b->sym && !b->sym->owner && b->sym->ndims > 1 &&
                (b->sym->kind == TR_SYM_CONSTANT || b->sym->kind == TR_SYM_GLOBALVAR) &&
                depth != b->sym->ndims)
                tp_bail(p, "array row",
                        "%s is used with %d of its %d indices: index file-scope arrays fully",
                        b->sym->name, depth, b->sym->ndims);
            return e;
        }
    }
}

static tr_expr *parse_unary(parser *p)
{
    const tr_token *t = tp_cur(p);
    if (t->kind == TR_PUNCT &&
        (tp_is(p, "&") || tp_is(p, "*") || tp_is(p, "-") || tp_is(p, "+") || tp_is(p, "!") ||
         tp_is(p, "~") || tp_is(p, "++") || tp_is(p, "--"))) {
        tr_expr *e = tp_new_expr(p, TR_E_UNARY, t);
        e->text = tr_strdup(p->u, t->text);
        p->i++;
        e->a = parse_unary(p);
        return e;
    }
    if (paren_type_follows(p)) {
        p->i++;
        tr_expr *e = tp_new_expr(p, TR_E_CAST, t);
        e->type = tp_parse_type_name(p);
        tp_expect(p, ")");
        e->a = parse_unary(p);
        return e;
    }
    return parse_postfix(p);
}

static tr_expr *parse_binary(parser *p, int min_level)
{
    tr_expr *e = parse_unary(p);
    for (;;) {
        const tr_token *t = tp_cur(p);
        int l = t->kind == TR_PUNCT ? tr_binary_level(t->text) : -1;
        if (l < min_level || l < 0) return e;
        p->i++;
        tr_expr *x = tp_new_expr(p, TR_E_BINARY, t);
        x->text = tr_strdup(p->u, t->text);
        x->a = e;
        x->b = parse_binary(p, l + 1);
        x->line = e->line, x->col = e->col, x->file = e->file;
        e = x;
    }
}

static tr_expr *parse_cond(parser *p)
{
    tr_expr *c = parse_binary(p, 0);
    const tr_token *t = tp_cur(p);
    if (!tp_accept(p, "?")) return c;
    tr_expr *e = tp_new_expr(p, TR_E_COND, t);
    e->a = c;
    e->b = tp_parse_expr(p);
    tp_expect(p, ":");
    e->c = parse_cond(p);
    e->line = c->line, e->col = c->col;
    return e;
}

tr_expr *tp_parse_assign(parser *p)
{
    tr_expr *lhs = parse_cond(p);
    const tr_token *t = tp_cur(p);
    static const char *const ops[] = {
        "=", "+=", "-=", "*=", "/=", "%=", "&=", "|=", "^=", "<<=", ">>="};
    if (t->kind == TR_PUNCT && tp_in_list(t->text, ops, sizeof ops / sizeof *ops)) {
        p->i++;
        tr_expr *e = tp_new_expr(p, TR_E_ASSIGN, t);
        e->text = tr_strdup(p->u, t->text);
        e->a = lhs;
        e->b = tp_parse_assign(p);
        e->line = lhs->line, e->col = lhs->col;
        return e;
    }
    return lhs;
}

tr_expr *tp_parse_expr(parser *p)
{
    tr_expr *e = tp_parse_assign(p);
    while (tp_is(p, ",")) {
        const tr_token *t = tp_cur(p);
        p->i++;
        tr_expr *x = tp_new_expr(p, TR_E_COMMA, t);
        x->a = e;
        x->b = tp_parse_assign(p);
        e = x;
    }
    return e;
}

/* ---- declarations ------------------------------------------------------------------------- */
tr_type *tp_parse_type_name(parser *p)
{
    specs s = tp_parse_specs(p);
    if (s.alias_ndims)
        tp_bail(p, "array type",
                "an array type here (a cast, sizeof, a template argument) is "
                "outside the accepted subset");
    tr_type *ty = tr_alloc(p->u, sizeof *ty);
    *ty = s.type;
    while (tp_accept(p, "*")) {
        ty->nptr++;
        while (tp_is(p, "const") || tp_is(p, "__restrict__") || tp_is(p, "restrict") ||
               tp_is(p, "volatile"))
            p->i++;
    }
    return ty;
}

void tp_add_alias(parser *p, const char *name, const tr_type *t)
{
    typedef_alias *a = realloc(p->aliases, (size_t)(p->naliases + 1) * sizeof *a);
    if (!a) abort();
    p->aliases = a;
    char *n = strdup(name);
    if (!n) abort();
    p->aliases[p->naliases++] = (typedef_alias){n, *t, 0, {NULL}};
}

/* NAME is an array type: element type t, dimensions dims. */
static void add_array_alias(parser *p, const char *name, const tr_type *t, int ndims,
                            tr_expr *const *dims)
{
    tp_add_alias(p, name, t);
    typedef_alias *a = &p->aliases[p->naliases - 1];
    a->ndims = ndims;
    for (int d = 0; d < ndims; d++)
        a->dims[d] = dims[d];
}

void tp_aliases_truncate(parser *p, int n)
{
    while (p->naliases > n)
        free(p->aliases[--p->naliases].name);
}

void tp_parse_typedef(parser *p, const specs *s)
{
    do {
        tr_sym *sym = tp_parse_declarator(p, s, false);
        if (sym->type.is_ref)
            tp_bail(p, "typedef", "reference typedefs are outside the accepted subset");
        for (int d = 0; d < sym->ndims; d++)
            if (!sym->dims[d]) tp_bail(p, "typedef", "an array typedef needs its sizes");
        add_array_alias(p, sym->name, &sym->type, sym->ndims, sym->dims);
    } while (tp_accept(p, ","));
    tp_expect(p, ";");
}

void tp_parse_using_alias(parser *p)
{
    tp_expect(p, "using");
    const tr_token *name = tp_cur(p);
    if (name->kind != TR_IDENT) tp_bail(p, "syntax", "expected a name after 'using'");
    p->i++;
    tp_expect(p, "=");
    specs s = tp_parse_specs(p);
    if (s.is_typedef || s.global || s.device || s.shared || s.constant || s.is_auto)
        tp_bail(p, "syntax", "expected a type after 'using %s ='", name->text);
    tr_type ty = s.type, *t = &ty;
    while (tp_accept(p, "*")) {
        t->nptr++;
        while (tp_accept(p, "const") || tp_accept(p, "volatile") || tp_accept(p, "__restrict__"))
            ;
    }
    if (tp_is(p, "&")) tp_bail(p, "using", "reference aliases are outside the accepted subset");
    tr_expr *dims[4];
    int ndims = 0;
    while (tp_accept(p, "[")) { /* using row = float[4]; */
        if (ndims == 4 || t->nptr || tp_is(p, "]"))
            tp_bail(p, "using", "this array alias is outside the accepted subset");
        dims[ndims++] = tp_parse_expr(p);
        tp_expect(p, "]");
    }
    if (ndims + s.alias_ndims > 4) tp_bail(p, "array", "arrays of more than 4 dimensions");
    for (int d = 0; d < s.alias_ndims; d++)
        dims[ndims++] = s.alias_dims[d];
    if (t->nptr > 1)
        tp_bail(p, "pointer to pointer",
                "pointers to pointers are outside the accepted subset: their "
                "address spaces cannot be expressed on every target");
    tp_expect(p, ";");
    add_array_alias(p, name->text, t, ndims, dims);
}

void tp_scope_push(parser *p, tr_sym *s)
{
    if (p->nscope == p->capscope) {
        int cap = p->capscope ? p->capscope * 2 : 64;
        tr_sym **n = realloc(p->scope, (size_t)cap * sizeof *n);
        if (!n) abort();
        p->scope = n;
        p->capscope = cap;
    }
    p->scope[p->nscope++] = s;
}

/* One declarator after the specifiers: pointers, the name, array dimensions. */
tr_sym *tp_parse_declarator(parser *p, const specs *s, bool allow_abstract)
{
    tr_sym *sym = tr_alloc(p->u, sizeof *sym);
    sym->type = s->type;
    while (tp_accept(p, "*")) {
        sym->type.nptr++;
        for (;;) {
            if (tp_accept(p, "const") || tp_accept(p, "volatile")) continue;
            if (tp_accept(p, "__restrict__") || tp_accept(p, "restrict") ||
                tp_accept(p, "__restrict")) {
                sym->type.restrict_ptr = true;
                continue;
            }
            break;
        }
    }
    if (tp_accept(p, "&")) {
        if (tp_is(p, "&")) tp_bail(p, "C++", "rvalue references are outside the accepted subset");
        sym->type.is_ref = true;
        while (tp_accept(p, "__restrict__") || tp_accept(p, "__restrict"))
            ;
    }
    if (tp_is(p, "("))
        tp_bail(p, "function pointer", "function pointers are outside the accepted subset");
    const tr_token *t = tp_cur(p);
    /* a name, even one spelled like a CUDA type (`int dim3`): what follows says it is a name */
    bool named_like_type =
        t->kind == TR_IDENT &&
        (tp_in_list(t->text, named_types, sizeof named_types / sizeof *named_types) ||
         tp_std_typedef(t->text)) &&
        (tp_is_at(p, 1, ",") || tp_is_at(p, 1, ")") || tp_is_at(p, 1, ";") || tp_is_at(p, 1, "=") ||
         tp_is_at(p, 1, "[") || tp_is_at(p, 1, "("));
    if (t->kind == TR_IDENT && (!tp_is_type_start(p) || named_like_type)) {
        sym->name = tr_strdup(p->u, t->text);
        sym->file = t->file, sym->line = t->line, sym->col = t->col;
        p->i++;
    } else if (!allow_abstract) {
        tp_bail(p, "syntax", "expected a name in this declaration, found '%s'", t->text);
    } else {
        sym->name = tr_strdup(p->u, "");
        sym->file = t->file, sym->line = t->line, sym->col = t->col;
    }
    while (tp_accept(p, "[")) {
        if (sym->ndims == 4) tp_bail(p, "array", "arrays of more than 4 dimensions");
        sym->dims[sym->ndims++] = tp_is(p, "]") ? NULL : tp_parse_expr(p);
        tp_expect(p, "]");
    }
    if (s->alias_ndims) { /* row_t r[4]: r's dimensions, then the alias's */
        if (sym->type.nptr || sym->type.is_ref)
            tp_bail(p, "array type",
                    "a pointer or reference to an array type is outside the "
                    "accepted subset");
        if (sym->ndims + s->alias_ndims > 4)
            tp_bail(p, "array", "arrays of more than 4 dimensions");
        for (int d = 0; d < s->alias_ndims; d++)
            sym->dims[sym->ndims++] = s->alias_dims[d];
    }
    if (sym->type.nptr > 1)
        tp_bail(p, "pointer to pointer",
                "pointers to pointers are outside the accepted subset: their "
                "address spaces cannot be expressed on every target");
    return sym;
}

static tr_stmt *parse_stmt(parser *p);
static tr_stmt *new_stmt(parser *p, tr_stmt_kind k);

static bool has_brace(const tr_expr *e)
{
    if (!e) return false;
    if (e->kind == TR_E_INIT) return true;
    for (int i = 0; i < e->nargs; i++)
        if (has_brace(e->args[i])) return true;
    return has_brace(e->a) || has_brace(e->b) || has_brace(e->c);
}

/* The one function of the file named `name` (not overloaded), or NULL. */
static const tr_func *only_function(parser *p, const char *name)
{
    const tr_func *f = NULL;
    for (int i = 0; i < p->u->nfuncs; i++) {
        const tr_func *g = p->u->funcs[i];
        if (strcmp(g->src_name ? g->src_name : g->name, name)) continue;
        if (f) return NULL;
        f = g;
    }
    return f;
}

/* `f(x, {a, b})`, `f(P{a, b})`: a braced list that is a whole argument of a call of one of the
 * file's functions (whose parameter says its type, where the list does not) is given a variable
 * declared before the statement, in *decls. Not one under &&, || or ?: (`cond`), which might not
 * evaluate it: false there, and the statement is refused as before. */
static bool hoist_lists(parser *p, tr_expr *e, bool cond, tr_stmt ***decls, int *ndecls)
{
    if (!e) return true;
    if (e->kind == TR_E_CALL && e->a && e->a->kind == TR_E_IDENT) {
        const tr_func *f = NULL;
        for (int i = 0; i < e->nargs; i++) {
            tr_expr *arg = e->args[i];
            if (arg->kind != TR_E_INIT) {
                if (!hoist_lists(p, arg, cond, decls, ndecls)) return false;
                continue;
            }
            for (int k = 0; k < arg->nargs; k++)
                if (has_brace(arg->args[k])) return false;
            if (!f) f = only_function(p, e->a->text);
            const tr_type *t = arg->type;
            if (!t && f && i < f->nparams && !f->params[i]->type.nptr &&
                !f->params[i]->type.is_ref && f->params[i]->type.base &&
                (!strncmp(f->params[i]->type.base, "struct ", 7) ||
                 tp_is_named_type(f->params[i]->type.base)))
                t = &f->params[i]->type;
            if (cond || !t || t->nptr || (!arg->type && !f)) return false;
            char name[48]; /* one per place: unique in the function */
            snprintf(name, sizeof name, "braced_%d_%d", arg->line, arg->col);
            tr_sym *sym = tr_alloc(p->u, sizeof *sym);
            sym->name = tr_strdup(p->u, name);
            sym->kind = TR_SYM_LOCAL;
            sym->type = *t;
            sym->type.is_const = false;
            sym->owner = p->func;
            sym->file = arg->file, sym->line = arg->line;
            tr_stmt *d = new_stmt(p, TR_S_DECL);
            d->file = arg->file, d->line = arg->line;
            d->decls = tr_alloc(p->u, sizeof *d->decls);
            d->decls[0] = (tr_decl){sym, arg};
            d->ndecls = 1;
            tr_stmt **nd = tr_alloc(p->u, (size_t)(*ndecls + 1) * sizeof *nd);
            if (*ndecls) memcpy(nd, *decls, (size_t)*ndecls * sizeof *nd);
            nd[(*ndecls)++] = d;
            *decls = nd;
            tr_expr *id = tp_mk_ident(p, tp_cur(p), name);
            id->sym = sym;
            id->file = arg->file, id->line = arg->line, id->col = arg->col;
            e->args[i] = id;
        }
        return true;
    }
    bool sub = cond || e->kind == TR_E_COND ||
               (e->kind == TR_E_BINARY && (!strcmp(e->text, "&&") || !strcmp(e->text, "||")));
    for (int i = 0; i < e->nargs; i++)
        if (!hoist_lists(p, e->args[i], sub, decls, ndecls)) return false;
    /* the left operand of && and || and a ?:'s condition are always evaluated */
    return hoist_lists(p, e->a, cond, decls, ndecls) && hoist_lists(p, e->b, sub, decls, ndecls) &&
           hoist_lists(p, e->c, sub, decls, ndecls);
}

/* A braced list inside an expression (other than the whole value of a return or of an
 * assignment statement, or an argument hoisted above) has no C spelling the four targets
 * share: refused. */
static tr_stmt *no_brace(parser *p, tr_stmt *s)
{
    bool whole = s->e && (s->e->kind == TR_E_INIT ||
                          (s->e->kind == TR_E_ASSIGN && s->e->b->kind == TR_E_INIT));
    if (has_brace(s->e) && !whole && (s->kind == TR_S_EXPR || s->kind == TR_S_RETURN)) {
        tr_stmt **decls = NULL;
        int n = 0;
        if (hoist_lists(p, s->e, false, &decls, &n) && n && !has_brace(s->e)) {
            tr_stmt *b = new_stmt(p, TR_S_BLOCK);
            b->file = s->file, b->line = s->line;
            b->list = tr_alloc(p->u, (size_t)(n + 1) * sizeof *b->list);
            memcpy(b->list, decls, (size_t)n * sizeof *b->list);
            b->list[n] = s;
            b->n = n + 1;
            return b;
        }
    }
    if (has_brace(s->e))
        tp_bail(p, "brace list",
                "a braced list inside an expression is outside the accepted subset: give it a "
                "variable of its type first");
    return s;
}

/* `return {a, b};` and `x = {a, b};` (*slot, of type t, is the list): the value of a scalar
 * (`{v}` is v, `{}` is 0); for a struct, a vector or a plain array element, a block that
 * declares a variable of the type initialised with the list and uses it in its place:
 * `{ T braced_ = {a, b}; return braced_; }`. */
static tr_stmt *brace_stmt(parser *p, tr_stmt *s, const tr_type *t, tr_expr **slot)
{
    tr_expr *list = *slot;
    for (int i = 0; i < list->nargs; i++)
        if (has_brace(list->args[i]) && list->args[i]->kind != TR_E_INIT) return no_brace(p, s);
    if (!t->base || t->cg || t->is_ref || (!t->nptr && !strcmp(t->base, "void")))
        tp_bail(p, "brace list", "a braced list where no value of a known type is wanted");
    tr_struct *st = tp_member_struct(p, t);
    if (st && st->has_ctor)
        tp_bail(p, "brace list",
                "a braced list given to %s, which has a constructor: call it (%s(...))", st->name,
                st->name);
    if (t->nptr || (strncmp(t->base, "struct ", 7) != 0 && !tp_is_named_type(t->base))) {
        if (list->nargs > 1)
            tp_bail(p, "brace list", "a braced list of %d values for a scalar", list->nargs);
        *slot = list->nargs ? list->args[0] : tp_mk_num(p, tp_cur(p), "0");
        return no_brace(p, s);
    }
    tr_sym *sym = tr_alloc(p->u, sizeof *sym);
    sym->name = tr_strdup(p->u, "braced_");
    sym->kind = TR_SYM_LOCAL;
    sym->type = *t;
    sym->type.is_const = false;
    sym->owner = p->func;
    sym->file = s->file, sym->line = s->line;
    tr_stmt *d = new_stmt(p, TR_S_DECL);
    d->file = s->file, d->line = s->line;
    d->decls = tr_alloc(p->u, sizeof *d->decls);
    d->decls[0] = (tr_decl){sym, list};
    d->ndecls = 1;
    tr_expr *id = tp_mk_ident(p, tp_cur(p), "braced_");
    id->sym = sym;
    id->file = list->file, id->line = list->line, id->col = list->col;
    *slot = id;
    tr_stmt *b = new_stmt(p, TR_S_BLOCK);
    b->file = s->file, b->line = s->line;
    b->list = tr_alloc(p->u, 2 * sizeof *b->list);
    b->list[0] = d;
    b->list[1] = s;
    b->n = 2;
    return b;
}

static tr_stmt *new_stmt(parser *p, tr_stmt_kind k)
{
    tr_stmt *s = tr_alloc(p->u, sizeof *s);
    s->kind = k;
    s->file = tp_cur(p)->file;
    s->line = tp_cur(p)->line;
    return s;
}

/* C++'s direct and list initialisation of a variable that has no constructor: `int n(a);` and
 * `int n{a};` are `int n = a;`, `T x{};` is zero (`{0}` for a struct or an array), and
 * `S s{a, b};`, `int v[2]{a, b};` are `= {a, b}`. */
static tr_expr *direct_init(parser *p, const tr_sym *sym)
{
    const tr_token *at = tp_cur(p);
    bool scalar = !sym->ndims && (sym->type.nptr || strncmp(sym->type.base, "struct ", 7) != 0);
    if (tp_accept(p, "(")) {
        if (tp_is_type_start(p))
            tp_bail(p, "syntax", "a function declared inside a function: declare it at file scope");
        if (sym->ndims) tp_bail(p, "syntax", "an array initialised with '(...)'");
        tr_expr *e = tp_parse_assign(p);
        if (tp_is(p, ","))
            tp_bail(p, "C++", "%s(...) with several values initialises no type of the subset",
                    sym->name);
        tp_expect(p, ")");
        return e;
    }
    if (tp_is(p, "{") && tp_is_at(p, 1, "}")) { /* value-initialised: zero */
        p->i += 2;
        tr_expr *zero = tp_mk_num(p, at, "0");
        if (scalar) return zero;
        tr_expr *e = tp_new_expr(p, TR_E_INIT, at);
        e->args = tr_alloc(p->u, sizeof *e->args);
        e->args[e->nargs++] = zero;
        return e;
    }
    tr_expr *e = tp_parse_primary(p);
    if (scalar && e->kind == TR_E_INIT && e->nargs == 1 && !tp_is_named_type(sym->type.base))
        return e->args[0];
    return e;
}

static tr_stmt *parse_decl_stmt(parser *p)
{
    tr_stmt *st = new_stmt(p, TR_S_DECL);
    specs s = tp_parse_specs(p);
    if (s.is_typedef) { /* a type name to the end of the block */
        if (s.shared || s.global || s.device || s.constant || s.is_static || s.is_auto)
            tp_bail(p, "syntax", "storage classes on a typedef");
        tp_parse_typedef(p, &s);
        st->kind = TR_S_EMPTY;
        return st;
    }
    if (s.constant) tp_bail(p, "__constant__", "__constant__ data is declared at file scope");
    if (s.global || s.device || s.host || s.managed)
        tp_bail(p, "syntax", "function attributes on a local declaration");
    if (s.is_static && !s.shared)
        tp_bail(p, "static local",
                "static local variables keep their value between work-items on "
                "the CPU and are refused: use a buffer");
    do {
        tr_sym *sym = tp_parse_declarator(p, &s, false);
        sym->owner = p->func;
        if (s.is_auto && !sym->type.cg && !sym->ndims && tp_is(p, "=")) {
            /* auto x = e; where e's type is known exactly: that type */
            size_t at = p->i;
            p->i++;
            tr_expr *init = tp_parse_assign(p);
            char base[64];
            int nptr = 0;
            /* values only: a pointer's pointee constness and space are not in the guess */
            tr_type pt;
            bool value = init->kind != TR_E_CG && !(init->kind == TR_E_IDENT && init->cg) &&
                         !sym->type.nptr && !sym->type.is_ref &&
                         auto_type(p, init, base, sizeof base, &nptr) && !nptr;
            /* a pointer: `auto q = p + i;`, `auto *q = &a[i];` (a `const` before `auto` with no
             * `*` is the pointer's own, which C code need not keep) */
            bool pointer = !value && !sym->type.is_ref && init->kind != TR_E_CG &&
                           auto_pointer(p, init, &pt) &&
                           (!sym->type.nptr || sym->type.nptr == pt.nptr);
            if (value || pointer) {
                bool is_const = sym->type.is_const;
                int declared_nptr = sym->type.nptr;
                sym->type = (tr_type){0};
                if (pointer) {
                    sym->type = pt;
                    sym->type.is_const = pt.is_const || (is_const && declared_nptr);
                    snprintf(base, sizeof base, "%s", pt.base);
                }
                sym->type.base = tr_strdup(p->u, base);
                if (!pointer) sym->type.is_const = is_const;
                sym->kind = TR_SYM_LOCAL;
                tr_decl d = {sym, init};
                tr_decl *nd = tr_alloc(p->u, (size_t)(st->ndecls + 1) * sizeof *nd);
                if (st->ndecls) memcpy(nd, st->decls, (size_t)st->ndecls * sizeof *nd);
                nd[st->ndecls++] = d;
                st->decls = nd;
                tp_scope_push(p, sym);
                continue;
            }
            p->i = at; /* a group, or a type the translation cannot tell: as before */
        }
        if (s.is_auto || sym->type.cg) {
            /* a group object: `auto b = cg::this_thread_block();`, `thread_block_tile<32> w =
             * tiled_partition<32>(b);` exists only here, its uses become the dialect's */
            if (!tp_accept(p, "="))
                tp_bail(p, s.is_auto ? "auto" : "cooperative groups",
                        s.is_auto ? "'auto' is translated for cooperative groups and for values "
                                    "whose type the "
                                    "translation knows exactly: write the type"
                                  : "a group variable needs its initialiser");
            tr_expr *init = tp_parse_assign(p);
            if (init->kind != TR_E_CG && !(init->kind == TR_E_IDENT && init->cg))
                tp_bail(p, s.is_auto ? "auto" : "cooperative groups",
                        s.is_auto ? "'auto' is translated for cooperative groups and for values "
                                    "whose type the "
                                    "translation knows exactly: write the type"
                                  : "a group variable is initialised with this_thread_block() "
                                    "or tiled_partition()");
            if (sym->type.cg == TR_CG_TILE && init->cg == TR_CG_TILE &&
                sym->type.cg_width != init->cg_width && sym->type.cg_width)
                tp_bail(p, "cooperative groups",
                        "a thread_block_tile<%d> initialised with a "
                        "tile of %d",
                        sym->type.cg_width, init->cg_width);
            if (s.is_auto || init->cg != TR_CG_OP) {
                sym->type.cg = init->cg;
                sym->type.cg_width = init->cg_width;
            }
            sym->type.base = tr_strdup(p->u, "cg");
            sym->type.is_ref = false;
            tp_scope_push(p, sym);
            continue; /* declares nothing in the output */
        }
        sym->kind = s.shared ? (s.is_extern ? TR_SYM_DYN_SHARED : TR_SYM_SHARED) : TR_SYM_LOCAL;
        if (s.shared)
            sym->type.space = TR_SP_SHARED;
        else if (sym->ndims)
            sym->type.space = TR_SP_PRIVATE;
        if (sym->kind == TR_SYM_DYN_SHARED && (sym->ndims != 1 || sym->dims[0] != NULL))
            tp_bail(p, "extern __shared__",
                    "the dynamic shared block is declared as 'extern __shared__ T name[];'");
        if (sym->kind == TR_SYM_SHARED)
            for (int d = 0; d < sym->ndims; d++)
                if (!sym->dims[d])
                    tp_bail(p, "__shared__", "a static __shared__ array needs its size");
        tr_decl d = {sym, tp_ctor_init(p, sym)}; /* S s(a, b); and the like (members.c) */
        bool direct = !d.init && (tp_is(p, "(") || tp_is(p, "{"));
        if (!d.init && (direct || tp_accept(p, "="))) {
            if (s.shared) tp_bail(p, "__shared__", "__shared__ variables cannot be initialised");
            size_t init_at = p->i + (direct ? 1 : 0);
            d.init = direct          ? direct_init(p, sym)
                     : tp_is(p, "{") ? tp_parse_primary(p)
                                     : tp_parse_assign(p);
            /* `constexpr int UNROLL = 8;`: a constant C can size an array with (print.c) */
            if (sym->kind == TR_SYM_LOCAL && sym->type.is_const && !sym->type.nptr && !sym->ndims &&
                d.init->kind != TR_E_INIT)
                sym->init = d.init; /* print.c writes it only where it is a constant */
            /* its value, for a template argument written with it (`f<T, E>(...)`) */
            size_t init_end = p->i - (direct ? 1 : 0);
            long long cv;
            if (sym->kind == TR_SYM_LOCAL && !sym->type.nptr && !sym->ndims && sym->type.base &&
                tp_integer_type_name(sym->type.base) && init_end > init_at &&
                tp_const_tokens(p, p->t + init_at, init_end - init_at, &cv)) {
                if (sym->type.is_const)
                    sym->has_cvalue = true, sym->cvalue = cv;
                else /* a constant where the function never changes it (overload.c) */
                    sym->has_init_cvalue = true, sym->init_cvalue = cv;
            }
        }
        if (sym->type.is_ref) {
            /* a local reference `float &r = a[i];` is a pointer to what it names */
            if (!d.init || sym->ndims || s.shared)
                tp_bail(p, "C++", "a reference variable needs an initialiser it refers to");
            if (sym->type.is_const && !sym->type.nptr) {
                sym->type.is_ref = false; /* a const reference to a value: the value */
            } else {
                tr_expr *a = tp_new_expr(p, TR_E_UNARY, tp_cur(p));
                a->text = tr_strdup(p->u, "&");
                a->a = d.init;
                a->file = d.init->file, a->line = d.init->line, a->col = d.init->col;
                d.init = a;
                sym->type.nptr++;
                sym->type.is_ref = false;
                sym->ref = true;
                if (sym->type.nptr > 1)
                    tp_bail(p, "pointer to pointer",
                            "a reference to a pointer is a pointer to "
                            "a pointer, outside the accepted subset");
            }
        }
        if (d.init && d.init->kind != TR_E_INIT && has_brace(d.init)) {
            /* T x = f(a, {b, c});: the list's variable declared first, as for a statement */
            tr_stmt **hs = NULL;
            int nh = 0;
            if (!hoist_lists(p, d.init, false, &hs, &nh) || has_brace(d.init))
                tp_bail(p, "brace list",
                        "a braced list inside an expression is outside the accepted subset: give "
                        "it a variable of its type first");
            tr_decl *hd = tr_alloc(p->u, (size_t)(st->ndecls + nh) * sizeof *hd);
            if (st->ndecls) memcpy(hd, st->decls, (size_t)st->ndecls * sizeof *hd);
            for (int h = 0; h < nh; h++)
                hd[st->ndecls++] = hs[h]->decls[0];
            st->decls = hd;
        }
        tr_decl *nd = tr_alloc(p->u, (size_t)(st->ndecls + 1) * sizeof *nd);
        if (st->ndecls) memcpy(nd, st->decls, (size_t)st->ndecls * sizeof *nd);
        nd[st->ndecls++] = d;
        st->decls = nd;
        tp_scope_push(p, sym);
    } while (tp_accept(p, ","));
    tp_expect(p, ";");
    return st;
}

/* A declaration the translation wrote (`text`, CUDA) parsed in place, at `at`'s position. */
static tr_stmt *parse_text_decl(parser *p, const char *text, const tr_token *at)
{
    tr_tokens *toks = tp_scratch_take(p, 1); /* the declaration's parse may bail */
    char err[256];
    if (tr_lex("<translation>", at->file, text, strlen(text), toks, err, sizeof err) != 0)
        tp_bail(p, "syntax", "internal: %s", err);
    for (size_t i = 0; i < toks->n; i++)
        toks->v[i].line = at->line, toks->v[i].col = at->col, toks->v[i].file = at->file;
    tr_token *st = p->t;
    size_t sn = p->n, si = p->i, se = p->end;
    p->t = toks->v, p->n = toks->n, p->i = 0, p->end = toks->n - 1;
    tr_stmt *s = parse_decl_stmt(p);
    p->t = st, p->n = sn, p->i = si, p->end = se;
    tp_scratch_drop(p, toks);
    return s;
}

tr_stmt *tp_parse_block(parser *p)
{
    tr_stmt *b = new_stmt(p, TR_S_BLOCK);
    tp_expect(p, "{");
    int mark = p->nscope, aliases = p->naliases;
    while (!tp_is(p, "}")) {
        if (tp_cur(p)->kind == TR_EOF) tp_bail(p, "syntax", "missing '}'");
        tr_stmt *s = parse_stmt(p);
        tr_stmt **nl = tr_alloc(p->u, (size_t)(b->n + 1) * sizeof *nl);
        if (b->n) memcpy(nl, b->list, (size_t)b->n * sizeof *nl);
        nl[b->n++] = s;
        b->list = nl;
    }
    tp_expect(p, "}");
    p->nscope = mark;
    tp_aliases_truncate(p, aliases);
    return b;
}

/* Appends `s` to the C string literal being built in sb, escaped; a '%' doubled (the literal is
 * a printf format). */
static void put_format_text(gp_strbuf *sb, const char *s)
{
    for (; *s; s++) {
        if (*s == '"' || *s == '\\') gp_strbuf_putc(sb, '\\');
        if (*s == '%') gp_strbuf_putc(sb, '%');
        gp_strbuf_putc(sb, *s);
    }
}

/* Whether the file defines a function of that name (in the source). */
static bool user_function(parser *p, const char *name)
{
    for (int i = 0; i < p->u->nfuncs; i++) {
        const tr_func *g = p->u->funcs[i];
        if (!strcmp(g->src_name ? g->src_name : g->name, name)) return true;
    }
    return false;
}

/* `assert(e);` as a statement of its own (no NDEBUG): where e is false, the message CUDA's
 * assert prints (file, line, function, block, thread, the condition as written) is printed
 * through printf, which becomes gp_printf; the work-item goes on, since no target but CUDA can
 * stop a kernel (the report says so). A string literal joined by && (`assert(ok && "why")`) is
 * true: left out of the test, kept in the message; `assert(!"why")` always fails. */
static tr_stmt *assert_stmt(parser *p)
{
    const tr_token *at = tp_cur(p);
    size_t open = p->i + 1, close = open + 1;
    for (int depth = 1; close < p->end; close++) {
        const tr_token *k = &p->t[close];
        if (k->kind != TR_PUNCT) continue;
        if (!strcmp(k->text, "(")) depth++;
        if (!strcmp(k->text, ")") && --depth == 0) break;
    }
    if (close >= p->end || close == open + 1) tp_bail(p, "syntax", "assert without a condition");
    size_t lo = open + 1, hi = close;
    bool never = false; /* assert(!"unreachable") */
    if (hi - lo >= 2 && !strcmp(p->t[lo].text, "!") && p->t[lo].kind == TR_PUNCT) {
        size_t k = lo + 1;
        while (k < hi && p->t[k].kind == TR_STRING)
            k++;
        never = k == hi;
    }
    if (!never) {
        while (hi > lo && p->t[hi - 1].kind == TR_STRING) { /* cond && "why" */
            size_t s = hi - 1;
            while (s > lo && p->t[s - 1].kind == TR_STRING)
                s--;
            if (s <= lo || strcmp(p->t[s - 1].text, "&&")) break;
            hi = s - 1;
        }
        while (lo < hi && p->t[lo].kind == TR_STRING) { /* "why" && cond */
            size_t s = lo;
            while (s < hi && p->t[s].kind == TR_STRING)
                s++;
            if (s >= hi || strcmp(p->t[s].text, "&&")) break;
            lo = s + 1;
        }
    }
    tr_expr *cond = NULL;
    if (!never) {
        size_t end = p->end;
        p->i = lo;
        p->end = hi;
        tr_expr *e = tp_parse_expr(p);
        if (p->i != hi) tp_bail(p, "syntax", "unexpected '%s' in assert", tp_cur(p)->text);
        p->end = end;
        cond = tp_new_expr(p, TR_E_UNARY, at);
        cond->text = tr_strdup(p->u, "!");
        cond->a = e;
    }
    p->i = close + 1;
    tp_expect(p, ";");

    /* the condition as the preprocessor's #e writes it: tokens, a space where there was one */
    gp_strbuf msg = {0};
    gp_strbuf_putc(&msg, '"');
    put_format_text(&msg, p->u->pp.files[at->file]);
    gp_strbuf_printf(&msg, ":%d: ", at->line);
    put_format_text(&msg, p->func ? p->func->name : "");
    gp_strbuf_puts(&msg, ": block: [%u,%u,%u], thread: [%u,%u,%u] Assertion `");
    for (size_t k = open + 1; k < close; k++) {
        const tr_token *a = &p->t[k - 1], *b = &p->t[k];
        if (k > open + 1 && (b->line != a->line || b->col > a->col + (int)strlen(a->text)))
            gp_strbuf_putc(&msg, ' ');
        put_format_text(&msg, b->text);
    }
    gp_strbuf_puts(&msg, "` failed.\\n\"");

    tr_expr *call = tp_new_expr(p, TR_E_CALL, at);
    call->a = tp_mk_ident(p, at, "printf");
    call->origin = "assert";
    call->nargs = 7;
    call->args = tr_alloc(p->u, 7 * sizeof *call->args);
    call->args[0] = tp_new_expr(p, TR_E_STR, at);
    call->args[0]->text = tr_strdup(p->u, msg.data);
    gp_strbuf_free(&msg);
    for (int i = 0; i < 6; i++) {
        tr_expr *m = tp_new_expr(p, TR_E_MEMBER, at);
        m->text = tr_strdup(p->u, ".");
        m->a = tp_mk_ident(p, at, i < 3 ? "blockIdx" : "threadIdx");
        m->name = tr_strdup(p->u, (const char *[]){"x", "y", "z"}[i % 3]);
        call->args[1 + i] = m;
    }
    tr_stmt *print = new_stmt(p, TR_S_EXPR);
    print->file = at->file, print->line = at->line;
    print->e = call;
    if (never) return print;
    tr_stmt *s = new_stmt(p, TR_S_IF);
    s->file = at->file, s->line = at->line;
    s->cond = cond;
    s->body = print;
    return s;
}

static tr_stmt *parse_stmt(parser *p)
{
    const tr_token *t = tp_cur(p);
    if (t->kind == TR_DIRECTIVE) {
        tr_stmt *s = new_stmt(p, TR_S_PRAGMA);
        s->text = tr_strdup(p->u, t->text);
        p->i++;
        return s;
    }
    if (tp_is(p, "{")) return tp_parse_block(p);
    if (tp_accept(p, ";")) return new_stmt(p, TR_S_EMPTY);
    if (t->kind == TR_IDENT) {
        const char *w = t->text;
        /* `namespace cg = cooperative_groups;` and `using namespace cooperative_groups;` in a
         * function: the names are the same from there on */
        if (!strcmp(w, "namespace") && p->i + 4 < p->end && tp_is_at(p, 2, "=") &&
            tp_is_cg_namespace(p, p->t[p->i + 3].text) && tp_is_at(p, 4, ";")) {
            char **n = realloc(p->cg_names, (size_t)(p->ncg_names + 1) * sizeof *n);
            if (!n) abort();
            p->cg_names = n;
            n[p->ncg_names++] = tr_strdup(p->u, p->t[p->i + 1].text);
            p->i += 5;
            return new_stmt(p, TR_S_EMPTY);
        }
        if (!strcmp(w, "using") && p->i + 3 < p->end && tp_is_at(p, 1, "namespace") &&
            tp_is_cg_namespace(p, p->t[p->i + 2].text) && tp_is_at(p, 3, ";")) {
            p->using_cg = true;
            p->i += 4;
            return new_stmt(p, TR_S_EMPTY);
        }
        /* CUB's aliases (`using BlockReduce = cub::BlockReduce<...>;`) before other aliases */
        char *cub_decl;
        if (tp_cub_stmt(p, &cub_decl))
            return cub_decl ? parse_text_decl(p, cub_decl, t) : new_stmt(p, TR_S_EMPTY);
        if (!strcmp(w, "using") && tp_is_at(p, 2, "=") && p->i + 1 < p->end &&
            p->t[p->i + 1].kind == TR_IDENT) { /* using T = float; to the end of the block */
            tr_stmt *s = new_stmt(p, TR_S_EMPTY);
            tp_parse_using_alias(p);
            return s;
        }
        if (!strcmp(w, "if")) {
            tr_stmt *s = new_stmt(p, TR_S_IF);
            p->i++;
            /* if constexpr: its condition is a constant, so both branches are C's if; the
             * discarded one must still translate (it is written, and built) */
            tp_accept(p, "constexpr");
            tp_expect(p, "(");
            s->cond = tp_parse_expr(p);
            tp_expect(p, ")");
            s->body = parse_stmt(p);
            if (tp_accept(p, "else")) s->els = parse_stmt(p);
            return s;
        }
        if (!strcmp(w, "for")) {
            tr_stmt *s = new_stmt(p, TR_S_FOR);
            p->i++;
            tp_expect(p, "(");
            int mark = p->nscope;
            if (tp_accept(p, ";"))
                s->init = NULL;
            else if (tp_is_type_start(p))
                s->init = parse_decl_stmt(p);
            else {
                s->init = new_stmt(p, TR_S_EXPR);
                s->init->e = tp_parse_expr(p);
                tp_expect(p, ";");
            }
            if (!tp_is(p, ";")) s->cond = tp_parse_expr(p);
            tp_expect(p, ";");
            if (!tp_is(p, ")")) s->step = tp_parse_expr(p);
            tp_expect(p, ")");
            s->body = parse_stmt(p);
            p->nscope = mark;
            return s;
        }
        if (!strcmp(w, "while")) {
            tr_stmt *s = new_stmt(p, TR_S_WHILE);
            p->i++;
            tp_expect(p, "(");
            s->cond = tp_parse_expr(p);
            tp_expect(p, ")");
            s->body = parse_stmt(p);
            return s;
        }
        if (!strcmp(w, "do")) {
            tr_stmt *s = new_stmt(p, TR_S_DO);
            p->i++;
            s->body = parse_stmt(p);
            tp_expect(p, "while");
            tp_expect(p, "(");
            s->cond = tp_parse_expr(p);
            tp_expect(p, ")");
            tp_expect(p, ";");
            return s;
        }
        if (!strcmp(w, "return")) {
            tr_stmt *s = new_stmt(p, TR_S_RETURN);
            p->i++;
            if (!tp_is(p, ";")) s->e = tp_parse_expr(p);
            tr_stmt *r = s->e && s->e->kind == TR_E_INIT
                             ? brace_stmt(p, s, s->e->type ? s->e->type : &p->func->ret, &s->e)
                             : no_brace(p, s);
            tp_expect(p, ";");
            return r;
        }
        if (!strcmp(w, "break") || !strcmp(w, "continue")) {
            tr_stmt *s = new_stmt(p, !strcmp(w, "break") ? TR_S_BREAK : TR_S_CONTINUE);
            p->i++;
            tp_expect(p, ";");
            return s;
        }
        if (!strcmp(w, "switch")) {
            tr_stmt *s = new_stmt(p, TR_S_SWITCH);
            p->i++;
            tp_expect(p, "(");
            s->cond = tp_parse_expr(p);
            tp_expect(p, ")");
            s->body = parse_stmt(p);
            return s;
        }
        if (!strcmp(w, "case")) {
            tr_stmt *s = new_stmt(p, TR_S_CASE);
            p->i++;
            s->e = parse_cond(p);
            tp_expect(p, ":");
            return s;
        }
        if (!strcmp(w, "default")) {
            tr_stmt *s = new_stmt(p, TR_S_DEFAULT);
            p->i++;
            tp_expect(p, ":");
            return s;
        }
        if (!strcmp(w, "goto")) tp_bail(p, "goto", "goto is outside the accepted subset");
        if (!strcmp(w, "asm") || !strcmp(w, "__asm__") || !strcmp(w, "__asm"))
            tp_bail(p, "inline PTX", "inline PTX (asm) runs only on NVIDIA GPUs: write it in C");
        if ((!strcmp(w, "static_assert") || !strcmp(w, "_Static_assert")) && tp_is_at(p, 1, "(")) {
            /* a check made when CUDA compiled the file: nothing at run time, nothing here */
            size_t k = p->i + 1;
            for (int depth = 0; k < p->end; k++) {
                if (p->t[k].kind != TR_PUNCT) continue;
                if (!strcmp(p->t[k].text, "(")) depth++;
                if (!strcmp(p->t[k].text, ")") && --depth == 0) break;
            }
            p->i = k + 1;
            tp_expect(p, ";");
            return new_stmt(p, TR_S_EMPTY);
        }
        if (!strcmp(w, "assert") && tp_is_at(p, 1, "(") && !tp_lookup(p, w) && !user_function(p, w))
            return assert_stmt(p);
        if (tp_is_type_start(p)) return parse_decl_stmt(p);
        if (p->i + 1 < p->end && p->t[p->i + 1].kind == TR_IDENT && !tp_lookup(p, w))
            left_out_struct(p); /* `RNG rng(seed);` of a struct left out: why */
    }
    tr_stmt *s = new_stmt(p, TR_S_EXPR);
    s->e = tp_parse_expr(p);
    if (s->e->kind == TR_E_ASSIGN && !strcmp(s->e->text, "=") && s->e->b->kind == TR_E_INIT) {
        /* x = {a, b}; and x = T{a, b}; */
        if (s->e->b->type) {
            tr_stmt *r = brace_stmt(p, s, s->e->b->type, &s->e->b);
            tp_expect(p, ";");
            return r;
        }
        char base[160];
        int nptr;
        if (!tp_guess_type(p, s->e->a, base, sizeof base, &nptr))
            tp_bail(p, "brace assignment",
                    "an assignment of a braced list to something whose type the translation "
                    "cannot tell: assign the fields one by one");
        tr_type ty = {0};
        ty.base = tr_strdup(p->u, base);
        ty.nptr = nptr;
        tr_stmt *r = brace_stmt(p, s, &ty, &s->e->b);
        tp_expect(p, ";");
        return r;
    }
    tr_stmt *r = no_brace(p, s);
    tp_expect(p, ";");
    return r;
}
