/* lockstep_conflict.c — whether two shared-memory accesses of the lockstep check (see
 * lockstep.h) can touch one location from two work-items, from their addresses and guards. */
#include <stdio.h>
#include <string.h>

#include "translate/lockstep_internal.h"

/* The one value a guard allows the work-item's index of dimension d (`if (i < 1)`), if any. */
static bool pinned_dim(const guard *g, int d, long long *at)
{
    for (int i = -1; i < g->nlo[d]; i++) /* -1: the index is never negative */
        for (int j = 0; j < g->nhi[d]; j++) {
            long long lo = 0, hi;
            if ((i < 0 || ls_as_const(&g->lo[d][i], &lo)) && ls_as_const(&g->hi[d][j], &hi) &&
                hi == lo + 1) {
                *at = lo;
                return true;
            }
        }
    return false;
}

/* The single work-item a guard pins, in every dimension the kernel uses. */
static bool pinned(const ls *s, const guard *g, long long at[3])
{
    for (int d = 0; d < 3; d++) {
        at[d] = 0;
        if (s->lanes_used[d] && !pinned_dim(g, d, &at[d])) return false;
    }
    return true;
}

/* v with the work-item's index of each dimension its guard pins replaced by that value. */
static val pin_lanes(const guard *g, val v)
{
    if (v.kind != V_AFFINE) return v;
    val r = v;
    r.nt = 0;
    for (int i = 0; i < v.nt; i++) {
        term t = v.t[i];
        long long at;
        if (t.lane >= 1 && t.lane <= 3 && !t.key && pinned_dim(g, t.lane - 1, &at))
            r.c += t.coef * at;
        else if (!ls_add_term(&r, t))
            return v;
    }
    return r;
}

/* Whether some work-item v of guard ga and v' of gb with v.x = v'.x + d (dimension dim) exist;
 * "can" when the translation cannot tell. */
static bool ratio(val delta, val c, long long *num, long long *den);

static bool feasible(const ls *s, const guard *ga, const guard *gb, int dim, val d)
{
    if (ga->has_mod[dim] && gb->has_mod[dim] && ls_v_equal(&ga->mod[dim], &gb->mod[dim]) &&
        ls_v_equal(&ga->rem[dim], &gb->rem[dim])) {
        /* both keep the work-items with v % m == r: they are a multiple of m apart */
        long long num, den;
        if (ratio(d, ga->mod[dim], &num, &den) && num % den) return false;
        /* d = m / k (k >= 2): between 0 and m, never a non-zero multiple of it */
        tbuf m = {.n = 0};
        ls_v_print(&ga->mod[dim], &m);
        char key[520];
        for (int k = 2; k <= 64 && d.kind == V_AFFINE && d.nt == 1 && !d.c &&
                        (d.t[0].coef == 1 || d.t[0].coef == -1) && d.t[0].key && !d.t[0].lane;
             k *= 2) {
            snprintf(key, sizeof key, "(%s/%d)", m.b, k);
            if (!strcmp(d.t[0].key, key)) return false;
        }
    }
    val zero = ls_v_const(0);
    val los[2 * MAXB + 2], his[2 * MAXB + 2];
    int nl = 0, nh = 0;
    los[nl++] = zero;                  /* v' >= 0 */
    los[nl++] = ls_v_add(zero, d, -1); /* v >= 0: v' >= -d */
    for (int i = 0; i < gb->nlo[dim]; i++)
        los[nl++] = gb->lo[dim][i];
    for (int i = 0; i < ga->nlo[dim]; i++)
        los[nl++] = ls_v_add(ga->lo[dim][i], d, -1);
    for (int i = 0; i < gb->nhi[dim]; i++)
        his[nh++] = gb->hi[dim][i];
    for (int i = 0; i < ga->nhi[dim]; i++)
        his[nh++] = ls_v_add(ga->hi[dim][i], d, -1);
    if (dim < 3) { /* threadIdx.d < blockDim.d, for both (the launches' block, when required) */
        static const char *const bd[3] = {"blockDim.x", "blockDim.y", "blockDim.z"};
        val b = s->use_block && s->kernel->block_known ? ls_v_const(s->kernel->block[dim])
                                                       : ls_v_term(bd[dim], 0, 1);
        his[nh++] = b;
        his[nh++] = ls_v_add(b, d, -1);
    }
    val forms[(2 * MAXB + 2) * (2 * MAXB + 2) + 2 * MAXF];
    int nf = 0;
    for (int i = 0; i < ga->nfacts; i++)
        forms[nf++] = ga->facts[i];
    for (int i = 0; i < gb->nfacts; i++)
        forms[nf++] = gb->facts[i];
    for (int i = 0; i < nl; i++)
        for (int j = 0; j < nh; j++) {
            if (!ls_may_less(los[i], his[j])) return false;
            forms[nf++] =
                ls_v_add(ls_v_add(his[j], los[i], -1), ls_v_const(1), -1); /* hi - lo - 1 >= 0 */
        }
    if (!ls_may_all_hold(forms, nf)) return false;
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
            if (ls_as_const(&gs[k]->hi[0][j], &hi) && hi <= 32) ok = true;
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
        ls_add_term(&r, t);
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
            if (!ls_cmp_term(&delta.t[i], &c.t[0])) dn = delta.t[i].coef;
    }
    /* delta * cn == c * dn, term by term */
    val l = ls_v_scale(delta, cn), r = ls_v_scale(c, dn);
    if (!ls_v_equal(&l, &r) &&
        !(l.kind == V_AFFINE && r.kind == V_AFFINE && !l.nt && !r.nt && l.c == r.c))
        return false;
    *num = dn;
    *den = cn;
    return true;
}

/* Whether the uniform name `key` is never negative: the block's and grid's sizes and indices,
 * and the kernel's value parameters of an unsigned type. */
static bool nonneg_name(const ls *s, const char *key)
{
    if (!strncmp(key, "blockDim.", 9) || !strncmp(key, "gridDim.", 8) ||
        !strncmp(key, "blockIdx.", 9))
        return true;
    if (strncmp(key, "param:", 6)) return false;
    for (int i = 0; i < s->kernel->nparams; i++) {
        const tr_sym *p = s->kernel->params[i];
        if (strcmp(p->name, key + 6) || p->type.nptr) continue;
        const char *b = p->type.base;
        return !strncmp(b, "unsigned", 8) || !strcmp(b, "size_t") || !strncmp(b, "uint", 4);
    }
    return false;
}

/* Whether v >= 0 whatever its names are: a constant part and coefficients that are not
 * negative, over names that never are (a term of no name and no lane is a number). */
static bool surely_nonneg(const ls *s, val v)
{
    if (v.kind != V_AFFINE) return false;
    long long c = v.c;
    for (int i = 0; i < v.nt; i++) {
        const term *t = &v.t[i];
        if (!t->key && !t->lane)
            c += t->coef;
        else if (t->coef < 0 || t->lane || !nonneg_name(s, t->key))
            return false;
    }
    return c >= 0;
}

/* Whether |delta| < c for certain (delta = mx, c = mx + 2 with mx unsigned): then no whole
 * non-zero number of steps of c apart. */
static bool less_than_one_step(const ls *s, val delta, val c)
{
    val one = ls_v_const(1);
    return surely_nonneg(s, ls_v_add(ls_v_add(c, delta, -1), one, -1)) &&
           surely_nonneg(s, ls_v_add(ls_v_add(c, delta, 1), one, -1));
}

/* How many work-items apart (d) two accesses are whose addresses differ by delta, c per
 * work-item: -1 with d set, or relation's answer where it needs no bounds (0 never: not a
 * whole number apart; 1 cannot tell; 2 the same work-item). */
static int apart(val delta, long long c, val *d)
{
    long long k;
    if (ls_as_const(&delta, &k)) {
        if (k % c) return 0;
        if (k == 0) return 2;
        *d = ls_v_const(k / c);
        return -1;
    }
    if (delta.c % c) return 1;
    *d = ls_v_const(delta.c / c);
    for (int i = 0; i < delta.nt; i++) {
        if (delta.t[i].coef % c) return 1;
        term t = delta.t[i];
        t.coef /= c;
        ls_add_term(d, t);
    }
    return -1;
}

/* Whether |delta| < c wherever both accesses run, from their guards' facts (`j < i`, j and i
 * counted up from 0 below 15: 4 * (j - i) is within one row of 64 bytes). */
static bool within(const guard *ga, const guard *gb, val delta, long long c)
{
    if (!ga->nfacts && !gb->nfacts) return false;
    val f[2 * MAXF + 1];
    int n = 0;
    for (int i = 0; i < ga->nfacts; i++)
        f[n++] = ga->facts[i];
    for (int i = 0; i < gb->nfacts; i++)
        f[n++] = gb->facts[i];
    for (int sign = 1; sign >= -1; sign -= 2) {
        f[n] = ls_v_add(ls_v_scale(delta, sign), ls_v_const(c), -1); /* sign * delta >= c */
        if (f[n].kind != V_AFFINE || ls_may_all_hold(f, n + 1)) return false;
    }
    return true;
}

/* Whether the padded index P (x + (x >> k), x the work-item's index plus a constant) can be
 * the one element that the address C (bytes, of an access of csize bytes) names: 0 never (no
 * x pads to it, or its work-item is outside the block), else 1. */
static int pad_meets(const ls *s, val P, val C, int csize)
{
    long long c, e;
    if (!P.inj || P.nt != 1 || P.t[0].key || P.t[0].coef != 1 || P.t[0].lane < 1 ||
        P.t[0].lane > 3 || !ls_as_const(&C, &c) || csize <= 0 || c % csize)
        return 1;
    e = c / csize;
    if (e < 0 || e > (1ll << 40)) return 1;
    /* x + (x >> k) grows with x: the one x in [0, e] that may give e, by bisection */
    long long lo = 0, hi = e;
    while (lo < hi) {
        long long mid = lo + (hi - lo) / 2;
        if (mid + (mid >> P.inj) < e)
            lo = mid + 1;
        else
            hi = mid;
    }
    long long x = lo;
    if (x + (x >> P.inj) != e) return 0;
    long long t = x - P.c;
    int d = P.t[0].lane - 1;
    if (t < 0 || (s->use_block && s->kernel->block_known && t >= s->kernel->block[d])) return 0;
    return 1;
}

/* How addresses A (of access a) and B (of b) can meet: 0 never, 1 from two work-items, 2 only
 * from one and the same, 3 always (the same address for every work-item). */
static int relation(const ls *s, val A, int sa, val B, int sb, const ls_access *a,
                    const ls_access *b)
{
    if (A.kind != V_AFFINE || B.kind != V_AFFINE) return 1;
    if (A.inj != B.inj) return A.inj ? pad_meets(s, A, B, sb) : pad_meets(s, B, A, sa);
    if (ls_v_equal(&A, &B) && sa == sb) {
        /* the same address expression: the same work-item, unless it names no work-item (3:
         * the same for every work-item) or leaves out a dimension of the work-item's index the
         * kernel uses, or names only its warp (s[threadIdx.y] with threadIdx.x used, s[t / 32]:
         * a location several work-items share) */
        bool lanes = false, opaque = false, dims[3] = {false, false, false};
        for (int i = 0; i < A.nt; i++) {
            lanes |= A.t[i].lane != 0;
            opaque |= A.t[i].lane == LANE_OPAQUE;
            if (A.t[i].lane >= 1 && A.t[i].lane <= 3) dims[A.t[i].lane - 1] = true;
        }
        if (!lanes) return 3;
        for (int d = 0; d < 3 && !opaque; d++)
            if (s->lanes_used[d] && !dims[d]) return 1;
        return 2;
    }
    if (sa != sb || !sa) return 1;
    A = pin_lanes(a->g, A);
    B = pin_lanes(b->g, B);
    /* split into the work-item's terms and the uniform rest */
    val la = ls_v_const(0), lb = ls_v_const(0), ua = A, ub = B;
    ua.nt = ub.nt = 0;
    ua.inj = ub.inj = 0; /* both under the same one-to-one padding: compare what it pads */
    for (int i = 0; i < A.nt; i++)
        ls_add_term(A.t[i].lane ? &la : &ua, A.t[i]);
    for (int i = 0; i < B.nt; i++)
        ls_add_term(B.t[i].lane ? &lb : &ub, B.t[i]);
    val delta = same_iteration(ls_v_add(ub, ua, -1)); /* A(v) = B(v') <=> la(v) - lb(v') = delta */
    if (!la.nt && !lb.nt) { /* one location each, the same for all: apart by a constant? */
        long long k;
        return ls_as_const(&delta, &k) && (k >= sa || k <= -sa) ? 0 : 1;
    }
    if (ls_has_opaque_lane(&la) || ls_has_opaque_lane(&lb)) {
        /* a value per work-item the walk cannot follow: the same one at the same offset is the
         * same work-item's (or a race of two writers CUDA has too); anything else may meet */
        if (!ls_v_equal(&la, &lb)) return 1;
        if (delta.kind == V_AFFINE && !delta.nt && !delta.c) return 2;
        /* e * (r * t - (r - 1) * (t & (n - 1))) is e * (t % n + r * n * (t / n)): below e * n
         * modulo e * r * n, and k * e * n (0 < |k| < r) past it is not, whichever the
         * work-items */
        val n;
        int ml;
        if (la.nt == 2 && (ls_mask_of(s, la.t[1].key, &n, &ml) && la.t[0].lane == ml) &&
            !la.t[0].key && la.t[0].coef + la.t[1].coef) {
            long long e = la.t[0].coef + la.t[1].coef, r = la.t[0].coef / e;
            if (la.t[0].coef % e == 0 && r >= 2 && r <= 64)
                for (long long k = 1 - r; k < r; k++) {
                    val d = ls_v_scale(n, k * e);
                    if (k && ls_v_equal(&delta, &d)) return 0;
                }
        }
        return 1;
    }
    bool one_dim = la.nt > 0;
    for (int i = 0; i < la.nt; i++)
        one_dim &= la.t[i].lane == la.t[0].lane;
    if (ls_v_equal(&la, &lb) && one_dim && (la.nt > 1 || la.t[0].key)) {
        /* a coefficient that is a uniform value (2 * d * tid): v - v' = delta / c */
        val c = ls_v_const(0);
        for (int i = 0; i < la.nt; i++)
            ls_add_term(&c, (term){la.t[i].key, 0, la.t[i].coef});
        if (!c.nt) c.c = la.t[0].coef;
        long long num, den;
        if (delta.kind == V_AFFINE && !delta.nt && !delta.c) return 2; /* the same one */
        if (!ratio(delta, c, &num, &den)) return less_than_one_step(s, delta, c) ? 2 : 1;
        if (num % den) return 0; /* no whole number of work-items apart */
        if (num == 0) return 2;
        return feasible(s, a->g, b->g, la.t[0].lane - 1, ls_v_const(num / den)) ? 1 : 0;
    }
    if (ls_v_equal(&la, &lb) && la.nt == 1 && !la.t[0].key && la.t[0].lane <= LANE_WARP) {
        val d;
        long long c = la.t[0].coef < 0 ? -la.t[0].coef : la.t[0].coef;
        int r = apart(delta, la.t[0].coef, &d);
        /* not a whole number of work-items apart, or less than one: only the same one */
        if (r == 1 && within(a->g, b->g, delta, c)) return 2;
        return r < 0 ? (feasible(s, a->g, b->g, la.t[0].lane - 1, d) ? 1 : 0) : r;
    }
    /* a linear index of several dimensions (s[tid], s[tid + k] with tid = threadIdx.y *
     * blockDim.x + threadIdx.x) that a guard bounds: e * lin, the work-items delta / e apart
     * in it */
    const guard *lg = a->g->has_lin ? a->g : b->g->has_lin ? b->g : NULL;
    if (lg && ls_v_equal(&la, &lb) && la.nt == lg->lin.nt &&
        (!a->g->has_lin || !b->g->has_lin || ls_v_equal(&a->g->lin, &b->g->lin))) {
        long long e = 0;
        for (int i = 0; i < la.nt; i++)
            if (!ls_cmp_term(&la.t[i], &lg->lin.t[0]) && la.t[i].coef % lg->lin.t[0].coef == 0)
                e = la.t[i].coef / lg->lin.t[0].coef;
        val el = ls_v_scale(lg->lin, e);
        if (e > 0 && ls_v_equal(&la, &el)) {
            val d;
            int r = apart(delta, e, &d);
            return r < 0 ? (feasible(s, a->g, b->g, G_LIN, d) ? 1 : 0) : r;
        }
    }
    if ((la.nt == 0) != (lb.nt == 0)) {
        /* one side names one location for all its work-items: its writer (or reader) on the
         * other side is the work-item whose address is that location */
        const ls_access *one = la.nt == 0 ? a : b, *many = la.nt == 0 ? b : a;
        val lm = la.nt == 0 ? lb : la;
        if (lm.nt != 1 || lm.t[0].key) return 1;
        /* many's lane term must equal the other's address less many's uniform part */
        val dl = la.nt == 0 ? ls_v_scale(delta, -1) : delta;
        long long k;
        long long c = lm.t[0].coef;
        int dim = lm.t[0].lane - 1;
        if (!ls_as_const(&dl, &k)) {
            /* v* = dl / c, symbolic: can it lie in many's bounds? */
            if (dl.c % c) return 0; /* not a whole element apart */
            val vs = ls_v_const(dl.c / c);
            for (int i = 0; i < dl.nt; i++) {
                if (dl.t[i].coef % c) return 1;
                term t = dl.t[i];
                t.coef /= c;
                ls_add_term(&vs, t);
            }
            val f[2 * MAXB + 2 + 2 * MAXF];
            int nf = 0;
            f[nf++] = vs;                             /* v* >= 0 */
            for (int i = 0; i < many->g->nfacts; i++) /* what holds where they run */
                f[nf++] = many->g->facts[i];
            for (int i = 0; i < one->g->nfacts; i++)
                f[nf++] = one->g->facts[i];
            for (int i = 0; i < many->g->nlo[dim] && nf < (int)(sizeof f / sizeof *f); i++)
                f[nf++] = ls_v_add(vs, many->g->lo[dim][i], -1);
            for (int i = 0; i < many->g->nhi[dim] && nf < (int)(sizeof f / sizeof *f); i++)
                f[nf++] = ls_v_add(ls_v_add(many->g->hi[dim][i], vs, -1), ls_v_const(1), -1);
            return ls_may_all_hold(f, nf) ? 1 : 0;
        }
        if (k % c) return 0;
        long long v = k / c;
        /* the `many` work-item at v must exist under its guard */
        guard gv;
        ls_g_empty(&gv);
        ls_guard_add(&gv, dim, false, ls_v_const(v));
        ls_guard_add(&gv, dim, true, ls_v_const(v + 1));
        if (!feasible(s, many->g, &gv, dim, ls_v_const(0))) return 0;
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

bool ls_conflict(const ls *s, const ls_access *a, const ls_access *b)
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
            /* never one index, or one only for one and the same work-item: never one element
             * of two work-items (s[k][t] and s[v][t], whatever k and v) */
            if (r == 0 || r == 2) return false;
            two |= r == 1;
            everyone &= r == 3;
        }
        if (!two && !everyone) return false;
    }
    int r = relation(s, a->addr, a->size, b->addr, b->size, a, b);
    return r == 1 || r == 3;
}
