/* cub.c — CUB's block-wide collectives, as the device code of the file uses them: a
 * cub::BlockReduce or cub::BlockScan type alias (`typedef cub::BlockReduce<float, 256> BR;`,
 * `using BR = cub::BlockReduce<T, N>;`), its shared TempStorage (`__shared__ typename
 * BR::TempStorage ts;`, which becomes a shared array of one element per thread) and the calls on
 * it (`BR(ts).Sum(v)`, `.Reduce(v, cub::Max())`, `BlockScan(ts).ExclusiveSum(in, out)`), each a
 * device function the translation writes: a tree over the shared array with __syncthreads()
 * between its steps, which every backend runs (no SIMD groups needed). The block reduction's
 * result is every thread's (CUDA defines it for thread 0 only). Other CUB classes, and other
 * operators, are refused by name. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "translate/parser.h"
#include "translate/pp.h"

enum { CUB_BLOCK_REDUCE, CUB_BLOCK_SCAN, CUB_WARP_REDUCE };

/* The thread's rank in the block and the block's size, as CUB numbers them: the block is
 * BLOCK_DIM_X x Y x Z, and a dimension of 1 is not read (threadIdx.x alone for the common
 * one-dimensional case, which lets the shared-memory check follow the steps). */
static void rank_text(const tp_cub_alias *a, char *rank, size_t rcap, char *size, size_t scap)
{
    snprintf(rank, rcap, "threadIdx.x%s%s%s%s", a->dims[1] > 1 ? " + threadIdx.y * " : "",
             a->dims[1] > 1 ? "blockDim.x" : "", a->dims[2] > 1 ? " + threadIdx.z * " : "",
             a->dims[2] > 1 ? "(blockDim.x * blockDim.y)" : "");
    snprintf(size, scap, "%s",
             a->dims[2] > 1   ? "blockDim.x * blockDim.y * blockDim.z"
             : a->dims[1] > 1 ? "blockDim.x * blockDim.y"
                              : "blockDim.x");
}

static const char *const known_bases[] = {
    "float", "double",        "int",     "unsigned int", "long long", "unsigned long long",
    "long",  "unsigned long", "int32_t", "uint32_t",     "int64_t",   "uint64_t"};

static tp_cub_alias *find(parser *p, const char *name)
{
    for (int i = p->ncub - 1; i >= 0; i--) /* the latest: each function declares its own */
        if (!strcmp(p->cub[i].name, name) && (!p->cub[i].owner || p->cub[i].owner == p->func))
            return &p->cub[i];
    return NULL;
}

bool tp_is_cub_alias(parser *p, const char *name)
{
    return find(p, name) != NULL;
}

/* An integer constant expression written with numbers, kept macros, host constants and the
 * function's own constants. */
static bool eval_tokens(parser *p, const tr_token *t, size_t n, long long *v, int depth)
{
    if (depth > 8) return false;
    tr_tokens e = {0};
    bool ok = true;
    for (size_t i = 0; i < n && ok; i++) {
        tr_token c = t[i];
        if (c.kind == TR_IDENT) {
            const tr_kept_macro *km = NULL;
            for (size_t k = 0; k < p->u->pp.nkept; k++)
                if (!strcmp(p->u->pp.kept[k].name, c.text)) km = &p->u->pp.kept[k];
            long long x = 0;
            char num[32];
            const char *hv = NULL;
            tr_sym *s = tp_lookup(p, c.text);
            if (km) {
                tr_tokens b = {0};
                char err[128];
                ok =
                    tr_lex("macro", c.file, km->body, strlen(km->body), &b, err, sizeof err) == 0 &&
                    eval_tokens(p, b.v, b.n ? b.n - 1 : 0, &x, depth + 1);
                tr_tokens_free(&b);
                snprintf(num, sizeof num, "%lld", x);
            } else if (s && s->init && s->init->kind == TR_E_NUM && !s->type.nptr) {
                snprintf(num, sizeof num, "%s", s->init->text);
            } else if (!s && (hv = tp_host_const_value(p, c.text)) != NULL) {
                snprintf(num, sizeof num, "%s", hv);
            } else {
                ok = false;
            }
            c.kind = TR_NUMBER;
            c.text = num;
            if (ok && tr_tokens_push(&e, &c)) abort();
            continue;
        }
        if (tr_tokens_push(&e, &c)) abort();
    }
    ok = ok && e.n && tr_const_eval(e.v, e.n, v);
    tr_tokens_free(&e);
    return ok;
}

/* At `cub` of `cub::BlockReduce<T, X, ALGORITHM, Y, Z>`: reads the type into a. */
static void read_cub_type(parser *p, tp_cub_alias *a)
{
    const tr_token *at = tp_cur(p);
    p->i += 2; /* cub :: */
    const tr_token *n = tp_cur(p);
    if (n->kind != TR_IDENT) tp_bail(p, "syntax", "expected a name after 'cub::'");
    if (!strcmp(n->text, "BlockReduce"))
        a->kind = CUB_BLOCK_REDUCE;
    else if (!strcmp(n->text, "BlockScan"))
        a->kind = CUB_BLOCK_SCAN;
    else if (!strcmp(n->text, "WarpReduce"))
        a->kind = CUB_WARP_REDUCE;
    else
        tp_bail(p, "cub",
                "cub::%s is not translated (cub::BlockReduce, cub::BlockScan and "
                "cub::WarpReduce are)",
                n->text);
    a->what = n->kind == TR_IDENT ? tr_strdup(p->u, n->text) : "";
    p->i++;
    tp_expect(p, "<");
    tr_type *ty = tp_parse_type_name(p);
    if (ty->nptr || ty->cg ||
        !tp_in_list(ty->base, known_bases, sizeof known_bases / sizeof *known_bases))
        tp_bail(p, "cub",
                "cub::%s of %s: the translation reduces and scans int, unsigned, 64-bit integer, "
                "float and double values",
                a->what, ty->nptr ? "a pointer" : ty->base);
    a->type = ty->base;
    long long dims[3] = {0, 1, 1};
    int arg = 1;
    while (tp_accept(p, ",")) {
        size_t s = p->i;
        int d = 0;
        while (p->i < p->end) {
            const char *x = tp_cur(p)->text;
            if (tp_cur(p)->kind == TR_PUNCT && (!strcmp(x, "(") || !strcmp(x, "<"))) d++;
            if (tp_cur(p)->kind == TR_PUNCT && (!strcmp(x, ")") || !strcmp(x, ">"))) {
                if (!d) break;
                d--;
            }
            if (!d && !strcmp(x, ",")) break;
            p->i++;
        }
        /* arguments: BLOCK_DIM_X, the algorithm (any: the result is the same), Y, Z; a warp's:
         * its LOGICAL_WARP_THREADS */
        if (arg != 2 || a->kind == CUB_WARP_REDUCE) {
            long long v;
            if (!eval_tokens(p, &p->t[s], p->i - s, &v, 0) || v < 1 || v > 1024)
                tp_bail(p, "cub",
                        "cub::%s's block size is not a number from 1 to 1024 the translation "
                        "can read here",
                        a->what);
            if (arg < 5) dims[arg == 1 ? 0 : arg - 2] = v;
        }
        arg++;
    }
    tp_expect(p, ">");
    if (a->kind == CUB_WARP_REDUCE) {
        long long w = arg < 2 ? 32 : dims[0];
        if (arg > 2 || w > 32 || (w & (w - 1)))
            tp_bail(p, "cub",
                    "cub::WarpReduce over %lld threads: the translation reduces over warps of 1, "
                    "2, 4, 8, 16 or 32 threads",
                    w);
        if (strcmp(a->type, "int") && strcmp(a->type, "unsigned int") && strcmp(a->type, "float"))
            tp_bail(p, "64-bit or vector shuffle",
                    "cub::WarpReduce of %s: the dialect's shuffles move 32-bit int, unsigned and "
                    "float values",
                    a->type);
        a->threads = w;
        a->dims[0] = w, a->dims[1] = a->dims[2] = 1;
        return;
    }
    if (arg < 2) tp_bail(p, "cub", "cub::%s needs its block size", a->what);
    a->threads = dims[0] * dims[1] * dims[2];
    memcpy(a->dims, dims, sizeof dims);
    if (a->threads > 1024)
        tp_bail(p, "cub", "cub::%s over %lld threads: a block holds at most 1024", a->what,
                a->threads);
    (void)at;
}

static void add_alias(parser *p, const tp_cub_alias *a)
{
    tp_cub_alias *n = tr_alloc(p->u, (size_t)(p->ncub + 1) * sizeof *n);
    if (p->ncub) memcpy(n, p->cub, (size_t)p->ncub * sizeof *n);
    n[p->ncub] = *a;
    n[p->ncub++].owner = p->func;
    p->cub = n;
}

static bool at_cub(parser *p, size_t k)
{
    return p->i + k + 1 < p->end && p->t[p->i + k].kind == TR_IDENT &&
           !strcmp(p->t[p->i + k].text, "cub") && tp_is_at(p, k + 1, "::");
}

bool tp_cub_stmt(parser *p, char **decl)
{
    *decl = NULL;
    const tr_token *t = tp_cur(p);
    if (t->kind != TR_IDENT) return false;
    tp_cub_alias a = {0};
    if (!strcmp(t->text, "typedef") &&
        (at_cub(p, 1) || (tp_is_at(p, 1, "typename") && at_cub(p, 2)))) {
        p->i++;
        tp_accept(p, "typename");
        read_cub_type(p, &a);
        if (tp_cur(p)->kind != TR_IDENT) tp_bail(p, "syntax", "expected the typedef's name");
        a.name = tr_strdup(p->u, tp_cur(p)->text);
        p->i++;
        tp_expect(p, ";");
        add_alias(p, &a);
        return true;
    }
    if (!strcmp(t->text, "using") && p->i + 3 < p->end && p->t[p->i + 1].kind == TR_IDENT &&
        tp_is_at(p, 2, "=") && (at_cub(p, 3) || (tp_is_at(p, 3, "typename") && at_cub(p, 4)))) {
        a.name = tr_strdup(p->u, p->t[p->i + 1].text);
        p->i += 3;
        tp_accept(p, "typename");
        read_cub_type(p, &a);
        tp_expect(p, ";");
        add_alias(p, &a);
        return true;
    }
    if (!strcmp(t->text, "__shared__")) {
        size_t k = 1;
        if (tp_is_at(p, k, "typename")) k++;
        const tp_cub_alias *named = NULL;
        if (p->i + k + 2 < p->end && p->t[p->i + k].kind == TR_IDENT &&
            (named = find(p, p->t[p->i + k].text)) != NULL && tp_is_at(p, k + 1, "::")) {
            p->i += k + 2;
            a = *named;
        } else if (at_cub(p, k)) {
            p->i += k;
            read_cub_type(p, &a);
            tp_expect(p, "::");
        } else {
            return false;
        }
        if (!tp_is(p, "TempStorage"))
            tp_bail(p, "cub", "cub::%s::%s is not translated (its TempStorage is)", a.what,
                    tp_cur(p)->text);
        p->i++;
        if (a.kind == CUB_WARP_REDUCE) {
            /* the shuffles need no storage: `ts;`, `ts[WARPS];` declare nothing */
            while (p->i < p->end && !tp_is(p, ";"))
                p->i++;
            tp_expect(p, ";");
            return true;
        }
        /* `ts;` or `t1, t2;`: one shared array each */
        char text[1024];
        size_t l = (size_t)snprintf(text, sizeof text, "__shared__ %s ", a.type);
        for (;;) {
            const tr_token *n = tp_cur(p);
            if (n->kind != TR_IDENT || (!tp_is_at(p, 1, ";") && !tp_is_at(p, 1, ",")) ||
                l + strlen(n->text) + 32 >= sizeof text)
                tp_bail(p, "cub",
                        "a cub::%s::TempStorage is translated declared as a plain __shared__ "
                        "variable, as in '__shared__ typename BlockReduce::TempStorage ts;'",
                        a.what);
            l += (size_t)snprintf(text + l, sizeof text - l, "%s[%lld]%s", n->text, a.threads,
                                  tp_is_at(p, 1, ";") ? ";" : ", ");
            p->i += 2;
            if (p->t[p->i - 1].text[0] == ';') break;
        }
        *decl = tr_strdup(p->u, text);
        return true;
    }
    return false;
}

static void helper_name(char *out, size_t cap, const char *what, const char *type, long long n)
{
    char t[64];
    snprintf(t, sizeof t, "%s", type);
    for (char *c = t; *c; c++)
        if (*c == ' ') *c = '_';
    int w = snprintf(out, cap, "cub_%s_%s_%lld", what, t, n);
    if (w < 0 || (size_t)w >= cap) out[0] = '\0'; /* too long: no name (the item is refused) */
}

/* A functor of the file used as a reduction operator (`Max()`, `Max{}`): its `operator()` of
 * two parameters, written as a device function of the element type; the call of it, as the
 * combining expression of a and b. NULL when the file has no such struct. */
static const char *user_op(parser *p, const char *name, const char *type, const tr_token *at)
{
    const tr_token *t = p->u->pp.toks.v;
    size_t n = p->u->pp.toks.n;
    for (size_t i = 0; i + 2 < n; i++) {
        if ((strcmp(t[i].text, "struct") && strcmp(t[i].text, "class")) ||
            strcmp(t[i + 1].text, name) || strcmp(t[i + 2].text, "{"))
            continue;
        /* its braces; in them `operator ( ) ( params ) ... { body }` */
        size_t end = i + 2;
        for (int d = 0; end < n; end++) {
            d += !strcmp(t[end].text, "{") - !strcmp(t[end].text, "}");
            if (!d) break;
        }
        for (size_t k = i + 3; k + 3 < end; k++) {
            if (strcmp(t[k].text, "operator") || strcmp(t[k + 1].text, "(") ||
                strcmp(t[k + 2].text, ")") || strcmp(t[k + 3].text, "("))
                continue;
            const char *pn[2] = {NULL, NULL};
            int np = 0;
            size_t q = k + 4;
            for (int d = 0; q < end; q++) {
                const char *x = t[q].text;
                if (!strcmp(x, "(") || !strcmp(x, "<")) d++;
                if ((!strcmp(x, ")") || !strcmp(x, ">")) && d-- == 0) break;
                if (!d && !strcmp(x, ",")) np++;
                if (t[q].kind == TR_IDENT && np < 2) pn[np] = x;
            }
            if (np != 1 || !pn[0] || !pn[1]) return NULL;
            while (q < end && strcmp(t[q].text, "{"))
                q++;
            size_t b = q;
            for (int d = 0; q < end; q++) {
                d += !strcmp(t[q].text, "{") - !strcmp(t[q].text, "}");
                if (!d) break;
            }
            char fn[160], what[96];
            snprintf(what, sizeof what, "functor_%s", name);
            helper_name(fn, sizeof fn, what, type, 2);
            size_t cap = 256 + 2 * strlen(type) + strlen(fn);
            for (size_t x = b; x <= q; x++)
                cap += strlen(t[x].text) + 1;
            char *text = malloc(cap);
            if (!text) abort();
            size_t l = (size_t)snprintf(text, cap, "__device__ %s %s(%s %s, %s %s)\n", type, fn,
                                        type, pn[0], type, pn[1]);
            for (size_t x = b; x <= q && x < end; x++)
                l += (size_t)snprintf(text + l, cap - l, "%s ", t[x].text);
            tp_make_item(p, fn, text, at);
            free(text);
            char call[200];
            snprintf(call, sizeof call, "%s(a, b)", fn);
            return tr_strdup(p->u, call);
        }
    }
    return NULL;
}

/* cub::Sum(), cub::Max{}, cub::Min() (or a functor of the file) as a reduction operator: its
 * combining expression of a and b, as CUB computes it. */
static const char *read_op(parser *p, const tp_cub_alias *a, const char **name)
{
    const char *c = NULL;
    bool user = false;
    const tr_token *n = tp_cur(p);
    if (at_cub(p, 0)) {
        p->i += 2;
        n = tp_cur(p);
        c = !strcmp(n->text, "Sum")   ? "a + b"
            : !strcmp(n->text, "Max") ? "(a < b) ? b : a"
            : !strcmp(n->text, "Min") ? "(b < a) ? b : a"
                                      : NULL;
        if (!c)
            tp_bail(p, "cub",
                    "cub::%s as a reduction operator: cub::Sum(), cub::Max() and cub::Min() are "
                    "translated",
                    n->text);
    } else if (n->kind == TR_IDENT && !strcmp(n->text, "cuda") && tp_is_at(p, 1, "::")) {
        /* CCCL's spellings: cuda::maximum<>{}, cuda::minimum<>(), cuda::std::plus<>{} */
        p->i += 2;
        if (tp_is(p, "std") && tp_is_at(p, 1, "::")) p->i += 2;
        n = tp_cur(p);
        c = !strcmp(n->text, "plus")      ? "a + b"
            : !strcmp(n->text, "maximum") ? "(a < b) ? b : a"
            : !strcmp(n->text, "minimum") ? "(a < b) ? a : b"
                                          : NULL;
        if (c && tp_is_at(p, 1, "<")) { /* its type argument: the element type's, or none */
            const char *nm = n->text;
            p->i++;
            int d = 0;
            for (; p->i < p->end; p->i++) {
                if (tp_is(p, "<")) d++;
                if (tp_is(p, ">") && --d == 0) break;
            }
            n = tp_cur(p); /* the '>', stepped over below */
            *name = tr_strdup(p->u, nm);
            p->i++;
            if (tp_accept(p, "(")) {
                tp_expect(p, ")");
            } else {
                tp_expect(p, "{");
                tp_expect(p, "}");
            }
            return c;
        }
    } else if (n->kind == TR_IDENT && (tp_is_at(p, 1, "(") || tp_is_at(p, 1, "{"))) {
        c = user_op(p, n->text, a->type, n);
        user = true;
    }
    if (!c)
        tp_bail(p, "cub",
                "a reduction operator the translation cannot read: cub::Sum(), cub::Max(), "
                "cub::Min(), cuda::maximum<>(), cuda::minimum<>(), cuda::std::plus<>() and "
                "functors of the file with an operator() of two values are translated");
    *name = tr_strdup(p->u, n->text);
    if (user) {
        char u[96]; /* not to be mistaken for CUB's operator of that name */
        snprintf(u, sizeof u, "functor_%s", n->text);
        *name = tr_strdup(p->u, u);
    }
    p->i++;
    if (tp_accept(p, "(")) {
        tp_expect(p, ")");
    } else {
        tp_expect(p, "{");
        tp_expect(p, "}");
    }
    return c;
}

static long long pow2_at_least(long long n)
{
    long long m = 1;
    while (m < n)
        m *= 2;
    return m;
}

/* The block reduction: every thread's value in s, a tree of halving steps over the first n
 * (fewer when the block is smaller, or `valid` says so), the result read by all. */
static const char *block_reduce(parser *p, const tp_cub_alias *a, const char *op, const char *c,
                                const tr_token *at)
{
    char name[160], what[64], text[2048], rank[128], size[64];
    rank_text(a, rank, sizeof rank, size, sizeof size);
    snprintf(what, sizeof what, "block_reduce_%s", op);
    helper_name(name, sizeof name, what, a->type, a->threads);
    snprintf(text, sizeof text,
             "__device__ %s %s(%s *s, %s v, int valid)\n{\n"
             "    unsigned int t = %s;\n"
             "    unsigned int n = %s;\n"
             "    if (n > %lldu) n = %lldu;\n"
             "    if (valid < (int)n) n = valid < 0 ? 0u : (unsigned int)valid;\n"
             "    if (t < %lldu) s[t] = v;\n"
             "    __syncthreads();\n"
             "    for (unsigned int m = %lldu; m > 0u; m /= 2u) {\n"
             "        if (t < m && t + m < n) {\n"
             "            %s a = s[t];\n            %s b = s[t + m];\n"
             "            s[t] = %s;\n"
             "        }\n"
             "        __syncthreads();\n"
             "    }\n"
             "    %s r = s[0];\n"
             "    __syncthreads();\n"
             "    return r;\n}\n",
             a->type, name, a->type, a->type, rank, size, a->threads, a->threads, a->threads,
             pow2_at_least(a->threads) / 2, a->type, a->type, c, a->type);
    tp_make_item(p, name, text, at);
    return tr_strdup(p->u, name);
}

/* The block scan (sum): Hillis and Steele's over the shared array, in place (each step reads,
 * meets, then writes); `inclusive` or exclusive (0 in the first thread); with `total`, the
 * block's sum is also stored through the last parameter. */
static const char *block_scan(parser *p, const tp_cub_alias *a, bool inclusive, bool total,
                              const tr_token *at)
{
    char name[160], what[64], text[2048], res[128], rank[128], size[64];
    rank_text(a, rank, sizeof rank, size, sizeof size);
    snprintf(what, sizeof what, "block_scan_%s%s", inclusive ? "inclusive" : "exclusive",
             total ? "_total" : "");
    helper_name(name, sizeof name, what, a->type, a->threads);
    if (inclusive)
        snprintf(res, sizeof res, "s[t]");
    else
        snprintf(res, sizeof res, "t == 0u ? (%s)0 : s[t - 1u]", a->type);
    char tparam[96] = "", tstore[96] = "";
    if (total) {
        snprintf(tparam, sizeof tparam, ", %s *total", a->type);
        snprintf(tstore, sizeof tstore, "    *total = s[n - 1u];\n");
    }
    snprintf(text, sizeof text,
             "__device__ %s %s(%s *s, %s v%s)\n{\n"
             "    unsigned int t = %s;\n"
             "    unsigned int n = %s;\n"
             "    if (n > %lldu) n = %lldu;\n"
             "    if (t < n) s[t] = v;\n"
             "    __syncthreads();\n"
             "    for (unsigned int d = 1u; d < n; d *= 2u) {\n"
             "        %s x = 0;\n"
             "        if (t < n && t >= d) x = s[t - d];\n"
             "        __syncthreads();\n"
             "        if (t < n && t >= d) s[t] = s[t] + x;\n"
             "        __syncthreads();\n"
             "    }\n"
             "    %s r = 0;\n"
             "    if (t < n) r = %s;\n"
             "%s"
             "    __syncthreads();\n"
             "    return r;\n}\n",
             a->type, name, a->type, a->type, tparam, rank, size, a->threads, a->threads, a->type,
             a->type, res, tstore);
    tp_make_item(p, name, text, at);
    return tr_strdup(p->u, name);
}

/* WarpReduce(ts[w]).Sum(v) / .Reduce(v, op): a butterfly of __shfl_xor_sync over the logical
 * warp, every lane getting the result (CUB defines lane 0's); partial warps are refused. */
static tr_expr *warp_call(parser *p, const tp_cub_alias *a, const tr_token *at)
{
    tp_expect(p, ".");
    const tr_token *m = tp_cur(p);
    if (m->kind != TR_IDENT) tp_bail(p, "syntax", "expected a method of %s", at->text);
    bool sum = !strcmp(m->text, "Sum"), reduce = !strcmp(m->text, "Reduce");
    if (!sum && !reduce)
        tp_bail(p, "cub", "cub::WarpReduce::%s is not translated (Sum and Reduce are)", m->text);
    p->i++;
    tp_expect(p, "(");
    tr_expr *v = tp_parse_assign(p);
    const char *op = "Sum", *combine = "a + b";
    if (reduce) {
        tp_expect(p, ",");
        combine = read_op(p, a, &op);
    }
    if (tp_is(p, ","))
        tp_bail(p, "cub",
                "cub::WarpReduce::%s over part of a warp (a valid count): the translation reduces "
                "whole warps",
                m->text);
    tp_expect(p, ")");
    char opname[112], what[160], name[200], text[1024];
    snprintf(opname, sizeof opname, "%s", op);
    for (char *c = opname; *c; c++)
        if (*c >= 'A' && *c <= 'Z') *c = (char)(*c - 'A' + 'a');
    snprintf(what, sizeof what, "warp_reduce_%s", opname);
    helper_name(name, sizeof name, what, a->type, a->threads);
    snprintf(text, sizeof text,
             "__device__ %s %s(%s v)\n{\n    for (int m = %lld; m > 0; m /= 2) {\n"
             "        %s a = v;\n        %s b = __shfl_xor_sync(0xffffffffu, v, m);\n"
             "        v = %s;\n    }\n    return v;\n}\n",
             a->type, name, a->type, a->threads / 2, a->type, a->type, combine);
    tp_make_item(p, name, text, at);
    tr_expr *e = tp_mk_call(p, at, name, 1, &v);
    e->origin = sum ? "cub::WarpReduce::Sum" : "cub::WarpReduce::Reduce";
    return e;
}

tr_expr *tp_cub_call(parser *p)
{
    const tr_token *at = tp_cur(p);
    const tp_cub_alias *a = find(p, at->text);
    p->i++;
    tp_expect(p, "(");
    const tr_token *st = tp_cur(p);
    if (a->kind == CUB_WARP_REDUCE) { /* its storage (declared as nothing) is not read */
        for (int d = 0; p->i < p->end; p->i++) {
            if (tp_is(p, "(")) d++;
            if (tp_is(p, ")") && d-- == 0) break;
        }
        tp_expect(p, ")");
        return warp_call(p, a, at);
    }
    tr_expr *storage = tp_parse_assign(p);
    if (storage->kind != TR_E_IDENT || !storage->sym || storage->sym->kind != TR_SYM_SHARED ||
        storage->sym->ndims != 1)
        tp_bail(p, "cub",
                "%s(...) is given its TempStorage declared alone as a __shared__ variable here",
                at->text);
    (void)st;
    tp_expect(p, ")");
    tp_expect(p, ".");
    const tr_token *m = tp_cur(p);
    if (m->kind != TR_IDENT) tp_bail(p, "syntax", "expected a method of %s", at->text);
    p->i++;
    tp_expect(p, "(");
    tr_expr *args[3] = {NULL, NULL, NULL};
    int nargs = 0;
    const char *op = NULL, *combine = NULL;
    bool reduce = a->kind == CUB_BLOCK_REDUCE && !strcmp(m->text, "Reduce");
    while (!tp_is(p, ")")) {
        if (nargs == 3) tp_bail(p, "cub", "%s::%s with more than 3 arguments", a->what, m->text);
        if (reduce && nargs == 1) {
            combine = read_op(p, a, &op);
            args[nargs++] = NULL;
        } else {
            args[nargs++] = tp_parse_assign(p);
        }
        if (!tp_accept(p, ",")) break;
    }
    tp_expect(p, ")");
    if (nargs >= 1 && args[0]->kind == TR_E_IDENT && args[0]->sym && args[0]->sym->ndims)
        tp_bail(p, "cub",
                "cub::%s::%s over an array of items per thread: the translation takes one item "
                "per thread",
                a->what, m->text);
    if (a->kind == CUB_BLOCK_REDUCE) {
        bool sum = !strcmp(m->text, "Sum");
        if (!sum && !reduce)
            tp_bail(p, "cub", "cub::BlockReduce::%s is not translated (Sum and Reduce are)",
                    m->text);
        if (sum && (nargs < 1 || nargs > 2))
            tp_bail(p, "cub", "cub::BlockReduce::Sum takes 1 or 2 arguments, given %d", nargs);
        if (reduce && (nargs < 2 || nargs > 3))
            tp_bail(p, "cub", "cub::BlockReduce::Reduce takes 2 or 3 arguments, given %d", nargs);
        if (sum) op = "Sum", combine = "a + b";
        char opname[112];
        snprintf(opname, sizeof opname, "%s", op);
        for (char *c = opname; *c; c++)
            if (*c >= 'A' && *c <= 'Z') *c = (char)(*c - 'A' + 'a');
        const char *fn = block_reduce(p, a, opname, combine, at);
        char valid[32];
        snprintf(valid, sizeof valid, "%lld", a->threads);
        tr_expr *cargs[3] = {storage, args[0],
                             (sum ? nargs == 2 : nargs == 3) ? args[nargs - 1]
                                                             : tp_mk_num(p, at, valid)};
        tr_expr *e = tp_mk_call(p, at, fn, 3, cargs);
        e->origin = sum ? "cub::BlockReduce::Sum" : "cub::BlockReduce::Reduce";
        return e;
    }
    bool inclusive = !strcmp(m->text, "InclusiveSum");
    if (!inclusive && strcmp(m->text, "ExclusiveSum"))
        tp_bail(p, "cub",
                "cub::BlockScan::%s is not translated (InclusiveSum and ExclusiveSum with one "
                "item per thread are)",
                m->text);
    if (nargs < 2)
        tp_bail(p, "cub", "cub::BlockScan::%s takes its input and output, given %d argument%s",
                m->text, nargs, nargs == 1 ? "" : "s");
    /* out = scan(s, in), and with a third argument scan(s, in, &aggregate) */
    const char *fn = block_scan(p, a, inclusive, nargs == 3, at);
    tr_expr *cargs[3] = {storage, args[0], NULL};
    if (nargs == 3) {
        cargs[2] = tp_new_expr(p, TR_E_UNARY, at);
        cargs[2]->text = tr_strdup(p->u, "&");
        cargs[2]->a = args[2];
    }
    tr_expr *scan = tp_mk_call(p, at, fn, nargs == 3 ? 3 : 2, cargs);
    scan->origin = inclusive ? "cub::BlockScan::InclusiveSum" : "cub::BlockScan::ExclusiveSum";
    tr_expr *e = tp_new_expr(p, TR_E_ASSIGN, at);
    e->text = tr_strdup(p->u, "=");
    e->a = args[1];
    e->b = scan;
    return e;
}
