/* cmd_run.c — `gpuport run`: one kernel of a .gpk file on any device, from the command line, with
 * no host code: each parameter given by name (a buffer from an .npy or made fresh, a value, the
 * dynamic shared block), optionally checked on the CPU, buffers written back as .npy. Everything
 * the user gives is checked against the kernel's signature before anything runs; outputs are
 * written only after the launch ran. */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <math.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <gpuport/gpuport.h>
#include <gpuport/kernel.h> /* the CPU target's half conversion */

#include "cli/cli.h"
#include "formats/npy.h"
#include "translate/translate.h"
#include "util/fs.h"
#include "util/json.h"
#include "util/stdout_capture.h"
#include "util/strbuf.h"
#include "util/sys.h"

#ifdef _WIN32
#include <io.h>
#define run_write_fd _write
#else
#include <unistd.h>
#define run_write_fd write
#endif

static const char run_usage[] =
    "usage: gpuport run FILE.gpk|FILE.cu KERNEL --global X[,Y[,Z]] [--group X[,Y[,Z]]]\n"
    "                   [--device SPEC] [--check[=memcheck,racecheck,synccheck,initcheck]]\n"
    "                   [-D NAME=VALUE]... [-o PARAM=OUT.npy]... [--force] [--json]\n"
    "                   [--trace FILE.json]\n"
    "                   [--trace-summary] PARAM=VALUE...\n"
    "\n"
    "Runs KERNEL of FILE.gpk (or of FILE.cu, translated in memory as gpuport translate does)\n"
    "once on a device, with every parameter given by its name:\n"
    "  x=in.npy          a buffer holding the .npy's data (its dtype must be the parameter's "
    "type)\n"
    "  y=zeros:N         a fresh buffer of N elements of the parameter's type, all 0\n"
    "  y=ones:N          ... all 1;  y=fill:V:N  ... all V;  y=uninit:N  ... never written\n"
    "  y=null            no buffer (gp_arg_null(): the kernel tests it, or checking reports it)\n"
    "  n=1000            a value (GP_VAL), checked against the parameter's type\n"
    "  buf=shared:BYTES  the dynamic shared block (GP_DYN_SHARED) of each group\n"
    "\n"
    "  --global X[,Y[,Z]]  work-items per dimension (rounded up to whole groups)\n"
    "  --group X[,Y[,Z]]   work-items per group (default: gpuport chooses)\n"
    "  --device SPEC       auto (default), cpu, opencl[:N], cuda[:N], metal[:N]; auto picks the\n"
    "                      best device that can run this kernel and says why it skipped others\n"
    "  --check[=LIST]      run it checked on the CPU (default: all four checks, docs/check.md);\n"
    "                      add `uniform` to report work-items storing a word's own value too\n"
    "  -D NAME=VALUE       a build define\n"
    "  -o PARAM=OUT.npy    write buffer PARAM to OUT.npy after the run (--force replaces a file)\n"
    "  --json              print the result as JSON (schema gpuport.run/1)\n"
    "  --trace FILE.json   write a timeline of the build, copies, launch and waits (Chrome\n"
    "                      Trace Event Format: Perfetto, chrome://tracing; docs/debugging.md)\n"
    "  --trace-summary     print the timeline's summary on stderr\n"
    "  -h, --help          this help;  --version  the version\n"
    "\n"
    "Check reports print one per line as FILE:LINE:COL: CHECK: what (work-item ...).\n"
    "Unchecked, a guard zone after each buffer catches writes past its end (exit 1).\n"
    "Exit codes: 0 ran, 1 it ran and checking made reports or it wrote past a buffer, 2 bad\n"
    "input or usage (unknown or missing parameter, dtype mismatch, bad size, a build error),\n"
    "3 internal error, 128+N the kernel died of signal N (130: interrupted).\n";

#define RUN_MAX_PARAMS 24 /* GP_KERNEL's limit */
#define RUN_MAX_DEFS   64

/* ---- the parameter types gpuport run can build -------------------------------------------- */
typedef struct run_type {
    const char *name;
    gp_dtype dtype; /* of one lane */
    uint32_t lanes; /* vectors: 2 or 4 */
} run_type;

static const run_type run_types[] = {
    {"float", GP_DTYPE_F32, 1},
    {"double", GP_DTYPE_F64, 1},
    {"gp_half", GP_DTYPE_F16, 1},
    {"int8_t", GP_DTYPE_I8, 1},
    {"char", GP_DTYPE_I8, 1},
    {"signed char", GP_DTYPE_I8, 1},
    {"uint8_t", GP_DTYPE_U8, 1},
    {"unsigned char", GP_DTYPE_U8, 1},
    {"uchar", GP_DTYPE_U8, 1},
    {"int16_t", GP_DTYPE_I16, 1},
    {"short", GP_DTYPE_I16, 1},
    {"uint16_t", GP_DTYPE_U16, 1},
    {"unsigned short", GP_DTYPE_U16, 1},
    {"ushort", GP_DTYPE_U16, 1},
    {"int", GP_DTYPE_I32, 1},
    {"int32_t", GP_DTYPE_I32, 1},
    {"unsigned", GP_DTYPE_U32, 1},
    {"unsigned int", GP_DTYPE_U32, 1},
    {"uint", GP_DTYPE_U32, 1},
    {"uint32_t", GP_DTYPE_U32, 1},
    {"int64_t", GP_DTYPE_I64, 1},
    {"long long", GP_DTYPE_I64, 1},
    {"uint64_t", GP_DTYPE_U64, 1},
    {"unsigned long long", GP_DTYPE_U64, 1},
    {"ulong", GP_DTYPE_U64, 1},
    {"gp_float2", GP_DTYPE_F32, 2},
    {"gp_float4", GP_DTYPE_F32, 4},
    {"gp_int2", GP_DTYPE_I32, 2},
    {"gp_int4", GP_DTYPE_I32, 4},
    {"gp_uint2", GP_DTYPE_U32, 2},
    {"gp_uint4", GP_DTYPE_U32, 4},
    {"gp_char2", GP_DTYPE_I8, 2},
    {"gp_char4", GP_DTYPE_I8, 4},
    {"gp_uchar2", GP_DTYPE_U8, 2},
    {"gp_uchar4", GP_DTYPE_U8, 4},
    {"gp_short2", GP_DTYPE_I16, 2},
    {"gp_short4", GP_DTYPE_I16, 4},
    {"gp_ushort2", GP_DTYPE_U16, 2},
    {"gp_ushort4", GP_DTYPE_U16, 4},
    {"gp_long2", GP_DTYPE_I64, 2},
    {"gp_long4", GP_DTYPE_I64, 4},
    {"gp_ulong2", GP_DTYPE_U64, 2},
    {"gp_ulong4", GP_DTYPE_U64, 4},
    {"gp_double2", GP_DTYPE_F64, 2},
    {"gp_double4", GP_DTYPE_F64, 4},
    {"gp_half2", GP_DTYPE_F16, 2},
    {"gp_packed_float3", GP_DTYPE_F32, 3}, /* three scalars, as CUDA's float3 in memory */
    {"gp_packed_int3", GP_DTYPE_I32, 3},
    {"gp_packed_uint3", GP_DTYPE_U32, 3},
    {"gp_packed_uchar3", GP_DTYPE_U8, 3},
};

/* The type named `t` (a build define naming a type is followed: -DREAL=float). */
static const run_type *run_type_of(const char *t, const char *const *defs, int ndefs)
{
    char name[128];
    snprintf(name, sizeof name, "%s", t);
    for (int hop = 0; hop < 8; hop++) {
        const char *n = name;
        if (!strncmp(n, "const ", 6)) n += 6;
        for (size_t i = 0; i < sizeof run_types / sizeof *run_types; i++)
            if (!strcmp(n, run_types[i].name)) return &run_types[i];
        bool found = false;
        for (int d = 0; d < ndefs && !found; d++) {
            size_t l = strlen(n);
            if (!strncmp(defs[d], n, l) && defs[d][l] == '=') {
                char next[128];
                snprintf(next, sizeof next, "%s", defs[d] + l + 1);
                snprintf(name, sizeof name, "%s", next);
                found = true;
            }
        }
        if (!found) return NULL;
    }
    return NULL;
}

/* One scalar of dtype `t` from text into out (gp_dtype_size(t) bytes); false with the reason. */
static bool run_parse_scalar(const char *text, gp_dtype t, void *out, char *why, size_t cap)
{
    if (!*text) {
        snprintf(why, cap, "an empty value");
        return false;
    }
    char *end = NULL;
    errno = 0;
    if (t == GP_DTYPE_F32 || t == GP_DTYPE_F64 || t == GP_DTYPE_F16) {
        double v = strtod(text, &end);
        if (*end || end == text) {
            snprintf(why, cap, "'%s' is not a number", text);
            return false;
        }
        if (t == GP_DTYPE_F64) {
            memcpy(out, &v, 8);
            return true;
        }
        if (isfinite(v) && fabs(v) > (t == GP_DTYPE_F16 ? 65504.0 : 3.4028234663852886e38)) {
            snprintf(why, cap, "%s is outside the range of %s", text,
                     t == GP_DTYPE_F16 ? "half" : "float");
            return false;
        }
        float f = (float)v;
        if (t == GP_DTYPE_F32) {
            memcpy(out, &f, 4);
        } else {
            uint16_t h = gp_float_to_half(f); /* the dialect's own rounding */
            memcpy(out, &h, 2);
        }
        return true;
    }
    bool is_signed = gp_dtype_is_signed_int(t);
    size_t size = gp_dtype_size(t);
    if (is_signed) {
        long long v = strtoll(text, &end, 0);
        long long hi = size == 8 ? INT64_MAX : (long long)((1ull << (8 * size - 1)) - 1);
        long long lo = -hi - 1;
        if (*end || end == text || errno == ERANGE || v < lo || v > hi) {
            snprintf(why, cap, "'%s' is not an integer of %s (%lld..%lld)", text, gp_dtype_name(t),
                     lo, hi);
            return false;
        }
        memcpy(out, &v, size); /* little-endian: the low bytes */
        return true;
    }
    if (text[0] == '-') {
        snprintf(why, cap, "'%s' is negative, and %s is unsigned", text, gp_dtype_name(t));
        return false;
    }
    unsigned long long v = strtoull(text, &end, 0);
    unsigned long long hi = size == 8 ? UINT64_MAX : (1ull << (8 * size)) - 1;
    if (*end || end == text || errno == ERANGE || v > hi) {
        snprintf(why, cap, "'%s' is not an integer of %s (0..%llu)", text, gp_dtype_name(t), hi);
        return false;
    }
    memcpy(out, &v, size);
    return true;
}

/* A value of type `t` (vectors: one number for every lane, or one per lane separated by commas). */
static bool run_parse_value(const char *text, const run_type *t, void *out, char *why, size_t cap)
{
    size_t es = gp_dtype_size(t->dtype);
    if (t->lanes == 1) return run_parse_scalar(text, t->dtype, out, why, cap);
    char buf[256];
    snprintf(buf, sizeof buf, "%s", text);
    uint32_t n = 0;
    char *save = NULL;
    for (char *tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
        if (n == t->lanes) {
            snprintf(why, cap, "'%s' has more than %u components", text, t->lanes);
            return false;
        }
        if (!run_parse_scalar(tok, t->dtype, (char *)out + n * es, why, cap)) return false;
        n++;
    }
    if (n == 1) {
        for (uint32_t l = 1; l < t->lanes; l++)
            memcpy((char *)out + l * es, out, es);
        return true;
    }
    if (n != t->lanes) {
        snprintf(why, cap, "'%s' needs 1 or %u components", text, t->lanes);
        return false;
    }
    return true;
}

/* A count: a positive decimal integer of at most `max`. */
static bool run_parse_count(const char *text, uint64_t max, uint64_t *out, char *why, size_t cap)
{
    if (!*text || text[0] < '0' || text[0] > '9') {
        snprintf(why, cap, "'%s' is not a positive count", text);
        return false;
    }
    char *end;
    errno = 0;
    unsigned long long v = strtoull(text, &end, 10);
    if (*end || errno == ERANGE || v == 0 || v > max) {
        snprintf(why, cap, "'%s' is not a count from 1 to %llu", text, (unsigned long long)max);
        return false;
    }
    *out = v;
    return true;
}

/* "X[,Y[,Z]]": 1 to 3 sizes of 1..2^31-1. */
static bool run_parse_dims(const char *text, size_t out[3], uint32_t *dims, char *why, size_t cap)
{
    char buf[128];
    if (strlen(text) >= sizeof buf) {
        snprintf(why, cap, "'%.40s...' is too long", text);
        return false;
    }
    snprintf(buf, sizeof buf, "%s", text);
    uint32_t n = 0;
    char *p = buf;
    for (;;) {
        char *comma = strchr(p, ',');
        if (comma) *comma = '\0';
        uint64_t v;
        if (n == 3 || !run_parse_count(p, 0x7fffffffu, &v, why, cap)) {
            if (n == 3) snprintf(why, cap, "'%s' has more than 3 dimensions", text);
            return false;
        }
        out[n++] = (size_t)v;
        if (!comma) break;
        p = comma + 1;
    }
    *dims = n;
    return true;
}

/* ---- what each parameter gets --------------------------------------------------------------- */
enum {
    RUN_NONE,
    RUN_NPY,
    RUN_ZEROS,
    RUN_ONES,
    RUN_FILL,
    RUN_UNINIT,
    RUN_VALUE,
    RUN_SHARED,
    RUN_NULL
};

typedef struct run_spec {
    int kind;
    const char *text;        /* the VALUE as given */
    const char *path;        /* NPY */
    uint64_t count;          /* elements (fresh buffers), bytes (SHARED) */
    unsigned char value[64]; /* VALUE, FILL: the bytes of one element */
} run_spec;

/* Reads a PARAM=VALUE's VALUE for a parameter of `kind` and type t (t NULL: not one gpuport run
 * can build). */
static bool run_parse_spec(const char *text, gp_arg_kind kind, const run_type *t,
                           const char *type_name, uint64_t max_bytes, run_spec *s, char *why,
                           size_t cap)
{
    memset(s, 0, sizeof *s);
    s->text = text;
    if (kind == GP_ARG_DYN_SHARED) {
        if (strncmp(text, "shared:", 7) != 0) {
            snprintf(why, cap, "is the dynamic shared block: give it as shared:BYTES, not '%s'",
                     text);
            return false;
        }
        s->kind = RUN_SHARED;
        return run_parse_count(text + 7, max_bytes, &s->count, why, cap);
    }
    if (!t) {
        snprintf(why, cap,
                 "has type '%s', which gpuport run cannot make from the command line "
                 "(it knows the dialect's scalar and vector types)",
                 type_name);
        return false;
    }
    size_t es = gp_dtype_size(t->dtype) * t->lanes;
    if (kind == GP_ARG_VALUE) {
        s->kind = RUN_VALUE;
        return run_parse_value(text, t, s->value, why, cap);
    }
    static const struct {
        const char *prefix;
        int kind;
    } fresh[] = {{"zeros:", RUN_ZEROS}, {"ones:", RUN_ONES}, {"uninit:", RUN_UNINIT}};
    uint64_t max_count = max_bytes / es;
    for (size_t i = 0; i < 3; i++) {
        size_t pl = strlen(fresh[i].prefix);
        if (strncmp(text, fresh[i].prefix, pl) == 0) {
            s->kind = fresh[i].kind;
            if (s->kind == RUN_ONES) {
                if (!run_parse_value("1", t, s->value, why, cap)) return false;
            }
            return run_parse_count(text + pl, max_count, &s->count, why, cap);
        }
    }
    if (strncmp(text, "fill:", 5) == 0) {
        const char *last = strrchr(text + 5, ':');
        if (!last) {
            snprintf(why, cap, "'%s': write fill:VALUE:COUNT", text);
            return false;
        }
        char v[128];
        size_t vl = (size_t)(last - (text + 5));
        if (vl >= sizeof v) {
            snprintf(why, cap, "'%.40s...': the fill value is too long", text);
            return false;
        }
        memcpy(v, text + 5, vl);
        v[vl] = '\0';
        s->kind = RUN_FILL;
        if (!run_parse_value(v, t, s->value, why, cap)) return false;
        return run_parse_count(last + 1, max_count, &s->count, why, cap);
    }
    if (strcmp(text, "null") == 0) {
        s->kind = RUN_NULL;
        return true;
    }
    if (strncmp(text, "shared:", 7) == 0) {
        snprintf(why, cap, "is a buffer, not the dynamic shared block ('%s')", text);
        return false;
    }
    s->kind = RUN_NPY;
    s->path = text;
    return true;
}

/* ---- .npy ------------------------------------------------------------------------------------ */
static const char *run_descr(gp_dtype t)
{
    switch (t) {
    case GP_DTYPE_F32:
        return "<f4";
    case GP_DTYPE_F64:
        return "<f8";
    case GP_DTYPE_F16:
        return "<f2";
    case GP_DTYPE_I8:
        return "|i1";
    case GP_DTYPE_U8:
        return "|u1";
    case GP_DTYPE_I16:
        return "<i2";
    case GP_DTYPE_U16:
        return "<u2";
    case GP_DTYPE_I32:
        return "<i4";
    case GP_DTYPE_U32:
        return "<u4";
    case GP_DTYPE_I64:
        return "<i8";
    case GP_DTYPE_U64:
        return "<u8";
    default:
        return "|V1";
    }
}

/* The bytes of an .npy (version 1.0) holding `data` with `shape`. */
static char *run_npy_bytes(gp_dtype t, const uint64_t *shape, int ndim, const void *data,
                           size_t nbytes, size_t *len)
{
    char dict[512];
    int o = snprintf(dict, sizeof dict, "{'descr': '%s', 'fortran_order': False, 'shape': (",
                     run_descr(t));
    for (int i = 0; i < ndim && o < (int)sizeof dict - 40; i++)
        o += snprintf(dict + o, sizeof dict - (size_t)o, "%" PRIu64 "%s", shape[i],
                      ndim == 1 || i + 1 < ndim ? ", " : "");
    if (ndim == 1) o -= 1; /* "(N,)" */
    o += snprintf(dict + o, sizeof dict - (size_t)o, "), }");
    size_t head = 10 + (size_t)o + 1, padded = (head + 63) / 64 * 64;
    char *b = malloc(padded + nbytes);
    if (!b) return NULL;
    memcpy(b, "\x93NUMPY\x01\x00", 8);
    uint16_t hl = (uint16_t)(padded - 10);
    b[8] = (char)(hl & 0xff);
    b[9] = (char)(hl >> 8);
    memcpy(b + 10, dict, (size_t)o);
    memset(b + 10 + o, ' ', padded - 10 - (size_t)o - 1);
    b[padded - 1] = '\n';
    memcpy(b + padded, data, nbytes);
    *len = padded + nbytes;
    return b;
}

/* ---- the run ------------------------------------------------------------------------------- */
typedef struct run_param {
    gp_arg_info info;
    const run_type *type;
    run_spec spec;
    bool given;
    gp_buffer *buffer;
    size_t bytes;
    uint64_t shape[GP_TENSOR_MAX_DIMS];
    int ndim;
    const char *out_path; /* -o */
    size_t guard;         /* bytes of canary after the buffer's end (unchecked runs), or 0 */
} run_param;

typedef struct run_state {
    const char *file, *kernel_name, *device_spec;
    bool json, force;
    const char *trace_path; /* --trace */
    bool trace_summary;     /* --trace-summary */
    uint32_t checks;
    bool check_given;
    const char *defs[RUN_MAX_DEFS];
    int ndefs;
    const char *outs[RUN_MAX_PARAMS * 2];
    int nouts;
    const char *assigns[RUN_MAX_PARAMS * 2];
    int nassigns;
    size_t global[3], group[3];
    uint32_t gdims, ldims;
    bool have_group;
    run_param params[RUN_MAX_PARAMS];
    uint32_t nparams;
    gp_device *dev;
    gp_program *prog;
    gp_kernel *k;
    gp_device_info info;
    char *src;
    size_t src_len;
    size_t used_group[3]; /* the group the launch used (given, or gpuport's choice) */
    uint32_t overruns;    /* buffers whose guard zone the kernel wrote */
} run_state;

static void run_free(run_state *s)
{
    for (uint32_t i = 0; i < s->nparams; i++)
        gp_buffer_release(s->params[i].buffer);
    gp_kernel_release(s->k);
    gp_program_release(s->prog);
    gp_device_release(s->dev);
    free(s->src);
}

static int run_input_error_status(gp_status st)
{
    return st == GP_ERR_INTERNAL || st == GP_ERR_OUT_OF_MEMORY ? GP_EXIT_INTERNAL : GP_EXIT_USAGE;
}

/* Binds PARAM=VALUE assignments and -o outputs to the kernel's parameters. */
static int run_bind(run_state *s)
{
    uint32_t n = 0;
    gp_kernel_arg_count(s->k, &n);
    s->nparams = n;
    for (uint32_t i = 0; i < n; i++) {
        gp_kernel_arg_info(s->k, i, &s->params[i].info);
        s->params[i].type = run_type_of(s->params[i].info.type_name, s->defs, s->ndefs);
    }
    char names[1024] = "";
    for (uint32_t i = 0; i < n; i++) {
        size_t l = strlen(names);
        snprintf(names + l, sizeof names - l, "%s%s", i ? ", " : "", s->params[i].info.name);
    }
    for (int a = 0; a < s->nassigns; a++) {
        const char *eq = strchr(s->assigns[a], '=');
        size_t nl = (size_t)(eq - s->assigns[a]);
        run_param *p = NULL;
        for (uint32_t i = 0; i < n; i++)
            if (strlen(s->params[i].info.name) == nl &&
                !strncmp(s->params[i].info.name, s->assigns[a], nl))
                p = &s->params[i];
        if (!p)
            return gp_cli_usage_error("run",
                                      "%.*s: kernel '%s' has no such parameter (it takes: %s)",
                                      (int)nl, s->assigns[a], s->kernel_name, n ? names : "none");
        if (p->given) return gp_cli_usage_error("run", "%s: given twice", p->info.name);
        p->given = true;
        char why[300];
        uint64_t max = s->info.max_buffer_size ? s->info.max_buffer_size : UINT64_MAX;
        if (p->info.kind == GP_ARG_DYN_SHARED) max = s->info.max_shared_memory;
        if (!run_parse_spec(eq + 1, (gp_arg_kind)p->info.kind, p->type, p->info.type_name, max,
                            &p->spec, why, sizeof why))
            return gp_cli_usage_error("run", "%s (%s %s): %s", p->info.name, p->info.type_name,
                                      p->info.kind == GP_ARG_VALUE ? "value" : "parameter", why);
    }
    for (uint32_t i = 0; i < n; i++)
        if (!s->params[i].given) {
            char missing[1024] = "";
            for (uint32_t j = 0; j < n; j++) {
                if (s->params[j].given) continue;
                size_t l = strlen(missing);
                snprintf(missing + l, sizeof missing - l, "%s%s", l ? ", " : "",
                         s->params[j].info.name);
            }
            return gp_cli_usage_error("run", "kernel '%s' needs a value for: %s (as NAME=VALUE)",
                                      s->kernel_name, missing);
        }
    for (int o = 0; o < s->nouts; o++) {
        const char *eq = strchr(s->outs[o], '=');
        if (!eq || eq == s->outs[o] || !eq[1])
            return gp_cli_usage_error("run", "-o %s: write -o PARAM=OUT.npy", s->outs[o]);
        size_t nl = (size_t)(eq - s->outs[o]);
        run_param *p = NULL;
        for (uint32_t i = 0; i < n; i++)
            if (strlen(s->params[i].info.name) == nl &&
                !strncmp(s->params[i].info.name, s->outs[o], nl))
                p = &s->params[i];
        if (!p)
            return gp_cli_usage_error("run",
                                      "-o %.*s: kernel '%s' has no such parameter (it "
                                      "takes: %s)",
                                      (int)nl, s->outs[o], s->kernel_name, names);
        if (p->info.kind != GP_ARG_BUFFER && p->info.kind != GP_ARG_CONST_BUFFER)
            return gp_cli_usage_error("run", "-o %s: '%s' is not a buffer", s->outs[o],
                                      p->info.name);
        if (p->spec.kind == RUN_NULL)
            return gp_cli_usage_error("run", "-o %s: '%s' is null (no buffer to write)", s->outs[o],
                                      p->info.name);
        if (!s->force && gp_output_taken(eq + 1))
            return gp_cli_input_error("run", "%s: already exists; use --force to replace it",
                                      eq + 1);
        p->out_path = eq + 1;
    }
    return -1;
}

/* ---- guard zones, the grid's rounding, a kernel's crash -------------------------------------
 * An unchecked run cannot see a kernel write past a buffer, and on the CPU such a write lands in
 * the allocator's records (a "double free or corruption" abort later). So each buffer gets a zone
 * of canary bytes after its end, compared after the launch: a changed byte names the buffer and
 * how far past its end the kernel wrote. A checked run needs none (memcheck sees every access). */
#define RUN_GUARD_BYTES ((size_t)64 << 10)
static const unsigned char run_canary[8] = {0xd3, 0x5a, 0xa5, 0x3c, 0xc3, 0x96, 0x69, 0x7e};

/* 64 KiB, or more where the grid's rounding adds more work-items than that many elements (an
 * element for each extra work-item, and a row of them), up to 64 MiB. */
static size_t run_guard_size(const run_state *s, size_t bytes, size_t es)
{
    uint32_t dc = 0;
    gp_device_get_checks(s->dev, &dc);
    if (s->checks || dc) return 0;
    size_t g[3] = {1, 1, 1};
    uint64_t ran = 1, asked = 1;
    if (s->have_group)
        memcpy(g, s->group, s->gdims * sizeof *g);
    else if (gp_kernel_auto_group(s->k, s->gdims, s->global, g) != GP_OK)
        g[0] = g[1] = g[2] = 1;
    for (uint32_t d = 0; d < s->gdims; d++) {
        ran *= (s->global[d] + g[d] - 1) / g[d] * g[d];
        asked *= s->global[d];
    }
    uint64_t want = (ran - asked + (ran / (asked ? asked : 1)) * s->global[0] + 64) * es;
    size_t guard = RUN_GUARD_BYTES;
    if (want > guard) guard = want > ((uint64_t)64 << 20) ? (size_t)64 << 20 : (size_t)want;
    guard = (guard + 4095) / 4096 * 4096;
    if (s->info.max_buffer_size && bytes + guard > s->info.max_buffer_size) return 0;
    return guard;
}

static gp_status run_guard_fill(run_param *p)
{
    unsigned char *c = malloc(p->guard);
    if (!c) return GP_ERR_OUT_OF_MEMORY;
    for (size_t i = 0; i < p->guard; i++)
        c[i] = run_canary[i % sizeof run_canary];
    gp_status st = gp_buffer_write(p->buffer, p->bytes, c, p->guard);
    free(c);
    return st;
}

/* The changed canary bytes after buffer p: [*first, *last] past its end; false when none. */
static bool run_guard_hit(run_param *p, size_t *first, size_t *last)
{
    unsigned char *c = p->guard ? malloc(p->guard) : NULL;
    if (!c || gp_buffer_read(p->buffer, p->bytes, c, p->guard) != GP_OK) {
        free(c);
        return false;
    }
    bool hit = false;
    for (size_t i = 0; i < p->guard; i++)
        if (c[i] != run_canary[i % sizeof run_canary]) {
            if (!hit) *first = i;
            *last = i;
            hit = true;
        }
    free(c);
    return hit;
}

/* Says when the grid was rounded up to whole groups; fills s->used_group. */
static void run_note_grid(run_state *s, cJSON *j)
{
    if (s->have_group) {
        for (uint32_t d = 0; d < 3; d++)
            s->used_group[d] = d < s->gdims ? s->group[d] : 1;
    } else if (gp_kernel_auto_group(s->k, s->gdims, s->global, s->used_group) != GP_OK) {
        return;
    }
    size_t launched[3] = {1, 1, 1};
    bool rounded = false;
    char g[64] = "", l[64] = "", r[64] = "";
    for (uint32_t d = 0; d < s->gdims; d++) {
        launched[d] = (s->global[d] + s->used_group[d] - 1) / s->used_group[d] * s->used_group[d];
        rounded |= launched[d] != s->global[d];
        const char *sep = d ? "x" : "";
        snprintf(g + strlen(g), sizeof g - strlen(g), "%s%zu", sep, s->global[d]);
        snprintf(l + strlen(l), sizeof l - strlen(l), "%s%zu", sep, s->used_group[d]);
        snprintf(r + strlen(r), sizeof r - strlen(r), "%s%zu", sep, launched[d]);
    }
    if (j) {
        cJSON *a = cJSON_AddArrayToObject(j, "group_used");
        cJSON *b = cJSON_AddArrayToObject(j, "global_launched");
        for (uint32_t d = 0; d < s->gdims; d++) {
            cJSON_AddItemToArray(a, cJSON_CreateNumber((double)s->used_group[d]));
            cJSON_AddItemToArray(b, cJSON_CreateNumber((double)launched[d]));
        }
    } else if (rounded) {
        fprintf(stderr,
                "gpuport run: the grid %s was rounded up to %s work-items: whole groups of %s "
                "(%s); the kernel must skip the work-items past its size (if (i < n))\n",
                g, r, l, s->have_group ? "--group" : "chosen by gpuport; --group sets it");
    }
}

/* Compares every guard zone after the launch: each overrun is said (on stderr, or in `j`). */
static void run_check_guards(run_state *s, cJSON *j)
{
    cJSON *a = j ? cJSON_AddArrayToObject(j, "overruns") : NULL;
    for (uint32_t i = 0; i < s->nparams; i++) {
        run_param *p = &s->params[i];
        size_t first = 0, last = 0;
        if (!p->buffer || !run_guard_hit(p, &first, &last)) continue;
        s->overruns++;
        size_t es = gp_dtype_size(p->type->dtype) * p->type->lanes;
        size_t n = es ? p->bytes / es : 0, from = es ? (p->bytes + first) / es : 0,
               upto = es ? (p->bytes + last) / es : 0;
        if (a) {
            cJSON *o = cJSON_CreateObject();
            cJSON_AddStringToObject(o, "param", p->info.name);
            cJSON_AddNumberToObject(o, "elements", (double)n);
            cJSON_AddNumberToObject(o, "first_index", (double)from);
            cJSON_AddNumberToObject(o, "last_index", (double)upto);
            cJSON_AddItemToArray(a, o);
            continue;
        }
        fprintf(stderr,
                "gpuport run: kernel '%s' wrote past the end of buffer '%s' (%zu elements of %s): "
                "%s[%zu] to %s[%zu] changed; the results are not to be trusted: run it with "
                "--check to find the line (gpuport run --check ...)\n",
                s->kernel_name, p->info.name, n, p->info.type_name, p->info.name, from,
                p->info.name, upto);
    }
}

/* A kernel that crashes the process (an access to unmapped memory, the allocator's abort on the
 * records a write past a buffer damaged) or a Ctrl-C: say so, then end with 128 + the signal
 * (130 for Ctrl-C), as a shell reports it. Only write() here: the heap may be broken. */
static char run_crash_text[512], run_int_text[256];

static void run_on_signal(int sig)
{
    const char *name = sig == SIGSEGV  ? "SIGSEGV (an access to memory outside any buffer)"
                       : sig == SIGFPE ? "SIGFPE (an arithmetic fault, such as an integer division "
                                         "by zero)"
                       : sig == SIGILL ? "SIGILL"
                       : sig == SIGABRT
                           ? "SIGABRT (the allocator found its records damaged: most likely a "
                             "write past a buffer)"
                           : "a signal";
    if (sig == SIGINT) {
        (void)!run_write_fd(2, run_int_text, (unsigned)strlen(run_int_text));
        _exit(130);
    }
    (void)!run_write_fd(2, run_crash_text, (unsigned)strlen(run_crash_text));
    (void)!run_write_fd(2, name, (unsigned)strlen(name));
    static const char tail[] = "; run it with --check to find the line (gpuport run --check ...)\n";
    (void)!run_write_fd(2, tail, (unsigned)sizeof tail - 1);
    _exit(128 + sig);
}

static void run_catch_signals(const run_state *s)
{
    snprintf(run_crash_text, sizeof run_crash_text, "\ngpuport run: kernel '%s' on %s died of ",
             s->kernel_name, s->info.spec);
    snprintf(run_int_text, sizeof run_int_text,
             "\ngpuport run: interrupted while kernel '%s' ran on %s; no output was written\n",
             s->kernel_name, s->info.spec);
    signal(SIGSEGV, run_on_signal);
    signal(SIGFPE, run_on_signal);
    signal(SIGILL, run_on_signal);
    signal(SIGABRT, run_on_signal);
    signal(SIGINT, run_on_signal);
#ifdef SIGBUS
    signal(SIGBUS, run_on_signal);
#endif
}

/* Makes the buffers (reading every .npy) before anything runs. */
static int run_make_buffers(run_state *s)
{
    for (uint32_t i = 0; i < s->nparams; i++) {
        run_param *p = &s->params[i];
        if (p->info.kind != GP_ARG_BUFFER && p->info.kind != GP_ARG_CONST_BUFFER) continue;
        if (p->spec.kind == RUN_NULL) continue;
        size_t es = gp_dtype_size(p->type->dtype) * p->type->lanes;
        gp_mapped_file m = {0};
        const void *data = NULL;
        if (p->spec.kind == RUN_NPY) {
            char err[600];
            if (gp_map_file(p->spec.path, &m, err, sizeof err) != 0)
                return gp_cli_input_error("run", "%s: %s", p->info.name, err);
            gp_tensor_view v;
            if (gp_npy_parse(m.data, m.size, GP_DTYPE_INVALID, &v, err, sizeof err) != 0) {
                gp_unmap_file(&m);
                return gp_cli_input_error("run", "%s: %s: not a valid .npy: %s", p->info.name,
                                          p->spec.path, err);
            }
            const char *bad = NULL;
            char why[300];
            if (v.dtype != p->type->dtype) {
                snprintf(why, sizeof why, "its dtype is %s, the parameter is %s (%s)",
                         gp_dtype_name(v.dtype), p->info.type_name, gp_dtype_name(p->type->dtype));
                bad = why;
            } else if (v.big_endian && gp_dtype_size(v.dtype) > 1) {
                bad = "it is big-endian; write it little-endian (numpy: "
                      "a.astype(a.dtype.newbyteorder('<')))";
            } else if (v.fortran && v.ndim > 1) {
                bad =
                    "it is in Fortran order; write it in C order (numpy: np.ascontiguousarray(a))";
            } else if (v.count == 0) {
                bad = "it holds no elements";
            } else if (p->type->lanes > 1 &&
                       (v.ndim == 0 || v.shape[v.ndim - 1] != p->type->lanes)) {
                snprintf(why, sizeof why, "a %s buffer needs a last dimension of %u",
                         p->info.type_name, p->type->lanes);
                bad = why;
            } else if (s->info.max_buffer_size && v.nbytes > s->info.max_buffer_size) {
                bad = "it is larger than the device's largest buffer";
            }
            if (bad) {
                gp_unmap_file(&m);
                return gp_cli_input_error("run", "%s: %s: %s", p->info.name, p->spec.path, bad);
            }
            p->bytes = (size_t)v.nbytes;
            p->ndim = v.ndim;
            memcpy(p->shape, v.shape, sizeof v.shape);
            if (v.ndim == 0) {
                p->ndim = 1;
                p->shape[0] = 1;
            }
            data = v.data;
        } else {
            p->bytes = (size_t)(p->spec.count * es);
            p->ndim = p->type->lanes > 1 ? 2 : 1;
            p->shape[0] = p->spec.count;
            p->shape[1] = p->type->lanes;
        }
        p->guard = run_guard_size(s, p->bytes, es);
        gp_status st = gp_buffer_create(s->dev, GP_BUFFER_DEVICE, p->bytes + p->guard, &p->buffer);
        if (st == GP_OK && p->guard) st = run_guard_fill(p);
        if (st == GP_OK && data) st = gp_buffer_write(p->buffer, 0, data, p->bytes);
        if (st == GP_OK && p->spec.kind != RUN_NPY && p->spec.kind != RUN_UNINIT) {
            if (p->spec.kind == RUN_ZEROS) {
                unsigned char z = 0;
                st = gp_buffer_fill(p->buffer, 0, &z, 1, p->bytes);
            } else if (es == 1 || es == 2 || es == 4 || es == 8 || es == 16) {
                st = gp_buffer_fill(p->buffer, 0, p->spec.value, es, p->bytes);
            } else { /* a pattern a fill does not take (gp_packed_float3: 12 bytes): written */
                unsigned char *h = malloc(p->bytes ? p->bytes : 1);
                if (!h) {
                    gp_unmap_file(&m);
                    return gp_cli_input_error("run", "%s: out of host memory for %zu bytes",
                                              p->info.name, p->bytes);
                }
                for (size_t o = 0; o + es <= p->bytes; o += es)
                    memcpy(h + o, p->spec.value, es);
                st = gp_buffer_write(p->buffer, 0, h, p->bytes);
                free(h);
            }
        }
        gp_unmap_file(&m);
        if (st != GP_OK) return gp_cli_input_error("run", "%s: %s", p->info.name, gp_last_error());
    }
    return -1;
}

static cJSON *run_ids(const int32_t v[3])
{
    cJSON *a = cJSON_CreateArray();
    for (int d = 0; d < 3; d++)
        cJSON_AddItemToArray(a, cJSON_CreateNumber(v[d]));
    return a;
}

static cJSON *run_report_json(const gp_check_report *r)
{
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "check", gp_check_name(r->check));
    cJSON_AddStringToObject(o, "file", r->file);
    cJSON_AddNumberToObject(o, "line", r->line);
    cJSON_AddNumberToObject(o, "column", r->column);
    cJSON_AddStringToObject(o, "message", r->message);
    cJSON_AddNumberToObject(o, "count", (double)r->count);
    cJSON_AddStringToObject(o, "kernel", r->kernel);
    if (r->local[0] >= 0) {
        cJSON *w = cJSON_AddObjectToObject(o, "work_item");
        cJSON_AddItemToObject(w, "group", run_ids(r->group));
        cJSON_AddItemToObject(w, "local", run_ids(r->local));
    } else {
        cJSON_AddNullToObject(o, "work_item");
    }
    if (r->other_line || r->other_local[0] >= 0) {
        cJSON *w = cJSON_AddObjectToObject(o, "other");
        cJSON_AddNumberToObject(w, "line", r->other_line);
        cJSON_AddNumberToObject(w, "column", r->other_column);
        if (r->other_local[0] >= 0) {
            cJSON_AddItemToObject(w, "group", run_ids(r->other_group));
            cJSON_AddItemToObject(w, "local", run_ids(r->other_local));
        }
    } else {
        cJSON_AddNullToObject(o, "other");
    }
    return o;
}

/* "FILE:LINE:COL: CHECK: what (work-item (x,y,z) of group (x,y,z), N times)" */
/* A report of a kernel run from CUDA source, in CUDA's words: threads and blocks, not work-items
 * and groups (the ids are threadIdx and blockIdx), __syncthreads() and warps. */
static void run_cuda_words(gp_check_report *r)
{
    static const char *const words[][2] = {
        {"work-items of different groups", "threads of different blocks"},
        {"work-items", "threads"},
        {"work-item", "thread"},
        {"of group", "of block"},
        {"groups", "blocks"},
        {"the group", "the block"},
        {"gp_barrier()", "__syncthreads()"},
        {"SIMD groups", "warps"},
        {"SIMD group", "warp"},
        {"shared memory starts undefined in every group", "shared memory starts undefined in "
                                                          "every block"},
    };
    char out[sizeof r->message];
    size_t o = 0;
    for (const char *p = r->message; *p && o + 1 < sizeof out;) {
        size_t k = 0, n = sizeof words / sizeof *words;
        while (k < n && strncmp(p, words[k][0], strlen(words[k][0])))
            k++;
        if (k < n && o + strlen(words[k][1]) + 1 < sizeof out) {
            memcpy(out + o, words[k][1], strlen(words[k][1]));
            o += strlen(words[k][1]);
            p += strlen(words[k][0]);
        } else {
            out[o++] = *p++;
        }
    }
    out[o] = '\0';
    memcpy(r->message, out, o + 1);
}

static bool run_is_cuda(const char *file)
{
    size_t n = strlen(file);
    return (n > 3 && !strcmp(file + n - 3, ".cu")) || (n > 4 && !strcmp(file + n - 4, ".cuh"));
}

/* A .cu file: translated in memory to the dialect (with #line, so that reports and compile errors
 * name the .cu file's lines); a kernel translate refuses is refused with its reasons (the other
 * kernels of the file do not matter). */
static int run_translate(const char *file, const char *kernel, char **src, size_t *len)
{
    gp_translate_options to = {0};
    to.simd_width = 32;
    to.line_directives = true;
    to.checked_run = true;
    to.partial = true; /* a refused kernel is left out as a comment, the others translated */
    gp_translate_result res;
    gp_translate(file, *src, *len, &to, &res);
    int rc = -1;
    if (res.status == GP_TRANSLATE_BAD_INPUT) {
        rc = gp_cli_input_error("run", "%s", res.error ? res.error : file);
        gp_translate_result_free(&res);
        return rc;
    }
    const cJSON *k, *mine = NULL;
    double from = 0, to_line = 1e18;
    cJSON_ArrayForEach(k, cJSON_GetObjectItem(res.report, "kernels"))
    {
        if (!strcmp(gp_json_str(k, "name", ""), kernel)) mine = k;
    }
    if (mine) from = cJSON_GetNumberValue(cJSON_GetObjectItem(mine, "line"));
    cJSON_ArrayForEach(k, cJSON_GetObjectItem(res.report, "kernels"))
    {
        double l = cJSON_GetNumberValue(cJSON_GetObjectItem(k, "line"));
        if (l > from && l < to_line) to_line = l;
    }
    bool refused = cJSON_GetArraySize(cJSON_GetObjectItem(res.report, "refusals")) > 0;
    if ((mine && !cJSON_IsTrue(cJSON_GetObjectItem(mine, "translated"))) || (!mine && refused)) {
        char why[1500] = "";
        size_t o = 0;
        for (int pass = 0; pass < 2 && !why[0]; pass++) {
            const cJSON *r;
            cJSON_ArrayForEach(r, cJSON_GetObjectItem(res.report, "refusals"))
            {
                double l = cJSON_GetNumberValue(cJSON_GetObjectItem(r, "line"));
                if (pass == 0 && (l < from || l >= to_line)) continue;
                if (o + 40 < sizeof why)
                    o += (size_t)snprintf(
                        why + o, sizeof why - o, "\n  %s:%d: %s: %s", gp_json_str(r, "file", file),
                        (int)l, gp_json_str(r, "construct", ""), gp_json_str(r, "reason", ""));
            }
        }
        rc = gp_cli_input_error("run",
                                "%s: kernel '%s' cannot be translated from CUDA (gpuport translate "
                                "refuses it), so it cannot run, checked or not:%s",
                                file, kernel, why[0] ? why : " (no reason given)");
    } else if (!res.output) {
        rc = gp_cli_input_error("run", "%s: gpuport translate made no output", file);
    } else {
        size_t n = strlen(res.output);
        char *t = malloc(n + 1);
        if (!t) {
            rc = gp_cli_internal_error("run", "out of memory");
        } else {
            memcpy(t, res.output, n + 1);
            free(*src);
            *src = t;
            *len = n;
        }
    }
    gp_translate_result_free(&res);
    return rc;
}

static void run_print_report(FILE *f, const gp_check_report *r)
{
    if (r->line)
        fprintf(f, "%s:%u:%u: ", r->file, r->line, r->column);
    else
        fprintf(f, "%s: ", r->file[0] ? r->file : r->kernel);
    fprintf(f, "%s: %s", gp_check_name(r->check), r->message);
    bool open = false;
    if (r->local[0] >= 0 && run_is_cuda(r->file)) {
        fprintf(f, " (threadIdx (%d,%d,%d), blockIdx (%d,%d,%d)", r->local[0], r->local[1],
                r->local[2], r->group[0], r->group[1], r->group[2]);
        open = true;
    } else if (r->local[0] >= 0) {
        fprintf(f, " (work-item (%d,%d,%d) of group (%d,%d,%d)", r->local[0], r->local[1],
                r->local[2], r->group[0], r->group[1], r->group[2]);
        open = true;
    }
    if (r->count > 1) {
        fprintf(f, "%s%llu times", open ? ", " : " (", (unsigned long long)r->count);
        open = true;
    }
    fprintf(f, "%s\n", open ? ")" : "");
}

static cJSON *run_selection_json(const gp_device *dev)
{
    gp_selection_entry sel[GP_BACKEND_COUNT];
    uint32_t n = 0;
    gp_device_selection(dev, sel, GP_BACKEND_COUNT, &n);
    cJSON *a = cJSON_CreateArray();
    for (uint32_t i = 0; i < n; i++) {
        cJSON *o = cJSON_CreateObject();
        cJSON_AddStringToObject(o, "backend", gp_backend_name((gp_backend)sel[i].backend));
        cJSON_AddStringToObject(o, "outcome",
                                gp_select_outcome_name((gp_select_outcome)sel[i].outcome));
        cJSON_AddStringToObject(o, "detail", sel[i].detail);
        cJSON_AddItemToArray(a, o);
    }
    return a;
}

static int run_options(run_state *s, int argc, char **argv)
{
    enum {
        OPT_DEVICE = 256,
        OPT_GLOBAL,
        OPT_GROUP,
        OPT_CHECK,
        OPT_JSON,
        OPT_FORCE,
        OPT_VERSION,
        OPT_TRACE,
        OPT_TRACE_SUMMARY
    };
    static const struct option opts[] = {{"device", required_argument, NULL, OPT_DEVICE},
                                         {"global", required_argument, NULL, OPT_GLOBAL},
                                         {"group", required_argument, NULL, OPT_GROUP},
                                         {"check", optional_argument, NULL, OPT_CHECK},
                                         {"json", no_argument, NULL, OPT_JSON},
                                         {"force", no_argument, NULL, OPT_FORCE},
                                         {"trace", required_argument, NULL, OPT_TRACE},
                                         {"trace-summary", no_argument, NULL, OPT_TRACE_SUMMARY},
                                         {"output", required_argument, NULL, 'o'},
                                         {"help", no_argument, NULL, 'h'},
                                         {"version", no_argument, NULL, OPT_VERSION},
                                         {NULL, 0, NULL, 0}};
    s->device_spec = "auto";
    int c;
    char why[300];
    while ((c = getopt_long(argc, argv, "ho:D:", opts, NULL)) != -1) {
        switch (c) {
        case OPT_DEVICE:
            s->device_spec = optarg;
            break;
        case OPT_GLOBAL:
            if (!run_parse_dims(optarg, s->global, &s->gdims, why, sizeof why))
                return gp_cli_usage_error("run", "--global %s: %s", optarg, why);
            break;
        case OPT_GROUP:
            if (!run_parse_dims(optarg, s->group, &s->ldims, why, sizeof why))
                return gp_cli_usage_error("run", "--group %s: %s", optarg, why);
            s->have_group = true;
            break;
        case OPT_CHECK:
            s->check_given = true;
            /* `--check memcheck` as `--check=memcheck`: the next word when it names checks */
            if (!optarg && optind < argc && !strchr(argv[optind], '=') &&
                gp_check_parse(argv[optind], &s->checks) == GP_OK)
                optarg = argv[optind++];
            if (gp_check_parse(optarg ? optarg : "all", &s->checks) != GP_OK)
                return gp_cli_usage_error("run", "--check=%s: %s", optarg, gp_last_error());
            if (!s->checks) s->check_given = false;
            break;
        case OPT_JSON:
            s->json = true;
            break;
        case OPT_FORCE:
            s->force = true;
            break;
        case OPT_TRACE:
            s->trace_path = optarg;
            break;
        case OPT_TRACE_SUMMARY:
            s->trace_summary = true;
            break;
        case 'o':
            if (s->nouts == (int)(sizeof s->outs / sizeof *s->outs))
                return gp_cli_usage_error("run", "too many -o");
            s->outs[s->nouts++] = optarg;
            break;
        case 'D':
            if (s->ndefs == RUN_MAX_DEFS) return gp_cli_usage_error("run", "too many -D");
            s->defs[s->ndefs++] = optarg;
            break;
        case 'h':
            printf("%s", run_usage);
            return gp_cli_finish("run", GP_EXIT_OK);
        case OPT_VERSION:
            return gp_cli_print_version();
        default:
            return gp_cli_bad_option("run", argv, "ho:D:");
        }
    }
    for (int i = optind; i < argc; i++) {
        const char *a = argv[i];
        if (strchr(a, '=') && a[0] != '=' && s->file && s->kernel_name) {
            if (s->nassigns == (int)(sizeof s->assigns / sizeof *s->assigns))
                return gp_cli_usage_error("run", "too many PARAM=VALUE");
            s->assigns[s->nassigns++] = a;
        } else if (!s->file) {
            s->file = a;
        } else if (!s->kernel_name) {
            s->kernel_name = a;
        } else {
            return gp_cli_usage_error("run", "'%s': expected PARAM=VALUE", a);
        }
    }
    if (!s->file || !s->kernel_name)
        return gp_cli_usage_error("run", "give the .gpk file and the kernel's name");
    if (!s->gdims)
        return gp_cli_usage_error("run", "--global is needed (work-items per dimension)");
    if (s->have_group && s->ldims != s->gdims)
        return gp_cli_usage_error("run", "--group has %u dimension(s), --global %u", s->ldims,
                                  s->gdims);
    return -1;
}

/* The CPU backend's gp_printf output, kept for the JSON document. */
static void run_collect_print(void *user, const char *text, size_t len)
{
    gp_strbuf_append(user, text, len);
}

static int run_run(int argc, char **argv)
{
    run_state *s = calloc(1, sizeof *s);
    if (!s) return gp_cli_internal_error("run", "out of memory");
    int rc = run_options(s, argc, argv);
    char err[700];
    if (rc < 0) {
        s->src = gp_read_file(s->file, (size_t)64 << 20, false, &s->src_len, err, sizeof err);
        if (!s->src) rc = gp_cli_input_error("run", "%s", err);
        if (rc < 0 && run_is_cuda(s->file))
            rc = run_translate(s->file, s->kernel_name, &s->src, &s->src_len);
    }
    gp_build_options o = {sizeof o, 0, s->file, s->defs, (uint32_t)s->ndefs, s->checks};
    bool tracing = false; /* --trace, --trace-summary: from the device's open to the results */
    if (rc < 0 && (s->trace_path || s->trace_summary)) {
        if (gp_trace_start(s->trace_path) == GP_OK)
            tracing = true;
        else
            rc = gp_cli_input_error("run", "--trace: %s", gp_last_error());
    }
    if (rc < 0) {
        gp_status st = gp_device_open_for_source(s->device_spec, s->src, s->src_len, &o,
                                                 s->kernel_name, &s->dev);
        if (st != GP_OK)
            rc = gp_cli_input_error("run", "%s", gp_last_error());
        else
            gp_device_get_info(s->dev, &s->info);
    }
    if (rc < 0) {
        gp_status st = gp_program_create(s->dev, s->src, s->src_len, &o, &s->prog);
        if (st == GP_OK) st = gp_kernel_create(s->prog, s->kernel_name, &s->k);
        if (st != GP_OK)
            rc = run_input_error_status(st) == GP_EXIT_INTERNAL
                     ? gp_cli_internal_error("run", "%s", gp_last_error())
                     : gp_cli_input_error("run", "%s", gp_last_error());
    }
    if (rc < 0) rc = run_bind(s);
    if (rc < 0) rc = run_make_buffers(s);
    gp_status launch = GP_OK;
    double ms = 0;
    gp_strbuf printed = GP_STRBUF_INIT;
    if (rc < 0) {
        gp_arg args[RUN_MAX_PARAMS];
        for (uint32_t i = 0; i < s->nparams; i++) {
            run_param *p = &s->params[i];
            if (p->buffer)
                args[i] = gp_arg_buffer(p->buffer);
            else if (p->spec.kind == RUN_SHARED)
                args[i] = gp_arg_shared((size_t)p->spec.count);
            else if (p->spec.kind == RUN_NULL)
                args[i] = gp_arg_null();
            else
                args[i] = gp_arg_value(p->spec.value, p->info.size ? p->info.size
                                                                   : gp_dtype_size(p->type->dtype) *
                                                                         p->type->lanes);
        }
        run_catch_signals(s);
        gp_stdout_capture cap = {-1, -1}; /* with --json, gp_printf's text goes into the JSON */
        if (s->json) {
            gp_print_set_handler(run_collect_print, &printed);
            gp_stdout_capture_begin(&cap);
        }
        double t0 = gp_monotonic_s();
        launch = gp_kernel_launch(NULL, s->k, s->gdims, s->global, s->have_group ? s->group : NULL,
                                  s->nparams, args);
        if (launch == GP_OK) launch = gp_device_synchronize(s->dev);
        ms = (gp_monotonic_s() - t0) * 1e3;
        if (s->json) {
            char *drv = gp_stdout_capture_end(&cap, (size_t)16 << 20);
            gp_print_set_handler(NULL, NULL);
            if (drv) gp_strbuf_puts(&printed, drv);
            free(drv);
        }
        if (launch == GP_OK && !s->json) run_check_guards(s, NULL);
        if (launch != GP_OK && launch != GP_ERR_CHECK)
            rc = launch == GP_ERR_LAUNCH || launch == GP_ERR_INVALID_ARGUMENT
                     ? gp_cli_input_error("run", "%s", gp_last_error())
                     : gp_cli_internal_error("run", "%s", gp_last_error());
    }
    cJSON *outputs = cJSON_CreateArray();
    for (uint32_t i = 0; rc < 0 && i < s->nparams; i++) {
        run_param *p = &s->params[i];
        if (!p->out_path) continue;
        void *host = malloc(p->bytes ? p->bytes : 1);
        size_t len = 0;
        char *bytes = NULL;
        if (host && gp_buffer_read(p->buffer, 0, host, p->bytes) == GP_OK)
            bytes = run_npy_bytes(p->type->dtype, p->shape, p->ndim, host, p->bytes, &len);
        free(host);
        if (!bytes) {
            rc = gp_cli_internal_error("run", "%s: cannot read the buffer back: %s", p->info.name,
                                       gp_last_error());
            break;
        }
        if (gp_write_file_atomic(p->out_path, bytes, len, err, sizeof err) != 0)
            rc = gp_cli_input_error("run", "%s", err);
        free(bytes);
        cJSON *oj = cJSON_CreateObject();
        cJSON_AddStringToObject(oj, "param", p->info.name);
        cJSON_AddStringToObject(oj, "path", p->out_path);
        cJSON_AddStringToObject(oj, "dtype", gp_dtype_name(p->type->dtype));
        cJSON *shape = cJSON_AddArrayToObject(oj, "shape");
        for (int d = 0; d < p->ndim; d++)
            cJSON_AddItemToArray(shape, cJSON_CreateNumber((double)p->shape[d]));
        cJSON_AddItemToArray(outputs, oj);
    }
    if (tracing && gp_trace_stop() != GP_OK && rc < 0)
        rc = gp_cli_input_error("run", "--trace: %s", gp_last_error());
    if (tracing && s->trace_summary) {
        size_t need = 0;
        gp_trace_summary(NULL, 0, &need);
        char *text = malloc(need ? need : 1);
        if (text && gp_trace_summary(text, need, NULL) == GP_OK) fputs(text, stderr);
        free(text);
    }
    if (rc < 0) {
        uint32_t nrep = 0;
        uint64_t omitted = 0;
        if (launch == GP_ERR_CHECK) gp_check_report_count(&nrep, &omitted);
        gp_check_report rep;
        if (s->json) {
            cJSON *j = cJSON_CreateObject();
            cJSON_AddStringToObject(j, "schema", "gpuport.run/1");
            cJSON_AddStringToObject(j, "file", s->file);
            cJSON_AddStringToObject(j, "kernel", s->kernel_name);
            cJSON_AddStringToObject(j, "device", s->info.spec);
            cJSON_AddStringToObject(j, "device_name", s->info.name);
            cJSON *ch = cJSON_AddArrayToObject(j, "checks");
            uint32_t dc = 0;
            gp_device_get_checks(s->dev, &dc);
            uint32_t on = s->checks ? s->checks : dc;
            for (uint32_t b = 1; b <= GP_CHECK_INITCHECK; b <<= 1)
                if (on & b || (on && b == GP_CHECK_MEMCHECK))
                    cJSON_AddItemToArray(ch, cJSON_CreateString(gp_check_name(b)));
            cJSON *g = cJSON_AddArrayToObject(j, "global");
            for (uint32_t d = 0; d < s->gdims; d++)
                cJSON_AddItemToArray(g, cJSON_CreateNumber((double)s->global[d]));
            if (s->have_group) {
                cJSON *l = cJSON_AddArrayToObject(j, "group");
                for (uint32_t d = 0; d < s->ldims; d++)
                    cJSON_AddItemToArray(l, cJSON_CreateNumber((double)s->group[d]));
            } else {
                cJSON_AddNullToObject(j, "group");
            }
            run_note_grid(s, j);
            if (launch == GP_OK) run_check_guards(s, j);
            cJSON_AddStringToObject(j, "status", nrep ? "reports" : s->overruns ? "overrun" : "ok");
            cJSON_AddNumberToObject(j, "elapsed_ms", ms);
            cJSON_AddStringToObject(j, "printed", gp_strbuf_cstr(&printed));
            cJSON *ra = cJSON_AddArrayToObject(j, "reports");
            for (uint32_t i = 0; i < nrep; i++)
                if (gp_check_report_get(i, &rep) == GP_OK) {
                    if (run_is_cuda(rep.file)) run_cuda_words(&rep);
                    cJSON_AddItemToArray(ra, run_report_json(&rep));
                }
            cJSON_AddNumberToObject(j, "omitted_reports", (double)omitted);
            cJSON_AddItemToObject(j, "outputs", outputs);
            outputs = NULL;
            cJSON_AddItemToObject(j, "selection", run_selection_json(s->dev));
            if (gp_json_print(stdout, j) != 0) rc = GP_EXIT_INTERNAL;
            cJSON_Delete(j);
        } else {
            for (uint32_t i = 0; i < nrep; i++)
                if (gp_check_report_get(i, &rep) == GP_OK) {
                    if (run_is_cuda(rep.file)) run_cuda_words(&rep);
                    run_print_report(stdout, &rep);
                }
            if (omitted)
                printf("... and %llu more report(s) not kept\n", (unsigned long long)omitted);
            gp_selection_entry sel[GP_BACKEND_COUNT];
            uint32_t ns = 0;
            gp_device_selection(s->dev, sel, GP_BACKEND_COUNT, &ns);
            for (uint32_t i = 0; i < ns; i++)
                if (sel[i].outcome == GP_SELECT_UNSUITABLE)
                    fprintf(stderr, "gpuport run: skipped %s: %s\n",
                            gp_backend_name((gp_backend)sel[i].backend), sel[i].detail);
            uint32_t dc = 0;
            gp_device_get_checks(s->dev, &dc);
            run_note_grid(s, NULL);
            fprintf(stderr, "gpuport run: %s on %s (%s)%s: %.3f ms, %s\n", s->kernel_name,
                    s->info.spec, s->info.name, dc ? ", checked" : "", ms,
                    nrep          ? "check reports above"
                    : s->overruns ? "wrote past a buffer (above)"
                                  : "ok");
        }
        if (rc < 0) rc = nrep || s->overruns ? GP_EXIT_FAIL : GP_EXIT_OK;
        rc = gp_cli_finish("run", rc);
    }
    cJSON_Delete(outputs);
    gp_strbuf_free(&printed);
    run_free(s);
    free(s);
    return rc;
}

const gp_command gp_cmd_run = {
    "run", "run one kernel of a .gpk file on any device, optionally checked", run_run};
