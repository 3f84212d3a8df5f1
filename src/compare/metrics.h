/* metrics.h — comparing two same-shaped, same-typed tensors in one streaming pass: error
 * statistics, tolerance checks, ULP distances, NaN/Inf placement, the worst elements and an
 * error histogram. The element range is split into fixed chunks shared out among threads; every
 * partial result is combined in chunk order, so the numbers do not depend on the thread count. */
#ifndef GP_COMPARE_METRICS_H
#define GP_COMPARE_METRICS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "formats/tensor.h"

/* What "close enough" means for one tensor. An element passes when
 * |x - ref| <= atol + rtol * max(|ref|, floor), floor = floor_scale * RMS(ref) (0 when
 * floor_scale is 0); NaN passes only against NaN with equal_nan; Inf only against the same Inf.
 * A tensor passes when no element fails and, where they are not NaN (unchecked), NMSE <= nmse_max
 * and cosine >= cosine_min. */
typedef struct gp_tolerance {
    double atol;
    double rtol;
    double floor_scale; /* 0.01 by default; 0 = no floor (torch semantics) */
    bool equal_nan;
    double nmse_max;   /* NAN = not checked */
    double cosine_min; /* NAN = not checked */
} gp_tolerance;

/* One of the worst elements (by absolute error; NaN/Inf placement mismatches rank first). */
typedef struct gp_worst {
    uint64_t index; /* logical C-order linear index (unravel with the tensor's shape) */
    double ref[2];  /* value in the reference (real, imaginary) */
    double other[2];
    double abs_err; /* INFINITY for a NaN/Inf placement mismatch */
    double rel_err; /* abs_err / max(|ref|, floor) */
    uint64_t ulp;   /* UINT64_MAX when not finite */
} gp_worst;

/* Histogram of |error| over finite pairs: bin 0 = exactly zero, bin 1 = below 2^-60,
 * bin 2 + e = [2^(e-60), 2^(e-59)) for e in 0..119, the last bin = 2^60 and above. */
#define GP_ERR_HIST_BINS 123
/* Histogram of ULP distances: 0..63 exactly, then 16 bins per power of two. */
#define GP_ULP_HIST_BINS (64 + 58 * 16)

typedef struct gp_metrics {
    uint64_t count;      /* elements compared */
    uint64_t finite;     /* pairs where both sides are finite (the error statistics' basis) */
    uint64_t mismatched; /* elements outside tolerance, NaN/Inf failures included */
    double max_abs;
    uint64_t max_abs_index; /* logical C-order linear index; meaningful when finite > 0 */
    double mean_abs;
    double max_rel; /* |x - ref| / max(|ref|, floor) */
    double rmse;
    double nmse; /* sum (x-ref)^2 / sum ref^2 */
    double cosine;
    uint64_t max_ulp;
    uint64_t p99_ulp; /* nearest rank; exact below 64, else the top of its bin (<= 6.25% high) */
    uint64_t nan_mismatch; /* positions where exactly one side is NaN */
    uint64_t inf_mismatch; /* positions with an Inf on a side and not the same Inf on the other */
    uint64_t nan_both;     /* positions where both sides are NaN (pass only with equal_nan) */
    double floor;          /* the relative floor used */
    double min_atol;       /* the smallest atol that passes every finite pair, rtol as set */
    double min_rtol;       /* the smallest rtol that passes every finite pair, atol as set */
    bool pass;
    gp_worst *worst; /* the worst elements, worst first (free with gp_metrics_free) */
    size_t nworst;
    uint64_t err_hist[GP_ERR_HIST_BINS];
} gp_metrics;

/* Options of one comparison. */
typedef struct gp_metrics_opts {
    size_t worst_k; /* how many worst elements to keep */
    int threads;    /* <= 0: one per online CPU */
    /* The views lie in read-only file mappings: pages already compared may be dropped from this
     * process's memory (they stay in the page cache). Never set it for heap buffers. */
    bool release_pages;
    /* When set, the calling thread shows "compare: LABEL NN%" with gp_term_progress (which
     * prints only when stderr is a terminal) for tensors of more than a few chunks. */
    const char *progress_label;
    /* GP_DTYPE_INVALID: both sides have the same dtype. Otherwise they may differ (both real
     * floats, or both complex): every value is widened to double, and ULP distances count in
     * this dtype, the narrower of the two (the wider side's values rounded to it). */
    gp_dtype ulp_dtype;
} gp_metrics_opts;

/* Compares `other` against `ref` (same shape, and the same dtype unless opts->ulp_dtype says
 * otherwise; byte order and memory order may differ). 0, or -1 with the reason in err
 * (dtype/shape disagree, out of memory). */
int gp_metrics_compute(const gp_tensor_view *ref, const gp_tensor_view *other,
                       const gp_tolerance *tol, const gp_metrics_opts *opts, gp_metrics *out,
                       char *err, size_t errlen);
void gp_metrics_free(gp_metrics *m);

/* The lower edge of |error| histogram bin b (0 for bins 0 and 1). */
double gp_metrics_err_bin_low(int b);

#endif
