/* lockstep_value.c — the values of the lockstep check (see lockstep.h): affine forms in the
 * work-item's position over group-uniform terms, the texts that name uniform terms, and the
 * guards (the conditions on the work-item an access runs under). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "translate/lockstep_internal.h"

int ls_cmp_term(const term *a, const term *b)
{
    if (a->lane != b->lane) return a->lane < b->lane ? -1 : 1;
    if (!a->key || !b->key) return a->key ? 1 : (b->key ? -1 : 0);
    return strcmp(a->key, b->key);
}

/* Adds k * (term) to v, keeping the terms sorted and merged; false when there are too many. */
bool ls_add_term(val *v, term t)
{
    if (!t.coef) return true;
    for (int i = 0; i < v->nt; i++) {
        int c = ls_cmp_term(&v->t[i], &t);
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

val ls_v_add(val a, val b, long long sb) /* a + sb * b */
{
    if (a.kind == V_UNKNOWN || b.kind == V_UNKNOWN || a.inj || b.inj) return ls_v_unknown();
    if (b.kind != V_AFFINE) { /* k + p */
        if (a.kind != V_AFFINE || sb != 1) return ls_v_unknown();
        val t = a;
        a = b;
        b = t;
    }
    if (b.kind != V_AFFINE) return ls_v_unknown();
    val r = a;
    r.c += sb * b.c;
    for (int i = 0; i < b.nt; i++) {
        term t = b.t[i];
        t.coef *= sb;
        if (!ls_add_term(&r, t)) return ls_v_unknown();
    }
    return r;
}

val ls_v_scale(val a, long long k)
{
    if (a.kind != V_AFFINE || a.inj) return ls_v_unknown();
    val r = ls_v_const(a.c * k);
    for (int i = 0; i < a.nt; i++) {
        term t = a.t[i];
        t.coef *= k;
        if (!ls_add_term(&r, t)) return ls_v_unknown();
    }
    return r;
}

void ls_tb_s(tbuf *t, const char *x)
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
    ls_tb_s(t, d + i);
}

/* "a*b" of two keys, sorted, for products of uniform names (NULL: too long) */
static const char *key_mul(ls *s, const char *a, const char *b)
{
    tbuf t = {.n = 0};
    ls_tb_s(&t, strcmp(a, b) <= 0 ? a : b);
    ls_tb_s(&t, "*");
    ls_tb_s(&t, strcmp(a, b) <= 0 ? b : a);
    return t.over ? NULL : ls_intern(s, t.b);
}

val ls_v_mul(ls *s, val a, val b)
{
    long long k;
    if (a.inj || b.inj) return ls_v_unknown();
    if (ls_as_const(&a, &k)) return ls_v_scale(b, k);
    if (ls_as_const(&b, &k)) return ls_v_scale(a, k);
    if (!is_affine(&a) || !is_affine(&b)) return ls_v_unknown();
    if (!ls_lane_free(&a) && !ls_lane_free(&b)) return ls_v_unknown();
    if (!ls_lane_free(&a)) {
        val t = a;
        a = b;
        b = t;
    }
    /* a is uniform: distribute */
    val r = ls_v_const(0);
    for (int i = -1; i < a.nt; i++) {
        const char *ka = i < 0 ? NULL : a.t[i].key;
        long long ca = i < 0 ? a.c : a.t[i].coef;
        if (!ca) continue;
        if (!ls_add_term(&r, (term){ka, 0, ca * b.c})) return ls_v_unknown();
        for (int j = 0; j < b.nt; j++) {
            const char *kb = b.t[j].key, *kk = !ka ? kb : !kb ? ka : key_mul(s, ka, kb);
            if ((ka && kb && !kk) || !ls_add_term(&r, (term){kk, b.t[j].lane, ca * b.t[j].coef}))
                return ls_v_unknown();
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

bool ls_v_equal(const val *a, const val *b)
{
    if (a->kind != b->kind || a->c != b->c || a->nt != b->nt || a->lost || b->lost ||
        a->inj != b->inj)
        return false;
    if (a->kind == V_SHARED_PTR && a->base != b->base) return false;
    for (int i = 0; i < a->nt; i++)
        if (ls_cmp_term(&a->t[i], &b->t[i]) || a->t[i].coef != b->t[i].coef) return false;
    return a->kind != V_UNKNOWN;
}

void ls_v_print(const val *v, tbuf *t)
{
    if (v->kind == V_UNKNOWN) {
        ls_tb_s(t, "?");
        return;
    }
    tb_ll(t, v->c);
    static const char *const lanes[] = {"", "tid.x", "tid.y", "tid.z", "warp", "opaque"};
    for (int i = 0; i < v->nt; i++) {
        ls_tb_s(t, "+");
        tb_ll(t, v->t[i].coef);
        ls_tb_s(t, "*");
        ls_tb_s(t, v->t[i].lane ? lanes[v->t[i].lane] : "");
        ls_tb_s(t, v->t[i].key ? v->t[i].key : "");
    }
}

gmark ls_g_mark(const guard *g)
{
    gmark m;
    memcpy(m.nlo, g->nlo, sizeof m.nlo);
    memcpy(m.nhi, g->nhi, sizeof m.nhi);
    memcpy(m.has_mod, g->has_mod, sizeof m.has_mod);
    m.has_lin = g->has_lin;
    m.nfacts = g->nfacts;
    return m;
}

void ls_g_restore(guard *g, const gmark *m)
{
    memcpy(g->nlo, m->nlo, sizeof m->nlo);
    memcpy(g->nhi, m->nhi, sizeof m->nhi);
    memcpy(g->has_mod, m->has_mod, sizeof m->has_mod);
    g->has_lin = m->has_lin;
    g->nfacts = m->nfacts;
}

/* A guard that holds nothing (only the counts are set: the rest is read up to them). */
void ls_g_empty(guard *g)
{
    memset(g->nlo, 0, sizeof g->nlo);
    memset(g->nhi, 0, sizeof g->nhi);
    memset(g->has_mod, 0, sizeof g->has_mod);
    g->has_lin = false;
    g->nfacts = 0;
}

/* A copy of the parts of src in use. */
void ls_g_copy(guard *dst, const guard *src)
{
    for (int d = 0; d < GDIMS; d++) {
        dst->nlo[d] = src->nlo[d], dst->nhi[d] = src->nhi[d];
        copy_n(dst->lo[d], src->lo[d], (size_t)src->nlo[d] * sizeof src->lo[d][0]);
        copy_n(dst->hi[d], src->hi[d], (size_t)src->nhi[d] * sizeof src->hi[d][0]);
        dst->has_mod[d] = src->has_mod[d];
        if (src->has_mod[d]) dst->mod[d] = src->mod[d], dst->rem[d] = src->rem[d];
    }
    dst->has_lin = src->has_lin;
    if (src->has_lin) dst->lin = src->lin;
    dst->nfacts = src->nfacts;
    copy_n(dst->facts, src->facts, (size_t)src->nfacts * sizeof src->facts[0]);
}

void ls_guard_add(guard *g, int d, bool hi, val b)
{
    if (!ls_lane_free(&b)) return;
    int *n = hi ? &g->nhi[d] : &g->nlo[d];
    if (*n < MAXB) (hi ? g->hi[d] : g->lo[d])[(*n)++] = b;
}

/* Whether a < b can hold ("unknown" counts as can). */
bool ls_may_less(val a, val b)
{
    val d = ls_v_add(b, a, -1);
    long long c;
    return !ls_as_const(&d, &c) || c > 0;
}

/* Whether forms f[i] >= 0 can all hold: each alone, and each pair whose uniform parts cancel
 * (p * f[i] + q * f[j] a negative constant for some p, q > 0 is a contradiction). */
/* Fourier-Motzkin elimination over the forms (each >= 0), term by term: true when they cannot
 * all hold even over the reals (so over the integers neither). Gives up (false) past a budget
 * or on coefficients that grow too large; a form that cannot be combined is dropped, which only
 * weakens the proof. */
enum { FM_MAX = 96, FM_ROUNDS = 8 };

static bool fm_small(const val *v)
{
    const long long lim = 1ll << 40;
    if (v->c > lim || v->c < -lim) return false;
    for (int i = 0; i < v->nt; i++)
        if (v->t[i].coef > lim || v->t[i].coef < -lim) return false;
    return true;
}

static bool fm_refutes(const val *f, int n)
{
    val *cur = malloc(FM_MAX * sizeof *cur), *next = malloc(FM_MAX * sizeof *next);
    if (!cur || !next) abort();
    int nc = 0;
    bool refuted = false;
    for (int i = 0; i < n && nc < FM_MAX; i++)
        if (f[i].kind == V_AFFINE && !f[i].inj) cur[nc++] = f[i];
    for (int round = 0; round <= FM_ROUNDS && !refuted; round++) {
        const term *pick = NULL;
        for (int i = 0; i < nc && !refuted; i++) {
            if (!cur[i].nt && cur[i].c < 0) refuted = true;
            if (cur[i].nt && !pick) pick = &cur[i].t[0];
        }
        if (refuted || !pick || round == FM_ROUNDS) break;
        term t = *pick;
        int nn = 0, pos[FM_MAX], neg[FM_MAX], np = 0, nq = 0;
        bool over = false;
        for (int i = 0; i < nc; i++) {
            long long k = 0;
            for (int j = 0; j < cur[i].nt; j++)
                if (!ls_cmp_term(&cur[i].t[j], &t)) k = cur[i].t[j].coef;
            if (k > 0)
                pos[np++] = i;
            else if (k < 0)
                neg[nq++] = i;
            else
                next[nn++] = cur[i];
        }
        for (int a = 0; a < np && !over; a++)
            for (int b = 0; b < nq && !over; b++) {
                long long ka = 0, kb = 0;
                for (int j = 0; j < cur[pos[a]].nt; j++)
                    if (!ls_cmp_term(&cur[pos[a]].t[j], &t)) ka = cur[pos[a]].t[j].coef;
                for (int j = 0; j < cur[neg[b]].nt; j++)
                    if (!ls_cmp_term(&cur[neg[b]].t[j], &t)) kb = -cur[neg[b]].t[j].coef;
                val comb = ls_v_add(ls_v_scale(cur[pos[a]], kb), ls_v_scale(cur[neg[b]], ka), 1);
                if (comb.kind != V_AFFINE) continue; /* too many terms: dropped */
                if (!fm_small(&comb) || nn == FM_MAX) {
                    over = true;
                    break;
                }
                next[nn++] = comb;
            }
        if (over) break;
        val *tmp = cur;
        cur = next, next = tmp;
        nc = nn;
    }
    free(cur);
    free(next);
    return refuted;
}

bool ls_may_all_hold(const val *f, int n)
{
    for (int i = 0; i < n; i++) {
        long long c;
        if (f[i].kind != V_AFFINE) continue;
        if (ls_as_const(&f[i], &c) && c < 0) return false;
        for (int j = i + 1; j < n; j++) {
            if (f[j].kind != V_AFFINE || !f[i].nt || f[i].nt != f[j].nt) continue;
            long long p = f[j].t[0].coef, q = f[i].t[0].coef;
            if ((p > 0) == (q > 0)) continue; /* the same sign cannot cancel */
            p = p < 0 ? -p : p, q = q < 0 ? -q : q;
            val sum = ls_v_add(ls_v_scale(f[i], p), ls_v_scale(f[j], q), 1);
            if (ls_as_const(&sum, &c) && c < 0) return false;
        }
    }
    return !fm_refutes(f, n);
}

unsigned ls_text_hash(const char *t)
{
    unsigned h = 2166136261u;
    for (; *t; t++)
        h = (h ^ (unsigned char)*t) * 16777619u;
    return h;
}

const char *ls_intern(ls *s, const char *text)
{
    if (2 * (s->ninterned + 1) > s->capinterned) {
        int cap = s->capinterned ? s->capinterned * 2 : 256;
        char **n = calloc((size_t)cap, sizeof *n);
        if (!n) abort();
        for (int i = 0; i < s->capinterned; i++) {
            if (!s->interned[i]) continue;
            unsigned j = ls_text_hash(s->interned[i]) & (unsigned)(cap - 1);
            while (n[j])
                j = (j + 1) & (unsigned)(cap - 1);
            n[j] = s->interned[i];
        }
        free(s->interned);
        s->interned = n;
        s->capinterned = cap;
    }
    unsigned j = ls_text_hash(text) & (unsigned)(s->capinterned - 1);
    for (; s->interned[j]; j = (j + 1) & (unsigned)(s->capinterned - 1))
        if (!strcmp(s->interned[j], text)) return s->interned[j];
    s->ninterned++;
    return s->interned[j] = tr_strdup(s->u, text);
}

const char *ls_fresh(ls *s, const char *name)
{
    tbuf t = {.n = 0};
    size_t l = strlen(name);
    l = l > 100 ? 100 : l; /* the version makes it unique, the name only helps reading */
    memcpy(t.b, name, l);
    t.b[t.n = l] = 0;
    ls_tb_s(&t, "#");
    tb_ll(&t, ++s->version);
    return ls_intern(s, t.b);
}

val ls_v_opaque_lane(ls *s, const char *name)
{
    if (s->nopaque >= MAX_OPAQUE) return ls_v_unknown();
    s->nopaque++;
    return ls_v_term(ls_fresh(s, name), LANE_OPAQUE, 1);
}

bool ls_has_opaque_lane(const val *v)
{
    if (v->kind != V_AFFINE) return false;
    for (int i = 0; i < v->nt; i++)
        if (v->t[i].lane == LANE_OPAQUE) return true;
    return false;
}

bool ls_mask_of(const ls *s, const char *key, val *n, int *lane)
{
    for (int i = 0; i < s->nmasks; i++)
        if (s->masks[i].key == key) {
            *n = s->masks[i].n;
            *lane = s->masks[i].lane;
            return true;
        }
    return false;
}
