/* lockstep_eval.c — the lockstep check's walk of expressions (see lockstep.h): the value each
 * takes, the shared-memory accesses each makes, the barriers that end what is pending, and the
 * device functions called, walked in place. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "translate/lockstep_internal.h"
#include "translate/lower_impl.h"
#include "translate/map.h"

val *ls_lookup(ls *s, tr_sym *sym)
{
    for (int i = s->fr->nb - 1; i >= 0; i--)
        if (s->fr->b[i].sym == sym) return &s->fr->b[i].v;
    return NULL;
}

bool ls_is_scalar_var(const tr_sym *sym)
{
    return (sym->kind == TR_SYM_LOCAL || sym->kind == TR_SYM_PARAM) && !sym->ndims &&
           !sym->type.nptr && !sym->ref && !sym->type.is_ref;
}

void ls_bind(ls *s, tr_sym *sym, val v)
{
    /* a scalar holds one value per work-item until it is assigned again, even one the walk
     * cannot follow: the same variable read twice is the same value */
    if (v.kind == V_UNKNOWN && ls_is_scalar_var(sym)) v = ls_v_opaque_lane(s, sym->name);
    val *old = ls_lookup(s, sym);
    if (old) {
        *old = v;
        return;
    }
    frame *f = s->fr;
    if (f->nb == f->cap) {
        int cap = f->cap ? f->cap * 2 : 32;
        binding *n = realloc(f->b, (size_t)cap * sizeof *n);
        if (!n) abort();
        f->b = n;
        f->cap = cap;
    }
    f->b[f->nb++] = (binding){sym, v};
}

int ls_type_size(const char *b)
{
    static const struct {
        const char *name;
        int size;
    } sizes[] = {{"char", 1},
                 {"signed char", 1},
                 {"unsigned char", 1},
                 {"bool", 1},
                 {"short", 2},
                 {"unsigned short", 2},
                 {"int", 4},
                 {"unsigned int", 4},
                 {"float", 4},
                 {"int8_t", 1},
                 {"uint8_t", 1},
                 {"int16_t", 2},
                 {"uint16_t", 2},
                 {"int32_t", 4},
                 {"uint32_t", 4},
                 {"long", 8},
                 {"unsigned long", 8},
                 {"long long", 8},
                 {"unsigned long long", 8},
                 {"int64_t", 8},
                 {"uint64_t", 8},
                 {"double", 8},
                 {"__half", 2},
                 {"half", 2},
                 {"float2", 8},
                 {"int2", 8},
                 {"float4", 16},
                 {"int4", 16}};
    for (size_t i = 0; i < sizeof sizes / sizeof *sizes; i++)
        if (!strcmp(sizes[i].name, b)) return sizes[i].size;
    /* CUDA's other vector types: n components of the element's size (char3 is 3 bytes) */
    static const struct {
        const char *name;
        int size;
    } elems[] = {{"char", 1},  {"uchar", 1},    {"short", 2},        {"ushort", 2},
                 {"int", 4},   {"uint", 4},     {"float", 4},        {"long", 8},
                 {"ulong", 8}, {"longlong", 8}, {"ulonglong", 8},    {"double", 8},
                 {"half", 2},  {"__half", 2},   {"__nv_bfloat16", 2}};
    size_t n = strlen(b);
    if (n < 2 || b[n - 1] < '1' || b[n - 1] > '4') return 0;
    for (size_t i = 0; i < sizeof elems / sizeof *elems; i++)
        if (strlen(elems[i].name) == n - 1 && !strncmp(elems[i].name, b, n - 1))
            return elems[i].size * (b[n - 1] - '0');
    if (!strcmp(b, "__nv_bfloat162")) return 4;
    return 0;
}

static bool kept_value(ls *s, const char *name, long long *v)
{
    for (size_t k = 0; k < s->u->pp.nkept; k++)
        if (!strcmp(s->u->pp.kept[k].name, name)) {
            const char *b = s->u->pp.kept[k].body;
            while (*b == '(')
                b++;
            char *end;
            bool neg = *b == '-';
            long long x = (long long)strtoull(b + neg, &end, 0);
            if (end == b + neg) return false;
            *v = neg ? -x : x;
            return true;
        }
    return false;
}

tr_func *ls_find_body(ls *s, const char *name)
{
    if (s->nbodies != s->u->nfuncs || !s->bodies) {
        free(s->bodies);
        s->capbodies = 64;
        while (s->capbodies < 2 * s->u->nfuncs)
            s->capbodies *= 2;
        s->bodies = calloc((size_t)s->capbodies, sizeof *s->bodies);
        if (!s->bodies) abort();
        s->nbodies = s->u->nfuncs;
        for (int i = 0; i < s->u->nfuncs; i++) {
            tr_func *f = s->u->funcs[i];
            if (!f->body) continue;
            unsigned j = ls_text_hash(f->name) & (unsigned)(s->capbodies - 1);
            while (s->bodies[j] && strcmp(s->bodies[j]->name, f->name))
                j = (j + 1) & (unsigned)(s->capbodies - 1);
            if (!s->bodies[j]) s->bodies[j] = f; /* the first with the name, as a search finds */
        }
    }
    unsigned j = ls_text_hash(name) & (unsigned)(s->capbodies - 1);
    for (; s->bodies[j]; j = (j + 1) & (unsigned)(s->capbodies - 1))
        if (!strcmp(s->bodies[j]->name, name)) return s->bodies[j];
    return NULL;
}

/* An opaque value: uniform when its parts are, else a value of the work-item named by the
 * operation and its operands (unknown when an operand is). */
val ls_opaque(ls *s, const char *op, val a, val b)
{
    bool uniform = ls_lane_free(&a) && ls_lane_free(&b);
    /* of the work-item: the same operation on the same values is the same value */
    if (!uniform &&
        (a.kind != V_AFFINE || b.kind != V_AFFINE || a.inj || b.inj || s->nopaque >= MAX_OPAQUE))
        return ls_v_unknown();
    s->nopaque += !uniform;
    tbuf t = {.n = 0};
    ls_tb_s(&t, "(");
    ls_v_print(&a, &t);
    ls_tb_s(&t, op);
    ls_v_print(&b, &t);
    ls_tb_s(&t, ")");
    return t.over ? ls_v_unknown() : ls_v_term(ls_intern(s, t.b), uniform ? 0 : LANE_OPAQUE, 1);
}

void ls_record_pair(ls *s, int i, int j)
{
    if (s->npairs >= MAX_PAIRS) {
        if (!s->too_big) s->too_big = "too many shared-memory accesses between two barriers";
        return;
    }
    if (s->npairs == s->cappairs) {
        int cap = s->cappairs ? s->cappairs * 2 : 16;
        int(*n)[2] = realloc(s->pairs, (size_t)cap * sizeof *n);
        if (!n) abort();
        s->pairs = n;
        s->cappairs = cap;
    }
    s->pairs[s->npairs][0] = i;
    s->pairs[s->npairs][1] = j;
    s->npairs++;
}

static void add_access(ls *s, tr_sym *base, val addr, int size, bool write, tr_expr *at)
{
    if (s->nacc >= MAX_ACCESSES) {
        if (!s->too_big) s->too_big = "too many shared-memory accesses", s->too_big_at = at;
        return;
    }
    if (s->nacc == s->capacc) {
        int cap = s->capacc ? s->capacc * 2 : 64;
        ls_access *n = realloc(s->acc, (size_t)cap * sizeof *n);
        if (!n) abort();
        s->acc = n;
        s->capacc = cap;
    }
    if (!s->gsnap) {
        if (s->nsnaps == s->capsnaps) {
            int cap = s->capsnaps ? s->capsnaps * 2 : 64;
            guard **n = realloc(s->snaps, (size_t)cap * sizeof *n);
            if (!n) abort();
            s->snaps = n;
            s->capsnaps = cap;
        }
        guard *g = malloc(sizeof *g);
        if (!g) abort();
        ls_g_copy(g, &s->g);
        s->gsnap = s->snaps[s->nsnaps++] = g;
    }
    int id = s->nacc++;
    s->acc[id] = (ls_access){base, addr,      size,      write,        s->gsnap, s->wepoch,
                             at,   s->fr->fn, s->region, s->region_fn, {{0}},    0};
    /* the indices of tile[i][j]: compared one by one */
    tr_expr *chain[4];
    int depth = 0;
    tr_expr *b = at;
    while (b->kind == TR_E_INDEX && depth < 4)
        chain[depth++] = b->b, b = b->a;
    if (b->kind == TR_E_IDENT && b->sym && b->sym == base && base->ndims > 1 &&
        depth == base->ndims) {
        int na = s->nacc, np = s->npending, npr = s->npairs;
        frame saved;
        ls_copy_frame(&saved, s->fr); /* evaluated again: no side effect twice */
        val v[4];
        for (int d = 0; d < depth; d++)
            v[d] = ls_eval(s, chain[depth - 1 - d]);
        free(s->fr->b);
        *s->fr = saved;
        s->nacc = na, s->npending = np, s->npairs = npr; /* their loads were counted already */
        copy_n(s->acc[id].idx, v, (size_t)depth * sizeof *v);
        s->acc[id].nidx = depth;
    }
    for (int i = 0; i < s->npending; i++)
        ls_record_pair(s, s->pending[i], id);
    if (s->npending == s->cappending) {
        int cap = s->cappending ? s->cappending * 2 : 64;
        int *n = realloc(s->pending, (size_t)cap * sizeof *n);
        if (!n) abort();
        s->pending = n;
        s->cappending = cap;
    }
    s->pending[s->npending++] = id;
}

bool ls_is_builtin_member(tr_expr *e, int *kind, int *dim)
{
    if (e->kind == TR_E_BUILTIN) {
        *kind = (int)e->bkind;
        *dim = e->dim;
        return true;
    }
    if (e->kind != TR_E_MEMBER || strcmp(e->text, ".") || e->a->kind != TR_E_IDENT || e->a->sym)
        return false;
    static const char *const names[] = {"threadIdx", "blockIdx", "blockDim", "gridDim"};
    for (int b = 0; b < 4; b++)
        if (!strcmp(e->a->text, names[b])) {
            *dim = !strcmp(e->name, "x")   ? 0
                   : !strcmp(e->name, "y") ? 1
                   : !strcmp(e->name, "z") ? 2
                                           : -1;
            if (*dim < 0) return false;
            *kind = b;
            return true;
        }
    return false;
}

/* The pointer value of an array or pointer expression. */
val ls_ptr_of(ls *s, tr_sym *sym)
{
    val v = ls_v_const(0);
    int esize = ls_type_size(sym->type.base);
    if (sym->kind == TR_SYM_SHARED || sym->kind == TR_SYM_DYN_SHARED) {
        v.kind = V_SHARED_PTR;
        v.base = sym;
        if (sym->ndims > 1) { /* a row is the product of the inner dimensions */
            for (int d = 1; d < sym->ndims; d++) {
                val dv = sym->dims[d] ? ls_eval(s, sym->dims[d]) : ls_v_unknown();
                long long k;
                if (!ls_as_const(&dv, &k)) return v.esize = 0, v;
                esize *= (int)k;
            }
        }
        v.esize = esize;
        return v;
    }
    v.kind = V_OTHER_PTR;
    v.esize = esize;
    return v;
}

/* The address an lvalue names (a shared pointer value with the element's size), or not shared. */
val ls_address(ls *s, tr_expr *e, int *size)
{
    *size = 0;
    switch (e->kind) {
    case TR_E_INDEX: {
        val p = ls_eval(s, e->a);
        val i = ls_eval(s, e->b);
        if (p.kind != V_SHARED_PTR) return p.kind == V_OTHER_PTR ? p : ls_v_unknown();
        /* a row of a multi-dimensional array: its elements are rows too */
        int es = p.esize;
        tr_expr *b = e->a;
        int depth = 1;
        while (b->kind == TR_E_INDEX)
            b = b->a, depth++;
        if (b->kind == TR_E_IDENT && b->sym && b->sym->ndims > 1 && depth < b->sym->ndims) {
            es = ls_type_size(b->sym->type.base);
            for (int d = depth + 1; d < b->sym->ndims; d++) {
                val dv = b->sym->dims[d] ? ls_eval(s, b->sym->dims[d]) : ls_v_unknown();
                long long k;
                if (!ls_as_const(&dv, &k)) es = 0;
                es *= (int)k;
            }
        }
        val pa = p;
        pa.kind = V_AFFINE;
        val off = p.lost || !p.esize ? ls_v_unknown() : ls_v_add(pa, ls_v_scale(i, p.esize), 1);
        if (i.inj && !p.lost && !p.c && !p.nt && !p.inj) {
            off = i; /* base[x + (x >> k)]: the element x names, one-to-one */
            off.kind = V_AFFINE;
        }
        if (off.kind == V_UNKNOWN) off = ls_v_const(0), off.lost = true; /* in base, somewhere */
        off.kind = V_SHARED_PTR;
        off.base = p.base;
        off.esize = es;
        *size = p.esize;
        return off;
    }
    case TR_E_UNARY:
        if (!strcmp(e->text, "*")) {
            val p = ls_eval(s, e->a);
            *size = p.esize;
            return p;
        }
        return ls_v_unknown();
    case TR_E_MEMBER:
        if (!strcmp(e->text, "->")) {
            val p = ls_eval(s, e->a);
            *size = p.esize;
            return p;
        }
        return ls_address(s, e->a, size);
    default:
        return ls_v_unknown();
    }
}

/* A load or store through an lvalue whose address (ls_address) is a, of size bytes: recorded
 * when it is shared memory. The address is computed once per access: computing it again for the
 * load and the store made nested lvalues (`*(*(*p))`, `a[b[c[i]]]`) cost 2^depth. */
static void touch_at(ls *s, tr_expr *lv, val a, int size, bool write)
{
    if (a.kind == V_OTHER_PTR) return;
    if (a.kind == V_UNKNOWN) {
        /* a pointer the walk lost track of: shared only if its type says it may be */
        if (!(lv->kind == TR_E_INDEX || lv->kind == TR_E_UNARY || lv->kind == TR_E_MEMBER)) return;
        return; /* global and local pointers are the common case; unknown ones are not counted */
    }
    tr_sym *base = a.base;
    val addr = a;
    addr.kind = V_AFFINE;
    addr.base = NULL;
    if (!size || a.lost) addr = ls_v_unknown();
    if (a.inj) size = 1; /* counted in elements of one padding function */
    add_access(s, base, addr, size, write, lv);
}

/* ++ and -- of an lvalue that is not a variable: a load and a store of one address. */
static void read_write(ls *s, tr_expr *lv)
{
    int size;
    val a = ls_address(s, lv, &size);
    touch_at(s, lv, a, size, false);
    touch_at(s, lv, a, size, true);
}

bool ls_lvalue_is_var(tr_expr *e)
{
    return e->kind == TR_E_IDENT && e->sym && !e->sym->ndims &&
           (e->sym->kind == TR_SYM_LOCAL || e->sym->kind == TR_SYM_PARAM);
}

static val call_user(ls *s, tr_expr *e, tr_func *g);

/* Whether e is threadIdx of dimension dim (bk TR_B_THREAD) or blockDim (TR_B_BLOCKDIM). */
static bool is_builtin(tr_expr *e, int bk, int dim)
{
    int k, d;
    return e && ls_is_builtin_member(e, &k, &d) && k == bk && d == dim;
}

static bool is_binary(tr_expr *e, const char *op)
{
    return e && e->kind == TR_E_BINARY && !strcmp(e->text, op);
}

/* threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z), as thread_rank() is
 * written */
static bool is_linear_index(tr_expr *e)
{
    if (!is_binary(e, "+") || !is_builtin(e->a, TR_B_THREAD, 0) || !is_binary(e->b, "*") ||
        !is_builtin(e->b->a, TR_B_BLOCKDIM, 0))
        return false;
    tr_expr *yz = e->b->b;
    return is_binary(yz, "+") && is_builtin(yz->a, TR_B_THREAD, 1) && is_binary(yz->b, "*") &&
           is_builtin(yz->b->a, TR_B_BLOCKDIM, 1) && is_builtin(yz->b->b, TR_B_THREAD, 2);
}

/* x & (n - 1) of a work-item's index x: a LANE_OPAQUE value known to be x % n (unknown when
 * the operands are not such) */
static val mask(ls *s, tr_expr *e, val x, val m)
{
    /* n - 1 written so (or a constant): `t & (n / 2)` tests one bit, it is no remainder */
    tr_expr *mb = e->b;
    long long one;
    val ov = is_binary(mb, "-") && mb->b->kind == TR_E_NUM ? ls_eval(s, mb->b) : ls_v_unknown();
    if (!ls_as_const(&m, &one) && !(ls_as_const(&ov, &one) && one == 1)) return ls_v_unknown();
    if (x.kind != V_AFFINE || x.nt != 1 || x.c || !x.t[0].lane || x.t[0].lane > 3 || x.t[0].key ||
        x.t[0].coef != 1 || !ls_lane_free(&m))
        return ls_v_unknown();
    val n = ls_v_add(m, ls_v_const(1), 1);
    long long k;
    if (n.kind != V_AFFINE || (ls_as_const(&n, &k) && (k <= 0 || (k & (k - 1)))))
        return ls_v_unknown();
    tbuf t = {.n = 0}; /* named by x and n: the same mask is the same value */
    ls_tb_s(&t, "(");
    ls_v_print(&x, &t);
    ls_tb_s(&t, "%");
    ls_v_print(&n, &t);
    ls_tb_s(&t, ")");
    if (t.over) return ls_v_unknown();
    const char *key = ls_intern(s, t.b);
    val have;
    int lane;
    if (ls_mask_of(s, key, &have, &lane)) return ls_v_term(key, LANE_OPAQUE, 1);
    if (s->nopaque >= MAX_OPAQUE) return ls_v_unknown();
    s->nopaque++;
    if (s->nmasks == s->capmasks) {
        int cap = s->capmasks ? s->capmasks * 2 : 16;
        struct mask *nm = realloc(s->masks, (size_t)cap * sizeof *nm);
        if (!nm) abort();
        s->masks = nm;
        s->capmasks = cap;
    }
    s->masks[s->nmasks++] = (struct mask){key, n, x.t[0].lane};
    return ls_v_term(key, LANE_OPAQUE, 1);
}

/* a / d where every coefficient of a is a multiple of d (unknown when one is not) */
static val exact_quotient(val a, long long d)
{
    if (a.kind != V_AFFINE || a.inj || d <= 1 || a.c % d) return ls_v_unknown();
    for (int i = 0; i < a.nt; i++)
        if (a.t[i].coef % d) return ls_v_unknown();
    val q = a;
    q.c /= d;
    for (int i = 0; i < q.nt; i++)
        q.t[i].coef /= d;
    return q;
}

/* k when o is the value (x >> k) of the work-item (1 <= k <= 30) and x an affine value of it:
 * x + o is then the bank-conflict padding of x, one-to-one in x; 0 otherwise. */
static int pad_shift(val x, val o)
{
    if (x.kind != V_AFFINE || x.inj || ls_lane_free(&x) || o.kind != V_AFFINE || o.inj || o.c ||
        o.nt != 1 || o.t[0].coef != 1)
        return 0;
    if (o.t[0].lane == LANE_WARP && !o.t[0].key) /* threadIdx.x + (threadIdx.x >> 5) */
        return !x.c && x.nt == 1 && x.t[0].lane == 1 && !x.t[0].key && x.t[0].coef == 1 ? 5 : 0;
    if (o.t[0].lane != LANE_OPAQUE || !o.t[0].key) return 0;
    tbuf t = {.n = 0};
    ls_tb_s(&t, "(");
    ls_v_print(&x, &t);
    ls_tb_s(&t, ">>");
    if (t.over || strncmp(o.t[0].key, t.b, t.n)) return 0;
    /* the shift: a constant, printed as the affine value it is ("5") */
    const char *k = o.t[0].key + t.n;
    char *end;
    long v = strtol(k, &end, 10);
    return end != k && !strcmp(end, ")") && v >= 1 && v <= 30 ? (int)v : 0;
}

val ls_eval(ls *s, tr_expr *e)
{
    if (!e) return ls_v_unknown();
    if (!s->lin_exact && is_linear_index(e)) {
        s->lin_seen = true;
        s->lanes_used[0] = true;
        return ls_v_term(NULL, 1, 1);
    }
    int bk, dim;
    if (ls_is_builtin_member(e, &bk, &dim)) {
        static const char *const keys[4][3] = {{"", "", ""},
                                               {"blockIdx.x", "blockIdx.y", "blockIdx.z"},
                                               {"blockDim.x", "blockDim.y", "blockDim.z"},
                                               {"gridDim.x", "gridDim.y", "gridDim.z"}};
        if (s->use_block && s->kernel->block_known) {
            if (bk == TR_B_THREAD && s->kernel->block[dim] == 1) return ls_v_const(0);
            if (bk == TR_B_BLOCKDIM) return ls_v_const(s->kernel->block[dim]);
        }
        if (bk == TR_B_THREAD) {
            s->lanes_used[dim] = true;
            return ls_v_term(NULL, dim + 1, 1);
        }
        return ls_v_term(ls_intern(s, keys[bk][dim]), 0, 1);
    }
    switch (e->kind) {
    case TR_E_NUM: {
        char *end;
        long long v = (long long)strtoull(e->text, &end, 0);
        if (end != e->text && strspn(end, "uUlL") == strlen(end)) return ls_v_const(v);
        return ls_v_term(ls_intern(s, e->text), 0, 1); /* a float: uniform */
    }
    case TR_E_CHAR:
        return ls_v_const((unsigned char)e->text[1]);
    case TR_E_IDENT: {
        long long k;
        if (!e->sym) {
            if (kept_value(s, e->text, &k)) return ls_v_const(k);
            if (!strcmp(e->text, "warpSize")) return ls_v_const(32);
            if (!strcmp(e->text, "true")) return ls_v_const(1);
            if (!strcmp(e->text, "false")) return ls_v_const(0);
            return ls_v_term(ls_intern(s, e->text), 0, 1);
        }
        tr_sym *sym = e->sym;
        val *b = ls_lookup(s, sym);
        if (b) return *b;
        if (sym->kind == TR_SYM_SHARED || sym->kind == TR_SYM_DYN_SHARED) return ls_ptr_of(s, sym);
        if (sym->type.nptr || sym->ndims) return ls_ptr_of(s, sym); /* not shared */
        if (sym->kind == TR_SYM_PARAM && s->fr->fn == s->kernel) {
            char buf[160];
            snprintf(buf, sizeof buf, "param:%s", sym->name);
            return ls_v_term(ls_intern(s, buf), 0, 1);
        }
        if (sym->kind == TR_SYM_CONSTANT || sym->kind == TR_SYM_GLOBALVAR)
            return ls_v_term(ls_intern(s, sym->name), 0, 1);
        return ls_v_unknown();
    }
    case TR_E_CAST: {
        val v = ls_eval(s, e->a);
        if (e->type->nptr && (v.kind == V_SHARED_PTR || v.kind == V_OTHER_PTR)) {
            v.esize = ls_type_size(e->type->base);
            return v;
        }
        if (e->type->nptr) return v;
        if (!strcmp(e->type->base, "float") || !strcmp(e->type->base, "double"))
            return ls_lane_free(&v) ? ls_opaque(s, "(float)", v, ls_v_const(0)) : ls_v_unknown();
        return v;
    }
    case TR_E_UNARY: {
        if (!strcmp(e->text, "&")) {
            int size;
            val a = ls_address(s, e->a, &size);
            if (a.kind == V_SHARED_PTR) a.esize = size;
            if (e->a->kind == TR_E_IDENT && e->a->sym) return ls_ptr_of(s, e->a->sym);
            return a;
        }
        if (!strcmp(e->text, "*")) {
            val p = ls_eval(s, e->a);
            touch_at(s, e, p, p.esize, false);
            return ls_lane_free(&p) ? ls_v_term(ls_fresh(s, "load"), 0, 1) : ls_v_unknown();
        }
        if ((!strcmp(e->text, "++") || !strcmp(e->text, "--")) && !ls_lvalue_is_var(e->a)) {
            read_write(s, e->a);
            return ls_v_unknown();
        }
        val a = ls_eval(s, e->a);
        if (!strcmp(e->text, "-")) return ls_v_scale(a, -1);
        if (!strcmp(e->text, "+")) return a;
        if (!strcmp(e->text, "++") || !strcmp(e->text, "--")) {
            val nv = ls_v_add(a, ls_v_const(1), e->text[0] == '+' ? 1 : -1);
            ls_bind(s, e->a->sym, nv); /* a variable (the lvalues above) */
            return nv;
        }
        return ls_opaque(s, e->text, a, ls_v_const(0));
    }
    case TR_E_POSTFIX: {
        if (!ls_lvalue_is_var(e->a)) {
            read_write(s, e->a);
            return ls_v_unknown();
        }
        val a = ls_eval(s, e->a);
        ls_bind(s, e->a->sym, ls_v_add(a, ls_v_const(1), e->text[0] == '+' ? 1 : -1));
        return a;
    }
    case TR_E_INDEX:
    case TR_E_MEMBER: {
        if (e->kind == TR_E_MEMBER && strcmp(e->text, "->")) {
            /* a vector member: a part of its value (or a load of it) */
            val v = ls_eval(s, e->a);
            return ls_lane_free(&v) ? ls_v_term(ls_fresh(s, "member"), 0, 1) : ls_v_unknown();
        }
        int size;
        val a = ls_address(s, e, &size);
        /* a row of a multi-dimensional array is an address, not a load */
        tr_expr *b = e;
        int depth = 0;
        while (b->kind == TR_E_INDEX)
            b = b->a, depth++;
        if (b->kind == TR_E_IDENT && b->sym && b->sym->ndims > depth) return a;
        touch_at(s, e, a, size, false);
        return a.kind != V_UNKNOWN && ls_lane_free(&a) ? ls_v_term(ls_fresh(s, "load"), 0, 1)
                                                       : ls_v_unknown();
    }
    case TR_E_BINARY: {
        val a = ls_eval(s, e->a), b = ls_eval(s, e->b);
        const char *op = e->text;
        bool pa = a.kind == V_SHARED_PTR || a.kind == V_OTHER_PTR;
        bool pb = b.kind == V_SHARED_PTR || b.kind == V_OTHER_PTR;
        if ((!strcmp(op, "+") || !strcmp(op, "-")) && (pa != pb)) {
            /* pointer arithmetic: in bytes of the pointee */
            val p = pa ? a : b, k = pa ? b : a;
            if (!pa && !strcmp(op, "-")) return ls_v_unknown();
            val off = p;
            off.kind = V_AFFINE;
            val r = p.lost || k.kind != V_AFFINE || !p.esize
                        ? ls_v_unknown()
                        : ls_v_add(off, ls_v_scale(k, p.esize), !strcmp(op, "+") ? 1 : -1);
            if (r.kind == V_UNKNOWN) r = ls_v_const(0), r.lost = true;
            r.kind = p.kind;
            r.base = p.base;
            r.esize = p.esize;
            return r;
        }
        if (!strcmp(op, "+")) {
            int k = pad_shift(a, b);
            if (!k) k = pad_shift(b, a);
            if (k) { /* x + (x >> k), the shift computed apart (`oa = OFFSET(a); s[a + oa]`) */
                val x = pad_shift(a, b) ? a : b;
                x.inj = k;
                return x;
            }
            return ls_v_add(a, b, 1);
        }
        if (!strcmp(op, "-")) return pa && pb ? ls_v_unknown() : ls_v_add(a, b, -1);
        if (!strcmp(op, "*")) return ls_v_mul(s, a, b);
        long long k;
        if ((!strcmp(op, "/") || !strcmp(op, ">>")) && ls_as_const(&b, &k) &&
            k == (op[0] == '/' ? 32 : 5) && a.kind == V_AFFINE && a.nt == 1 && !a.c &&
            a.t[0].lane == 1 && !a.t[0].key && a.t[0].coef == 1)
            return ls_v_term(NULL, LANE_WARP, 1); /* threadIdx.x / 32: the warp index */
        if ((!strcmp(op, "/") || !strcmp(op, ">>")) && ls_as_const(&b, &k)) {
            /* a multiple of the divisor (stride >> 1 after stride <<= 1): divided exactly */
            long long d = op[0] == '/' ? k : (k >= 0 && k < 31 ? 1ll << k : 0);
            val q = exact_quotient(a, d);
            if (q.kind == V_AFFINE) return q;
        }
        if (!strcmp(op, "<<") && ls_as_const(&b, &k) && k >= 0 && k < 31)
            return ls_v_scale(a, 1ll << k);
        if (!strcmp(op, "&&") || !strcmp(op, "||")) {
            long long x, y;
            if (ls_as_const(&a, &x) && ls_as_const(&b, &y))
                return ls_v_const(op[0] == '&' ? (x && y) : (x || y));
        }
        if (ls_as_const(&a, &k)) {
            long long y;
            if (ls_as_const(&b, &y)) {
                if (!strcmp(op, "<")) return ls_v_const(k < y);
                if (!strcmp(op, ">")) return ls_v_const(k > y);
                if (!strcmp(op, "<=")) return ls_v_const(k <= y);
                if (!strcmp(op, ">=")) return ls_v_const(k >= y);
                if (!strcmp(op, "==")) return ls_v_const(k == y);
                if (!strcmp(op, "!=")) return ls_v_const(k != y);
                if (!strcmp(op, "/") && y) return ls_v_const(k / y);
                if (!strcmp(op, "%") && y) return ls_v_const(k % y);
                if (!strcmp(op, ">>") && y >= 0 && y < 63) return ls_v_const(k >> y);
                if (!strcmp(op, "&")) return ls_v_const(k & y);
                if (!strcmp(op, "|")) return ls_v_const(k | y);
                if (!strcmp(op, "^")) return ls_v_const(k ^ y);
            }
        }
        if (!strcmp(op, "&")) {
            val mk = mask(s, e, a, b);
            if (mk.kind == V_AFFINE) return mk;
        }
        return ls_opaque(s, op, a, b);
    }
    case TR_E_ASSIGN: {
        val r = ls_eval(s, e->b);
        if (ls_lvalue_is_var(e->a)) {
            val cur = ls_eval(s, e->a);
            val nv = r;
            tr_expr *sh = e->b;
            long long k;
            val kv;
            if (!strcmp(e->text, "+=") && sh->kind == TR_E_BINARY && !strcmp(sh->text, ">>") &&
                sh->a->kind == TR_E_IDENT && sh->a->sym == e->a->sym &&
                (kv = ls_eval(s, sh->b), ls_as_const(&kv, &k)) && k > 0 && k < 31 &&
                cur.kind == V_AFFINE && !cur.inj) {
                /* x += x >> k */
                cur.inj = (int)k;
                ls_bind(s, e->a->sym, cur);
                return cur;
            }
            if (strcmp(e->text, "=")) {
                char op[4];
                snprintf(op, sizeof op, "%.*s", (int)strlen(e->text) - 1, e->text);
                nv = !strcmp(op, "+")   ? ls_v_add(cur, r, 1)
                     : !strcmp(op, "-") ? ls_v_add(cur, r, -1)
                     : !strcmp(op, "*") ? ls_v_mul(s, cur, r)
                                        : ls_opaque(s, op, cur, r);
                if (!strcmp(op, "<<") && ls_as_const(&r, &k) && k >= 0 && k < 31)
                    nv = ls_v_scale(cur, 1ll << k);
            }
            ls_bind(s, e->a->sym, nv);
            return nv;
        }
        if (e->a->kind == TR_E_IDENT) {
            ls_eval(s, e->a);
            return r;
        }
        /* the address, and its own loads (s[s[i]] = ...), once */
        int size;
        val ad = ls_address(s, e->a, &size);
        if (strcmp(e->text, "=")) touch_at(s, e->a, ad, size, false);
        touch_at(s, e->a, ad, size, true);
        return r;
    }
    case TR_E_COND: {
        val c = ls_eval(s, e->a);
        long long k;
        if (ls_as_const(&c, &k)) return k ? ls_eval(s, e->b) : ls_eval(s, e->c);
        val a = ls_eval(s, e->b), b = ls_eval(s, e->c);
        if (ls_v_equal(&a, &b)) return a;
        if (a.kind == V_SHARED_PTR || b.kind == V_SHARED_PTR) { /* one of two: somewhere */
            val r = a.kind == V_SHARED_PTR ? a : b;
            r.lost = true;
            if (a.kind != b.kind || a.base != b.base) r.base = NULL;
            return r;
        }
        if (a.kind == V_OTHER_PTR && b.kind == V_OTHER_PTR) return a;
        if (ls_lane_free(&a) && ls_lane_free(&b) && ls_lane_free(&c))
            return ls_v_term(ls_fresh(s, "cond"), 0, 1);
        return ls_v_unknown();
    }
    case TR_E_COMMA:
        ls_eval(s, e->a);
        return ls_eval(s, e->b);
    case TR_E_INIT:
        for (int i = 0; i < e->nargs; i++)
            ls_eval(s, e->args[i]);
        return ls_v_unknown();
    case TR_E_SIZEOF_TYPE:
        return ls_v_const(ls_type_size(e->type->base) ? ls_type_size(e->type->base) : 4);
    case TR_E_SIZEOF_EXPR:
        return ls_v_term(ls_intern(s, "sizeof"), 0, 1);
    case TR_E_CALL: {
        if (e->a->kind != TR_E_IDENT) return ls_v_unknown();
        const char *name = e->a->text;
        tr_func *g = ls_find_body(s, name);
        if (g) return call_user(s, e, g);
        if (tl_is_overloaded(s->u, name)) {
            /* an overload its argument types choose later: every one that could be is walked,
             * so that none of their shared-memory accesses goes unchecked */
            val r = ls_v_unknown();
            int n = 0;
            for (int i = 0; i < s->u->nfuncs; i++) {
                tr_func *f = s->u->funcs[i];
                if (f->body && f->src_name && !strcmp(f->src_name, name) &&
                    f->nparams == e->nargs) {
                    r = call_user(s, e, f);
                    n++;
                }
            }
            if (n) return n == 1 ? r : ls_v_unknown();
        }
        if (!strcmp(name, "__syncthreads")) {
            s->npending = 0;
            return ls_v_const(0);
        }
        if (!strcmp(name, "__syncwarp")) {
            s->wepoch++;
            return ls_v_const(0);
        }
        if ((!strcmp(name, "__mul24") || !strcmp(name, "__umul24")) && e->nargs == 2)
            return ls_v_mul(s, ls_eval(s, e->args[0]), ls_eval(s, e->args[1]));
        const tr_callmap *m = tr_map_call(name);
        bool atomic = m && m->kind == TR_CALL_ATOMIC;
        bool all_uniform = true;
        for (int i = 0; i < e->nargs; i++) {
            if (atomic && i == 0) { /* atomics on shared memory do not race */
                int size;
                val a = ls_address(s, e->args[0], &size);
                (void)a;
                if (e->args[0]->kind == TR_E_UNARY && !strcmp(e->args[0]->text, "&"))
                    ls_address(s, e->args[0]->a, &size);
                continue;
            }
            val a = ls_eval(s, e->args[i]);
            all_uniform &= ls_lane_free(&a);
        }
        if (m && m->kind == TR_CALL_SIMD) {
            s->simd = true;
            return ls_v_unknown();
        }
        return all_uniform && !atomic ? ls_v_term(ls_fresh(s, name), 0, 1) : ls_v_unknown();
    }
    default:
        return ls_v_unknown();
    }
}

static val call_user(ls *s, tr_expr *e, tr_func *g)
{
    val args[32];
    int n = e->nargs < 32 ? e->nargs : 32;
    for (int i = 0; i < n; i++) {
        if (i < g->nparams && g->params[i]->ref) { /* passed by address */
            tr_expr *a = e->args[i];
            int size;
            if (a->kind == TR_E_IDENT && a->sym && !a->sym->type.nptr)
                args[i] = ls_v_term(ls_fresh(s, "ref"), 0, 1), args[i].kind = V_OTHER_PTR;
            else {
                args[i] = ls_address(s, a, &size);
                if (args[i].kind == V_SHARED_PTR) args[i].esize = size;
                if (args[i].kind == V_UNKNOWN) args[i].kind = V_OTHER_PTR;
            }
        } else {
            args[i] = ls_eval(s, e->args[i]);
        }
    }
    if (s->depth >= MAX_DEPTH && !s->too_big)
        s->too_big = "device-function calls nested too deep", s->too_big_at = e;
    if (s->depth >= MAX_DEPTH || g->visiting_lockstep || n != g->nparams) return ls_v_unknown();
    /* what a rewrite of a tail in g must know about every call of it */
    unsigned lanes = 0;
    for (int i = 0; i < n && i < 32; i++)
        if (args[i].kind == V_AFFINE && !args[i].c && args[i].nt == 1 && !args[i].t[0].key &&
            args[i].t[0].lane == 1 && args[i].t[0].coef == 1)
            lanes |= 1u << i;
    g->ls_lane_params = g->ls_called ? g->ls_lane_params & lanes : lanes;
    g->ls_called = true;
    if (!s->region) g->ls_outside++;
    frame f = {0};
    f.fn = g;
    frame *saved = s->fr;
    s->fr = &f;
    for (int i = 0; i < n; i++)
        ls_bind(s, g->params[i], args[i]);
    s->depth++;
    g->visiting_lockstep = true;
    ls_walk(s, g->body);
    g->visiting_lockstep = false;
    s->depth--;
    s->fr = saved;
    val r = f.has_ret ? f.ret : ls_v_unknown();
    free(f.b);
    return r;
}
