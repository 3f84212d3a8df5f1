/* lockstep_internal.h — what the pieces of the lockstep check share: the affine forms and guards
 * (lockstep_value.c), the walk's state and its evaluation of expressions (lockstep_eval.c) and
 * statements (lockstep_walk.c), the decision of which accesses conflict (lockstep_conflict.c),
 * the rewrite of warp-synchronous tails (lockstep_rewrite.c); lockstep.c runs them per kernel
 * and reports. */
#ifndef GP_TRANSLATE_LOCKSTEP_INTERNAL_H
#define GP_TRANSLATE_LOCKSTEP_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <string.h>

#include "translate/ast.h"
#include "translate/lower.h"

enum {
    LANE_WARP = 4,   /* a term's lane: the warp index threadIdx.x / 32 */
    LANE_OPAQUE = 5, /* a term's lane: a value the walk cannot follow that differs per work-item
                      * but is fixed once a variable holds it (`int pos = 2 * t - (t & 7);`,
                      * a load): the key names the value; two accesses at the same such address
                      * are the same work-item's, or two work-items writing one location,
                      * a race CUDA has too */
    MAXT = 8,
    MAXB = 4,
    MAXF = 8, /* a guard's facts */
    MAX_DEPTH = 32,
    MAX_ACCESSES = 20000,
    MAX_PAIRS = 1 << 20,
    MAX_REPORTS = 3,
    MAX_OPAQUE = 1 << 15 /* LANE_OPAQUE values per kernel; beyond, unknown (as they once were) */
};

/* ---- affine forms ------------------------------------------------------------------------ */
typedef struct term {
    const char *key; /* a product of group-uniform names ("blockDim.x", "s#3"); NULL: 1 */
    int lane;        /* 0: none, 1 + d: threadIdx of dimension d, LANE_WARP, LANE_OPAQUE */
    long long coef;
} term;

typedef enum vkind { V_UNKNOWN, V_AFFINE, V_SHARED_PTR, V_OTHER_PTR } vkind;

typedef struct val {
    vkind kind;
    long long c; /* affine: the constant; pointers: byte offset constant */
    term t[MAXT];
    int nt;
    tr_sym *base; /* V_SHARED_PTR: the shared array (NULL: not known which) */
    int esize;    /* pointers: bytes of the pointee (0: unknown) */
    bool lost;    /* V_SHARED_PTR: into `base`, at an offset the walk cannot tell */
    int inj;      /* k > 0: the value is x + (x >> k) of the affine x held (the padding that
                     avoids bank conflicts, one-to-one in x); addresses then count elements */
} val;

/* memcpy of n bytes that may be none, from a pointer that is then allowed to be NULL (an empty
 * list not yet allocated): memcpy itself may not be given NULL even for 0 bytes */
static inline void copy_n(void *dst, const void *src, size_t n)
{
    if (n) memcpy(dst, src, n);
}

typedef struct ls ls;

/* A text being built for a key; `over`: it did not fit (the key is then not made: two long
 * texts cut to one would name different values alike). */
typedef struct tbuf {
    char b[480];
    size_t n;
    bool over;
} tbuf;

/* ---- guards: the conditions on the work-item an access runs under ------------------------- */
enum {
    G_LIN = 4, /* a guard's dimension: the linear index `lin` of several dimensions */
    GDIMS = 5
};

typedef struct guard {
    /* lo <= v < hi, uniform bounds, for v = threadIdx.x, .y, .z, (3) the warp index
     * threadIdx.x / 32 and (G_LIN) the linear index `lin` (threadIdx.y * blockDim.x +
     * threadIdx.x: several dimensions, every coefficient positive) */
    val lo[GDIMS][MAXB], hi[GDIMS][MAXB];
    int nlo[GDIMS], nhi[GDIMS];
    val mod[GDIMS], rem[GDIMS]; /* v % mod == rem */
    bool has_mod[GDIMS];
    val lin; /* the first linear index a condition compared (has_lin) */
    bool has_lin;
    /* facts >= 0 on the group's values where the access runs: a loop's or an if's condition
     * (`j < i` is i - j - 1 >= 0, in the keys of that iteration) */
    val facts[MAXF];
    int nfacts;
} guard;

/* What a guard holds at a point of the walk: narrowing only adds bounds (and a first modulus
 * and linear index), so going back to the point is cutting the counts back. */
typedef struct gmark {
    int nlo[GDIMS], nhi[GDIMS];
    bool has_mod[GDIMS];
    bool has_lin;
    int nfacts;
} gmark;

/* ---- the walk's state
 * ------------------------------------------------------------------------------ */
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

typedef struct frame {
    binding *b;
    int nb, cap;
    tr_func *fn;
    val ret;
    bool has_ret;
} frame;

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
    tr_sym *loop_vars[256]; /* the variables assigned in the loops being walked */
    int nloop_vars;
    int collect_from; /* where the list of the loop being collected begins */
    /* the linear index of cooperative groups' thread_rank(), threadIdx.x + blockDim.x *
     * (threadIdx.y + blockDim.y * threadIdx.z): where the kernel names threadIdx.y and .z
     * nowhere else it is treated as threadIdx.x (lin_seen: it was), as any kernel that names
     * only threadIdx.x is checked as one-dimensional; else (lin_exact) as the sum it is */
    bool lin_seen, lin_exact;
    /* the kernel's launches all give one constant block (tr_func.block): threadIdx of a
     * dimension of size 1 is 0, blockDim is that block (the output then requires it) */
    bool use_block;
    int nopaque; /* LANE_OPAQUE values made for this kernel */
    /* the LANE_OPAQUE values that are t & (n - 1) of a work-item's index t (n a power of two,
     * as the mask says): t % n, which makes r * t - (r - 1) * (t & (n - 1)) the index of the
     * first of r elements n apart, as bitonic sort (r = 2), the samples' scans and radix-4
     * transforms write it */
    struct mask {
        const char *key;
        val n;
        int lane;
    } * masks;
    int nmasks, capmasks;
};

/* ---- lockstep_value.c: affine forms, texts, guards --------------------------------------- */
/* the small constructors and tests, inline: the walk makes them by the million */
static inline val ls_v_unknown(void)
{
    val v = {0};
    v.kind = V_UNKNOWN;
    return v;
}

static inline val ls_v_const(long long c)
{
    val v = {0};
    v.kind = V_AFFINE;
    v.c = c;
    return v;
}

static inline val ls_v_term(const char *key, int lane, long long coef)
{
    val v = ls_v_const(0);
    v.t[0] = (term){key, lane, coef};
    v.nt = 1;
    return v;
}

static inline bool ls_lane_free(const val *v)
{
    if (v->kind != V_AFFINE) return false;
    for (int i = 0; i < v->nt; i++)
        if (v->t[i].lane) return false;
    return true;
}

static inline bool ls_as_const(const val *v, long long *c)
{
    if (v->kind != V_AFFINE || v->nt) return false;
    *c = v->c;
    return true;
}

int ls_cmp_term(const term *a, const term *b);
/* Adds k * (term) to v, keeping the terms sorted and merged; false when there are too many. */
bool ls_add_term(val *v, term t);
val ls_v_add(val a, val b, long long sb); /* a + sb * b */
val ls_v_scale(val a, long long k);
val ls_v_mul(ls *s, val a, val b);
bool ls_v_equal(const val *a, const val *b);
void ls_tb_s(tbuf *t, const char *x);
void ls_v_print(const val *v, tbuf *t);
unsigned ls_text_hash(const char *t);
const char *ls_intern(ls *s, const char *text);
/* A uniform name of its own ("name#7"), for a value the walk cannot name otherwise. */
const char *ls_fresh(ls *s, const char *name);
/* A value per work-item the walk cannot follow, named after `name` (LANE_OPAQUE). */
val ls_v_opaque_lane(ls *s, const char *name);
bool ls_has_opaque_lane(const val *v);
/* The n and the lane of a LANE_OPAQUE key that is t & (n - 1) (false: it is not one). */
bool ls_mask_of(const ls *s, const char *key, val *n, int *lane);
gmark ls_g_mark(const guard *g);
void ls_g_restore(guard *g, const gmark *m);
void ls_g_empty(guard *g);
void ls_g_copy(guard *dst, const guard *src);
void ls_guard_add(guard *g, int d, bool hi, val b);
/* Whether a < b can hold ("unknown" counts as can). */
bool ls_may_less(val a, val b);
/* Whether forms f[i] >= 0 can all hold. */
bool ls_may_all_hold(const val *f, int n);

/* ---- lockstep_eval.c: expressions, the values they take and the accesses they make -------- */
val *ls_lookup(ls *s, tr_sym *sym);
/* A local or parameter of a scalar type (not a pointer, array or reference). */
bool ls_is_scalar_var(const tr_sym *sym);
void ls_bind(ls *s, tr_sym *sym, val v);
int ls_type_size(const char *b);
tr_func *ls_find_body(ls *s, const char *name);
/* An opaque value: uniform when its parts are, else a value of the work-item named by the
 * operation and its operands (unknown when an operand is). */
val ls_opaque(ls *s, const char *op, val a, val b);
void ls_record_pair(ls *s, int i, int j);
bool ls_is_builtin_member(tr_expr *e, int *kind, int *dim);
val ls_ptr_of(ls *s, tr_sym *sym);
/* The address an lvalue names (a shared pointer value with the element's size), or not shared. */
val ls_address(ls *s, tr_expr *e, int *size);
bool ls_lvalue_is_var(tr_expr *e);
val ls_eval(ls *s, tr_expr *e);

/* ---- lockstep_walk.c: statements, guards narrowed by conditions, loops -------------------- */
void ls_copy_frame(frame *dst, const frame *src);
void ls_walk(ls *s, tr_stmt *st);

/* ---- lockstep_conflict.c ----------------------------------------------------------------- */
/* Whether accesses a and b (one of them writes) can touch one location from two work-items. */
bool ls_conflict(const ls *s, const ls_access *a, const ls_access *b);

/* ---- lockstep_rewrite.c ------------------------------------------------------------------ */
/* With every conflict of the kernel just checked in one warp-0 region: rewrites that region's
 * warp-synchronous tail with SIMD-group shuffles where that is exact. True when it did; *line
 * is then the region's line. */
bool ls_rewrite_tail(ls *s, tr_func *k, int *line);

#endif
