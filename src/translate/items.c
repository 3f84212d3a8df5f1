/* items.c — a file's top-level items. The file is cut into items by brace matching first; host
 * items (no __global__/__device__/__constant__) are skipped without being parsed, since the host
 * side is not translated, but read for what device code takes from them: typedefs, integer
 * constants and enumerators, namespace aliases of cooperative_groups, templates and the
 * template arguments of kernel launches. Device items are parsed into the tree of ast.h; a
 * construct outside the subset becomes a refusal at its line, and the function that holds it
 * is kept out of the output. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "translate/lower_impl.h"
#include "translate/map.h"
#include "translate/parser.h"
#include "translate/pp.h"

/* [i, end) of the item starting at i: up to ';' at depth 0, or the '}' that closes the first
 * top-level '{' (and a ';' right after it). -1 when braces do not balance. */
static long item_end(parser *p, size_t i, size_t n)
{
    int depth = 0;
    bool braced = false, initialiser = false;
    if (!strcmp(p->t[i].text, "template") && i + 1 < n && !strcmp(p->t[i + 1].text, "<")) {
        /* template <typename T, int N = 64>: a default there is no initialiser */
        int angle = 0, paren = 0; /* a `>` in parentheses compares: `(count<T>::value > 2)` */
        for (i++; i < n && p->t[i].kind != TR_EOF; i++) {
            if (!strcmp(p->t[i].text, "(")) paren++;
            if (!strcmp(p->t[i].text, ")")) paren--;
            if (paren > 0) continue;
            if (!strcmp(p->t[i].text, "<")) angle++;
            if (!strcmp(p->t[i].text, ">")) angle--;
            if (!strcmp(p->t[i].text, ">>")) angle -= 2;
            if (angle <= 0) break;
        }
    }
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

static bool item_has_anywhere(parser *p, size_t i, size_t end, const char *word)
{
    for (size_t k = i; k < end; k++)
        if (p->t[k].kind == TR_IDENT && !strcmp(p->t[k].text, word)) return true;
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
    p->u->cur_func = f;
    p->nscope = 0;
    if (f->ret.is_ref)
        tp_bail(p, "C++", "%s returns a reference: return the value, or an index", f->name);
    /* a call of a function named like a CUDA type reads as a conversion to it (`half(x)`);
     * a kernel is only launched, so its name is free */
    if (!s->global && tp_is_named_type(f->name))
        tp_bail(p, "function named like a type",
                "device function '%s' has the name of a CUDA type: a call to it reads as a "
                "conversion; rename the function",
                f->name);
    tp_expect(p, "(");
    if (tp_is(p, "void") && tp_is_at(p, 1, ")")) p->i++;
    while (!tp_is(p, ")")) {
        if (tp_accept(p, "..."))
            tp_bail(p, "variadic function", "variadic functions are outside the accepted subset");
        specs ps = tp_parse_specs(p);
        tr_sym *prm = tp_parse_declarator(p, &ps, true);
        prm->kind = TR_SYM_PARAM;
        prm->owner = f;
        if (tp_accept(p, "=")) /* a default argument: calls without it get it (overload.c) */
            prm->init = tp_parse_assign(p);
        if (prm->type.cg) { /* a group: known at translation time, passed by nobody */
            if (prm->type.cg == TR_CG_TILE && !prm->type.cg_width)
                tp_bail(p, "cooperative groups",
                        "parameter %s is a thread_group: declare it as the thread_block or the "
                        "thread_block_tile<N> it is",
                        prm->name);
            tp_scope_push(p, prm);
            if (!tp_accept(p, ",")) break;
            continue;
        }
        if (prm->type.is_ref) {
            if (s->global) tp_bail(p, "C++", "kernel parameter %s is a reference", prm->name);
            if (prm->type.is_const && !prm->type.nptr) {
                prm->type.is_ref = false; /* const T &x: the value */
            } else {
                /* T &x: a pointer to the caller's variable, in the caller's address space */
                prm->type.is_ref = false;
                prm->type.nptr++;
                prm->ref = true;
                if (prm->type.nptr > 1)
                    tp_bail(p, "pointer to pointer",
                            "parameter %s is a reference to a pointer, which is a pointer to a "
                            "pointer: outside the accepted subset",
                            prm->name);
            }
        }
        if (prm->ndims) { /* T a[] is T *a; T a[][Y] a T pointer indexed a[i * Y + j] */
            if (prm->ndims > 1 && prm->type.nptr)
                tp_bail(p, "array parameter",
                        "multi-dimensional arrays of pointers are outside the accepted subset");
            for (int d = 1; d < prm->ndims; d++) {
                if (!prm->dims[d])
                    tp_bail(p, "array parameter", "parameter %s: an inner dimension needs its size",
                            prm->name);
                prm->row_dims[prm->nrow_dims++] = prm->dims[d];
            }
            prm->ndims = 0;
            prm->type.nptr++;
        }
        if (s->global && prm->type.nptr) prm->type.space = TR_SP_GLOBAL;
        if (prm->type.nptr && !strcmp(prm->type.base, "bool")) {
            /* a bool buffer holds one byte per element, 0 or 1, as CUDA's bool does; OpenCL
             * allows no bool in kernel parameters, so it is passed as uint8_t */
            prm->type.base = tr_strdup(p->u, "uint8_t");
            tr_diag_add(p->u, false, prm->file, prm->line, prm->col, "bool buffer",
                        "parameter %s points to bool: it is a uint8_t buffer in the output (one "
                        "byte per element, 0 or 1, as CUDA stores bool)",
                        prm->name);
        }
        if (s->global && !prm->type.nptr && !strcmp(prm->type.base, "size_t")) {
            /* CUDA's size_t is 64 bits on every host it runs on; OpenCL's may differ from the
             * host's, so the parameter is spelled with the fixed width */
            prm->type.base = tr_strdup(p->u, "uint64_t");
            tr_diag_add(p->u, false, prm->file, prm->line, prm->col, "size_t parameter",
                        "parameter %s: size_t is a uint64_t parameter in the output (8 bytes, as "
                        "CUDA's); the host passes a 64-bit value",
                        prm->name);
        } else if (s->global && !prm->type.nptr && !strcmp(prm->type.base, "bool")) {
            /* OpenCL allows no bool in kernel parameters: an int holds 0 or 1 everywhere */
            prm->type.base = tr_strdup(p->u, "int");
            tr_diag_add(p->u, false, prm->file, prm->line, prm->col, "bool parameter",
                        "parameter %s: bool is an int parameter in the output (OpenCL allows no "
                        "bool in kernel parameters); the host passes an int, 0 or 1, where CUDA "
                        "passed a one-byte bool",
                        prm->name);
        }
        tr_sym **np = tr_alloc(p->u, (size_t)(f->nparams + 1) * sizeof *np);
        if (f->nparams) memcpy(np, f->params, (size_t)f->nparams * sizeof *np);
        np[f->nparams++] = prm;
        f->params = np;
        tp_scope_push(p, prm);
        if (!tp_accept(p, ",")) break;
    }
    tp_expect(p, ")");
    while (tp_is(p, "const") || tp_is(p, "noexcept")) /* C++ qualifiers after the list */
        p->i++;
    if (tp_accept(p, ";")) { /* a prototype */
        p->func = NULL;
        p->u->cur_func = NULL;
        return;
    }
    f->body = tp_parse_block(p);
    p->func = NULL;
    p->u->cur_func = NULL;
    add_func(p->u, f);
}

static void add_data(tr_unit *u, tr_sym ***list, int *n, tr_expr ***inits, tr_sym *sym,
                     tr_expr *init)
{
    tr_sym **nl = realloc(*list, (size_t)(*n + 1) * sizeof *nl);
    if (!nl) abort();
    *list = nl;
    if (inits) {
        tr_expr **ni = realloc(*inits, (size_t)(*n + 1) * sizeof *ni);
        if (!ni) abort();
        *inits = ni;
        ni[*n] = init;
    }
    nl[(*n)++] = sym;
    (void)u;
}

/* __constant__ data, and __device__ data (kernels get it as a buffer parameter). */
static void parse_data(parser *p, const specs *s, bool device)
{
    do {
        tr_sym *sym = tp_parse_declarator(p, s, false);
        sym->kind = device ? TR_SYM_GLOBALVAR : TR_SYM_CONSTANT;
        sym->managed = s->managed;
        sym->type.space = device ? TR_SP_GLOBAL : TR_SP_CONSTANT;
        if (device) sym->as_buffer = true;
        tr_expr *init = NULL;
        if (tp_accept(p, "=")) init = tp_is(p, "{") ? tp_parse_primary(p) : tp_parse_assign(p);
        sym->init = init;
        tr_unit *u = p->u;
        if (device)
            add_data(u, &u->globals, &u->nglobals, NULL, sym, init);
        else
            add_data(u, &u->constants, &u->nconstants, &u->constant_inits, sym, init);
    } while (tp_accept(p, ","));
    tp_expect(p, ";");
}

/* A texture reference, `texture<float, 1, cudaReadModeElementType> tex;`, which the host binds
 * to linear memory (cudaBindTexture) and kernels read with tex1Dfetch(tex, i): the memory
 * itself, a GP_CBUF parameter of the kernels that read it, as __constant__ data the host fills.
 * Of two or three dimensions, or read as normalized floats, its reads stay refused. */
static void parse_texture_ref(parser *p)
{
    p->i += 2; /* texture < */
    specs s = {0};
    s.type = *tp_parse_type_name(p);
    long long dim = 1;
    bool elements = true;
    if (tp_accept(p, ",")) {
        const tr_token *d = tp_cur(p);
        /* 1, or cudaTextureType1D (its value: 0x01) */
        dim = d->kind == TR_NUMBER                    ? strtoll(d->text, NULL, 0)
              : !strcmp(d->text, "cudaTextureType1D") ? 1
                                                      : 0;
        p->i++;
        if (tp_accept(p, ",")) {
            elements = tp_is(p, "cudaReadModeElementType");
            p->i++;
        }
    }
    tp_expect(p, ">");
    do {
        tr_sym *sym = tp_parse_declarator(p, &s, false);
        sym->kind = TR_SYM_CONSTANT;
        sym->type.space = TR_SP_CONSTANT;
        sym->type.is_const = true;
        sym->ndims = 1;
        sym->dims[0] = NULL;
        sym->texture = true;
        sym->texref = dim == 1 && elements;
        add_data(p->u, &p->u->constants, &p->u->nconstants, &p->u->constant_inits, sym, NULL);
    } while (tp_accept(p, ","));
    tp_expect(p, ";");
}

/* `__shared__ float sdata[256];` at file scope: one array per group that the kernels and
 * functions naming it share; each kernel that needs it declares it and passes it down, as it
 * does a function's own __shared__ array (lower.c); `extern __shared__ T block[];` is the
 * dynamic block of the kernels that name it. */
static void parse_shared_data(parser *p, const specs *s)
{
    do {
        tr_sym *sym = tp_parse_declarator(p, s, false);
        sym->kind = s->is_extern ? TR_SYM_DYN_SHARED : TR_SYM_SHARED;
        sym->type.space = TR_SP_SHARED;
        if (tp_is(p, "=") || tp_is(p, "{"))
            tp_bail(p, "__shared__", "__shared__ variables cannot be initialised");
        if (s->is_extern && (sym->ndims != 1 || sym->dims[0]))
            tp_bail(p, "extern __shared__",
                    "the dynamic shared block is declared as 'extern __shared__ T name[];'");
        for (int d = 0; d < sym->ndims && !s->is_extern; d++)
            if (!sym->dims[d]) tp_bail(p, "__shared__", "a static __shared__ array needs its size");
        add_data(p->u, &p->u->globals, &p->u->nglobals, NULL, sym, NULL);
    } while (tp_accept(p, ","));
    tp_expect(p, ";");
}

static void parse_typedef(parser *p, specs *s)
{
    tp_parse_typedef(p, s);
}

/* A kernel refused before its name was parsed: found by its tokens, so that the report still
 * counts it among the file's kernels. NULL when the item [start, end) declares no __global__
 * function. */
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
        if (tp_in_list(t->text, attrs, sizeof attrs / sizeof *attrs)) continue;
        tr_func *f = tr_alloc(p->u, sizeof *f);
        f->name = tr_strdup(p->u, t->text);
        f->kind = TR_F_GLOBAL;
        f->file = t->file, f->line = t->line;
        return f;
    }
    return NULL;
}

/* `float4 operator+(float4 a, float4 b) {...}`: a function named operator_add, taken where one
 * of its parameters is a CUDA vector type (vectors.c turns the operators on vectors into calls of
 * it). Operators on the file's own types are C++ outside the accepted subset. */
static void parse_operator(parser *p, const specs *s)
{
    tr_sym *decl = tr_alloc(p->u, sizeof *decl);
    decl->type = s->type;
    if (tp_accept(p, "&")) decl->type.is_ref = true;
    const tr_token *at = tp_cur(p);
    size_t at_i = p->i;
    p->i++; /* operator */
    const tr_token *op = tp_cur(p);
    const char *suffix = op->kind == TR_PUNCT ? tr_operator_suffix(op->text) : NULL;
    if (!suffix || !tp_is_at(p, 1, "("))
        tp_bail(p, "C++",
                "operator%s is C++, outside the accepted subset (operators on vector "
                "types are translated: + - * / %% ^ & | << >> comparisons ! ~ and the "
                "compound assignments)",
                op->text);
    char name[64];
    snprintf(name, sizeof name, "operator_%s", suffix);
    decl->name = tr_strdup(p->u, name);
    decl->file = at->file, decl->line = at->line, decl->col = at->col;
    p->i++;
    if (decl->type.is_ref) {
        /* float4 &operator+=(float4 &a, float4 b) { ...; return a; }: CUDA code uses the
         * result of a compound assignment on vectors as a statement; the output returns the
         * value (a use of it as a reference would not compile, C having no references) */
        if (strstr(suffix, "_assign") == NULL)
            tp_bail(p, "C++", "operator%s returns a reference: return the value", op->text);
        decl->type.is_ref = false;
    }
    int before = p->u->nfuncs;
    parse_function(p, s, decl);
    if (p->u->nfuncs == before) return; /* a prototype */
    tr_func *f = p->u->funcs[p->u->nfuncs - 1];
    bool vec = false;
    for (int i = 0; i < f->nparams; i++) {
        const char *b = f->params[i]->type.base;
        vec |= tr_vector_type(b, NULL, NULL) != NULL ||
               (b && (!f->params[i]->type.nptr || f->params[i]->ref) && !strncmp(b, "struct ", 7) &&
                tp_find_struct(p->u, b + 7)); /* Complex operator*(Complex, Complex) */
    }
    if (!vec) {
        p->u->nfuncs--;
        p->i = at_i; /* the refusal names the operator's line */
        tp_bail(p, "C++",
                "operator%s on %s: operator overloads are translated on CUDA's vector types "
                "and the file's own structs only",
                op->text, f->nparams ? f->params[0]->type.base : "nothing");
    }
    f->is_operator = true;
}

/* Parses one device item [i, end). A refusal is recorded and the item dropped. */
static void parse_item(parser *p)
{
    size_t start = p->i;
    p->u->cur_func = NULL;
    tp_mark mark = tp_mark_here(p);
    if (setjmp(p->fail)) {
        tp_back_to(p, &mark);
        tr_diag_add(p->u, true, p->why_file, p->why_line, p->why_col, p->why_construct, "%s",
                    p->why);
        if (!p->func) p->func = refused_kernel(p, start);
        if (p->func) { /* keep the function in the report, without a body */
            p->func->body = NULL;
            p->func->refused = tr_strdup(p->u, p->why);
            p->func->refused_line = p->why_line;
            add_func(p->u, p->func);
        }
        p->func = NULL;
        p->u->cur_func = NULL;
        return;
    }
    tp_accept(p, "static");
    if (tp_is(p, "texture") && tp_is_at(p, 1, "<")) {
        parse_texture_ref(p);
        return;
    }
    p->i = start;
    specs s = tp_parse_specs(p);
    if (s.is_typedef) {
        parse_typedef(p, &s);
        return;
    }
    if (s.shared) {
        parse_shared_data(p, &s);
        return;
    }
    if (s.managed) { /* device memory the host also reads and writes: a buffer, as __device__ */
        parse_data(p, &s, true);
        return;
    }
    if (tp_is(p, "operator") || (tp_is(p, "&") && tp_is_at(p, 1, "operator"))) {
        parse_operator(p, &s);
        return;
    }
    if (s.device && !s.global && !s.constant) {
        /* `__device__ float g[16];` is device data, not a function */
        size_t save = p->i;
        while (tp_is(p, "*") || tp_is(p, "&"))
            p->i++;
        bool fn = tp_cur(p)->kind == TR_IDENT && tp_is_at(p, 1, "(");
        p->i = save;
        if (!fn) {
            parse_data(p, &s, true);
            return;
        }
    }
    if (s.constant) {
        parse_data(p, &s, false);
        return;
    }
    tr_sym *decl = tp_parse_declarator(p, &s, false);
    if (!tp_is(p, "(")) tp_bail(p, "syntax", "expected a function after '%s'", decl->name);
    parse_function(p, &s, decl);
}

/* ---- what the translation makes ------------------------------------------------------------ */
bool tp_made(parser *p, const char *name)
{
    for (int i = 0; i < p->nmade; i++)
        if (!strcmp(p->made[i], name)) return true;
    return false;
}

void tp_make_item(parser *p, const char *name, const char *text, const tr_token *at)
{
    if (tp_made(p, name)) return;
    tr_tokens toks = {0};
    char err[256];
    if (tr_lex("<translation>", at->file, text, strlen(text), &toks, err, sizeof err) != 0)
        abort(); /* the translation's own text always lexes */
    for (size_t i = 0; i < toks.n; i++)
        toks.v[i].file = at->file, toks.v[i].line = at->line, toks.v[i].col = at->col;
    if (p->npending == p->cappending) {
        int cap = p->cappending ? p->cappending * 2 : 16;
        tp_pending *np = realloc(p->pending, (size_t)cap * sizeof *np);
        if (!np) abort();
        p->pending = np;
        p->cappending = cap;
    }
    p->pending[p->npending++] = (tp_pending){toks, tr_strdup(p->u, name), NULL};
    char **nm = realloc(p->made, (size_t)(p->nmade + 1) * sizeof *nm);
    if (!nm) abort();
    p->made = nm;
    p->made[p->nmade++] = tr_strdup(p->u, name);
}

/* Parses the items the last item asked for (which may ask for more). */
static void parse_pending(parser *p)
{
    tr_token *st = p->t;
    size_t sn = p->n;
    while (p->npending) {
        tp_pending pd = p->pending[0];
        memmove(p->pending, p->pending + 1, (size_t)(--p->npending) * sizeof *p->pending);
        p->t = pd.toks.v;
        p->n = pd.toks.n;
        p->i = 0;
        p->end = pd.toks.n - 1; /* without the EOF */
        int before = p->u->nfuncs;
        p->member_of = pd.template_id ? 0 : tp_member_owner(p, &pd.toks, pd.name);
        parse_item(p);
        p->member_of = 0;
        for (int i = before; i < p->u->nfuncs; i++) {
            tr_func *f = p->u->funcs[i];
            if (strcmp(f->name, pd.name)) continue;
            f->template_id = pd.template_id;
            f->synthetic = pd.template_id == NULL;
        }
        tr_tokens_free(&pd.toks);
    }
    p->t = st;
    p->n = sn;
}

static bool struct_attributes(parser *p, size_t *k, size_t end, long long *align);

/* ---- templates, recorded for instantiation ------------------------------------------------ */
static void record_template(parser *p, size_t i, size_t end)
{
    /* template < params > item */
    size_t k = i + 2;
    tr_template t = {0};
    int depth = 0;
    size_t pstart = k;
    for (; k < end; k++) {
        const char *s = p->t[k].text;
        if (!strcmp(s, "<") || !strcmp(s, "(")) depth++;
        if (!strcmp(s, ")")) depth--;
        bool close = !strcmp(s, ">") && depth == 0;
        if (!strcmp(s, ">") && depth > 0 && !close) depth--;
        if ((!strcmp(s, ",") && depth == 0) || close) {
            /* one parameter [pstart, k): typename N [= d] | class N [= d] | T N [= d] */
            if (k > pstart && t.nparams < TR_MAX_TPARAMS) {
                size_t eq = pstart;
                while (eq < k && strcmp(p->t[eq].text, "="))
                    eq++;
                size_t nm = eq;
                while (nm > pstart && p->t[nm - 1].kind != TR_IDENT)
                    nm--;
                for (size_t q = pstart; q + 3 < eq; q++) /* float (*op)(float): op */
                    if (!strcmp(p->t[q].text, "(") && !strcmp(p->t[q + 1].text, "*") &&
                        p->t[q + 2].kind == TR_IDENT && !strcmp(p->t[q + 3].text, ")"))
                        nm = q + 3;
                if (nm > pstart) {
                    int n = t.nparams++;
                    t.pnames[n] = tr_strdup(p->u, p->t[nm - 1].text);
                    /* template <typename> class Op: a class template's name, as a type */
                    t.ptype[n] = !strcmp(p->t[pstart].text, "typename") ||
                                 !strcmp(p->t[pstart].text, "class") ||
                                 !strcmp(p->t[pstart].text, "template");
                    if (eq < k) {
                        t.pdefault[n] = &p->t[eq + 1];
                        t.ndefault[n] = (int)(k - eq - 1);
                    }
                }
            }
            pstart = k + 1;
            if (close) break;
        }
    }
    if (k < end && t.nparams == 0) {
        /* template <> ... name<args>(...): an explicit specialisation, used for those
         * arguments; one whose arguments are deduced (name(...)) is not read, and its template
         * is then refused wherever it is instantiated, since the primary body would be used */
        for (size_t q = k + 1; q + 1 < end; q++) {
            if (p->t[q].kind == TR_PUNCT && !strcmp(p->t[q].text, "{")) break;
            tr_template *pt = p->t[q].kind == TR_IDENT ? tp_template_find(p, p->t[q].text) : NULL;
            if (!pt || (strcmp(p->t[q + 1].text, "(") && strcmp(p->t[q + 1].text, "<"))) continue;
            bool read = false;
            if (!strcmp(p->t[q + 1].text, "<") && p->t == p->u->pp.toks.v) {
                size_t ab[TR_MAX_TPARAMS], ae[TR_MAX_TPARAMS];
                int n = 1, d = 0;
                size_t a = q + 2;
                ab[0] = a;
                bool bad = a < end && !strcmp(p->t[a].text, ">");
                for (; !bad && a < end; a++) {
                    const char *s = p->t[a].text;
                    if (p->t[a].kind != TR_PUNCT) continue;
                    if (!strcmp(s, "(") || !strcmp(s, "<")) d++;
                    if (!strcmp(s, ")")) d--;
                    if (!strcmp(s, ">") && d-- == 0) break;
                    if (!strcmp(s, ";") || !strcmp(s, "{") ||
                        (!strcmp(s, ",") && d == 0 && n == TR_MAX_TPARAMS)) {
                        bad = true;
                        break;
                    }
                    if (!strcmp(s, ",") && d == 0) {
                        ae[n - 1] = a;
                        ab[n++] = a + 1;
                    }
                }
                if (!bad && a + 1 < end && !strcmp(p->t[a + 1].text, "(")) {
                    ae[n - 1] = a;
                    tp_template_specialise(p, pt, ab, ae, n, k + 1, end, p->t[q].line);
                    read = true;
                }
            }
            if (!read && !pt->specialised_line) pt->specialised_line = p->t[q].line;
            break;
        }
        return;
    }
    if (k >= end || t.nparams == 0) return;
    t.begin = k + 1;
    t.end = end;
    t.device = item_has(p, t.begin, end, "__global__") || item_has(p, t.begin, end, "__device__");
    t.kernel = item_has(p, t.begin, end, "__global__");
    if ((item_has(p, t.begin, end, "struct") || item_has(p, t.begin, end, "class")) &&
        item_has_anywhere(p, t.begin, end, "operator") &&
        item_has_anywhere(p, t.begin, end, "__shared__")) {
        /* template <class T> struct SharedMemory { operator T *() { extern __shared__ ...} } */
        for (size_t q = t.begin; q + 1 < end; q++)
            if (!strcmp(p->t[q].text, "struct") || !strcmp(p->t[q].text, "class")) {
                char **na =
                    realloc(p->shared_accessors, (size_t)(p->nshared_accessors + 1) * sizeof *na);
                if (!na) abort();
                p->shared_accessors = na;
                na[p->nshared_accessors++] = tr_strdup(p->u, p->t[q + 1].text);
                break;
            }
        return;
    }
    if (!strcmp(p->t[t.begin].text, "struct") || !strcmp(p->t[t.begin].text, "class")) {
        /* template <...> struct S { ... };: a class template, made per argument list where
         * S<args> names a type (template.c) */
        size_t q = t.begin + 1;
        long long align;
        char why[sizeof p->why];
        memcpy(why, p->why, sizeof why);
        struct_attributes(p, &q, end, &align); /* read again when it is instantiated */
        memcpy(p->why, why, sizeof why);
        if (q + 1 >= end || p->t[q].kind != TR_IDENT || strcmp(p->t[q + 1].text, "{") ||
            p->t != p->u->pp.toks.v || tp_struct_template_find(p, p->t[q].text))
            return;
        t.name = tr_strdup(p->u, p->t[q].text);
        t.file = p->t[q].file;
        t.line = p->t[q].line;
        tr_template *nt = realloc(p->stemplates, (size_t)(p->nstemplates + 1) * sizeof *nt);
        if (!nt) abort();
        p->stemplates = nt;
        p->stemplates[p->nstemplates++] = t;
        return;
    }
    for (size_t q = t.begin; q + 1 < end; q++) {
        if (p->t[q].kind == TR_PUNCT && !strcmp(p->t[q].text, "{")) break;
        if (p->t[q].kind == TR_IDENT && !strcmp(p->t[q + 1].text, "(") &&
            (!strcmp(p->t[q].text, "__launch_bounds__") || !strcmp(p->t[q].text, "__align__") ||
             !strcmp(p->t[q].text, "__attribute__"))) {
            /* __launch_bounds__(N, SHM / sizeof(T)): not the name, nor what is inside */
            int nest = 0;
            for (q++; q + 1 < end; q++) {
                if (!strcmp(p->t[q].text, "(")) nest++;
                if (!strcmp(p->t[q].text, ")") && --nest == 0) break;
            }
            continue;
        }
        if (p->t[q].kind == TR_IDENT && !strcmp(p->t[q + 1].text, "(")) {
            t.name = tr_strdup(p->u, p->t[q].text);
            t.file = p->t[q].file;
            t.line = p->t[q].line;
            break;
        }
    }
    if (!t.name) return;
    tr_template *prev = tp_template_find(p, t.name);
    if (prev) { /* overloads are not told apart; a definition replaces a declaration */
        bool had_body = false, has_body = false;
        for (size_t q = prev->begin; q < prev->end && !had_body; q++)
            had_body = !strcmp(p->t[q].text, "{");
        for (size_t q = t.begin; q < t.end && !has_body; q++)
            has_body = !strcmp(p->t[q].text, "{");
        if (!had_body && has_body && !prev->ninstances) {
            *prev = t;
            return;
        }
        /* device function templates overloaded by their number of parameters */
        if (!had_body || !has_body || !t.device || t.kernel || prev->kernel) return;
        int arity = tp_template_arity(p, &t);
        for (int q = 0; q < p->u->ntemplates; q++)
            if (!strcmp(p->u->templates[q].name, t.name) &&
                tp_template_arity(p, &p->u->templates[q]) == arity)
                return;
        char iname[160];
        snprintf(iname, sizeof iname, "%s_%dargs", t.name, arity);
        t.iname = tr_strdup(p->u, iname);
        tr_template *nt = realloc(p->u->templates, (size_t)(p->u->ntemplates + 1) * sizeof *nt);
        if (!nt) abort();
        p->u->templates = nt;
        p->u->templates[p->u->ntemplates++] = t;
        return;
    }
    tr_unit *u = p->u;
    tr_template *nt = realloc(u->templates, (size_t)(u->ntemplates + 1) * sizeof *nt);
    if (!nt) abort();
    u->templates = nt;
    u->templates[u->ntemplates++] = t;
}

/* `template __global__ void k<float>(float *);`: an explicit instantiation. */
static void explicit_instantiation(parser *p, size_t i, size_t end)
{
    for (size_t k = i + 1; k + 1 < end; k++) {
        tr_template *t = p->t[k].kind == TR_IDENT ? tp_template_find(p, p->t[k].text) : NULL;
        if (!t || strcmp(p->t[k + 1].text, "<") || !t->device) continue;
        p->i = k + 1;
        p->end = end;
        tp_mark mark = tp_mark_here(p);
        if (setjmp(p->fail)) {
            tp_back_to(p, &mark);
            tr_diag_add(p->u, false, p->why_file, p->why_line, p->why_col, "template",
                        "this explicit instantiation is not translated: %s", p->why);
            return;
        }
        tp_template_ref(p, t, &p->t[k]);
        return;
    }
}

/* ---- host constants ----------------------------------------------------------------------- */
static void add_host_const(parser *p, const char *name, const char *type, size_t b, size_t e,
                           long long v)
{
    tp_host_const *h = realloc(p->hconsts, (size_t)(p->nhconsts + 1) * sizeof *h);
    if (!h) abort();
    p->hconsts = h;
    h[p->nhconsts++] = (tp_host_const){tr_strdup(p->u, name), tr_strdup(p->u, type), b, e, v};
}

/* The integer type an enumeration's values have, `enum E : TYPE` [from, to): its name, or
 * NULL for a type outside the plain integers. */
static const char *enum_base(parser *p, size_t from, size_t to)
{
    size_t si = p->i, se = p->end;
    p->i = from;
    p->end = to;
    tp_mark mark = tp_mark_here(p);
    if (setjmp(p->fail)) {
        tp_back_to(p, &mark);
        p->i = si, p->end = se;
        return NULL;
    }
    specs s = tp_parse_specs(p);
    tp_back_to(p, &mark);
    bool whole = p->i == to;
    p->i = si, p->end = se;
    if (!whole || s.type.nptr || s.type.cg) return NULL;
    static const char *const ints[] = {"char",
                                       "signed char",
                                       "unsigned char",
                                       "short",
                                       "unsigned short",
                                       "int",
                                       "unsigned int",
                                       "long",
                                       "unsigned long",
                                       "long long",
                                       "unsigned long long",
                                       "int8_t",
                                       "int16_t",
                                       "int32_t",
                                       "int64_t",
                                       "uint8_t",
                                       "uint16_t",
                                       "uint32_t",
                                       "uint64_t"};
    return tp_in_list(s.type.base, ints, sizeof ints / sizeof *ints) ? s.type.base : NULL;
}

/* `[typedef] enum [class] [TAG] [: TYPE] { A [= value], B } [NAME];`: the enumerators are
 * constants device code may use (`A`, and `TAG::A`; only the latter for an enum class), TAG and
 * NAME the enumeration's integer type (`int` unless TYPE says another). An enumerator whose
 * value is not read stops the list: the names after it stay unknown, and so refused. */
static void record_enum(parser *p, size_t i, size_t end)
{
    size_t k = i;
    bool is_typedef = !strcmp(p->t[k].text, "typedef");
    k += is_typedef + 1; /* after `enum` */
    bool scoped = k < end && (!strcmp(p->t[k].text, "class") || !strcmp(p->t[k].text, "struct"));
    k += scoped;
    const char *tag = k < end && p->t[k].kind == TR_IDENT ? p->t[k++].text : NULL;
    size_t colon = k;
    while (k < end && strcmp(p->t[k].text, "{") && strcmp(p->t[k].text, ";"))
        k++;
    if (k >= end || strcmp(p->t[k].text, "{")) return; /* a declaration only */
    const char *type =
        colon < k && !strcmp(p->t[colon].text, ":") ? enum_base(p, colon + 1, k) : "int";
    if (!type) return;
    size_t close = k;
    while (close < end && strcmp(p->t[close].text, "}"))
        close++;
    const char *name = NULL; /* the item ends at the '}' (item_end): the name is after it */
    if (is_typedef && close + 2 < p->n && p->t[close + 1].kind == TR_IDENT &&
        !strcmp(p->t[close + 2].text, ";"))
        name = p->t[close + 1].text;
    bool values_fit = true; /* an enum with a value beyond int's range is wider than an int */
    long long v = 0;
    bool known = true;
    for (k++; k < close;) {
        if (p->t[k].kind != TR_IDENT) return;
        const char *en = p->t[k].text;
        size_t b = 0, e = 0;
        if (k + 1 < close && !strcmp(p->t[k + 1].text, "=")) {
            b = e = k + 2;
            int depth = 0;
            for (; e < close; e++) {
                if (!strcmp(p->t[e].text, "(")) depth++;
                if (!strcmp(p->t[e].text, ")")) depth--;
                if (depth == 0 && !strcmp(p->t[e].text, ",")) break;
            }
            if (e == b) return;
            k = e;
            bool neg = !strcmp(p->t[b].text, "-");
            char *numend;
            known = e == b + 1 + neg && p->t[b + neg].kind == TR_NUMBER;
            if (known) { /* a number: its value, and the next ones' */
                v = strtoll(p->t[b + neg].text, &numend, 0);
                if (strspn(numend, "uUlL") != strlen(numend)) return;
                if (neg) v = -v;
                b = e = 0;
            } else if (tr_const_eval(p->t + b, e - b, &v)) { /* 1 << 3, (4 * 2) - 1 */
                known = true;
                b = e = 0;
            }
        } else if (!known) {
            return; /* after an expression: its value plus one is not read */
        } else {
            k++;
        }
        if (known && (v > 2147483647LL || v < -2147483648LL)) values_fit = false;
        if (!scoped) add_host_const(p, en, type, b, e, v);
        for (int n = 0; n < 2; n++) {
            const char *scope = n ? name : tag;
            if (!scope || (n && tag && !strcmp(tag, name))) continue;
            char q[256];
            snprintf(q, sizeof q, "%s::%s", scope, en);
            add_host_const(p, q, type, b, e, v);
        }
        if (known) v++;
        if (k < close && strcmp(p->t[k++].text, ",")) return;
    }
    if (!values_fit && !strcmp(type, "int")) return;
    for (int n = 0; n < 2; n++) {
        const char *alias = n ? name : tag;
        if (!alias || tp_is_named_type(alias)) continue;
        tr_type t = {0};
        t.base = tr_strdup(p->u, type);
        tp_add_alias(p, alias, &t);
    }
}

/* `[static] const|constexpr TYPE NAME = INIT[, NAME = INIT];` with an arithmetic TYPE, and
 * `enum [NAME] { A [= n], B };` */
static void record_host_constants(parser *p, size_t i, size_t end)
{
    static const char *const words[] = {"int",     "unsigned", "float",  "double",  "long",
                                        "short",   "char",     "size_t", "int32_t", "uint32_t",
                                        "int64_t", "uint64_t", "signed", "bool"};
    size_t k = i;
    if (!strcmp(p->t[k].text, "enum") ||
        (!strcmp(p->t[k].text, "typedef") && k + 1 < end && !strcmp(p->t[k + 1].text, "enum"))) {
        record_enum(p, i, end);
        return;
    }
    bool is_const = false;
    char type[64] = "";
    for (; k < end && p->t[k].kind == TR_IDENT; k++) {
        const char *w = p->t[k].text;
        if (!strcmp(w, "static") || !strcmp(w, "inline"))
            continue;
        else if (!strcmp(w, "auto") && !type[0] && k + 4 < end && p->t[k + 1].kind == TR_IDENT &&
                 !strcmp(p->t[k + 2].text, "=") && p->t[k + 3].kind == TR_NUMBER &&
                 !strcmp(p->t[k + 4].text, ";")) {
            /* constexpr auto N = 8; (a literal: its C++ type) */
            const char *n = p->t[k + 3].text;
            bool hex = n[0] == '0' && (n[1] == 'x' || n[1] == 'X');
            char *stop;
            if (!hex && strpbrk(n, ".eE")) {
                if (strpbrk(n, "lL")) return;
                snprintf(type, sizeof type, "%s", strpbrk(n, "fF") ? "float" : "double");
            } else if (strtoll(n, &stop, 10) <= 0x7fffffff && !*stop) {
                snprintf(type, sizeof type, "int"); /* decimal, no suffix, fits an int */
            } else {
                return;
            }
        } else if (!strcmp(w, "const") || !strcmp(w, "constexpr"))
            is_const = true;
        else if (tp_in_list(w, words, sizeof words / sizeof *words)) {
            size_t l = strlen(type);
            snprintf(type + l, sizeof type - l, "%s%s", l ? " " : "", w);
        } else if (!type[0] && k + 2 < end && p->t[k + 1].kind == TR_IDENT &&
                   !strcmp(p->t[k + 2].text, "=")) {
            /* `static const FLOAT ONE = 1.0;`: a type name, read where the constant is used
             * (an alias of an arithmetic type by then, or not a constant) */
            snprintf(type, sizeof type, "%s", w);
        } else
            break;
    }
    if (!is_const || !type[0]) return;
    if (!strcmp(type, "unsigned")) snprintf(type, sizeof type, "unsigned int");
    /* NAME = INIT, and C++'s NAME(INIT) and NAME{INIT} */
    while (k + 2 < end && p->t[k].kind == TR_IDENT &&
           (!strcmp(p->t[k + 1].text, "=") || !strcmp(p->t[k + 1].text, "(") ||
            !strcmp(p->t[k + 1].text, "{"))) {
        const char *name = p->t[k].text;
        bool direct = strcmp(p->t[k + 1].text, "=") != 0;
        size_t b = k + 2, e = b;
        int depth = 0;
        for (; e < end; e++) {
            const char *s = p->t[e].text;
            if (p->t[e].kind == TR_STRING || p->t[e].kind == TR_CHAR) return;
            if (!strcmp(s, "(") || !strcmp(s, "{")) depth++;
            if ((!strcmp(s, ")") || !strcmp(s, "}")) && --depth < 0) break; /* NAME(INIT) */
            if (depth == 0 && !direct && (!strcmp(s, ",") || !strcmp(s, ";"))) break;
            if (depth == 0 && direct && (!strcmp(s, ",") || !strcmp(s, ";"))) return;
        }
        if (e >= end || e == b) return;
        add_host_const(p, name, type, b, e, 0);
        if (direct) e++; /* past the ')' */
        if (e >= end || strcmp(p->t[e].text, ",")) return;
        k = e + 1;
    }
}

tr_expr *tp_host_constant(parser *p, const tr_token *at, const char *name)
{
    tp_host_const *h = NULL;
    for (int i = 0; i < p->nhconsts; i++)
        if (!strcmp(p->hconsts[i].name, name)) h = &p->hconsts[i];
    if (!h) return NULL;
    const char *type = h->type;
    static const char *const arith[] = {
        "int",           "unsigned int",   "float",     "double",
        "long",          "unsigned long",  "long long", "unsigned long long",
        "short",         "unsigned short", "char",      "signed char",
        "unsigned char", "bool",           "int8_t",    "int16_t",
        "int32_t",       "int64_t",        "uint8_t",   "uint16_t",
        "uint32_t",      "uint64_t",       "size_t"};
    /* words of record_host_constants (`unsigned long`), or one name */
    bool known = strchr(type, ' ') || tp_in_list(type, arith, sizeof arith / sizeof *arith);
    if (!known) { /* a type name (record_host_constants): an alias of an arithmetic type */
        const tr_type *a = tp_alias_type(p, type);
        if (!a || a->nptr || !tp_in_list(a->base, arith, sizeof arith / sizeof *arith)) return NULL;
        type = a->base;
    }
    tr_expr *v;
    if (h->begin == h->end) {
        char num[32];
        snprintf(num, sizeof num, "%lld", h->value);
        v = tp_mk_num(p, at, num);
    } else {
        /* its initialiser, parsed where it was written (the host token array is the unit's) */
        tr_token *st = p->t;
        size_t sn = p->n, si = p->i, se = p->end;
        p->t = p->u->pp.toks.v, p->n = p->u->pp.toks.n, p->i = h->begin, p->end = h->end;
        int nscope = p->nscope;
        p->nscope = 0;
        v = tp_parse_assign(p);
        bool whole = p->i == h->end;
        p->nscope = nscope;
        p->t = st, p->n = sn, p->i = si, p->end = se;
        if (!whole) return NULL;
    }
    tr_expr *c = tp_new_expr(p, TR_E_CAST, at);
    c->type = tr_alloc(p->u, sizeof *c->type);
    c->type->base = tr_strdup(p->u, type);
    c->a = v;
    return c;
}

/* ---- the file ----------------------------------------------------------------------------- */
static bool device_item(parser *p, size_t i, size_t end)
{
    size_t t = i + (i < end && p->t[i].kind == TR_IDENT && !strcmp(p->t[i].text, "static"));
    if (t + 1 < end && p->t[t].kind == TR_IDENT && !strcmp(p->t[t].text, "texture") &&
        !strcmp(p->t[t + 1].text, "<"))
        return true; /* a texture reference (parse_texture_ref) */
    return item_has(p, i, end, "__global__") || item_has(p, i, end, "__device__") ||
           item_has(p, i, end, "__constant__") || item_has(p, i, end, "__shared__") ||
           item_has(p, i, end, "__managed__");
}

static void free_parser(parser *p)
{
    free(p->scope);
    for (int k = 0; k < p->naliases; k++)
        free(p->aliases[k].name);
    free(p->aliases);
    free(p->cg_names);
    free(p->namespaces);
    free(p->shared_accessors);
    free(p->stemplates);
    for (int k = 0; k < p->npending; k++)
        tr_tokens_free(&p->pending[k].toks);
    free(p->pending);
    free(p->made);
    free(p->hconsts);
    for (int k = 0; k < p->nhost_bodies; k++)
        tr_tokens_free(&p->host_bodies[k]);
    free(p->host_bodies);
    tp_scratch_unwind(p, NULL);
}

/* [i, end) defines a function (or a function template): its first '{' follows a ')'. */
static bool function_definition(const parser *p, size_t i, size_t end)
{
    int depth = 0;
    for (size_t k = i; k < end; k++) {
        const char *s = p->t[k].text;
        if (p->t[k].kind != TR_PUNCT) continue;
        if (!strcmp(s, "(") || !strcmp(s, "["))
            depth++;
        else if (!strcmp(s, ")") || !strcmp(s, "]"))
            depth--;
        else if (!strcmp(s, "=") && depth == 0)
            return false;
        else if (!strcmp(s, "{"))
            return depth == 0 && k > i && !strcmp(p->t[k - 1].text, ")");
    }
    return false;
}

/* An item of the including file after its #include that the translation reads: host templates
 * (their bodies launch this file's kernel templates) and type aliases (the launches' argument
 * types); its kernels, device functions and structs are not this file's. */
static bool tail_item(parser *p, size_t i, size_t end)
{
    const char *w = p->t[i].text;
    if (p->t[i].kind != TR_IDENT) return false;
    if (!strcmp(w, "typedef") || !strcmp(w, "using"))
        return !item_has(p, i, end, "struct") && !item_has(p, i, end, "union") &&
               !item_has(p, i, end, "class") && !item_has(p, i, end, "enum");
    return !strcmp(w, "template") && !item_has(p, i, end, "__global__") &&
           !item_has(p, i, end, "__device__") && function_definition(p, i, end);
}

/* The top-level items, in order: fn(p, i, end) for each. -1 on unbalanced braces. */
static int each_item(parser *p, void (*fn)(parser *, size_t, size_t), char *err, size_t errlen)
{
    tr_unit *u = p->u;
    size_t i = 0;
    while (i < p->n && p->t[i].kind != TR_EOF) {
        const tr_token *t = &p->t[i];
        if (t->kind == TR_DIRECTIVE || (t->kind == TR_PUNCT && !strcmp(t->text, ";")) ||
            (t->kind == TR_PUNCT && !strcmp(t->text, "}"))) { /* the end of a block opened below */
            i++;
            continue;
        }
        /* extern "C" { ... } and namespace N { ... }: their items are top-level items */
        if (t->kind == TR_IDENT && !strcmp(t->text, "extern") && i + 2 < p->n &&
            p->t[i + 1].kind == TR_STRING && !strcmp(p->t[i + 2].text, "{")) {
            i += 3;
            continue;
        }
        if (t->kind == TR_IDENT && !strcmp(t->text, "namespace")) {
            size_t k = i + 1;
            while (k < p->n && p->t[k].kind == TR_IDENT)
                k++;
            if (k < p->n && !strcmp(p->t[k].text, "{")) {
                if (k == i + 2 && !tp_is_namespace(p, p->t[i + 1].text)) {
                    char **n = realloc(p->namespaces, (size_t)(p->nnamespaces + 1) * sizeof *n);
                    if (!n) abort();
                    p->namespaces = n;
                    n[p->nnamespaces++] = p->t[i + 1].text;
                }
                i = k + 1;
                continue;
            }
        }
        long end = item_end(p, i, p->n);
        if (end < 0) {
            snprintf(err, errlen,
                     "%s:%d:%d: unbalanced braces or parentheses from here to the end "
                     "of the file",
                     u->pp.files[t->file], t->line, t->col);
            return -1;
        }
        if ((i < u->pp.context_end && (size_t)end > u->pp.context_end) ||
            (i < u->pp.tail_begin && (size_t)end > u->pp.tail_begin &&
             p->t[u->pp.tail_begin].kind != TR_EOF)) {
            snprintf(err, errlen, "%s:%d:%d: the #include of this file is inside this definition",
                     u->pp.files[t->file], t->line, t->col);
            return -1; /* read without the including file */
        }
        if ((size_t)i >= u->pp.tail_begin && !tail_item(p, i, (size_t)end)) {
            i = (size_t)end; /* after the #include: only what finds this file's launches */
            continue;
        }
        if ((size_t)end <= u->pp.context_end && function_definition(p, i, (size_t)end) &&
            (item_has(p, i, (size_t)end, "__global__") ||
             !item_has(p, i, (size_t)end, "__device__"))) {
            i = (size_t)end; /* the including file's kernels and host code are not this file's */
            continue;
        }
        fn(p, i, (size_t)end);
        i = (size_t)end;
    }
    return 0;
}

/* First pass: what host items and templates tell the device code. */
static void read_host_item(parser *p, size_t i, size_t end)
{
    const tr_token *t = &p->t[i];
    if (t->kind == TR_IDENT && !strcmp(t->text, "template") && i + 1 < end &&
        !strcmp(p->t[i + 1].text, "<")) {
        record_template(p, i, end);
        return;
    }
    if (tp_record_group_function(p, i, end)) return;
    /* namespace cg = cooperative_groups; */
    if (t->kind == TR_IDENT && !strcmp(t->text, "namespace") && i + 3 < end &&
        !strcmp(p->t[i + 2].text, "=") && !strcmp(p->t[i + 3].text, "cooperative_groups")) {
        char **n = realloc(p->cg_names, (size_t)(p->ncg_names + 1) * sizeof *n);
        if (!n) abort();
        p->cg_names = n;
        n[p->ncg_names++] = tr_strdup(p->u, p->t[i + 1].text);
        return;
    }
    /* using namespace cooperative_groups; */
    if (t->kind == TR_IDENT && !strcmp(t->text, "using") && i + 2 < end &&
        !strcmp(p->t[i + 1].text, "namespace") &&
        (!strcmp(p->t[i + 2].text, "cooperative_groups") ||
         tp_is_cg_namespace(p, p->t[i + 2].text))) {
        p->using_cg = true;
        return;
    }
    if (!device_item(p, i, end)) record_host_constants(p, i, end);
}

/* The field types whose size and alignment every target agrees on (the CPU prelude's vectors
 * are not aligned as CUDA's, bool and size_t differ on OpenCL, pointers carry an address space). */
static const char *field_refusal(const tr_unit *u, const tr_type *t)
{
    static const char *const ok[] = {
        "char", "signed char", "unsigned char", "short", "unsigned short", "int", "unsigned int",
        "float", "double", "long", "unsigned long", "long long", "unsigned long long", "int8_t",
        "int16_t", "int32_t", "int64_t", "uint8_t", "uint16_t", "uint32_t", "uint64_t",
        /* 16-bit storage on every target (gp_half, gp_bf16) */
        "__half", "half", "__nv_bfloat16", "nv_bfloat16"};
    if (t->nptr) return "a pointer field (its address space would be unknown)";
    if (!strcmp(t->base, "bool")) return NULL; /* held as uint8_t */
    if (tl_packed3(t->base)) return NULL;      /* float3...: stored as CUDA packs it (structs.c) */
    if (!strncmp(t->base, "struct ", 7)) {
        const tr_struct *st = tp_find_struct((tr_unit *)u, t->base + 7);
        return st && st->align ? "a struct aligned beyond its fields (__align__): its offset "
                                 "would differ on the targets, which do not align it"
                               : NULL;
    }
    for (size_t i = 0; i < sizeof ok / sizeof *ok; i++)
        if (!strcmp(t->base, ok[i])) return NULL;
    (void)u;
    return "a field whose type has another size or alignment on some target (vectors, bool, "
           "size_t, half) or none";
}

/* An array size of numbers and + - * / << (`DEFAULT_ORDER + 1` once expanded): its value. */
static bool size_value(const tr_unit *u, const tr_expr *e, long long *v)
{
    long long a, b;
    char *end;
    if (!e) return false;
    switch (e->kind) {
    case TR_E_NUM:
        *v = strtoll(e->text, &end, 0);
        return end != e->text && (!*end || strchr("uUlL", *end));
    case TR_E_IDENT: /* a macro kept by name: its number */
        for (size_t k = 0; k < u->pp.nkept; k++)
            if (!strcmp(u->pp.kept[k].name, e->text)) {
                *v = strtoll(u->pp.kept[k].body, &end, 0);
                return end != u->pp.kept[k].body && (!*end || strchr("uUlL", *end));
            }
        return false;
    case TR_E_SIZEOF_TYPE: /* sizeof(T) of a scalar (PyTorch's alignas(sizeof(T) * N)) */
        *v = e->type && !e->type->nptr ? tr_type_size(e->type->base) : 0;
        return *v > 0;
    case TR_E_BINARY:
        if (!size_value(u, e->a, &a) || !size_value(u, e->b, &b) || a < 0 || b < 0 || a > 1 << 20 ||
            b > 1 << 20)
            return false;
        switch (e->text[0]) {
        case '+':
            *v = a + b;
            return true;
        case '-':
            *v = a - b;
            return true;
        case '*':
            *v = a * b;
            return true;
        case '/':
            return b ? (*v = a / b, true) : false;
        case '<':
            return !strcmp(e->text, "<<") && b < 20 ? (*v = a << b, true) : false;
        default:
            return false;
        }
    default:
        return false;
    }
}

/* The fields of a struct, [from, close): false (with a note) on one outside the subset. */
static bool struct_fields(parser *p, tr_struct *st, size_t from, size_t close)
{
    p->i = from;
    p->end = close;
    tp_mark mark = tp_mark_here(p);
    if (setjmp(p->fail)) {
        tp_back_to(p, &mark);
        tr_diag_add(p->u, false, p->why_file, p->why_line, p->why_col, "struct",
                    "struct %s is not translated: %s", st->name, p->why);
        return false;
    }
    while (!tp_is(p, "}") && p->i < close) {
        specs fs = tp_parse_specs(p);
        do {
            tr_sym *f = tp_parse_declarator(p, &fs, false);
            const char *why = field_refusal(p->u, &f->type);
            if (why) tp_bail(p, "struct", "field %s is %s", f->name, why);
            tr_field fld = {f->name, f->type, {NULL, NULL}};
            if (!f->type.nptr && !strcmp(f->type.base, "bool")) /* one byte, 0 or 1, as CUDA's */
                fld.type.base = tr_strdup(p->u, "uint8_t");
            if (f->ndims > 2) tp_bail(p, "struct", "field %s has more than 2 dimensions", f->name);
            if (f->ndims && tl_packed3(f->type.base))
                tp_bail(p, "struct", "field %s is an array of %s: outside the accepted subset",
                        f->name, f->type.base);
            for (int d = 0; d < f->ndims; d++) {
                tr_expr *x = f->dims[d];
                long long v = 0;
                if (x && x->kind == TR_E_IDENT) { /* a macro kept by name */
                    fld.dims[d] = x->text;
                } else if (size_value(p->u, x, &v) && v > 0) {
                    char num[32];
                    snprintf(num, sizeof num, "%lld", v);
                    fld.dims[d] = tr_strdup(p->u, num);
                } else {
                    tp_bail(p, "struct", "field %s: an array size that is not a number", f->name);
                }
            }
            tr_field *nf = tr_alloc(p->u, (size_t)(st->nfields + 1) * sizeof *nf);
            if (st->nfields) memcpy(nf, st->fields, (size_t)st->nfields * sizeof *nf);
            nf[st->nfields++] = fld;
            st->fields = nf;
        } while (tp_accept(p, ","));
        tp_expect(p, ";");
    }
    return true;
}

/* The size and alignment of a field's type as CUDA lays it out; false for a type it cannot
 * tell. */
static bool field_layout(const tr_unit *u, const tr_field *f, long long *size, long long *align)
{
    static const struct {
        const char *name;
        int size;
    } scalars[] = {{"char", 1},           {"signed char", 1},
                   {"unsigned char", 1},  {"int8_t", 1},
                   {"uint8_t", 1},        {"short", 2},
                   {"unsigned short", 2}, {"int16_t", 2},
                   {"uint16_t", 2},       {"int", 4},
                   {"unsigned int", 4},   {"int32_t", 4},
                   {"uint32_t", 4},       {"float", 4},
                   {"long", 8},           {"unsigned long", 8},
                   {"long long", 8},      {"unsigned long long", 8},
                   {"int64_t", 8},        {"uint64_t", 8},
                   {"double", 8},         {"__half", 2},
                   {"half", 2},           {"__nv_bfloat16", 2},
                   {"nv_bfloat16", 2}};
    *size = 0;
    if (!strncmp(f->type.base, "struct ", 7)) {
        const tr_struct *st = tp_find_struct((tr_unit *)u, f->type.base + 7);
        if (!st || st->align || st->is_union) return false;
        long long a = 1, off = 0;
        for (int k = 0; k < st->nfields; k++) {
            long long fs, fa;
            if (!field_layout(u, &st->fields[k], &fs, &fa)) return false;
            off = (off + fa - 1) / fa * fa + fs;
            if (fa > a) a = fa;
        }
        *size = (off + a - 1) / a * a;
        *align = a;
    } else if (tl_packed3(f->type.base)) { /* gp_packed_float3: three elements, their alignment */
        int elem = strcmp(tl_packed3(f->type.base), "uchar") ? 4 : 1;
        *size = 3 * elem;
        *align = elem;
    } else {
        for (size_t k = 0; k < sizeof scalars / sizeof *scalars && !*size; k++)
            if (!strcmp(f->type.base, scalars[k].name)) *size = *align = scalars[k].size;
        if (!*size) return false;
    }
    for (int d = 0; d < 2 && f->dims[d]; d++) {
        tr_expr x = {.kind = TR_E_NUM, .text = f->dims[d]};
        if (f->dims[d][0] < '0' || f->dims[d][0] > '9') x.kind = TR_E_IDENT;
        long long n;
        if (!size_value(u, &x, &n) || n <= 0) return false;
        *size *= n;
    }
    return true;
}

/* The alignment written in [from, to): a power of two the translation reads, else false. */
static bool alignment_value(parser *p, size_t from, size_t to, long long *v)
{
    size_t si = p->i, se = p->end;
    p->i = from;
    p->end = to;
    tp_mark mark = tp_mark_here(p);
    volatile bool ok = false;
    if (!setjmp(p->fail)) {
        tr_expr *e = tp_parse_expr(p);
        ok = p->i == to && size_value(p->u, e, v) && *v > 0 && !(*v & (*v - 1));
    }
    tp_back_to(p, &mark);
    p->i = si, p->end = se;
    return ok;
}

/* `__align__(n)`, `alignas(n)`, `__attribute__((aligned(n)))` at k (after `struct`): k moved
 * past them, *align the alignment they ask (0: none). False, with p->why, for one the
 * translation does not read or whose layout the targets would not share (packed). */
static bool struct_attributes(parser *p, size_t *k, size_t end, long long *align)
{
    *align = 0;
    bool readable = true;
    while (*k + 1 < end && p->t[*k].kind == TR_IDENT && !strcmp(p->t[*k + 1].text, "(")) {
        const char *w = p->t[*k].text;
        bool gnu = !strcmp(w, "__attribute__");
        if (!gnu && strcmp(w, "__align__") && strcmp(w, "alignas")) break;
        size_t open = *k + 1, close = open;
        int depth = 0;
        for (; close < end; close++) {
            if (!strcmp(p->t[close].text, "(")) depth++;
            if (!strcmp(p->t[close].text, ")") && --depth == 0) break;
        }
        if (close >= end) {
            snprintf(p->why, sizeof p->why, "unbalanced parentheses after %s", w);
            return false;
        }
        size_t from = open + 1, to = close;
        if (gnu) { /* ((aligned(n))), ((aligned)), ((packed)), others without a layout */
            from = to = 0;
            for (size_t q = open; q < close; q++) {
                if (!strcmp(p->t[q].text, "packed") || !strcmp(p->t[q].text, "__packed__")) {
                    snprintf(p->why, sizeof p->why,
                             "__attribute__((packed)) lays its fields out as no target does");
                    readable = false;
                }
                if ((!strcmp(p->t[q].text, "aligned") || !strcmp(p->t[q].text, "__aligned__"))) {
                    if (strcmp(p->t[q + 1].text, "(")) {
                        *align = 16; /* the largest alignment of the x86-64 ABI */
                        continue;
                    }
                    from = q + 2;
                    for (to = from, depth = 1; to < close; to++) {
                        if (!strcmp(p->t[to].text, "(")) depth++;
                        if (!strcmp(p->t[to].text, ")") && --depth == 0) break;
                    }
                }
            }
        }
        if (from < to) {
            long long v = 0;
            bool ok = alignment_value(p, from, to, &v);
            if (!ok) {
                snprintf(p->why, sizeof p->why,
                         "its alignment (%s(...)) is not a power of two the translation reads", w);
                readable = false;
            }
            if (v > *align) *align = v;
        }
        *k = close + 1;
    }
    return readable;
}

static void parse_struct(parser *p, size_t i, size_t end);

void tp_parse_struct_item(parser *p, size_t i, size_t end)
{
    parse_struct(p, i, end);
}

/* `struct TAG { fields };` and `typedef struct [TAG] { fields } NAME;` of plain fields. */
static void parse_struct(parser *p, size_t i, size_t end)
{
    size_t k = i;
    bool is_typedef = !strcmp(p->t[k].text, "typedef");
    k += is_typedef;
    if (k + 1 >= end || (strcmp(p->t[k].text, "struct") && strcmp(p->t[k].text, "union") &&
                         strcmp(p->t[k].text, "class")))
        return; /* a class is a struct whose members are private until `public:` */
    bool is_union = !strcmp(p->t[k].text, "union");
    k++;
    long long align = 0;
    bool attrs_ok = struct_attributes(p, &k, end, &align);
    const char *tag = NULL;
    if (p->t[k].kind == TR_IDENT) tag = p->t[k++].text;
    if (k >= end || strcmp(p->t[k].text, "{")) return; /* a declaration, or __align__(n) */
    size_t close = k, depth = 0;
    for (; close < p->n; close++) {
        if (!strcmp(p->t[close].text, "{")) depth++;
        if (!strcmp(p->t[close].text, "}") && --depth == 0) break;
    }
    const char *name = tag;
    if (is_typedef) {
        if (close + 2 >= p->n || p->t[close + 1].kind != TR_IDENT ||
            strcmp(p->t[close + 2].text, ";"))
            return;
        name = p->t[close + 1].text;
    }
    if (!name || tp_find_struct(p->u, name)) return;
    const tr_token *at = &p->t[k];
    if (!attrs_ok) {
        tr_diag_add(p->u, false, at->file, at->line, at->col, "struct",
                    "struct %s is not translated: %s", name, p->why);
        return;
    }
    tr_struct st = {.tag = tag ? tr_strdup(p->u, tag) : NULL,
                    .name = tr_strdup(p->u, name),
                    .file = at->file,
                    .line = at->line,
                    .is_union = is_union};
    /* member functions and constructors (members.c): the fields are parsed on their own */
    tr_tokens fields = {0};
    char why[160];
    if (!tp_struct_members(p, &st, k + 1, close, &fields, why, sizeof why)) {
        tr_diag_add(p->u, false, at->file, at->line, at->col, "struct",
                    "struct %s has %s: outside the accepted subset (plain fields, member "
                    "functions and constructors are translated)",
                    name, why);
        tr_tokens_free(&fields);
        return;
    }
    tr_token eof = {TR_EOF, (char *)"", at->file, at->line, at->col, false};
    if (tr_tokens_push(&fields, &eof) != 0) abort();
    tr_token *saved_t = p->t;
    size_t saved_n = p->n;
    p->t = fields.v, p->n = fields.n;
    bool ok = struct_fields(p, &st, 0, fields.n - 1);
    p->t = saved_t, p->n = saved_n;
    tr_tokens_free(&fields);
    if (!ok) return;
    if (!st.nfields) { /* `struct Add { T operator()(T a, T b) const {...} };`: C needs a field,
                        * and one byte is CUDA's size of an empty struct */
        tr_field one = {tr_strdup(p->u, "gp_empty_"), {.base = NULL}, {NULL, NULL}};
        one.type.base = tr_strdup(p->u, "uint8_t");
        st.fields = tr_alloc(p->u, sizeof *st.fields);
        st.fields[st.nfields++] = one;
    }
    if (align) { /* __align__(n): its size a multiple of n, as CUDA pads it */
        long long size = 0, nat = 1, off = 0;
        bool known = true;
        for (int f = 0; f < st.nfields && known; f++) {
            long long fs, fa;
            known = field_layout(p->u, &st.fields[f], &fs, &fa);
            if (!known) break;
            off = (off + fa - 1) / fa * fa + fs;
            if (fa > nat) nat = fa;
        }
        if (!known) {
            tr_diag_add(p->u, false, at->file, at->line, at->col, "struct",
                        "struct %s is not translated: __align__ with fields whose layout the "
                        "translation does not know",
                        name);
            return;
        }
        size = (off + nat - 1) / nat * nat;
        if (align > nat) {
            long long padded = (size + align - 1) / align * align;
            if (padded > size) {
                tr_field pad = {tr_strdup(p->u, "gp_align_pad_"), {.base = NULL}, {NULL, NULL}};
                pad.type.base = tr_strdup(p->u, "uint8_t");
                char num[32];
                snprintf(num, sizeof num, "%lld", padded - size);
                pad.dims[0] = tr_strdup(p->u, num);
                tr_field *nf = tr_alloc(p->u, (size_t)(st.nfields + 1) * sizeof *nf);
                memcpy(nf, st.fields, (size_t)st.nfields * sizeof *nf);
                nf[st.nfields++] = pad;
                st.fields = nf;
            }
            st.align = (int)align;
        }
    }
    tr_unit *u = p->u;
    tr_struct *ns = realloc(u->structs, (size_t)(u->nstructs + 1) * sizeof *ns);
    if (!ns) abort();
    u->structs = ns;
    u->structs[u->nstructs++] = st;
    tp_struct_queue_members(p, u->nstructs - 1, k + 1, close);
    /* `Node x;` (C++ needs no `struct`) and the typedef's name: the struct's type */
    for (int n = 0; n < 2; n++) {
        const char *alias = n ? st.tag : st.name;
        /* the tag of a typedef'd struct is no type name of its own: C code names variables
         * after it (`LatLong *latLong`); `struct TAG` still is the type */
        if (!alias || (n && (!strcmp(st.tag, st.name) || is_typedef))) continue;
        typedef_alias *a = realloc(p->aliases, (size_t)(p->naliases + 1) * sizeof *a);
        if (!a) abort();
        p->aliases = a;
        tr_type t = {0};
        char base[160];
        snprintf(base, sizeof base, "struct %s", st.name);
        t.base = tr_strdup(u, base);
        p->aliases[p->naliases++] = (typedef_alias){strdup(alias), t, 0, {NULL}};
    }
    (void)end;
}

/* Second pass: device items parsed, host typedefs read, explicit instantiations made. */
static void read_item(parser *p, size_t i, size_t end)
{
    const tr_token *t = &p->t[i];
    if (t->kind == TR_IDENT && !strcmp(t->text, "template")) {
        if (i + 1 < end && strcmp(p->t[i + 1].text, "<")) explicit_instantiation(p, i, end);
        parse_pending(p);
        return;
    }
    if (tp_is_group_function_item(p, i)) return; /* made per group its calls pass */
    bool typedef_item = t->kind == TR_IDENT && !strcmp(t->text, "typedef");
    if (t->kind == TR_IDENT && !strcmp(t->text, "using") && i + 2 < end &&
        p->t[i + 1].kind == TR_IDENT && !strcmp(p->t[i + 2].text, "=")) {
        /* `using real = float;`: as a typedef, dropped when its type is outside the subset (a
         * use says so) */
        p->i = i;
        p->end = end;
        tp_mark mark = tp_mark_here(p);
        if (!setjmp(p->fail))
            tp_parse_using_alias(p);
        else
            tp_back_to(p, &mark);
        parse_pending(p);
        return;
    }
    if (t->kind == TR_IDENT &&
        (!strcmp(t->text, "struct") || !strcmp(t->text, "union") || !strcmp(t->text, "class") ||
         (typedef_item && i + 1 < end &&
          (!strcmp(p->t[i + 1].text, "struct") || !strcmp(p->t[i + 1].text, "union"))))) {
        parse_struct(p, i, end);
        parse_pending(p);
        return;
    }
    if (device_item(p, i, end) || typedef_item) {
        p->i = i;
        p->end = end;
        if (typedef_item && !device_item(p, i, end)) {
            /* host typedefs matter only when device code uses them: parse, drop on failure */
            tp_mark mark = tp_mark_here(p);
            if (!setjmp(p->fail)) {
                specs s = tp_parse_specs(p);
                if (s.is_typedef) parse_typedef(p, &s);
            } else {
                tp_back_to(p, &mark);
            }
        } else {
            parse_item(p);
        }
    }
    parse_pending(p);
}

int tr_parse(tr_unit *u, char *err, size_t errlen)
{
    parser p = {0};
    p.u = u;
    tr_texture_objects(u);
    p.t = u->pp.toks.v;
    p.n = u->pp.toks.n;
    tr_rename_type_names(u);
    int rc = each_item(&p, read_host_item, err, errlen);
    if (rc == 0) rc = each_item(&p, read_item, err, errlen);
    if (rc == 0) {
        tp_template_scan_host(&p);
        parse_pending(&p);
        tp_scan_launches(&p);
        for (size_t r = 0; r < u->ninstantiate; r++) {
            char name[128];
            snprintf(name, sizeof name, "%.*s", (int)strcspn(u->instantiate[r], "< "),
                     u->instantiate[r]);
            if (!tp_template_find(&p, name))
                tr_diag_add(u, true, -1, 0, 0, "--instantiate",
                            "--instantiate %s: this file has no template named %s",
                            u->instantiate[r], name);
        }
        for (int k = 0; k < u->ntemplates; k++) {
            tr_template *t = &u->templates[k];
            if (!t->kernel || t->ninstances) continue;
            static const char why[] =
                "kernel template %s is instantiated nowhere in this file with arguments the "
                "translation can read (the launches' template arguments are not constants or "
                "types it knows); instantiate it with -T '%s<...>' (--instantiate)";
            tr_diag_add(u, true, t->file, t->line, 0, "template", why, t->name, t->name);
            /* still one of the file's kernels in the report, not translated, in its place */
            tr_func *f = tr_alloc(u, sizeof *f);
            f->name = tr_strdup(u, t->name);
            f->kind = TR_F_GLOBAL;
            f->file = t->file, f->line = t->line;
            f->refused = tr_strdup(u, "kernel template instantiated nowhere in this file");
            f->refused_line = t->line;
            add_func(u, f);
            for (int j = u->nfuncs - 1;
                 j > 0 && u->funcs[j - 1]->file == f->file && u->funcs[j - 1]->line > f->line;
                 j--) {
                u->funcs[j] = u->funcs[j - 1];
                u->funcs[j - 1] = f;
            }
        }
    }
    free_parser(&p);
    return rc;
}
