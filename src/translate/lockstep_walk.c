/* lockstep_walk.c — the lockstep check's walk of statements (see lockstep.h): the guards that
 * conditions put on the work-item, branches run alongside each other, loops walked twice so
 * that an iteration meets the next one. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "translate/lockstep_internal.h"

/* ---- statements -------------------------------------------------------------------------- */
/* The guard's dimension for the work-item's part `lanes` of a compared value when it spans
 * several dimensions (threadIdx.y * blockDim.x + threadIdx.x, every coefficient positive):
 * G_LIN when it is the guard's linear index, or the guard has none yet and it becomes it; -1
 * otherwise (the condition then narrows nothing, as before). */
static int lin_slot(guard *g, const val *lanes)
{
    if (lanes->nt < 2) return -1;
    for (int i = 0; i < lanes->nt; i++)
        if (lanes->t[i].lane < 1 || lanes->t[i].lane > 3 || lanes->t[i].coef <= 0) return -1;
    if (g->has_lin) return ls_v_equal(&g->lin, lanes) ? G_LIN : -1;
    g->has_lin = true;
    g->lin = *lanes;
    return G_LIN;
}

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
            val x = ls_eval(s, m->a), mv = ls_eval(s, m->b), rv = ls_eval(s, r);
            s->nacc = save_nacc, s->npending = save_np, s->npairs = save_pairs;
            /* (tid + c) % m == r, c uniform (`(tx + 1) % i == 0`): tid % m == r - c, the same
             * residue class (the conflict test compares residues, never their values) */
            if (x.kind != V_AFFINE || !ls_lane_free(&mv) || !ls_lane_free(&rv)) return;
            val lanes = ls_v_const(0), c = x;
            c.nt = 0;
            for (int i = 0; i < x.nt; i++)
                if (!(x.t[i].lane ? ls_add_term(&lanes, x.t[i]) : ls_add_term(&c, x.t[i]))) return;
            int d = -1;
            if (lanes.nt == 1 && !lanes.t[0].key && lanes.t[0].coef == 1 &&
                lanes.t[0].lane <= LANE_WARP)
                d = lanes.t[0].lane - 1;
            else if (lanes.nt > 1)
                d = lin_slot(g, &lanes);
            if (d < 0 || g->has_mod[d]) return; /* the first is kept (g_restore relies on it) */
            g->has_mod[d] = true;
            g->mod[d] = mv;
            g->rem[d] = ls_v_add(rv, c, -1);
            return;
        }
    }
    static const char *const ops[] = {"<", "<=", ">", ">=", "==", "!="};
    int op = -1;
    for (int i = 0; i < 6; i++)
        if (!strcmp(cond->text, ops[i])) op = i;
    if (op < 0) return;
    int save_nacc = s->nacc, save_np = s->npending, save_pairs = s->npairs;
    val a = ls_eval(s, cond->a), b = ls_eval(s, cond->b);
    s->nacc = save_nacc, s->npending = save_np, s->npairs = save_pairs; /* no accesses twice */
    val d = ls_v_add(a, b, -1);                                         /* d op 0 */
    if (d.kind != V_AFFINE) return;
    int lane = -1;
    long long c = 0;
    val rest = d, lanes = ls_v_const(0);
    rest.nt = 0;
    for (int i = 0; i < d.nt; i++)
        if (!(d.t[i].lane ? ls_add_term(&lanes, d.t[i]) : ls_add_term(&rest, d.t[i]))) return;
    if (lanes.nt == 1 && !lanes.t[0].key && lanes.t[0].lane <= LANE_WARP) {
        lane = lanes.t[0].lane - 1;
        c = lanes.t[0].coef;
    } else if (lanes.nt > 1) {
        /* tid < k with tid = threadIdx.y * blockDim.x + threadIdx.x: a bound on the linear
         * index (or, mirrored, on its negation) */
        c = lanes.t[0].coef > 0 ? 1 : -1;
        val l = ls_v_scale(lanes, c);
        lane = lin_slot(g, &l);
    }
    if (lanes.nt == 0) {
        /* a condition on the group's values alone: a fact where it holds (j < i in a loop over
         * j, an if's bound), which tells apart indices made of those values */
        if (negate) op = (int[]){3, 2, 1, 0, 5, 4}[op];
        val f[2];
        int nf = 0;
        switch (op) {
        case 0:
            f[nf++] = ls_v_add(ls_v_scale(d, -1), ls_v_const(1), -1);
            break; /* d < 0 */
        case 1:
            f[nf++] = ls_v_scale(d, -1);
            break; /* d <= 0 */
        case 2:
            f[nf++] = ls_v_add(d, ls_v_const(1), -1);
            break; /* d > 0 */
        case 3:
            f[nf++] = d;
            break; /* d >= 0 */
        case 4:
            f[nf++] = d, f[nf++] = ls_v_scale(d, -1);
            break; /* d == 0 */
        default:
            break;
        }
        for (int i = 0; i < nf; i++) {
            bool per_item = false; /* '@' keys are a work-item's iteration, not the group's */
            for (int k = 0; k < f[i].nt; k++)
                per_item |= f[i].t[k].key && f[i].t[k].key[0] == '@';
            if (f[i].kind == V_AFFINE && f[i].nt && !per_item && g->nfacts < MAXF)
                g->facts[g->nfacts++] = f[i];
        }
        return;
    }
    if (lane < 0 || (c != 1 && c != -1)) return;
    /* c * v + rest op 0: v op' -rest (c = 1) or v op'' rest (c = -1, the comparison mirrored) */
    static const int mirror[] = {2, 3, 0, 1, 4, 5}, neg[] = {3, 2, 1, 0, 5, 4};
    if (c < 0) op = mirror[op];
    if (negate) op = neg[op];
    val x = c > 0 ? ls_v_scale(rest, -1) : rest;
    switch (op) {
    case 0:
        ls_guard_add(g, lane, true, x);
        break;
    case 1:
        ls_guard_add(g, lane, true, ls_v_add(x, ls_v_const(1), 1));
        break;
    case 2:
        ls_guard_add(g, lane, false, ls_v_add(x, ls_v_const(1), 1));
        break;
    case 3:
        ls_guard_add(g, lane, false, x);
        break;
    case 4:
        ls_guard_add(g, lane, false, x);
        ls_guard_add(g, lane, true, ls_v_add(x, ls_v_const(1), 1));
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
    ls_g_empty(&g);
    narrow(s, &g, cond, false);
    for (int j = 0; j < g.nhi[0]; j++) {
        long long hi;
        if (ls_as_const(&g.hi[0][j], &hi) && hi == 32) return true;
    }
    return false;
}

static void collect_assigned(tr_stmt *st, ls *s);

static void collect_assigned_expr(tr_expr *e, ls *s)
{
    if (!e) return;
    if ((e->kind == TR_E_ASSIGN || e->kind == TR_E_POSTFIX ||
         (e->kind == TR_E_UNARY && (!strcmp(e->text, "++") || !strcmp(e->text, "--")))) &&
        e->a && ls_lvalue_is_var(e->a)) {
        bool seen = false;
        /* only this loop's list: a variable an enclosing loop also assigns (the inner loop's
         * counter) is still this loop's, widened at each of its passes */
        for (int i = s->collect_from; i < s->nloop_vars; i++)
            seen |= s->loop_vars[i] == e->a->sym;
        if (!seen && s->nloop_vars < 256)
            s->loop_vars[s->nloop_vars++] = e->a->sym;
        else if (!seen && !s->too_big) /* one not widened would be taken for a constant */
            s->too_big = "too many variables assigned in nested loops";
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
        val *v = ls_lookup(s, sym);
        if (!v) continue;
        if (v->kind != V_AFFINE || ls_has_opaque_lane(v)) {
            /* a value the walk cannot follow: another one in each iteration */
            *v = ls_is_scalar_var(sym) ? ls_v_opaque_lane(s, sym->name) : ls_v_unknown();
            continue;
        }
        val w = ls_v_const(0);
        for (int k = 0; k < v->nt; k++)
            if (v->t[k].lane) ls_add_term(&w, v->t[k]);
        /* "@i": the per-iteration part of an index that follows the work-item (i = tid;
         * i += blockDim.x), whose iterations touch different elements */
        char name[80];
        snprintf(name, sizeof name, "%s%.70s", w.nt ? "@" : "", sym->name);
        if (!ls_add_term(&w, (term){ls_fresh(s, name), 0, 1})) w = ls_v_unknown();
        *v = w;
    }
}

void ls_copy_frame(frame *dst, const frame *src)
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
        if (!vb || ls_v_equal(&a->b[i].v, vb)) continue;
        val *va = &a->b[i].v;
        if (ls_lane_free(va) && ls_lane_free(vb)) {
            *va = ls_v_term(ls_fresh(s, a->b[i].sym->name), 0, 1);
        } else if (va->kind == V_AFFINE && vb->kind == V_AFFINE) {
            val la = ls_v_const(0), lb = ls_v_const(0);
            for (int k = 0; k < va->nt; k++)
                if (va->t[k].lane) ls_add_term(&la, va->t[k]);
            for (int k = 0; k < vb->nt; k++)
                if (vb->t[k].lane) ls_add_term(&lb, vb->t[k]);
            if (ls_v_equal(&la, &lb)) {
                ls_add_term(&la, (term){ls_fresh(s, a->b[i].sym->name), 0, 1});
                *va = la;
            } else {
                *va = ls_v_unknown();
            }
        } else if (va->kind == V_SHARED_PTR || vb->kind == V_SHARED_PTR) {
            /* a pointer that may be into shared memory, somewhere */
            if (va->kind != V_SHARED_PTR || vb->kind != V_SHARED_PTR || va->base != vb->base)
                va->base = NULL;
            va->kind = V_SHARED_PTR;
            va->nt = 0;
            va->lost = true;
        } else {
            *va = ls_v_unknown();
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

/* Whether `body` assigns `sym` (collect_assigned's walk, on a list of its own). */
static bool assigned_in(ls *s, tr_stmt *body, tr_sym *sym)
{
    tr_sym *saved[256];
    int n = s->nloop_vars;
    memcpy(saved, s->loop_vars, (size_t)n * sizeof *saved);
    int from = s->collect_from;
    s->nloop_vars = s->collect_from = 0;
    collect_assigned(body, s);
    s->collect_from = from;
    bool found = false;
    for (int i = 0; i < s->nloop_vars; i++)
        found |= s->loop_vars[i] == sym;
    memcpy(s->loop_vars, saved, (size_t)n * sizeof *saved);
    s->nloop_vars = n;
    return found;
}

/* The loop's counter when its step only moves it one way from a start the group shares
 * (`for (j = 0; ...; j++)`, `k -= 2`): +1 up, -1 down, 0 none. */
static int counter_of(ls *s, tr_stmt *st, tr_sym **sym)
{
    tr_expr *e = st->step;
    if (!e || !st->init) return 0;
    int dir = 0;
    if ((e->kind == TR_E_POSTFIX || e->kind == TR_E_UNARY) && e->a && ls_lvalue_is_var(e->a))
        dir = !strcmp(e->text, "++") ? 1 : !strcmp(e->text, "--") ? -1 : 0;
    if (e->kind == TR_E_ASSIGN && ls_lvalue_is_var(e->a) &&
        (!strcmp(e->text, "+=") || !strcmp(e->text, "-="))) {
        int save_nacc = s->nacc, save_np = s->npending, save_pairs = s->npairs;
        val k = ls_eval(s, e->b);
        s->nacc = save_nacc, s->npending = save_np, s->npairs = save_pairs;
        long long c;
        if (ls_as_const(&k, &c) && c > 0) dir = e->text[0] == '+' ? 1 : -1;
    }
    if (!dir || assigned_in(s, st->body, e->a->sym)) return 0; /* moved in the body too */
    *sym = e->a->sym;
    return dir;
}

static void loop_pass(ls *s, tr_stmt *st, int from, tr_sym *last, tr_sym *iv, int dir,
                      const val *start)
{
    if (from >= 0) widen(s, from); /* from < 0: the first iteration, with the values it has */
    if (last) ls_bind(s, last, ls_v_const(1));
    gmark saved = ls_g_mark(&s->g);
    const val *now = iv ? ls_lookup(s, iv) : NULL;
    if (now && ls_lane_free(now) && s->g.nfacts < MAXF) {
        /* counted up from its start, it is at least that (down: at most) */
        val f = ls_v_add(*now, *start, -1);
        f = dir > 0 ? f : ls_v_scale(f, -1);
        if (f.kind == V_AFFINE && f.nt) s->g.facts[s->g.nfacts++] = f;
    }
    if (st->cond) {
        ls_eval(s, st->cond);
        narrow(s, &s->g, st->cond, false);
        s->gsnap = NULL;
    }
    ls_walk(s, st->body);
    if (st->step) ls_eval(s, st->step);
    ls_g_restore(&s->g, &saved);
    s->gsnap = NULL;
}

/* Whether no variable the loop assigns enters it with a value that follows the work-item (the
 * first iteration is then walked with the values they enter with; an index such as `base = tid;
 * base += N` keeps the per-iteration form of widen(), whose iterations touch different
 * elements). */
static bool uniform_entry(ls *s, int from)
{
    for (int i = from; i < s->nloop_vars; i++) {
        const val *v = ls_lookup(s, s->loop_vars[i]);
        if (v && v->kind == V_AFFINE && !ls_lane_free(v)) return false;
    }
    return true;
}

/* An expression of names, numbers and operators only: evaluated, it touches no memory. */
static bool plain_expr(const tr_expr *e)
{
    if (!e) return false;
    switch (e->kind) {
    case TR_E_IDENT:
    case TR_E_NUM:
        return e->kind != TR_E_IDENT ||
               (e->sym && !e->sym->ndims && e->sym->kind != TR_SYM_SHARED &&
                e->sym->kind != TR_SYM_DYN_SHARED);
    case TR_E_UNARY:
        return strcmp(e->text, "++") && strcmp(e->text, "--") && strcmp(e->text, "*") &&
               strcmp(e->text, "&") && plain_expr(e->a);
    case TR_E_BINARY:
        return plain_expr(e->a) && plain_expr(e->b);
    default:
        return false;
    }
}

/* Whether st holds a break, continue or return (anywhere: an inner loop's too). */
static bool leaves_early(const tr_stmt *st)
{
    if (!st) return false;
    if (st->kind == TR_S_BREAK || st->kind == TR_S_CONTINUE || st->kind == TR_S_RETURN)
        return true;
    if (leaves_early(st->init) || leaves_early(st->body) || leaves_early(st->els)) return true;
    for (int i = 0; i < st->n; i++)
        if (leaves_early(st->list[i])) return true;
    return false;
}

/* Whether a for loop surely runs its first iteration through: its condition, with the values
 * its variables enter with, a constant that holds (`for (d = N >> 1; d > 0; ...)` in an
 * instance with N = 128), and nothing in its body that leaves it or its iteration early (a
 * `break` before the barrier would skip it). */
static bool runs_once(ls *s, const tr_stmt *st)
{
    if (st->kind != TR_S_FOR || !plain_expr(st->cond) || leaves_early(st->body)) return false;
    val c = ls_eval(s, st->cond);
    long long k;
    return ls_as_const(&c, &k) && k != 0;
}

static void walk_loop(ls *s, tr_stmt *st)
{
    int from = s->nloop_vars, outer = s->collect_from;
    s->collect_from = from;
    collect_assigned(st, s);
    s->collect_from = outer;
    if (st->init) ls_walk(s, st->init);
    tr_sym *iv = NULL;
    int dir = counter_of(s, st, &iv);
    const val *at = iv ? ls_lookup(s, iv) : NULL;
    val start = at && ls_lane_free(at) ? *at : ls_v_unknown();
    if (start.kind != V_AFFINE) iv = NULL;
    int *before, nbefore, *between, nbetween;
    bool once = runs_once(s, st);
    save_pending(s, &before, &nbefore); /* a loop may run no iteration at all */
    if (s->npending && st->kind == TR_S_FOR && uniform_entry(s, from)) {
        /* what is pending before a for loop meets its first iteration, whose variables have
         * the values they enter with (indices rotated at the end of the body, pii = cii; ...);
         * the passes below meet what that iteration leaves */
        loop_pass(s, st, -1, NULL, NULL, 0, &start);
    }
    /* twice: the second pass meets the pending accesses of the first as a next iteration */
    loop_pass(s, st, from, NULL, iv, dir, &start);
    save_pending(s, &between, &nbetween);
    loop_pass(s, st, from, NULL, iv, dir, &start);
    tr_sym *last = halving_var(st);
    if (last) {
        /* what leaves the loop is what its last iteration left pending */
        copy_n(s->pending, between, (size_t)nbetween * sizeof *between);
        s->npending = nbetween;
        loop_pass(s, st, from, last, NULL, 0, &start);
    }
    if (!once) pending_union(s, before, nbefore);
    free(before);
    free(between);
    widen(s, from);
    s->nloop_vars = from;
}

void ls_walk(ls *s, tr_stmt *st)
{
    if (!st) return;
    switch (st->kind) {
    case TR_S_BLOCK:
        for (int i = 0; i < st->n; i++)
            ls_walk(s, st->list[i]);
        return;
    case TR_S_DECL:
        for (int i = 0; i < st->ndecls; i++) {
            tr_sym *sym = st->decls[i].sym;
            if (sym->kind == TR_SYM_SHARED || sym->kind == TR_SYM_DYN_SHARED) continue;
            if (sym->ndims) {
                ls_bind(s, sym, ls_ptr_of(s, sym));
                if (st->decls[i].init) ls_eval(s, st->decls[i].init);
                continue;
            }
            val v = st->decls[i].init ? ls_eval(s, st->decls[i].init) : ls_v_unknown();
            if (sym->type.nptr && v.kind == V_AFFINE) v = ls_v_unknown();
            if (sym->type.nptr && st->decls[i].init && v.kind != V_SHARED_PTR)
                v.kind = v.kind == V_UNKNOWN && st->decls[i].init ? V_UNKNOWN : V_OTHER_PTR;
            if (sym->type.nptr && (v.kind == V_SHARED_PTR || v.kind == V_OTHER_PTR))
                v.esize = ls_type_size(sym->type.base);
            ls_bind(s, sym, v);
        }
        return;
    case TR_S_EXPR:
    case TR_S_CASE:
        ls_eval(s, st->e);
        return;
    case TR_S_RETURN: {
        val v = st->e ? ls_eval(s, st->e) : ls_v_unknown();
        if (!s->fr->has_ret)
            s->fr->ret = v, s->fr->has_ret = true;
        else if (!ls_v_equal(&s->fr->ret, &v))
            s->fr->ret = ls_v_unknown();
        return;
    }
    case TR_S_IF: {
        val c = ls_eval(s, st->cond);
        long long k;
        if (ls_as_const(&c, &k)) { /* a template constant: only the branch taken exists */
            ls_walk(s, k ? st->body : st->els);
            return;
        }
        gmark saved = ls_g_mark(&s->g);
        tr_stmt *saved_region = s->region;
        tr_func *saved_rfn = s->region_fn;
        int np = s->npending;
        int *before = malloc((size_t)(np ? np : 1) * sizeof *before);
        if (!before) abort();
        copy_n(before, s->pending, (size_t)np * sizeof *before);
        frame fe;
        ls_copy_frame(&fe, s->fr);
        narrow(s, &s->g, st->cond, false);
        s->gsnap = NULL;
        if (!s->region && warp0_guard(s, st->cond)) s->region = st, s->region_fn = s->fr->fn;
        int first_then = s->nacc;
        ls_walk(s, st->body);
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
        ls_g_restore(&s->g, &saved);
        narrow(s, &s->g, st->cond, true);
        s->gsnap = NULL;
        int first_else = s->nacc;
        ls_walk(s, st->els);
        ls_g_restore(&s->g, &saved);
        s->gsnap = NULL;
        /* work-items in one branch run alongside those in the other, unless the condition is
         * the group's (`if (blockIdx.x != gridDim.x - 1)`): the whole group takes one branch */
        for (int i = first_then; !ls_lane_free(&c) && i < last_then; i++)
            for (int j = first_else; j < s->nacc; j++)
                ls_record_pair(s, i, j);
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
        int from = s->nloop_vars, outer = s->collect_from;
        s->collect_from = from;
        collect_assigned(st, s);
        s->collect_from = outer;
        for (int pass = 0; pass < 2; pass++) {
            widen(s, from);
            ls_walk(s, st->body);
            ls_eval(s, st->cond);
        }
        widen(s, from);
        s->nloop_vars = from;
        return;
    }
    case TR_S_SWITCH:
        ls_eval(s, st->cond);
        ls_walk(s, st->body);
        return;
    default:
        return;
    }
}
