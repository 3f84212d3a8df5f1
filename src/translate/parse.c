/* parse.c — the parser of the accepted CUDA C subset. The file is cut into top-level items by
 * brace matching first; host items (no __global__/__device__/__constant__) are skipped without
 * being parsed, since the host side is not translated. Device items are parsed into the tree of
 * ast.h; a construct outside the subset becomes a refusal at its line, and the function that
 * holds it is kept out of the output. */
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "translate/ast.h"

/* ---- arena and diagnostics ---------------------------------------------------------------- */
void *tr_alloc(tr_unit *u, size_t size)
{
    void *p = calloc(1, size ? size : 1);
    if (!p) abort(); /* the translator's inputs are capped; running out here is not recoverable */
    if ((u->nblocks & (u->nblocks - 1)) == 0) { /* capacity doubles at powers of two */
        void **b = realloc(u->blocks, (u->nblocks ? u->nblocks * 2 : 64) * sizeof *b);
        if (!b) abort();
        u->blocks = b;
    }
    u->blocks[u->nblocks++] = p;
    return p;
}

char *tr_strdup(tr_unit *u, const char *s)
{
    size_t n = strlen(s) + 1;
    char *p = tr_alloc(u, n);
    memcpy(p, s, n);
    return p;
}

void tr_diag_add(tr_unit *u, bool refusal, int file, int line, int col, const char *construct,
                 const char *fmt, ...)
{
    char buf[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    for (int i = 0; i < u->ndiags; i++) /* one diagnostic per place and construct */
        if (u->diags[i].file == file && u->diags[i].line == line &&
            strcmp(u->diags[i].construct, construct) == 0 && strcmp(u->diags[i].reason, buf) == 0)
            return;
    tr_diag *d = realloc(u->diags, (size_t)(u->ndiags + 1) * sizeof *d);
    if (!d) abort();
    u->diags = d;
    u->diags[u->ndiags++] = (tr_diag){file, line, col, strdup(construct), strdup(buf), refusal};
}

int tr_refusal_count(const tr_unit *u)
{
    int n = 0;
    for (int i = 0; i < u->ndiags; i++)
        n += u->diags[i].refusal;
    return n;
}

void tr_unit_free(tr_unit *u)
{
    for (size_t i = 0; i < u->nblocks; i++)
        free(u->blocks[i]);
    free(u->blocks);
    for (int i = 0; i < u->ndiags; i++)
        free(u->diags[i].construct), free(u->diags[i].reason);
    free(u->diags);
    free(u->funcs);
    free(u->constants);
    free(u->constant_inits);
    tr_pp_result_free(&u->pp);
    memset(u, 0, sizeof *u);
}

/* ---- the parser state --------------------------------------------------------------------- */
typedef struct typedef_alias {
    char *name;
    tr_type type;
} typedef_alias;

typedef struct parser {
    tr_unit *u;
    tr_token *t;
    size_t n, i, end; /* tokens of the current item: [i, end) */
    jmp_buf fail;     /* a construct outside the subset: longjmp back to the item */
    char why[512];
    int why_file, why_line, why_col;
    const char *why_construct;
    typedef_alias *aliases;
    int naliases;
    /* scopes: symbols visible in the function being parsed */
    tr_sym **scope;
    int nscope, capscope;
    tr_func *func;
} parser;

static const tr_token *cur(parser *p)
{
    static tr_token eof = {TR_EOF, "", 0, 0, 0, true};
    return p->i < p->end ? &p->t[p->i] : &eof;
}

static bool is(parser *p, const char *s)
{
    const tr_token *t = cur(p);
    return t->kind != TR_EOF && t->kind != TR_STRING && t->kind != TR_CHAR &&
           strcmp(t->text, s) == 0;
}

static bool is_at(parser *p, size_t k, const char *s)
{
    return p->i + k < p->end && strcmp(p->t[p->i + k].text, s) == 0;
}

_Noreturn static void bail(parser *p, const char *construct, const char *fmt, ...)
{
    const tr_token *t = cur(p);
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(p->why, sizeof p->why, fmt, ap);
    va_end(ap);
    p->why_file = t->file;
    p->why_line = t->line;
    p->why_col = t->col;
    p->why_construct = construct;
    longjmp(p->fail, 1);
}

static bool accept(parser *p, const char *s)
{
    if (is(p, s)) {
        p->i++;
        return true;
    }
    return false;
}

static void expect(parser *p, const char *s)
{
    if (!accept(p, s)) {
        const tr_token *t = cur(p);
        bail(p, "syntax", "expected '%s' before '%s'", s,
             t->kind == TR_EOF ? "end of item" : t->text);
    }
}

static tr_expr *new_expr(parser *p, tr_expr_kind k, const tr_token *at)
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

static bool in_list(const char *s, const char *const *list, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (strcmp(s, list[i]) == 0) return true;
    return false;
}

static typedef_alias *find_alias(parser *p, const char *name)
{
    for (int i = 0; i < p->naliases; i++)
        if (strcmp(p->aliases[i].name, name) == 0) return &p->aliases[i];
    return NULL;
}

static const char *const qualifier_words[] = {
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
static pthread_once_t type_words_once = PTHREAD_ONCE_INIT;

static int cmp_word(const void *a, const void *b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

static void type_words_init(void)
{
    static const char *const more[] = {"struct", "class", "union", "enum", "template", "auto"};
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

static bool is_type_start(parser *p)
{
    const tr_token *t = cur(p);
    if (t->kind != TR_IDENT) return false;
    pthread_once(&type_words_once, type_words_init);
    const char *key = t->text;
    if (bsearch(&key, type_words, ntype_words, sizeof *type_words, cmp_word)) return true;
    return find_alias(p, t->text) != NULL;
}

typedef struct specs {
    tr_type type;
    bool global, device, host, shared, constant, managed, is_extern, is_static, is_typedef;
} specs;

static void skip_parens(parser *p)
{
    int depth = 0;
    do {
        if (is(p, "("))
            depth++;
        else if (is(p, ")"))
            depth--;
        p->i++;
    } while (depth > 0 && p->i < p->end);
}

/* Declaration specifiers: qualifiers, CUDA attributes and one base type. */
static specs parse_specs(parser *p)
{
    specs s = {0};
    char base[64] = "";
    int longs = 0;
    bool is_unsigned = false, is_signed = false;
    for (;;) {
        const tr_token *t = cur(p);
        if (t->kind != TR_IDENT) break;
        const char *w = t->text;
        if (!strcmp(w, "const"))
            s.type.is_const = true;
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
            if (is(p, "(")) skip_parens(p);
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
            bail(p, "template",
                 "templates are not in the accepted subset: write one plain C "
                 "function per type");
        else if (!strcmp(w, "struct") || !strcmp(w, "class") || !strcmp(w, "union") ||
                 !strcmp(w, "enum"))
            bail(p, w,
                 "%ss are not in the accepted subset: pass their fields as separate "
                 "parameters or buffers",
                 w);
        else if (!strcmp(w, "auto"))
            bail(p, "auto", "'auto' is not in the accepted subset: write the type");
        else if (!strcmp(w, "unsigned"))
            is_unsigned = true;
        else if (!strcmp(w, "signed"))
            is_signed = true;
        else if (!strcmp(w, "long"))
            longs++;
        else if (!strcmp(w, "short") || !strcmp(w, "int") || !strcmp(w, "char") ||
                 !strcmp(w, "float") || !strcmp(w, "double") || !strcmp(w, "void") ||
                 !strcmp(w, "bool") || !strcmp(w, "_Bool")) {
            if (base[0] && strcmp(base, "int") != 0 && strcmp(w, "int") != 0)
                bail(p, "syntax", "two types in one declaration ('%s' and '%s')", base, w);
            if (!base[0] || strcmp(base, "int") == 0) snprintf(base, sizeof base, "%s", w);
        } else if (!base[0] && !longs && !is_unsigned && !is_signed &&
                   in_list(w, named_types, sizeof named_types / sizeof *named_types)) {
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
        bail(p, "syntax", "expected a type before '%s'", cur(p)->text);
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
static tr_expr *parse_expr(parser *p);
static tr_expr *parse_assign(parser *p);
static tr_expr *parse_unary(parser *p);
static tr_type *parse_type_name(parser *p);

static tr_sym *lookup(parser *p, const char *name)
{
    for (int i = p->nscope - 1; i >= 0; i--)
        if (strcmp(p->scope[i]->name, name) == 0) return p->scope[i];
    for (int i = 0; i < p->u->nconstants; i++)
        if (strcmp(p->u->constants[i]->name, name) == 0) return p->u->constants[i];
    return NULL;
}

static bool paren_type_follows(parser *p)
{
    if (!is(p, "(")) return false;
    p->i++;
    bool r = is_type_start(p) && !is(p, "__restrict__");
    p->i--;
    return r;
}

static tr_expr *parse_primary(parser *p)
{
    const tr_token *t = cur(p);
    tr_expr *e;
    switch (t->kind) {
    case TR_NUMBER:
        e = new_expr(p, TR_E_NUM, t);
        e->text = tr_strdup(p->u, t->text);
        p->i++;
        return e;
    case TR_STRING:
        bail(p, "string literal",
             "string literals have no meaning in a kernel (printf is not portable)");
    case TR_CHAR:
        e = new_expr(p, TR_E_CHAR, t);
        e->text = tr_strdup(p->u, t->text);
        p->i++;
        return e;
    case TR_IDENT:
        if (!strcmp(t->text, "asm") || !strcmp(t->text, "__asm__") || !strcmp(t->text, "__asm"))
            bail(p, "inline PTX", "inline PTX (asm) runs only on NVIDIA GPUs: write it in C");
        if (!strcmp(t->text, "static_cast") || !strcmp(t->text, "reinterpret_cast") ||
            !strcmp(t->text, "const_cast")) {
            p->i++;
            expect(p, "<");
            tr_type *ty = parse_type_name(p);
            expect(p, ">");
            expect(p, "(");
            e = new_expr(p, TR_E_CAST, t);
            e->type = ty;
            e->a = parse_expr(p);
            expect(p, ")");
            return e;
        }
        if (!strcmp(t->text, "sizeof")) {
            p->i++;
            if (paren_type_follows(p)) {
                p->i++;
                e = new_expr(p, TR_E_SIZEOF_TYPE, t);
                e->type = parse_type_name(p);
                expect(p, ")");
                return e;
            }
            e = new_expr(p, TR_E_SIZEOF_EXPR, t);
            e->a = parse_unary(p);
            return e;
        }
        if (!strcmp(t->text, "new") || !strcmp(t->text, "delete") || !strcmp(t->text, "this") ||
            !strcmp(t->text, "throw") || !strcmp(t->text, "nullptr"))
            bail(p, "C++", "'%s' is C++, outside the accepted subset", t->text);
        e = new_expr(p, TR_E_IDENT, t);
        e->text = tr_strdup(p->u, t->text);
        e->sym = lookup(p, t->text);
        p->i++;
        if (is(p, "<<") && is_at(p, 1, "<"))
            bail(p, "dynamic parallelism",
                 "launching a kernel from device code (dynamic parallelism) "
                 "has no equivalent on Metal, OpenCL or the CPU");
        if (is(p, "::")) {
            if (!strcmp(t->text, "wmma") || !strcmp(t->text, "nvcuda"))
                bail(p, "tensor cores (wmma)", "the wmma tensor-core API runs only on NVIDIA GPUs");
            if (!strcmp(t->text, "cooperative_groups") || !strcmp(t->text, "cg"))
                bail(p, "cooperative groups",
                     "cooperative groups (and grid-wide sync) have no "
                     "equivalent on Metal, OpenCL 1.2 or the CPU backend");
            bail(p, "C++", "namespaces and '::' are outside the accepted subset");
        }
        return e;
    case TR_PUNCT:
        if (!strcmp(t->text, "(")) {
            p->i++;
            e = parse_expr(p);
            expect(p, ")");
            return e;
        }
        if (!strcmp(t->text, "{")) {
            p->i++;
            e = new_expr(p, TR_E_INIT, t);
            while (!is(p, "}")) {
                tr_expr **na = tr_alloc(p->u, (size_t)(e->nargs + 1) * sizeof *na);
                if (e->nargs) memcpy(na, e->args, (size_t)e->nargs * sizeof *na);
                na[e->nargs++] = is(p, "{") ? parse_primary(p) : parse_assign(p);
                e->args = na;
                if (!accept(p, ",")) break;
            }
            expect(p, "}");
            return e;
        }
        break;
    default:
        break;
    }
    bail(p, "syntax", "unexpected '%s'", t->kind == TR_EOF ? "end of item" : t->text);
    return NULL;
}

static tr_expr *parse_postfix(parser *p)
{
    tr_expr *e = parse_primary(p);
    for (;;) {
        const tr_token *t = cur(p);
        if (accept(p, "[")) {
            tr_expr *x = new_expr(p, TR_E_INDEX, t);
            x->a = e;
            x->b = parse_expr(p);
            expect(p, "]");
            e = x;
        } else if (accept(p, "(")) {
            tr_expr *x = new_expr(p, TR_E_CALL, t);
            x->a = e;
            x->line = e->line, x->col = e->col, x->file = e->file;
            while (!is(p, ")")) {
                tr_expr **na = tr_alloc(p->u, (size_t)(x->nargs + 1) * sizeof *na);
                if (x->nargs) memcpy(na, x->args, (size_t)x->nargs * sizeof *na);
                na[x->nargs++] = parse_assign(p);
                x->args = na;
                if (!accept(p, ",")) break;
            }
            expect(p, ")");
            e = x;
        } else if (is(p, ".") || is(p, "->")) {
            tr_expr *x = new_expr(p, TR_E_MEMBER, t);
            x->text = tr_strdup(p->u, t->text);
            p->i++;
            if (cur(p)->kind != TR_IDENT) bail(p, "syntax", "expected a member name");
            x->name = tr_strdup(p->u, cur(p)->text);
            p->i++;
            x->a = e;
            x->line = e->line, x->col = e->col, x->file = e->file;
            e = x;
        } else if (is(p, "++") || is(p, "--")) {
            tr_expr *x = new_expr(p, TR_E_POSTFIX, t);
            x->text = tr_strdup(p->u, t->text);
            x->a = e;
            p->i++;
            e = x;
        } else {
            return e;
        }
    }
}

static tr_expr *parse_unary(parser *p)
{
    const tr_token *t = cur(p);
    if (t->kind == TR_PUNCT && (is(p, "&") || is(p, "*") || is(p, "-") || is(p, "+") ||
                                is(p, "!") || is(p, "~") || is(p, "++") || is(p, "--"))) {
        tr_expr *e = new_expr(p, TR_E_UNARY, t);
        e->text = tr_strdup(p->u, t->text);
        p->i++;
        e->a = parse_unary(p);
        return e;
    }
    if (paren_type_follows(p)) {
        p->i++;
        tr_expr *e = new_expr(p, TR_E_CAST, t);
        e->type = parse_type_name(p);
        expect(p, ")");
        e->a = parse_unary(p);
        return e;
    }
    return parse_postfix(p);
}

static int binary_level(const char *op)
{
    static const char *const levels[][6] = {
        {"||"},
        {"&&"},
        {"|"},
        {"^"},
        {"&"},
        {"==", "!="},
        {"<", ">", "<=", ">="},
        {"<<", ">>"},
        {"+", "-"},
        {"*", "/", "%"},
    };
    for (int l = 0; l < 10; l++)
        for (int k = 0; k < 6 && levels[l][k]; k++)
            if (!strcmp(op, levels[l][k])) return l;
    return -1;
}

static tr_expr *parse_binary(parser *p, int min_level)
{
    tr_expr *e = parse_unary(p);
    for (;;) {
        const tr_token *t = cur(p);
        int l = t->kind == TR_PUNCT ? binary_level(t->text) : -1;
        if (l < min_level || l < 0) return e;
        p->i++;
        tr_expr *x = new_expr(p, TR_E_BINARY, t);
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
    const tr_token *t = cur(p);
    if (!accept(p, "?")) return c;
    tr_expr *e = new_expr(p, TR_E_COND, t);
    e->a = c;
    e->b = parse_expr(p);
    expect(p, ":");
    e->c = parse_cond(p);
    e->line = c->line, e->col = c->col;
    return e;
}

static tr_expr *parse_assign(parser *p)
{
    tr_expr *lhs = parse_cond(p);
    const tr_token *t = cur(p);
    static const char *const ops[] = {
        "=", "+=", "-=", "*=", "/=", "%=", "&=", "|=", "^=", "<<=", ">>="};
    if (t->kind == TR_PUNCT && in_list(t->text, ops, sizeof ops / sizeof *ops)) {
        p->i++;
        tr_expr *e = new_expr(p, TR_E_ASSIGN, t);
        e->text = tr_strdup(p->u, t->text);
        e->a = lhs;
        e->b = parse_assign(p);
        e->line = lhs->line, e->col = lhs->col;
        return e;
    }
    return lhs;
}

static tr_expr *parse_expr(parser *p)
{
    tr_expr *e = parse_assign(p);
    while (is(p, ",")) {
        const tr_token *t = cur(p);
        p->i++;
        tr_expr *x = new_expr(p, TR_E_COMMA, t);
        x->a = e;
        x->b = parse_assign(p);
        e = x;
    }
    return e;
}

/* ---- declarations ------------------------------------------------------------------------- */
static tr_type *parse_type_name(parser *p)
{
    specs s = parse_specs(p);
    tr_type *ty = tr_alloc(p->u, sizeof *ty);
    *ty = s.type;
    while (accept(p, "*")) {
        ty->nptr++;
        while (is(p, "const") || is(p, "__restrict__") || is(p, "restrict") || is(p, "volatile"))
            p->i++;
    }
    return ty;
}

static void scope_push(parser *p, tr_sym *s)
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
static tr_sym *parse_declarator(parser *p, const specs *s, bool allow_abstract)
{
    tr_sym *sym = tr_alloc(p->u, sizeof *sym);
    sym->type = s->type;
    while (accept(p, "*")) {
        sym->type.nptr++;
        for (;;) {
            if (accept(p, "const") || accept(p, "volatile")) continue;
            if (accept(p, "__restrict__") || accept(p, "restrict") || accept(p, "__restrict")) {
                sym->type.restrict_ptr = true;
                continue;
            }
            break;
        }
    }
    if (accept(p, "&"))
        bail(p, "C++", "references are C++, outside the accepted subset: use a pointer");
    if (is(p, "("))
        bail(p, "function pointer", "function pointers are outside the accepted subset");
    const tr_token *t = cur(p);
    if (t->kind == TR_IDENT && !is_type_start(p)) {
        sym->name = tr_strdup(p->u, t->text);
        sym->file = t->file, sym->line = t->line, sym->col = t->col;
        p->i++;
    } else if (!allow_abstract) {
        bail(p, "syntax", "expected a name in this declaration, found '%s'", t->text);
    } else {
        sym->name = tr_strdup(p->u, "");
        sym->file = t->file, sym->line = t->line, sym->col = t->col;
    }
    while (accept(p, "[")) {
        if (sym->ndims == 4) bail(p, "array", "arrays of more than 4 dimensions");
        sym->dims[sym->ndims++] = is(p, "]") ? NULL : parse_expr(p);
        expect(p, "]");
    }
    if (sym->type.nptr > 1)
        bail(p, "pointer to pointer",
             "pointers to pointers are outside the accepted subset: their "
             "address spaces cannot be expressed on every target");
    return sym;
}

static tr_stmt *parse_stmt(parser *p);

static tr_stmt *new_stmt(parser *p, tr_stmt_kind k)
{
    tr_stmt *s = tr_alloc(p->u, sizeof *s);
    s->kind = k;
    s->file = cur(p)->file;
    s->line = cur(p)->line;
    return s;
}

static tr_stmt *parse_decl_stmt(parser *p)
{
    tr_stmt *st = new_stmt(p, TR_S_DECL);
    specs s = parse_specs(p);
    if (s.is_typedef)
        bail(p, "typedef", "typedefs inside functions are outside the accepted subset");
    if (s.constant) bail(p, "__constant__", "__constant__ data is declared at file scope");
    if (s.global || s.device || s.host || s.managed)
        bail(p, "syntax", "function attributes on a local declaration");
    if (s.is_static && !s.shared)
        bail(p, "static local",
             "static local variables keep their value between work-items on "
             "the CPU and are refused: use a buffer");
    do {
        tr_sym *sym = parse_declarator(p, &s, false);
        sym->owner = p->func;
        sym->kind = s.shared ? (s.is_extern ? TR_SYM_DYN_SHARED : TR_SYM_SHARED) : TR_SYM_LOCAL;
        if (s.shared)
            sym->type.space = TR_SP_SHARED;
        else if (sym->ndims)
            sym->type.space = TR_SP_PRIVATE;
        if (sym->kind == TR_SYM_DYN_SHARED && (sym->ndims != 1 || sym->dims[0] != NULL))
            bail(p, "extern __shared__",
                 "the dynamic shared block is declared as 'extern __shared__ T name[];'");
        if (sym->kind == TR_SYM_SHARED)
            for (int d = 0; d < sym->ndims; d++)
                if (!sym->dims[d])
                    bail(p, "__shared__", "a static __shared__ array needs its size");
        tr_decl d = {sym, NULL};
        if (accept(p, "=")) {
            if (s.shared) bail(p, "__shared__", "__shared__ variables cannot be initialised");
            d.init = is(p, "{") ? parse_primary(p) : parse_assign(p);
        }
        tr_decl *nd = tr_alloc(p->u, (size_t)(st->ndecls + 1) * sizeof *nd);
        if (st->ndecls) memcpy(nd, st->decls, (size_t)st->ndecls * sizeof *nd);
        nd[st->ndecls++] = d;
        st->decls = nd;
        scope_push(p, sym);
    } while (accept(p, ","));
    expect(p, ";");
    return st;
}

static tr_stmt *parse_block(parser *p)
{
    tr_stmt *b = new_stmt(p, TR_S_BLOCK);
    expect(p, "{");
    int mark = p->nscope;
    while (!is(p, "}")) {
        if (cur(p)->kind == TR_EOF) bail(p, "syntax", "missing '}'");
        tr_stmt *s = parse_stmt(p);
        tr_stmt **nl = tr_alloc(p->u, (size_t)(b->n + 1) * sizeof *nl);
        if (b->n) memcpy(nl, b->list, (size_t)b->n * sizeof *nl);
        nl[b->n++] = s;
        b->list = nl;
    }
    expect(p, "}");
    p->nscope = mark;
    return b;
}

static tr_stmt *parse_stmt(parser *p)
{
    const tr_token *t = cur(p);
    if (t->kind == TR_DIRECTIVE) {
        tr_stmt *s = new_stmt(p, TR_S_PRAGMA);
        s->text = tr_strdup(p->u, t->text);
        p->i++;
        return s;
    }
    if (is(p, "{")) return parse_block(p);
    if (accept(p, ";")) return new_stmt(p, TR_S_EMPTY);
    if (t->kind == TR_IDENT) {
        const char *w = t->text;
        if (!strcmp(w, "if")) {
            tr_stmt *s = new_stmt(p, TR_S_IF);
            p->i++;
            expect(p, "(");
            s->cond = parse_expr(p);
            expect(p, ")");
            s->body = parse_stmt(p);
            if (accept(p, "else")) s->els = parse_stmt(p);
            return s;
        }
        if (!strcmp(w, "for")) {
            tr_stmt *s = new_stmt(p, TR_S_FOR);
            p->i++;
            expect(p, "(");
            int mark = p->nscope;
            if (accept(p, ";"))
                s->init = NULL;
            else if (is_type_start(p))
                s->init = parse_decl_stmt(p);
            else {
                s->init = new_stmt(p, TR_S_EXPR);
                s->init->e = parse_expr(p);
                expect(p, ";");
            }
            if (!is(p, ";")) s->cond = parse_expr(p);
            expect(p, ";");
            if (!is(p, ")")) s->step = parse_expr(p);
            expect(p, ")");
            s->body = parse_stmt(p);
            p->nscope = mark;
            return s;
        }
        if (!strcmp(w, "while")) {
            tr_stmt *s = new_stmt(p, TR_S_WHILE);
            p->i++;
            expect(p, "(");
            s->cond = parse_expr(p);
            expect(p, ")");
            s->body = parse_stmt(p);
            return s;
        }
        if (!strcmp(w, "do")) {
            tr_stmt *s = new_stmt(p, TR_S_DO);
            p->i++;
            s->body = parse_stmt(p);
            expect(p, "while");
            expect(p, "(");
            s->cond = parse_expr(p);
            expect(p, ")");
            expect(p, ";");
            return s;
        }
        if (!strcmp(w, "return")) {
            tr_stmt *s = new_stmt(p, TR_S_RETURN);
            p->i++;
            if (!is(p, ";")) s->e = parse_expr(p);
            expect(p, ";");
            return s;
        }
        if (!strcmp(w, "break") || !strcmp(w, "continue")) {
            tr_stmt *s = new_stmt(p, !strcmp(w, "break") ? TR_S_BREAK : TR_S_CONTINUE);
            p->i++;
            expect(p, ";");
            return s;
        }
        if (!strcmp(w, "switch")) {
            tr_stmt *s = new_stmt(p, TR_S_SWITCH);
            p->i++;
            expect(p, "(");
            s->cond = parse_expr(p);
            expect(p, ")");
            s->body = parse_stmt(p);
            return s;
        }
        if (!strcmp(w, "case")) {
            tr_stmt *s = new_stmt(p, TR_S_CASE);
            p->i++;
            s->e = parse_cond(p);
            expect(p, ":");
            return s;
        }
        if (!strcmp(w, "default")) {
            tr_stmt *s = new_stmt(p, TR_S_DEFAULT);
            p->i++;
            expect(p, ":");
            return s;
        }
        if (!strcmp(w, "goto")) bail(p, "goto", "goto is outside the accepted subset");
        if (!strcmp(w, "asm") || !strcmp(w, "__asm__") || !strcmp(w, "__asm"))
            bail(p, "inline PTX", "inline PTX (asm) runs only on NVIDIA GPUs: write it in C");
        if (is_type_start(p)) return parse_decl_stmt(p);
    }
    tr_stmt *s = new_stmt(p, TR_S_EXPR);
    s->e = parse_expr(p);
    expect(p, ";");
    return s;
}

/* ---- top-level items ---------------------------------------------------------------------- */
/* [i, end) of the item starting at i: up to ';' at depth 0, or the '}' that closes the first
 * top-level '{' (and a ';' right after it). -1 when braces do not balance. */
static long item_end(parser *p, size_t i, size_t n)
{
    int depth = 0;
    bool braced = false, initialiser = false;
    for (size_t k = i; k < n; k++) {
        const tr_token *t = &p->t[k];
        if (t->kind == TR_EOF) return -1;
        if (t->kind != TR_PUNCT) continue;
        if (!strcmp(t->text, "(") || !strcmp(t->text, "["))
            depth++;
        else if (!strcmp(t->text, ")") || !strcmp(t->text, "]"))
            depth--;
        else if (!strcmp(t->text, "=") && depth == 0 && !braced)
            initialiser = true;
        else if (!strcmp(t->text, "{")) {
            if (depth == 0 && !braced) braced = true;
            depth++;
        } else if (!strcmp(t->text, "}")) {
            /* a function body ends at its '}'; `= { ... };` initialisers at the ';' */
            if (--depth == 0 && braced && !initialiser) {
                if (k + 1 < n && !strcmp(p->t[k + 1].text, ";")) k++;
                return (long)k + 1;
            }
            if (depth < 0) return -1;
        } else if (!strcmp(t->text, ";") && depth == 0) {
            return (long)k + 1;
        }
    }
    return -1;
}

static bool item_has(parser *p, size_t i, size_t end, const char *word)
{
    for (size_t k = i; k < end; k++) {
        if (p->t[k].kind == TR_PUNCT && (!strcmp(p->t[k].text, "{") || !strcmp(p->t[k].text, "=")))
            return false;
        if (p->t[k].kind == TR_IDENT && !strcmp(p->t[k].text, word)) return true;
    }
    return false;
}

static void add_func(tr_unit *u, tr_func *f)
{
    tr_func **nf = realloc(u->funcs, (size_t)(u->nfuncs + 1) * sizeof *nf);
    if (!nf) abort();
    u->funcs = nf;
    u->funcs[u->nfuncs++] = f;
}

static void parse_function(parser *p, const specs *s, tr_sym *decl)
{
    tr_func *f = tr_alloc(p->u, sizeof *f);
    f->name = decl->name;
    f->kind = s->global ? TR_F_GLOBAL : TR_F_DEVICE;
    f->ret = decl->type;
    f->file = decl->file, f->line = decl->line;
    p->func = f;
    p->nscope = 0;
    expect(p, "(");
    if (is(p, "void") && is_at(p, 1, ")")) p->i++;
    while (!is(p, ")")) {
        if (accept(p, "..."))
            bail(p, "variadic function", "variadic functions are outside the accepted subset");
        specs ps = parse_specs(p);
        tr_sym *prm = parse_declarator(p, &ps, true);
        prm->kind = TR_SYM_PARAM;
        prm->owner = f;
        if (prm->ndims) { /* T a[] is T *a */
            if (prm->ndims > 1)
                bail(p, "array parameter",
                     "multi-dimensional array parameters are outside the accepted subset");
            prm->ndims = 0;
            prm->type.nptr++;
        }
        if (s->global && prm->type.nptr) prm->type.space = TR_SP_GLOBAL;
        tr_sym **np = tr_alloc(p->u, (size_t)(f->nparams + 1) * sizeof *np);
        if (f->nparams) memcpy(np, f->params, (size_t)f->nparams * sizeof *np);
        np[f->nparams++] = prm;
        f->params = np;
        scope_push(p, prm);
        if (!accept(p, ",")) break;
    }
    expect(p, ")");
    if (accept(p, ";")) { /* a prototype */
        p->func = NULL;
        return;
    }
    f->body = parse_block(p);
    p->func = NULL;
    add_func(p->u, f);
}

static void parse_constant(parser *p, const specs *s)
{
    do {
        tr_sym *sym = parse_declarator(p, s, false);
        sym->kind = TR_SYM_CONSTANT;
        sym->type.space = TR_SP_CONSTANT;
        tr_expr *init = NULL;
        if (accept(p, "=")) init = is(p, "{") ? parse_primary(p) : parse_assign(p);
        tr_unit *u = p->u;
        tr_sym **nc = realloc(u->constants, (size_t)(u->nconstants + 1) * sizeof *nc);
        tr_expr **ni = realloc(u->constant_inits, (size_t)(u->nconstants + 1) * sizeof *ni);
        if (!nc || !ni) abort();
        u->constants = nc;
        u->constant_inits = ni;
        u->constants[u->nconstants] = sym;
        u->constant_inits[u->nconstants++] = init;
    } while (accept(p, ","));
    expect(p, ";");
}

static void parse_typedef(parser *p, specs *s)
{
    tr_sym *sym = parse_declarator(p, s, false);
    if (sym->ndims) bail(p, "typedef", "array typedefs are outside the accepted subset");
    typedef_alias *a = realloc(p->aliases, (size_t)(p->naliases + 1) * sizeof *a);
    if (!a) abort();
    p->aliases = a;
    tr_type t = sym->type;
    p->aliases[p->naliases++] = (typedef_alias){strdup(sym->name), t};
    expect(p, ";");
}

/* A kernel refused before its name was parsed (`template <...> __global__ void k(...)`): found
 * by its tokens, so that the report still counts it among the file's kernels. NULL when the item
 * [start, end) declares no __global__ function. */
static tr_func *refused_kernel(parser *p, size_t start)
{
    if (!item_has(p, start, p->end, "__global__")) return NULL;
    static const char *const attrs[] = {"__launch_bounds__", "__align__", "__attribute__",
                                        "alignas", "__declspec"};
    for (size_t k = start; k + 1 < p->end; k++) {
        const tr_token *t = &p->t[k];
        if (t->kind == TR_PUNCT && (!strcmp(t->text, "{") || !strcmp(t->text, ";"))) break;
        if (t->kind != TR_IDENT || p->t[k + 1].kind != TR_PUNCT || strcmp(p->t[k + 1].text, "("))
            continue;
        if (in_list(t->text, attrs, sizeof attrs / sizeof *attrs)) continue;
        tr_func *f = tr_alloc(p->u, sizeof *f);
        f->name = tr_strdup(p->u, t->text);
        f->kind = TR_F_GLOBAL;
        f->file = t->file, f->line = t->line;
        return f;
    }
    return NULL;
}

/* Parses one device item [i, end). A refusal is recorded and the item dropped. */
static void parse_item(parser *p)
{
    size_t start = p->i;
    if (setjmp(p->fail)) {
        tr_diag_add(p->u, true, p->why_file, p->why_line, p->why_col, p->why_construct, "%s",
                    p->why);
        if (!p->func) p->func = refused_kernel(p, start);
        if (p->func) { /* keep the function in the report, without a body */
            p->func->body = NULL;
            p->func->refused = tr_strdup(p->u, p->why);
            add_func(p->u, p->func);
        }
        p->func = NULL;
        return;
    }
    specs s = parse_specs(p);
    if (s.is_typedef) {
        parse_typedef(p, &s);
        return;
    }
    if (s.shared)
        bail(p, "__shared__",
             "__shared__ variables at file scope are outside the accepted "
             "subset: declare them in the kernel");
    if (s.managed)
        bail(p, "__managed__", "managed memory has no portable equivalent: pass a buffer");
    if (s.device && !s.global && !s.constant) {
        /* `__device__ float g[16];` is a mutable device global, not a function */
        size_t save = p->i;
        while (is(p, "*"))
            p->i++;
        bool fn = cur(p)->kind == TR_IDENT && is_at(p, 1, "(");
        p->i = save;
        if (!fn)
            bail(p, "__device__ variable",
                 "device global variables have no portable equivalent: "
                 "pass a buffer to the kernels that use it");
    }
    if (s.constant) {
        parse_constant(p, &s);
        return;
    }
    tr_sym *decl = parse_declarator(p, &s, false);
    if (!is(p, "(")) bail(p, "syntax", "expected a function after '%s'", decl->name);
    parse_function(p, &s, decl);
}

int tr_parse(tr_unit *u, char *err, size_t errlen)
{
    parser p = {0};
    p.u = u;
    p.t = u->pp.toks.v;
    p.n = u->pp.toks.n;
    size_t i = 0;
    while (i < p.n && p.t[i].kind != TR_EOF) {
        if (p.t[i].kind == TR_DIRECTIVE) { /* a pragma outside functions */
            i++;
            continue;
        }
        if (p.t[i].kind == TR_PUNCT && !strcmp(p.t[i].text, ";")) {
            i++;
            continue;
        }
        /* extern "C" { ... }: its items are top-level items */
        if (p.t[i].kind == TR_IDENT && !strcmp(p.t[i].text, "extern") && i + 2 < p.n &&
            p.t[i + 1].kind == TR_STRING && !strcmp(p.t[i + 2].text, "{")) {
            i += 3;
            continue;
        }
        if (p.t[i].kind == TR_PUNCT && !strcmp(p.t[i].text, "}")) { /* end of extern "C" { */
            i++;
            continue;
        }
        long end = item_end(&p, i, p.n);
        if (end < 0) {
            snprintf(err, errlen,
                     "%s:%d:%d: unbalanced braces or parentheses from here to the end "
                     "of the file",
                     u->pp.files[p.t[i].file], p.t[i].line, p.t[i].col);
            free(p.scope);
            for (int k = 0; k < p.naliases; k++)
                free(p.aliases[k].name);
            free(p.aliases);
            return -1;
        }
        bool device = item_has(&p, i, (size_t)end, "__global__") ||
                      item_has(&p, i, (size_t)end, "__device__") ||
                      item_has(&p, i, (size_t)end, "__constant__") ||
                      item_has(&p, i, (size_t)end, "__shared__") ||
                      item_has(&p, i, (size_t)end, "__managed__");
        bool typedef_item = p.t[i].kind == TR_IDENT && !strcmp(p.t[i].text, "typedef");
        if (device || typedef_item) {
            p.i = i;
            p.end = (size_t)end;
            if (typedef_item && !device) {
                /* host typedefs matter only when device code uses them: parse, drop on failure */
                if (!setjmp(p.fail)) {
                    specs s = parse_specs(&p);
                    if (s.is_typedef) parse_typedef(&p, &s);
                }
            } else {
                parse_item(&p);
            }
        }
        i = (size_t)end;
    }
    free(p.scope);
    for (int k = 0; k < p.naliases; k++)
        free(p.aliases[k].name);
    free(p.aliases);
    return 0;
}
