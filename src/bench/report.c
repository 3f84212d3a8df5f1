/* report.c — gpuport.bench/1: the human table, the JSON document, and reading two documents back
 * for --compare (validated field by field: a malformed file is named and refused, never half
 * compared). */
#include <math.h>
#include <string.h>

#include "bench/bench.h"
#include "util/term.h"

#define GP_BENCH_FILE_CAP ((size_t)16 << 20)

static const char *gp_bench_backend(int b)
{
    return gp_backend_name((gp_backend)b);
}

static void gp_bench_print_value(FILE *f, double v, const char *unit)
{
    if (isnan(v))
        fprintf(f, "%10s", "-");
    else if (v >= 1000)
        fprintf(f, "%10.0f", v);
    else if (v >= 10)
        fprintf(f, "%10.1f", v);
    else
        fprintf(f, "%10.3f", v);
    (void)unit;
}

void gp_bench_print_human(FILE *f, const gp_bench_run *run)
{
    const gp_bench_device *d = &run->dev;
    const char *bold = gp_term_color(f, GP_COLOR_BOLD), *reset = gp_term_color(f, GP_COLOR_RESET);
    const char *yellow = gp_term_color(f, GP_COLOR_YELLOW);
    fprintf(f, "%s%s%s  %s (%s, %s)\n", bold, d->info.spec, reset, d->info.name,
            gp_bench_backend(d->info.backend), d->info.driver_version);
    fprintf(f, "  last-level cache %.1f MiB (%s)", (double)d->llc_bytes / 1048576.0, d->llc_source);
    if (d->clock_mhz > 0) fprintf(f, ", clock %.0f MHz", d->clock_mhz);
    if (d->memory_clock_mhz > 0)
        fprintf(f, ", memory clock %.0f MHz x %d bits", d->memory_clock_mhz, d->bus_width_bits);
    if (d->pcie[0]) fprintf(f, ", PCIe %s", d->pcie);
    if (d->info.unified_memory)
        fprintf(f, ", unified memory (transfers are copies into a shared "
                   "buffer)");
    if (d->kernels_note[0]) fprintf(f, "\n  %skernels: %s%s", yellow, d->kernels_note, reset);
    fprintf(f, "\n  peaks:\n");
    static const char *const pk[GP_PEAK_COUNT] = {NULL, "memory", "h2d", "d2h", "fp32"};
    static const char *const pu[GP_PEAK_COUNT] = {NULL, "GB/s", "GB/s", "GB/s", "GFLOP/s"};
    for (int k = GP_PEAK_MEMORY; k < GP_PEAK_COUNT; k++) {
        if (d->peaks[k].value > 0)
            fprintf(f, "    %-7s %10.1f %-8s %s\n", pk[k], d->peaks[k].value, pu[k],
                    d->peaks[k].source);
        else
            fprintf(f, "    %-7s %10s %-8s %s\n", pk[k], "-", "", d->peaks[k].source);
    }
    fprintf(f, "\n  %-34s %10s %10s %10s %7s %8s  %s\n", "benchmark", "median", "min", "max", "cv",
            "of peak", "peak");
    for (size_t i = 0; i < run->count; i++) {
        const gp_bench_result *r = &run->results[i];
        if (isnan(r->median)) {
            fprintf(f, "  %-34s %s\n", r->name, r->peak_source);
            continue;
        }
        char label[128];
        snprintf(label, sizeof label, "%s (%s)", r->name, r->unit);
        fprintf(f, "  %-34s", label);
        gp_bench_print_value(f, r->median, r->unit);
        gp_bench_print_value(f, r->min, r->unit);
        gp_bench_print_value(f, r->max, r->unit);
        bool noisy = r->cv > GP_BENCH_CV_FLAG;
        fprintf(f, " %s%5.1f%%%s%s", noisy ? yellow : "", r->cv * 100, noisy ? "!" : " ",
                noisy ? reset : "");
        if (!isnan(r->fraction))
            fprintf(f, " %7.1f%%  %s\n", r->fraction * 100, pk[r->peak_kind]);
        else if (r->peak_kind != GP_PEAK_NONE)
            fprintf(f, " %8s  %s: %s\n", "-", pk[r->peak_kind],
                    strncmp(r->peak_source, "unified", 7) ? "unknown" : "none (unified memory)");
        else
            fprintf(f, " %8s  %s\n", "-", r->peak_source);
    }
    fprintf(f,
            "\n  cv = standard deviation / mean over the samples; '!' marks cv above %.0f%% "
            "(a noisy figure)\n",
            GP_BENCH_CV_FLAG * 100);
}

static void gp_bench_json_num(cJSON *o, const char *key, double v)
{
    if (isnan(v) || isinf(v))
        cJSON_AddNullToObject(o, key);
    else
        cJSON_AddNumberToObject(o, key, v);
}

cJSON *gp_bench_to_json(const gp_bench_run *run)
{
    const gp_bench_device *d = &run->dev;
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "schema", GP_BENCH_SCHEMA);
    cJSON *dev = cJSON_AddObjectToObject(o, "device");
    cJSON_AddStringToObject(dev, "spec", d->info.spec);
    cJSON_AddStringToObject(dev, "backend", gp_bench_backend(d->info.backend));
    cJSON_AddStringToObject(dev, "name", d->info.name);
    cJSON_AddStringToObject(dev, "vendor", d->info.vendor);
    cJSON_AddStringToObject(dev, "driver_version", d->info.driver_version);
    cJSON_AddStringToObject(dev, "arch", d->info.arch);
    cJSON_AddNumberToObject(dev, "compute_units", d->info.compute_units);
    cJSON_AddNumberToObject(dev, "total_memory", (double)d->info.total_memory);
    cJSON_AddBoolToObject(dev, "unified_memory", d->info.unified_memory != 0);
    gp_bench_json_num(dev, "llc_bytes", d->llc_bytes ? (double)d->llc_bytes : NAN);
    gp_bench_json_num(dev, "clock_mhz", d->clock_mhz > 0 ? d->clock_mhz : NAN);
    gp_bench_json_num(dev, "memory_clock_mhz", d->memory_clock_mhz > 0 ? d->memory_clock_mhz : NAN);
    gp_bench_json_num(dev, "bus_width_bits", d->bus_width_bits > 0 ? d->bus_width_bits : NAN);
    if (d->pcie[0])
        cJSON_AddStringToObject(dev, "pcie", d->pcie);
    else
        cJSON_AddNullToObject(dev, "pcie");
    cJSON_AddStringToObject(dev, "kernels", d->kernels_note[0] ? "built-in" : "source");
    if (d->kernels_note[0]) cJSON_AddStringToObject(dev, "kernels_note", d->kernels_note);
    static const char *const pk[GP_PEAK_COUNT] = {NULL, "memory", "h2d", "d2h", "fp32"};
    cJSON *peaks = cJSON_AddObjectToObject(dev, "peaks");
    for (int k = GP_PEAK_MEMORY; k < GP_PEAK_COUNT; k++) {
        cJSON *p = cJSON_AddObjectToObject(peaks, pk[k]);
        gp_bench_json_num(p, "value", d->peaks[k].value > 0 ? d->peaks[k].value : NAN);
        cJSON_AddStringToObject(p, "source", d->peaks[k].source);
    }
    cJSON *res = cJSON_AddArrayToObject(o, "results");
    for (size_t i = 0; i < run->count; i++) {
        const gp_bench_result *r = &run->results[i];
        cJSON *j = cJSON_CreateObject();
        cJSON_AddStringToObject(j, "name", r->name);
        cJSON_AddStringToObject(j, "unit", r->unit);
        gp_bench_json_num(j, "median", r->median);
        gp_bench_json_num(j, "min", r->min);
        gp_bench_json_num(j, "max", r->max);
        gp_bench_json_num(j, "cv", r->cv);
        gp_bench_json_num(j, "peak", r->peak > 0 ? r->peak : NAN);
        cJSON_AddStringToObject(j, "peak_source", r->peak_source);
        gp_bench_json_num(j, "fraction", r->fraction);
        cJSON_AddItemToArray(res, j);
    }
    return o;
}

static bool gp_bench_num_or_null(const cJSON *o, const char *key)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
    return v && (cJSON_IsNull(v) || cJSON_IsNumber(v));
}

int gp_bench_validate(const cJSON *doc, char *err, size_t errlen)
{
    const char *dup = NULL;
    if (cJSON_IsArray(doc)) {
        snprintf(err, errlen,
                 "holds %d devices (--device all); save one device per file with "
                 "--device SPEC to compare",
                 cJSON_GetArraySize(doc));
        return -1;
    }
    if (!cJSON_IsObject(doc)) {
        snprintf(err, errlen, "not a JSON object");
        return -1;
    }
    if (gp_json_find_duplicate_key(doc, &dup)) {
        snprintf(err, errlen, "the key \"%s\" appears twice in one object", dup);
        return -1;
    }
    const char *schema = gp_json_str(doc, "schema", NULL);
    if (!schema || strcmp(schema, GP_BENCH_SCHEMA) != 0) {
        snprintf(err, errlen, "schema is %s%s%s, expected \"%s\"", schema ? "\"" : "",
                 schema ? schema : "missing", schema ? "\"" : "", GP_BENCH_SCHEMA);
        return -1;
    }
    const cJSON *dev = cJSON_GetObjectItemCaseSensitive(doc, "device");
    if (!cJSON_IsObject(dev) || !cJSON_IsString(cJSON_GetObjectItemCaseSensitive(dev, "spec")) ||
        !cJSON_IsString(cJSON_GetObjectItemCaseSensitive(dev, "name"))) {
        snprintf(err, errlen, "\"device\" must be an object with string \"spec\" and \"name\"");
        return -1;
    }
    const cJSON *res = cJSON_GetObjectItemCaseSensitive(doc, "results");
    if (!cJSON_IsArray(res)) {
        snprintf(err, errlen, "\"results\" must be an array");
        return -1;
    }
    int i = 0;
    const cJSON *r;
    cJSON_ArrayForEach(r, res)
    {
        static const char *const nums[] = {"median", "min", "max", "cv", "peak", "fraction"};
        if (!cJSON_IsObject(r) || !cJSON_IsString(cJSON_GetObjectItemCaseSensitive(r, "name")) ||
            !cJSON_IsString(cJSON_GetObjectItemCaseSensitive(r, "unit")) ||
            !cJSON_IsString(cJSON_GetObjectItemCaseSensitive(r, "peak_source"))) {
            snprintf(err, errlen,
                     "results[%d] must be an object with string name, unit and peak_source", i);
            return -1;
        }
        for (size_t k = 0; k < sizeof nums / sizeof *nums; k++)
            if (!gp_bench_num_or_null(r, nums[k])) {
                snprintf(err, errlen, "results[%d] (%s): \"%s\" must be a number or null", i,
                         cJSON_GetObjectItemCaseSensitive(r, "name")->valuestring, nums[k]);
                return -1;
            }
        i++;
    }
    return 0;
}

cJSON *gp_bench_load(const char *path, char *err, size_t errlen)
{
    char perr[512];
    cJSON *doc = gp_json_parse_file(path, GP_BENCH_FILE_CAP, perr, sizeof perr);
    if (!doc) {
        snprintf(err, errlen, "%s", perr);
        return NULL;
    }
    char verr[400];
    if (gp_bench_validate(doc, verr, sizeof verr) != 0) {
        snprintf(err, errlen, "%s: %s", path, verr);
        cJSON_Delete(doc);
        return NULL;
    }
    return doc;
}

static double gp_bench_jnum(const cJSON *o, const char *key)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
    return cJSON_IsNumber(v) ? v->valuedouble : NAN;
}

static const cJSON *gp_bench_find(const cJSON *doc, const char *name)
{
    const cJSON *r;
    cJSON_ArrayForEach(r, cJSON_GetObjectItemCaseSensitive(doc, "results"))
    {
        if (!strcmp(cJSON_GetObjectItemCaseSensitive(r, "name")->valuestring, name)) return r;
    }
    return NULL;
}

static void gp_bench_compare_row(FILE *f, const char *name, const char *unit, const cJSON *ra,
                                 const cJSON *rb)
{
    double a = ra ? gp_bench_jnum(ra, "median") : NAN, b = rb ? gp_bench_jnum(rb, "median") : NAN;
    double fa = ra ? gp_bench_jnum(ra, "fraction") : NAN;
    double fb = rb ? gp_bench_jnum(rb, "fraction") : NAN;
    char label[128];
    snprintf(label, sizeof label, "%s (%s)", name, unit);
    fprintf(f, "  %-34s", label);
    gp_bench_print_value(f, a, unit);
    if (!isnan(fa))
        fprintf(f, " %6.1f%%", fa * 100);
    else
        fprintf(f, " %7s", "");
    gp_bench_print_value(f, b, unit);
    if (!isnan(fb))
        fprintf(f, " %6.1f%%", fb * 100);
    else
        fprintf(f, " %7s", "");
    if (!isnan(a) && !isnan(b) && a > 0)
        fprintf(f, " %8.2fx\n", b / a);
    else
        fprintf(f, " %9s\n", "-");
}

void gp_bench_print_compare(FILE *f, const char *name_a, const cJSON *a, const char *name_b,
                            const cJSON *b)
{
    const cJSON *da = cJSON_GetObjectItemCaseSensitive(a, "device");
    const cJSON *db = cJSON_GetObjectItemCaseSensitive(b, "device");
    fprintf(f, "A: %s  %s (%s)\nB: %s  %s (%s)\n\n", name_a, gp_json_str(da, "name", "?"),
            gp_json_str(da, "spec", "?"), name_b, gp_json_str(db, "name", "?"),
            gp_json_str(db, "spec", "?"));
    fprintf(f, "  %-34s %10s %7s %10s %7s %9s\n", "benchmark", "A median", "of pk", "B median",
            "of pk", "B / A");
    const cJSON *r;
    cJSON_ArrayForEach(r, cJSON_GetObjectItemCaseSensitive(a, "results"))
    {
        const char *name = cJSON_GetObjectItemCaseSensitive(r, "name")->valuestring;
        gp_bench_compare_row(f, name, gp_json_str(r, "unit", ""), r, gp_bench_find(b, name));
    }
    cJSON_ArrayForEach(r, cJSON_GetObjectItemCaseSensitive(b, "results"))
    {
        const char *name = cJSON_GetObjectItemCaseSensitive(r, "name")->valuestring;
        if (!gp_bench_find(a, name))
            gp_bench_compare_row(f, name, gp_json_str(r, "unit", ""), NULL, r);
    }
    fprintf(f, "\n  B / A is the ratio of medians (for latencies in us, lower is better).\n");
}
