/* lockstep.c — see lockstep.h. Each kernel is walked once, with the device functions it calls
 * walked in place (their parameters bound to the call's arguments). Values are affine forms in
 * the work-item's position (threadIdx.x/y/z) over terms that are the same for every work-item of
 * the group (constants, blockIdx, blockDim, value parameters, variables assigned only such
 * values). Every access to shared memory is recorded with its address, the conditions on the
 * work-item that guard it (`tid < s`), and the accesses still pending since the last barrier;
 * two of them conflict when one writes what the other reads, and a work-item other than the
 * writer can reach it — decided from the addresses and the guards, and "possibly" whenever the
 * translation cannot tell. Loops are walked twice, so that an iteration meets the next one. */
#include "translate/lockstep.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "translate/lower_impl.h"
#include "translate/map.h"

enum {
    MAXT = 8,
    MAXB = 4,
    MAX_DEPTH = 32,
    MAX_ACCESSES = 20000,
    MAX_PAIRS = 1 << 20,
    MAX_REPORTS = 3
};

/* ---- affine forms ------------------------------------------------------------------------ */
typedef struct term {
    const char *key; /* a product of group-uniform names ("blockDim.x", "s#3"); NULL: 1 */
    int lane;        /* 0: none, 1 + d: threadIdx of dimension d */
    long long coef;
} term;

typedef enum vkind { V_UNKNOWN, V_AFFINE, V_SHARED_PTR, V_OTHER_PTR } vkind;

typedef struct val {
    vkind kind;
    long long c;  /* affine: the constant; pointers: byte offset constant */
    term t[MAXT]; /* lane: 1 + d for threadIdx.x/y/z, 4 for the warp index threadIdx.x / 32 */
    int nt;
    tr_sym *base; /* V_SHARED_PTR: the shared array (NULL: not known which) */
    int esize;    /* pointers: bytes of the pointee (0: unknown) */
    bool lost;    /* V_SHARED_PTR: into `base`, at an offset the walk cannot tell */
    int inj;      /* k > 0: the value is x + (x >> k) of the affine x held (the padding that
                     avoids bank conflicts, one-to-one in x); addresses then count elements */
} val;

/* memcpy of n bytes that may be none, from a pointer that is then allowed to be NULL (an empty
 * list not yet allocated): memcpy itself may not be given NULL even for 0 bytes */
static void copy_n(void *dst, const void *src, size_t n)
{
    if (n) memcpy(dst, src, n);
}

static val v_unknown(void)
{
    val v = {0};
    v.kind = V_UNKNOWN;
    return v;
}

static val v_const(long long c)
{
    val v = {0};
    v.kind = V_AFFINE;
    v.c = c;
    return v;
}

static val v_term(const char *key, int lane, long long coef)
{
    val v = v_const(0);
    v.t[0] = (term){key, lane, coef};
    v.nt = 1;
    return v;
}

static int cmp_term(const term *a, const term *b)
{
    if (a->lane != b->lane) return a->lane < b->lane ? -1 : 1;
    if (!a->key || !b->key) return a->key ? 1 : (b->key ? -1 : 0);
    return strcmp(a->key, b->key);
}

/* Adds k * (term) to v, keeping the terms sorted and merged; false when there are too many. */
static bool add_term(val *v, term t)
{
    if (!t.coef) return true;
    for (int i = 0; i < v->nt; i++) {
        int c = cmp_term(&v->t[i], &t);
        if (c == 0) {
            v->t[i].coef += t.coef;
            if (!v->t[i].coef) {
                memmove(&v->t[i], &v->t[i + 1], (size_t)(v->nt - i - 1) * sizeof t);
                v->nt--;
            }
            return true;
        }
        if (c > 0) {
            if (v->nt == MAXT) return false;
            memmove(&v->t[i + 1], &v->t[i], (size_t)(v->nt - i) * sizeof t);
            v->t[i] = t;
            v->nt++;
            return true;
        }
    }
    if (v->nt == MAXT) return false;
    v->t[v->nt++] = t;
    return true;
}

static bool is_affine(const val *v)
{
    return v->kind == V_AFFINE;
}

static bool lane_free(const val *v)
{
    if (v->kind != V_AFFINE) return false;
    for (int i = 0; i < v->nt; i++)
        if (v->t[i].lane) return false;
    return true;
}

static bool as_const(const val *v, long long *c)
{
    if (v->kind != V_AFFINE || v->nt) return false;
    *c = v->c;
    return true;
}

static val v_add(val a, val b, long long sb) /* a + sb * b */
{
    if (a.kind == V_UNKNOWN || b.kind == V_UNKNOWN || a.inj || b.inj) return v_unknown();
    if (b.kind != V_AFFINE) { /* k + p */
        if (a.kind != V_AFFINE || sb != 1) return v_unknown();
        val t = a;
        a = b;
        b = t;
    }
    if (b.kind != V_AFFINE) return v_unknown();
    val r = a;
    r.c += sb * b.c;
    for (int i = 0; i < b.nt; i++) {
        term t = b.t[i];
        t.coef *= sb;
        if (!add_term(&r, t)) return v_unknown();
    }
    return r;
}

static val v_scale(val a, long long k)
{
    if (a.kind != V_AFFINE || a.inj) return v_unknown();
    val r = v_const(a.c * k);
    for (int i = 0; i < a.nt; i++) {
        term t = a.t[i];
        t.coef *= k;
        if (!add_term(&r, t)) return v_unknown();
    }
    return r;
}

typedef struct ls ls;
static const char *intern(ls *s, const char *text);

/* A text being built for a key; `over`: it did not fit (the key is then not made: two long
 * texts cut to one would name different values alike). */
typedef struct tbuf {
    char b[480];
    size_t n;
    bool over;
} tbuf;

static void tb_s(tbuf *t, const char *x)
{
    size_t l = strlen(x);
    if (t->over || t->n + l >= sizeof t->b) {
        t->over = true;
        return;
    }
    memcpy(t->b + t->n, x, l + 1);
    t->n += l;
}

static void tb_ll(tbuf *t, long long v)
{
    char d[24];
    int i = (int)sizeof d;
    d[--i] = 0;
    unsigned long long m = v < 0 ? 0ULL - (unsigned long long)v : (unsigned long long)v;
    do
        d[--i] = (char)('0' + m % 10);
    while (m /= 10);
    if (v < 0) d[--i] = '-';
    tb_s(t, d + i);
}

/* "a*b" of two keys, sorted, for products of uniform names (NULL: too long) */
static const char *key_mul(ls *s, const char *a, const char *b)
{
    tbuf t = {.n = 0};
    tb_s(&t, strcmp(a, b) <= 0 ? a : b);
    tb_s(&t, "*");
    tb_s(&t, strcmp(a, b) <= 0 ? b : a);
    return t.over ? NULL : intern(s, t.b);
}

static val v_mul(ls *s, val a, val b)
{
    long long k;
    if (a.inj || b.inj) return v_unknown();
    if (as_const(&a, &k)) return v_scale(b, k);
    if (as_const(&b, &k)) return v_scale(a, k);
    if (!is_affine(&a) || !is_affine(&b)) return v_unknown();
    if (!lane_free(&a) && !lane_free(&b)) return v_unknown();
    if (!lane_free(&a)) {
        val t = a;
        a = b;
        b = t;
    }
    /* a is uniform: distribute */
    val r = v_const(0);
    for (int i = -1; i < a.nt; i++) {
        const char *ka = i < 0 ? NULL : a.t[i].key;
        long long ca = i < 0 ? a.c : a.t[i].coef;
        if (!ca) continue;
        if (!add_term(&r, (term){ka, 0, ca * b.c})) return v_unknown();
        for (int j = 0; j < b.nt; j++) {
            const char *kb = b.t[j].key, *kk = !ka ? kb : !kb ? ka : key_mul(s, ka, kb);
            if ((ka && kb && !kk) || !add_term(&r, (term){kk, b.t[j].lane, ca * b.t[j].coef}))
                return v_unknown();
        }
    }
    r.c = 0;
    for (int i = 0; i < r.nt; i++) /* the constant came in as a term without key */
        if (!r.t[i].key && !r.t[i].lane) {
            r.c = r.t[i].coef;
            memmove(&r.t[i], &r.t[i + 1], (size_t)(r.nt - i - 1) * sizeof *r.t);
            r.nt--;
            break;
        }
    return r;
}

static bool v_equal(const val *a, const val *b)
{
    if (a->kind != b->kind || a->c != b->c || a->nt != b->nt || a->lost || b->lost ||
        a->inj != b->inj)
        return false;
    if (a->kind == V_SHARED_PTR && a->base != b->base) return false;
    for (int i = 0; i < a->nt; i++)
        if (cmp_term(&a->t[i], &b->t[i]) || a->t[i].coef != b->t[i].coef) return false;
    return a->kind != V_UNKNOWN;
}

static void v_print(const val *v, tbuf *t)
{
    if (v->kind == V_UNKNOWN) {
        tb_s(t, "?");
        return;
    }
    tb_ll(t, v->c);
    static const char *const lanes[] = {"", "tid.x", "tid.y", "tid.z", "warp"};
    for (int i = 0; i < v->nt; i++) {
        tb_s(t, "+");
        tb_ll(t, v->t[i].coef);
        tb_s(t, "*");
        tb_s(t, v->t[i].lane ? lanes[v->t[i].lane] : "");
        tb_s(t, v->t[i].key ? v->t[i].key : "");
    }
}

/* ---- guards: the conditions on the work-item an access runs under ------------------------- */
typedef struct guard {
    /* lo <= v < hi, uniform bounds, for v = threadIdx.x, .y, .z and (3) the warp index
     * threadIdx.x / 32 */
    val lo[4][MAXB], hi[4][MAXB];
    int nlo[4], nhi[4];
    val mod[4], rem[4]; /* v % mod == rem */
    bool has_mod[4];
} guard;

/* What a guard holds at a point of the walk: narrowing only adds bounds (and a first modulus),
 * so going back to the point is cutting the counts back. */
typedef struct gmark {
    int nlo[4], nhi[4];
    bool has_mod[4];
} gmark;

static gmark g_mark(const guard *g)
{
    gmark m;
    memcpy(m.nlo, g->nlo, sizeof m.nlo);
    memcpy(m.nhi, g->nhi, sizeof m.nhi);
    memcpy(m.has_mod, g->has_mod, sizeof m.has_mod);
    return m;
}

static void g_restore(guard *g, const gmark *m)
{
    memcpy(g->nlo, m->nlo, sizeof m->nlo);
    memcpy(g->nhi, m->nhi, sizeof m->nhi);
    memcpy(g->has_mod, m->has_mod, sizeof m->has_mod);
}

/* A guard that holds nothing (only the counts are set: the rest is read up to them). */
static void g_empty(guard *g)
{
    memset(g->nlo, 0, sizeof g->nlo);
    memset(g->nhi, 0, sizeof g->nhi);
    memset(g->has_mod, 0, sizeof g->has_mod);
}

/* A copy of the parts of src in use. */
static void g_copy(guard *dst, const guard *src)
{
    for (int d = 0; d < 4; d++) {
        dst->nlo[d] = src->nlo[d], dst->nhi[d] = src->nhi[d];
        copy_n(dst->lo[d], src->lo[d], (size_t)src->nlo[d] * sizeof src->lo[d][0]);
        copy_n(dst->hi[d], src->hi[d], (size_t)src->nhi[d] * sizeof src->hi[d][0]);
        dst->has_mod[d] = src->has_mod[d];
        if (src->has_mod[d]) dst->mod[d] = src->mod[d], dst->rem[d] = src->rem[d];
    }
}

static void guard_add(guard *g, int d, bool hi, val b)
{
    if (!lane_free(&b)) return;
    int *n = hi ? &g->nhi[d] : &g->nlo[d];
    if (*n < MAXB) (hi ? g->hi[d] : g->lo[d])[(*n)++] = b;
}

/* Whether a < b can hold ("unknown" counts as can). */
static bool may_less(val a, val b)
{
    val d = v_add(b, a, -1);
    long long c;
    return !as_const(&d, &c) || c > 0;
}

/* Whether forms f[i] >= 0 can all hold: each alone, and each pair whose uniform parts cancel
 * (p * f[i] + q * f[j] a negative constant for some p, q > 0 is a contradiction). */
static bool may_all_hold(const val *f, int n)
{
    for (int i = 0; i < n; i++) {
        long long c;
        if (f[i].kind != V_AFFINE) continue;
        if (as_const(&f[i], &c) && c < 0) return false;
        for (int j = i + 1; j < n; j++) {
            if (f[j].kind != V_AFFINE || !f[i].nt || f[i].nt != f[j].nt) continue;
            long long p = f[j].t[0].coef, q = f[i].t[0].coef;
            if ((p > 0) == (q > 0)) continue; /* the same sign cannot cancel */
            p = p < 0 ? -p : p, q = q < 0 ? -q : q;
            val sum = v_add(v_scale(f[i], p), v_scale(f[j], q), 1);
            if (as_const(&sum, &c) && c < 0) return false;
        }
    }
    return true;
}

/* ---- the walk ------------------------------------------------------------------------------ */
typedef struct binding {
    tr_sym *sym;
    val v;
} binding;

typedef struct ls_access {
    tr_sym *base; /* NULL: shared memory, not known which array */
    val addr;     /* byte address within it */
    int size;
    bool write;
    const guard *g; /* a snapshot of the walk's guard, shared by the accesses made under it */
    int wepoch;     /* __syncwarp()s met so far in this region */
    tr_expr *at;
    tr_func *fn;
    tr_stmt *region; /* the innermost `if (tid < 32)` region holding it (NULL: none) */
    tr_func *region_fn;
    val idx[4]; /* a multi-dimensional array's element: its index in each dimension */
    int nidx;
} ls_access;

typedef struct frame frame;
struct frame {
    binding *b;
    int nb, cap;
    tr_func *fn;
    val ret;
    bool has_ret;
};

struct ls {
    tr_unit *u;
    const tr_lower_options *opt;
    tr_func *kernel;
    ls_access *acc;
    int nacc, capacc;
    int *pending;
    int npending, cappending;
    guard g;
    const guard *gsnap; /* a copy of g made for an access (NULL: g changed since) */
    guard **snaps;
    int nsnaps, capsnaps;
    int wepoch;
    frame *fr; /* the current function's bindings */
    int depth;
    int version;
    bool lanes_used[3];
    bool simd;        /* the kernel uses warp operations: its groups are whole warps */
    tr_func **bodies; /* hash set of the functions with a body, by name (nbodies: u->nfuncs when
                       * made; capbodies a power of two) */
    int nbodies, capbodies;
    char **interned; /* open-addressed hash set of the texts (capinterned a power of two) */
    int ninterned, capinterned;
    /* pairs of access indices: during the walk, those that may conflict (decided after it,
     * when the dimensions the kernel uses are known); then the conflicts */
    int (*pairs)[2];
    int npairs, cappairs;
    const char *too_big; /* the walk could not follow everything: why (the kernel is refused) */
    tr_expr *too_big_at;
    tr_stmt *region;
    tr_func *region_fn;
    tr_sym *loop_vars[64]; /* the variables assigned in the loops being walked */
    int nloop_vars;
};

static unsigned text_hash(const char *t)
{
    unsigned h = 2166136261u;
    for (; *t; t++)
        h = (h ^ (unsigned char)*t) * 16777619u;
    return h;
}

static const char *intern(ls *s, const char *text)
{
    if (2 * (s->ninterned + 1) > s->capinterned) {
        int cap = s->capinterned ? s->capinterned * 2 : 256;
        char **n = calloc((size_t)cap, sizeof *n);
        if (!n) abort();
        for (int i = 0; i < s->capinterned; i++) {
            if (!s->interned[i]) continue;
            unsigned j = text_hash(s->interned[i]) & (unsigned)(cap - 1);
            while (n[j])
                j = (j + 1) & (unsigned)(cap - 1);
            n[j] = s->interned[i];
        }
        free(s->interned);
        s->interned = n;
        s->capinterned = cap;
    }
    unsigned j = text_hash(text) & (unsigned)(s->capinterned - 1);
    for (; s->interned[j]; j = (j + 1) & (unsigned)(s->capinterned - 1))
        if (!strcmp(s->interned[j], text)) return s->interned[j];
    s->ninterned++;
    return s->interned[j] = tr_strdup(s->u, text);
}

static const char *fresh(ls *s, const char *name)
{
    tbuf t = {.n = 0};
    size_t l = strlen(name);
    l = l > 100 ? 100 : l; /* the version makes it unique, the name only helps reading */
    memcpy(t.b, name, l);
    t.b[t.n = l] = 0;
    tb_s(&t, "#");
    tb_ll(&t, ++s->version);
    return intern(s, t.b);
}

static val *lookup(ls *s, tr_sym *sym)
{
    for (int i = s->fr->nb - 1; i >= 0; i--)
        if (s->fr->b[i].sym == sym) return &s->fr->b[i].v;
    return NULL;
}

static void bind(ls *s, tr_sym *sym, val v)
{
    val *old = lookup(s, sym);
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

static int type_size(const char *b)
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

static tr_func *find_body(ls *s, const char *name)
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
            unsigned j = text_hash(f->name) & (unsigned)(s->capbodies - 1);
            while (s->bodies[j] && strcmp(s->bodies[j]->name, f->name))
                j = (j + 1) & (unsigned)(s->capbodies - 1);
            if (!s->bodies[j]) s->bodies[j] = f; /* the first with the name, as a search finds */
        }
    }
    unsigned j = text_hash(name) & (unsigned)(s->capbodies - 1);
    for (; s->bodies[j]; j = (j + 1) & (unsigned)(s->capbodies - 1))
        if (!strcmp(s->bodies[j]->name, name)) return s->bodies[j];
    return NULL;
}

static val eval(ls *s, tr_expr *e);
static void walk(ls *s, tr_stmt *st);

/* An opaque value: uniform when its parts are, else unknown. */
static val opaque(ls *s, const char *op, val a, val b)
{
    if (!lane_free(&a) || !lane_free(&b)) return v_unknown();
    tbuf t = {.n = 0};
    tb_s(&t, "(");
    v_print(&a, &t);
    tb_s(&t, op);
    v_print(&b, &t);
    tb_s(&t, ")");
    return t.over ? v_unknown() : v_term(intern(s, t.b), 0, 1);
}

static void record_pair(ls *s, int i, int j)
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

/* The single work-item a guard pins, in every dimension the kernel uses. */
static bool pinned(const ls *s, const guard *g, long long at[3])
{
    for (int d = 0; d < 3; d++) {
        if (!s->lanes_used[d]) {
            at[d] = 0;
            continue;
        }
        bool ok = false;
        for (int i = -1; i < g->nlo[d] && !ok; i++) /* -1: the index is never negative */
            for (int j = 0; j < g->nhi[d] && !ok; j++) {
                long long lo = 0, hi;
                if ((i < 0 || as_const(&g->lo[d][i], &lo)) && as_const(&g->hi[d][j], &hi) &&
                    hi == lo + 1)
                    ok = true, at[d] = lo;
            }
        if (!ok) return false;
    }
    return true;
}

/* Whether some work-item v of guard ga and v' of gb with v.x = v'.x + d (dimension dim) exist;
 * "can" when the translation cannot tell. */
static bool ratio(val delta, val c, long long *num, long long *den);

static bool feasible(const guard *ga, const guard *gb, int dim, val d)
{
    if (ga->has_mod[dim] && gb->has_mod[dim] && v_equal(&ga->mod[dim], &gb->mod[dim]) &&
        v_equal(&ga->rem[dim], &gb->rem[dim])) {
        /* both keep the work-items with v % m == r: they are a multiple of m apart */
        long long num, den;
        if (ratio(d, ga->mod[dim], &num, &den) && num % den) return false;
        /* d = m / k (k >= 2): between 0 and m, never a non-zero multiple of it */
        tbuf m = {.n = 0};
        v_print(&ga->mod[dim], &m);
        char key[520];
        for (int k = 2; k <= 64 && d.kind == V_AFFINE && d.nt == 1 && !d.c &&
                        (d.t[0].coef == 1 || d.t[0].coef == -1) && d.t[0].key && !d.t[0].lane;
             k *= 2) {
            snprintf(key, sizeof key, "(%s/%d)", m.b, k);
            if (!strcmp(d.t[0].key, key)) return false;
        }
    }
    val zero = v_const(0);
    val los[2 * MAXB + 2], his[2 * MAXB];
    int nl = 0, nh = 0;
    los[nl++] = zero;               /* v' >= 0 */
    los[nl++] = v_add(zero, d, -1); /* v >= 0: v' >= -d */
    for (int i = 0; i < gb->nlo[dim]; i++)
        los[nl++] = gb->lo[dim][i];
    for (int i = 0; i < ga->nlo[dim]; i++)
        los[nl++] = v_add(ga->lo[dim][i], d, -1);
    for (int i = 0; i < gb->nhi[dim]; i++)
        his[nh++] = gb->hi[dim][i];
    for (int i = 0; i < ga->nhi[dim]; i++)
        his[nh++] = v_add(ga->hi[dim][i], d, -1);
    val forms[(2 * MAXB + 2) * 2 * MAXB];
    int nf = 0;
    for (int i = 0; i < nl; i++)
        for (int j = 0; j < nh; j++) {
            if (!may_less(los[i], his[j])) return false;
            forms[nf++] = v_add(v_add(his[j], los[i], -1), v_const(1), -1); /* hi - lo - 1 >= 0 */
        }
    if (!may_all_hold(forms, nf)) return false;
    /* the other dimensions: each guard alone must be satisfiable */
    return true;
}

/* In the same warp for sure: both guards keep the linear index below 32 (1-D kernels). */
static bool same_warp(const ls *s, const guard *a, const guard *b)
{
    if (s->lanes_used[1] || s->lanes_used[2]) return false;
    const guard *gs[2] = {a, b};
    for (int k = 0; k < 2; k++) {
        bool ok = false;
        for (int j = 0; j < gs[k]->nhi[0]; j++) {
            long long hi;
            if (as_const(&gs[k]->hi[0][j], &hi) && hi <= 32) ok = true;
        }
        if (!ok) return false;
    }
    return true;
}

/* Whether accesses a (one of them writes) can touch the same location from two work-items. */
/* Drops the iteration of per-work-item indices ("@i#3" and "@i#7" are both "@i"): their
 * iterations touch different elements, so only the same iteration can meet itself. */
static val same_iteration(val v)
{
    val r = v;
    r.nt = 0;
    for (int i = 0; i < v.nt; i++) {
        term t = v.t[i];
        if (t.key && t.key[0] == '@') {
            static _Thread_local char names[MAXT][160];
            snprintf(names[i], sizeof names[i], "%.*s", (int)strcspn(t.key, "#"), t.key);
            t.key = names[i];
        }
        add_term(&r, t);
    }
    return r;
}

/* q with delta == q * c, as num/den; false when there is none. */
static bool ratio(val delta, val c, long long *num, long long *den)
{
    if (!c.nt && !c.c) return false;
    /* the first non-zero coefficient of c fixes q */
    long long cn = c.c, dn = delta.c;
    if (!cn && c.nt) {
        cn = c.t[0].coef;
        dn = 0;
        for (int i = 0; i < delta.nt; i++)
            if (!cmp_term(&delta.t[i], &c.t[0])) dn = delta.t[i].coef;
    }
    /* delta * cn == c * dn, term by term */
    val l = v_scale(delta, cn), r = v_scale(c, dn);
    if (!v_equal(&l, &r) &&
        !(l.kind == V_AFFINE && r.kind == V_AFFINE && !l.nt && !r.nt && l.c == r.c))
        return false;
    *num = dn;
    *den = cn;
    return true;
}

/* How addresses A (of access a) and B (of b) can meet: 0 never, 1 from two work-items, 2 only
 * from one and the same, 3 always (the same address for every work-item). */
static int relation(const ls *s, val A, int sa, val B, int sb, const ls_access *a,
                    const ls_access *b)
{
    if (A.kind != V_AFFINE || B.kind != V_AFFINE) return 1;
    if (A.inj != B.inj) return 1;
    if (v_equal(&A, &B) && sa == sb) {
        /* the same address expression: the same work-item, unless it names no work-item */
        bool lanes = false;
        for (int i = 0; i < A.nt; i++)
            lanes |= A.t[i].lane != 0;
        return lanes ? 2 : 3; /* 3: the same for every work-item */
    }
    if (sa != sb || !sa) return 1;
    /* split into the work-item's terms and the uniform rest */
    val la = v_const(0), lb = v_const(0), ua = A, ub = B;
    ua.nt = ub.nt = 0;
    ua.inj = ub.inj = 0; /* both under the same one-to-one padding: compare what it pads */
    for (int i = 0; i < A.nt; i++)
        add_term(A.t[i].lane ? &la : &ua, A.t[i]);
    for (int i = 0; i < B.nt; i++)
        add_term(B.t[i].lane ? &lb : &ub, B.t[i]);
    val delta = same_iteration(v_add(ub, ua, -1)); /* A(v) = B(v') <=> la(v) - lb(v') = delta */
    bool one_dim = la.nt > 0;
    for (int i = 0; i < la.nt; i++)
        one_dim &= la.t[i].lane == la.t[0].lane;
    if (v_equal(&la, &lb) && one_dim && (la.nt > 1 || la.t[0].key)) {
        /* a coefficient that is a uniform value (2 * d * tid): v - v' = delta / c */
        val c = v_const(0);
        for (int i = 0; i < la.nt; i++)
            add_term(&c, (term){la.t[i].key, 0, la.t[i].coef});
        if (!c.nt) c.c = la.t[0].coef;
        long long num, den;
        if (delta.kind == V_AFFINE && !delta.nt && !delta.c) return 2; /* the same one */
        if (!ratio(delta, c, &num, &den)) return 1;
        if (num % den) return 0; /* no whole number of work-items apart */
        if (num == 0) return 2;
        return feasible(a->g, b->g, la.t[0].lane - 1, v_const(num / den)) ? 1 : 0;
    }
    if (v_equal(&la, &lb) && la.nt == 1 && !la.t[0].key) {
        long long c = la.t[0].coef, k;
        int dim = la.t[0].lane - 1;
        val d;
        if (as_const(&delta, &k)) {
            if (k % c) return 0;
            if (k == 0) return 2;
            d = v_const(k / c);
        } else {
            d = v_const(delta.c);
            if (delta.c % c) return 1;
            d.c /= c;
            for (int i = 0; i < delta.nt; i++) {
                if (delta.t[i].coef % c) return 1;
                term t = delta.t[i];
                t.coef /= c;
                add_term(&d, t);
            }
        }
        return feasible(a->g, b->g, dim, d) ? 1 : 0;
    }
    if ((la.nt == 0) != (lb.nt == 0)) {
        /* one side names one location for all its work-items: its writer (or reader) on the
         * other side is the work-item whose address is that location */
        const ls_access *one = la.nt == 0 ? a : b, *many = la.nt == 0 ? b : a;
        val lm = la.nt == 0 ? lb : la;
        if (lm.nt != 1 || lm.t[0].key) return 1;
        /* many's lane term must equal the other's address less many's uniform part */
        val dl = la.nt == 0 ? v_scale(delta, -1) : delta;
        long long k;
        long long c = lm.t[0].coef;
        int dim = lm.t[0].lane - 1;
        if (!as_const(&dl, &k)) {
            /* v* = dl / c, symbolic: can it lie in many's bounds? */
            if (dl.c % c) return 0; /* not a whole element apart */
            val vs = v_const(dl.c / c);
            for (int i = 0; i < dl.nt; i++) {
                if (dl.t[i].coef % c) return 1;
                term t = dl.t[i];
                t.coef /= c;
                add_term(&vs, t);
            }
            val f[2 * MAXB + 2];
            int nf = 0;
            f[nf++] = vs; /* v* >= 0 */
            for (int i = 0; i < many->g->nlo[dim] && nf < 2 * MAXB + 2; i++)
                f[nf++] = v_add(vs, many->g->lo[dim][i], -1);
            for (int i = 0; i < many->g->nhi[dim] && nf < 2 * MAXB + 2; i++)
                f[nf++] = v_add(v_add(many->g->hi[dim][i], vs, -1), v_const(1), -1);
            return may_all_hold(f, nf) ? 1 : 0;
        }
        if (k % c) return 0;
        long long v = k / c;
        /* the `many` work-item at v must exist under its guard */
        guard gv;
        g_empty(&gv);
        guard_add(&gv, dim, false, v_const(v));
        guard_add(&gv, dim, true, v_const(v + 1));
        if (!feasible(many->g, &gv, dim, v_const(0))) return 0;
        long long p[3];
        if (pinned(s, one->g, p) && p[dim] == v) {
            bool all = true;
            for (int dd = 0; dd < 3; dd++)
                if (dd != dim && s->lanes_used[dd]) all = false;
            if (all) return 2;
        }
        return 1;
    }
    return 1;
}

static bool conflict(const ls *s, const ls_access *a, const ls_access *b)
{
    /* a read and a write: two writes of one location are a race CUDA has too, not lockstep */
    if (a->write == b->write) return false;
    long long pa[3], pb[3]; /* one and the same work-item does both */
    if (pinned(s, a->g, pa) && pinned(s, b->g, pb) && !memcmp(pa, pb, sizeof pa)) return false;
    if (a->base && b->base && a->base != b->base) return false;
    if (a->wepoch != b->wepoch && same_warp(s, a->g, b->g)) return false; /* __syncwarp */
    if (!a->base || !b->base) return true;
    if (a->nidx && a->nidx == b->nidx) {
        /* a multi-dimensional array, every index in bounds: the same element means the same
         * index in every dimension; and the same address (both must be possible: the
         * dimensions one by one miss that temp[m - t + 1][t + 1] and temp[m - u][u] are never
         * one element, the address sees it) */
        bool two = false, everyone = true;
        for (int d = 0; d < a->nidx; d++) {
            int r = relation(s, a->idx[d], 1, b->idx[d], 1, a, b);
            if (r == 0) return false;
            two |= r == 1;
            everyone &= r == 3;
        }
        if (!two && !everyone) return false;
    }
    int r = relation(s, a->addr, a->size, b->addr, b->size, a, b);
    return r == 1 || r == 3;
}

static void copy_frame(frame *dst, const frame *src);

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
        g_copy(g, &s->g);
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
        copy_frame(&saved, s->fr); /* evaluated again: no side effect twice */
        val v[4];
        for (int d = 0; d < depth; d++)
            v[d] = eval(s, chain[depth - 1 - d]);
        free(s->fr->b);
        *s->fr = saved;
        s->nacc = na, s->npending = np, s->npairs = npr; /* their loads were counted already */
        copy_n(s->acc[id].idx, v, (size_t)depth * sizeof *v);
        s->acc[id].nidx = depth;
    }
    for (int i = 0; i < s->npending; i++)
        record_pair(s, s->pending[i], id);
    if (s->npending == s->cappending) {
        int cap = s->cappending ? s->cappending * 2 : 64;
        int *n = realloc(s->pending, (size_t)cap * sizeof *n);
        if (!n) abort();
        s->pending = n;
        s->cappending = cap;
    }
    s->pending[s->npending++] = id;
}

static bool is_builtin_member(tr_expr *e, int *kind, int *dim)
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
static val ptr_of(ls *s, tr_sym *sym)
{
    val v = v_const(0);
    int esize = type_size(sym->type.base);
    if (sym->kind == TR_SYM_SHARED || sym->kind == TR_SYM_DYN_SHARED) {
        v.kind = V_SHARED_PTR;
        v.base = sym;
        if (sym->ndims > 1) { /* a row is the product of the inner dimensions */
            for (int d = 1; d < sym->ndims; d++) {
                val dv = sym->dims[d] ? eval(s, sym->dims[d]) : v_unknown();
                long long k;
                if (!as_const(&dv, &k)) return v.esize = 0, v;
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
static val address(ls *s, tr_expr *e, int *size)
{
    *size = 0;
    switch (e->kind) {
    case TR_E_INDEX: {
        val p = eval(s, e->a);
        val i = eval(s, e->b);
        if (p.kind != V_SHARED_PTR) return p.kind == V_OTHER_PTR ? p : v_unknown();
        /* a row of a multi-dimensional array: its elements are rows too */
        int es = p.esize;
        tr_expr *b = e->a;
        int depth = 1;
        while (b->kind == TR_E_INDEX)
            b = b->a, depth++;
        if (b->kind == TR_E_IDENT && b->sym && b->sym->ndims > 1 && depth < b->sym->ndims) {
            es = type_size(b->sym->type.base);
            for (int d = depth + 1; d < b->sym->ndims; d++) {
                val dv = b->sym->dims[d] ? eval(s, b->sym->dims[d]) : v_unknown();
                long long k;
                if (!as_const(&dv, &k)) es = 0;
                es *= (int)k;
            }
        }
        val pa = p;
        pa.kind = V_AFFINE;
        val off = p.lost || !p.esize ? v_unknown() : v_add(pa, v_scale(i, p.esize), 1);
        if (i.inj && !p.lost && !p.c && !p.nt && !p.inj) {
            off = i; /* base[x + (x >> k)]: the element x names, one-to-one */
            off.kind = V_AFFINE;
        }
        if (off.kind == V_UNKNOWN) off = v_const(0), off.lost = true; /* in base, somewhere */
        off.kind = V_SHARED_PTR;
        off.base = p.base;
        off.esize = es;
        *size = p.esize;
        return off;
    }
    case TR_E_UNARY:
        if (!strcmp(e->text, "*")) {
            val p = eval(s, e->a);
            *size = p.esize;
            return p;
        }
        return v_unknown();
    case TR_E_MEMBER:
        if (!strcmp(e->text, "->")) {
            val p = eval(s, e->a);
            *size = p.esize;
            return p;
        }
        return address(s, e->a, size);
    default:
        return v_unknown();
    }
}

/* A load or store through an lvalue: recorded when it is shared memory. */
static void touch(ls *s, tr_expr *lv, bool write)
{
    int size;
    val a = address(s, lv, &size);
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
    if (!size || a.lost) addr = v_unknown();
    if (a.inj) size = 1; /* counted in elements of one padding function */
    add_access(s, base, addr, size, write, lv);
}

static bool lvalue_is_var(tr_expr *e)
{
    return e->kind == TR_E_IDENT && e->sym && !e->sym->ndims &&
           (e->sym->kind == TR_SYM_LOCAL || e->sym->kind == TR_SYM_PARAM);
}

static val call_user(ls *s, tr_expr *e, tr_func *g);

static val eval(ls *s, tr_expr *e)
{
    if (!e) return v_unknown();
    int bk, dim;
    if (is_builtin_member(e, &bk, &dim)) {
        static const char *const keys[4][3] = {{"", "", ""},
                                               {"blockIdx.x", "blockIdx.y", "blockIdx.z"},
                                               {"blockDim.x", "blockDim.y", "blockDim.z"},
                                               {"gridDim.x", "gridDim.y", "gridDim.z"}};
        if (bk == TR_B_THREAD) {
            s->lanes_used[dim] = true;
            return v_term(NULL, dim + 1, 1);
        }
        return v_term(intern(s, keys[bk][dim]), 0, 1);
    }
    switch (e->kind) {
    case TR_E_NUM: {
        char *end;
        long long v = (long long)strtoull(e->text, &end, 0);
        if (end != e->text && strspn(end, "uUlL") == strlen(end)) return v_const(v);
        return v_term(intern(s, e->text), 0, 1); /* a float: uniform */
    }
    case TR_E_CHAR:
        return v_const((unsigned char)e->text[1]);
    case TR_E_IDENT: {
        long long k;
        if (!e->sym) {
            if (kept_value(s, e->text, &k)) return v_const(k);
            if (!strcmp(e->text, "warpSize")) return v_const(32);
            if (!strcmp(e->text, "true")) return v_const(1);
            if (!strcmp(e->text, "false")) return v_const(0);
            return v_term(intern(s, e->text), 0, 1);
        }
        tr_sym *sym = e->sym;
        val *b = lookup(s, sym);
        if (b) return *b;
        if (sym->kind == TR_SYM_SHARED || sym->kind == TR_SYM_DYN_SHARED) return ptr_of(s, sym);
        if (sym->type.nptr || sym->ndims) return ptr_of(s, sym); /* not shared */
        if (sym->kind == TR_SYM_PARAM && s->fr->fn == s->kernel) {
            char buf[160];
            snprintf(buf, sizeof buf, "param:%s", sym->name);
            return v_term(intern(s, buf), 0, 1);
        }
        if (sym->kind == TR_SYM_CONSTANT || sym->kind == TR_SYM_GLOBALVAR)
            return v_term(intern(s, sym->name), 0, 1);
        return v_unknown();
    }
    case TR_E_CAST: {
        val v = eval(s, e->a);
        if (e->type->nptr && (v.kind == V_SHARED_PTR || v.kind == V_OTHER_PTR)) {
            v.esize = type_size(e->type->base);
            return v;
        }
        if (e->type->nptr) return v;
        if (!strcmp(e->type->base, "float") || !strcmp(e->type->base, "double"))
            return lane_free(&v) ? opaque(s, "(float)", v, v_const(0)) : v_unknown();
        return v;
    }
    case TR_E_UNARY: {
        if (!strcmp(e->text, "&")) {
            int size;
            val a = address(s, e->a, &size);
            if (a.kind == V_SHARED_PTR) a.esize = size;
            if (e->a->kind == TR_E_IDENT && e->a->sym) return ptr_of(s, e->a->sym);
            return a;
        }
        if (!strcmp(e->text, "*")) {
            touch(s, e, false);
            val p = eval(s, e->a);
            return lane_free(&p) ? v_term(fresh(s, "load"), 0, 1) : v_unknown();
        }
        val a = eval(s, e->a);
        if (!strcmp(e->text, "-")) return v_scale(a, -1);
        if (!strcmp(e->text, "+")) return a;
        if (!strcmp(e->text, "++") || !strcmp(e->text, "--")) {
            if (lvalue_is_var(e->a)) {
                val nv = v_add(a, v_const(1), e->text[0] == '+' ? 1 : -1);
                bind(s, e->a->sym, nv);
                return nv;
            }
            touch(s, e->a, false);
            touch(s, e->a, true);
            return v_unknown();
        }
        return opaque(s, e->text, a, v_const(0));
    }
    case TR_E_POSTFIX: {
        val a = eval(s, e->a);
        if (lvalue_is_var(e->a)) {
            bind(s, e->a->sym, v_add(a, v_const(1), e->text[0] == '+' ? 1 : -1));
            return a;
        }
        touch(s, e->a, false);
        touch(s, e->a, true);
        return v_unknown();
    }
    case TR_E_INDEX:
    case TR_E_MEMBER: {
        if (e->kind == TR_E_MEMBER && strcmp(e->text, "->")) {
            /* a vector member: a part of its value (or a load of it) */
            val v = eval(s, e->a);
            return lane_free(&v) ? v_term(fresh(s, "member"), 0, 1) : v_unknown();
        }
        int size;
        val a = address(s, e, &size);
        /* a row of a multi-dimensional array is an address, not a load */
        tr_expr *b = e;
        int depth = 0;
        while (b->kind == TR_E_INDEX)
            b = b->a, depth++;
        if (b->kind == TR_E_IDENT && b->sym && b->sym->ndims > depth) return a;
        touch(s, e, false);
        return a.kind != V_UNKNOWN && lane_free(&a) ? v_term(fresh(s, "load"), 0, 1) : v_unknown();
    }
    case TR_E_BINARY: {
        val a = eval(s, e->a), b = eval(s, e->b);
        const char *op = e->text;
        bool pa = a.kind == V_SHARED_PTR || a.kind == V_OTHER_PTR;
        bool pb = b.kind == V_SHARED_PTR || b.kind == V_OTHER_PTR;
        if ((!strcmp(op, "+") || !strcmp(op, "-")) && (pa != pb)) {
            /* pointer arithmetic: in bytes of the pointee */
            val p = pa ? a : b, k = pa ? b : a;
            if (!pa && !strcmp(op, "-")) return v_unknown();
            val off = p;
            off.kind = V_AFFINE;
            val r = p.lost || k.kind != V_AFFINE || !p.esize
                        ? v_unknown()
                        : v_add(off, v_scale(k, p.esize), !strcmp(op, "+") ? 1 : -1);
            if (r.kind == V_UNKNOWN) r = v_const(0), r.lost = true;
            r.kind = p.kind;
            r.base = p.base;
            r.esize = p.esize;
            return r;
        }
        if (!strcmp(op, "+")) return v_add(a, b, 1);
        if (!strcmp(op, "-")) return pa && pb ? v_unknown() : v_add(a, b, -1);
        if (!strcmp(op, "*")) return v_mul(s, a, b);
        long long k;
        if ((!strcmp(op, "/") || !strcmp(op, ">>")) && as_const(&b, &k) &&
            k == (op[0] == '/' ? 32 : 5) && a.kind == V_AFFINE && a.nt == 1 && !a.c &&
            a.t[0].lane == 1 && !a.t[0].key && a.t[0].coef == 1)
            return v_term(NULL, 4, 1); /* threadIdx.x / 32: the warp index */
        if (!strcmp(op, "<<") && as_const(&b, &k) && k >= 0 && k < 31) return v_scale(a, 1ll << k);
        if (!strcmp(op, "&&") || !strcmp(op, "||")) {
            long long x, y;
            if (as_const(&a, &x) && as_const(&b, &y))
                return v_const(op[0] == '&' ? (x && y) : (x || y));
        }
        if (as_const(&a, &k)) {
            long long y;
            if (as_const(&b, &y)) {
                if (!strcmp(op, "<")) return v_const(k < y);
                if (!strcmp(op, ">")) return v_const(k > y);
                if (!strcmp(op, "<=")) return v_const(k <= y);
                if (!strcmp(op, ">=")) return v_const(k >= y);
                if (!strcmp(op, "==")) return v_const(k == y);
                if (!strcmp(op, "!=")) return v_const(k != y);
                if (!strcmp(op, "/") && y) return v_const(k / y);
                if (!strcmp(op, "%") && y) return v_const(k % y);
                if (!strcmp(op, ">>") && y >= 0 && y < 63) return v_const(k >> y);
                if (!strcmp(op, "&")) return v_const(k & y);
                if (!strcmp(op, "|")) return v_const(k | y);
                if (!strcmp(op, "^")) return v_const(k ^ y);
            }
        }
        return opaque(s, op, a, b);
    }
    case TR_E_ASSIGN: {
        val r = eval(s, e->b);
        if (lvalue_is_var(e->a)) {
            val cur = eval(s, e->a);
            val nv = r;
            tr_expr *sh = e->b;
            long long k;
            val kv;
            if (!strcmp(e->text, "+=") && sh->kind == TR_E_BINARY && !strcmp(sh->text, ">>") &&
                sh->a->kind == TR_E_IDENT && sh->a->sym == e->a->sym &&
                (kv = eval(s, sh->b), as_const(&kv, &k)) && k > 0 && k < 31 &&
                cur.kind == V_AFFINE && !cur.inj) {
                /* x += x >> k */
                cur.inj = (int)k;
                bind(s, e->a->sym, cur);
                return cur;
            }
            if (strcmp(e->text, "=")) {
                char op[4];
                snprintf(op, sizeof op, "%.*s", (int)strlen(e->text) - 1, e->text);
                nv = !strcmp(op, "+")   ? v_add(cur, r, 1)
                     : !strcmp(op, "-") ? v_add(cur, r, -1)
                     : !strcmp(op, "*") ? v_mul(s, cur, r)
                                        : opaque(s, op, cur, r);
                if (!strcmp(op, "<<") && as_const(&r, &k) && k >= 0 && k < 31)
                    nv = v_scale(cur, 1ll << k);
            }
            bind(s, e->a->sym, nv);
            return nv;
        }
        if (e->a->kind == TR_E_IDENT) {
            eval(s, e->a);
            return r;
        }
        if (strcmp(e->text, "=")) touch(s, e->a, false);
        /* the address's own loads (s[s[i]] = ...) */
        if (e->a->kind == TR_E_INDEX) eval(s, e->a->b);
        touch(s, e->a, true);
        return r;
    }
    case TR_E_COND: {
        val c = eval(s, e->a);
        long long k;
        if (as_const(&c, &k)) return k ? eval(s, e->b) : eval(s, e->c);
        val a = eval(s, e->b), b = eval(s, e->c);
        if (v_equal(&a, &b)) return a;
        if (a.kind == V_SHARED_PTR || b.kind == V_SHARED_PTR) { /* one of two: somewhere */
            val r = a.kind == V_SHARED_PTR ? a : b;
            r.lost = true;
            if (a.kind != b.kind || a.base != b.base) r.base = NULL;
            return r;
        }
        if (a.kind == V_OTHER_PTR && b.kind == V_OTHER_PTR) return a;
        if (lane_free(&a) && lane_free(&b) && lane_free(&c)) return v_term(fresh(s, "cond"), 0, 1);
        return v_unknown();
    }
    case TR_E_COMMA:
        eval(s, e->a);
        return eval(s, e->b);
    case TR_E_INIT:
        for (int i = 0; i < e->nargs; i++)
            eval(s, e->args[i]);
        return v_unknown();
    case TR_E_SIZEOF_TYPE:
        return v_const(type_size(e->type->base) ? type_size(e->type->base) : 4);
    case TR_E_SIZEOF_EXPR:
        return v_term(intern(s, "sizeof"), 0, 1);
    case TR_E_CALL: {
        if (e->a->kind != TR_E_IDENT) return v_unknown();
        const char *name = e->a->text;
        tr_func *g = find_body(s, name);
        if (g) return call_user(s, e, g);
        if (tl_is_overloaded(s->u, name)) {
            /* an overload its argument types choose later: every one that could be is walked,
             * so that none of their shared-memory accesses goes unchecked */
            val r = v_unknown();
            int n = 0;
            for (int i = 0; i < s->u->nfuncs; i++) {
                tr_func *f = s->u->funcs[i];
                if (f->body && f->src_name && !strcmp(f->src_name, name) &&
                    f->nparams == e->nargs) {
                    r = call_user(s, e, f);
                    n++;
                }
            }
            if (n) return n == 1 ? r : v_unknown();
        }
        if (!strcmp(name, "__syncthreads")) {
            s->npending = 0;
            return v_const(0);
        }
        if (!strcmp(name, "__syncwarp")) {
            s->wepoch++;
            return v_const(0);
        }
        const tr_callmap *m = tr_map_call(name);
        bool atomic = m && m->kind == TR_CALL_ATOMIC;
        bool all_uniform = true;
        for (int i = 0; i < e->nargs; i++) {
            if (atomic && i == 0) { /* atomics on shared memory do not race */
                int size;
                val a = address(s, e->args[0], &size);
                (void)a;
                if (e->args[0]->kind == TR_E_UNARY && !strcmp(e->args[0]->text, "&"))
                    address(s, e->args[0]->a, &size);
                continue;
            }
            val a = eval(s, e->args[i]);
            all_uniform &= lane_free(&a);
        }
        if (m && m->kind == TR_CALL_SIMD) {
            s->simd = true;
            return v_unknown();
        }
        return all_uniform && !atomic ? v_term(fresh(s, name), 0, 1) : v_unknown();
    }
    default:
        return v_unknown();
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
                args[i] = v_term(fresh(s, "ref"), 0, 1), args[i].kind = V_OTHER_PTR;
            else {
                args[i] = address(s, a, &size);
                if (args[i].kind == V_SHARED_PTR) args[i].esize = size;
                if (args[i].kind == V_UNKNOWN) args[i].kind = V_OTHER_PTR;
            }
        } else {
            args[i] = eval(s, e->args[i]);
        }
    }
    if (s->depth >= MAX_DEPTH && !s->too_big)
        s->too_big = "device-function calls nested too deep", s->too_big_at = e;
    if (s->depth >= MAX_DEPTH || g->visiting_lockstep || n != g->nparams) return v_unknown();
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
        bind(s, g->params[i], args[i]);
    s->depth++;
    g->visiting_lockstep = true;
    walk(s, g->body);
    g->visiting_lockstep = false;
    s->depth--;
    s->fr = saved;
    val r = f.has_ret ? f.ret : v_unknown();
    free(f.b);
    return r;
}

/* ---- statements -------------------------------------------------------------------------- */
/* Narrows the guard by a condition (or by its negation): comparisons of the work-item's index
 * with a uniform value, joined by &&. */
static void narrow(ls *s, guard *g, tr_expr *cond, bool negate)
{
    if (cond->kind == TR_E_BINARY && !strcmp(cond->text, "&&") && !negate) {
        narrow(s, g, cond->a, false);
        narrow(s, g, cond->b, false);
        return;
    }
    if (cond->kind == TR_E_UNARY && !strcmp(cond->text, "!")) {
        narrow(s, g, cond->a, !negate);
        return;
    }
    if (cond->kind != TR_E_BINARY) return;
    if ((!strcmp(cond->text, "==") && !negate) || (!strcmp(cond->text, "!=") && negate)) {
        /* (tid % m) == r: the work-items a step of an interleaved reduction keeps */
        tr_expr *m = cond->a, *r = cond->b;
        if (!(m->kind == TR_E_BINARY && !strcmp(m->text, "%"))) m = cond->b, r = cond->a;
        if (m->kind == TR_E_BINARY && !strcmp(m->text, "%")) {
            int save_nacc = s->nacc, save_np = s->npending, save_pairs = s->npairs;
            val x = eval(s, m->a), mv = eval(s, m->b), rv = eval(s, r);
            s->nacc = save_nacc, s->npending = save_np, s->npairs = save_pairs;
            if (x.kind == V_AFFINE && x.nt == 1 && !x.c && x.t[0].lane && !x.t[0].key &&
                x.t[0].coef == 1 && lane_free(&mv) && lane_free(&rv)) {
                int d = x.t[0].lane - 1;
                if (g->has_mod[d]) return; /* the first is kept (g_restore relies on it) */
                g->has_mod[d] = true;
                g->mod[d] = mv;
                g->rem[d] = rv;
            }
            return;
        }
    }
    static const char *const ops[] = {"<", "<=", ">", ">=", "==", "!="};
    int op = -1;
    for (int i = 0; i < 6; i++)
        if (!strcmp(cond->text, ops[i])) op = i;
    if (op < 0) return;
    int save_nacc = s->nacc, save_np = s->npending, save_pairs = s->npairs;
    val a = eval(s, cond->a), b = eval(s, cond->b);
    s->nacc = save_nacc, s->npending = save_np, s->npairs = save_pairs; /* no accesses twice */
    val d = v_add(a, b, -1);                                            /* d op 0 */
    if (d.kind != V_AFFINE) return;
    int lane = -1;
    long long c = 0;
    val rest = d;
    rest.nt = 0;
    for (int i = 0; i < d.nt; i++) {
        if (d.t[i].lane && !d.t[i].key && lane < 0) {
            lane = d.t[i].lane - 1;
            c = d.t[i].coef;
        } else if (d.t[i].lane) {
            return;
        } else {
            add_term(&rest, d.t[i]);
        }
    }
    if (lane < 0 || (c != 1 && c != -1)) return;
    /* c * v + rest op 0: v op' -rest (c = 1) or v op'' rest (c = -1, the comparison mirrored) */
    static const int mirror[] = {2, 3, 0, 1, 4, 5}, neg[] = {3, 2, 1, 0, 5, 4};
    if (c < 0) op = mirror[op];
    if (negate) op = neg[op];
    val x = c > 0 ? v_scale(rest, -1) : rest;
    switch (op) {
    case 0:
        guard_add(g, lane, true, x);
        break;
    case 1:
        guard_add(g, lane, true, v_add(x, v_const(1), 1));
        break;
    case 2:
        guard_add(g, lane, false, v_add(x, v_const(1), 1));
        break;
    case 3:
        guard_add(g, lane, false, x);
        break;
    case 4:
        guard_add(g, lane, false, x);
        guard_add(g, lane, true, v_add(x, v_const(1), 1));
        break;
    default:
        break;
    }
}

/* `tid < 32` on the linear index of a 1-D kernel: the region is the first warp, the place of a
 * warp-synchronous tail. */
static bool warp0_guard(ls *s, tr_expr *cond)
{
    guard g;
    g_empty(&g);
    narrow(s, &g, cond, false);
    for (int j = 0; j < g.nhi[0]; j++) {
        long long hi;
        if (as_const(&g.hi[0][j], &hi) && hi == 32) return true;
    }
    return false;
}

static void collect_assigned(tr_stmt *st, ls *s);

static void collect_assigned_expr(tr_expr *e, ls *s)
{
    if (!e) return;
    if ((e->kind == TR_E_ASSIGN || e->kind == TR_E_POSTFIX ||
         (e->kind == TR_E_UNARY && (!strcmp(e->text, "++") || !strcmp(e->text, "--")))) &&
        e->a && lvalue_is_var(e->a)) {
        bool seen = false;
        for (int i = 0; i < s->nloop_vars; i++)
            seen |= s->loop_vars[i] == e->a->sym;
        if (!seen && s->nloop_vars < 64) s->loop_vars[s->nloop_vars++] = e->a->sym;
    }
    collect_assigned_expr(e->a, s);
    collect_assigned_expr(e->b, s);
    collect_assigned_expr(e->c, s);
    for (int i = 0; i < e->nargs; i++)
        collect_assigned_expr(e->args[i], s);
}

static void collect_assigned(tr_stmt *st, ls *s)
{
    if (!st) return;
    collect_assigned_expr(st->e, s);
    collect_assigned_expr(st->cond, s);
    collect_assigned_expr(st->step, s);
    for (int i = 0; i < st->ndecls; i++)
        collect_assigned_expr(st->decls[i].init, s);
    collect_assigned(st->init, s);
    collect_assigned(st->body, s);
    collect_assigned(st->els, s);
    for (int i = 0; i < st->n; i++)
        collect_assigned(st->list[i], s);
}

/* A variable a loop assigns has a value per iteration: uniform ones become a fresh uniform
 * term, index-like ones (i = tid; i += blockDim.x) keep their work-item part plus a fresh term. */
static void widen(ls *s, int from)
{
    for (int i = from; i < s->nloop_vars; i++) {
        tr_sym *sym = s->loop_vars[i];
        val *v = lookup(s, sym);
        if (!v) continue;
        if (v->kind != V_AFFINE) {
            *v = v_unknown();
            continue;
        }
        val w = v_const(0);
        for (int k = 0; k < v->nt; k++)
            if (v->t[k].lane) add_term(&w, v->t[k]);
        /* "@i": the per-iteration part of an index that follows the work-item (i = tid;
         * i += blockDim.x), whose iterations touch different elements */
        char name[80];
        snprintf(name, sizeof name, "%s%.70s", w.nt ? "@" : "", sym->name);
        if (!add_term(&w, (term){fresh(s, name), 0, 1})) w = v_unknown();
        *v = w;
    }
}

static void copy_frame(frame *dst, const frame *src)
{
    *dst = *src;
    dst->b = malloc((size_t)(src->cap ? src->cap : 1) * sizeof *dst->b);
    if (!dst->b) abort();
    copy_n(dst->b, src->b, (size_t)src->nb * sizeof *dst->b);
}

/* After two branches: what both agree on stays, the rest becomes per-group or unknown. */
static void merge_frames(ls *s, frame *a, const frame *b)
{
    for (int i = 0; i < a->nb; i++) {
        const val *vb = NULL;
        for (int j = 0; j < b->nb; j++)
            if (b->b[j].sym == a->b[i].sym) vb = &b->b[j].v;
        if (!vb || v_equal(&a->b[i].v, vb)) continue;
        val *va = &a->b[i].v;
        if (lane_free(va) && lane_free(vb)) {
            *va = v_term(fresh(s, a->b[i].sym->name), 0, 1);
        } else if (va->kind == V_AFFINE && vb->kind == V_AFFINE) {
            val la = v_const(0), lb = v_const(0);
            for (int k = 0; k < va->nt; k++)
                if (va->t[k].lane) add_term(&la, va->t[k]);
            for (int k = 0; k < vb->nt; k++)
                if (vb->t[k].lane) add_term(&lb, vb->t[k]);
            if (v_equal(&la, &lb)) {
                add_term(&la, (term){fresh(s, a->b[i].sym->name), 0, 1});
                *va = la;
            } else {
                *va = v_unknown();
            }
        } else if (va->kind == V_SHARED_PTR || vb->kind == V_SHARED_PTR) {
            /* a pointer that may be into shared memory, somewhere */
            if (va->kind != V_SHARED_PTR || vb->kind != V_SHARED_PTR || va->base != vb->base)
                va->base = NULL;
            va->kind = V_SHARED_PTR;
            va->nt = 0;
            va->lost = true;
        } else {
            *va = v_unknown();
        }
    }
    for (int j = 0; j < b->nb; j++) { /* declared in b only: not visible after */
    }
}

static void pending_union(ls *s, const int *other, int n)
{
    for (int i = 0; i < n; i++) {
        bool have = false;
        for (int k = 0; k < s->npending; k++)
            have |= s->pending[k] == other[i];
        if (have) continue;
        if (s->npending == s->cappending) {
            int cap = s->cappending ? s->cappending * 2 : 64;
            int *np = realloc(s->pending, (size_t)cap * sizeof *np);
            if (!np) abort();
            s->pending = np;
            s->cappending = cap;
        }
        s->pending[s->npending++] = other[i];
    }
}

/* `for (...; v > 0; v >>= 1)` (or v /= 2, v >= 1): its last iteration has v == 1 — the one
 * where a tree of halving steps has a single work-item left. NULL when the loop is not one. */
static tr_sym *halving_var(tr_stmt *st)
{
    if (st->kind != TR_S_FOR || !st->cond || !st->step) return NULL;
    tr_expr *c = st->cond, *k = st->step;
    if (c->kind != TR_E_BINARY || c->a->kind != TR_E_IDENT || !c->a->sym) return NULL;
    tr_sym *v = c->a->sym;
    bool pos = (!strcmp(c->text, ">") && c->b->kind == TR_E_NUM && !strcmp(c->b->text, "0")) ||
               (!strcmp(c->text, ">=") && c->b->kind == TR_E_NUM && !strcmp(c->b->text, "1"));
    bool halves = k->kind == TR_E_ASSIGN && k->a->kind == TR_E_IDENT && k->a->sym == v &&
                  k->b->kind == TR_E_NUM &&
                  ((!strcmp(k->text, ">>=") && !strcmp(k->b->text, "1")) ||
                   (!strcmp(k->text, "/=") && !strcmp(k->b->text, "2")));
    return pos && halves ? v : NULL;
}

static void save_pending(ls *s, int **out, int *n)
{
    *n = s->npending;
    *out = malloc((size_t)(*n ? *n : 1) * sizeof **out);
    if (!*out) abort();
    copy_n(*out, s->pending, (size_t)*n * sizeof **out);
}

static void loop_pass(ls *s, tr_stmt *st, int from, tr_sym *last)
{
    widen(s, from);
    if (last) bind(s, last, v_const(1));
    gmark saved = g_mark(&s->g);
    if (st->cond) {
        eval(s, st->cond);
        narrow(s, &s->g, st->cond, false);
        s->gsnap = NULL;
    }
    walk(s, st->body);
    if (st->step) eval(s, st->step);
    g_restore(&s->g, &saved);
    s->gsnap = NULL;
}

static void walk_loop(ls *s, tr_stmt *st)
{
    int from = s->nloop_vars;
    collect_assigned(st, s);
    if (st->init) walk(s, st->init);
    int *before, nbefore, *between, nbetween;
    save_pending(s, &before, &nbefore); /* a loop may run no iteration at all */
    /* twice: the second pass meets the pending accesses of the first as a next iteration */
    loop_pass(s, st, from, NULL);
    save_pending(s, &between, &nbetween);
    loop_pass(s, st, from, NULL);
    tr_sym *last = halving_var(st);
    if (last) {
        /* what leaves the loop is what its last iteration left pending */
        copy_n(s->pending, between, (size_t)nbetween * sizeof *between);
        s->npending = nbetween;
        loop_pass(s, st, from, last);
    }
    pending_union(s, before, nbefore);
    free(before);
    free(between);
    widen(s, from);
    s->nloop_vars = from;
}

static void walk(ls *s, tr_stmt *st)
{
    if (!st) return;
    switch (st->kind) {
    case TR_S_BLOCK:
        for (int i = 0; i < st->n; i++)
            walk(s, st->list[i]);
        return;
    case TR_S_DECL:
        for (int i = 0; i < st->ndecls; i++) {
            tr_sym *sym = st->decls[i].sym;
            if (sym->kind == TR_SYM_SHARED || sym->kind == TR_SYM_DYN_SHARED) continue;
            if (sym->ndims) {
                bind(s, sym, ptr_of(s, sym));
                if (st->decls[i].init) eval(s, st->decls[i].init);
                continue;
            }
            val v = st->decls[i].init ? eval(s, st->decls[i].init) : v_unknown();
            if (sym->type.nptr && v.kind == V_AFFINE) v = v_unknown();
            if (sym->type.nptr && st->decls[i].init && v.kind != V_SHARED_PTR)
                v.kind = v.kind == V_UNKNOWN && st->decls[i].init ? V_UNKNOWN : V_OTHER_PTR;
            if (sym->type.nptr && (v.kind == V_SHARED_PTR || v.kind == V_OTHER_PTR))
                v.esize = type_size(sym->type.base);
            bind(s, sym, v);
        }
        return;
    case TR_S_EXPR:
    case TR_S_CASE:
        eval(s, st->e);
        return;
    case TR_S_RETURN: {
        val v = st->e ? eval(s, st->e) : v_unknown();
        if (!s->fr->has_ret)
            s->fr->ret = v, s->fr->has_ret = true;
        else if (!v_equal(&s->fr->ret, &v))
            s->fr->ret = v_unknown();
        return;
    }
    case TR_S_IF: {
        val c = eval(s, st->cond);
        long long k;
        if (as_const(&c, &k)) { /* a template constant: only the branch taken exists */
            walk(s, k ? st->body : st->els);
            return;
        }
        gmark saved = g_mark(&s->g);
        tr_stmt *saved_region = s->region;
        tr_func *saved_rfn = s->region_fn;
        int np = s->npending;
        int *before = malloc((size_t)(np ? np : 1) * sizeof *before);
        if (!before) abort();
        copy_n(before, s->pending, (size_t)np * sizeof *before);
        frame fe;
        copy_frame(&fe, s->fr);
        narrow(s, &s->g, st->cond, false);
        s->gsnap = NULL;
        if (!s->region && warp0_guard(s, st->cond)) s->region = st, s->region_fn = s->fr->fn;
        int first_then = s->nacc;
        walk(s, st->body);
        int last_then = s->nacc;
        s->region = saved_region, s->region_fn = saved_rfn;
        /* the else branch starts from the state before the if */
        int nthen = s->npending;
        int *after_then = malloc((size_t)(nthen ? nthen : 1) * sizeof *after_then);
        if (!after_then) abort();
        copy_n(after_then, s->pending, (size_t)nthen * sizeof *after_then);
        copy_n(s->pending, before, (size_t)np * sizeof *before);
        s->npending = np;
        frame ft = *s->fr;
        *s->fr = fe;
        g_restore(&s->g, &saved);
        narrow(s, &s->g, st->cond, true);
        s->gsnap = NULL;
        int first_else = s->nacc;
        walk(s, st->els);
        g_restore(&s->g, &saved);
        s->gsnap = NULL;
        /* work-items in one branch run alongside those in the other */
        for (int i = first_then; i < last_then; i++)
            for (int j = first_else; j < s->nacc; j++)
                record_pair(s, i, j);
        pending_union(s, after_then, nthen);
        merge_frames(s, s->fr, &ft);
        free(ft.b);
        free(before);
        free(after_then);
        return;
    }
    case TR_S_FOR:
    case TR_S_WHILE:
        walk_loop(s, st);
        return;
    case TR_S_DO: {
        int from = s->nloop_vars;
        collect_assigned(st, s);
        for (int pass = 0; pass < 2; pass++) {
            widen(s, from);
            walk(s, st->body);
            eval(s, st->cond);
        }
        widen(s, from);
        s->nloop_vars = from;
        return;
    }
    case TR_S_SWITCH:
        eval(s, st->cond);
        walk(s, st->body);
        return;
    default:
        return;
    }
}

/* ---- the rewrite of warp-synchronous tails ----------------------------------------------- *
 * In a region `if (tid < 32) { ... }` of a 1-D kernel (or a device function every call of which
 * is in one, with the index as a parameter), where every write to the shared array X is X[tid]
 * and every read is X[tid] or X[tid + c] (c >= 0, the same in every work-item), the lockstep
 * semantics — each statement's loads of the whole warp before its stores — are exactly:
 *     v = X[tid];  per statement: o = shuffle_down(v, c) (X[tid + c] itself where tid + c >= 32,
 *     which no statement writes), then v op= f(...);  at the end X[tid] = v.              */
typedef struct rw {
    ls *s;
    tr_func *fn;
    tr_sym *arr; /* X (its base array, or the pointer parameter) */
    tr_sym *alias[8];
    int nalias;
    tr_expr *lane; /* the work-item's index as the code writes it */
    tr_sym *lane_sym;
    const char *elem;
    tr_sym *v;
    int ntemps;
    tr_stmt **pre; /* statements to put before the current one */
    int npre;
} rw;

static bool is_x(rw *r, tr_expr *e)
{
    if (e->kind != TR_E_IDENT || !e->sym) return false;
    if (e->sym == r->arr) return true;
    for (int i = 0; i < r->nalias; i++)
        if (r->alias[i] == e->sym) return true;
    return false;
}

static bool is_lane(rw *r, tr_expr *e)
{
    if (r->lane_sym) return e->kind == TR_E_IDENT && e->sym == r->lane_sym;
    int bk, dim;
    return is_builtin_member(e, &bk, &dim) && bk == TR_B_THREAD && dim == 0;
}

/* X[lane + c]: c (NULL for X[lane]); false when e is not an access of X at all. */
static bool x_access(rw *r, tr_expr *e, tr_expr **c, bool *other)
{
    *other = false;
    if (e->kind != TR_E_INDEX || !is_x(r, e->a)) return false;
    tr_expr *i = e->b;
    if (is_lane(r, i)) {
        *c = NULL;
        return true;
    }
    if (i->kind == TR_E_BINARY && !strcmp(i->text, "+")) {
        if (is_lane(r, i->a)) {
            *c = i->b;
            return true;
        }
        if (is_lane(r, i->b)) {
            *c = i->a;
            return true;
        }
    }
    *other = true;
    return true;
}

static bool uses_x(rw *r, tr_expr *e)
{
    if (!e) return false;
    if (is_x(r, e)) return true;
    if (uses_x(r, e->a) || uses_x(r, e->b) || uses_x(r, e->c)) return true;
    for (int i = 0; i < e->nargs; i++)
        if (uses_x(r, e->args[i])) return true;
    return false;
}

static tr_expr *mk(rw *r, tr_expr_kind k, const tr_expr *at)
{
    tr_expr *e = tr_alloc(r->s->u, sizeof *e);
    e->kind = k;
    e->file = at->file, e->line = at->line, e->col = at->col;
    return e;
}

static tr_expr *mk_ident(rw *r, tr_sym *sym, const tr_expr *at)
{
    tr_expr *e = mk(r, TR_E_IDENT, at);
    e->sym = sym;
    e->text = sym->name;
    return e;
}

static tr_stmt *mk_stmt(rw *r, tr_stmt_kind k, const tr_expr *at)
{
    tr_stmt *s = tr_alloc(r->s->u, sizeof *s);
    s->kind = k;
    s->file = at->file, s->line = at->line;
    return s;
}

static tr_sym *mk_local(rw *r, const char *name, const tr_expr *at)
{
    tr_sym *sym = tr_alloc(r->s->u, sizeof *sym);
    sym->name = tr_strdup(r->s->u, name);
    sym->kind = TR_SYM_LOCAL;
    sym->type.base = tr_strdup(r->s->u, r->elem);
    sym->owner = r->fn;
    sym->file = at->file, sym->line = at->line, sym->col = at->col;
    return sym;
}

static tr_stmt *mk_decl(rw *r, tr_sym *sym, tr_expr *init)
{
    tr_stmt *st = mk_stmt(r, TR_S_DECL, init);
    st->decls = tr_alloc(r->s->u, sizeof *st->decls);
    st->decls[0] = (tr_decl){sym, init};
    st->ndecls = 1;
    return st;
}

static void push_pre(rw *r, tr_stmt *st)
{
    tr_stmt **n = tr_alloc(r->s->u, (size_t)(r->npre + 1) * sizeof *n);
    if (r->npre) memcpy(n, r->pre, (size_t)r->npre * sizeof *n);
    n[r->npre++] = st;
    r->pre = n;
}

/* Replaces the reads of X in e (false: a use of X the rewrite does not know). */
static bool rewrite_reads(rw *r, tr_expr **pe)
{
    tr_expr *e = *pe;
    if (!e) return true;
    tr_expr *c;
    bool other;
    if (x_access(r, e, &c, &other)) {
        if (other) return false;
        if (!c) {
            *pe = mk_ident(r, r->v, e);
            return true;
        }
        if (uses_x(r, c)) return false;
        /* o = shuffle_down(v, c); if (lane + c >= 32) o = X[lane + c]; */
        char name[48];
        snprintf(name, sizeof name, "lockstep_o%d", ++r->ntemps);
        tr_sym *o = mk_local(r, name, e);
        long long k;
        bool constant = tl_const_int(&(lctx){.u = r->s->u}, c, &k);
        if (constant && k >= 32) {
            push_pre(r, mk_decl(r, o, e)); /* outside the warp: memory nobody writes here */
        } else {
            tr_expr *args[3] = {mk(r, TR_E_NUM, e), mk_ident(r, r->v, e), c};
            args[0]->text = tr_strdup(r->s->u, "0xffffffffu");
            tr_expr *call = mk(r, TR_E_CALL, e);
            call->a = mk(r, TR_E_IDENT, e);
            call->a->text = tr_strdup(r->s->u, "__shfl_down_sync");
            call->nargs = 3;
            call->args = tr_alloc(r->s->u, 3 * sizeof *call->args);
            memcpy(call->args, args, sizeof args);
            call->origin = "the warp-synchronous tail's shuffle";
            push_pre(r, mk_decl(r, o, call));
            if (!constant || k > 0) {
                tr_stmt *iff = mk_stmt(r, TR_S_IF, e);
                tr_expr *sum = mk(r, TR_E_BINARY, e);
                sum->text = tr_strdup(r->s->u, "+");
                sum->a = e->b->kind == TR_E_BINARY && is_lane(r, e->b->a) ? e->b->a : e->b->b;
                sum->b = c;
                tr_expr *ge = mk(r, TR_E_BINARY, e);
                ge->text = tr_strdup(r->s->u, ">=");
                ge->a = sum;
                ge->b = mk(r, TR_E_NUM, e);
                ge->b->text = tr_strdup(r->s->u, "32");
                iff->cond = ge;
                tr_stmt *as = mk_stmt(r, TR_S_EXPR, e);
                tr_expr *asg = mk(r, TR_E_ASSIGN, e);
                asg->text = tr_strdup(r->s->u, "=");
                asg->a = mk_ident(r, o, e);
                asg->b = e;
                as->e = asg;
                iff->body = as;
                push_pre(r, iff);
            }
        }
        *pe = mk_ident(r, o, e);
        return true;
    }
    if (is_x(r, e)) return false; /* X itself, not an element */
    if (e->kind == TR_E_CALL && e->a->kind == TR_E_IDENT && find_body(r->s, e->a->text))
        return !uses_x(r, e);
    if (!rewrite_reads(r, &e->a) || !rewrite_reads(r, &e->b) || !rewrite_reads(r, &e->c))
        return false;
    for (int i = 0; i < e->nargs; i++)
        if (!rewrite_reads(r, &e->args[i])) return false;
    return true;
}

static tr_stmt *rewrite_stmt(rw *r, tr_stmt *st);

/* A statement under a condition: what it needs computed first stays under the condition. */
static tr_stmt *rewrite_child(rw *r, tr_stmt *st)
{
    if (!st || st->kind == TR_S_BLOCK) return rewrite_stmt(r, st);
    tr_stmt **saved = r->pre;
    int nsaved = r->npre;
    r->pre = NULL, r->npre = 0;
    tr_stmt *x = rewrite_stmt(r, st);
    if (x && r->npre) {
        tr_stmt *b = mk_stmt(r, TR_S_BLOCK, &(tr_expr){.file = st->file, .line = st->line});
        b->list = tr_alloc(r->s->u, (size_t)(r->npre + 1) * sizeof *b->list);
        copy_n(b->list, r->pre, (size_t)r->npre * sizeof *b->list);
        b->list[r->npre] = x;
        b->n = r->npre + 1;
        x = b;
    }
    r->pre = saved, r->npre = nsaved;
    return x;
}

/* One statement of the region; its replacement in *out (NULL when it cannot be rewritten). */
static tr_stmt *rewrite_stmt(rw *r, tr_stmt *st)
{
    if (!st) return NULL;
    switch (st->kind) {
    case TR_S_BLOCK: {
        tr_stmt *b = mk_stmt(r, TR_S_BLOCK, &(tr_expr){.file = st->file, .line = st->line});
        for (int i = 0; i < st->n; i++) {
            int before = r->npre;
            tr_stmt **saved = r->pre;
            r->pre = NULL, r->npre = 0;
            tr_stmt *x = rewrite_stmt(r, st->list[i]);
            if (!x) return NULL;
            tr_stmt **nl = tr_alloc(r->s->u, (size_t)(b->n + r->npre + 1) * sizeof *nl);
            if (b->n) memcpy(nl, b->list, (size_t)b->n * sizeof *nl);
            copy_n(nl + b->n, r->pre, (size_t)r->npre * sizeof *nl);
            b->n += r->npre;
            nl[b->n++] = x;
            b->list = nl;
            r->pre = saved, r->npre = before;
        }
        return b;
    }
    case TR_S_DECL:
        for (int i = 0; i < st->ndecls; i++) {
            tr_sym *sym = st->decls[i].sym;
            tr_expr *init = st->decls[i].init;
            if (sym->type.nptr && init && is_x(r, init) && r->nalias < 8) { /* p = X */
                r->alias[r->nalias++] = sym;
                continue;
            }
            if (sym->kind != TR_SYM_LOCAL || sym->type.nptr || sym->ndims) return NULL;
            if (!rewrite_reads(r, &st->decls[i].init)) return NULL;
        }
        return st;
    case TR_S_EXPR: {
        tr_expr *e = st->e;
        tr_expr *c;
        bool other;
        if (e->kind == TR_E_ASSIGN && x_access(r, e->a, &c, &other)) {
            if (other || c) return NULL; /* only a work-item's own element is written */
            if (!rewrite_reads(r, &e->b)) return NULL;
            e->a = mk_ident(r, r->v, e->a);
            return st;
        }
        if (!rewrite_reads(r, &st->e)) return NULL;
        return st;
    }
    case TR_S_IF: {
        /* only conditions every work-item of the warp agrees on */
        int n = r->s->nacc;
        val cv = eval(r->s, st->cond);
        r->s->nacc = n;
        if (!lane_free(&cv) || uses_x(r, st->cond)) return NULL;
        tr_stmt *body = rewrite_child(r, st->body);
        if (!body) return NULL;
        tr_stmt *els = st->els ? rewrite_child(r, st->els) : NULL;
        if (st->els && !els) return NULL;
        st->body = body;
        st->els = els;
        return st;
    }
    case TR_S_EMPTY:
    case TR_S_PRAGMA:
        return st;
    default:
        return NULL;
    }
}

/* Rewrites the statement in *slot (a region's body, or a function's). */
static bool rewrite_region(ls *s, tr_func *fn, tr_stmt **slot, tr_sym *arr, tr_sym *lane_sym,
                           tr_expr *lane, bool *done)
{
    tr_stmt *body = *slot;
    const char *elem = arr->type.base;
    if (strcmp(elem, "float") && strcmp(elem, "int") && strcmp(elem, "unsigned int")) return false;
    rw r = {0};
    r.s = s;
    r.fn = fn;
    r.arr = arr;
    r.lane = lane;
    r.lane_sym = lane_sym;
    r.elem = elem;
    tr_expr at = {.file = body->file, .line = body->line};
    r.v = mk_local(&r, "lockstep_v", &at);
    tr_stmt *b = rewrite_stmt(&r, body);
    if (!b || r.npre) return false;
    if (b->kind != TR_S_BLOCK) {
        tr_stmt *w = mk_stmt(&r, TR_S_BLOCK, &at);
        w->list = tr_alloc(s->u, sizeof *w->list);
        w->list[0] = b;
        w->n = 1;
        b = w;
    }
    /* v = X[lane] first, X[lane] = v last */
    tr_expr *xi = mk(&r, TR_E_INDEX, &at);
    xi->a = mk_ident(&r, arr, &at);
    xi->b = lane;
    tr_expr *xo = mk(&r, TR_E_INDEX, &at);
    xo->a = mk_ident(&r, arr, &at);
    xo->b = lane;
    tr_stmt **nl = tr_alloc(s->u, (size_t)(b->n + 2) * sizeof *nl);
    nl[0] = mk_decl(&r, r.v, xi);
    copy_n(nl + 1, b->list, (size_t)b->n * sizeof *nl);
    tr_stmt *store = mk_stmt(&r, TR_S_EXPR, &at);
    tr_expr *asg = mk(&r, TR_E_ASSIGN, &at);
    asg->text = tr_strdup(s->u, "=");
    asg->a = xo;
    asg->b = mk_ident(&r, r.v, &at);
    store->e = asg;
    nl[b->n + 1] = store;
    tr_stmt *nb = mk_stmt(&r, TR_S_BLOCK, &at);
    nb->list = nl;
    nb->n = b->n + 2;
    *slot = nb;
    *done = true;
    return true;
}

/* ---- per kernel -------------------------------------------------------------------------- */
/* The accesses are forgotten: so are the guards they were made under. */
static void drop_accesses(ls *s)
{
    s->nacc = s->npending = s->npairs = 0;
    for (int i = 0; i < s->nsnaps; i++)
        free(s->snaps[i]);
    s->nsnaps = 0;
    s->gsnap = NULL;
}

static void check_kernel(ls *s, tr_func *k)
{
    s->kernel = k;
    drop_accesses(s);
    s->wepoch = 0;
    g_empty(&s->g);
    s->gsnap = NULL;
    memset(s->lanes_used, 0, sizeof s->lanes_used);
    s->region = NULL;
    s->region_fn = NULL;
    frame f = {0};
    f.fn = k;
    s->fr = &f;
    s->simd = false;
    s->too_big = NULL;
    s->too_big_at = NULL;
    walk(s, k->body);
    if (s->simd && !s->lanes_used[1] && !s->lanes_used[2]) {
        /* a kernel with warp operations runs in whole warps (the runtime refuses other groups):
         * its warp index is below blockDim.x / 32 */
        val bd = v_term(intern(s, "blockDim.x"), 0, 1);
        val w = opaque(s, "/", bd, v_const(32));
        for (int i = 0; i < s->nsnaps; i++)
            guard_add(s->snaps[i], 3, true, w);
    }
    /* the dimensions the kernel uses are known now: which pairs conflict */
    int n = 0;
    for (int p = 0; p < s->npairs; p++)
        if (conflict(s, &s->acc[s->pairs[p][0]], &s->acc[s->pairs[p][1]])) {
            s->pairs[n][0] = s->pairs[p][0];
            s->pairs[n][1] = s->pairs[p][1];
            n++;
        }
    s->npairs = n;
    free(f.b);
}

static const char *expr_line(const tr_unit *u, const ls_access *a, char *buf, size_t cap)
{
    snprintf(buf, cap, "%s:%d", u->pp.files[a->at->file], a->at->line);
    return buf;
}

/* The declaration `T *p = init;` of local pointer p in st, or NULL. */
static tr_expr *decl_init(tr_stmt *st, tr_sym *p)
{
    if (!st) return NULL;
    for (int i = 0; i < st->ndecls; i++)
        if (st->decls[i].sym == p) return st->decls[i].init;
    tr_stmt *kids[3] = {st->init, st->body, st->els};
    for (int i = 0; i < 3; i++) {
        tr_expr *e = decl_init(kids[i], p);
        if (e) return e;
    }
    for (int i = 0; i < st->n; i++) {
        tr_expr *e = decl_init(st->list[i], p);
        if (e) return e;
    }
    return NULL;
}

/* The shared array (or pointer parameter) and index variable of a rewritable tail; an alias
 * (`volatile float *smem = sdata;`) stands for its array. */
static bool tail_parts(ls *s, const ls_access *a, tr_sym **arr, tr_sym **lane_sym)
{
    (void)s;
    tr_expr *x = a->at;
    if (x->kind != TR_E_INDEX || x->a->kind != TR_E_IDENT || !x->a->sym) return false;
    *arr = x->a->sym;
    /* through aliases (`volatile float *smem = sdata;`) to the pointer they all copy */
    for (int hop = 0; hop < 4 && (*arr)->kind == TR_SYM_LOCAL && (*arr)->type.nptr; hop++) {
        tr_expr *init = decl_init(a->fn->body, *arr);
        if (!init || init->kind != TR_E_IDENT || !init->sym) break;
        *arr = init->sym;
    }
    tr_expr *i = x->b;
    if (i->kind == TR_E_BINARY && !strcmp(i->text, "+")) i = i->a->kind == TR_E_IDENT ? i->a : i->b;
    *lane_sym = i->kind == TR_E_IDENT ? i->sym : NULL;
    return true;
}

void tr_lockstep(tr_unit *u, const tr_lower_options *opt)
{
    if (opt->checked_run) return; /* the checker sees every such race as it happens */
    ls s = {0};
    s.u = u;
    s.opt = opt;
    /* every call of every device function seen before any is rewritten (what the rewrite of a
     * helper needs to know) */
    for (int i = 0; i < u->nfuncs && opt->simd_width == 32; i++)
        if (u->funcs[i]->kind == TR_F_GLOBAL && u->funcs[i]->body) check_kernel(&s, u->funcs[i]);
    for (int i = 0; i < u->nfuncs; i++) {
        tr_func *k = u->funcs[i];
        if (k->kind != TR_F_GLOBAL || !k->body) continue;
        check_kernel(&s, k);
        if (s.too_big) {
            /* what the check did not follow could rely on lockstep: not passed through */
            tr_func *saved = u->cur_func;
            u->cur_kernel = u->cur_func = k;
            tr_diag_add(u, true, s.too_big_at ? s.too_big_at->file : k->file,
                        s.too_big_at ? s.too_big_at->line : k->line, 0, "unchecked shared memory",
                        "kernel %s: %s for the check that no work-item reads shared memory "
                        "another one wrote without a barrier between them",
                        k->name, s.too_big);
            u->cur_kernel = NULL;
            u->cur_func = saved;
            continue;
        }
        if (!s.npairs) continue;
        bool rewritten = false;
        if (opt->simd_width == 32 && !s.lanes_used[1] && !s.lanes_used[2]) {
            /* every conflict inside one warp-0 region: rewrite it, then check again */
            tr_stmt *reg = s.acc[s.pairs[0][0]].region;
            tr_func *rfn = s.acc[s.pairs[0][0]].region_fn;
            bool one = reg != NULL;
            for (int p = 0; p < s.npairs && one; p++)
                for (int q = 0; q < 2; q++)
                    one &= s.acc[s.pairs[p][q]].region == reg;
            tr_sym *arr = NULL, *lane_sym = NULL;
            const ls_access *a0 = &s.acc[s.pairs[0][0]];
            if (one && tail_parts(&s, a0, &arr, &lane_sym)) {
                if (a0->fn == rfn) {
                    /* the tail is in the region itself */
                    tr_expr lane_at = *a0->at->b;
                    tr_expr *lane = a0->at->b;
                    if (lane->kind == TR_E_BINARY)
                        lane = is_lane(&(rw){.lane_sym = lane_sym}, lane->a) ? lane->a : lane->b;
                    (void)lane_at;
                    tr_sym *base = arr;
                    /* through an alias `volatile float *p = sdata;`: rewrite on the array */
                    rewrite_region(&s, rfn, &reg->body, base, lane_sym, lane, &rewritten);
                } else if (a0->fn->kind == TR_F_DEVICE && arr->kind == TR_SYM_PARAM && lane_sym &&
                           lane_sym->kind == TR_SYM_PARAM) {
                    /* the tail is a device function called in the region (warpReduce(s, tid)):
                     * rewritten when every access is in it */
                    bool all_in = !a0->fn->ls_outside;
                    for (int p = 0; p < s.npairs; p++)
                        for (int q = 0; q < 2; q++)
                            all_in &= s.acc[s.pairs[p][q]].fn == a0->fn;
                    for (int q = 0; q < a0->fn->nparams; q++)
                        if (a0->fn->params[q] == lane_sym && !(a0->fn->ls_lane_params & (1u << q)))
                            all_in = false;
                    tr_expr *lane = tr_alloc(u, sizeof *lane);
                    *lane = (tr_expr){.kind = TR_E_IDENT,
                                      .file = a0->at->file,
                                      .line = a0->at->line,
                                      .sym = lane_sym,
                                      .text = lane_sym->name};
                    if (all_in)
                        rewrite_region(&s, a0->fn, &a0->fn->body, arr, lane_sym, lane, &rewritten);
                }
            }
            if (rewritten) {
                int line = reg ? reg->line : k->line;
                check_kernel(&s, k);
                if (!s.npairs)
                    tr_diag_add(u, false, u->funcs[i]->file, line, 0, "warp-synchronous code",
                                "the warp-synchronous shared-memory steps here relied on the "
                                "lanes of a warp running in lockstep; they are rewritten with "
                                "SIMD-group shuffles, which compute exactly what lockstep "
                                "execution computes (--simd-width 32)");
            }
        }
        int reported = 0;
        for (int p = 0; p < s.npairs && reported < MAX_REPORTS; p++) {
            const ls_access *a = &s.acc[s.pairs[p][0]], *b = &s.acc[s.pairs[p][1]];
            const ls_access *w = a->write ? a : b, *r = a->write ? b : a;
            char wl[300], rl[300];
            u->cur_kernel = k;
            tr_func *saved = u->cur_func;
            u->cur_func = k;
            bool dup = false;
            for (int q = 0; q < p; q++)
                dup |= s.acc[s.pairs[q][1]].at->line == b->at->line;
            if (!dup) {
                reported++;
                tr_diag_add(
                    u, true, b->at->file, b->at->line, b->at->col, "warp lockstep",
                    "kernel %s: shared memory is written at %s and %s at %s by other "
                    "work-items with no barrier between them (as far as the check can tell "
                    "from the indices): this relies on the lanes of a warp running in "
                    "lockstep, which Metal, OpenCL and the CPU backend do not do (and CUDA "
                    "since Volta does not promise), or is a race; put __syncthreads() between "
                    "them (or __syncwarp() between the steps of a warp-synchronous tail)%s",
                    k->name, expr_line(u, w, wl, sizeof wl), r->write ? "written" : "read",
                    expr_line(u, r, rl, sizeof rl),
                    opt->simd_width == 32
                        ? ""
                        : ", or translate with --simd-width 32 to have a warp-synchronous "
                          "reduction tail rewritten with SIMD-group shuffles");
            }
            u->cur_func = saved;
            u->cur_kernel = NULL;
        }
    }
    free(s.acc);
    free(s.pending);
    free(s.pairs);
    free(s.interned);
    free(s.bodies);
    drop_accesses(&s);
    free(s.snaps);
}
