/* metrics.c — the streaming comparison of two tensors (metrics.h). Elements are read in blocks
 * that are converted to double (plus an order-preserving integer key per value, for exact ULP
 * and integer distances), so no temporary ever grows with the tensor. Sums are kept per fixed
 * chunk and added in chunk order; everything else (counts, maxima, histograms, the worst-k heap
 * with index tie-breaks) does not depend on the order, so any thread count gives one answer. */
#include "compare/metrics.h"

#include "util/fs.h"
#include "util/term.h"

#include <math.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util/thread.h"

#define GP_METRICS_BLOCK 1024
#define GP_METRICS_CHUNK (1u << 20) /* elements per chunk: the unit of work and of summation */

typedef struct side_block {
    double re[GP_METRICS_BLOCK];
    double im[GP_METRICS_BLOCK];
    uint64_t kre[GP_METRICS_BLOCK];
    uint64_t kim[GP_METRICS_BLOCK];
    uint64_t off[GP_METRICS_BLOCK];
} side_block;

typedef struct chunk_sums {
    double abs, sq_err, ref_sq, oth_sq, dot;
} chunk_sums;

typedef struct acc {
    uint64_t finite, mismatched, nan_mis, inf_mis, nan_both, max_ulp, ref_finite;
    double max_abs;
    uint64_t max_idx;
    bool has_max;
    double max_rel, min_atol, min_rtol;
    /* four copies, one per lane, so that neighbouring elements falling into the same bin do not
     * wait on each other's increments */
    uint64_t ulp_hist[4][GP_ULP_HIST_BINS];
    uint64_t err_hist[4][GP_ERR_HIST_BINS];
    gp_worst *heap;
    size_t nheap;
} acc;

typedef struct job {
    const gp_tensor_view *ref, *oth;
    const gp_tolerance *tol;
    double floor;
    bool prepass;      /* only the reference's sum of squares (for the floor) */
    bool mixed;        /* memory orders differ: iterate in logical order, gather */
    bool both_fortran; /* iterate in (shared) column-major storage order */
    bool is_int;       /* distances from the integer keys */
    bool cplx;
    bool release;
    bool f32_direct; /* both sides contiguous float32 in host order: read without conversion */
    bool avx2;       /* ... with AVX2 */
    gp_dtype ulp_t;  /* a real dtype: ULPs count in it (the narrower one of a mixed pair) */
    bool rekey_ref, rekey_oth; /* that side is wider than ulp_t: its keys are recomputed */
    const char *label;         /* for the progress line */
    size_t k;
    uint64_t n, nchunks;
    atomic_uint_fast64_t next;
    chunk_sums *sums;
    uint64_t fstride[GP_TENSOR_MAX_DIMS];
} job;

typedef struct worker {
    job *j;
    bool shows_progress; /* the calling thread, when a label was given */
    acc a;
    int failed;
} worker;

static int metrics_fail(char *err, size_t errlen, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    if (err && errlen) vsnprintf(err, errlen, fmt, ap);
    va_end(ap);
    return -1;
}

/* --- reading elements -------------------------------------------------------------------- */

static bool host_big_endian(void)
{
    const uint16_t one = 1;
    uint8_t b;
    memcpy(&b, &one, 1);
    return b == 0;
}

static uint16_t ld16(const uint8_t *p, bool sw)
{
    uint16_t u;
    memcpy(&u, p, 2);
    return sw ? __builtin_bswap16(u) : u;
}

static uint32_t ld32(const uint8_t *p, bool sw)
{
    uint32_t u;
    memcpy(&u, p, 4);
    return sw ? __builtin_bswap32(u) : u;
}

static uint64_t ld64(const uint8_t *p, bool sw)
{
    uint64_t u;
    memcpy(&u, p, 8);
    return sw ? __builtin_bswap64(u) : u;
}

/* Maps a sign-magnitude float to an integer with the same order, +0 and -0 alike. */
static uint64_t key_float(bool neg, uint64_t mag)
{
    return neg ? (UINT64_C(1) << 63) - mag : (UINT64_C(1) << 63) + mag;
}

static float bits_to_f32(uint32_t u)
{
    float f;
    memcpy(&f, &u, 4);
    return f;
}

static double bits_to_f64(uint64_t u)
{
    double d;
    memcpy(&d, &u, 8);
    return d;
}

static float f16_to_f32(uint16_t h)
{
    uint32_t s = (uint32_t)(h >> 15) << 31, e = (h >> 10) & 0x1f, m = h & 0x3ff, f;
    if (e == 0) {
        if (m == 0)
            f = s;
        else {
            uint32_t sh = 0;
            while (!(m & 0x400))
                m <<= 1, sh++;
            f = s | ((113 - sh) << 23) | ((m & 0x3ff) << 13);
        }
    } else if (e == 31) {
        f = s | 0x7f800000u | (m << 13);
    } else {
        f = s | ((e + 112) << 23) | (m << 13);
    }
    return bits_to_f32(f);
}

static void load_real(const gp_tensor_view *v, bool sw, const uint64_t *off, size_t n,
                      side_block *b)
{
    const uint8_t *d = v->data;
    size_t es = gp_dtype_size(v->dtype);
    for (size_t i = 0; i < n; i++) {
        const uint8_t *p = d + off[i] * es;
        switch (v->dtype) {
        case GP_DTYPE_BOOL:
            b->re[i] = p[0] != 0, b->kre[i] = p[0] != 0;
            break;
        case GP_DTYPE_I8:
            b->re[i] = (int8_t)p[0],
            b->kre[i] = (uint64_t)(int64_t)(int8_t)p[0] + (UINT64_C(1) << 63);
            break;
        case GP_DTYPE_U8:
            b->re[i] = p[0], b->kre[i] = p[0];
            break;
        case GP_DTYPE_I16: {
            int16_t x = (int16_t)ld16(p, sw);
            b->re[i] = x, b->kre[i] = (uint64_t)(int64_t)x + (UINT64_C(1) << 63);
        } break;
        case GP_DTYPE_U16:
            b->kre[i] = ld16(p, sw), b->re[i] = (double)b->kre[i];
            break;
        case GP_DTYPE_I32: {
            int32_t x = (int32_t)ld32(p, sw);
            b->re[i] = x, b->kre[i] = (uint64_t)(int64_t)x + (UINT64_C(1) << 63);
        } break;
        case GP_DTYPE_U32:
            b->kre[i] = ld32(p, sw), b->re[i] = (double)b->kre[i];
            break;
        case GP_DTYPE_I64: {
            int64_t x = (int64_t)ld64(p, sw);
            b->re[i] = (double)x, b->kre[i] = (uint64_t)x + (UINT64_C(1) << 63);
        } break;
        case GP_DTYPE_U64:
            b->kre[i] = ld64(p, sw), b->re[i] = (double)b->kre[i];
            break;
        case GP_DTYPE_F16: {
            uint16_t u = ld16(p, sw);
            b->re[i] = f16_to_f32(u), b->kre[i] = key_float(u >> 15, u & 0x7fff);
        } break;
        case GP_DTYPE_BF16: {
            uint16_t u = ld16(p, sw);
            b->re[i] = bits_to_f32((uint32_t)u << 16), b->kre[i] = key_float(u >> 15, u & 0x7fff);
        } break;
        case GP_DTYPE_F32: {
            uint32_t u = ld32(p, sw);
            b->re[i] = bits_to_f32(u), b->kre[i] = key_float(u >> 31, u & 0x7fffffffu);
        } break;
        case GP_DTYPE_F64: {
            uint64_t u = ld64(p, sw);
            b->re[i] = bits_to_f64(u), b->kre[i] = key_float(u >> 63, u & ~(UINT64_C(1) << 63));
        } break;
        default:
            b->re[i] = 0, b->kre[i] = 0;
            break;
        }
    }
}

static void load_complex(const gp_tensor_view *v, bool sw, const uint64_t *off, size_t n,
                         side_block *b)
{
    const uint8_t *d = v->data;
    for (size_t i = 0; i < n; i++) {
        if (v->dtype == GP_DTYPE_C64) {
            const uint8_t *p = d + off[i] * 8;
            uint32_t r = ld32(p, sw), m = ld32(p + 4, sw);
            b->re[i] = bits_to_f32(r), b->kre[i] = key_float(r >> 31, r & 0x7fffffffu);
            b->im[i] = bits_to_f32(m), b->kim[i] = key_float(m >> 31, m & 0x7fffffffu);
        } else {
            const uint8_t *p = d + off[i] * 16;
            uint64_t r = ld64(p, sw), m = ld64(p + 8, sw);
            const uint64_t mask = ~(UINT64_C(1) << 63);
            b->re[i] = bits_to_f64(r), b->kre[i] = key_float(r >> 63, r & mask);
            b->im[i] = bits_to_f64(m), b->kim[i] = key_float(m >> 63, m & mask);
        }
    }
}

/* The fast path of the common case: contiguous little-endian float32 on a little-endian host. */
static void load_f32_contig(const gp_tensor_view *v, uint64_t start, size_t n, side_block *b)
{
    const uint8_t *p = v->data + start * 4;
    for (size_t i = 0; i < n; i++) {
        uint32_t u;
        memcpy(&u, p + 4 * i, 4);
        b->re[i] = bits_to_f32(u);
        b->kre[i] = key_float(u >> 31, u & 0x7fffffffu);
    }
}

/* x rounded to nearest (ties to even) in a binary float format of `bits` significant bits whose
 * smallest normal exponent is emin and largest finite value max (overflow gives infinity). The
 * result is exact in float32 for the formats used here (f16, bf16, f32). */
static double round_to_format(double x, int bits, int emin, double max)
{
    if (x == 0 || !isfinite(x)) return x;
    int e = ilogb(x);
    if (e < emin) e = emin; /* subnormal: the last place stays at emin's */
    double r = ldexp(nearbyint(ldexp(x, bits - 1 - e)), e - (bits - 1));
    return fabs(r) > max ? copysign(INFINITY, x) : r;
}

/* The order key of x after rounding it to real dtype t (f16, bf16, f32 or f64). */
static uint64_t key_in(gp_dtype t, double x)
{
    if (t == GP_DTYPE_F64) {
        uint64_t u;
        memcpy(&u, &x, 8);
        return key_float(u >> 63, u & ~(UINT64_C(1) << 63));
    }
    double r = t == GP_DTYPE_F16    ? round_to_format(x, 11, -14, 65504.0)
               : t == GP_DTYPE_BF16 ? round_to_format(x, 8, -126, 3.38953138925153547590e38)
                                    : round_to_format(x, 24, -126, 3.40282346638528859812e38);
    float f = (float)r; /* exact */
    uint32_t u;
    memcpy(&u, &f, 4);
    if (t == GP_DTYPE_F32) return key_float(u >> 31, u & 0x7fffffffu);
    if (t == GP_DTYPE_BF16) return key_float(u >> 31, (u >> 16) & 0x7fff);
    /* f16: re-encode the (exactly representable) float32 value */
    uint32_t exp = (u >> 23) & 0xff, mant = u & 0x7fffff, h;
    int e = (int)exp - 127;
    if (exp == 0xff)
        h = 0x7c00 | (mant ? 0x200 : 0);
    else if (exp == 0)
        h = 0;
    else if (e >= -14)
        h = (uint32_t)(e + 15) << 10 | mant >> 13;
    else
        h = (mant | 0x800000) >> (-1 - e); /* subnormal: value / 2^-24 */
    return key_float(u >> 31, h);
}

/* The wider side of a mixed pair: its keys in the narrower dtype, so that ULPs count there. */
static void rekey(const job *j, size_t n, side_block *b)
{
    for (size_t i = 0; i < n; i++) {
        b->kre[i] = key_in(j->ulp_t, b->re[i]);
        if (j->cplx) b->kim[i] = key_in(j->ulp_t, b->im[i]);
    }
}

/* Column-major offset of the element whose C-order linear index is i. */
static uint64_t fortran_offset(const job *j, const gp_tensor_view *v, uint64_t i)
{
    uint64_t off = 0;
    for (int d = v->ndim - 1; d >= 0; d--) {
        uint64_t s = v->shape[d];
        off += (i % s) * j->fstride[d];
        i /= s;
    }
    return off;
}

/* The logical C-order index of iteration index it. */
static uint64_t logical_index(const job *j, uint64_t it)
{
    if (!j->both_fortran) return it;
    const gp_tensor_view *v = j->ref;
    uint64_t idx = 0;
    uint64_t rest = it;
    uint64_t mult[GP_TENSOR_MAX_DIMS], mi[GP_TENSOR_MAX_DIMS];
    for (int d = 0; d < v->ndim; d++) {
        mi[d] = rest % v->shape[d];
        rest /= v->shape[d];
    }
    uint64_t m = 1;
    for (int d = v->ndim - 1; d >= 0; d--) {
        mult[d] = m;
        m *= v->shape[d];
    }
    for (int d = 0; d < v->ndim; d++)
        idx += mi[d] * mult[d];
    return idx;
}

static void load_side(const job *j, const gp_tensor_view *v, uint64_t start, size_t n,
                      side_block *b)
{
    bool sw = v->big_endian != host_big_endian();
    bool gather = j->mixed && v->fortran;
    if (!gather && !sw && v->dtype == GP_DTYPE_F32) {
        load_f32_contig(v, start, n, b);
        return;
    }
    for (size_t i = 0; i < n; i++)
        b->off[i] = gather ? fortran_offset(j, v, start + i) : start + i;
    if (gp_dtype_is_complex(v->dtype))
        load_complex(v, sw, b->off, n, b);
    else
        load_real(v, sw, b->off, n, b);
}

/* --- accumulating ------------------------------------------------------------------------ */

static int ulp_bin(uint64_t u)
{
    if (u < 64) return (int)u;
    int o = 63 - __builtin_clzll(u); /* 6..63 */
    return 64 + (o - 6) * 16 + (int)((u >> (o - 4)) & 15);
}

/* The largest ULP distance that falls into bin b. */
static uint64_t ulp_bin_top(int b)
{
    if (b < 64) return (uint64_t)b;
    int o = (b - 64) / 16 + 6, sub = (b - 64) % 16;
    uint64_t lo = (UINT64_C(16) + (uint64_t)sub) << (o - 4);
    uint64_t width = UINT64_C(1) << (o - 4);
    return lo + (width - 1);
}

static int err_bin(double d)
{
    if (d == 0) return 0;
    uint64_t u;
    memcpy(&u, &d, 8);
    int e = (int)((u >> 52) & 0x7ff) - 1023;
    if (e < -60) return 1;
    if (e >= 60) return GP_ERR_HIST_BINS - 1;
    return 2 + e + 60;
}

double gp_metrics_err_bin_low(int b)
{
    if (b <= 1) return 0;
    return ldexp(1.0, b - 2 - 60);
}

static bool worse(const gp_worst *x, const gp_worst *y)
{
    return x->abs_err > y->abs_err || (x->abs_err == y->abs_err && x->index < y->index);
}

/* Min-heap on "worse": the root is the least bad of the kept elements. */
static void heap_sift_down(gp_worst *h, size_t n, size_t i)
{
    for (;;) {
        size_t l = 2 * i + 1, r = l + 1, m = i;
        if (l < n && worse(&h[m], &h[l])) m = l;
        if (r < n && worse(&h[m], &h[r])) m = r;
        if (m == i) return;
        gp_worst t = h[i];
        h[i] = h[m];
        h[m] = t;
        i = m;
    }
}

static void heap_offer(acc *a, size_t k, const gp_worst *w)
{
    if (k == 0) return;
    if (a->nheap < k) {
        size_t i = a->nheap++;
        a->heap[i] = *w;
        while (i > 0) {
            size_t p = (i - 1) / 2;
            if (!worse(&a->heap[p], &a->heap[i])) break;
            gp_worst t = a->heap[i];
            a->heap[i] = a->heap[p];
            a->heap[p] = t;
            i = p;
        }
    } else if (worse(w, &a->heap[0])) {
        a->heap[0] = *w;
        heap_sift_down(a->heap, a->nheap, 0);
    }
}

/* Cheap pre-check so that the index is computed only for candidates; exact matches are never
 * "worst". */
static bool heap_wants(const acc *a, size_t k, double abs_err)
{
    return k > 0 && abs_err > 0 && (a->nheap < k || abs_err >= a->heap[0].abs_err);
}

static void note_nonfinite(const job *j, acc *a, uint64_t it, const side_block *r,
                           const side_block *o, size_t i)
{
    double ar = r->re[i], ai = j->cplx ? r->im[i] : 0, br = o->re[i], bi = j->cplx ? o->im[i] : 0;
    bool an = isnan(ar) || isnan(ai), bn = isnan(br) || isnan(bi), fail;
    if (an || bn) {
        fail = !(an && bn && j->tol->equal_nan);
        if (an != bn) a->nan_mis++;
        if (an && bn) a->nan_both++;
    } else {
        fail = !(ar == br && ai == bi);
        if (fail) a->inf_mis++;
    }
    if (!fail) return;
    a->mismatched++;
    if (heap_wants(a, j->k, INFINITY)) {
        gp_worst w = {logical_index(j, it), {ar, ai}, {br, bi}, INFINITY, INFINITY, UINT64_MAX};
        heap_offer(a, j->k, &w);
    }
}

static void note_finite(const job *j, acc *a, uint64_t it, double d, double mag, uint64_t ulp,
                        const side_block *r, const side_block *o, size_t i)
{
    const gp_tolerance *t = j->tol;
    a->finite++;
    if (d > a->max_abs || !a->has_max) {
        a->max_abs = d;
        a->max_idx = it;
        a->has_max = true;
    }
    double den = mag > j->floor ? mag : j->floor;
    double rel, need_r;
    if (den > 0) {
        double inv = 1.0 / den;
        rel = d * inv;
        need_r = (d - t->atol) * inv;
    } else {
        rel = d > 0 ? INFINITY : 0;
        need_r = d > t->atol ? INFINITY : 0;
    }
    if (rel > a->max_rel) a->max_rel = rel;
    if (need_r > a->min_rtol) a->min_rtol = need_r;
    double need_a = d - t->rtol * den;
    if (need_a > a->min_atol) a->min_atol = need_a;
    if (!(d <= t->atol + t->rtol * den)) a->mismatched++;
    if (ulp > a->max_ulp) a->max_ulp = ulp;
    a->ulp_hist[0][ulp_bin(ulp)]++;
    a->err_hist[0][err_bin(d)]++;
    if (heap_wants(a, j->k, d)) {
        gp_worst w = {logical_index(j, it),
                      {r->re[i], j->cplx ? r->im[i] : 0},
                      {o->re[i], j->cplx ? o->im[i] : 0},
                      d,
                      rel,
                      ulp};
        heap_offer(a, j->k, &w);
    }
}

/* The common case, a block of finite floating-point pairs, in two-wide vectors (GCC/clang
 * vector extensions; SSE2 and NEON have them natively). Per-lane
 * partial results are combined in a fixed order, so the answer stays the same for any thread
 * count. The rare work (a new maximum, a candidate for the worst list) runs only for blocks
 * that hold one. Returns false, having changed nothing, when the block holds a NaN or Inf. */
typedef double v2d __attribute__((vector_size(16)));
typedef int64_t v2l __attribute__((vector_size(16)));
typedef uint64_t v2u __attribute__((vector_size(16)));

static inline v2d v2_sel(v2l m, v2d a, v2d b)
{
    return (v2d)((m & (v2l)a) | (~m & (v2l)b));
}

static inline v2d v2_max(v2d a, v2d b)
{
    return v2_sel(a > b, a, b);
}

static inline v2d v2_load(const double *p)
{
    v2d v;
    memcpy(&v, p, sizeof(v));
    return v;
}

static inline v2u v2u_load(const uint64_t *p)
{
    v2u v;
    memcpy(&v, p, sizeof(v));
    return v;
}

/* Per-lane partial results of one block. */
typedef struct vacc {
    v2d sabs, ssq, srr, soo, sro, vmax, vrel, vna, vnr;
    v2l mis, bad;
    v2u umax;
} vacc;

typedef struct vconst {
    v2d zero, one, inf, atol, rtol, fl;
    v2l absmask;
} vconst;

static inline void vstep(vacc *A, const vconst *C, v2d x, v2d y, v2u ka, v2u kb, double *dv,
                         uint64_t *uv)
{
    A->bad |= (x - x != C->zero) | (y - y != C->zero);
    v2u u = (v2u)v2_sel((v2l)(ka > kb), (v2d)(ka - kb), (v2d)(kb - ka));
    v2d d = (v2d)((v2l)(y - x) & C->absmask);
    v2d mag = (v2d)((v2l)x & C->absmask);
    v2d den = v2_max(mag, C->fl);
    v2l z = den == C->zero;
    v2d inv = C->one / v2_sel(z, C->one, den);
    v2d rel = v2_sel(z, v2_sel(d > C->zero, C->inf, C->zero), d * inv);
    v2d nr = v2_sel(z, v2_sel(d > C->atol, C->inf, C->zero), (d - C->atol) * inv);
    v2d na = d - C->rtol * den;
    A->sabs += d, A->ssq += d * d, A->srr += x * x, A->soo += y * y, A->sro += x * y;
    A->vmax = v2_max(d, A->vmax), A->vrel = v2_max(rel, A->vrel);
    A->vna = v2_max(na, A->vna), A->vnr = v2_max(nr, A->vnr);
    A->mis -= ~(d <= C->atol + C->rtol * den); /* a true mask is -1 */
    A->umax = (v2u)v2_sel((v2l)(u > A->umax), (v2d)u, (v2d)A->umax);
    memcpy(dv, &d, sizeof(d));
    memcpy(uv, &u, sizeof(u));
}

static void vsetup(const job *j, vacc *A, vconst *C)
{
    const v2d zero = {0, 0};
    C->zero = zero, C->one = zero + 1, C->inf = zero + INFINITY;
    C->atol = zero + j->tol->atol, C->rtol = zero + j->tol->rtol, C->fl = zero + j->floor;
    C->absmask = (v2l){INT64_MAX, INT64_MAX};
    memset(A, 0, sizeof(*A));
    A->vna = A->vnr = -C->inf;
}

/* The order-preserving keys of two float32 bit patterns, as in key_float. */
static inline v2u vkey_f32(const uint8_t *p)
{
    uint32_t u[2];
    memcpy(u, p, 8);
    v2u w = {u[0], u[1]};
    v2u mag = w & 0x7fffffffu, neg = (v2u){0, 0} - (w >> 31);
    return (UINT64_C(1) << 63) + ((mag ^ neg) - neg);
}

static inline v2d vload_f32(const uint8_t *p)
{
    float f[2];
    memcpy(f, p, 8);
    return (v2d){f[0], f[1]};
}

/* A block's lanes (two with SSE2/NEON vectors, four with AVX2), in a width-neutral form. */
typedef struct blanes {
    int nl;
    double sabs[4], ssq[4], srr[4], soo[4], sro[4], vmax[4], vrel[4], vna[4], vnr[4];
    int64_t mis[4], bad[4];
    uint64_t umax[4];
} blanes;

static void vacc_lanes(const vacc *A, blanes *L)
{
    L->nl = 2;
    for (int k = 0; k < 2; k++) {
        L->sabs[k] = A->sabs[k], L->ssq[k] = A->ssq[k], L->srr[k] = A->srr[k];
        L->soo[k] = A->soo[k], L->sro[k] = A->sro[k], L->vmax[k] = A->vmax[k];
        L->vrel[k] = A->vrel[k], L->vna[k] = A->vna[k], L->vnr[k] = A->vnr[k];
        L->mis[k] = A->mis[k], L->bad[k] = A->bad[k], L->umax[k] = A->umax[k];
    }
}

static bool commit_fast(const job *j, acc *a, chunk_sums *s, uint64_t start, size_t n,
                        const blanes *L, const double *rre, const double *ore, const double *dv,
                        const uint64_t *uv);

/* Both sides contiguous little-endian float32: read straight from the mapping. */
static bool run_block_f32(const job *j, acc *a, chunk_sums *s, uint64_t start, size_t n, double *dv,
                          uint64_t *uv, double *rre, double *ore)
{
    if (n % 4 != 0) return false;
    vacc A;
    vconst C;
    vsetup(j, &A, &C);
    const uint8_t *rp = j->ref->data + start * 4, *op = j->oth->data + start * 4;
    for (size_t i = 0; i < n; i += 2) {
        v2d x = vload_f32(rp + 4 * i), y = vload_f32(op + 4 * i);
        vstep(&A, &C, x, y, vkey_f32(rp + 4 * i), vkey_f32(op + 4 * i), &dv[i], &uv[i]);
        memcpy(&rre[i], &x, sizeof(x));
        memcpy(&ore[i], &y, sizeof(y));
    }
    blanes L;
    vacc_lanes(&A, &L);
    return commit_fast(j, a, s, start, n, &L, rre, ore, dv, uv);
}

static bool run_block_fast(const job *j, acc *a, chunk_sums *s, uint64_t start, size_t n,
                           const side_block *r, const side_block *o, double *dv, uint64_t *uv)
{
    if (n % 4 != 0) return false;
    vacc A;
    vconst C;
    vsetup(j, &A, &C);
    for (size_t i = 0; i < n; i += 2)
        vstep(&A, &C, v2_load(&r->re[i]), v2_load(&o->re[i]), v2u_load(&r->kre[i]),
              v2u_load(&o->kre[i]), &dv[i], &uv[i]);
    blanes L;
    vacc_lanes(&A, &L);
    return commit_fast(j, a, s, start, n, &L, r->re, o->re, dv, uv);
}

/* Adds a block's lanes to the chunk and the thread's results; false (nothing added) when the
 * block held a NaN or Inf, which the careful path then handles. */
static bool commit_fast(const job *j, acc *a, chunk_sums *s, uint64_t start, size_t n,
                        const blanes *L, const double *rre, const double *ore, const double *dv,
                        const uint64_t *uv)
{
    for (int k = 0; k < L->nl; k++)
        if (L->bad[k]) return false;
    double bmax = 0;
    for (int k = 0; k < L->nl; k++) {
        s->abs += L->sabs[k], s->sq_err += L->ssq[k], s->ref_sq += L->srr[k];
        s->oth_sq += L->soo[k], s->dot += L->sro[k];
        a->mismatched += (uint64_t)L->mis[k];
        if (L->vmax[k] > bmax) bmax = L->vmax[k];
        if (L->vrel[k] > a->max_rel) a->max_rel = L->vrel[k];
        if (L->vna[k] > a->min_atol) a->min_atol = L->vna[k];
        if (L->vnr[k] > a->min_rtol) a->min_rtol = L->vnr[k];
        if (L->umax[k] > a->max_ulp) a->max_ulp = L->umax[k];
    }
    a->finite += n;
    for (size_t i = 0; i < n; i += 4)
        for (int k = 0; k < 4; k++) {
            a->ulp_hist[k][ulp_bin(uv[i + k])]++;
            a->err_hist[k][err_bin(dv[i + k])]++;
        }
    size_t i = 0;
    if (!a->has_max || bmax > a->max_abs) {
        while (i < n && dv[i] != bmax)
            i++;
        a->max_abs = bmax, a->max_idx = start + i, a->has_max = true;
    }
    if (!heap_wants(a, j->k, bmax)) return true;
    for (i = 0; i < n; i++) {
        if (!heap_wants(a, j->k, dv[i])) continue;
        double mag = fabs(rre[i]), den = mag > j->floor ? mag : j->floor;
        double rel = den > 0 ? dv[i] / den : INFINITY;
        gp_worst w = {logical_index(j, start + i), {rre[i], 0}, {ore[i], 0}, dv[i], rel, uv[i]};
        heap_offer(a, j->k, &w);
    }
    return true;
}

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
/* The same as run_block_f32 in four-wide AVX2 vectors, chosen at run time where the CPU has
 * AVX2. Its sums are added in four lanes instead of two, so the last bits of the sums can differ
 * between CPUs with and without AVX2 (never between thread counts). */
typedef double v4d __attribute__((vector_size(32)));
typedef int64_t v4l __attribute__((vector_size(32)));
typedef uint64_t v4u __attribute__((vector_size(32)));
#define GP_AVX2 __attribute__((target("avx2"), always_inline)) static inline

GP_AVX2 v4d v4_sel(v4l m, v4d a, v4d b)
{
    return (v4d)((m & (v4l)a) | (~m & (v4l)b));
}

GP_AVX2 v4d v4_max(v4d a, v4d b)
{
    return v4_sel(a > b, a, b);
}

GP_AVX2 v4d v4_load_f32(const uint8_t *p)
{
    float f[4];
    memcpy(f, p, 16);
    return (v4d){f[0], f[1], f[2], f[3]};
}

GP_AVX2 v4u v4_key_f32(const uint8_t *p)
{
    uint32_t u[4];
    memcpy(u, p, 16);
    v4u w = {u[0], u[1], u[2], u[3]};
    v4u mag = w & 0x7fffffffu, neg = (v4u){0, 0, 0, 0} - (w >> 31);
    return (UINT64_C(1) << 63) + ((mag ^ neg) - neg);
}

__attribute__((target("avx2"))) static bool run_block_f32_avx2(const job *j, acc *a, chunk_sums *s,
                                                               uint64_t start, size_t n, double *dv,
                                                               uint64_t *uv, double *rre,
                                                               double *ore)
{
    if (n % 4 != 0) return false;
    const v4d zero = {0, 0, 0, 0}, one = zero + 1, inf = zero + INFINITY;
    const v4d atol = zero + j->tol->atol, rtol = zero + j->tol->rtol, fl = zero + j->floor;
    const v4l absmask = {INT64_MAX, INT64_MAX, INT64_MAX, INT64_MAX};
    v4d sabs = zero, ssq = zero, srr = zero, soo = zero, sro = zero;
    v4d vmax = zero, vrel = zero, vna = -inf, vnr = -inf;
    v4l mis = {0, 0, 0, 0}, bad = {0, 0, 0, 0};
    v4u umax = {0, 0, 0, 0};
    const uint8_t *rp = j->ref->data + start * 4, *op = j->oth->data + start * 4;
    for (size_t i = 0; i < n; i += 4) {
        v4d x = v4_load_f32(rp + 4 * i), y = v4_load_f32(op + 4 * i);
        v4u ka = v4_key_f32(rp + 4 * i), kb = v4_key_f32(op + 4 * i);
        bad |= (x - x != zero) | (y - y != zero);
        v4u u = (v4u)v4_sel((v4l)(ka > kb), (v4d)(ka - kb), (v4d)(kb - ka));
        v4d d = (v4d)((v4l)(y - x) & absmask);
        v4d den = v4_max((v4d)((v4l)x & absmask), fl);
        v4l z = den == zero;
        v4d inv = one / v4_sel(z, one, den);
        v4d rel = v4_sel(z, v4_sel(d > zero, inf, zero), d * inv);
        v4d nr = v4_sel(z, v4_sel(d > atol, inf, zero), (d - atol) * inv);
        sabs += d, ssq += d * d, srr += x * x, soo += y * y, sro += x * y;
        vmax = v4_max(d, vmax), vrel = v4_max(rel, vrel);
        vna = v4_max(d - rtol * den, vna), vnr = v4_max(nr, vnr);
        mis -= ~(d <= atol + rtol * den);
        umax = (v4u)v4_sel((v4l)(u > umax), (v4d)u, (v4d)umax);
        memcpy(&dv[i], &d, sizeof(d));
        memcpy(&uv[i], &u, sizeof(u));
        memcpy(&rre[i], &x, sizeof(x));
        memcpy(&ore[i], &y, sizeof(y));
    }
    blanes L;
    L.nl = 4;
    for (int k = 0; k < 4; k++) {
        L.sabs[k] = sabs[k], L.ssq[k] = ssq[k], L.srr[k] = srr[k], L.soo[k] = soo[k];
        L.sro[k] = sro[k], L.vmax[k] = vmax[k], L.vrel[k] = vrel[k], L.vna[k] = vna[k];
        L.vnr[k] = vnr[k], L.mis[k] = mis[k], L.bad[k] = bad[k], L.umax[k] = umax[k];
    }
    return commit_fast(j, a, s, start, n, &L, rre, ore, dv, uv);
}

static bool cpu_has_avx2(void)
{
    return __builtin_cpu_supports("avx2");
}
#else
static bool run_block_f32_avx2(const job *j, acc *a, chunk_sums *s, uint64_t start, size_t n,
                               double *dv, uint64_t *uv, double *rre, double *ore)
{
    return run_block_f32(j, a, s, start, n, dv, uv, rre, ore);
}

static bool cpu_has_avx2(void)
{
    return false;
}
#endif

static void run_block(const job *j, acc *a, chunk_sums *s, uint64_t start, size_t n,
                      const side_block *r, const side_block *o)
{
    for (size_t i = 0; i < n; i++) {
        double ar = r->re[i], br = o->re[i];
        if (!j->cplx) {
            if (!(isfinite(ar) && isfinite(br))) {
                note_nonfinite(j, a, start + i, r, o, i);
                continue;
            }
            uint64_t ka = r->kre[i], kb = o->kre[i];
            uint64_t ulp = ka > kb ? ka - kb : kb - ka;
            double d = j->is_int ? (double)ulp : fabs(br - ar);
            s->abs += d;
            s->sq_err += d * d;
            s->ref_sq += ar * ar;
            s->oth_sq += br * br;
            s->dot += ar * br;
            note_finite(j, a, start + i, d, fabs(ar), ulp, r, o, i);
        } else {
            double ai = r->im[i], bi = o->im[i];
            if (!(isfinite(ar) && isfinite(br) && isfinite(ai) && isfinite(bi))) {
                note_nonfinite(j, a, start + i, r, o, i);
                continue;
            }
            uint64_t u1 = r->kre[i] > o->kre[i] ? r->kre[i] - o->kre[i] : o->kre[i] - r->kre[i];
            uint64_t u2 = r->kim[i] > o->kim[i] ? r->kim[i] - o->kim[i] : o->kim[i] - r->kim[i];
            double dr = br - ar, di = bi - ai;
            double d = sqrt(dr * dr + di * di);
            s->abs += d;
            s->sq_err += d * d;
            s->ref_sq += ar * ar + ai * ai;
            s->oth_sq += br * br + bi * bi;
            s->dot += ar * br + ai * bi;
            note_finite(j, a, start + i, d, sqrt(ar * ar + ai * ai), u1 > u2 ? u1 : u2, r, o, i);
        }
    }
}

/* The floor's pass over contiguous float32: sum of squares in two lanes; false (nothing
 * added) when the block holds a NaN or Inf. */
static bool prepass_f32(const job *j, acc *a, chunk_sums *s, uint64_t start, size_t n)
{
    if (n % 2 != 0) return false;
    const uint8_t *p = j->ref->data + start * 4;
    const v2d zero = {0, 0};
    v2d sq = zero;
    v2l bad = {0, 0};
    for (size_t i = 0; i < n; i += 2) {
        v2d x = vload_f32(p + 4 * i);
        bad |= x - x != zero;
        sq += x * x;
    }
    if (bad[0] | bad[1]) return false;
    s->ref_sq += sq[0] + sq[1];
    a->ref_finite += n;
    return true;
}

static void prepass_block(acc *a, chunk_sums *s, size_t n, const side_block *r, bool cplx)
{
    for (size_t i = 0; i < n; i++) {
        double x = r->re[i], y = cplx ? r->im[i] : 0;
        if (isfinite(x) && isfinite(y)) {
            s->ref_sq += x * x + y * y;
            a->ref_finite++;
        }
    }
}

/* Drops the whole pages of a processed range from this process (file mappings only). */
static void release_range(const gp_tensor_view *v, uint64_t start, uint64_t end)
{
    size_t es = gp_dtype_size(v->dtype);
    uintptr_t pg = (uintptr_t)sysconf(_SC_PAGESIZE);
    uintptr_t lo = (uintptr_t)(v->data + start * es), hi = (uintptr_t)(v->data + end * es);
    lo = (lo + pg - 1) & ~(pg - 1);
    hi &= ~(pg - 1);
    if (hi > lo) gp_map_advise((const void *)lo, hi - lo, GP_MAP_DONTNEED);
}

static void *worker_main(void *arg)
{
    worker *w = arg;
    job *j = w->j;
    side_block *blk = malloc(3 * sizeof(side_block)); /* reference, other, scratch */
    if (!blk) {
        w->failed = 1;
        return NULL;
    }
    for (;;) {
        uint64_t c = atomic_fetch_add(&j->next, 1);
        if (c >= j->nchunks) break;
        if (w->shows_progress)
            gp_term_progress("compare: %s %s%d%%", j->label, j->prepass ? "(RMS pass) " : "",
                             (int)(100 * c / j->nchunks));
        uint64_t start = c * GP_METRICS_CHUNK;
        uint64_t end = start + GP_METRICS_CHUNK < j->n ? start + GP_METRICS_CHUNK : j->n;
        chunk_sums s = {0, 0, 0, 0, 0};
        for (uint64_t b = start; b < end; b += GP_METRICS_BLOCK) {
            size_t n = (size_t)(end - b < GP_METRICS_BLOCK ? end - b : GP_METRICS_BLOCK);
            if (j->prepass && j->f32_direct && prepass_f32(j, &w->a, &s, b, n)) continue;
            if (!j->prepass && j->f32_direct &&
                (j->avx2 ? run_block_f32_avx2 : run_block_f32)(j, &w->a, &s, b, n, blk[2].re,
                                                               blk[2].kre, blk[0].re, blk[1].re))
                continue;
            load_side(j, j->ref, b, n, &blk[0]);
            if (j->rekey_ref && !j->prepass) rekey(j, n, &blk[0]);
            if (j->prepass) {
                prepass_block(&w->a, &s, n, &blk[0], j->cplx);
                continue;
            }
            load_side(j, j->oth, b, n, &blk[1]);
            if (j->rekey_oth) rekey(j, n, &blk[1]);
            if (j->cplx || j->is_int ||
                !run_block_fast(j, &w->a, &s, b, n, &blk[0], &blk[1], blk[2].re, blk[2].kre))
                run_block(j, &w->a, &s, b, n, &blk[0], &blk[1]);
        }
        j->sums[c] = s;
        if (j->release && !j->mixed) {
            release_range(j->ref, start, end);
            if (!j->prepass) release_range(j->oth, start, end);
        }
    }
    free(blk);
    return NULL;
}

/* --- driving and combining --------------------------------------------------------------- */

static int run_workers(job *j, int threads, worker *ws)
{
    atomic_store(&j->next, 0);
    gp_thread tid[256];
    int started = 0;
    for (int t = 1; t < threads; t++) {
        if (gp_thread_create(&tid[t], worker_main, &ws[t]) != 0) break;
        started = t;
    }
    worker_main(&ws[0]);
    for (int t = 1; t <= started; t++)
        gp_thread_join(tid[t]);
    for (int t = 0; t <= started; t++)
        if (ws[t].failed) return -1;
    return 0;
}

static int cmp_worst(const void *x, const void *y)
{
    const gp_worst *a = x, *b = y;
    return worse(a, b) ? -1 : worse(b, a) ? 1 : 0;
}

static void merge(const job *j, worker *ws, int threads, acc *m, uint64_t *ulp_hist)
{
    for (int t = 0; t < threads; t++) {
        acc *a = &ws[t].a;
        m->finite += a->finite, m->mismatched += a->mismatched;
        m->nan_mis += a->nan_mis, m->inf_mis += a->inf_mis, m->nan_both += a->nan_both;
        if (a->max_ulp > m->max_ulp) m->max_ulp = a->max_ulp;
        if (a->has_max && (!m->has_max || a->max_abs > m->max_abs ||
                           (a->max_abs == m->max_abs &&
                            logical_index(j, a->max_idx) < logical_index(j, m->max_idx)))) {
            m->max_abs = a->max_abs, m->max_idx = a->max_idx, m->has_max = true;
        }
        if (a->max_rel > m->max_rel) m->max_rel = a->max_rel;
        if (a->min_atol > m->min_atol) m->min_atol = a->min_atol;
        if (a->min_rtol > m->min_rtol) m->min_rtol = a->min_rtol;
        for (int l = 0; l < 4; l++) {
            for (int b = 0; b < GP_ULP_HIST_BINS; b++)
                ulp_hist[b] += a->ulp_hist[l][b];
            for (int b = 0; b < GP_ERR_HIST_BINS; b++)
                m->err_hist[0][b] += a->err_hist[l][b];
        }
        for (size_t i = 0; i < a->nheap; i++)
            m->heap[m->nheap++] = a->heap[i];
    }
    qsort(m->heap, m->nheap, sizeof(gp_worst), cmp_worst);
    if (m->nheap > j->k) m->nheap = j->k;
}

static uint64_t p99_of(const uint64_t *hist, uint64_t n)
{
    if (n == 0) return 0;
    uint64_t rank = n / 100 * 99 + ((n % 100) * 99 + 99) / 100; /* ceil(0.99 n) */
    uint64_t seen = 0;
    for (int b = 0; b < GP_ULP_HIST_BINS; b++) {
        seen += hist[b];
        if (seen >= rank) return ulp_bin_top(b);
    }
    return UINT64_MAX;
}

static void finish(const job *j, const acc *m, gp_metrics *out)
{
    chunk_sums s = {0, 0, 0, 0, 0};
    for (uint64_t c = 0; c < j->nchunks; c++) {
        s.abs += j->sums[c].abs, s.sq_err += j->sums[c].sq_err;
        s.ref_sq += j->sums[c].ref_sq, s.oth_sq += j->sums[c].oth_sq, s.dot += j->sums[c].dot;
    }
    out->finite = m->finite;
    out->mismatched = m->mismatched;
    out->nan_mismatch = m->nan_mis;
    out->inf_mismatch = m->inf_mis;
    out->nan_both = m->nan_both;
    out->max_abs = m->has_max ? m->max_abs : 0;
    out->max_abs_index = m->has_max ? logical_index(j, m->max_idx) : 0;
    out->mean_abs = m->finite ? s.abs / (double)m->finite : 0;
    out->rmse = m->finite ? sqrt(s.sq_err / (double)m->finite) : 0;
    out->nmse = s.ref_sq > 0 ? s.sq_err / s.ref_sq : (s.sq_err > 0 ? INFINITY : 0);
    if (s.ref_sq > 0 && s.oth_sq > 0)
        out->cosine = s.dot / (sqrt(s.ref_sq) * sqrt(s.oth_sq));
    else
        out->cosine = s.ref_sq == 0 && s.oth_sq == 0 ? 1 : 0;
    out->max_rel = m->max_rel;
    out->max_ulp = m->max_ulp;
    out->min_atol = m->min_atol > 0 ? m->min_atol : 0;
    out->min_rtol = m->min_rtol > 0 ? m->min_rtol : 0;
    const gp_tolerance *t = j->tol;
    out->pass = m->mismatched == 0 && (isnan(t->nmse_max) || out->nmse <= t->nmse_max) &&
                (isnan(t->cosine_min) || out->cosine >= t->cosine_min);
}

static bool widens(gp_dtype a, gp_dtype b)
{
    return (gp_dtype_is_float(a) && gp_dtype_is_float(b)) ||
           (gp_dtype_is_complex(a) && gp_dtype_is_complex(b));
}

static int check_pair(const gp_tensor_view *r, const gp_tensor_view *o, gp_dtype ulp_dtype,
                      char *err, size_t errlen)
{
    if (r->dtype != o->dtype && (ulp_dtype == GP_DTYPE_INVALID || !widens(r->dtype, o->dtype)))
        return metrics_fail(err, errlen, "dtypes differ (%s and %s)", gp_dtype_name(r->dtype),
                            gp_dtype_name(o->dtype));
    if (r->ndim != o->ndim || memcmp(r->shape, o->shape, sizeof(uint64_t) * (size_t)r->ndim) != 0)
        return metrics_fail(err, errlen, "shapes differ");
    return 0;
}

static int pick_threads(const gp_metrics_opts *o, uint64_t nchunks)
{
    long t = o->threads > 0 ? o->threads : sysconf(_SC_NPROCESSORS_ONLN);
    if (t < 1) t = 1;
    if (t > 256) t = 256;
    if ((uint64_t)t > nchunks) t = nchunks ? (long)nchunks : 1;
    return (int)t;
}

static void job_init(job *j, const gp_tensor_view *ref, const gp_tensor_view *oth,
                     const gp_tolerance *tol, const gp_metrics_opts *opts)
{
    memset(j, 0, sizeof(*j));
    j->ref = ref, j->oth = oth, j->tol = tol;
    j->n = ref->count;
    j->nchunks = (j->n + GP_METRICS_CHUNK - 1) / GP_METRICS_CHUNK;
    bool rf = ref->fortran && ref->ndim > 1, of = oth->fortran && oth->ndim > 1;
    j->mixed = rf != of;
    j->both_fortran = rf && of;
    j->cplx = gp_dtype_is_complex(ref->dtype);
    j->is_int = !j->cplx && !gp_dtype_is_float(ref->dtype);
    j->k = opts->worst_k;
    j->label = opts->progress_label;
    j->release = opts->release_pages;
    /* the real dtype ULPs count in, and which side must be re-keyed into it */
    gp_dtype rt = j->cplx ? (ref->dtype == GP_DTYPE_C64 ? GP_DTYPE_F32 : GP_DTYPE_F64) : ref->dtype;
    gp_dtype ot = j->cplx ? (oth->dtype == GP_DTYPE_C64 ? GP_DTYPE_F32 : GP_DTYPE_F64) : oth->dtype;
    j->ulp_t = rt;
    if (ref->dtype != oth->dtype) {
        gp_dtype u = opts->ulp_dtype;
        j->ulp_t = gp_dtype_is_complex(u) ? (u == GP_DTYPE_C64 ? GP_DTYPE_F32 : GP_DTYPE_F64) : u;
        j->rekey_ref = rt != j->ulp_t;
        j->rekey_oth = ot != j->ulp_t;
    }
    j->f32_direct = ref->dtype == GP_DTYPE_F32 && oth->dtype == GP_DTYPE_F32 && !j->mixed &&
                    !host_big_endian() && !ref->big_endian && !oth->big_endian;
    j->avx2 = j->f32_direct && cpu_has_avx2();
    uint64_t m = 1;
    for (int d = 0; d < ref->ndim; d++) {
        j->fstride[d] = m;
        m *= ref->shape[d];
    }
}

/* The floor needs RMS(ref) before the first element is judged: a pass over the reference. */
static int run_prepass(job *j, worker *ws, int threads)
{
    j->prepass = true;
    if (run_workers(j, threads, ws) != 0) return -1;
    double sq = 0;
    uint64_t nf = 0;
    for (uint64_t c = 0; c < j->nchunks; c++)
        sq += j->sums[c].ref_sq;
    for (int t = 0; t < threads; t++)
        nf += ws[t].a.ref_finite, ws[t].a.ref_finite = 0;
    j->floor = nf ? j->tol->floor_scale * sqrt(sq / (double)nf) : 0;
    j->prepass = false;
    return 0;
}

int gp_metrics_compute(const gp_tensor_view *ref, const gp_tensor_view *other,
                       const gp_tolerance *tol, const gp_metrics_opts *opts, gp_metrics *out,
                       char *err, size_t errlen)
{
    memset(out, 0, sizeof(*out));
    if (check_pair(ref, other, opts->ulp_dtype, err, errlen) != 0) return -1;
    job j;
    job_init(&j, ref, other, tol, opts);
    int threads = pick_threads(opts, j.nchunks);
    worker *ws = calloc((size_t)threads, sizeof(worker));
    acc *m = calloc(1, sizeof(acc));
    uint64_t *ulp_hist = calloc(GP_ULP_HIST_BINS, sizeof(uint64_t));
    j.sums = calloc(j.nchunks ? j.nchunks : 1, sizeof(chunk_sums));
    int rc = ws && m && ulp_hist && j.sums ? 0 : -1;
    for (int t = 0; t < threads && rc == 0; t++) {
        ws[t].j = &j;
        ws[t].shows_progress = t == 0 && opts->progress_label && j.nchunks > 8;
        ws[t].a.heap = calloc(j.k ? j.k : 1, sizeof(gp_worst));
        if (!ws[t].a.heap) rc = -1;
    }
    if (rc == 0) m->heap = calloc((size_t)threads * (j.k ? j.k : 1), sizeof(gp_worst));
    if (rc == 0 && !m->heap) rc = -1;
    if (rc == 0 && tol->floor_scale > 0) rc = run_prepass(&j, ws, threads);
    if (rc == 0) rc = run_workers(&j, threads, ws);
    if (rc == 0) {
        merge(&j, ws, threads, m, ulp_hist);
        finish(&j, m, out);
        out->count = j.n;
        out->floor = j.floor;
        out->p99_ulp = p99_of(ulp_hist, m->finite);
        memcpy(out->err_hist, m->err_hist[0], sizeof(out->err_hist));
        if (out->p99_ulp > out->max_ulp) out->p99_ulp = out->max_ulp; /* top of a wide bin */
        out->worst = m->heap;
        out->nworst = m->nheap;
        m->heap = NULL;
    }
    for (int t = 0; ws && t < threads; t++)
        free(ws[t].a.heap);
    if (m) free(m->heap);
    free(ws), free(m), free(ulp_hist), free(j.sums);
    if (rc != 0) return metrics_fail(err, errlen, "out of memory");
    return 0;
}

void gp_metrics_free(gp_metrics *m)
{
    free(m->worst);
    m->worst = NULL;
    m->nworst = 0;
}
