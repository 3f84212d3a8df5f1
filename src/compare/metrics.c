/* metrics.c — the streaming comparison of two tensors (metrics.h). Elements are read in blocks
 * that are converted to double (plus an order-preserving integer key per value, for exact ULP
 * and integer distances), so no temporary ever grows with the tensor. Sums are kept per fixed
 * chunk and added in chunk order; everything else (counts, maxima, histograms, the worst-k heap
 * with index tie-breaks) does not depend on the order, so any thread count gives one answer. */
#include "compare/metrics.h"

#include <math.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

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
    uint64_t finite, mismatched, nan_mis, inf_mis, max_ulp, ref_finite;
    double max_abs;
    uint64_t max_idx;
    bool has_max;
    double max_rel, min_atol, min_rtol;
    uint64_t ulp_hist[GP_ULP_HIST_BINS];
    uint64_t err_hist[GP_ERR_HIST_BINS];
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
    size_t k;
    uint64_t n, nchunks;
    atomic_uint_fast64_t next;
    chunk_sums *sums;
    uint64_t fstride[GP_TENSOR_MAX_DIMS];
} job;

typedef struct worker {
    job *j;
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
    a->ulp_hist[ulp_bin(ulp)]++;
    a->err_hist[err_bin(d)]++;
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
    if (hi > lo) madvise((void *)lo, hi - lo, MADV_DONTNEED);
}

static void *worker_main(void *arg)
{
    worker *w = arg;
    job *j = w->j;
    side_block *blk = malloc(2 * sizeof(side_block));
    if (!blk) {
        w->failed = 1;
        return NULL;
    }
    for (;;) {
        uint64_t c = atomic_fetch_add(&j->next, 1);
        if (c >= j->nchunks) break;
        uint64_t start = c * GP_METRICS_CHUNK;
        uint64_t end = start + GP_METRICS_CHUNK < j->n ? start + GP_METRICS_CHUNK : j->n;
        chunk_sums s = {0, 0, 0, 0, 0};
        for (uint64_t b = start; b < end; b += GP_METRICS_BLOCK) {
            size_t n = (size_t)(end - b < GP_METRICS_BLOCK ? end - b : GP_METRICS_BLOCK);
            load_side(j, j->ref, b, n, &blk[0]);
            if (j->prepass) {
                prepass_block(&w->a, &s, n, &blk[0], j->cplx);
                continue;
            }
            load_side(j, j->oth, b, n, &blk[1]);
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
    pthread_t tid[256];
    int started = 0;
    for (int t = 1; t < threads; t++) {
        if (pthread_create(&tid[t], NULL, worker_main, &ws[t]) != 0) break;
        started = t;
    }
    worker_main(&ws[0]);
    for (int t = 1; t <= started; t++)
        pthread_join(tid[t], NULL);
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
        m->nan_mis += a->nan_mis, m->inf_mis += a->inf_mis;
        if (a->max_ulp > m->max_ulp) m->max_ulp = a->max_ulp;
        if (a->has_max && (!m->has_max || a->max_abs > m->max_abs ||
                           (a->max_abs == m->max_abs &&
                            logical_index(j, a->max_idx) < logical_index(j, m->max_idx)))) {
            m->max_abs = a->max_abs, m->max_idx = a->max_idx, m->has_max = true;
        }
        if (a->max_rel > m->max_rel) m->max_rel = a->max_rel;
        if (a->min_atol > m->min_atol) m->min_atol = a->min_atol;
        if (a->min_rtol > m->min_rtol) m->min_rtol = a->min_rtol;
        for (int b = 0; b < GP_ULP_HIST_BINS; b++)
            ulp_hist[b] += a->ulp_hist[b];
        for (int b = 0; b < GP_ERR_HIST_BINS; b++)
            m->err_hist[b] += a->err_hist[b];
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

static int check_pair(const gp_tensor_view *r, const gp_tensor_view *o, char *err, size_t errlen)
{
    if (r->dtype != o->dtype)
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
    j->release = opts->release_pages;
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
    if (check_pair(ref, other, err, errlen) != 0) return -1;
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
