/* cmd_compare.c — `gpuport compare A B`: are two sets of results the same within a tolerance
 * fixed in advance? Parses the options, runs the comparison (src/compare/compare.h) and prints
 * the human report, JSON or JUnit. Exit 0 pass, 1 outside tolerance, 2 bad input. */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/cli.h"
#include "compare/compare.h"
#include "compare/report.h"
#include "util/fs.h"
#include "util/json.h"

#define CMP "compare"

/* .npz members are inflated into memory: by default at most half of the physical memory. */
static uint64_t compare_default_inflate_cap(void)
{
    long pages = sysconf(_SC_PHYS_PAGES), size = sysconf(_SC_PAGESIZE);
    if (pages <= 0 || size <= 0) return UINT64_C(4) << 30;
    return (uint64_t)pages * (uint64_t)size / 2;
}

static const char compare_usage[] =
    "usage: gpuport compare [options] A B\n"
    "\n"
    "Compares the tensors in A and B (.npy, .npz, .safetensors, .csv/.tsv, raw binary, or\n"
    "folders of them, paired by relative path; multi-tensor files pair by tensor name) and\n"
    "says whether they agree within a tolerance. An element passes when\n"
    "  |x - ref| <= atol + rtol * max(|ref|, floor),  floor = 0.01 * RMS(ref).\n"
    "\n"
    "options:\n"
    "  --reference a|b       which side is the reference (default: a)\n"
    "  --strict              torch.testing.assert_close's defaults instead of the\n"
    "                        port-acceptance defaults (no floor, no NMSE/cosine limits)\n"
    "  --atol X, --rtol X    absolute and relative tolerance for every tensor (the\n"
    "                        elementwise test is then the whole criterion: no NMSE/cosine)\n"
    "  --equal-nan           NaN in the same place on both sides counts as equal\n"
    "  --same-dtype          a pair of float tensors whose dtypes differ (f16 and f32) fails\n"
    "                        instead of being compared widened, with the narrower's tolerance\n"
    "  --tol PATTERN:K=V,..  per-tensor settings (K: atol rtol equal_nan floor nmse cosine;\n"
    "                        PATTERN is a shell glob over tensor names; repeatable)\n"
    "  --policy FILE         tolerances from a JSON policy file (see docs/compare.md)\n"
    "  --dtype T             element type of raw files (f32, bf16, i64, c64, ...); also what\n"
    "                        .npy void elements ('<V2') hold\n"
    "  --shape D,D,...       shape of raw files (default: one dimension from the size)\n"
    "  --worst K             list the K worst elements per tensor (default 10, at most 1000)\n"
    "  --threads N           worker threads (default: one per CPU)\n"
    "  --max-inflate BYTES   total size .npz members may inflate to, both files of a pair\n"
    "                        together (the limit of the run; default: half the RAM)\n"
    "  --json                print the gpuport.compare/1 JSON document instead of the report\n"
    "  --junit FILE          also write a JUnit XML report to FILE (replaced atomically;\n"
    "                        not written when an input is bad)\n"
    "  --help, --version\n"
    "\n"
    "exit status: 0 every tensor passes, 1 some tensor is outside tolerance, missing or\n"
    "mismatched in shape or dtype, 2 bad usage or an unreadable or malformed input.\n";

typedef struct compare_args {
    gp_compare_opts opts;
    gp_policy policy;
    bool json;
    const char *junit;
    const char *a, *b;
} compare_args;

static int parse_shape(const char *s, gp_source_opts *o)
{
    o->ndim = 0;
    if (*s == '\0') return 0; /* "" = a scalar */
    while (*s) {
        if (o->ndim == GP_TENSOR_MAX_DIMS || *s < '0' || *s > '9') return -1;
        char *end;
        errno = 0;
        unsigned long long v = strtoull(s, &end, 10);
        if (errno) return -1;
        o->shape[o->ndim++] = v;
        if (*end == ',')
            end++;
        else if (*end != '\0')
            return -1;
        s = end;
    }
    return 0;
}

static int parse_double(const char *s, double *v)
{
    char *end;
    errno = 0;
    *v = strtod(s, &end);
    return end != s && *end == '\0' && errno == 0 && isfinite(*v) && *v >= 0 ? 0 : -1;
}

static int parse_count(const char *s, long lo, long hi, long *v)
{
    char *end;
    errno = 0;
    *v = strtol(s, &end, 10);
    return end != s && *end == '\0' && errno == 0 && *v >= lo && *v <= hi ? 0 : -1;
}

enum {
    OPT_REFERENCE = 256,
    OPT_STRICT,
    OPT_ATOL,
    OPT_RTOL,
    OPT_EQUAL_NAN,
    OPT_TOL,
    OPT_POLICY,
    OPT_DTYPE,
    OPT_SHAPE,
    OPT_WORST,
    OPT_THREADS,
    OPT_JSON,
    OPT_JUNIT,
    OPT_VERSION,
    OPT_INFLATE,
    OPT_SAME_DTYPE
};

static int compare_option(compare_args *a, int c, const char *arg, bool *done)
{
    char err[512];
    double d;
    long n;
    switch (c) {
    case OPT_REFERENCE:
        if (strcmp(arg, "a") && strcmp(arg, "b") && strcmp(arg, "A") && strcmp(arg, "B"))
            return gp_cli_usage_error(CMP, "--reference takes a or b, not '%s'", arg);
        a->opts.reference_is_b = arg[0] == 'b' || arg[0] == 'B';
        return 0;
    case OPT_STRICT:
        a->policy.strict = true;
        return 0;
    case OPT_ATOL:
    case OPT_RTOL:
        if (parse_double(arg, &d) != 0)
            return gp_cli_usage_error(CMP, "--%s takes a non-negative number, not '%s'",
                                      c == OPT_ATOL ? "atol" : "rtol", arg);
        if (c == OPT_ATOL)
            a->policy.cli.atol = d, a->policy.cli.has_atol = true;
        else
            a->policy.cli.rtol = d, a->policy.cli.has_rtol = true;
        /* An explicit elementwise tolerance is the whole criterion, as with np.allclose: the
         * defaults' NMSE and cosine limits stop applying (--tol can set them again). */
        a->policy.cli.nmse_max = a->policy.cli.cosine_min = NAN;
        a->policy.cli.has_nmse = a->policy.cli.has_cosine = true;
        return 0;
    case OPT_EQUAL_NAN:
        a->policy.cli.equal_nan = a->policy.cli.has_equal_nan = true;
        return 0;
    case OPT_SAME_DTYPE:
        a->opts.same_dtype = true;
        return 0;
    case OPT_TOL:
        if (gp_policy_add_spec(&a->policy, arg, err, sizeof(err)) != 0)
            return gp_cli_usage_error(CMP, "--tol %s", err);
        return 0;
    case OPT_POLICY:
        if (gp_policy_load_file(&a->policy, arg, err, sizeof(err)) != 0)
            return gp_cli_input_error(CMP, "%s", err);
        return 0;
    case OPT_DTYPE:
        a->opts.source.dtype = gp_dtype_from_name(arg);
        if (a->opts.source.dtype == GP_DTYPE_INVALID)
            return gp_cli_usage_error(CMP,
                                      "unknown --dtype '%s' (bool, i8..i64, u8..u64, f16, "
                                      "bf16, f32, f64, c64, c128)",
                                      arg);
        return 0;
    case OPT_SHAPE:
        if (parse_shape(arg, &a->opts.source) != 0)
            return gp_cli_usage_error(CMP, "--shape takes sizes like 3,4 (not '%s')", arg);
        return 0;
    case OPT_WORST:
        if (parse_count(arg, 0, 1000, &n) != 0)
            return gp_cli_usage_error(CMP, "--worst takes 0..1000, not '%s'", arg);
        a->opts.worst_k = (size_t)n;
        return 0;
    case OPT_THREADS:
        if (parse_count(arg, 1, 256, &n) != 0)
            return gp_cli_usage_error(CMP, "--threads takes 1..256, not '%s'", arg);
        a->opts.threads = (int)n;
        return 0;
    case OPT_INFLATE:
        if (parse_double(arg, &d) != 0 || d > 1e18)
            return gp_cli_usage_error(CMP, "--max-inflate takes a byte count, not '%s'", arg);
        a->opts.source.inflate_cap = (uint64_t)d;
        return 0;
    case OPT_JSON:
        a->json = true;
        return 0;
    case OPT_JUNIT:
        a->junit = arg;
        return 0;
    case 'h':
        fputs(compare_usage, stdout);
        *done = true;
        return gp_cli_finish(CMP, GP_EXIT_OK);
    case OPT_VERSION:
        *done = true;
        return gp_cli_print_version();
    default:
        return -1; /* named by the caller, which has argv */
    }
}

static int compare_parse(compare_args *a, int argc, char **argv, bool *done)
{
    static const struct option opts[] = {{"reference", required_argument, NULL, OPT_REFERENCE},
                                         {"strict", no_argument, NULL, OPT_STRICT},
                                         {"atol", required_argument, NULL, OPT_ATOL},
                                         {"rtol", required_argument, NULL, OPT_RTOL},
                                         {"equal-nan", no_argument, NULL, OPT_EQUAL_NAN},
                                         {"same-dtype", no_argument, NULL, OPT_SAME_DTYPE},
                                         {"tol", required_argument, NULL, OPT_TOL},
                                         {"policy", required_argument, NULL, OPT_POLICY},
                                         {"dtype", required_argument, NULL, OPT_DTYPE},
                                         {"shape", required_argument, NULL, OPT_SHAPE},
                                         {"worst", required_argument, NULL, OPT_WORST},
                                         {"threads", required_argument, NULL, OPT_THREADS},
                                         {"max-inflate", required_argument, NULL, OPT_INFLATE},
                                         {"json", no_argument, NULL, OPT_JSON},
                                         {"junit", required_argument, NULL, OPT_JUNIT},
                                         {"help", no_argument, NULL, 'h'},
                                         {"version", no_argument, NULL, OPT_VERSION},
                                         {NULL, 0, NULL, 0}};
    int c;
    gp_cli_getopt_reset();
    while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
        int rc = compare_option(a, c, optarg, done);
        if (rc < 0) return gp_cli_bad_option(CMP, argv, "h");
        if (rc != 0 || *done) return rc;
    }
    if (argc - optind != 2)
        return gp_cli_usage_error(CMP, "needs two inputs, A and B (got %d)", argc - optind);
    if (a->opts.source.ndim >= 0 && a->opts.source.dtype == GP_DTYPE_INVALID)
        return gp_cli_usage_error(CMP, "--shape needs --dtype");
    a->a = argv[optind];
    a->b = argv[optind + 1];
    return 0;
}

static int compare_write_junit(const compare_args *a, const gp_compare_result *r)
{
    gp_strbuf sb = GP_STRBUF_INIT;
    gp_compare_report_junit(&sb, r);
    char err[512];
    int rc = 0;
    if (sb.failed)
        rc = gp_cli_internal_error(CMP, "out of memory");
    else if (gp_write_file_atomic(a->junit, sb.data, sb.len, err, sizeof(err)) != 0)
        rc = gp_cli_input_error(CMP, "cannot write the JUnit report: %s", err);
    gp_strbuf_free(&sb);
    return rc;
}

static int compare_output(const compare_args *a, const gp_compare_result *r)
{
    if (a->json) {
        cJSON *j = gp_compare_report_json(r);
        int rc = j ? gp_json_print(stdout, j) : -1;
        cJSON_Delete(j);
        if (rc != 0) return gp_cli_internal_error(CMP, "cannot render JSON");
    } else {
        const char *ra = a->opts.reference_is_b ? "B" : "A",
                   *ob = a->opts.reference_is_b ? "A" : "B";
        gp_compare_report_human(stdout, r, ra, ob);
    }
    if (a->junit) {
        int rc = compare_write_junit(a, r);
        if (rc != 0) return rc;
    }
    return gp_cli_finish(CMP, r->pass ? GP_EXIT_OK : GP_EXIT_FAIL);
}

static int compare_run(int argc, char **argv)
{
    compare_args a;
    memset(&a, 0, sizeof(a));
    gp_policy_init(&a.policy);
    a.opts.policy = &a.policy;
    a.opts.worst_k = 10;
    a.opts.source.ndim = -1;
    a.opts.source.inflate_cap = compare_default_inflate_cap();
    bool done = false;
    int rc = compare_parse(&a, argc, argv, &done);
    if (rc != 0 || done) {
        gp_policy_free(&a.policy);
        return rc;
    }
    gp_compare_result r;
    char err[1024];
    if (gp_compare_run(a.a, a.b, &a.opts, &r, err, sizeof(err)) != 0)
        rc = gp_cli_input_error(CMP, "%s", err);
    else
        rc = compare_output(&a, &r);
    gp_compare_result_free(&r);
    gp_policy_free(&a.policy);
    return rc;
}

const gp_command gp_cmd_compare = {"compare",
                                   "compare tensors (npy, npz, safetensors, csv, raw) "
                                   "within a tolerance",
                                   compare_run};
