/* cmd_bench.c — `gpuport bench`: memory bandwidth, host<->device transfers, launch latency and
 * SGEMM on one device or all, each beside the hardware's peak and how it was derived; --json,
 * --plot, and --compare of two saved runs. The measuring is in src/bench/. */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "bench/bench.h"
#include "cli/cli.h"
#include "util/fs.h"
#include "util/term.h"

static void bench_usage(void)
{
    printf(
        "usage: gpuport bench [--device SPEC|all] [--only NAME[,NAME...]] [--quick] [--json]\n"
        "                     [--plot FILE.svg] [--peak NAME=VALUE]...\n"
        "       gpuport bench --compare A.json B.json\n\n"
        "How close each device gets to its hardware's peak: STREAM copy/scale/add/triad in the\n"
        "kernel dialect, host<->device transfers (pageable and pinned, 4 KiB to 512 MiB), launch\n"
        "latency of an empty kernel, and SGEMM with the dialect's tiled kernel and the vendor\n"
        "library (cuBLAS with TF32 off, OpenBLAS or Accelerate, MPS). Every result: median, min,\n"
        "max over samples after warm-up, cv (flagged above 5%%), and the fraction of the peak\n"
        "with the peak's derivation. Every kernel's output is checked.\n\n"
        "  --device SPEC|all   auto (default), cpu, opencl[:N], cuda[:N], metal[:N], or all\n"
        "  --only NAMES        memory, transfer, launch, gemm (comma-separated or repeated)\n"
        "  --quick             small sizes and few samples (tests, CI); the full run takes "
        "minutes\n"
        "  --json              one JSON object (schema gpuport.bench/1); with --device all an\n"
        "                      array of them, one per device\n"
        "  --plot FILE.svg     an SVG of transfer bandwidth vs size and GFLOP/s vs n\n"
        "  --peak NAME=VALUE   use this peak: memory, h2d, d2h, link (both) in GB/s; fp32 in\n"
        "                      GFLOP/s\n"
        "  --compare A B       side by side of two saved --json runs\n\n"
        "Exit codes: 0 measured and verified, 1 a result was wrong (named on stderr), 2 usage,\n"
        "unreadable or malformed input, or no such device, 3 internal or runtime error.\n");
}

static int bench_parse_only(const char *arg, unsigned *only)
{
    char buf[256];
    snprintf(buf, sizeof buf, "%s", arg);
    char *save = NULL;
    for (char *w = strtok_r(buf, ",", &save); w; w = strtok_r(NULL, ",", &save)) {
        if (!strcmp(w, "memory"))
            *only |= GP_BENCH_MEMORY;
        else if (!strcmp(w, "transfer"))
            *only |= GP_BENCH_TRANSFER;
        else if (!strcmp(w, "launch"))
            *only |= GP_BENCH_LAUNCH;
        else if (!strcmp(w, "gemm"))
            *only |= GP_BENCH_GEMM;
        else
            return gp_cli_usage_error("bench",
                                      "--only: unknown benchmark '%s' (memory, "
                                      "transfer, launch, gemm)",
                                      w);
    }
    return 0;
}

static int bench_compare(const char *a, const char *b)
{
    char err[600];
    cJSON *da = gp_bench_load(a, err, sizeof err);
    if (!da) return gp_cli_input_error("bench", "%s", err);
    cJSON *db = gp_bench_load(b, err, sizeof err);
    if (!db) {
        cJSON_Delete(da);
        return gp_cli_input_error("bench", "%s", err);
    }
    gp_bench_print_compare(stdout, a, da, b, db);
    cJSON_Delete(da);
    cJSON_Delete(db);
    return gp_cli_finish("bench", GP_EXIT_OK);
}

/* The specs to run: one (validated), or every enumerated device. */
static int bench_specs(const char *device, char (**specs)[32], size_t *n)
{
    *specs = NULL;
    *n = 0;
    if (strcmp(device, "all") != 0) {
        int32_t backend, index;
        if (gp_device_spec_parse(device, &backend, &index) != GP_OK)
            return gp_cli_usage_error("bench", "--device: %s", gp_last_error());
        *specs = calloc(1, sizeof **specs);
        if (!*specs) return gp_cli_internal_error("bench", "out of memory");
        snprintf((*specs)[0], 32, "%s", device);
        *n = 1;
        return 0;
    }
    uint32_t count = 0;
    if (gp_device_count(&count) != GP_OK || count == 0)
        return gp_cli_input_error("bench", "--device all: no device found");
    *specs = calloc(count, sizeof **specs);
    if (!*specs) return gp_cli_internal_error("bench", "out of memory");
    for (uint32_t i = 0; i < count; i++) {
        gp_device_info info;
        if (gp_device_enumerate(i, &info) != GP_OK) continue;
        snprintf((*specs)[(*n)++], 32, "%s", info.spec);
    }
    return 0;
}

static int bench_measure(const char *device, const gp_bench_options *opt, bool json,
                         const char *plot)
{
    char(*specs)[32] = NULL;
    size_t n = 0;
    int rc = bench_specs(device, &specs, &n);
    if (rc) return rc;
    gp_bench_run *runs = calloc(n, sizeof *runs);
    if (!runs) {
        free(specs);
        return gp_cli_internal_error("bench", "out of memory");
    }
    int failures = 0, errors = 0;
    size_t done = 0;
    for (size_t i = 0; i < n; i++) {
        gp_device *dev = NULL;
        if (gp_device_open(specs[i], &dev) != GP_OK) {
            rc = gp_cli_input_error("bench", "cannot open device '%s': %s", specs[i],
                                    gp_last_error());
            goto out;
        }
        char err[512];
        int r = gp_bench_device_run(dev, opt, &runs[done], err, sizeof err);
        gp_device_release(dev);
        if (r != 0) {
            rc = gp_cli_internal_error("bench", "%s: %s", specs[i], err);
            goto out;
        }
        failures += runs[done].failures;
        errors += runs[done].errors;
        if (!json) {
            if (done) printf("\n");
            gp_bench_print_human(stdout, &runs[done]);
        }
        done++;
    }
    if (json) {
        cJSON *doc = NULL;
        if (n == 1 && strcmp(device, "all") != 0) {
            doc = gp_bench_to_json(&runs[0]);
        } else {
            doc = cJSON_CreateArray();
            for (size_t i = 0; i < done; i++)
                cJSON_AddItemToArray(doc, gp_bench_to_json(&runs[i]));
        }
        int pr = gp_json_print(stdout, doc);
        cJSON_Delete(doc);
        if (pr != 0) {
            rc = gp_cli_internal_error("bench", "cannot render JSON");
            goto out;
        }
    }
    if (plot) {
        char err[600];
        if (gp_bench_plot_write(plot, runs, done, err, sizeof err) != 0) {
            rc = gp_cli_input_error("bench", "--plot %s", err);
            goto out;
        }
    }
    if (failures) {
        fprintf(stderr, "gpuport bench: %d result(s) wrong (named above)\n", failures);
        rc = GP_EXIT_FAIL;
    } else if (errors) {
        fprintf(stderr, "gpuport bench: %d benchmark(s) could not run (named above)\n", errors);
        rc = GP_EXIT_INTERNAL;
    } else {
        rc = GP_EXIT_OK;
    }
    rc = gp_cli_finish("bench", rc);
out:
    for (size_t i = 0; i < n; i++)
        gp_bench_run_free(&runs[i]);
    free(runs);
    free(specs);
    return rc;
}

static int bench_run(int argc, char **argv)
{
    static const struct option opts[] = {
        {"device", required_argument, NULL, 'd'}, {"only", required_argument, NULL, 'o'},
        {"quick", no_argument, NULL, 'q'},        {"json", no_argument, NULL, 'j'},
        {"plot", required_argument, NULL, 'p'},   {"peak", required_argument, NULL, 'k'},
        {"compare", no_argument, NULL, 'c'},      {"help", no_argument, NULL, 'h'},
        {"version", no_argument, NULL, 'V'},      {NULL, 0, NULL, 0}};
    gp_bench_options opt;
    memset(&opt, 0, sizeof opt);
    const char *device = "auto", *plot = NULL;
    bool json = false, compare = false;
    int c;
    gp_cli_getopt_reset();
    while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
        switch (c) {
        case 'd':
            device = optarg;
            break;
        case 'o':
            if (bench_parse_only(optarg, &opt.only)) return GP_EXIT_USAGE;
            break;
        case 'q':
            opt.quick = true;
            break;
        case 'j':
            json = true;
            break;
        case 'p':
            plot = optarg;
            break;
        case 'c':
            compare = true;
            break;
        case 'k': {
            gp_bench_peak_override o;
            char err[256];
            if (gp_bench_peak_parse(optarg, &o, err, sizeof err) != 0)
                return gp_cli_usage_error("bench", "%s", err);
            size_t need = o.kind == GP_PEAK_COUNT ? 2 : 1;
            if (opt.num_peaks + need > GP_BENCH_MAX_PEAKS)
                return gp_cli_usage_error("bench", "too many --peak options");
            if (o.kind == GP_PEAK_COUNT) {
                o.kind = GP_PEAK_H2D;
                opt.peaks[opt.num_peaks++] = o;
                o.kind = GP_PEAK_D2H;
            }
            opt.peaks[opt.num_peaks++] = o;
            break;
        }
        case 'h':
            bench_usage();
            return gp_cli_finish("bench", GP_EXIT_OK);
        case 'V':
            return gp_cli_print_version();
        default:
            return gp_cli_bad_option("bench", argv, "h");
        }
    }
    if (compare) {
        if (argc - optind != 2)
            return gp_cli_usage_error("bench", "--compare needs two files: A.json B.json");
        if (json || plot || opt.only || opt.quick || opt.num_peaks)
            return gp_cli_usage_error("bench", "--compare takes no other option");
        return bench_compare(argv[optind], argv[optind + 1]);
    }
    if (optind != argc)
        return gp_cli_usage_error("bench", "unexpected argument '%s'", argv[optind]);
    if (!opt.only) opt.only = GP_BENCH_ALL;
    if (plot) { /* refuse a plot that cannot be written before minutes of measuring */
        char dir[4096];
        snprintf(dir, sizeof dir, "%s", plot);
        char *slash = strrchr(dir, '/');
        if (slash) *slash = '\0';
        if (!gp_path_is_dir(slash ? (dir[0] ? dir : "/") : "."))
            return gp_cli_input_error("bench", "--plot %s: the folder does not exist", plot);
    }
    return bench_measure(device, &opt, json, plot);
}

const gp_command gp_cmd_bench = {"bench", "how close each device gets to its hardware's peak",
                                 bench_run};
