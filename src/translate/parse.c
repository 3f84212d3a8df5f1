/* parse.c — the grammar of device code in the accepted CUDA C subset: types, expressions,
 * declarations and statements, into the tree of ast.h. A construct outside the subset is a
 * refusal at its line (tp_bail), and the function that holds it is kept out of the output. The
 * C++ that real kernels use is read too: references (held as pointers), functional casts,
 * nullptr, templates (template.c) and cooperative groups (coop.c). */
#include "util/thread.h"
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
    return (tp_mark){p->t, p->n, p->end, p->nscope, p->scratch};
}

void tp_back_to(parser *p, const tp_mark *m)
{
    p->t = m->t, p->n = m->n, p->end = m->end;
    p->nscope = m->nscope;
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
    "__nv_bfloat16",
    "dim3",
    "cudaTextureObject_t",
    "cudaSurfaceObject_t",
    "uchar4",
    "char4",
    "longlong2",
    "ulonglong2",
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

tr_struct *tp_find_struct(tr_unit *u, const char *name)
{
    for (int i = 0; i < u->nstructs; i++)
        if ((u->structs[i].tag && !strcmp(u->structs[i].tag, name)) ||
            !strcmp(u->structs[i].name, name))
            return &u->structs[i];
    return NULL;
}

static typedef_alias *find_alias(parser *p, const char *name)
{
    for (int i = 0; i < p->naliases; i++)
        if (strcmp(p->aliases[i].name, name) == 0) return &p->aliases[i];
    return NULL;
}

static const char *const qualifier_words[] = {
    "constexpr",    "typename",
    "const",        "volatile",
    "__restrict__", "restrict",
    "__restrict",   "static",
    "extern",       "inline",
    "__inline__",   "__forceinline__",
    "__noinline__", "__global__",
    "__device__",   "__host__",
    "__shared__",   "__constant__",
    "__managed__",  "register",
    "typedef",      "__launch_bounds__",
    "__align__",    "__grid_constant__",
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
    return find_alias(p, t->text) != NULL;
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
        else if (!strcmp(w, "__launch_bounds__") || !strcmp(w, "__align__")) {
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
        else if (!strcmp(w, "struct") && !base[0] && p->i + 1 < p->end &&
                 tp_find_struct(p->u, p->t[p->i + 1].text)) {
            /* struct Node: a plain struct of the file */
            p->i++;
            snprintf(base, sizeof base, "struct %s", tp_find_struct(p->u, tp_cur(p)->text)->name);
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
            s.type.is_const |= c;
            s.type.is_volatile |= v;
            snprintf(base, sizeof base, "%s", a->type.base);
        } else
            break;
        p->i++;
    }
    if (!base[0] && !longs && !is_unsigned && !is_signed)
        tp_bail(p, "syntax", "expected a type before '%s'", tp_cur(p)->text);
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
/* The type C++ gives `auto x = e;` where the translation can tell it exactly: literals, casts,
 * variables, elements, CUDA's indices (unsigned int), the float math functions, and arithmetic
 * and comparisons of int, unsigned int, float and double. false: not known, so refused. */
static bool auto_type(parser *p, const tr_expr *e, char *base, size_t cap, int *nptr)
{
    static const char *const rank[] = {"double", "float", "unsigned int", "int"};
    if (!e) return false;
    if (e->kind == TR_E_BUILTIN) return snprintf(base, cap, "unsigned int"), *nptr = 0, true;
    if (e->kind == TR_E_NUM && strpbrk(e->text, "lL")) return false; /* 1ull, 2L: 64-bit */
    if (e->kind == TR_E_BINARY || e->kind == TR_E_COND) {
        const char *op = e->text;
        const tr_expr *x = e->kind == TR_E_COND ? e->b : e->a,
                      *y = e->kind == TR_E_COND ? e->c : e->b;
        char a[64], b[64];
        int na, nb;
        if (!auto_type(p, x, a, sizeof a, &na) || !auto_type(p, y, b, sizeof b, &nb)) return false;
        if (na || nb) return false;
        int ra = -1, rb = -1;
        for (int i = 0; i < 4; i++) {
            if (!strcmp(a, rank[i])) ra = i;
            if (!strcmp(b, rank[i])) rb = i;
        }
        if (ra < 0 || rb < 0) return false;
        if (e->kind == TR_E_BINARY &&
            (!strcmp(op, "<") || !strcmp(op, ">") || !strcmp(op, "<=") || !strcmp(op, ">=") ||
             !strcmp(op, "==") || !strcmp(op, "!=") || !strcmp(op, "&&") || !strcmp(op, "||")))
            return snprintf(base, cap, "bool"), *nptr = 0, true;
        if (e->kind == TR_E_BINARY && (!strcmp(op, "<<") || !strcmp(op, ">>")))
            return snprintf(base, cap, "%s", a), *nptr = 0, ra >= 2; /* the left operand's */
        if (e->kind == TR_E_BINARY && strcmp(op, "+") && strcmp(op, "-") && strcmp(op, "*") &&
            strcmp(op, "/") && strcmp(op, "%") && strcmp(op, "&") && strcmp(op, "|") &&
            strcmp(op, "^"))
            return false;
        snprintf(base, cap, "%s", rank[ra < rb ? ra : rb]);
        *nptr = 0;
        return true;
    }
    if (e->kind == TR_E_MEMBER) { /* threadIdx.x and the other indices: unsigned int */
        static const char *const idx[] = {"threadIdx", "blockIdx", "blockDim", "gridDim"};
        if (e->a->kind == TR_E_IDENT && !e->a->sym && tp_in_list(e->a->text, idx, 4) &&
            !strcmp(e->text, ".") && strchr("xyz", e->name[0]) && !e->name[1])
            return snprintf(base, cap, "unsigned int"), *nptr = 0, true;
        return false;
    }
    return tp_guess_type(p, e, base, cap, nptr);
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
        /* vector members */
        if (!tp_guess_type(p, e->a, base, cap, nptr) || *nptr) return false;
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
    bool r = tp_is_type_start(p) && !tp_is(p, "__restrict__");
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
        if (!strcmp(t->text, "__syncthreads_count") || !strcmp(t->text, "__syncthreads_and") ||
            !strcmp(t->text, "__syncthreads_or"))
            break; /* a call, mapped (refused) by name in the lowering */
        if (tp_is_type_start(p) && tp_is_at(p, 1, "(") && !tp_lookup(p, t->text) &&
            !tp_is_cg_namespace(p, t->text)) {
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
                return tp_parse_primary(p);
            }
            if (tp_is_namespace(p, t->text) && p->i + 2 < p->end &&
                p->t[p->i + 2].kind == TR_IDENT) {
                p->i += 2; /* util::twice: the file's own namespace, flattened (items.c) */
                return tp_parse_primary(p);
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

static tr_expr *parse_postfix(parser *p)
{
    tr_expr *e = tp_parse_primary(p);
    for (;;) {
        const tr_token *t = tp_cur(p);
        if (tp_accept(p, "[")) {
            tr_expr *x = tp_new_expr(p, TR_E_INDEX, t);
            x->a = e;
            x->b = tp_parse_expr(p);
            tp_expect(p, "]");
            e = x;
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
            if (method) {
                e = tp_cg_method(p, x, x->a->a->sym, x->a->name);
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
        tp_in_list(t->text, named_types, sizeof named_types / sizeof *named_types) &&
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
    if (sym->type.nptr > 1)
        tp_bail(p, "pointer to pointer",
                "pointers to pointers are outside the accepted subset: their "
                "address spaces cannot be expressed on every target");
    return sym;
}

static tr_stmt *parse_stmt(parser *p);

static tr_stmt *new_stmt(parser *p, tr_stmt_kind k)
{
    tr_stmt *s = tr_alloc(p->u, sizeof *s);
    s->kind = k;
    s->file = tp_cur(p)->file;
    s->line = tp_cur(p)->line;
    return s;
}

static tr_stmt *parse_decl_stmt(parser *p)
{
    tr_stmt *st = new_stmt(p, TR_S_DECL);
    specs s = tp_parse_specs(p);
    if (s.is_typedef)
        tp_bail(p, "typedef", "typedefs inside functions are outside the accepted subset");
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
            if (init->kind != TR_E_CG && !(init->kind == TR_E_IDENT && init->cg) &&
                !sym->type.nptr && auto_type(p, init, base, sizeof base, &nptr) && !nptr) {
                bool is_const = sym->type.is_const;
                sym->type = (tr_type){0};
                sym->type.base = tr_strdup(p->u, base);
                sym->type.is_const = is_const;
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
        tr_decl d = {sym, NULL};
        if (tp_accept(p, "=")) {
            if (s.shared) tp_bail(p, "__shared__", "__shared__ variables cannot be initialised");
            d.init = tp_is(p, "{") ? tp_parse_primary(p) : tp_parse_assign(p);
            /* `constexpr int UNROLL = 8;`: a constant C can size an array with (print.c) */
            if (sym->kind == TR_SYM_LOCAL && sym->type.is_const && !sym->type.nptr && !sym->ndims &&
                d.init->kind == TR_E_NUM)
                sym->init = d.init;
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
    int mark = p->nscope;
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
    return b;
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
            tp_expect(p, ";");
            return s;
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
        char *cub_decl;
        if (tp_cub_stmt(p, &cub_decl))
            return cub_decl ? parse_text_decl(p, cub_decl, t) : new_stmt(p, TR_S_EMPTY);
        if (tp_is_type_start(p)) return parse_decl_stmt(p);
    }
    tr_stmt *s = new_stmt(p, TR_S_EXPR);
    s->e = tp_parse_expr(p);
    tp_expect(p, ";");
    return s;
}
