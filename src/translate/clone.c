/* clone.c — calls of the file's own device functions: one clone per combination of pointer
 * address spaces a function is called with, and what each call passes through (built-in indices,
 * shared arrays declared in callees). */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "translate/lower_impl.h"
#include "translate/map.h"
#include "util/strbuf.h"

static int cmp_func_name(const void *a, const void *b)
{
    return strcmp((*(tr_func *const *)a)->name, (*(tr_func *const *)b)->name);
}

/* The defined device function called `name`: bisection over the unit's functions sorted by name
 * (built on first use; calls are looked up for every call expression). */
tr_func *tl_find_func(lctx *c, const char *name)
{
    tr_unit *u = c->u;
    if (!u->sorted_funcs) {
        u->sorted_funcs =
            tr_alloc(u, (size_t)(u->nfuncs ? u->nfuncs : 1) * sizeof *u->sorted_funcs);
        for (int i = 0; i < u->nfuncs; i++)
            if (u->funcs[i]->body) u->sorted_funcs[u->nsorted++] = u->funcs[i];
        qsort(u->sorted_funcs, (size_t)u->nsorted, sizeof *u->sorted_funcs, cmp_func_name);
    }
    int lo = 0, hi = u->nsorted;
    while (lo < hi) {
        int mid = (lo + hi) / 2, r = strcmp(name, u->sorted_funcs[mid]->name);
        if (r == 0) return u->sorted_funcs[mid];
        if (r < 0)
            hi = mid;
        else
            lo = mid + 1;
    }
    return NULL;
}

void tl_add_hoist(tr_func *f, tr_unit *u, tr_sym *s)
{
    for (int i = 0; i < f->nhoisted; i++)
        if (f->hoisted[i] == s) return;
    tr_sym **n = tr_alloc(u, (size_t)(f->nhoisted + 1) * sizeof *n);
    if (f->nhoisted) memcpy(n, f->hoisted, (size_t)f->nhoisted * sizeof *n);
    n[f->nhoisted++] = s;
    f->hoisted = n;
}

void tl_infer_call_user(lctx *c, tr_expr *e, tr_func *g)
{
    if (e->nargs != g->nparams) {
        tl_refuse(c, e, "call", "%s takes %d arguments, called with %d", g->name, g->nparams,
                  e->nargs);
        return;
    }
    if (g->kind == TR_F_GLOBAL) {
        tl_refuse(c, e, "dynamic parallelism",
                  "calling a kernel from device code has no portable "
                  "equivalent");
        return;
    }
    for (int i = 0; i < g->nparams; i++) /* a float passed for a half parameter, or back */
        if (!g->params[i]->type.nptr && !g->params[i]->ref)
            tl_half_mix(c, e->args[i], tl_base_vt(g->params[i]->type.base), e->args[i]);
    if (!g->ret.nptr && tl_base_vt(g->ret.base) == TR_VT_VEC) {
        /* known in every pass: an operator on the result chooses its overload by it */
        e->vt = TR_VT_VEC;
        e->vec = g->ret.base;
    } else if (!g->ret.nptr && g->ret.base && !strncmp(g->ret.base, "struct ", 7)) {
        e->vt = TR_VT_UNKNOWN; /* a struct: its operators choose by it too */
        e->elem = g->ret.base;
    }
    if (g->ret.nptr) e->elem = g->ret.base; /* what a returned pointer points to */
    if (!c->final) return;
    tr_space *sp = tr_alloc(c->u, (size_t)(g->nparams ? g->nparams : 1) * sizeof *sp);
    for (int i = 0; i < g->nparams; i++) {
        if (!g->params[i]->type.nptr) continue;
        sp[i] = e->args[i]->space;
        if (sp[i] == TR_SP_NONE) {
            tl_refuse(c, e->args[i], "address space",
                      "argument %d of %s is a pointer whose address "
                      "space is not known here",
                      i + 1, g->name);
            return;
        }
    }
    int k = 0;
    for (; k < g->nclones; k++)
        if (!memcmp(g->clones[k].spaces, sp, (size_t)g->nparams * sizeof *sp)) break;
    if (k == g->nclones) {
        if (g->visiting) {
            tl_refuse(c, e, "recursion",
                      "%s calls itself (directly or through others): recursion "
                      "is not allowed in OpenCL and Metal kernels",
                      g->name);
            return;
        }
        tr_clone *nc = tr_alloc(c->u, (size_t)(g->nclones + 1) * sizeof *nc);
        if (g->nclones) memcpy(nc, g->clones, (size_t)g->nclones * sizeof *nc);
        g->clones = nc;
        tr_clone *cl = &g->clones[g->nclones++];
        cl->spaces = sp;
        gp_strbuf name = GP_STRBUF_INIT;
        gp_strbuf_puts(&name, g->name);
        /* the first combination keeps the name; others get the spaces as a suffix */
        if (k > 0) {
            gp_strbuf_puts(&name, "_");
            for (int i = 0; i < g->nparams; i++)
                if (sp[i]) gp_strbuf_putc(&name, tl_space_name[sp[i]][0]);
        }
        cl->name = tr_strdup(c->u, gp_strbuf_cstr(&name));
        gp_strbuf_free(&name);
        tl_lower_function(c, g, cl);
    } else if (g->visiting) {
        tl_refuse(c, e, "recursion",
                  "%s calls itself (directly or through others): recursion is not "
                  "allowed in OpenCL and Metal kernels",
                  g->name);
        return;
    }
    e->callee = g;
    e->callee_clone = k;
    /* who calls which clone: a kernel's build needs exactly the clones it reaches */
    tr_clone_ref **calls = c->kernel ? &c->info->calls : &c->clone->calls;
    int *ncalls = c->kernel ? &c->info->ncalls : &c->clone->ncalls;
    bool seen = false;
    for (int i = 0; i < *ncalls; i++)
        seen |= (*calls)[i].g == g && (*calls)[i].k == k;
    if (!seen) {
        tr_clone_ref *n = tr_alloc(c->u, (size_t)(*ncalls + 1) * sizeof *n);
        if (*ncalls) memcpy(n, *calls, (size_t)*ncalls * sizeof *n);
        n[(*ncalls)++] = (tr_clone_ref){g, k};
        *calls = n;
    }
    e->vt = g->ret.nptr ? TR_VT_PTR : tl_base_vt(g->ret.base);
    if (e->vt == TR_VT_VEC) e->vec = g->ret.base;
    if (g->ret.nptr) e->space = g->clones[k].ret_space;
    /* the callee's built-ins and hoisted shared arrays are passed through this function */
    c->f->builtins |= g->builtins;
    for (int i = 0; i < g->nhoisted; i++)
        tl_add_hoist(c->f, c->u, g->hoisted[i]);
    c->f->uses_fp64 |= g->uses_fp64;
    c->f->uses_atomic64 |= g->uses_atomic64;
    c->f->uses_simd |= g->uses_simd;
}
