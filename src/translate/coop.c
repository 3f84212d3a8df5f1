/* coop.c — cooperative groups at block and tile level, read as what they are: a thread block's
 * sync is __syncthreads(), its thread_rank() the linear thread index; a thread_block_tile<32> is
 * a warp, its shfl_down() __shfl_down_sync() with the full mask, its cg::reduce() a butterfly of
 * __shfl_xor_sync() (a device function the translation writes). Smaller tiles shuffle within
 * their segment of the warp exactly as CUDA defines it. The rest of the translation then treats
 * them as it treats the CUDA it wrote them in (the warp operations need --simd-width 32).
 * Grid-wide and multi-grid groups, coalesced groups and asynchronous copies are refused by
 * name. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "translate/parser.h"

/* CUDA's linear thread index in the block, as the other pieces write it */
static const char lin_text[] =
    "(threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z))";

bool tp_is_cg_namespace(parser *p, const char *name)
{
    if (!strcmp(name, "cooperative_groups")) return true;
    for (int i = 0; i < p->ncg_names; i++)
        if (!strcmp(p->cg_names[i], name)) return true;
    return false;
}

_Noreturn static void refuse_by_name(parser *p, const char *name)
{
    if (!strcmp(name, "this_grid") || !strcmp(name, "grid_group"))
        tp_bail(p, "grid-wide synchronisation",
                "cooperative_groups::%s: a grid-wide group (and its sync) has no equivalent on "
                "Metal, OpenCL or the CPU backend, where groups of a launch cannot wait for each "
                "other; split the kernel at the grid sync into two launches",
                name);
    if (!strcmp(name, "this_multi_grid") || !strcmp(name, "multi_grid_group"))
        tp_bail(p, "multi-grid group",
                "cooperative_groups::%s: multi-device groups have no portable equivalent", name);
    if (!strcmp(name, "coalesced_threads") || !strcmp(name, "coalesced_group") ||
        !strcmp(name, "labeled_partition") || !strcmp(name, "binary_partition"))
        tp_bail(p, "coalesced group",
                "cooperative_groups::%s: groups of the lanes that happen to be active need lane "
                "masks, which the dialect's SIMD-group operations do not have (they take every "
                "lane); use a thread_block_tile",
                name);
    if (!strcmp(name, "memcpy_async") || !strcmp(name, "wait") || !strcmp(name, "wait_prior"))
        tp_bail(p, "asynchronous copy",
                "cooperative_groups::%s: asynchronous copies into shared memory are not in the "
                "dialect; copy with plain loads and gp_barrier()",
                name);
    if (!strcmp(name, "inclusive_scan") || !strcmp(name, "exclusive_scan"))
        tp_bail(p, "cooperative-group scan",
                "cooperative_groups::%s is not translated: write the scan with the tile's "
                "shfl_up()",
                name);
    tp_bail(p, "cooperative groups", "cooperative_groups::%s is not one the translation knows",
            name);
}

static bool power_of_two_width(long long w)
{
    return w >= 1 && w <= 32 && (w & (w - 1)) == 0;
}

static long long read_width(parser *p)
{
    const tr_token *t = tp_cur(p);
    char *end;
    long long w = t->kind == TR_NUMBER ? strtoll(t->text, &end, 0) : -1;
    if (t->kind != TR_NUMBER || strspn(end, "uUlL") != strlen(end))
        tp_bail(p, "cooperative groups",
                "a tile's width must be a number (1, 2, 4, 8, 16 or 32) the translation can read");
    if (!power_of_two_width(w))
        tp_bail(p, "cooperative groups",
                "a tile of %lld threads: the dialect's SIMD groups hold 32 lanes, so tiles of 1, "
                "2, 4, 8, 16 or 32 threads are translated",
                w);
    p->i++;
    return w;
}

bool tp_cg_type(parser *p, const char *name, tr_type *out)
{
    memset(out, 0, sizeof *out);
    out->base = tr_strdup(p->u, "cg");
    if (!strcmp(name, "thread_block")) {
        out->cg = TR_CG_BLOCK;
        return true;
    }
    if (!strcmp(name, "thread_block_tile")) {
        tp_expect(p, "<");
        out->cg = TR_CG_TILE;
        out->cg_width = (int)read_width(p);
        tp_expect(p, ">");
        return true;
    }
    if (!strcmp(name, "thread_group")) { /* whatever initialises it says which group */
        out->cg = TR_CG_TILE;
        out->cg_width = 0;
        return true;
    }
    if (!strcmp(name, "grid_group") || !strcmp(name, "multi_grid_group") ||
        !strcmp(name, "coalesced_group"))
        refuse_by_name(p, name);
    return false;
}

static tr_expr *mk_cg(parser *p, const tr_token *at, tr_cg_kind k, int width)
{
    tr_expr *e = tp_new_expr(p, TR_E_CG, at);
    e->cg = k;
    e->cg_width = width;
    return e;
}

/* Parses `text` (a CUDA expression the translation writes) at `at`'s position. */
static tr_expr *parse_text(parser *p, const tr_token *at, const char *text)
{
    tr_tokens *toks = tp_scratch_take(p, 1); /* the expression's parse may bail */
    char err[256];
    if (tr_lex("<cooperative groups>", at->file, text, strlen(text), toks, err, sizeof err) != 0)
        tp_bail(p, "cooperative groups", "internal: %s", err);
    for (size_t i = 0; i < toks->n; i++)
        toks->v[i].line = at->line, toks->v[i].col = at->col, toks->v[i].file = at->file;
    tr_token *st = p->t;
    size_t sn = p->n, si = p->i, se = p->end;
    int nscope = p->nscope;
    p->nscope = 0; /* the text names only built-ins */
    p->t = toks->v, p->n = toks->n, p->i = 0, p->end = toks->n - 1;
    tr_expr *e = tp_parse_expr(p);
    p->t = st, p->n = sn, p->i = si, p->end = se;
    p->nscope = nscope;
    tp_scratch_drop(p, toks);
    return e;
}

static tr_expr *lin(parser *p, const tr_token *at)
{
    return parse_text(p, at, lin_text);
}

static tr_expr *warp_call(parser *p, const tr_token *at, const char *fn, tr_expr *v, tr_expr *x,
                          const char *origin)
{
    tr_expr *args[3] = {tp_mk_num(p, at, "0xffffffffu"), v, x};
    tr_expr *e = tp_mk_call(p, at, fn, x ? 3 : (v ? 2 : 1), args);
    e->origin = origin;
    return e;
}

/* The value type of what a tile operation moves: 32-bit, as the dialect's shuffles are. */
static void value_type(parser *p, const tr_expr *v, const char *what, char *base, size_t cap)
{
    int nptr = 0;
    if (!tp_guess_type(p, v, base, cap, &nptr) || nptr)
        tp_bail(p, "cooperative groups",
                "%s: the type of the value cannot be told here; put it in a variable of type "
                "int, unsigned int or float first",
                what);
    if (strcmp(base, "int") && strcmp(base, "unsigned int") && strcmp(base, "float"))
        tp_bail(p, "64-bit or vector shuffle",
                "%s of a %s: the dialect's shuffles move 32-bit int, unsigned and float values; "
                "shuffle the parts separately",
                what, base);
}

static void name_of(char *out, size_t cap, const char *prefix, const char *base, int width)
{
    char t[64];
    snprintf(t, sizeof t, "%s", base);
    for (char *c = t; *c; c++)
        if (*c == ' ') *c = '_';
    snprintf(out, cap, "%s_%s_%d", prefix, t, width);
}

/* `__shfl_xor_sync(mask, v, d, width)` with a width not written as 32 (a parameter, a template's
 * constant): a helper that shuffles over the whole warp and keeps CUDA's segments of `width`
 * lanes, as narrow_shuffle does for tiles, the width being a value here (a power of two up to 32,
 * as CUDA requires). The mask is passed, and checked at the call as any mask is (calls.c; a
 * parameter every call gives the full mask is the full mask); the helper shuffles with the full
 * one; its parameters are named so that no macro of the file can clash. The call as it was when
 * it is none of these, or the value's type is not a 32-bit one the translation can tell. */
tr_expr *tp_width_shuffle(parser *p, tr_expr *call)
{
    static const char *const ops[] = {"__shfl_sync", "__shfl_up_sync", "__shfl_down_sync",
                                      "__shfl_xor_sync"};
    if (call->a->kind != TR_E_IDENT || call->a->sym || call->nargs != 4) return call;
    int op = -1;
    for (int i = 0; i < 4; i++)
        if (!strcmp(call->a->text, ops[i])) op = i;
    const tr_expr *w = call->args[3];
    if (op < 0 || (w->kind == TR_E_NUM && strtol(w->text, NULL, 0) == 32) ||
        (w->kind == TR_E_IDENT && !w->sym && !strcmp(w->text, "warpSize")))
        return call;
    char base[64];
    int nptr = 0;
    if (!tp_guess_type(p, call->args[1], base, sizeof base, &nptr) || nptr ||
        (strcmp(base, "int") && strcmp(base, "unsigned int") && strcmp(base, "float")))
        return call;
    static const char *const short_names[] = {"shfl", "shfl_up", "shfl_down", "shfl_xor"};
    char prefix[48], name[160], text[2048], body[512], expr[512];
    snprintf(prefix, sizeof prefix, "warp_%s_width", short_names[op]);
    snprintf(name, sizeof name, "%s_%s", prefix, !strcmp(base, "unsigned int") ? "unsigned" : base);
    snprintf(body, sizeof body, "%s(0xffffffffu, shfl_v_, shfl_d_)", ops[op]);
    snprintf(expr, sizeof expr, "shfl_r_");
    if (op == 0)
        snprintf(body, sizeof body,
                 "__shfl_sync(0xffffffffu, shfl_v_, ((%s & 31u) & (32u - shfl_w_)) | (shfl_d_ & "
                 "(shfl_w_ - 1u)))",
                 lin_text);
    else if (op == 1)
        snprintf(expr, sizeof expr, "((%s & 31u) & (shfl_w_ - 1u)) >= shfl_d_ ? shfl_r_ : shfl_v_",
                 lin_text);
    else if (op == 2)
        snprintf(expr, sizeof expr,
                 "((%s & 31u) & (shfl_w_ - 1u)) + shfl_d_ < shfl_w_ ? shfl_r_ : shfl_v_", lin_text);
    else
        snprintf(expr, sizeof expr,
                 "(((%s & 31u) ^ shfl_d_) & (32u - shfl_w_)) > ((%s & 31u) & (32u - shfl_w_)) ? "
                 "shfl_v_ : shfl_r_",
                 lin_text, lin_text);
    snprintf(text, sizeof text,
             "__device__ %s %s(unsigned int shfl_mask_, %s shfl_v_, unsigned int shfl_d_, "
             "unsigned int shfl_w_)\n{\n    (void)shfl_mask_;\n    %s shfl_r_ = %s;\n    "
             "return %s;\n}\n",
             base, name, base, base, body, expr);
    const tr_token *at = &(tr_token){TR_IDENT, "", call->file, call->line, call->col, false};
    tp_make_item(p, name, text, at);
    tr_expr *e = tp_mk_call(p, at, name, 4, call->args);
    e->line = call->line, e->col = call->col, e->file = call->file;
    e->origin = ops[op];
    return e;
}

/* __syncthreads_count(p), __syncthreads_and(p), __syncthreads_or(p): a barrier that also counts
 * the work-items of the block whose p is true, written as one with a counter in shared memory
 * (reset by the first work-item, a barrier, an atomic add per true p, a barrier, the count read,
 * and a barrier before the next reset); _and and _or compare the count with the block's size and
 * with 0. The call itself where it is none of these. */
tr_expr *tp_sync_count_call(parser *p, tr_expr *call)
{
    static const char *const names[] = {"__syncthreads_count", "__syncthreads_and",
                                        "__syncthreads_or"};
    if (call->a->kind != TR_E_IDENT || call->a->sym || call->nargs != 1) return call;
    int op = -1;
    for (int i = 0; i < 3; i++)
        if (!strcmp(call->a->text, names[i])) op = i;
    if (op < 0) return call;
    const tr_token *at = &(tr_token){TR_IDENT, "", call->file, call->line, call->col, false};
    tp_make_item(p, "syncthreads_count",
                 "__device__ int syncthreads_count(int pred)\n{\n"
                 "    __shared__ int syncthreads_counter;\n"
                 "    if (threadIdx.x == 0 && threadIdx.y == 0 && threadIdx.z == 0)\n"
                 "        syncthreads_counter = 0;\n"
                 "    __syncthreads();\n"
                 "    if (pred) atomicAdd(&syncthreads_counter, 1);\n"
                 "    __syncthreads();\n"
                 "    int n = syncthreads_counter;\n"
                 "    __syncthreads();\n"
                 "    return n;\n}\n",
                 at);
    if (op == 1)
        tp_make_item(p, "syncthreads_and",
                     "__device__ int syncthreads_and(int pred)\n{\n"
                     "    return syncthreads_count(pred != 0) == "
                     "(int)(blockDim.x * blockDim.y * blockDim.z);\n}\n",
                     at);
    if (op == 2)
        tp_make_item(p, "syncthreads_or",
                     "__device__ int syncthreads_or(int pred)\n{\n"
                     "    return syncthreads_count(pred != 0) != 0;\n}\n",
                     at);
    tr_expr *e = tp_mk_call(p, at, names[op] + 2, 1, call->args);
    e->line = call->line, e->col = call->col, e->file = call->file;
    e->origin = names[op];
    return e;
}

/* A shuffle within a tile narrower than the warp, as CUDA defines it for a width: lanes whose
 * source would be outside their segment keep their own value (down, up), xor does not reach
 * into later segments, shfl reads the lane of that rank in the segment. */
static tr_expr *narrow_shuffle(parser *p, tr_expr *call, const char *op, int w, const char *origin)
{
    const tr_token *at = &(tr_token){TR_IDENT, "", call->file, call->line, call->col, false};
    if (call->nargs != 2)
        tp_bail(p, "cooperative groups", "%s takes 2 arguments, called with %d", origin,
                call->nargs);
    char base[64], name[160], text[2048];
    value_type(p, call->args[0], origin, base, sizeof base);
    char prefix[48];
    snprintf(prefix, sizeof prefix, "cg_tile_%s", op);
    name_of(name, sizeof name, prefix, base, w);
    const char *body = NULL;
    char expr[512], src[256];
    if (!strcmp(op, "shfl_down")) {
        body = "__shfl_down_sync(0xffffffffu, v, d)";
        snprintf(expr, sizeof expr, "((%s & 31u) & %du) + d < %du ? r : v", lin_text, w - 1, w);
    } else if (!strcmp(op, "shfl_up")) {
        body = "__shfl_up_sync(0xffffffffu, v, d)";
        snprintf(expr, sizeof expr, "((%s & 31u) & %du) >= d ? r : v", lin_text, w - 1);
    } else if (!strcmp(op, "shfl_xor")) {
        body = "__shfl_xor_sync(0xffffffffu, v, d)";
        snprintf(expr, sizeof expr, "(((%s & 31u) ^ d) & %du) > ((%s & 31u) & %du) ? v : r",
                 lin_text, 32 - w, lin_text, 32 - w);
    } else { /* shfl: the lane of rank d in this segment */
        snprintf(expr, sizeof expr, "r");
        snprintf(src, sizeof src, "__shfl_sync(0xffffffffu, v, ((%s & 31u) & %du) | (d & %du))",
                 lin_text, 32 - w, w - 1);
        body = src;
    }
    snprintf(text, sizeof text,
             "__device__ %s %s(%s v, unsigned int d)\n{\n    %s r = %s;\n    return %s;\n}\n", base,
             name, base, base, body, expr);
    tp_make_item(p, name, text, at);
    tr_expr *args[2] = {call->args[0], call->args[1]};
    tr_expr *e = tp_mk_call(p, at, name, 2, args);
    e->origin = origin;
    return e;
}

/* cg::reduce(tile, v, op): a butterfly of __shfl_xor_sync over the tile, every lane getting the
 * result, as CUDA's does. */
static tr_expr *reduce(parser *p, const tr_token *at, tr_expr *g, tr_expr *v, tr_expr *op)
{
    if (g->cg != TR_CG_TILE || !g->cg_width)
        tp_bail(p, "cooperative groups",
                "cg::reduce over a %s: the translation reduces over a thread_block_tile (reduce "
                "the tiles' results through shared memory for a block)",
                g->cg == TR_CG_BLOCK ? "whole thread block" : "group of unknown width");
    if (op->kind != TR_E_CG || op->cg != TR_CG_OP)
        tp_bail(p, "cooperative groups",
                "cg::reduce with an operation other than cg::plus, cg::greater, cg::less, "
                "cg::bit_and, cg::bit_or or cg::bit_xor");
    char base[64], name[160], text[1024];
    if (op->text && op->text[0])
        snprintf(base, sizeof base, "%s", op->text);
    else
        value_type(p, v, "cg::reduce", base, sizeof base);
    if (strcmp(base, "int") && strcmp(base, "unsigned int") && strcmp(base, "float"))
        tp_bail(p, "64-bit or vector shuffle",
                "cg::reduce of a %s: the dialect's shuffles move 32-bit int, unsigned and float "
                "values",
                base);
    const char *combine = !strcmp(op->cg_op, "plus")      ? "v + o"
                          : !strcmp(op->cg_op, "greater") ? "v > o ? v : o"
                          : !strcmp(op->cg_op, "less")    ? "v < o ? v : o"
                          : !strcmp(op->cg_op, "bit_and") ? "v & o"
                          : !strcmp(op->cg_op, "bit_or")  ? "v | o"
                                                          : "v ^ o";
    if (!strcmp(base, "float") && strncmp(op->cg_op, "bit_", 4) == 0)
        tp_bail(p, "cooperative groups", "cg::%s on a float", op->cg_op);
    char prefix[48];
    snprintf(prefix, sizeof prefix, "cg_reduce_%s", op->cg_op);
    name_of(name, sizeof name, prefix, base, g->cg_width);
    snprintf(text, sizeof text,
             "__device__ %s %s(%s v)\n{\n    for (int m = %d; m > 0; m /= 2) {\n"
             "        %s o = __shfl_xor_sync(0xffffffffu, v, m);\n        v = %s;\n    }\n"
             "    return v;\n}\n",
             base, name, base, g->cg_width / 2, base, combine);
    tp_make_item(p, name, text, at);
    tr_expr *e = tp_mk_call(p, at, name, 1, &v);
    e->origin = "cg::reduce";
    return e;
}

/* The group a call's first argument names (cg::sync(g), cg::reduce(g, ...)). */
static tr_expr *group_arg(parser *p, const char *fn)
{
    tr_expr *g = tp_parse_assign(p);
    if (g->kind != TR_E_CG && !(g->kind == TR_E_IDENT && g->cg))
        tp_bail(p, "cooperative groups", "cg::%s needs a group as its first argument", fn);
    if (g->cg == TR_CG_TILE && !g->cg_width)
        tp_bail(p, "cooperative groups", "cg::%s on a group of unknown width", fn);
    return g;
}

tr_expr *tp_cg_qualified(parser *p, const tr_token *at, const char *name)
{
    static const char *const ops[] = {"plus", "greater", "less", "bit_and", "bit_or", "bit_xor"};
    if (!strcmp(name, "this_thread_block")) {
        tp_expect(p, "(");
        tp_expect(p, ")");
        return mk_cg(p, at, TR_CG_BLOCK, 0);
    }
    if (!strcmp(name, "tiled_partition")) {
        long long w = -1;
        if (tp_accept(p, "<")) {
            w = read_width(p);
            tp_expect(p, ">");
        }
        tp_expect(p, "(");
        tr_expr *parent = group_arg(p, name);
        if (w < 0) {
            tp_expect(p, ",");
            w = read_width(p);
        }
        tp_expect(p, ")");
        if (parent->cg == TR_CG_TILE && parent->cg_width % (int)w)
            tp_bail(p, "cooperative groups", "a tile of %lld out of a tile of %d", w,
                    parent->cg_width);
        return mk_cg(p, at, TR_CG_TILE, (int)w);
    }
    if (!strcmp(name, "sync")) {
        tp_expect(p, "(");
        tr_expr *g = group_arg(p, name);
        tp_expect(p, ")");
        tr_expr *e = g->cg == TR_CG_BLOCK ? tp_mk_call(p, at, "__syncthreads", 0, NULL)
                                          : tp_mk_call(p, at, "__syncwarp", 0, NULL);
        e->origin = "cg::sync";
        return e;
    }
    if (!strcmp(name, "reduce")) {
        tp_expect(p, "(");
        tr_expr *g = group_arg(p, name);
        tp_expect(p, ",");
        tr_expr *v = tp_parse_assign(p);
        tp_expect(p, ",");
        tr_expr *op = tp_parse_assign(p);
        tp_expect(p, ")");
        return reduce(p, at, g, v, op);
    }
    if (tp_in_list(name, ops, sizeof ops / sizeof *ops)) {
        tr_expr *e = mk_cg(p, at, TR_CG_OP, 0);
        e->cg_op = tr_strdup(p->u, name);
        e->text = tr_strdup(p->u, "");
        if (tp_accept(p, "<")) {
            if (!tp_is(p, ">")) {
                tr_type *ty = tp_parse_type_name(p);
                if (ty->nptr) tp_bail(p, "cooperative groups", "cg::%s of a pointer", name);
                e->text = ty->base;
            }
            tp_expect(p, ">");
        }
        if (tp_accept(p, "(")) {
            tp_expect(p, ")");
        } else {
            tp_expect(p, "{");
            tp_expect(p, "}");
        }
        return e;
    }
    refuse_by_name(p, name);
}

tr_expr *tp_cg_method(parser *p, tr_expr *call, tr_sym *obj, const char *name)
{
    const tr_token *at = &(tr_token){TR_IDENT, "", call->file, call->line, call->col, false};
    int w = obj->type.cg_width;
    char origin[96];
    snprintf(origin, sizeof origin, "%s::%s",
             obj->type.cg == TR_CG_BLOCK ? "thread_block" : "thread_block_tile", name);
    const char *org = tr_strdup(p->u, origin);
    int n = call->nargs;
#define ARGS(k)                                                                                    \
    do {                                                                                           \
        if (n != (k))                                                                              \
            tp_bail(p, "cooperative groups", "%s takes %d argument%s, called with %d", org, (k),   \
                    (k) == 1 ? "" : "s", n);                                                       \
    } while (0)
    if (obj->type.cg == TR_CG_BLOCK) {
        ARGS(0);
        if (!strcmp(name, "sync")) {
            tr_expr *e = tp_mk_call(p, at, "__syncthreads", 0, NULL);
            e->origin = org;
            return e;
        }
        if (!strcmp(name, "thread_rank")) return lin(p, at);
        if (!strcmp(name, "size") || !strcmp(name, "num_threads"))
            return parse_text(p, at, "(blockDim.x * blockDim.y * blockDim.z)");
        if (!strcmp(name, "group_index")) return tp_mk_ident(p, at, "blockIdx");
        if (!strcmp(name, "thread_index")) return tp_mk_ident(p, at, "threadIdx");
        if (!strcmp(name, "group_dim") || !strcmp(name, "dim_threads"))
            return tp_mk_ident(p, at, "blockDim");
        tp_bail(p, "cooperative groups", "thread_block::%s is not one the translation knows", name);
    }
    if (!w)
        tp_bail(p, "cooperative groups",
                "%s on a thread_group whose width the translation cannot tell: declare it as a "
                "thread_block_tile<N>",
                org);
    char text[512];
    if (!strcmp(name, "thread_rank")) {
        ARGS(0);
        snprintf(text, sizeof text, "(%s & %du)", lin_text, w - 1);
        return parse_text(p, at, text);
    }
    if (!strcmp(name, "size") || !strcmp(name, "num_threads")) {
        ARGS(0);
        snprintf(text, sizeof text, "%du", w);
        return tp_mk_num(p, at, text);
    }
    if (!strcmp(name, "meta_group_rank")) {
        ARGS(0);
        snprintf(text, sizeof text, "(%s / %du)", lin_text, w);
        return parse_text(p, at, text);
    }
    if (!strcmp(name, "meta_group_size")) {
        ARGS(0);
        snprintf(text, sizeof text, "((blockDim.x * blockDim.y * blockDim.z + %du) / %du)", w - 1,
                 w);
        return parse_text(p, at, text);
    }
    if (!strcmp(name, "sync")) {
        ARGS(0);
        tr_expr *e = tp_mk_call(p, at, "__syncwarp", 0, NULL);
        e->origin = org;
        return e;
    }
    static const char *const shuffles[][2] = {{"shfl", "__shfl_sync"},
                                              {"shfl_down", "__shfl_down_sync"},
                                              {"shfl_up", "__shfl_up_sync"},
                                              {"shfl_xor", "__shfl_xor_sync"}};
    for (size_t i = 0; i < sizeof shuffles / sizeof *shuffles; i++)
        if (!strcmp(name, shuffles[i][0])) {
            ARGS(2);
            if (w == 32) return warp_call(p, at, shuffles[i][1], call->args[0], call->args[1], org);
            return narrow_shuffle(p, call, name, w, org);
        }
    static const char *const votes[][2] = {
        {"any", "__any_sync"}, {"all", "__all_sync"}, {"ballot", "__ballot_sync"}};
    for (size_t i = 0; i < sizeof votes / sizeof *votes; i++)
        if (!strcmp(name, votes[i][0])) {
            ARGS(1);
            if (w == 32) return warp_call(p, at, votes[i][1], call->args[0], NULL, org);
            /* the tile's bits of the warp's ballot */
            tr_expr *b = warp_call(p, at, "__ballot_sync", call->args[0], NULL, org);
            snprintf(text, sizeof text, "((%s & 31u) & %du)", lin_text, 32 - w);
            tr_expr *shift = tp_mk_binary(p, ">>", b, parse_text(p, at, text));
            snprintf(text, sizeof text, "0x%xu", (unsigned)((1ull << w) - 1));
            tr_expr *bits = tp_mk_binary(p, "&", shift, tp_mk_num(p, at, text));
            if (!strcmp(name, "ballot")) return bits;
            return tp_mk_binary(p, !strcmp(name, "any") ? "!=" : "==", bits,
                                tp_mk_num(p, at, !strcmp(name, "any") ? "0u" : text));
        }
    if (!strncmp(name, "match_", 6))
        tp_bail(p, "warp match",
                "%s: matching lanes by value is outside the dialect's SIMD-group operations", org);
    tp_bail(p, "cooperative groups", "thread_block_tile::%s is not one the translation knows",
            name);
#undef ARGS
}

/* A device function with a `thread_group` parameter: recorded as a template whose one type
 * parameter is that word, so that each group a call passes (a thread_block, a
 * thread_block_tile<N>) makes an instance in which the parameter has the group's type. */
bool tp_record_group_function(parser *p, size_t i, size_t end)
{
    const tr_token *t = p->t;
    bool device = false;
    size_t k = i;
    for (; k + 1 < end && strcmp(t[k].text, "("); k++) {
        if (!strcmp(t[k].text, "__global__") || !strcmp(t[k].text, "{") ||
            !strcmp(t[k].text, "=") || !strcmp(t[k].text, ";"))
            return false;
        if (!strcmp(t[k].text, "__device__")) device = true;
    }
    if (!device || k == i || t[k - 1].kind != TR_IDENT || k + 1 >= end) return false;
    const char *name = t[k - 1].text;
    bool group = false;
    size_t q = k + 1;
    for (int d = 0; q < end; q++) {
        if (!strcmp(t[q].text, "(")) d++;
        if (!strcmp(t[q].text, ")") && d-- == 0) break;
        if (t[q].kind == TR_IDENT && !strcmp(t[q].text, "thread_group")) group = true;
    }
    if (!group || q >= end || tp_template_find(p, name)) return false;
    bool body = false;
    for (; q < end && !body; q++)
        body = !strcmp(t[q].text, "{");
    if (!body) return false;
    tr_template g = {0};
    g.name = tr_strdup(p->u, name);
    g.nparams = 1;
    g.pnames[0] = tr_strdup(p->u, "thread_group");
    g.ptype[0] = true;
    g.begin = i;
    g.end = end;
    g.device = true;
    g.file = t[k - 1].file, g.line = t[k - 1].line;
    tr_unit *u = p->u;
    tr_template *nt = realloc(u->templates, (size_t)(u->ntemplates + 1) * sizeof *nt);
    if (!nt) abort();
    u->templates = nt;
    u->templates[u->ntemplates++] = g;
    return true;
}

bool tp_is_group_function_item(parser *p, size_t i)
{
    for (int k = 0; k < p->u->ntemplates; k++)
        if (p->u->templates[k].begin == i && p->u->templates[k].nparams == 1 &&
            !strcmp(p->u->templates[k].pnames[0], "thread_group"))
            return true;
    return false;
}

const char *tp_cg_instantiate(parser *p, tr_template *t, const tr_expr *group, const tr_token *at)
{
    if (t->nparams != 1 || strcmp(t->pnames[0], "thread_group")) return NULL;
    if (group->cg == TR_CG_TILE && !group->cg_width)
        tp_bail(p, "cooperative groups", "%s is passed a group whose width is unknown here",
                t->name);
    if (group->cg != TR_CG_BLOCK && group->cg != TR_CG_TILE)
        tp_bail(p, "cooperative groups", "%s is passed something other than a group", t->name);
    char text[64];
    if (group->cg == TR_CG_BLOCK)
        snprintf(text, sizeof text, "thread_block");
    else
        snprintf(text, sizeof text, "thread_block_tile < %d >", group->cg_width);
    tr_tokens *args = tp_scratch_take(p, 1);
    char err[128];
    if (tr_lex("<cooperative groups>", at->file, text, strlen(text), args, err, sizeof err))
        tp_bail(p, "cooperative groups", "internal: %s", err);
    free(args->v[--args->n].text); /* the EOF */
    char why[256];
    const char *name = tp_template_instantiate(p, t, args, 1, at, why, sizeof why);
    tp_scratch_drop(p, args);
    if (!name)
        tp_bail(p, "cooperative groups", "%s cannot be made for this group: %s", t->name, why);
    return name;
}
