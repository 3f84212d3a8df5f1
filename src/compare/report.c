/* report.c — renders compare results (report.h). The human report leads with the verdict and
 * the numbers a reviewer needs to decide (mismatch count, worst error and where, the tolerance
 * that would have passed); JSON carries exactly the documented fields; JUnit one case per
 * tensor. */
#include "compare/report.h"

#include <inttypes.h>
#include <math.h>
#include <string.h>

#include "util/term.h"

static const char *status_word(gp_pair_status s)
{
    switch (s) {
    case GP_PAIR_ONLY_IN_REF:
        return "missing from the other side";
    case GP_PAIR_ONLY_IN_OTHER:
        return "missing from the reference";
    case GP_PAIR_DTYPE_MISMATCH:
        return "dtypes differ";
    case GP_PAIR_SHAPE_MISMATCH:
        return "shapes differ";
    default:
        return "compared";
    }
}

static void index_str(const gp_tensor_view *v, uint64_t i, char *buf, size_t len)
{
    uint64_t idx[GP_TENSOR_MAX_DIMS];
    gp_tensor_unravel(v, i, idx);
    size_t o = (size_t)snprintf(buf, len, "[");
    for (int d = 0; d < v->ndim && o < len; d++)
        o += (size_t)snprintf(buf + o, len - o, "%s%" PRIu64, d ? ", " : "", idx[d]);
    if (o < len) snprintf(buf + o, len - o, "]");
}

void gp_compare_failure_reason(const gp_pair_result *p, char *buf, size_t len)
{
    char a[128], b[128];
    if (p->status == GP_PAIR_DTYPE_MISMATCH) {
        snprintf(buf, len, "dtypes differ: reference %s, other %s", gp_dtype_name(p->ref.dtype),
                 gp_dtype_name(p->other.dtype));
        return;
    }
    if (p->status == GP_PAIR_SHAPE_MISMATCH) {
        gp_tensor_shape_str(&p->ref, a, sizeof(a));
        gp_tensor_shape_str(&p->other, b, sizeof(b));
        snprintf(buf, len, "shapes differ: reference %s, other %s", a, b);
        return;
    }
    if (p->status != GP_PAIR_COMPARED) {
        snprintf(buf, len, "%s", status_word(p->status));
        return;
    }
    const gp_metrics *m = &p->m;
    if (m->mismatched) {
        snprintf(buf, len, "%" PRIu64 " / %" PRIu64 " elements (%.4g%%) outside tolerance",
                 m->mismatched, m->count, 100.0 * (double)m->mismatched / (double)m->count);
    } else if (!isnan(p->tol.nmse_max) && !(m->nmse <= p->tol.nmse_max)) {
        snprintf(buf, len, "NMSE %.3g is above the limit %.3g", m->nmse, p->tol.nmse_max);
    } else if (!isnan(p->tol.cosine_min) && !(m->cosine >= p->tol.cosine_min)) {
        snprintf(buf, len, "cosine similarity %.10g is below the limit %.10g", m->cosine,
                 p->tol.cosine_min);
    } else {
        snprintf(buf, len, "within tolerance");
    }
}

static void print_value(FILE *f, const double *v, bool cplx)
{
    if (cplx)
        fprintf(f, "(%.9g%+.9gj)", v[0], v[1]);
    else
        fprintf(f, "%.9g", v[0]);
}

/* Exact zeros on their own line, then one line per power of two from the smallest to the
 * largest non-zero error. */
static void print_histogram(FILE *f, const gp_metrics *m)
{
    int lo = -1, hi = -1;
    uint64_t top = m->err_hist[0];
    for (int b = 1; b < GP_ERR_HIST_BINS; b++) {
        if (!m->err_hist[b]) continue;
        if (lo < 0) lo = b;
        hi = b;
        if (m->err_hist[b] > top) top = m->err_hist[b];
    }
    if (top == 0) return;
    fprintf(f, "  |error| histogram (finite pairs):\n");
    if (m->err_hist[0]) {
        fprintf(f, "    %-24s", "exactly 0");
        for (uint64_t i = 0; i < (40 * m->err_hist[0] + top - 1) / top; i++)
            fputc('#', f);
        fprintf(f, " %" PRIu64 "\n", m->err_hist[0]);
    }
    for (int b = lo; b >= 0 && b <= hi; b++) {
        int bar = (int)((40 * m->err_hist[b] + top - 1) / top);
        if (b == 1)
            fprintf(f, "    %-24s", "below 8.67e-19");
        else if (b == GP_ERR_HIST_BINS - 1)
            fprintf(f, "    >= %-21.3g", gp_metrics_err_bin_low(b));
        else
            fprintf(f, "    [%-9.3g, %9.3g)   ", gp_metrics_err_bin_low(b),
                    gp_metrics_err_bin_low(b + 1));
        for (int i = 0; i < bar; i++)
            fputc('#', f);
        fprintf(f, " %" PRIu64 "\n", m->err_hist[b]);
    }
}

static void print_metrics(FILE *f, const gp_pair_result *p)
{
    const gp_metrics *m = &p->m;
    const gp_tolerance *t = &p->tol;
    bool cplx = gp_dtype_is_complex(p->ref.dtype);
    char idx[256];
    if (p->widened_to != GP_DTYPE_INVALID)
        fprintf(f,
                "  dtypes       differ (reference %s, other %s): both widened to %s and judged "
                "with %s's tolerance, ULPs in %s (--same-dtype refuses such pairs)\n",
                gp_dtype_name(p->ref.dtype), gp_dtype_name(p->other.dtype),
                gp_dtype_name(p->widened_to), gp_dtype_name(p->tol_dtype),
                gp_dtype_name(p->tol_dtype));
    fprintf(f, "  tolerance    atol %.3g  rtol %.3g", t->atol, t->rtol);
    if (t->floor_scale > 0)
        fprintf(f, "  floor %.3g (%.3g x RMS of the reference)", m->floor, t->floor_scale);
    if (!isnan(t->nmse_max)) fprintf(f, "  NMSE <= %.3g", t->nmse_max);
    if (!isnan(t->cosine_min)) fprintf(f, "  cosine >= %.10g", t->cosine_min);
    fprintf(f, "%s\n", t->equal_nan ? "  NaN == NaN" : "");
    fprintf(f, "  mismatched   %" PRIu64 " / %" PRIu64 " (%.4g%%)\n", m->mismatched, m->count,
            m->count ? 100.0 * (double)m->mismatched / (double)m->count : 0.0);
    if (m->finite) {
        index_str(&p->ref, m->max_abs_index, idx, sizeof(idx));
        fprintf(f, "  max abs      %.6g at %s\n", m->max_abs, idx);
        fprintf(f, "  mean abs     %.6g   RMSE %.6g\n", m->mean_abs, m->rmse);
        fprintf(f, "  max rel      %.6g   NMSE %.6g   cosine %.12g\n", m->max_rel, m->nmse,
                m->cosine);
        fprintf(f, "  ULP          max %" PRIu64 "   p99 %" PRIu64 "\n", m->max_ulp, m->p99_ulp);
    }
    if (m->nan_mismatch || m->inf_mismatch || m->finite != m->count) {
        uint64_t nf = m->count - m->finite;
        fprintf(f,
                "  NaN/Inf      %" PRIu64 " NaN placement %s, %" PRIu64 " Inf %s, %" PRIu64
                " %s not both finite\n",
                m->nan_mismatch, gp_plural(m->nan_mismatch, "mismatch", "mismatches"),
                m->inf_mismatch, gp_plural(m->inf_mismatch, "mismatch", "mismatches"), nf,
                gp_plural(nf, "pair", "pairs"));
    }
    if (m->finite)
        fprintf(f, "  would pass   atol >= %.3g (rtol as set), or rtol >= %.3g (atol as set)\n",
                m->min_atol, m->min_rtol);
    if (!p->pass && !t->equal_nan && m->nan_both)
        fprintf(f,
                "  hint         %" PRIu64 " position%s hold%s NaN on both sides%s and count%s as "
                "mismatched: --equal-nan counts NaN == NaN as equal\n",
                m->nan_both, m->nan_both == 1 ? "" : "s", m->nan_both == 1 ? "s" : "",
                m->nan_mismatch ? "" : " (every NaN is in the same place on both)",
                m->nan_both == 1 ? "s" : "");
    for (size_t i = 0; i < m->nworst; i++) {
        const gp_worst *w = &m->worst[i];
        index_str(&p->ref, w->index, idx, sizeof(idx));
        fprintf(f, "  %s %-14s ref ", i ? "     " : "worst", idx);
        print_value(f, w->ref, cplx);
        fprintf(f, "  other ");
        print_value(f, w->other, cplx);
        if (isfinite(w->abs_err))
            fprintf(f, "  abs %.3g  rel %.3g  ulp %" PRIu64 "\n", w->abs_err, w->rel_err, w->ulp);
        else
            fprintf(f, "  (NaN/Inf placement)\n");
    }
    print_histogram(f, m);
}

void gp_compare_report_human(FILE *f, const gp_compare_result *r, const char *ref_label,
                             const char *other_label)
{
    size_t npass = 0;
    for (size_t i = 0; i < r->count; i++) {
        const gp_pair_result *p = &r->items[i];
        const gp_tensor_view *v = p->status == GP_PAIR_ONLY_IN_OTHER ? &p->other : &p->ref;
        char shape[256], why[256];
        gp_tensor_shape_str(v, shape, sizeof(shape));
        npass += p->pass;
        char safe[GP_TERM_SAFE_MAX]; /* tensor and file names come from the inputs */
        fprintf(f, "%s%s%s  %s", gp_term_color(f, p->pass ? GP_COLOR_GREEN : GP_COLOR_RED),
                p->pass ? "PASS" : "FAIL", gp_term_color(f, GP_COLOR_RESET),
                gp_term_safe(p->name, safe, sizeof safe));
        if (p->widened_to != GP_DTYPE_INVALID)
            fprintf(f, "  %s/%s %s", gp_dtype_name(p->ref.dtype), gp_dtype_name(p->other.dtype),
                    shape);
        else if (v->dtype != GP_DTYPE_INVALID)
            fprintf(f, "  %s %s", gp_dtype_name(v->dtype), shape);
        gp_compare_failure_reason(p, why, sizeof(why));
        if (p->status == GP_PAIR_ONLY_IN_REF)
            fprintf(f, "  -- only in %s (reference), missing from %s\n", ref_label, other_label);
        else if (p->status == GP_PAIR_ONLY_IN_OTHER)
            fprintf(f, "  -- only in %s, missing from %s (reference)\n", other_label, ref_label);
        else
            fprintf(f, "  -- %s\n", why);
        if (p->status == GP_PAIR_COMPARED) print_metrics(f, p);
    }
    fprintf(f, "%s%s%s: %zu tensor%s, %zu passed, %zu failed (reference: %s)\n",
            gp_term_color(f, GP_COLOR_BOLD), r->pass ? "PASS" : "FAIL",
            gp_term_color(f, GP_COLOR_RESET), r->count, r->count == 1 ? "" : "s", npass,
            r->count - npass, ref_label);
    if (r->skipped_files)
        fprintf(f, "note: %zu file%s of unknown type skipped\n", r->skipped_files,
                r->skipped_files == 1 ? "" : "s");
}

/* --- JSON -------------------------------------------------------------------------------- */

static cJSON *json_index(const gp_tensor_view *v, uint64_t i)
{
    uint64_t idx[GP_TENSOR_MAX_DIMS];
    gp_tensor_unravel(v, i, idx);
    cJSON *a = cJSON_CreateArray();
    for (int d = 0; a && d < v->ndim; d++)
        cJSON_AddItemToArray(a, cJSON_CreateNumber((double)idx[d]));
    return a;
}

static cJSON *json_value(const double *v, bool cplx)
{
    if (!cplx) return isfinite(v[0]) ? cJSON_CreateNumber(v[0]) : cJSON_CreateNull();
    cJSON *a = cJSON_CreateArray();
    for (int i = 0; a && i < 2; i++)
        cJSON_AddItemToArray(a, isfinite(v[i]) ? cJSON_CreateNumber(v[i]) : cJSON_CreateNull());
    return a;
}

static void json_num(cJSON *o, const char *k, double v, bool have)
{
    if (have && isfinite(v))
        cJSON_AddNumberToObject(o, k, v);
    else
        cJSON_AddNullToObject(o, k);
}

static cJSON *json_worst(const gp_pair_result *p)
{
    cJSON *a = cJSON_CreateArray();
    bool cplx = gp_dtype_is_complex(p->ref.dtype);
    for (size_t i = 0; a && i < p->m.nworst; i++) {
        const gp_worst *w = &p->m.worst[i];
        cJSON *o = cJSON_CreateObject();
        cJSON_AddItemToObject(o, "index", json_index(&p->ref, w->index));
        cJSON_AddItemToObject(o, "ref", json_value(w->ref, cplx));
        cJSON_AddItemToObject(o, "other", json_value(w->other, cplx));
        json_num(o, "abs", w->abs_err, true);
        json_num(o, "rel", w->rel_err, true);
        json_num(o, "ulp", (double)w->ulp, w->ulp != UINT64_MAX);
        cJSON_AddItemToArray(a, o);
    }
    return a;
}

static cJSON *json_pair(const gp_pair_result *p)
{
    cJSON *o = cJSON_CreateObject();
    const gp_tensor_view *v = p->status == GP_PAIR_ONLY_IN_OTHER ? &p->other : &p->ref;
    bool known = v->dtype != GP_DTYPE_INVALID, done = p->status == GP_PAIR_COMPARED;
    const gp_metrics *m = &p->m;
    cJSON_AddStringToObject(o, "name", p->name);
    cJSON_AddBoolToObject(o, "pass", p->pass);
    if (known) {
        cJSON_AddStringToObject(o, "dtype", gp_dtype_name(v->dtype));
        cJSON *s = cJSON_AddArrayToObject(o, "shape");
        for (int d = 0; s && d < v->ndim; d++)
            cJSON_AddItemToArray(s, cJSON_CreateNumber((double)v->shape[d]));
        cJSON_AddNumberToObject(o, "count", (double)v->count);
    } else {
        cJSON_AddNullToObject(o, "dtype");
        cJSON_AddNullToObject(o, "shape");
        cJSON_AddNullToObject(o, "count");
    }
    json_num(o, "mismatched", (double)m->mismatched, done);
    json_num(o, "max_abs", m->max_abs, done && m->finite);
    if (done && m->finite)
        cJSON_AddItemToObject(o, "max_abs_index", json_index(&p->ref, m->max_abs_index));
    else
        cJSON_AddNullToObject(o, "max_abs_index");
    json_num(o, "mean_abs", m->mean_abs, done && m->finite);
    json_num(o, "max_rel", m->max_rel, done && m->finite);
    json_num(o, "rmse", m->rmse, done && m->finite);
    json_num(o, "nmse", m->nmse, done && m->finite);
    json_num(o, "cosine", m->cosine, done && m->finite);
    json_num(o, "max_ulp", (double)m->max_ulp, done && m->finite);
    json_num(o, "p99_ulp", (double)m->p99_ulp, done && m->finite);
    json_num(o, "nan_mismatch", (double)m->nan_mismatch, done);
    json_num(o, "inf_mismatch", (double)m->inf_mismatch, done);
    json_num(o, "nan_both", (double)m->nan_both, done);
    if (p->widened_to != GP_DTYPE_INVALID) {
        cJSON *w = cJSON_AddObjectToObject(o, "mixed_dtypes");
        cJSON_AddStringToObject(w, "reference", gp_dtype_name(p->ref.dtype));
        cJSON_AddStringToObject(w, "other", gp_dtype_name(p->other.dtype));
        cJSON_AddStringToObject(w, "widened_to", gp_dtype_name(p->widened_to));
        cJSON_AddStringToObject(w, "tolerance_of", gp_dtype_name(p->tol_dtype));
    } else {
        cJSON_AddNullToObject(o, "mixed_dtypes");
    }
    if (done)
        cJSON_AddItemToObject(o, "worst", json_worst(p));
    else
        cJSON_AddArrayToObject(o, "worst");
    return o;
}

cJSON *gp_compare_report_json(const gp_compare_result *r)
{
    cJSON *o = cJSON_CreateObject();
    if (!o) return NULL;
    cJSON_AddStringToObject(o, "schema", "gpuport.compare/1");
    cJSON_AddBoolToObject(o, "pass", r->pass);
    cJSON *t = cJSON_AddArrayToObject(o, "tensors");
    for (size_t i = 0; t && i < r->count; i++)
        cJSON_AddItemToArray(t, json_pair(&r->items[i]));
    return o;
}

/* --- JUnit ------------------------------------------------------------------------------- */

void gp_compare_report_junit(gp_strbuf *sb, const gp_compare_result *r)
{
    size_t fails = 0;
    for (size_t i = 0; i < r->count; i++)
        fails += !r->items[i].pass;
    gp_strbuf_puts(sb, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    gp_strbuf_printf(sb, "<testsuites name=\"gpuport compare\" tests=\"%zu\" failures=\"%zu\">\n",
                     r->count, fails);
    gp_strbuf_printf(sb,
                     "  <testsuite name=\"gpuport.compare\" tests=\"%zu\" failures=\"%zu\" "
                     "errors=\"0\" skipped=\"0\">\n",
                     r->count, fails);
    for (size_t i = 0; i < r->count; i++) {
        const gp_pair_result *p = &r->items[i];
        gp_strbuf_puts(sb, "    <testcase classname=\"gpuport.compare\" name=\"");
        gp_strbuf_put_xml(sb, p->name);
        if (p->pass) {
            gp_strbuf_puts(sb, "\"/>\n");
            continue;
        }
        char why[256];
        gp_compare_failure_reason(p, why, sizeof(why));
        gp_strbuf_puts(sb, "\">\n      <failure message=\"");
        gp_strbuf_put_xml(sb, why);
        gp_strbuf_puts(sb, "\">");
        if (p->status == GP_PAIR_COMPARED && p->m.finite)
            gp_strbuf_printf(sb,
                             "max abs %.6g, mean abs %.6g, max rel %.6g, NMSE %.6g, cosine "
                             "%.12g, max ULP %" PRIu64,
                             p->m.max_abs, p->m.mean_abs, p->m.max_rel, p->m.nmse, p->m.cosine,
                             p->m.max_ulp);
        gp_strbuf_puts(sb, "</failure>\n    </testcase>\n");
    }
    gp_strbuf_puts(sb, "  </testsuite>\n</testsuites>\n");
}
