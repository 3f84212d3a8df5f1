/* test_metrics.c — the comparison metrics against values computed independently: by hand for
 * small arrays (the arithmetic is in the comments), and by a plain reference loop in this file
 * for large ones. Covers every dtype family, both byte orders, Fortran order, NaN/Inf
 * placement, the relative floor, p99 ULP, worst-k ordering, and that the thread count does not
 * change a single bit of the result. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compare/metrics.h"

static char err[256];

static gp_tensor_view view_of(gp_dtype t, const void *data, int ndim, const uint64_t *shape)
{
    gp_tensor_view v;
    memset(&v, 0, sizeof(v));
    v.dtype = t;
    v.ndim = ndim;
    for (int i = 0; i < ndim; i++)
        v.shape[i] = shape[i];
    assert_int_equal(gp_tensor_view_size(&v), 0);
    v.data = data;
    return v;
}

static gp_tolerance tol_of(double atol, double rtol, double floor_scale)
{
    gp_tolerance t = {atol, rtol, floor_scale, false, NAN, NAN};
    return t;
}

/* Results are kept until the group ends (the tests read them after further runs). */
static gp_metrics kept[64];
static size_t nkept;

static int free_kept(void **state)
{
    (void)state;
    for (size_t i = 0; i < nkept; i++)
        gp_metrics_free(&kept[i]);
    nkept = 0;
    return 0;
}

static void run(const gp_tensor_view *r, const gp_tensor_view *o, const gp_tolerance *t, size_t k,
                int threads, gp_metrics *m)
{
    gp_metrics_opts opts = {k, threads, false, NULL, GP_DTYPE_INVALID};
    assert_int_equal(gp_metrics_compute(r, o, t, &opts, m, err, sizeof(err)), 0);
    assert_true(nkept < sizeof(kept) / sizeof(kept[0]));
    kept[nkept++] = *m;
}

/* ULP distance of two floats by stepping with nextafterf: independent of the bit tricks. */
static uint64_t ulp_steps(float a, float b)
{
    uint64_t n = 0;
    float x = a < b ? a : b, y = a < b ? b : a;
    while (x != y)
        x = nextafterf(x, y), n++;
    return n;
}

static void small_f32_by_hand(void **state)
{
    (void)state;
    float ref[4] = {1, 2, 3, 4}, oth[4] = {1, 2.5f, 3, 3.75f};
    uint64_t shape[1] = {4};
    gp_tensor_view r = view_of(GP_DTYPE_F32, ref, 1, shape),
                   o = view_of(GP_DTYPE_F32, oth, 1, shape);
    gp_tolerance t = tol_of(1e-5, 1e-4, 0.01);
    gp_metrics m;
    run(&r, &o, &t, 10, 1, &m);
    /* errors 0, 0.5, 0, 0.25 */
    assert_int_equal(m.count, 4);
    assert_int_equal(m.finite, 4);
    assert_int_equal(m.mismatched, 2);
    assert_true(m.max_abs == 0.5);
    assert_int_equal(m.max_abs_index, 1);
    assert_true(m.mean_abs == 0.1875);                   /* 0.75 / 4 */
    assert_float_equal(m.rmse, sqrt(0.3125 / 4), 1e-15); /* (0.25 + 0.0625) / 4 */
    assert_float_equal(m.nmse, 0.3125 / 30, 1e-15);      /* sum ref^2 = 30 */
    assert_float_equal(m.cosine, 30.0 / (sqrt(30.0) * sqrt(30.3125)), 1e-15); /* dot 1+5+9+15 */
    assert_float_equal(m.floor, 0.01 * sqrt(30.0 / 4), 1e-15);
    assert_float_equal(m.max_rel, 0.25, 1e-15); /* 0.5/2 > 0.25/4 */
    assert_float_equal(m.min_atol, 0.5 - 1e-4 * 2, 1e-15);
    assert_float_equal(m.min_rtol, (0.5 - 1e-5) / 2, 1e-15);
    assert_int_equal(m.max_ulp, ulp_steps(2.0f, 2.5f)); /* 2^21 */
    assert_int_equal(m.max_ulp, 1u << 21);
    assert_int_equal(m.nan_mismatch, 0);
    assert_false(m.pass);
    assert_int_equal(m.nworst, 2); /* exact matches are never listed */
    assert_int_equal(m.worst[0].index, 1);
    assert_int_equal(m.worst[1].index, 3);
    assert_true(m.worst[1].ref[0] == 4 && m.worst[1].other[0] == 3.75);
    assert_int_equal(m.worst[1].ulp, ulp_steps(3.75f, 4.0f));
    /* histogram: two exact zeros, 0.25 in [2^-2, 2^-1), 0.5 in [2^-1, 1) */
    assert_int_equal(m.err_hist[0], 2);
    assert_int_equal(m.err_hist[2 - 2 + 60], 1);
    assert_int_equal(m.err_hist[2 - 1 + 60], 1);
    assert_true(gp_metrics_err_bin_low(2 - 1 + 60) == 0.5);
    /* a wide enough tolerance passes; the one the report suggests is exactly enough */
    t = tol_of(0.4998, 1e-4, 0.01);
    run(&r, &o, &t, 0, 1, &m);
    assert_int_equal(m.mismatched, 0);
}

static void reference_side_matters(void **state)
{
    (void)state;
    /* |x - ref| <= rtol * |ref| is not symmetric: 100 vs 110 with rtol 0.095 */
    double a[1] = {100}, b[1] = {110};
    uint64_t shape[1] = {1};
    gp_tensor_view va = view_of(GP_DTYPE_F64, a, 1, shape), vb = view_of(GP_DTYPE_F64, b, 1, shape);
    gp_tolerance t = tol_of(0, 0.095, 0);
    gp_metrics m;
    run(&va, &vb, &t, 0, 1, &m); /* 10 <= 9.5? no */
    assert_int_equal(m.mismatched, 1);
    run(&vb, &va, &t, 0, 1, &m); /* 10 <= 10.45 */
    assert_int_equal(m.mismatched, 0);
}

static void floor_keeps_near_zero_sane(void **state)
{
    (void)state;
    double ref[2] = {1000, 1e-8}, oth[2] = {1000, 2e-8};
    uint64_t shape[1] = {2};
    gp_tensor_view r = view_of(GP_DTYPE_F64, ref, 1, shape),
                   o = view_of(GP_DTYPE_F64, oth, 1, shape);
    gp_tolerance t = tol_of(0, 1e-3, 0.01); /* floor = 0.01 * sqrt(1e6/2) = 7.07 */
    gp_metrics m;
    run(&r, &o, &t, 0, 1, &m);
    assert_int_equal(m.mismatched, 0);
    assert_float_equal(m.max_rel, 1e-8 / (0.01 * sqrt((1e6 + 1e-16) / 2)), 1e-20);
    t = tol_of(0, 1e-3, 0); /* no floor: relative error 1 */
    run(&r, &o, &t, 0, 1, &m);
    assert_int_equal(m.mismatched, 1);
    assert_float_equal(m.max_rel, 1.0, 1e-12);
}

static void nmse_and_cosine_limits(void **state)
{
    (void)state;
    float ref[3] = {1, 1, 1}, oth[3] = {1.1f, 1.1f, 1.1f};
    uint64_t shape[1] = {3};
    gp_tensor_view r = view_of(GP_DTYPE_F32, ref, 1, shape),
                   o = view_of(GP_DTYPE_F32, oth, 1, shape);
    gp_tolerance t = tol_of(1, 0, 0);
    gp_metrics m;
    run(&r, &o, &t, 0, 1, &m);
    assert_true(m.pass);
    double d = (double)1.1f - 1;
    assert_float_equal(m.nmse, d * d, 1e-15);
    t.nmse_max = 1e-3; /* 0.01 > 1e-3 */
    run(&r, &o, &t, 0, 1, &m);
    assert_int_equal(m.mismatched, 0);
    assert_false(m.pass);
    t.nmse_max = NAN;
    t.cosine_min = 1; /* parallel vectors: cosine 1 within rounding */
    run(&r, &o, &t, 0, 1, &m);
    assert_float_equal(m.cosine, 1.0, 1e-15);
}

static void nan_and_inf_placement(void **state)
{
    (void)state;
    float ref[6] = {NAN, 1, INFINITY, -INFINITY, NAN, 2};
    float oth[6] = {NAN, NAN, INFINITY, INFINITY, 1, 2};
    uint64_t shape[1] = {6};
    gp_tensor_view r = view_of(GP_DTYPE_F32, ref, 1, shape),
                   o = view_of(GP_DTYPE_F32, oth, 1, shape);
    gp_tolerance t = tol_of(1e-5, 1e-4, 0.01);
    gp_metrics m;
    run(&r, &o, &t, 10, 1, &m);
    assert_int_equal(m.nan_mismatch, 2); /* [1] and [4] */
    assert_int_equal(m.inf_mismatch, 1); /* [3]: -inf against inf */
    assert_int_equal(m.finite, 1);       /* only [5] */
    assert_int_equal(m.mismatched, 4);   /* [0] too: NaN == NaN only with equal_nan */
    assert_int_equal(m.nworst, 4);
    assert_int_equal(m.worst[0].index, 0); /* non-finite failures rank first, by index */
    assert_int_equal(m.worst[3].index, 4);
    t.equal_nan = true;
    run(&r, &o, &t, 0, 1, &m);
    assert_int_equal(m.mismatched, 3);
}

static void fortran_order_reports_logical_index(void **state)
{
    (void)state;
    /* logical 2x3 matrix v[i][j] = 10i + j; other differs at [1, 2] */
    double c[6], f[6], fo[6];
    for (int i = 0; i < 2; i++)
        for (int j = 0; j < 3; j++) {
            c[i * 3 + j] = 10 * i + j;
            f[j * 2 + i] = 10 * i + j; /* column-major storage */
        }
    memcpy(fo, f, sizeof(f));
    fo[2 * 2 + 1] += 0.5; /* [1, 2] in column-major */
    uint64_t shape[2] = {2, 3};
    gp_tensor_view vc = view_of(GP_DTYPE_F64, c, 2, shape);
    gp_tensor_view vf = view_of(GP_DTYPE_F64, f, 2, shape),
                   vfo = view_of(GP_DTYPE_F64, fo, 2, shape);
    vf.fortran = vfo.fortran = true;
    gp_tolerance t = tol_of(1e-7, 1e-7, 0.01);
    gp_metrics m;
    run(&vc, &vf, &t, 5, 1, &m); /* same values, different memory order */
    assert_int_equal(m.mismatched, 0);
    run(&vc, &vfo, &t, 5, 1, &m); /* C against Fortran */
    assert_int_equal(m.mismatched, 1);
    assert_int_equal(m.max_abs_index, 5); /* 1 * 3 + 2 */
    assert_int_equal(m.worst[0].index, 5);
    assert_true(m.worst[0].ref[0] == 12);
    run(&vf, &vfo, &t, 5, 1, &m); /* Fortran against Fortran */
    assert_int_equal(m.max_abs_index, 5);
    assert_int_equal(m.worst[0].index, 5);
}

static void byte_orders(void **state)
{
    (void)state;
    float le[3] = {1.5f, -2.25f, 1e30f};
    uint8_t be[12];
    for (int i = 0; i < 3; i++) {
        uint32_t u;
        memcpy(&u, &le[i], 4);
        u = __builtin_bswap32(u);
        memcpy(be + 4 * i, &u, 4);
    }
    uint64_t shape[1] = {3};
    gp_tensor_view a = view_of(GP_DTYPE_F32, le, 1, shape), b = view_of(GP_DTYPE_F32, be, 1, shape);
    b.big_endian = true;
    gp_tolerance t = tol_of(0, 0, 0);
    gp_metrics m;
    run(&a, &b, &t, 0, 1, &m);
    assert_int_equal(m.mismatched, 0);
    assert_int_equal(m.max_ulp, 0);
    be[4 + 3] ^= 1; /* lowest mantissa bit of -2.25 in big-endian order */
    run(&a, &b, &t, 0, 1, &m);
    assert_int_equal(m.max_ulp, 1);
    assert_int_equal(m.max_abs_index, 1);
    /* big-endian int16 */
    uint8_t i16be[4] = {0xff, 0xfe, 0x01, 0x00}; /* -2, 256 */
    int16_t i16le[2] = {-2, 256};
    uint64_t s2[1] = {2};
    gp_tensor_view x = view_of(GP_DTYPE_I16, i16le, 1, s2), y = view_of(GP_DTYPE_I16, i16be, 1, s2);
    y.big_endian = true;
    run(&x, &y, &t, 0, 1, &m);
    assert_int_equal(m.mismatched, 0);
}

static void half_types(void **state)
{
    (void)state;
    /* f16: 1.0 = 0x3c00, next = 0x3c01 (1 + 2^-10); -2.0 = 0xc000; 0.5 = 0x3800 */
    uint16_t r16[3] = {0x3c00, 0xc000, 0x3800}, o16[3] = {0x3c01, 0xc000, 0x3800};
    uint64_t shape[1] = {3};
    gp_tensor_view r = view_of(GP_DTYPE_F16, r16, 1, shape),
                   o = view_of(GP_DTYPE_F16, o16, 1, shape);
    gp_tolerance t = tol_of(0, 0, 0);
    gp_metrics m;
    run(&r, &o, &t, 1, 1, &m);
    assert_true(m.max_abs == ldexp(1, -10));
    assert_int_equal(m.max_ulp, 1);
    assert_true(m.worst[0].ref[0] == 1.0 && m.worst[0].other[0] == 1 + ldexp(1, -10));
    /* f16 subnormal 0x0001 = 2^-24 against 0: one ULP */
    uint16_t s1[1] = {0x0001}, z1[1] = {0x8000}; /* and -0 */
    uint64_t one[1] = {1};
    gp_tensor_view a = view_of(GP_DTYPE_F16, z1, 1, one), b = view_of(GP_DTYPE_F16, s1, 1, one);
    run(&a, &b, &t, 0, 1, &m);
    assert_true(m.max_abs == ldexp(1, -24));
    assert_int_equal(m.max_ulp, 1);
    /* bf16: 1.0 = 0x3f80, next = 0x3f81 (1 + 2^-7); -3.0 = 0xc040 */
    uint16_t rb[2] = {0x3f80, 0xc040}, ob[2] = {0x3f81, 0xc040};
    uint64_t s2[1] = {2};
    r = view_of(GP_DTYPE_BF16, rb, 1, s2), o = view_of(GP_DTYPE_BF16, ob, 1, s2);
    run(&r, &o, &t, 0, 1, &m);
    assert_true(m.max_abs == ldexp(1, -7));
    assert_int_equal(m.max_ulp, 1);
    assert_float_equal(m.nmse, ldexp(1, -14) / 10.0, 1e-18); /* ref^2 = 1 + 9 */
}

static void integers_and_bool(void **state)
{
    (void)state;
    int64_t r64[2] = {(int64_t)1 << 60, -5}, o64[2] = {((int64_t)1 << 60) + 1, -5};
    uint64_t s2[1] = {2};
    gp_tensor_view r = view_of(GP_DTYPE_I64, r64, 1, s2), o = view_of(GP_DTYPE_I64, o64, 1, s2);
    gp_tolerance t = tol_of(0, 0, 0);
    gp_metrics m;
    run(&r, &o, &t, 0, 1, &m);
    assert_int_equal(m.mismatched, 1); /* 2^60 + 1 is not 2^60, though as doubles they are */
    assert_true(m.max_abs == 1);
    int8_t r8[2] = {-128, 3}, o8[2] = {127, 3};
    r = view_of(GP_DTYPE_I8, r8, 1, s2), o = view_of(GP_DTYPE_I8, o8, 1, s2);
    run(&r, &o, &t, 0, 1, &m);
    assert_true(m.max_abs == 255);
    assert_int_equal(m.max_ulp, 255);
    uint64_t ru[1] = {UINT64_MAX}, ou[1] = {0};
    uint64_t s1[1] = {1};
    r = view_of(GP_DTYPE_U64, ru, 1, s1), o = view_of(GP_DTYPE_U64, ou, 1, s1);
    run(&r, &o, &t, 0, 1, &m);
    assert_int_equal(m.max_ulp, UINT64_MAX);
    uint8_t rb[4] = {1, 0, 1, 0}, ob[4] = {1, 1, 2, 0}; /* any non-zero byte is true */
    uint64_t s4[1] = {4};
    r = view_of(GP_DTYPE_BOOL, rb, 1, s4), o = view_of(GP_DTYPE_BOOL, ob, 1, s4);
    run(&r, &o, &t, 0, 1, &m);
    assert_int_equal(m.mismatched, 1);
    assert_int_equal(m.max_abs_index, 1);
    uint16_t ru16[2] = {65535, 7}, ou16[2] = {65535, 9};
    r = view_of(GP_DTYPE_U16, ru16, 1, s2), o = view_of(GP_DTYPE_U16, ou16, 1, s2);
    t = tol_of(2, 0, 0);
    run(&r, &o, &t, 0, 1, &m);
    assert_int_equal(m.mismatched, 0);
    assert_true(m.max_abs == 2);
}

static void complex_values(void **state)
{
    (void)state;
    float r[4] = {3, 4, 0, 1}, o[4] = {3.3f, 4.4f, 0, 1}; /* (3+4j), (0+1j) */
    uint64_t s2[1] = {2};
    gp_tensor_view vr = view_of(GP_DTYPE_C64, r, 1, s2), vo = view_of(GP_DTYPE_C64, o, 1, s2);
    gp_tolerance t = tol_of(0, 0.11, 0);
    gp_metrics m;
    run(&vr, &vo, &t, 2, 1, &m);
    double dr = (double)3.3f - 3, di = (double)4.4f - 4;
    assert_float_equal(m.max_abs, sqrt(dr * dr + di * di), 1e-15);
    assert_float_equal(m.max_rel, sqrt(dr * dr + di * di) / 5, 1e-15); /* |3+4j| = 5 */
    assert_int_equal(m.mismatched, 0);                                 /* 0.50000005 <= 0.11 * 5 */
    assert_int_equal(m.max_ulp, ulp_steps(4.0f, 4.4f) > ulp_steps(3.0f, 3.3f)
                                    ? ulp_steps(4.0f, 4.4f)
                                    : ulp_steps(3.0f, 3.3f));
    assert_true(m.worst[0].ref[1] == 4 && m.worst[0].other[0] == (double)3.3f);
    double r2[2] = {INFINITY, 0}, o2[2] = {INFINITY, 1};
    uint64_t s1[1] = {1};
    vr = view_of(GP_DTYPE_C128, r2, 1, s1), vo = view_of(GP_DTYPE_C128, o2, 1, s1);
    run(&vr, &vo, &t, 0, 1, &m);
    assert_int_equal(m.inf_mismatch, 1);
}

static void p99_and_worst_k(void **state)
{
    (void)state;
    /* 100 pairs with ULP distances 0,0,1,1,...,49,49: the 99th smallest is 49 */
    float r[100], o[100];
    for (int i = 0; i < 100; i++) {
        r[i] = 1.0f;
        uint32_t u = 0x3f800000u + (uint32_t)(i / 2);
        memcpy(&o[i], &u, 4);
    }
    uint64_t s[1] = {100};
    gp_tensor_view vr = view_of(GP_DTYPE_F32, r, 1, s), vo = view_of(GP_DTYPE_F32, o, 1, s);
    gp_tolerance t = tol_of(0, 0, 0);
    gp_metrics m;
    run(&vr, &vo, &t, 3, 1, &m);
    assert_int_equal(m.p99_ulp, 49);
    assert_int_equal(m.max_ulp, 49);
    /* worst three: the two 49s (indices 98, 99, lower first), then index 96 before 97 */
    assert_int_equal(m.nworst, 3);
    assert_int_equal(m.worst[0].index, 98);
    assert_int_equal(m.worst[1].index, 99);
    assert_int_equal(m.worst[2].index, 96);
    /* large distances: p99 is rounded up by at most 1/16 */
    for (int i = 0; i < 100; i++) {
        uint32_t u = 0x3f800000u + (uint32_t)(1000 + 37 * i);
        memcpy(&o[i], &u, 4);
    }
    run(&vr, &vo, &t, 0, 1, &m);
    uint64_t truth = 1000 + 37 * 98; /* rank 99 of 100 */
    assert_true(m.p99_ulp >= truth && m.p99_ulp <= truth + truth / 16);
}

/* A plain loop over the same data: the independent reference for large arrays. */
static void big_arrays_against_reference_loop(void **state)
{
    (void)state;
    size_t n = 3 * 1000 * 1000 + 17; /* several chunks and a ragged end */
    float *r = malloc(n * 4), *o = malloc(n * 4);
    assert_non_null(r);
    assert_non_null(o);
    uint32_t seed = 12345;
    for (size_t i = 0; i < n; i++) {
        seed = seed * 1664525u + 1013904223u;
        r[i] = (float)((double)(seed >> 8) / 16777216.0 * 2 - 1);
        seed = seed * 1664525u + 1013904223u;
        o[i] = r[i] + (float)(((double)(seed >> 8) / 16777216.0 - 0.5) * 1e-5);
    }
    o[2222222] = r[2222222] + 0.125f;
    double sq = 0, sabs = 0, sd2 = 0, so2 = 0, dot = 0, maxd = -1;
    size_t maxi = 0;
    for (size_t i = 0; i < n; i++)
        sq += (double)r[i] * r[i];
    double fl = 0.01 * sqrt(sq / (double)n);
    uint64_t mis = 0;
    for (size_t i = 0; i < n; i++) {
        double d = fabs((double)o[i] - (double)r[i]);
        double den = fmax(fabs((double)r[i]), fl);
        if (d > 1e-6 + 1e-3 * den) mis++;
        if (d > maxd) maxd = d, maxi = i;
        sabs += d, sd2 += d * d, so2 += (double)o[i] * o[i], dot += (double)o[i] * r[i];
    }
    uint64_t shape[2] = {1000003, 3};
    uint64_t s1[1] = {n};
    gp_tensor_view vr = view_of(GP_DTYPE_F32, r, 1, s1), vo = view_of(GP_DTYPE_F32, o, 1, s1);
    (void)shape;
    gp_tolerance t = tol_of(1e-6, 1e-3, 0.01);
    gp_metrics m1, m2, m3;
    run(&vr, &vo, &t, 5, 1, &m1);
    assert_int_equal(m1.mismatched, mis);
    assert_true(m1.max_abs == maxd);
    assert_int_equal(m1.max_abs_index, maxi);
    assert_int_equal(maxi, 2222222);
    assert_float_equal(m1.mean_abs, sabs / (double)n, 1e-12 * sabs / (double)n);
    assert_float_equal(m1.nmse, sd2 / sq, 1e-9 * sd2 / sq);
    assert_float_equal(m1.cosine, dot / sqrt(sq * so2), 1e-12);
    assert_float_equal(m1.floor, fl, 1e-12 * fl);
    /* the thread count changes nothing, to the bit */
    run(&vr, &vo, &t, 5, 2, &m2);
    run(&vr, &vo, &t, 5, 3, &m3);
    assert_memory_equal(&m1.mean_abs, &m2.mean_abs, sizeof(double));
    assert_memory_equal(&m1.nmse, &m3.nmse, sizeof(double));
    assert_memory_equal(&m1.cosine, &m3.cosine, sizeof(double));
    assert_memory_equal(m1.err_hist, m3.err_hist, sizeof(m1.err_hist));
    assert_int_equal(m1.p99_ulp, m2.p99_ulp);
    assert_int_equal(m1.nworst, m3.nworst);
    for (size_t i = 0; i < m1.nworst; i++)
        assert_int_equal(m1.worst[i].index, m3.worst[i].index);
    /* a NaN in one block sends that block down the careful path; results still agree */
    o[5] = NAN;
    run(&vr, &vo, &t, 0, 2, &m1);
    assert_int_equal(m1.nan_mismatch, 1);
    assert_int_equal(m1.mismatched, mis + 1);
    assert_int_equal(m1.finite, n - 1);
    free(r);
    free(o);
}

/* f16 bits to double by the textbook formula (independent of the reader's bit manipulation). */
static double f16_value(uint16_t h)
{
    int e = (h >> 10) & 0x1f, m = h & 0x3ff;
    double v = e == 0 ? ldexp(m, -24) : ldexp(1024 + m, e - 25);
    return (h & 0x8000) ? -v : v;
}

/* Other element types and byte orders take the converting path; check it on full blocks against
 * a plain loop over the decoded values. */
static void converting_path_against_reference_loop(void **state)
{
    (void)state;
    enum { N = 5000 };
    static double rv[N], ov[N];
    static uint8_t rb[N * 8], ob[N * 8];
    for (int kind = 0; kind < 3; kind++) {
        uint32_t seed = 99 + (uint32_t)kind;
        gp_dtype t = kind == 0 ? GP_DTYPE_F64 : kind == 1 ? GP_DTYPE_F32 : GP_DTYPE_F16;
        for (int i = 0; i < N; i++) {
            seed = seed * 1664525u + 1013904223u;
            if (kind == 0) {
                rv[i] = (double)(seed >> 8) / 16777216.0 - 0.5;
                ov[i] = rv[i] + ((seed & 0xff) < 3 ? 0.01 : 1e-9 * ((seed >> 4) & 7));
                memcpy(rb + 8 * i, &rv[i], 8);
                memcpy(ob + 8 * i, &ov[i], 8);
            } else if (kind == 1) { /* big-endian float32 */
                float r = (float)((double)(seed >> 8) / 16777216.0 - 0.5);
                float o = r + ((seed & 0xff) < 3 ? 0.01f : 0);
                rv[i] = r, ov[i] = o;
                uint32_t u;
                memcpy(&u, &r, 4), u = __builtin_bswap32(u), memcpy(rb + 4 * i, &u, 4);
                memcpy(&u, &o, 4), u = __builtin_bswap32(u), memcpy(ob + 4 * i, &u, 4);
            } else { /* float16 bit patterns of finite values */
                uint16_t hr = (uint16_t)((seed >> 9) & 0x77ff), ho = hr; /* exponent <= 29 */
                if ((seed & 0xff) < 5) ho = (uint16_t)(hr + 1);
                rv[i] = f16_value(hr), ov[i] = f16_value(ho);
                memcpy(rb + 2 * i, &hr, 2), memcpy(ob + 2 * i, &ho, 2);
            }
        }
        double sq = 0, sabs = 0, maxd = -1;
        size_t maxi = 0;
        for (int i = 0; i < N; i++)
            sq += rv[i] * rv[i];
        double fl = 0.01 * sqrt(sq / N);
        uint64_t mis = 0;
        for (int i = 0; i < N; i++) {
            double d = fabs(ov[i] - rv[i]), den = fmax(fabs(rv[i]), fl);
            if (d > 1e-7 + 1e-6 * den) mis++;
            if (d > maxd) maxd = d, maxi = (size_t)i;
            sabs += d;
        }
        uint64_t shape[1] = {N};
        gp_tensor_view r = view_of(t, rb, 1, shape), o = view_of(t, ob, 1, shape);
        r.big_endian = o.big_endian = kind == 1;
        gp_tolerance tol = tol_of(1e-7, 1e-6, 0.01);
        gp_metrics m;
        run(&r, &o, &tol, 3, 2, &m);
        assert_int_equal(m.mismatched, mis);
        assert_true(m.max_abs == maxd);
        assert_int_equal(m.max_abs_index, maxi);
        assert_float_equal(m.mean_abs, sabs / N, 1e-12 * sabs / N + 1e-300);
        assert_float_equal(m.floor, fl, 1e-12 * fl);
        if (kind == 2) assert_int_equal(m.max_ulp, 1);
    }
}

/* f16 against f32: values widened, ULPs counted in f16 (the f32 value rounded to f16). */
static void mixed_widths_count_ulps_in_the_narrower(void **state)
{
    (void)state;
    /* 1.0, 2.0, 0.5, the smallest subnormal 2^-24, 65504 (the largest f16), -3.0 */
    uint16_t h[6] = {0x3c00, 0x4000, 0x3800, 0x0001, 0x7bff, 0xc200};
    /* the same, then: 2 + 2^-9 (one f16 ULP above 2), 0.5 + 1e-5 (rounds back to 0.5 in f16),
     * 1.2e-7 (rounds to 2 x 2^-24), 65504 exactly, -3 - 1.4 x 2^-9 (rounds to -3 - 2^-9, one
     * f16 ULP; its error in the wider values is the largest) */
    float f[6] = {1.0f, 2.001953125f, 0.50001f, 1.2e-7f, 65504.0f, -3.002734375f};
    uint64_t s6[1] = {6};
    gp_tensor_view a = view_of(GP_DTYPE_F16, h, 1, s6), b = view_of(GP_DTYPE_F32, f, 1, s6);
    gp_tolerance t = tol_of(0, 0, 0);
    gp_metrics_opts opts = {6, 1, false, NULL, GP_DTYPE_F16};
    gp_metrics m;
    assert_int_equal(gp_metrics_compute(&a, &b, &t, &opts, &m, err, sizeof(err)), 0);
    assert_int_equal(m.count, 6);
    assert_int_equal(m.max_ulp, 1);
    assert_int_equal(m.mismatched, 4); /* atol = rtol = 0: every value that is not equal */
    assert_int_equal(m.max_abs_index, 5);
    assert_true(fabs(m.max_abs - 0.002734375) < 1e-6); /* the difference of the wider values */
    uint64_t ulps[6] = {0};
    for (size_t i = 0; i < m.nworst; i++)
        ulps[m.worst[i].index] = m.worst[i].ulp;
    assert_int_equal(ulps[1], 1);
    assert_int_equal(ulps[2], 0); /* 0.50001 is 0.5 in f16 */
    assert_int_equal(ulps[3], 1);
    assert_int_equal(ulps[5], 1);
    gp_metrics_free(&m);
    /* the other way round: the wider side as the reference */
    assert_int_equal(gp_metrics_compute(&b, &a, &t, &opts, &m, err, sizeof(err)), 0);
    assert_int_equal(m.max_ulp, 1);
    gp_metrics_free(&m);
    /* without the widening option the pair is refused */
    opts.ulp_dtype = GP_DTYPE_INVALID;
    assert_int_equal(gp_metrics_compute(&a, &b, &t, &opts, &m, err, sizeof(err)), -1);
    assert_non_null(strstr(err, "dtypes differ (f16 and f32)"));
    /* bf16 against f16: the bf16 grid is the coarser one; 1 + 2^-10 is 1.0 in bf16 */
    uint16_t bf[2] = {0x3f80, 0x4000}, hf[2] = {0x3c01, 0x4000};
    uint64_t s2[1] = {2};
    gp_tensor_view c = view_of(GP_DTYPE_BF16, bf, 1, s2), d = view_of(GP_DTYPE_F16, hf, 1, s2);
    opts.ulp_dtype = GP_DTYPE_BF16;
    assert_int_equal(gp_metrics_compute(&c, &d, &t, &opts, &m, err, sizeof(err)), 0);
    assert_int_equal(m.max_ulp, 0);
    assert_int_equal(m.mismatched, 1);
    gp_metrics_free(&m);
    /* complex: c64 against c128, ULPs in float32 per component */
    float zc[2] = {1.0f, -2.0f};
    double zd[2] = {1.0 + 1.1920928955078125e-07, -2.0};
    uint64_t s1[1] = {1};
    gp_tensor_view e = view_of(GP_DTYPE_C64, zc, 1, s1), g = view_of(GP_DTYPE_C128, zd, 1, s1);
    opts.ulp_dtype = GP_DTYPE_C64;
    assert_int_equal(gp_metrics_compute(&e, &g, &t, &opts, &m, err, sizeof(err)), 0);
    assert_int_equal(m.max_ulp, 1);
    gp_metrics_free(&m);
    /* integers never widen */
    int32_t i32[1] = {1};
    gp_tensor_view k = view_of(GP_DTYPE_I32, i32, 1, s1), l = view_of(GP_DTYPE_F32, f, 1, s1);
    opts.ulp_dtype = GP_DTYPE_F32;
    assert_int_equal(gp_metrics_compute(&k, &l, &t, &opts, &m, err, sizeof(err)), -1);
}

/* NaN in the same places on both sides is counted, for the report's --equal-nan hint. */
static void nan_in_the_same_places(void **state)
{
    (void)state;
    float a[4] = {1, NAN, 3, NAN}, b[4] = {1, NAN, 3, 4};
    uint64_t s4[1] = {4};
    gp_tensor_view x = view_of(GP_DTYPE_F32, a, 1, s4), y = view_of(GP_DTYPE_F32, b, 1, s4);
    gp_tolerance t = tol_of(1e-6, 0, 0);
    gp_metrics m;
    run(&x, &y, &t, 0, 1, &m);
    assert_int_equal(m.nan_both, 1);
    assert_int_equal(m.nan_mismatch, 1);
    assert_int_equal(m.mismatched, 2);
}

static void refuses_mismatched_pairs(void **state)
{
    (void)state;
    float a[6] = {0};
    uint64_t s6[1] = {6}, s23[2] = {2, 3};
    gp_tensor_view x = view_of(GP_DTYPE_F32, a, 1, s6), y = view_of(GP_DTYPE_F32, a, 2, s23);
    gp_tensor_view z = view_of(GP_DTYPE_I32, a, 1, s6);
    gp_tolerance t = tol_of(0, 0, 0);
    gp_metrics_opts opts = {0, 1, false, NULL, GP_DTYPE_INVALID};
    gp_metrics m;
    assert_int_equal(gp_metrics_compute(&x, &y, &t, &opts, &m, err, sizeof(err)), -1);
    assert_non_null(strstr(err, "shapes differ"));
    assert_int_equal(gp_metrics_compute(&x, &z, &t, &opts, &m, err, sizeof(err)), -1);
    assert_non_null(strstr(err, "dtypes differ"));
    /* empty tensors pass */
    uint64_t s0[1] = {0};
    x = view_of(GP_DTYPE_F32, a, 1, s0);
    assert_int_equal(gp_metrics_compute(&x, &x, &t, &opts, &m, err, sizeof(err)), 0);
    kept[nkept++] = m;
    assert_true(m.pass);
    assert_int_equal(m.count, 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(small_f32_by_hand),
        cmocka_unit_test(reference_side_matters),
        cmocka_unit_test(floor_keeps_near_zero_sane),
        cmocka_unit_test(nmse_and_cosine_limits),
        cmocka_unit_test(nan_and_inf_placement),
        cmocka_unit_test(fortran_order_reports_logical_index),
        cmocka_unit_test(byte_orders),
        cmocka_unit_test(half_types),
        cmocka_unit_test(integers_and_bool),
        cmocka_unit_test(complex_values),
        cmocka_unit_test(p99_and_worst_k),
        cmocka_unit_test(big_arrays_against_reference_loop),
        cmocka_unit_test(converting_path_against_reference_loop),
        cmocka_unit_test(refuses_mismatched_pairs),
        cmocka_unit_test(mixed_widths_count_ulps_in_the_narrower),
        cmocka_unit_test(nan_in_the_same_places),
    };
    return cmocka_run_group_tests(tests, NULL, free_kept);
}
