/* lockstep.c — see lockstep.h. Each kernel is walked once, with the device functions it calls
 * walked in place (their parameters bound to the call's arguments). Values are affine forms in
 * the work-item's position (threadIdx.x/y/z) over terms that are the same for every work-item of
 * the group (constants, blockIdx, blockDim, value parameters, variables assigned only such
 * values). Every access to shared memory is recorded with its address, the conditions on the
 * work-item that guard it (`tid < s`), and the accesses still pending since the last barrier;
 * two of them conflict when one writes what the other reads, and a work-item other than the
 * writer can reach it — decided from the addresses and the guards, and "possibly" whenever the
 * translation cannot tell. Loops are walked twice, so that an iteration meets the next one.
 *
 * The pieces: lockstep_value.c (affine forms and guards), lockstep_eval.c (expressions and the
 * accesses they make), lockstep_walk.c (statements), lockstep_conflict.c (which pairs of
 * accesses conflict), lockstep_rewrite.c (the rewrite of warp-synchronous tails); this file runs
 * the check per kernel and reports what it finds. */
#include "translate/lockstep.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "translate/lockstep_internal.h"
#include "translate/lower_impl.h"

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
    ls_g_empty(&s->g);
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
    s->lin_seen = false;
    s->nmasks = 0;
    s->nopaque = 0;
    ls_walk(s, k->body);
    if (s->lin_seen && !s->lin_exact && (s->lanes_used[1] || s->lanes_used[2])) {
        /* thread_rank() was taken for threadIdx.x in a kernel that names threadIdx.y or .z */
        free(f.b);
        s->lin_exact = true;
        check_kernel(s, k);
        s->lin_exact = false;
        return;
    }
    if (s->simd && !s->lanes_used[1] && !s->lanes_used[2]) {
        /* a kernel with warp operations runs in whole warps (the runtime refuses other groups):
         * its warp index is below blockDim.x / 32 */
        val bd = ls_v_term(ls_intern(s, "blockDim.x"), 0, 1);
        val w = ls_opaque(s, "/", bd, ls_v_const(32));
        for (int i = 0; i < s->nsnaps; i++)
            ls_guard_add(s->snaps[i], 3, true, w);
    }
    /* the dimensions the kernel uses are known now: which pairs conflict */
    int n = 0;
    for (int p = 0; p < s->npairs; p++)
        if (ls_conflict(s, &s->acc[s->pairs[p][0]], &s->acc[s->pairs[p][1]])) {
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
        int line;
        if (opt->simd_width == 32 && ls_rewrite_tail(&s, k, &line)) {
            check_kernel(&s, k);
            if (!s.npairs)
                tr_diag_add(u, false, u->funcs[i]->file, line, 0, "warp-synchronous code",
                            "the warp-synchronous shared-memory steps here relied on the "
                            "lanes of a warp running in lockstep; they are rewritten with "
                            "SIMD-group shuffles, which compute exactly what lockstep "
                            "execution computes (--simd-width 32)");
        }
        if (s.npairs && k->block_known) {
            /* apart for the block every launch in the file gives it: the output requires that
             * block (GP_REQUIRES_GROUP_SIZE), which the runtime enforces */
            s.use_block = true;
            check_kernel(&s, k);
            s.use_block = false;
            if (!s.npairs && !s.too_big) {
                k->needs_block = true;
                tr_diag_add(u, false, k->file, k->line, 0, "group size",
                            "kernel %s: its shared-memory accesses are apart only for the block "
                            "its launches give (%lld x %lld x %lld): the output requires that "
                            "group (GP_REQUIRES_GROUP_SIZE), and the runtime refuses a launch "
                            "with another",
                            k->name, k->block[0], k->block[1], k->block[2]);
                continue;
            }
            if (!s.npairs) check_kernel(&s, k); /* too big with the block: say what it was */
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
    free(s.masks);
    free(s.bodies);
    drop_accesses(&s);
    free(s.snaps);
}
