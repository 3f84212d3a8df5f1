/* test_translate.c — every accepted construct gives the dialect text it should, and every refused
 * one is refused with its line and reason (the messages users read). Running the translations on
 * real devices is test_translate_run.c; compiling them for CUDA is test_translate_compile.sh. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "translate/translate.h"
#include "util/json.h"

/* --simd-width for the calls below (0: not given); the warp tests set it and put it back. */
static int g_simd_width;

static gp_translate_result run(const char *src, bool partial)
{
    gp_translate_options o = {0};
    o.partial = partial;
    o.simd_width = g_simd_width;
    gp_translate_result r;
    gp_translate("t.cu", src, strlen(src), &o, &r);
    return r;
}

/* The translation of src must succeed and contain every fragment, in order. */
static void expect_ok(const char *src, const char *const *frags)
{
    gp_translate_result r = run(src, false);
    if (r.status != GP_TRANSLATE_OK) {
        char *rep = r.report ? cJSON_Print(r.report) : NULL;
        fail_msg("not translated (status %d): %s %s", r.status, r.error ? r.error : "",
                 rep ? rep : "");
    }
    const char *at = r.output;
    for (size_t i = 0; frags[i]; i++) {
        const char *f = strstr(at, frags[i]);
        if (!f) fail_msg("missing '%s' in:\n%s", frags[i], r.output);
        at = f + strlen(frags[i]);
    }
    gp_translate_result_free(&r);
}

/* The translation must be refused at `line` with a reason containing `why`. */
static void expect_refused(const char *src, int line, const char *construct, const char *why)
{
    gp_translate_result r = run(src, false);
    if (r.status != GP_TRANSLATE_REFUSED)
        fail_msg("status %d, want refused; output:\n%s", r.status, r.output ? r.output : "");
    assert_null(r.output); /* nothing half-translated is passed off as complete */
    const cJSON *x;
    bool found = false;
    cJSON_ArrayForEach(x, cJSON_GetObjectItem(r.report, "refusals"))
    {
        if ((int)cJSON_GetObjectItem(x, "line")->valuedouble == line &&
            strstr(gp_json_str(x, "construct", ""), construct) &&
            strstr(gp_json_str(x, "reason", ""), why))
            found = true;
    }
    if (!found) {
        char *rep = cJSON_Print(cJSON_GetObjectItem(r.report, "refusals"));
        fail_msg("no refusal '%s' / '%s' at line %d; got %s", construct, why, line, rep);
    }
    /* --partial keeps the rest and marks the refusal */
    gp_translate_result p = run(src, true);
    assert_int_equal(p.status, GP_TRANSLATE_REFUSED);
    assert_non_null(p.output);
    assert_non_null(strstr(p.output, "GP_TODO(\""));
    assert_non_null(strstr(p.output, "INCOMPLETE"));
    gp_translate_result_free(&p);
    gp_translate_result_free(&r);
}

static void kernels_and_parameters(void **state)
{
    (void)state;
    expect_ok(
        "__global__ void k(float *__restrict__ y, const float *x, float a, unsigned n) {\n"
        "  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;\n"
        "  if (i < n) y[i] = a * x[i];\n}\n",
        (const char *[]){"GP_KERNEL(k, GP_BUF(float, y), GP_CBUF(float, x), GP_VAL(float, a), "
                         "GP_VAL(unsigned int, n))",
                         "unsigned int i = (unsigned)gp_global_id(0);", "if (i < n) {",
                         "y[i] = a * x[i];", NULL});
}

static void builtins_in_three_dimensions(void **state)
{
    (void)state;
    expect_ok("__global__ void k(int *o) {\n"
              "  o[0] = threadIdx.z + blockIdx.y * gridDim.x + blockDim.z;\n}\n",
              (const char *[]){"(unsigned)gp_local_id(2) + (unsigned)gp_group_id(1) * "
                               "(unsigned)gp_num_groups(0) + (unsigned)gp_local_size(2)",
                               NULL});
}

/* A kernel may be named like a CUDA type (`half`): it is only launched, never called */
static void kernel_named_like_a_type(void **state)
{
    (void)state;
    expect_ok("__global__ void half(float *o) {\n  o[0] = 1.0f;\n}\n",
              (const char *[]){"GP_KERNEL(half_, GP_BUF(float, o))", NULL});
    expect_ok("__global__ void dim3(int *o) {\n  o[0] = 1;\n}\n",
              (const char *[]){"GP_KERNEL(dim3", NULL});
}

static void value_parameters_assigned_are_copied(void **state)
{
    (void)state;
    expect_ok("__global__ void k(int *o, int n) { n -= 1; o[0] = n; }\n",
              (const char *[]){"GP_VAL(int, n_in))", "int n = n_in;", "n -= 1;", NULL});
}

static void shared_arrays_hoisted_to_kernel_scope(void **state)
{
    (void)state;
    expect_ok("#define TILE 16\n"
              "__global__ void k(float *o) {\n"
              "  if (threadIdx.x < 4) {\n"
              "    __shared__ float t[TILE][TILE + 1];\n"
              "    t[0][threadIdx.x] = 1.0f; o[threadIdx.x] = t[0][threadIdx.x];\n  }\n}\n",
              (const char *[]){"#define TILE 16", "GP_KERNEL(k",
                               "{\n    GP_SHARED_DECL float t[TILE][TILE + 1];",
                               "if ((unsigned)gp_local_id(0) < 4) {", NULL});
}

static void helper_shared_array_passed_down(void **state)
{
    (void)state;
    expect_ok("__device__ float f(float v) {\n"
              "  __shared__ float s[32];\n"
              "  s[threadIdx.x] = v; __syncthreads(); return s[0];\n}\n"
              "__global__ void k(float *o) { o[threadIdx.x] = f(o[0]); }\n",
              (const char *[]){
                  "GP_FUNC float f(float v, GP_SHARED float *s, unsigned int gp_threadIdx_x)",
                  "s[gp_threadIdx_x] = v;", "gp_barrier();", "GP_SHARED_DECL float f_s[32];",
                  "o[(unsigned)gp_local_id(0)] = f(o[0], f_s, (unsigned)gp_local_id(0));", NULL});
}

static void helper_cloned_per_address_space(void **state)
{
    (void)state;
    expect_ok("__device__ float first(const float *p) { return p[0]; }\n"
              "__global__ void k(float *o, const float *g) {\n"
              "  __shared__ float s[8];\n  s[0] = g[1];\n"
              "  o[0] = first(g) + first(s);\n}\n",
              (const char *[]){"GP_FUNC float first(GP_GLOBAL const float *p)",
                               "GP_FUNC float first_s(GP_SHARED const float *p)",
                               "o[0] = first(g) + first_s(s);", NULL});
}

static void local_pointer_spaces_inferred(void **state)
{
    (void)state;
    expect_ok("__global__ void k(float *o, int n) {\n"
              "  __shared__ float s[8];\n  float acc[4];\n"
              "  float *p = o + n;\n  float *q = &s[1];\n  float *r = acc;\n"
              "  float *z; z = p + 1;\n"
              "  r[0] = *q; *z = r[0];\n}\n",
              (const char *[]){"GP_GLOBAL float *p = o + n;", "GP_SHARED float *q = &s[1];",
                               "GP_PRIVATE float *r = acc;", "GP_GLOBAL float *z;", NULL});
    /* a conditional between a pointer and the null pointer has the pointer's space */
    expect_ok("__global__ void k(const double *fc, double *o, int steps) {\n"
              "  const double *b = steps ? fc + blockIdx.x * steps : nullptr;\n"
              "  double *c = steps > 1 ? NULL : o + blockIdx.x;\n"
              "  if (b && c) c[0] = b[0];\n}\n",
              (const char *[]){
                  "GP_GLOBAL const double *b = steps ? fc + (unsigned)gp_group_id(0) * steps : 0;",
                  "GP_GLOBAL double *c = steps > 1 ? 0 : o + (unsigned)gp_group_id(0);", NULL});
}

static void dynamic_shared_block(void **state)
{
    (void)state;
    expect_ok("__global__ void k(float *o) {\n"
              "  extern __shared__ float buf[];\n  buf[threadIdx.x] = o[0];\n"
              "  float *p = (float *)buf;\n  o[1] = p[threadIdx.x];\n}\n",
              (const char *[]){"GP_KERNEL(k, GP_BUF(float, o), GP_DYN_SHARED(float, buf))",
                               "GP_SHARED float *p = (GP_SHARED float *)buf;", NULL});
}

static void constant_data(void **state)
{
    (void)state;
    expect_ok("__constant__ float c[3] = {1.0f, -2.0f, 0.5f};\n"
              "__global__ void k(float *o) { const float *p = c; o[0] = c[1] + p[0]; }\n",
              (const char *[]){"GP_CONSTANT_DECL float c[3] = {1.0f, -2.0f, 0.5f};",
                               "GP_CONSTANT float *p = c;", NULL});
}

static void atomics_mapped(void **state)
{
    (void)state;
    expect_ok("__global__ void k(int *i, unsigned *u, float *f) {\n"
              "  atomicAdd(i, 1); atomicMax(i, 3); atomicCAS(u, 0u, 1u); atomicExch(u, 2u);\n"
              "  atomicAdd(f, 1.5f); atomicSub(i, 2); atomicMin(u, 1u);\n}\n",
              (const char *[]){"gp_atomic_add(i, 1);", "gp_atomic_max(i, 3);",
                               "gp_atomic_cas(u, 0u, 1u);", "gp_atomic_xchg(u, 2u);",
                               "gp_atomic_add_float(f, 1.5f);", "gp_atomic_sub(i, 2);",
                               "gp_atomic_min(u, 1u);", NULL});
}

static void math_mapped(void **state)
{
    (void)state;
    expect_ok("__global__ void k(float *o, int a, int b) {\n"
              "  float x = o[0];\n"
              "  o[1] = __expf(x) + rsqrtf(x) + fmaf(x, x, 1.0f) + sqrt(x) + __fdividef(x, 3.0f);\n"
              "  o[2] = min(x, 2.0f) + max(a, b) + __saturatef(x);\n}\n",
              (const char *[]){"expf(x) + gp_rsqrt(x) + fmaf(x, x, 1.0f) + sqrtf(x) + (x / 3.0f)",
                               "fminf(x, 2.0f) + gp_max(a, b) + gp_clamp(x, 0.0f, 1.0f)", NULL});
}

static void vectors_and_half(void **state)
{
    (void)state;
    expect_ok("#include <cuda_fp16.h>\n"
              "__global__ void k(float2 *v, __half *h, float4 *w) {\n"
              "  float2 a = make_float2(1.0f, 2.0f); v[0] = a;\n"
              "  w[0] = make_float4(a.x, a.y, 0.0f, 1.0f);\n"
              "  h[0] = __float2half(__half2float(h[1]) * 2.0f);\n}\n",
              (const char *[]){"GP_BUF(gp_float2, v), GP_BUF(gp_half, h), GP_BUF(gp_float4, w)",
                               "gp_float2 a = gp_make_float2(1.0f, 2.0f);",
                               "gp_make_float4(a.x, a.y, 0.0f, 1.0f)",
                               "gp_float_to_half(gp_half_to_float(h[1]) * 2.0f)", NULL});
}

/* CUDA converts what it passes to a __half intrinsic; the dialect's functions take bits, so a
 * value of another type is refused, as is a conditional that picks a half or a float. A half
 * chosen from two halves keeps its bits, into a half or converted into a float. */
static void half_intrinsics_take_halves(void **state)
{
    (void)state;
    expect_refused("#include <cuda_fp16.h>\n"
                   "__global__ void k(__half *h, float *f) {\n"
                   "  h[0] = __hadd(h[1], f[0]);\n}\n",
                   3, "__hadd", "argument 2 is not a __half");
    expect_refused("#include <cuda_fp16.h>\n"
                   "__global__ void k(__half2 *h, float2 *f) {\n"
                   "  h[0] = __hmul2(h[1], f[0]);\n}\n",
                   3, "__hmul2", "argument 2 is not a __half2");
    expect_refused("#include <cuda_fp16.h>\n"
                   "__global__ void k(__half *h, float *f, int n) {\n"
                   "  f[0] = n ? h[0] : f[1];\n}\n",
                   3, "half arithmetic", "picks a half or another type");
    expect_ok("#include <cuda_fp16.h>\n"
              "__global__ void k(__half *h, float *f, half2 *p, int n) {\n"
              "  h[0] = n ? h[1] : h[2];\n  f[0] = n ? h[1] : h[2];\n"
              "  f[1] = p[0].y;\n  p[1] = __halves2half2(__hneg(p[0].x), h[3]);\n}\n",
              (const char *[]){"GP_BUF(gp_half, h), GP_BUF(float, f), GP_BUF(gp_half2, p)",
                               "h[0] = n ? h[1] : h[2];",
                               "f[0] = gp_half_to_float(n ? h[1] : h[2]);",
                               "f[1] = gp_half_to_float(p[0].y);",
                               "p[1] = gp_halves_to_half2(gp_half_neg(p[0].x), h[3]);", NULL});
}

/* An operator on a value of the file's own struct that the file defines no operator function
 * for is refused where it is used (C has none), never printed as it stands. */
static void struct_operators_refused_where_used(void **state)
{
    (void)state;
    expect_refused("struct Cx { float re, im; };\n"
                   "__global__ void k(Cx *o, const Cx *a) {\n"
                   "  Cx x = a[threadIdx.x];\n"
                   "  o[0] = x * a[1];\n}\n",
                   4, "struct operator", "'*' on struct Cx and struct Cx: C has no operators");
    expect_refused("struct Cx { float re, im; };\n"
                   "__global__ void k(Cx *o) {\n"
                   "  Cx x = o[1];\n  x += o[2];\n  o[0] = x;\n}\n",
                   4, "struct operator", "'+=' on struct Cx and struct Cx");
}

static void vector_types_of_every_family(void **state)
{
    (void)state;
    expect_ok("__global__ void k(uchar4 *px, double2 *d, short2 *s, ulonglong2 *u, int n) {\n"
              "  int i = threadIdx.x;\n"
              "  uchar4 p = px[i];\n"
              "  px[i] = make_uchar4(p.z, p.y, p.x, 255 - p.w);\n"
              "  double3 q = make_double3(d[i].x, d[i].y, 1.0);\n"
              "  d[i] = make_double2(q.x + q.z, q.y);\n"
              "  s[i] = make_short2(s[i].y, s[i].x);\n"
              "  u[i] = make_ulonglong2(u[i].y, 1ull);\n}\n",
              (const char *[]){"GP_REQUIRES_FP64",
                               "GP_BUF(gp_uchar4, px), GP_BUF(gp_double2, d), "
                               "GP_BUF(gp_short2, s), GP_BUF(gp_ulong2, u)",
                               "gp_make_uchar4(p.z, p.y, p.x, 255 - p.w)",
                               "gp_double4 q = gp_make_double4(d[i].x, d[i].y, 1.0, 0);",
                               "gp_make_short2(s[i].y, s[i].x)", "gp_make_ulong2(u[i].y, 1ull)",
                               NULL});
    /* a buffer of 3-component vectors is stored packed, as CUDA stores it (float3: 12 bytes):
     * read into the 4-component type, written back from it, fields in place */
    expect_ok(
        "__global__ void k(uchar3 *p, const float3 *q, float3 axis) {\n"
        "  float3 v = q[1];\n  p[0] = make_uchar3(1, 2, 3);\n  p[1].y = 4;\n"
        "  const float3 *r = q + 2;\n  v.x += r->x + (*r).y + axis.z;\n}\n",
        (const char *[]){"GP_KERNEL(k, GP_BUF(gp_packed_uchar3, p), GP_CBUF(gp_packed_float3, "
                         "q), GP_VAL(gp_packed_float3, axis_in))",
                         "gp_float4 axis = gp_unpack_float3(axis_in);",
                         "gp_float4 v = gp_unpack_float3(q[1]);",
                         "p[0] = gp_pack_uchar3(gp_make_uchar4(1, 2, 3, 0));", "p[1].y = 4;",
                         "GP_GLOBAL const gp_packed_float3 *r = q + 2;",
                         "v.x += r->x + (*r).y + axis.z;", NULL});
    /* compound assignment to a whole element, and the 3-vectors without a packed type */
    expect_refused("__global__ void k(float3 *p, float3 v) {\n  p[0] += v;\n}\n", 2,
                   "vector operator", "p[i] = p[i] + v");
    expect_refused("__global__ void k(char3 *p) { p[0].x = 1; }\n", 1, "char3", "12 bytes");
    /* sizeof of a packed element is CUDA's (the packed struct's); of a float3 value, refused */
    expect_ok("__global__ void k(float3 *p, int *o) { o[0] = sizeof(p[0]) + sizeof(*p); }\n",
              (const char *[]){"o[0] = sizeof(p[0]) + sizeof(*p);", NULL});
    expect_refused("__global__ void k(int *o) {\n  float3 v = make_float3(1, 2, 3);\n"
                   "  o[0] = sizeof(v);\n}\n",
                   3, "float3", "CUDA packs");
}

static void vector_operators_become_calls(void **state)
{
    (void)state;
    const char *ops =
        "inline __device__ float3 operator+(float3 a, float3 b)\n"
        "{ return make_float3(a.x + b.x, a.y + b.y, a.z + b.z); }\n"
        "inline __device__ float3 operator*(float3 a, float s)\n"
        "{ return make_float3(a.x * s, a.y * s, a.z * s); }\n"
        "inline __device__ float3 operator-(float3 a) { return make_float3(-a.x, -a.y, -a.z); }\n"
        "inline __device__ void operator+=(float3 &a, float3 b) { a.x += b.x; a.y += b.y; "
        "a.z += b.z; }\n"
        "inline __device__ float4 operator+(float4 a, float4 b)\n"
        "{ return make_float4(a.x + b.x, a.y + b.y, a.z + b.z, a.w + b.w); }\n"
        "inline __device__ uchar4 &operator^=(uchar4 &a, uchar4 b)\n"
        "{ a.x ^= b.x; a.y ^= b.y; a.z ^= b.z; a.w ^= b.w; return a; }\n";
    char src[2048];
    snprintf(src, sizeof src,
             "%s__global__ void k(const float4 *in, float4 *out, uchar4 *px) {\n"
             "  int i = threadIdx.x;\n"
             "  float3 p = make_float3(in[i].x, in[i].y, in[i].z), acc = p;\n"
             "  acc += p * 2;\n"
             "  acc += -p + p * 0.5f;\n"
             "  out[i] = in[i] + make_float4(acc.x, acc.y, acc.z, 0.0f);\n"
             "  px[i] ^= make_uchar4(1, 2, 3, 4);\n}\n",
             ops);
    expect_ok(src,
              (const char *[]){
                  "void operator_add_assign_float3p_float3(GP_PRIVATE gp_float4 *a, "
                  "gp_float4 b)",
                  "gp_float4 operator_add_float3_float3(gp_float4 a, gp_float4 b)",
                  "gp_uchar4 operator_xor_assign_uchar4p_uchar4(GP_GLOBAL gp_uchar4 *a, "
                  "gp_uchar4 b)",
                  /* the int converts on the call, as C++ converts it for the float */
                  "operator_add_assign_float3p_float3(&acc, operator_mul_float3_float(p, 2));",
                  "operator_add_assign_float3p_float3(&acc, operator_add_float3_float3("
                  "operator_sub_float3(p), operator_mul_float3_float(p, 0.5f)));",
                  "out[i] = operator_add_float4_float4(in[i], gp_make_float4(",
                  "operator_xor_assign_uchar4p_uchar4(&px[i], gp_make_uchar4(1, 2, 3, 4));", NULL});
    /* min/max overloaded on vectors (helper_math.h): a call with components is CUDA's own */
    expect_ok("__device__ int2 max(int2 a, int2 b) { return make_int2(max(a.x, b.x), "
              "max(a.y, b.y)); }\n"
              "__global__ void k(int2 *v, int *o) { v[0] = max(v[1], v[2]); o[0] = max(o[1], 3); "
              "}\n",
              (const char *[]){"gp_make_int2(gp_max(a.x, b.x), gp_max(a.y, b.y))",
                               "v[0] = max_int2_int2(v[1], v[2]);", "o[0] = gp_max(o[1], 3);",
                               NULL});
    /* an operator the file does not define: CUDA has none */
    snprintf(src, sizeof src, "%s__global__ void k(float4 *out) { out[0] = out[1] - out[2]; }\n",
             ops);
    expect_refused(src, 11, "vector operator", "defines no operator- for float4 and float4");
    /* operators on the file's own structs too */
    expect_ok("struct P { float v; };\n"
              "__device__ P operator+(P a, P b) { P r; r.v = a.v + b.v; return r; }\n"
              "__global__ void k(P *o) { o[0] = o[1] + o[2]; }\n",
              (const char *[]){"GP_FUNC P operator_add_struct_P_struct_P(P a, P b)",
                               "o[0] = operator_add_struct_P_struct_P(o[1], o[2]);", NULL});
}

static void bit_casts_and_classification(void **state)
{
    (void)state;
    expect_ok(
        "__global__ void k(float *x, unsigned *u, int *c, float *s, double *d, long long *l) {\n"
        "  int i = threadIdx.x;\n"
        "  u[i] = __float_as_uint(x[i]) ^ (unsigned)__float_as_int(x[i + 1]);\n"
        "  x[i] = __uint_as_float(u[i]) + __int_as_float(c[i]);\n"
        "  c[i] = isnan(x[i]) + 2 * isinf(x[i]) + 4 * signbit(x[i]) + isfinite(x[i]);\n"
        "  sincosf(x[i], &s[i], &s[i + 1]);\n"
        "  x[i] = rintf(x[i]) + rint(s[i]);\n"
        "  l[i] = __double_as_longlong(d[i]); d[i] = __longlong_as_double(l[i]);\n}\n",
        (const char *[]){"GP_REQUIRES_FP64",
                         "u[i] = gp_float_as_uint(x[i]) ^ (unsigned int)gp_float_as_int(x[i + 1]);",
                         "x[i] = gp_uint_as_float(u[i]) + gp_int_as_float(c[i]);",
                         "c[i] = gp_isnan(x[i]) + 2 * gp_isinf(x[i]) + 4 * gp_signbit(x[i]) + "
                         "gp_isfinite(x[i]);",
                         "gp_sincos(x[i], &s[i], &s[i + 1]);", "x[i] = rintf(x[i]) + rintf(s[i]);",
                         "l[i] = gp_double_as_long(d[i]);", "d[i] = gp_long_as_double(l[i]);",
                         NULL});
}

static void preprocessor_macros_and_conditions(void **state)
{
    (void)state;
    expect_ok("#define SQ(x) ((x) * (x))\n#define N 4\n#define CAT(a, b) a##b\n"
              "#if defined(__CUDACC__) && N > 2\n#define USE 1\n#else\n#define USE 0\n#endif\n"
              "__global__ void CAT(k, 2)(float *o) {\n"
              "#ifdef NOT_DEFINED\n  o[0] = 1.0f;\n#endif\n"
              "#pragma unroll\n  for (int i = 0; i < N; i++) o[i] = SQ(o[i]) * USE;\n}\n",
              (const char *[]){"#define N 4", "#define USE 1", "GP_KERNEL(k2", "#pragma unroll",
                               "for (int i = 0; i < N; i++) {", "o[i] = o[i] * o[i] * USE;", NULL});
    /* the CUDA 12 toolkit's version: the _sync branch is the one taken, not the pre-CUDA 9 one */
    expect_ok("__global__ void k(int *o) {\n"
              "#if CUDART_VERSION >= 9000 && __CUDACC_VER_MAJOR__ >= 12\n  o[0] = 9;\n"
              "#else\n  o[0] = 8;\n#endif\n}\n",
              (const char *[]){"o[0] = 9;", NULL});
}

static void reserved_words_renamed_and_mixed_operators_parenthesised(void **state)
{
    (void)state;
    expect_ok("__global__ void k(int *global, int local) {\n"
              "  int device = local & 7 - 1; global[0] = device << 2 + 1;\n}\n",
              (const char *[]){"GP_KERNEL(k, GP_BUF(int, global_), GP_VAL(int, local_))",
                               "int device_ = local_ & (7 - 1);",
                               "global_[0] = device_ << (2 + 1);", NULL});
    /* a parameter or variable spelled like a math function the output calls (roundf is round
     * on OpenCL and Metal): renamed, the calls kept */
    expect_ok("__global__ void k(float *o, bool round) {\n  float exp = o[1];\n"
              "  o[0] = round ? roundf(o[0]) : expf(exp);\n}\n",
              (const char *[]){"GP_VAL(int, round_))", "float exp_ = o[1];",
                               "o[0] = round_ ? roundf(o[0]) : expf(exp_);", NULL});
    /* a device function named like an OpenCL conversion (convert_T, as_T) is renamed */
    expect_ok("__device__ float4 convert_float4(uchar4 c) {\n"
              "  return make_float4(c.x, c.y, c.z, c.w);\n}\n"
              "__global__ void k(const uchar4 *in, float4 *o) { o[0] = convert_float4(in[0]); }\n",
              (const char *[]){"convert_float4_(", "o[0] = convert_float4_(in[0]);", NULL});
    /* OpenCL's native_ and half_ math (macros in PoCL's headers) */
    expect_ok("__device__ float native_divide(float a, float b) { return a / b; }\n"
              "__device__ float half_recip(float a) { return 1.0f / a; }\n"
              "__global__ void k(float *o) { o[0] = native_divide(o[1], half_recip(o[2])); }\n",
              (const char *[]){"float native_divide_(float a, float b)",
                               "o[0] = native_divide_(o[1], half_recip_(o[2]));", NULL});
    /* a type the file declares that OpenCL C or Metal has built in (int8, float4x4) is renamed
     * everywhere; CUDA's own names (uint from <sys/types.h>) are left alone */
    expect_ok("typedef unsigned int uint;\n"
              "typedef struct { float m[16]; } float4x4;\n"
              "struct int8 { int s0, s1; };\n"
              "__device__ float trace(float4x4 a) { return a.m[0] + a.m[5]; }\n"
              "__global__ void k(const float4x4 *m, int8 *p, float *o, uint n) {\n"
              "  float4x4 a = m[0]; int8 q = p[0]; o[0] = trace(a) + q.s1 + n;\n}\n",
              (const char *[]){"} float4x4_;", "struct int8_ {", "GP_FUNC float trace(float4x4_ a)",
                               "GP_CBUF(float4x4_, m), GP_BUF(int8_, p)", "GP_VAL(unsigned int, n)",
                               "float4x4_ a = m[0];", NULL});
    /* nearbyint of a double is rint, which every target has */
    expect_ok("__global__ void k(double *o, int *z) {\n  z[0] = nearbyint(o[0]);\n"
              "  z[1] = nearbyintf((float)o[1]);\n}\n",
              (const char *[]){"z[0] = rint(o[0]);", "z[1] = rintf((float)o[1]);", NULL});
}

static void double_precision_marked(void **state)
{
    (void)state;
    gp_translate_result r =
        run("__global__ void k(double *o) { double x = o[0]; o[0] = x * 2.0; }\n", false);
    assert_int_equal(r.status, GP_TRANSLATE_OK);
    assert_non_null(strstr(r.output, "GP_REQUIRES_FP64"));
    cJSON *k = cJSON_GetArrayItem(cJSON_GetObjectItem(r.report, "kernels"), 0);
    assert_true(cJSON_IsTrue(cJSON_GetObjectItem(k, "fp64")));
    cJSON *t = cJSON_GetObjectItem(k, "targets");
    assert_true(cJSON_IsFalse(cJSON_GetObjectItem(t, "metal")));
    assert_true(cJSON_IsNull(cJSON_GetObjectItem(t, "cpu"))); /* not built: not claimed */
    gp_translate_result_free(&r);
}

static void double_literal_in_float_code_is_noted(void **state)
{
    (void)state;
    gp_translate_result r = run("__global__ void k(float *o) { o[0] = o[0] * 0.5; }\n", false);
    assert_int_equal(r.status, GP_TRANSLATE_OK);
    char *notes = cJSON_Print(cJSON_GetObjectItem(r.report, "notes"));
    assert_non_null(strstr(notes, "0.5 is a double literal"));
    free(notes);
    gp_translate_result_free(&r);
}

static void host_code_is_skipped(void **state)
{
    (void)state;
    expect_ok(
        "#include <vector>\n#include <cstdio>\n"
        "template <typename T> T twice(T v) { return v * 2; }\n"
        "class Host { public: int x; };\n"
        "__global__ void k(int *o) { o[0] = 1; }\n"
        "int main() { std::vector<int> v(3); k<<<1, 1>>>(nullptr); printf(\"%d\", twice(3)); }\n",
        (const char *[]){"GP_KERNEL(k, GP_BUF(int, o))", NULL});
}

/* a 3-D texture: no buffer the translation samples */
static const char refuse_texture[] = "__global__ void k(float *o, cudaTextureObject_t t) {\n"
                                     "  o[0] = tex3D<float>(t, 0.5f, 0.5f, 0.5f);\n}\n";

static void refusals(void **state)
{
    (void)state;
    expect_refused(
        "__global__ void k(float *o) {\n  o[0] = __shfl_down_sync(0xffffffff, o[0], 1);\n}\n", 2,
        "warp shuffle", "translate with --simd-width 32");
    expect_refused("__global__ void k(int *o) {\n  o[0] = warpSize;\n}\n", 2, "warpSize",
                   "--simd-width 32");
    expect_refused("__global__ void k(float *o) {\n  __syncwarp();\n}\n", 2, "__syncwarp",
                   "--simd-width 32");
    expect_refused("__global__ void k(int *o) {\n  asm(\"mov.u32 %0, 1;\" : \"=r\"(o[0]));\n}\n", 2,
                   "inline PTX", "NVIDIA");
    expect_refused("template <typename T>\n__global__ void k(T *o) { o[0] = 1; }\n", 2, "template",
                   "instantiated nowhere");
    /* 64-bit atomics: on global memory under GP_REQUIRES_ATOMIC64; on shared memory refused */
    expect_ok("__global__ void k(unsigned long long *o, double *d, long long *m) {\n"
              "  atomicAdd(o, 1ull);\n  atomicAdd(&d[1], 0.5);\n  atomicMax(m, -3ll);\n"
              "  atomicCAS(&o[1], 0ull, 7ull);\n}\n",
              (const char *[]){"GP_REQUIRES_FP64\nGP_REQUIRES_ATOMIC64\n",
                               "gp_atomic64_add(o, 1ull);", "gp_atomic_add_double(&d[1], 0.5);",
                               "gp_atomic64_max(m, -3ll);", "gp_atomic64_cas(&o[1], 0ull, 7ull);",
                               NULL});
    expect_refused("__global__ void k(unsigned long long *o) {\n"
                   "  __shared__ unsigned long long c;\n  atomicAdd(&c, 1ull);\n  o[0] = c;\n}\n",
                   3, "64-bit atomic", "on global memory");
    expect_refused("__global__ void k(double *o) {\n  atomicExch(o, 1.0);\n}\n", 2, "64-bit atomic",
                   "double add");
    /* barriers that count: helpers with a shared counter, passed in by address */
    expect_ok("__global__ void k(int *o) {\n  int c = __syncthreads_count(o[threadIdx.x] > 0);\n"
              "  o[threadIdx.x] = c + __syncthreads_or(c > 3);\n}\n",
              (const char *[]){"GP_FUNC int syncthreads_count(int pred, GP_SHARED int "
                               "*syncthreads_counter",
                               "(*syncthreads_counter) = 0;", "gp_barrier();",
                               "gp_atomic_add(&(*syncthreads_counter), 1);",
                               "GP_FUNC int syncthreads_or(int pred",
                               "GP_SHARED_DECL int syncthreads_count_syncthreads_counter;",
                               "syncthreads_count(o[(unsigned)gp_local_id(0)] > 0, "
                               "&syncthreads_count_syncthreads_counter",
                               NULL});
    /* float atomic add on shared memory: the dialect's shared form */
    expect_ok("__global__ void k(float *o) {\n  __shared__ float s[4];\n  atomicAdd(&s[0], 1.0f);\n"
              "  o[0] = s[0];\n}\n",
              (const char *[]){"gp_atomic_add_float_shared(&s[0], 1.0f);", NULL});
    expect_refused("__global__ void child(int *o) { o[0] = 1; }\n"
                   "__global__ void k(int *o) {\n  child<<<1, 1>>>(o);\n}\n",
                   3, "dynamic parallelism", "device code");
    expect_refused(refuse_texture, 1, "cudaTextureObject_t", "texture");
    /* texture references: a 2-D one, and a 1-D one read as normalized floats, stay refused; a
     * 1-D one read as its elements is the bound buffer (texture_refs.cu) */
    expect_refused("texture<float, 2, cudaReadModeElementType> img;\n"
                   "__global__ void k(float *o) {\n  o[0] = tex2D(img, 0.5f, 0.5f);\n}\n",
                   3, "texture object", "tex2D");
    expect_refused("texture<unsigned char, 1, cudaReadModeNormalizedFloat> lut;\n"
                   "__global__ void k(float *o) {\n  o[0] = tex1Dfetch(lut, 3);\n}\n",
                   3, "texture object", "tex1Dfetch");
    expect_ok(
        "texture<int, cudaTextureType1D, cudaReadModeElementType> lut;\n"
        "__global__ void k(int *o) {\n  o[threadIdx.x] = tex1Dfetch(lut, threadIdx.x + 1);\n}\n",
        (const char *[]){"GP_KERNEL(k, GP_BUF(int, o), GP_CBUF(int, lut))",
                         "o[(unsigned)gp_local_id(0)] = lut[(unsigned)gp_local_id(0) + 1];", NULL});
    expect_refused("#include <cooperative_groups.h>\n"
                   "__global__ void k(int *o) {\n  cooperative_groups::this_grid().sync();\n}\n",
                   3, "grid-wide synchronisation", "this_grid");
    expect_refused("__global__ void k(float *o, int n) {\n  __shared__ float s[4];\n"
                   "  float *p;\n  if (n) p = o; else p = s;\n  p[0] = 1.0f;\n}\n",
                   3, "address space", "depends on control flow");
    expect_refused("__global__ void k(float *o) {\n  float *p;\n  o[0] = 1.0f;\n}\n", 2,
                   "address space", "never given an address");
    expect_refused("__global__ void k(float *o) {\n  extern __shared__ float3 s[];\n"
                   "  o[0] = s[0].x;\n}\n",
                   2, "float3", "12 bytes");
    expect_refused("__device__ int f(int n) { return n ? f(n - 1) : 0; }\n"
                   "__global__ void k(int *o) { o[0] = f(3); }\n",
                   1, "recursion", "recursion");
    expect_refused("__global__ void k(int *o) {\n  o[0] = undefined_function(3);\n}\n", 2,
                   "unknown function", "undefined_function");
    expect_refused("__global__ void k(int *o) {\n  int a = o[0];\n  o[1] = max(a++, 3);\n}\n", 3,
                   "max", "evaluates them twice");
    expect_refused("__global__ void k(int *o) {\n  o[0] = \"abc\"[1];\n}\n", 2, "string literal",
                   "outside printf");
    /* sizeof of a string literal has a meaning (its length plus one): the refusal says so */
    /* a device function named like a CUDA type: its calls would read as conversions */
    expect_refused("__device__ float half(float x) { return x * 0.5f; }\n"
                   "__global__ void k(float *o) {\n  o[0] = half(o[0]);\n}\n",
                   3, "function named like a type", "rename the function");
    expect_refused("__device__ float half(float x);\n"
                   "__global__ void k(float *o) {\n  o[0] = half(o[0]);\n}\n"
                   "__device__ float half(float x) { return x * 0.5f; }\n",
                   3, "function named like a type", "conversion");
    expect_refused("__global__ void k(int *o) {\n  o[0] = sizeof(\"abc\");\n}\n", 2,
                   "sizeof of a string literal", "length plus one");
    expect_refused("__global__ void k(int *o) {\n  o[0] = sizeof \"abc\";\n}\n", 2,
                   "sizeof of a string literal", "write the number");
}

/* The parameter types real kernels take: 64-bit counts and sizes keep their width under a fixed
 * spelling, a bool passed by value is an int (OpenCL allows no bool parameter), with a note. */
static void wide_and_bool_parameters(void **state)
{
    (void)state;
    const char *src = "__global__ void k(float *y, size_t n, long long a, unsigned long b,\n"
                      "                  int64_t c, uint64_t d, bool flip, long e) {\n"
                      "  size_t i = blockIdx.x * blockDim.x + threadIdx.x;\n"
                      "  if (i < n) y[i] = flip ? (float)(a + b) : (float)(c + d + e);\n}\n";
    expect_ok(src, (const char *[]){"GP_KERNEL(k, GP_BUF(float, y), GP_VAL(uint64_t, n), "
                                    "GP_VAL(int64_t, a), GP_VAL(uint64_t, b), GP_VAL(int64_t, c), "
                                    "GP_VAL(uint64_t, d), GP_VAL(int, flip), GP_VAL(int64_t, e))",
                                    "size_t i =", NULL});
    gp_translate_result r = run(src, false);
    const cJSON *x;
    int notes = 0;
    cJSON_ArrayForEach(x, cJSON_GetObjectItem(r.report, "notes"))
    {
        const char *c = gp_json_str(x, "construct", "");
        if (!strcmp(c, "size_t parameter") || !strcmp(c, "bool parameter")) notes++;
    }
    assert_int_equal(notes, 2);
    gp_translate_result_free(&r);
}

/* A template that instantiates itself with a growing argument expression (the samples'
 * unrolled convolution) is refused with a reason, not with whatever the buffer held. */
static void recursive_template_argument_is_refused_with_a_reason(void **state)
{
    (void)state;
    expect_refused("template <int i> __device__ float row(float x) {\n"
                   "  return x * i + row<i - 1>(x);\n}\n"
                   "__global__ void k(float *o) { o[0] = row<16>(o[1]); }\n",
                   2, "template", "longer than");
}

/* C++ overloads: same-named kernels and helpers get names of their own (the helpers chosen by
 * their arguments' types, never by the first definition), and a helper named like a built-in
 * does not hide the built-in. */
static void overloads_get_names_of_their_own(void **state)
{
    (void)state;
    expect_ok(
        "__global__ void fill(float *o, float v) { o[threadIdx.x] = v; }\n"
        "__global__ void fill(int *o, int v) { o[threadIdx.x] = v; }\n"
        "__device__ float fmaxf(float a, float b, float c) { return fmaxf(fmaxf(a, b), c); }\n"
        "__device__ int clampi(int v) { return v < 0 ? 0 : v; }\n"
        "__device__ float clampi(float v) { return v < 0.0f ? 0.0f : v; }\n"
        "__global__ void c(float *o, int *p) {\n"
        "  o[0] = clampi(o[1]); p[0] = clampi(p[1]);\n"
        "  o[2] = fmaxf(o[1], o[3]); o[4] = fmaxf(o[1], o[2], o[3]);\n}\n",
        (const char *[]){"GP_FUNC float fmaxf_float_float_float(float a, float b, float c)",
                         "return fmaxf(fmaxf(a, b), c);", "GP_KERNEL(fill_floatp_float",
                         "GP_KERNEL(fill_intp_int", "o[0] = clampi_float(o[1]);",
                         "p[0] = clampi_int(p[1]);", "o[2] = fmaxf(o[1], o[3]);",
                         "o[4] = fmaxf_float_float_float(o[1], o[2], o[3]);", NULL});
    /* no overload takes an unsigned exactly: refused, not converted by a guess */
    expect_refused("__device__ int twice(int v) { return 2 * v; }\n"
                   "__device__ float twice(float v) { return 2.0f * v; }\n"
                   "__global__ void k(float *o) {\n  o[0] = twice(threadIdx.x);\n}\n",
                   4, "overload", "no overload takes exactly");
}

/* With --partial, a helper holding a refused construct is never left live in the output, and no
 * kernel that calls it counts as translated, whichever kernel lowered it first. */
static void partial_keeps_no_live_marker(void **state)
{
    (void)state;
    gp_translate_result r = run("__device__ float h(float x) { return (float)clock() * x; }\n"
                                "__device__ float g(float x) { return x * 2.0f; }\n"
                                "__global__ void a(float *o) { o[0] = h(o[1]); }\n"
                                "__global__ void b(float *o) { o[0] = g(o[1]); }\n"
                                "__global__ void c(float *o) { o[0] = g(o[1]) + h(o[2]); }\n",
                                true);
    assert_int_equal(r.status, GP_TRANSLATE_REFUSED);
    assert_non_null(r.output);
    /* every GP_TODO( outside the header's #define is on a comment line */
    for (const char *l = r.output; l && *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL) {
        const char *e = strchr(l, '\n');
        size_t n = e ? (size_t)(e - l) : strlen(l);
        char line[1024];
        snprintf(line, sizeof line, "%.*s", (int)n, l);
        if (strstr(line, "GP_TODO(\"") && strncmp(line, "//", 2) && strncmp(line, " *", 2))
            fail_msg("a live marker: %s\n%s", line, r.output);
    }
    assert_non_null(strstr(r.output, "GP_KERNEL(b,"));
    assert_non_null(strstr(r.output, "// GP_KERNEL(c,"));
    const cJSON *k;
    int translated = 0;
    cJSON_ArrayForEach(k, cJSON_GetObjectItem(r.report, "kernels")) translated +=
        cJSON_IsTrue(cJSON_GetObjectItem(k, "translated"));
    assert_int_equal(translated, 1);
    gp_translate_result_free(&r);
}

/* A local constexpr sizes an array as a number (C would take `const int` for a VLA, which
 * cannot be initialised); more than GP_KERNEL's 24 parameters is a refusal, not a build error. */
static void local_constants_and_parameter_limit(void **state)
{
    (void)state;
    expect_ok("__global__ void k(float *o) {\n  constexpr int UNROLL = 8;\n"
              "  float r[UNROLL] = {};\n  for (int i = 0; i < UNROLL; i++) o[i] = r[i];\n}\n",
              (const char *[]){"float r[8] = {", NULL});
    /* CUDA's umin converts both arguments to unsigned int: -1 is the largest */
    expect_ok("__global__ void k(unsigned *o, int a) {\n  o[0] = umin(a, 4u) + llmax(a, 2);\n}\n",
              (const char *[]){"gp_min((unsigned int)(a), (unsigned int)(4u))",
                               "gp_max((int64_t)(a), (int64_t)(2))", NULL});
    expect_ok("__global__ void k(float *o, int a, int b, int c, int d, int e, int f, int g,\n"
              "  int h, int i, int j, int l, int m, int n, int p, int q, int r) {\n"
              "  o[0] = a + r;\n}\n",
              (const char *[]){"GP_VAL(int, q), GP_VAL(int, r))", NULL});
    expect_refused("__global__ void k(float *o, int a, int b, int c, int d, int e, int f, int g,\n"
                   "  int h, int i, int j, int l, int m, int n, int p, int q, int r, int s,\n"
                   "  int t, int u, int v, int w, int x, int y, int z) {\n  o[0] = a + z;\n}\n",
                   1, "too many parameters", "at most 24");
}

/* Array sizes C++ takes as constants, written as numbers: a C array sized by a name is a
 * variable-length one, which cannot be initialised, and a shared array hoisted to the top of the
 * kernel would name a constant declared below it. */
static void array_sizes_from_constant_expressions(void **state)
{
    (void)state;
    expect_ok("__global__ void k(double *o, const double *x) {\n"
              "  const int nb = 3;\n  const int na = 2;\n"
              "  const double c[nb + na] = {1.0, 2.0, 3.0, 4.0, 5.0};\n"
              "  double s = 0;\n  for (int j = 0; j < nb + na; j++) s = c[j] + x[0] * s;\n"
              "  o[threadIdx.x] = s;\n}\n",
              (const char *[]){"const double c[5] = {", NULL});
    expect_ok(
        "#define TILE_BYTES 1024\n"
        "__global__ void k(unsigned *o) {\n"
        "  const unsigned words = TILE_BYTES / sizeof(unsigned int);\n"
        "  __shared__ unsigned tile[words + 1];\n"
        "  __shared__ unsigned char flags[(words / 8)];\n"
        "  tile[threadIdx.x] = threadIdx.x;\n  flags[threadIdx.x / 8] = 1;\n"
        "  __syncthreads();\n  o[threadIdx.x] = tile[words - 1 - threadIdx.x] + flags[0];\n}\n",
        (const char *[]){"GP_SHARED_DECL unsigned int tile[257];",
                         "GP_SHARED_DECL unsigned char flags[32];", NULL});
}

/* An array sized by a local that is no constant: refused, not written as a variable-length
 * array (OpenCL C has none). */
static void array_sized_by_a_variable_is_refused(void **state)
{
    (void)state;
    expect_refused("__global__ void k(float *o, int n) {\n  const int m = n * 2;\n"
                   "  float t[m];\n  for (int i = 0; i < m; i++) t[i] = i;\n"
                   "  o[threadIdx.x] = t[1];\n}\n",
                   3, "array size", "not an integer constant");
}

/* A function template with an explicit specialisation whose arguments are deduced: the
 * specialisation is not read, so the template is refused where it is instantiated rather than run
 * with its general body. One whose arguments are written is used for those arguments, and the
 * general body for the others. */
static void explicit_specialisation_is_refused(void **state)
{
    (void)state;
    expect_ok(
        "template <typename T> __device__ T big(T a, T b) { return a > b ? a : b; }\n"
        "template <> __device__ float big<float>(float a, float b) { return fmaxf(a, b); }\n"
        "template <typename T, int N> __device__ void cp(T *d, const T *s) {\n"
        "  for (int i = 0; i < N; i++) d[i] = s[i];\n}\n"
        "template <> __device__ __forceinline__ void cp<float, 2>(float *d, const float *s) "
        "{ d[0] = s[0]; d[1] = s[1] + 0.0f; }\n"
        "__global__ void k(float *o, int *io) {\n"
        "  o[0] = big(o[1], o[2]); io[0] = big(io[1], io[2]);\n"
        "  cp<float, 2>(o + 4, o); cp<float, 3>(o + 8, o);\n}\n",
        (const char *[]){"GP_FUNC float big_float(float a, float b)\n{\n    return fmaxf(a, b);",
                         "GP_FUNC int big_int(int a, int b)\n{\n    return a > b ? a : b;",
                         "d[1] = s[1] + 0.0f;", "for (int i = 0; i < 3; i++)",
                         "cp_float_2(o + 4, o);", "cp_float_3(o + 8, o);", NULL});
    expect_refused("template <class T> __device__ T zero_of(int v) { return 0; }\n"
                   "template <> __device__ int zero_of(int v) { return v; }\n"
                   "template <class T> __global__ void fill(T *o) {\n"
                   "  o[threadIdx.x] = zero_of<T>(7);\n}\n"
                   "int main() { int *p; fill<int><<<1, 32>>>(p); }\n",
                   4, "template", "explicit specialisation (template <>, line 2)");
}

/* Two instances of one template refused at the same line: both kernels are refused, not only the
 * first (their diagnostic is one), and --partial leaves both out of the build. */
static void instances_refused_at_one_line_are_all_refused(void **state)
{
    (void)state;
    const char *src = "template <int N> __global__ void acc(__nv_bfloat16 *o, "
                      "const __nv_bfloat16 *w) {\n"
                      "  o[threadIdx.x] = o[threadIdx.x] * w[N];\n}\n"
                      "int main() { __nv_bfloat16 *p;\n"
                      "  acc<64><<<1, 64>>>(p, p); acc<128><<<1, 128>>>(p, p); }\n";
    gp_translate_result r = run(src, true);
    assert_int_equal(r.status, GP_TRANSLATE_REFUSED);
    const cJSON *k;
    int n = 0, translated = 0;
    cJSON_ArrayForEach(k, cJSON_GetObjectItem(r.report, "kernels"))
    {
        n++;
        translated += cJSON_IsTrue(cJSON_GetObjectItem(k, "translated"));
    }
    assert_int_equal(n, 2);
    assert_int_equal(translated, 0);
    assert_null(strstr(r.output, "\nGP_KERNEL(")); /* both are comments */
    gp_translate_result_free(&r);
}

/* h -= x on a half: the dialect stores half as its bits, so compound assignment is refused
 * (computing on the bits would be silently wrong). */
static void compound_assignment_on_half_is_refused(void **state)
{
    (void)state;
    /* cuda_fp16.h's operators on two halves: each the prelude's, rounded to half */
    expect_ok("__global__ void sub(__half *o, const __half *w, int *f) {\n"
              "  int i = threadIdx.x;\n  o[i] -= w[i];\n  __half t = -(o[i] * w[i]) + w[0];\n"
              "  f[i] = t != w[1];\n}\n",
              (const char *[]){"o[i] = gp_half_sub(o[i], w[i]);",
                               "gp_half t = gp_half_add(gp_half_neg(gp_half_mul(o[i], w[i])), "
                               "w[0]);",
                               "f[i] = gp_half_neu(t, w[1]);", NULL});
    /* a half parameter assigned so is copied on entry, as every assigned value parameter */
    expect_ok("__global__ void k(__half *o, __half lr) {\n  lr *= o[0];\n  o[1] = lr;\n}\n",
              (const char *[]){"GP_VAL(gp_half, lr_in))", "gp_half lr = lr_in;",
                               "lr = gp_half_mul(lr, o[0]);", NULL});
    /* a target with side effects would be evaluated twice; a half with a float is C++'s float */
    expect_refused("__global__ void add(__half *o) {\n  int i = 0;\n  o[i++] += o[0];\n}\n", 3,
                   "half arithmetic", "+= on a half");
    expect_refused("__global__ void add(__half *o) {\n  o[threadIdx.x] += 3.0f;\n}\n", 2,
                   "half arithmetic", "+= on a half");
}

/* A helper_math-style overload of a built-in's name for a vector (abs(float2) as its length):
 * the call of it with a vector is that overload, never the built-in, which would compute
 * something else; with a float it stays the built-in. */
static void builtin_named_overload_of_a_vector_is_chosen(void **state)
{
    (void)state;
    expect_ok("__device__ float abs(const float2 a) { return sqrtf(a.x * a.x + a.y * a.y); }\n"
              "__global__ void norm(float *o, const float2 *v, int n) {\n"
              "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
              "  if (i < n) o[i] = abs(v[i]);\n}\n",
              (const char *[]){"o[i] = abs_float2(v[i]);", NULL});
    expect_ok("__device__ float abs(const float2 a) { return sqrtf(a.x * a.x + a.y * a.y); }\n"
              "__global__ void k(float *o) { o[threadIdx.x] = abs(o[threadIdx.x]); }\n",
              (const char *[]){"fabsf(o[", NULL});
}

/* printf becomes gp_printf for every target; in a helper function the report says that Metal's
 * print buffer (below macOS 15) refuses it there. */
static void printf_in_kernels_and_helpers(void **state)
{
    (void)state;
    const char *src = "__device__ void show(int i, float v) { printf(\"%d %f\\n\", i, v); }\n"
                      "__global__ void k(const float *x) {\n"
                      "  printf(\"k %d\\n\", (int)threadIdx.x);\n  show(threadIdx.x, x[0]);\n}\n";
    expect_ok(src,
              (const char *[]){"gp_printf(\"%d %f\\n\", i, v)", "gp_printf(\"k %d\\n\"", NULL});
    gp_translate_result r = run(src, false);
    const cJSON *x;
    int helper = 0, kernel = 0;
    cJSON_ArrayForEach(x, cJSON_GetObjectItem(r.report, "notes"))
    {
        const char *why = gp_json_str(x, "reason", "");
        if (!strcmp(gp_json_str(x, "construct", ""), "printf") && strstr(why, "helper show") &&
            strstr(why, "Metal below macOS 15"))
            helper += (int)cJSON_GetObjectItem(x, "line")->valuedouble == 1;
        kernel += strstr(why, "helper k") != NULL;
    }
    assert_int_equal(helper, 1);
    assert_int_equal(kernel, 0);
    assert_int_equal(cJSON_GetArraySize(cJSON_GetObjectItem(r.report, "refusals")), 0);
    gp_translate_result_free(&r);
}

/* Plain structs: typedefs at the top, bool fields as one byte, sizes evaluated, a variable named
 * after a typedef'd struct's tag; a pointer field leaves the struct out (a note says why). */
static void plain_structs(void **state)
{
    (void)state;
    expect_ok("#define ORDER 4\n"
              "typedef struct knode { int keys[ORDER + 1]; bool is_leaf; } knode;\n"
              "typedef struct latLong { float lat, lng; } LatLong;\n"
              "__global__ void k(const knode *n, const LatLong *d, float *o) {\n"
              "  const LatLong *latLong = d + threadIdx.x;\n"
              "  knode a = n[threadIdx.x];\n"
              "  o[threadIdx.x] = a.is_leaf ? latLong->lat : (float)a.keys[2];\n}\n",
              (const char *[]){"typedef struct knode {", "int keys[5];", "uint8_t is_leaf;",
                               "} knode;", "typedef struct LatLong {", "float lat;", "} LatLong;",
                               "GP_KERNEL(k, GP_CBUF(knode, n), GP_CBUF(LatLong, d)",
                               "GP_GLOBAL const LatLong *latLong = d +", "knode a = n[",
                               "a.is_leaf ? latLong->lat : (float)a.keys[2]", NULL});
    expect_refused(
        "struct P { float *coord; };\n"
        "__global__ void k(P *p, float *o) {\n  o[0] = 1.0f;\n}\n",
        2, "struct",
        "P is a struct left out of the translation (t.cu:1): field coord is a pointer field");
}

/* The C++ kernels commonly use: if constexpr, default arguments, the file's own namespaces. */
static void cxx_in_device_code(void **state)
{
    (void)state;
    expect_ok("namespace util {\n"
              "__device__ float scale(float x, float s = 2.0f) { return x * s; }\n}\n"
              "template <int N> __global__ void k(float *o) {\n"
              "  if constexpr (N > 2) o[0] = util::scale(o[1]);\n"
              "  else o[0] = util::scale(o[1], 3.0f);\n}\n"
              "int main() { k<4><<<1, 1>>>(0); }\n",
              (const char *[]){"GP_FUNC float scale(float x, float s)", "GP_KERNEL(k_4",
                               "if (4 > 2) {", "o[0] = scale(o[1], 2.0f);",
                               "o[0] = scale(o[1], 3.0f);", NULL});
    /* a template kernel whose __launch_bounds__ holds a call-like sizeof(...) keeps its name */
    expect_ok("template <int N>\n__launch_bounds__(N, 2048 / sizeof(float))\n"
              "__global__ void fill(float *o) { o[threadIdx.x] = N; }\n"
              "int main() { fill<64><<<1, 64>>>(0); }\n",
              (const char *[]){"GP_KERNEL(fill_64, GP_BUF(float, o))", NULL});
    /* auto where the type is known exactly; a pointer's (its constness, its space) is not */
    expect_ok("__global__ void k(float *o, int n, const float *x) {\n"
              "  auto i = blockIdx.x * blockDim.x + threadIdx.x;\n"
              "  const auto h = 0.5f * x[i];\n  auto ok = i < n;\n  auto m = n / 2;\n"
              "  if (ok) o[i] = h + m;\n}\n",
              (const char *[]){"unsigned int i = (unsigned)gp_global_id(0);",
                               "const float h = 0.5f * x[i];", "bool ok = i < n;", "int m = n / 2;",
                               NULL});
    /* a pointer's type keeps its pointee's constness; its space is inferred as any local's */
    expect_ok("__global__ void k(float *o, const float *x, int n) {\n"
              "  auto p = x + blockIdx.x * n;\n  auto q = &o[1];\n  const auto *r = o + 2;\n"
              "  auto s = n > 0 ? x : x + 1;\n  o[0] = p[0] + s[0] + r[0];\n  q[0] = 1.0f;\n}\n",
              (const char *[]){"GP_GLOBAL const float *p = x + (unsigned)gp_group_id(0) * n;",
                               "GP_GLOBAL float *q = &o[1];", "GP_GLOBAL const float *r = o + 2;",
                               "GP_GLOBAL const float *s = n > 0 ? x : x + 1;", NULL});
    /* 64-bit arithmetic, literals by suffix and value, the file's functions, math overloads,
     * min/max and vector components */
    expect_ok(
        "__device__ float twice(float v) { return 2.0f * v; }\n"
        "__global__ void k(float *o, unsigned long long *u, double *d, int n, long long m) {\n"
        "  auto i = static_cast<size_t>(blockIdx.x) * blockDim.x + threadIdx.x;\n"
        "  auto a = m * n;\n  auto b = 0xffffffff;\n  auto c = 1ull << 40;\n"
        "  auto e = 3000000000;\n  auto t = twice(o[i]);\n  auto s = sqrt(d[i]);\n"
        "  auto f = sqrt(o[i]);\n  auto g = max(t, 1.0f);\n"
        "  float2 v = make_float2(1.0f, 2.0f);\n  auto h = v.y;\n  auto w = -(short)n;\n"
        "  o[i] = t + f + g + h + w;\n  d[i] = s;\n  u[i] = i + a + b + c + e;\n}\n",
        (const char *[]){"size_t i = (size_t)", "int64_t a = m * n;",
                         "unsigned int b = 0xffffffff;", "uint64_t c = 1ull << 40;",
                         "int64_t e = 3000000000;", "float t = twice(o[i]);",
                         "double s = sqrt(d[i]);", "float f = sqrtf(o[i]);",
                         "float g = ", "float h = v.y;", "int w = -(short)n;", NULL});
    /* auto of a half2 intrinsic's result and of a struct field's element */
    expect_ok("#include <cuda_fp16.h>\nstruct Dims { long long sizes[4]; };\n"
              "__global__ void k(const half2 *a, float *o, Dims d) {\n"
              "  auto v = __hadd2(a[threadIdx.x], a[0]);\n  auto t = __half22float2(v);\n"
              "  auto n = d.sizes[1];\n  o[threadIdx.x] = t.x + t.y + n;\n}\n",
              (const char *[]){"gp_half2 v = gp_half2_add(", "gp_float2 t = gp_half2_to_float2(v);",
                               "int64_t n = d.sizes[1];", NULL});
    /* the cache-hint loads and stores: plain ones; auto of a load is the pointee's type */
    expect_ok("__global__ void k(float *o, const float *a, const float *b, int n) {\n"
              "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
              "  auto x = __ldcs(a + i);\n  float y = __ldcg(&b[i]) + __ldg(b + i);\n"
              "  __stcs(o + i, x + y);\n}\n",
              (const char *[]){"float x = (*(a + i));", "float y = (*&b[i]) + (*(b + i));",
                               "(*(o + i) = (x + y));", NULL});
    /* static_assert in device code: checked when CUDA compiled the file, nothing at run time */
    expect_ok("template <int N> __global__ void k(float *o) {\n"
              "  static_assert(N % 32 == 0, \"a multiple of 32\");\n"
              "  static_assert(sizeof(float) == 4);\n  o[threadIdx.x] = N;\n}\n"
              "int main() { k<64><<<1, 64>>>(0); }\n",
              (const char *[]){"GP_KERNEL(k_64, GP_BUF(float, o))\n{\n    o[", NULL});
    /* a host constant declared auto, from a literal: the literal's type */
    expect_ok("static constexpr auto N = 8;\nconstexpr auto SCALE = 2.5f;\n"
              "__global__ void k(float *o) {\n  float a[N];\n"
              "  for (int i = 0; i < N; i++) a[i] = i * SCALE;\n  o[0] = a[3];\n}\n",
              (const char *[]){"float a[(int)8];", "a[i] = i * (float)2.5f;", NULL});
    /* what auto cannot tell stays refused: a pointer difference, a mixed min */
    expect_refused("__global__ void k(float *o, const float *x) {\n  auto p = &o[2] - x;\n"
                   "  o[0] = p;\n}\n",
                   2, "auto", "write the type");
    expect_refused("__global__ void k(float *o, int n, unsigned u) {\n  auto p = min(n, u);\n"
                   "  o[0] = p;\n}\n",
                   2, "auto", "write the type");
}

/* C++ members of structs: each constructor and device member function becomes a function of its
 * own; what is not lowered is refused where it is used */
static void struct_members(void **state)
{
    (void)state;
    /* __managed__ data: a buffer parameter, as __device__ data, with the host's part said */
    {
        gp_translate_result r = run("__managed__ int counter;\n__managed__ float scale = 2.0f;\n"
                                    "__global__ void k(float *o) {\n  o[threadIdx.x] *= scale;\n"
                                    "  atomicAdd(&counter, 1);\n}\n",
                                    false);
        assert_int_equal(r.status, GP_TRANSLATE_OK);
        assert_non_null(strstr(r.output, "GP_KERNEL(k, GP_BUF(float, o), GP_BUF(int, counter), "
                                         "GP_BUF(float, scale))"));
        char *rep = cJSON_PrintUnformatted(r.report);
        assert_non_null(strstr(rep, "\"kind\":\"__managed__ data\""));
        assert_non_null(strstr(rep, "__managed__ scale is a GP_BUF buffer parameter of k"));
        free(rep);
        gp_translate_result_free(&r);
    }
    /* a class is a struct whose members are private until `public:`; one left out is refused
     * where a variable of it is declared, with the reason */
    expect_ok("class RNG {\npublic:\n  __device__ RNG(unsigned s) : state(s * 747796405u) {}\n"
              "  __device__ unsigned next() { state = state * 1664525u + 1013904223u; "
              "return state; }\nprivate:\n  unsigned state;\n};\n"
              "__global__ void k(unsigned *o) {\n  RNG rng(threadIdx.x);\n"
              "  o[threadIdx.x] = rng.next();\n}\n",
              (const char *const[]){"typedef struct RNG {\n    unsigned int state;\n} RNG;",
                                    "RNG rng = RNG_make((unsigned)gp_local_id(0));",
                                    "o[(unsigned)gp_local_id(0)] = RNG_next(&rng);", NULL});
    expect_refused(
        "class RNG {\npublic:\n  unsigned x;\n  const int mask = 255;\n"
        "  __device__ RNG(unsigned s) : x(s) {}\n};\n"
        "__global__ void k(unsigned *o) {\n  RNG rng(threadIdx.x);\n  o[0] = rng.x;\n}\n",
        8, "struct",
        "RNG is a struct left out of the translation (t.cu:1): has a field "
        "with a default member initialiser");
    expect_ok("struct P {\n  __host__ __device__ P(int a, int b) : y(b), x(a) {}\n"
              "  int x;\n  int y;\n"
              "  __device__ int dot(const P &o) const { return x * o.x + this->y * o.y; }\n"
              "  __device__ void scale(int s) { x *= s; y *= s; }\n"
              "  __device__ void twice() { scale(2); }\n"
              "  __device__ P &self() { return *this; }\n"
              "  bool operator==(const P &o) const { return x == o.x; }\n};\n"
              "__global__ void k(int *o, P *ps) {\n  P a(1, 2);\n  P b = P(3, 4);\n"
              "  P c{5, 6};\n  P d = {7, 8};\n  a.twice();\n  ps[0].twice();\n"
              "  P *q = ps + 1;\n  q->twice();\n  o[0] = a.dot(b) + c.x + d.y;\n}\n",
              (const char *[]){"typedef struct P {", "int x;", "int y;", "} P;",
                               "GP_FUNC P P_make(int a, int b)", "P this_v;", "this_->x = a;",
                               "this_->y = b;", "return this_v;", "P a = P_make(1, 2);",
                               "P b = P_make(3, 4);", "P c = P_make(5, 6);", "P d = P_make(7, 8);",
                               "P_twice(&a);", "(&ps[0]);", "GP_GLOBAL P *q = ps + 1;", "(q);",
                               "P_dot(&a, b)", NULL});
    /* a member returning a reference returns a pointer, read through at the call */
    expect_ok("struct P {\n  int x;\n  __device__ P(int a) : x(a) {}\n"
              "  __device__ P &self() { return *this; }\n};\n"
              "__global__ void k(int *o) {\n  P a(1);\n  o[0] = a.self().x;\n}\n",
              (const char *[]){"GP_FUNC GP_PRIVATE P *P_self(GP_PRIVATE P *this_)",
                               "return &*this_;", "o[0] = (*P_self(&a)).x;", NULL});
    /* const members take a const pointer; a default constructor that does something runs */
    expect_ok("struct A {\n  float s; int n;\n  __device__ A() : s(0.0f), n(0) {}\n"
              "  __device__ float mean() const { return n ? s / n : 0.0f; }\n};\n"
              "__global__ void k(float *o) {\n  A a;\n  o[0] = a.mean();\n}\n",
              (const char *[]){"const A *this_)", "return this_->n ? this_->s / this_->n",
                               "A a = A_make();", "o[0] = A_mean(&a);", NULL});
    /* a field hides file-scope data of its name; a parameter or a local hides the field */
    expect_ok("__constant__ float scale;\n"
              "struct W {\n  float scale;\n  __device__ W(float scale) : scale(scale * 2.0f) {}\n"
              "  __device__ float apply(float v) const { return v * scale; }\n"
              "  __device__ float other(float scale) const { return scale + 1.0f; }\n};\n"
              "__global__ void k(float *o) {\n  W w(3.0f);\n"
              "  o[0] = w.apply(o[1]) + w.other(o[2]) + scale;\n}\n",
              (const char *[]){"this_->scale = scale * 2.0f;", "return v * this_->scale;",
                               "return scale + 1.0f;", NULL});
    /* direct and list initialisation of what has no constructor */
    expect_ok("struct S { int a; float b; };\n"
              "__global__ void k(float *o, int n) {\n  constexpr unsigned int t(4 * 8);\n"
              "  int x(n + 1);\n  float y{2.5f};\n  int z{};\n  float *q{o + 1};\n"
              "  S s{3, 1.5f};\n  S u{};\n  S v(s);\n  int a[3]{1, 2, 3};\n  int b[4]{};\n"
              "  o[0] = t + x + y + z + q[0] + s.a + u.b + v.b + a[2] + b[1];\n}\n",
              (const char *[]){"const unsigned int t = 4 * 8;", "int x = n + 1;", "float y = 2.5f;",
                               "int z = 0;", "GP_GLOBAL float *q = o + 1;", "S s = {3, 1.5f};",
                               "S u = {0};", "S v = s;", "int a[3] = {1, 2, 3};", "int b[4] = {0};",
                               NULL});
    expect_refused("__global__ void k(float *o) {\n  int x(1, 2);\n  o[0] = x;\n}\n", 2, "C++",
                   "several values");
    /* braced lists returned and assigned: a variable of the type holds them */
    expect_ok("struct S { int a; float b; };\n"
              "__device__ S mk(int a) { return {a, 1.0f}; }\n"
              "__device__ int one() { return {1}; }\n"
              "__global__ void k(float *o, int n) {\n  S s;\n  s = {n, 2.0f};\n  int m;\n"
              "  m = {};\n  o[0] = s.a + mk(n).b + m + one();\n}\n",
              (const char *[]){"S braced_ = {a, 1.0f};", "return braced_;", "return 1;",
                               "S braced_ = {n, 2.0f};", "s = braced_;", "m = 0;", NULL});
    /* a braced list passed to one of the file's functions: a variable of the parameter's type
     * first (in a block around a statement, before a declaration); not one that && or ?: might
     * not evaluate */
    expect_ok("struct S { int a; float b; };\n__device__ float f(S s) { return s.b; }\n"
              "__global__ void k(float *o, int n) {\n  o[0] = f({n, 2.0f});\n"
              "  float g = f({1, o[1]}) + f({2, 3.0f});\n  o[1] = g;\n}\n",
              (const char *[]){"    {\n        S braced_4_12 = {n, 2.0f};\n"
                               "        o[0] = f(braced_4_12);\n    }\n",
                               "    S braced_5_15 = {1, o[1]};\n    S braced_5_30 = {2, 3.0f};\n"
                               "    float g = f(braced_5_15) + f(braced_5_30);\n",
                               NULL});
    expect_refused(
        "struct S { int a; float b; };\n__device__ float f(S s) { return s.b; }\n"
        "__global__ void k(float *o, int n) {\n  o[0] = n > 0 && f({n, 2.0f}) > 1.0f;\n}\n",
        4, "brace list", "inside an expression");
    /* a host-only constructor: the struct is plain for device code, but runs nothing there */
    expect_refused("struct H {\n  int v;\n  H() : v(3) {}\n};\n"
                   "__global__ void k(int *o) {\n  H h;\n  o[0] = h.v;\n}\n",
                   6, "constructor", "a host function");
    expect_refused("struct Q {\n  int v;\n  __device__ Q(int a) : v(a) {}\n};\n"
                   "__global__ void k(int *o) {\n  Q q[4];\n  o[0] = q[0].v;\n}\n",
                   6, "constructor", "plain local variables");
    expect_refused("struct R {\n  int v;\n  __device__ R(int a) : v(a) {}\n"
                   "  __device__ int get() const { return v; }\n};\n"
                   "__global__ void k(int *o) {\n  R r(1);\n  o[0] = r.get(2);\n}\n",
                   8, "member function", "taking 1 argument");
    /* an operator member is the free operator taking the struct first (const: by value), each
     * use a call; a subscript operator and default member initialisers keep the struct out */
    expect_ok("struct V {\n  float x;\n  __device__ V operator+(V o) const { V r; r.x = x + "
              "o.x; return r; }\n"
              "  __device__ V &operator+=(float s) { x += s; return *this; }\n};\n"
              "__global__ void k(V *o) {\n  o[0] = o[1] + o[2];\n  o[3] += 2.0f;\n}\n",
              (const char *[]){"GP_FUNC V operator_add_struct_V_struct_V(const V this_r, V o)",
                               "GP_PRIVATE const V *this_ = &this_r;", "r.x = this_->x + o.x;",
                               "o[0] = operator_add_struct_V_struct_V(o[1], o[2]);",
                               "operator_add_assign_struct_Vp_float(&o[3], 2.0f);", NULL});
    /* the subscript operator is a member function (operator_index) */
    expect_ok("struct V {\n  float x[2];\n  __device__ float operator[](int i) const { "
              "return x[i]; }\n};\n"
              "__global__ void k(V *o, float *f) {\n  f[0] = o[1][0];\n}\n",
              (const char *[]){"GP_FUNC float V_operator_index(GP_GLOBAL const V *this_, int i)",
                               "f[0] = V_operator_index(&o[1], 0);", NULL});
    expect_refused("struct V {\n  float x[2];\n  __device__ operator float() const { "
                   "return x[0]; }\n};\n"
                   "__global__ void k(V *o, float *f) {\n  f[0] = o[1].x[1];\n}\n",
                   5, "struct", "device operator member");
    expect_refused("struct D {\n  int n = 4;\n};\n"
                   "__global__ void k(D *o) {\n  D d;\n  o[0] = d;\n}\n",
                   4, "struct", "default member initialiser");
}

/* half is stored as its bits: a cast, a float function and CUDA's implicit conversions convert
 * its value (never its bits); compound arithmetic on a half is refused. */
static void half_converts_values_not_bits(void **state)
{
    (void)state;
    expect_ok("#include <cuda_fp16.h>\n"
              "__device__ float twice(float v) { return 2.0f * v; }\n"
              "__global__ void k(float *o, __half *h, const __half *x) {\n"
              "  o[0] = sqrtf(x[0]) + (float)x[1];\n  h[0] = (__half)(o[1] * 2.0f);\n"
              "  float w = x[2];\n  h[1] = w;\n  o[2] = twice(x[3]);\n}\n",
              (const char *[]){"o[0] = sqrtf(gp_half_to_float(x[0])) + "
                               "(float)gp_half_to_float(x[1]);",
                               "h[0] = gp_float_to_half((float)(o[1] * 2.0f));",
                               "float w = gp_half_to_float(x[2]);",
                               "h[1] = gp_float_to_half((float)(w));",
                               "o[2] = twice(gp_half_to_float(x[3]));", NULL});
    expect_refused("#include <cuda_fp16.h>\n__global__ void k(__half *o, float v) {\n"
                   "  o[0] += v;\n}\n",
                   3, "half arithmetic", "convert");
}

/* A kernel refused before its name is read (a template) is still one of the file's kernels: the
 * report lists all three of a file that holds three, the template one not translated. */
static void template_kernel_is_counted(void **state)
{
    (void)state;
    gp_translate_result r = run("__global__ void a(float *x) { x[threadIdx.x] = 1.0f; }\n"
                                "template <typename T> __global__ void b(T *x) { x[0] = 2; }\n"
                                "__global__ void c(float *x) { x[blockIdx.x] = 3.0f; }\n",
                                false);
    assert_int_equal(r.status, GP_TRANSLATE_REFUSED);
    const cJSON *ks = cJSON_GetObjectItem(r.report, "kernels");
    assert_int_equal(cJSON_GetArraySize(ks), 3);
    const char *names[] = {"a", "b", "c"};
    for (int i = 0; i < 3; i++) {
        const cJSON *k = cJSON_GetArrayItem(ks, i);
        assert_string_equal(gp_json_str(k, "name", ""), names[i]);
        assert_true(cJSON_IsTrue(cJSON_GetObjectItem(k, "translated")) == (i != 1));
    }
    assert_int_equal((int)cJSON_GetObjectItem(cJSON_GetArrayItem(ks, 1), "line")->valuedouble, 2);
    gp_translate_result_free(&r);
}

/* With --simd-width 32: warp shuffles and votes become gp_simd_* (mask and width dropped),
 * warpSize gp_simd_width(), the file says GP_REQUIRES_SIMD_WIDTH(32) and the report says where
 * the kernel runs; what the dialect cannot express is still refused. */
static void warp_intrinsics_with_simd_width(void **state)
{
    (void)state;
    g_simd_width = 32;
    expect_ok("#define FULL 0xffffffff\n"
              "__device__ float sum(float v) {\n"
              "  for (int o = warpSize / 2; o > 0; o /= 2) v += __shfl_down_sync(FULL, v, o);\n"
              "  return v;\n}\n"
              "__global__ void k(float *y, unsigned *b, int n) {\n"
              "  int i = threadIdx.x;\n"
              "  float v = sum(y[i]);\n"
              "  int t = __shfl_xor_sync(~0u, i, 1, 32) + __shfl_up_sync(-1, i, 2, warpSize);\n"
              "  b[i] = __ballot_sync(0xFFFFFFFFu, v > 0.0f) + __any_sync(FULL, t) + "
              "__all_sync(FULL, i < n) + __shfl_sync(FULL, 3u, 4);\n"
              "  y[i] = v;\n}\n",
              (const char *[]){"GP_REQUIRES_SIMD_WIDTH(32)\n", "#define FULL 0xffffffff",
                               "o = gp_simd_width() / 2", "v += gp_simd_shuffle_down(v, o);",
                               "int t = gp_simd_shuffle_xor(i, 1) + gp_simd_shuffle_up(i, 2);",
                               "b[i] = gp_simd_ballot(v > 0.0f) + gp_simd_any(t) + "
                               "gp_simd_all(i < n) + gp_simd_shuffle(3u, 4);",
                               NULL});
    gp_translate_result r = run("__global__ void k(int *o) {\n"
                                "  o[0] = __ballot_sync(0xffffffff, o[0]);\n}\n"
                                "__global__ void plain(int *o) { o[0] = 1; }\n",
                                false);
    assert_int_equal(r.status, GP_TRANSLATE_OK);
    const cJSON *k = cJSON_GetArrayItem(cJSON_GetObjectItem(r.report, "kernels"), 0);
    const cJSON *t = cJSON_GetObjectItem(k, "targets");
    assert_true(cJSON_IsTrue(cJSON_GetObjectItem(k, "simd")));
    /* nothing built (no verify): eligible targets are not claimed, OpenCL is none */
    assert_true(cJSON_IsNull(cJSON_GetObjectItem(t, "cuda")));
    assert_true(cJSON_IsNull(cJSON_GetObjectItem(t, "metal")));
    assert_true(cJSON_IsNull(cJSON_GetObjectItem(t, "cpu")));
    assert_true(cJSON_IsFalse(cJSON_GetObjectItem(t, "opencl")));
    assert_non_null(strstr(gp_json_str(cJSON_GetObjectItem(t, "conditions"), "opencl", ""),
                           "no SIMD-group operations"));
    k = cJSON_GetArrayItem(cJSON_GetObjectItem(r.report, "kernels"), 1);
    assert_true(cJSON_IsFalse(cJSON_GetObjectItem(k, "simd")));
    assert_true(cJSON_IsNull(cJSON_GetObjectItem(cJSON_GetObjectItem(k, "targets"), "opencl")));
    gp_translate_result_free(&r);
    /* warpSize alone assumes 32 lanes too; full masks spelled with parentheses and casts */
    expect_ok("#define FULL_MASK (0xffffffffu)\n"
              "__global__ void k(int *o) {\n  o[threadIdx.x] = threadIdx.x % warpSize;\n"
              "  o[0] = __shfl_sync(FULL_MASK, o[0], 1) + __any_sync((unsigned)-1, o[1]) +\n"
              "         __all_sync((unsigned int)~0, o[2]);\n}\n",
              (const char *[]){"GP_REQUIRES_SIMD_WIDTH(32)\n", "% gp_simd_width()",
                               "gp_simd_shuffle(o[0], 1) + gp_simd_any(o[1]) + gp_simd_all(o[2])",
                               NULL});
    r = run("__global__ void k(int *o) { o[0] = warpSize; }\n", false);
    k = cJSON_GetArrayItem(cJSON_GetObjectItem(r.report, "kernels"), 0);
    assert_true(cJSON_IsTrue(cJSON_GetObjectItem(k, "simd")));
    assert_true(cJSON_IsFalse(cJSON_GetObjectItem(cJSON_GetObjectItem(k, "targets"), "opencl")));
    assert_non_null(strstr(r.output, "GP_REQUIRES_SIMD_WIDTH(32)"));
    gp_translate_result_free(&r);
    /* no warp intrinsic, no requirement line */
    r = run("__global__ void k(int *o) { o[0] = 1; }\n", false);
    assert_null(strstr(r.output, "GP_REQUIRES_SIMD_WIDTH"));
    gp_translate_result_free(&r);

    expect_refused("__global__ void k(int *o) {\n  o[0] = __shfl_sync(0xffff, o[0], 0);\n}\n", 2,
                   "partial warp mask", "full mask 0xffffffff");
    expect_refused("__global__ void k(int *o, unsigned m) {\n"
                   "  o[0] = __any_sync(m, o[0]);\n}\n",
                   2, "partial warp mask", "every lane");
    /* a width below 32: a helper keeping CUDA's segments of 16 lanes */
    expect_ok("__global__ void k(int *o) {\n"
              "  o[0] = __shfl_down_sync(0xffffffff, o[0], 1, 16);\n}\n",
              (const char *const[]){"int warp_shfl_down_width_int(unsigned int shfl_mask_, "
                                    "int shfl_v_, unsigned int shfl_d_, unsigned int shfl_w_",
                                    "int shfl_r_ = gp_simd_shuffle_down(shfl_v_, shfl_d_);",
                                    "+ shfl_d_ < shfl_w_ ? shfl_r_ : shfl_v_;",
                                    "o[0] = warp_shfl_down_width_int(0xffffffff, o[0], 1, 16",
                                    NULL});
    /* ... where the value is a 32-bit one */
    expect_refused("__global__ void k(double *o) {\n"
                   "  o[0] = __shfl_down_sync(0xffffffff, o[0], 1, 16);\n}\n",
                   2, "sub-warp width", "other than 32");
    expect_refused("__global__ void k(double *o) {\n"
                   "  o[0] = __shfl_xor_sync(0xffffffff, o[0], 1);\n}\n",
                   2, "64-bit or vector shuffle", "32-bit");
    expect_refused("__global__ void k(int *o) {\n  o[0] = __shfl_xor_sync(0xffffffff, o[0]);\n}\n",
                   2, "call", "takes 3 or 4 arguments");
    expect_refused("__global__ void k(int *o) {\n  o[0] = __shfl_down(o[0], 1);\n}\n", 2,
                   "warp shuffle", "_sync form");
    expect_refused("__global__ void k(int *o) {\n  o[0] = __activemask();\n}\n", 2, "warp vote",
                   "full mask");
    expect_refused("__global__ void k(int *o) {\n  __syncwarp(0xffff);\n}\n", 2,
                   "partial warp mask", "full mask");
    expect_refused("__global__ void k(int *o) {\n  __match_any_sync(0xffffffff, o[0]);\n}\n", 2,
                   "warp match", "__syncwarp with the full mask");
    expect_ok("__global__ void k(int *o) {\n  __shared__ int s[32];\n  if (threadIdx.x < 32) {\n"
              "    s[threadIdx.x] = 1;\n    __syncwarp();\n    o[threadIdx.x] = s[0];\n"
              "    __syncwarp(0xffffffff);\n  }\n}\n",
              (const char *[]){"GP_REQUIRES_SIMD_WIDTH(32)", "s[(unsigned)gp_local_id(0)] = 1;",
                               "gp_simd_barrier();", "o[(unsigned)gp_local_id(0)] = s[0];",
                               "gp_simd_barrier();", NULL});
    g_simd_width = 0;
}

static void bad_input_is_an_error(void **state)
{
    (void)state;
    const char *const cases[][2] = {
        {"__global__ void k(int *o) { o[0] = 1;\n", "unbalanced braces"},
        {"/* never closed\n__global__ void k() {}\n", "unterminated comment"},
        {"#if 1\n__global__ void k(int *o) { o[0] = 1; }\n", "#if without #endif"},
        {"#error stop here\n", "#error stop here"},
        {"#define F(a, b) a\n__global__ void k(int *o) { o[0] = F(1); }\n", "takes 2 arguments"},
        {"__global__ void k(int *o) { o[0] = '\\x01\n; }\n", "unterminated character"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        gp_translate_result r = run(cases[i][0], false);
        if (r.status != GP_TRANSLATE_BAD_INPUT || !strstr(r.error, cases[i][1]) ||
            !strstr(r.error, "t.cu:"))
            fail_msg("case %zu: status %d, error '%s', want '%s'", i, r.status,
                     r.error ? r.error : "", cases[i][1]);
        assert_null(r.output);
        gp_translate_result_free(&r);
    }
}

/* A project header that did not come with the file is not an error: what uses it is refused,
 * naming the header; the rest translates. */
static void missing_header(void **state)
{
    (void)state;
    static const char src[] = "#include \"common.h\"\n"
                              "__global__ void k(float *o, int n) { o[CEIL_DIV(n, 2)] = 1; }\n"
                              "__global__ void fine(float *o) { o[0] = 1; }\n";
    expect_refused(src, 2, "unknown function", "\"common.h\", which was not found");
    gp_translate_result r = run(src, true);
    assert_non_null(strstr(r.output, "GP_KERNEL(fine, GP_BUF(float, o))"));
    const cJSON *n = cJSON_GetArrayItem(cJSON_GetObjectItem(r.report, "notes"), 0);
    assert_string_equal(gp_json_str(n, "construct", ""), "missing header");
    gp_translate_result_free(&r);
}

/* __constant__ data the host fills and __device__ data become buffer parameters, after the
 * kernel's own, passed down to helpers; the report names the change to the host code. */
static void host_filled_data_becomes_buffers(void **state)
{
    (void)state;
    const char *src = "__constant__ float c_k[5];\n"
                      "__constant__ float c_m[2][3];\n"
                      "__constant__ float c_init[2] = {1.0f, 2.0f};\n"
                      "__device__ int counter;\n"
                      "__device__ float tap(int i) { return c_k[i] + c_m[1][i % 3]; }\n"
                      "__global__ void k(float *o) {\n"
                      "  o[threadIdx.x] = tap(threadIdx.x % 5) + c_init[1];\n"
                      "  atomicAdd(&counter, 1);\n}\n"
                      "void host(const float *h) { cudaMemcpyToSymbol(c_k, h, 20); }\n";
    expect_ok(src, (const char *[]){"GP_CONSTANT_DECL float c_init[2] = {1.0f, 2.0f};",
                                    "GP_FUNC float tap(int i, GP_GLOBAL const float *c_k, "
                                    "GP_GLOBAL const float *c_m)",
                                    "return c_k[i] + c_m[(1) * (3) + (i % 3)];",
                                    "GP_KERNEL(k, GP_BUF(float, o), GP_CBUF(float, c_k), "
                                    "GP_CBUF(float, c_m), GP_BUF(int, counter))",
                                    "gp_atomic_add(&counter[0], 1);", NULL});
    gp_translate_result r = run(src, false);
    const cJSON *h = cJSON_GetObjectItem(r.report, "host_changes");
    assert_int_equal(cJSON_GetArraySize(h), 3);
    assert_non_null(
        strstr(gp_json_str(cJSON_GetArrayItem(h, 0), "host_change", ""), "gp_buffer_write"));
    gp_translate_result_free(&r);
    expect_refused(
        "__constant__ float c_m[2][3];\n__device__ float f(const float *r) { return r[0]; }\n"
        "__global__ void k(float *o) {\n  o[0] = f(c_m[1]);\n}\n",
        4, "array row", "index file-scope arrays fully");
}

/* Cooperative groups at block and tile level become barriers, indices and SIMD-group
 * operations; grid-wide and multi-grid groups are refused by name. */
static void cooperative_groups(void **state)
{
    (void)state;
    const char *block =
        "#include <cooperative_groups.h>\nnamespace cg = cooperative_groups;\n"
        "__global__ void k(float *o) {\n"
        "  cg::thread_block b = cg::this_thread_block();\n"
        "  __shared__ float s[64];\n"
        "  s[b.thread_rank()] = o[b.group_index().x * b.size() + b.thread_index().x];\n"
        "  b.sync();\n  cg::sync(b);\n"
        "  o[b.thread_rank()] = s[63 - b.thread_rank()] + b.group_dim().x;\n}\n";
    expect_ok(block, (const char *[]){"GP_SHARED_DECL float s[64];",
                                      "o[(unsigned)gp_group_id(0) * ((unsigned)gp_local_size(0) * "
                                      "(unsigned)gp_local_size(1) * (unsigned)gp_local_size(2)) + "
                                      "(unsigned)gp_local_id(0)]",
                                      "gp_barrier();\n    gp_barrier();",
                                      "+ (unsigned)gp_local_size(0);", NULL});
    const char *tile =
        "#include <cooperative_groups.h>\n#include <cooperative_groups/reduce.h>\n"
        "namespace cg = cooperative_groups;\n"
        "__device__ float total(const cg::thread_block_tile<32> &w, float v) {\n"
        "  return cg::reduce(w, v, cg::plus<float>());\n}\n"
        "__global__ void k(float *o, unsigned *b) {\n"
        "  auto w = cg::tiled_partition<32>(cg::this_thread_block());\n"
        "  float v = o[threadIdx.x];\n"
        "  float d = w.shfl_down(v, 1) + w.shfl_xor(v, 2) + w.shfl(v, 0) + "
        "w.shfl_up(v, 3);\n"
        "  b[threadIdx.x] = w.ballot(v > 0.0f) + w.any(v < 0.0f) + w.all(v != 0.0f);\n"
        "  o[threadIdx.x] = total(w, d) + cg::reduce(w, v, cg::greater<float>{}) + "
        "cg::reduce(w, v, cg::less<float>()) + w.thread_rank() + w.meta_group_rank();\n"
        "  w.sync();\n}\n";
    g_simd_width = 32;
    expect_ok(tile,
              (const char *[]){
                  "GP_REQUIRES_SIMD_WIDTH(32)", "GP_FUNC float cg_reduce_plus_float_32(float v)",
                  "o = gp_simd_shuffle_xor(v, m);", "v = v + o;", "GP_FUNC float total(float v)",
                  "gp_simd_shuffle_down(v, 1) + gp_simd_shuffle_xor(v, 2) + "
                  "gp_simd_shuffle(v, 0) + gp_simd_shuffle_up(v, 3)",
                  "gp_simd_ballot(v > 0.0f) + gp_simd_any(v < 0.0f) + "
                  "gp_simd_all(v != 0.0f)",
                  "total(d) + cg_reduce_greater_float_32(v) + cg_reduce_less_float_32(v)",
                  "gp_simd_barrier();", NULL});
    /* a tile narrower than a warp shuffles within its segment */
    expect_ok("#include <cooperative_groups.h>\nusing namespace cooperative_groups;\n"
              "__global__ void k(int *o) {\n"
              "  thread_block_tile<8> t = tiled_partition<8>(this_thread_block());\n"
              "  o[threadIdx.x] = t.shfl_down(o[threadIdx.x], 2) + t.any(o[0] > 0);\n}\n",
              (const char *[]){"GP_FUNC int cg_tile_shfl_down_int_8(int v, unsigned int d",
                               "& 7u) + d < 8u ? r : v;", "gp_simd_ballot(o[0] > 0) >>", NULL});
    /* one SIMD kernel keeps the whole file from OpenCL (the runtime builds files whole) */
    gp_translate_result mixed =
        run("__global__ void plain(int *o) { o[0] = 1; }\n"
            "__global__ void vote(int *o) { o[0] = __any_sync(~0u, o[1]); }\n",
            false);
    const cJSON *whole = cJSON_GetObjectItem(mixed.report, "output_targets");
    assert_true(cJSON_IsFalse(cJSON_GetObjectItem(whole, "opencl")));
    assert_true(cJSON_IsNull(cJSON_GetObjectItem(whole, "cpu"))); /* not built: not claimed */
    assert_non_null(strstr(gp_json_str(cJSON_GetObjectItem(whole, "why_not"), "opencl", ""),
                           "kernel vote uses SIMD-group operations"));
    gp_translate_result_free(&mixed);
    g_simd_width = 0;
    /* the warp-level ones need --simd-width 32, and say which construct needed it */
    expect_refused(tile, 10, "warp shuffle", "thread_block_tile::shfl_down");
    expect_refused(
        "#include <cooperative_groups.h>\n#include <cassert>\n"
        "__global__ void k(float *o, int n) {\n"
        "  namespace cg = cooperative_groups;\n  assert(n % 4 == 0);\n"
        "  cg::thread_block_tile<32> w = cg::tiled_partition<32>(cg::this_thread_block());\n"
        "  o[0] = cg::reduce(w, o[1], cg::plus<float>{});\n}\n",
        7, "warp shuffle", "cg::reduce over a thread_block_tile");
    /* a device-side assert: CUDA's message printed where it fails (its condition as written, a
     * string joined by && left out of the test), or nothing under NDEBUG (as nvcc -DNDEBUG
     * compiles it); inside an expression, refused */
    static const char asserting[] = "#include <assert.h>\n"
                                    "__global__ void k(int *o, int n) {\n"
                                    "  assert(n % 4 == 0);\n  o[0] = n;\n}\n";
    expect_ok(asserting, (const char *const[]){
                             "    if (!(n % 4 == 0)) {\n        gp_printf(\"t.cu:3: k: block: "
                             "[%u,%u,%u], thread: [%u,%u,%u] Assertion `n %% 4 == 0` failed.\\n\", "
                             "(unsigned)gp_group_id(0), (unsigned)gp_group_id(1), "
                             "(unsigned)gp_group_id(2), (unsigned)gp_local_id(0), "
                             "(unsigned)gp_local_id(1), (unsigned)gp_local_id(2));\n    }\n",
                             NULL});
    expect_ok(
        "#include <cassert>\n__device__ int f(int i) {\n"
        "  assert(\"positive\" && i>0 && \"really\");\n  return i;\n}\n"
        "__global__ void k(int *o) {\n  if (o[0] < 0) assert(!\"unreachable\");\n"
        "  o[1] = f(o[2]);\n}\n",
        (const char *const[]){"if (!(i > 0)) {\n        gp_printf(\"t.cu:3: f: block: [%u,%u,%u], "
                              "thread: [%u,%u,%u] Assertion `\\\"positive\\\" && i>0 && "
                              "\\\"really\\\"` failed.\\n\"",
                              NULL});
    expect_ok(
        "#include <cassert>\n__global__ void k(int *o) {\n"
        "  if (o[0] < 0) assert(!\"unreachable\");\n}\n",
        (const char *const[]){"    if (o[0] < 0) {\n        gp_printf(\"t.cu:3: k: block: "
                              "[%u,%u,%u], thread: [%u,%u,%u] Assertion `!\\\"unreachable\\\"` "
                              "failed.\\n\"",
                              NULL});
    expect_refused("#include <cassert>\n__global__ void k(int *o, int n) {\n"
                   "  o[0] = (assert(n > 0), n);\n}\n",
                   3, "assert", "write it as a statement");
    /* T{a, b}: a typed braced list where a whole value is (returned, assigned, initialising,
     * kept by auto); a scalar's is a conversion; inside an expression, refused */
    static const char typed_lists[] =
        "struct P { float s, o; };\n"
        "__device__ P mk(float a) { return P{a, 1.0f}; }\n"
        "__global__ void k(float *x) {\n"
        "  auto p = P{2.0f, x[0]};\n  p = P{p.s, float{3}};\n  float4 v = float4{1, 2, 3, 4};\n"
        "  x[1] = mk(p.o).s + v.w + int{};\n}\n";
    expect_ok(typed_lists,
              (const char *const[]){
                  "    {\n        P braced_ = {a, 1.0f};\n        return braced_;",
                  "    P p = {2.0f, x[0]};\n",
                  "    {\n        P braced_ = {p.s, (float)3};\n        p = braced_;",
                  "    gp_float4 v = {1, 2, 3, 4};\n", "x[1] = mk(p.o).s + v.w + (int)0;", NULL});
    expect_ok("struct P { float s, o; };\n__device__ float f(P p) { return p.s; }\n"
              "__global__ void k(float *x) {\n  x[0] = f(P{1.0f, 2.0f});\n}\n",
              (const char *[]){"P braced_4_13 = {1.0f, 2.0f};", "x[0] = f(braced_4_13);", NULL});
    expect_refused(
        "struct P { float s, o; };\n__device__ float f(P p) { return p.s; }\n"
        "__global__ void k(float *x) {\n  x[0] = x[1] > 0 ? f(P{1.0f, 2.0f}) : 0.0f;\n}\n",
        4, "brace list", "give it a variable of its type");
    /* class templates: one struct per argument list, named after it; S<T> inside S is the
     * instance; a member of an instance's field; what keeps an instance out, at the use */
    expect_ok("template <typename T, int N> struct Vec {\n  T v[N];\n"
              "  __device__ T first() const { return v[0]; }\n};\n"
              "template <class T> struct Box { T in; };\n"
              "__global__ void k(float *x) {\n  Vec<float, 3> a;\n  a.v[0] = x[0];\n"
              "  Box<Vec<float, 3>> b{};\n  x[1] = a.first() + b.in.first();\n}\n",
              (const char *const[]){"typedef struct Vec_float_3 {\n    float v[3];\n} Vec_float_3;",
                                    "typedef struct Box_Vec_float_3 {\n    Vec_float_3 in;",
                                    "GP_FUNC float Vec_float_3_first(GP_PRIVATE const Vec_float_3 "
                                    "*this_)",
                                    "x[1] = Vec_float_3_first(&a) + Vec_float_3_first(&b.in);",
                                    NULL});
    expect_refused("template <typename T> struct View { T *data; int n; };\n"
                   "__global__ void k(View<float> v) {\n  v.data[0] = 1.0f;\n}\n",
                   2, "class template",
                   "View<...> (line 1) is not translated: field data is a pointer");
    expect_refused("template <typename T> struct P { T a; };\n"
                   "__global__ void k(float *x) {\n  P<float, 2> p;\n  x[0] = p.a;\n}\n",
                   3, "template", "P takes 1 template argument, given 2");
    const char *ndebug[] = {"NDEBUG"};
    gp_translate_options o = {0};
    o.defines = ndebug;
    o.ndefines = 1;
    gp_translate_result r;
    gp_translate("t.cu", asserting, strlen(asserting), &o, &r);
    assert_int_equal(r.status, GP_TRANSLATE_OK);
    assert_non_null(strstr(r.output, "(void)0;\n    o[0] = n;"));
    gp_translate_result_free(&r);
    expect_refused("#include <cooperative_groups.h>\nnamespace cg = cooperative_groups;\n"
                   "__global__ void k(int *o) {\n  cg::grid_group g = cg::this_grid();\n"
                   "  g.sync();\n}\n",
                   4, "grid-wide synchronisation", "grid_group");
    expect_refused("#include <cooperative_groups.h>\nnamespace cg = cooperative_groups;\n"
                   "__global__ void k(int *o) {\n  auto g = cg::this_multi_grid();\n}\n",
                   4, "multi-grid group", "multi-device");
    expect_refused("#include <cooperative_groups.h>\nnamespace cg = cooperative_groups;\n"
                   "__global__ void k(int *o) {\n  auto g = cg::coalesced_threads();\n}\n",
                   4, "coalesced group", "lane masks");
}

/* Templates: instantiated with what the file gives them. */
static void templates_instantiated(void **state)
{
    (void)state;
    expect_ok(
        "template <typename T, int BS = 64>\n"
        "__global__ void scale(T *y, T a) { y[blockIdx.x * BS + threadIdx.x] *= a; }\n"
        "template __global__ void scale<float, 128>(float *, float);\n"
        "template <typename T> __device__ T twice(T v) { return v + v; }\n"
        "__global__ void use(int *o, float *f) { o[0] = twice(o[1]); f[0] = twice<float>(f[1]); }\n"
        "template <class T> void host_launch(T *p) { scale<T><<<1, 64>>>(p, (T)2); }\n"
        "template void host_launch<int>(int *);\n"
        "int main() { const int threads = 32; float *d; scale<float, threads><<<1, 32>>>(d, 1.0f); "
        "}\n",
        (const char *[]){"GP_FUNC int twice_int(int v)", "GP_FUNC float twice_float(float v)",
                         "GP_KERNEL(scale_float_128, GP_BUF(float, y), GP_VAL(float, a))",
                         "(unsigned)gp_group_id(0) * 128",
                         "GP_KERNEL(use, GP_BUF(int, o), GP_BUF(float, f))",
                         "o[0] = twice_int(o[1]);", "f[0] = twice_float(f[1]);",
                         "GP_KERNEL(scale_int_64", "GP_KERNEL(scale_float_32", NULL});
    gp_translate_result r = run("template <unsigned N> __global__ void k(int *o) { o[0] = N; }\n"
                                "void f(int *p) { k<8u><<<1, 1>>>(p); }\n",
                                false);
    const cJSON *k = cJSON_GetArrayItem(cJSON_GetObjectItem(r.report, "kernels"), 0);
    assert_string_equal(gp_json_str(k, "name", ""), "k_8u");
    assert_string_equal(gp_json_str(k, "template", ""), "k<8u>");
    gp_translate_result_free(&r);
    /* a host constant computed from others and from kept macros */
    r = run("#define BLOCK 256\nconst int kWarps = BLOCK / 32;\n"
            "constexpr int kThreads = kWarps * 32 + (1'000 - 1'000);\n"
            "template <int N> __global__ void k(int *o) { o[0] = N; }\n"
            "void f(int *p) { k<kThreads><<<1, 1>>>(p); }\n",
            false);
    k = cJSON_GetArrayItem(cJSON_GetObjectItem(r.report, "kernels"), 0);
    assert_string_equal(gp_json_str(k, "name", ""), "k_256");
    gp_translate_result_free(&r);
    /* a later declarator of a constant declaration (`const int a = 64, b = a * 2;`) */
    r = run("template <int N> __global__ void k(int *o) { o[0] = N; }\n"
            "void f(int *p) {\n  const int width = 64, height = width * 2;\n"
            "  int other = 3, wide = 4;\n  k<height><<<1, 1>>>(p);\n}\n",
            false);
    k = cJSON_GetArrayItem(cJSON_GetObjectItem(r.report, "kernels"), 0);
    assert_string_equal(gp_json_str(k, "name", ""), "k_128");
    gp_translate_result_free(&r);
    /* launches and host template calls that name no arguments: deduced from the declarations
     * of the host variables passed, through host templates called from main */
    expect_ok("template <typename T> __global__ void dot(const T *__restrict__ a, T *out, "
              "size_t n) { out[0] = a[n]; }\n"
              "template <typename T> __global__ void fill(T *o, T v) { o[threadIdx.x] = v; }\n"
              "template <typename T> void launch(const T *in, T *out, int n) {\n"
              "  dot<<<1, 32>>>(in, out, n / 4);\n}\n"
              "template <typename T> void run(int n) {\n  T *d_a, *d_b;\n"
              "  launch(d_a, d_b, n);\n  T v = 1;\n  fill<<<1, n>>>(d_a, v);\n}\n"
              "int main() { run<float>(64); run<int>(8);\n"
              "  double *x; unsigned int *u; fill<<<2, 4>>>(x, 2.0); dot<<<1, 1>>>(u, u, 1); }\n",
              (const char *[]){"GP_KERNEL(dot_float, GP_CBUF(float, a)", "GP_KERNEL(fill_float,",
                               "GP_KERNEL(dot_int,", "GP_KERNEL(fill_int,",
                               "GP_KERNEL(fill_double,", "GP_KERNEL(dot_unsigned_int,", NULL});
    /* literals deduce their own types (`1` int, `0.5f` float, `2u` unsigned int, `1.0` double);
     * explicit leading arguments with the rest deduced from the launch */
    expect_ok("template <typename T, typename S> __global__ void axpy(int n, T *o, S a, S b) "
              "{ o[0] = (T)(a * b); }\n"
              "template <int BS, typename P> __global__ void paths(P *o, int n) { o[0] = BS; }\n"
              "template <typename T> void eval(int n) {\n  T *d_o;\n"
              "  axpy<<<1, 32>>>(n, d_o, 1, 1);\n  axpy<<<1, 32>>>(n, d_o, 0.5f, -2.0f);\n"
              "  axpy<<<1, 32>>>(n, d_o, 2u, 0x10u);\n  axpy<<<1, 32>>>(n, d_o, -1.0, 3.0);\n}\n"
              "int main() { eval<float>(64); double *p; paths<128><<<1, 128>>>(p, 4); }\n",
              (const char *[]){"GP_KERNEL(axpy_float_int,", "GP_KERNEL(axpy_float_float,",
                               "GP_KERNEL(axpy_float_unsigned_int,", "GP_KERNEL(axpy_float_double,",
                               "GP_KERNEL(paths_128_double, GP_BUF(double, o)", NULL});
    /* through three host templates, defined callers first, beside host templates that launch
     * nothing (only the ones that lead to a launch are followed) */
    expect_ok("template <typename T> __global__ void k(T *o) { o[0] = (T)1; }\n"
              "template <typename T> T noise(T x) { return x * x; }\n"
              "template <typename T> void outer(T *p) { noise(*p); mid(p); }\n"
              "template <typename T> void mid(T *p) { inner(p); }\n"
              "template <typename T> void inner(T *p) { k<<<1, 1>>>(p); }\n"
              "int main() { short *s; outer(s); float f = noise(2.0f); }\n",
              (const char *[]){"GP_KERNEL(k_short, GP_BUF(short, o))", NULL});
    /* the standard library's constants, read once the template arguments are in place */
    expect_ok(
        "typedef float real;\n"
        "template <typename T> __global__ void k(T *o, int n) {\n"
        "  T m = std::numeric_limits<T>::lowest();\n"
        "  if (std::is_same_v<T, real>) o[0] = m + std::numeric_limits<real>::epsilon();\n"
        "  if (std::is_same<T, unsigned>::value) o[1] = std::numeric_limits<unsigned int>::max();\n"
        "  o[2] = std::numeric_limits<T>::infinity() + std::numeric_limits<short>::min();\n}\n"
        "int main() { float *f; k<<<1, 1>>>(f, 4); unsigned *u; k<<<1, 1>>>(u, 4); }\n",
        (const char *[]){"GP_KERNEL(k_float,", "float m = (-3.402823466e+38f);",
                         "if (1) {\n        o[0] = m + 1.192092896e-07f;",
                         "if (0) {\n        o[1] = 4294967295u;",
                         "o[2] = (1.0f / 0.0f) + (-32767 - 1);", "GP_KERNEL(k_unsigned,",
                         "unsigned int m = 0u;", "if (1) {\n        o[1] = 4294967295u;", NULL});
    /* a device function as a template argument; a host template declared before it is defined */
    expect_ok(
        "__device__ float twice(float x) { return 2.0f * x; }\n"
        "template <float (*op)(float)> __global__ void apply(float *o) { o[0] = op(o[1]); }\n"
        "template <class T> void run(T *p);\n"
        "int main() { float *d; run<float>(d); }\n"
        "template <class T> void run(T *p) { apply<twice><<<1, 1>>>(p); }\n",
        (const char *[]){"GP_KERNEL(apply_twice, GP_BUF(float, o))", "o[0] = twice(o[1]);", NULL});
    /* a struct pointer as a deduced type argument */
    expect_ok("struct Pt { float x; float y; };\n"
              "template <class P> __device__ float gx(P p, int i) { return p[i].x; }\n"
              "__global__ void k(float *o, struct Pt *pts) { o[0] = gx(pts, 1); }\n",
              (const char *[]){"GP_FUNC float gx_struct_Ptp(GP_GLOBAL Pt *p, int i)",
                               "o[0] = gx_struct_Ptp(pts, 1);", NULL});
    /* device function templates overloaded by their number of parameters */
    expect_ok("template <int N> __device__ int f(int a, int b) { return a * N + b; }\n"
              "template <int N> __device__ int f(int a) { return f<N>(a, 1); }\n"
              "__global__ void k(int *o) { o[0] = f<2>(o[1]) + f<3>(o[2], o[3]); }\n",
              (const char *[]){"GP_FUNC int f_2(int a, int b)", "GP_FUNC int f_1args_2(int a)",
                               "return f_2(a, 1);", "GP_FUNC int f_3(int a, int b)",
                               "o[0] = f_1args_2(o[1]) + f_3(o[2], o[3]);", NULL});
    /* enumerators as template arguments, qualified or not: their values */
    expect_ok(
        "enum class Mode { Plain, Scaled = 4, Shifted };\nenum Other { Zero };\n"
        "template <typename T, int M> __global__ void k(T *o) { o[0] = M; }\n"
        "void f(float *p) { k<float, Mode::Shifted><<<1, 1>>>(p); k<float, Zero><<<1, 1>>>(p); }\n",
        (const char *[]){"GP_KERNEL(k_float_5, GP_BUF(float, o))", "o[0] = 5;",
                         "GP_KERNEL(k_float_0,", NULL});
    /* a pointer returned: where it points, as its clone's arguments say */
    expect_ok("template <typename T> __device__ T id(T v) { return v; }\n"
              "__global__ void k(int *o) {\n  o[0] = id(o[0] + 1.0f * 0 + o[1] * o[1] > 2);\n"
              "  int *p = id(o + 2);\n  p[1] = 3;\n}\n",
              (const char *[]){"GP_FUNC int id_int(int v)",
                               "GP_FUNC GP_GLOBAL int *id_intp(GP_GLOBAL int *v)",
                               "GP_GLOBAL int *p = id_intp(o + 2);", NULL});
}

/* A device function taking a thread_group is made for each group its calls pass. */
static void group_functions(void **state)
{
    (void)state;
    g_simd_width = 32;
    expect_ok("#include <cooperative_groups.h>\nnamespace cg = cooperative_groups;\n"
              "__device__ int rank_of(cg::thread_group g, int x) { g.sync(); return "
              "g.thread_rank() + x; }\n"
              "__global__ void k(int *o) {\n  cg::thread_block b = cg::this_thread_block();\n"
              "  cg::thread_block_tile<8> t = cg::tiled_partition<8>(b);\n"
              "  o[0] = rank_of(b, 1) + rank_of(t, 2) + rank_of(t, 3);\n}\n",
              (const char *[]){"GP_FUNC int rank_of_thread_block(int x",
                               "GP_FUNC int rank_of_thread_block_tile8(int x",
                               "o[0] = rank_of_thread_block(1", "+ rank_of_thread_block_tile8(2",
                               "+ rank_of_thread_block_tile8(3", NULL});
    g_simd_width = 0;
}

/* CUB's block reductions and scans: a shared array per TempStorage, a helper per operation. */
static void cub_block_collectives(void **state)
{
    (void)state;
    /* a one-dimensional block's reduction and a 32 x 2 block's scan (in one kernel the
     * reduction's rank, threadIdx.x alone, would be one location for two work-items) */
    expect_ok("#include <cub/cub.cuh>\n#define THREADS 64\n"
              "__global__ void k(float *o) {\n"
              "  typedef cub::BlockReduce<float, THREADS> BR;\n"
              "  __shared__ typename BR::TempStorage ts;\n"
              "  float m = BR(ts).Reduce(o[threadIdx.x], cub::Max(), 10);\n"
              "  o[threadIdx.x] = m + BR(ts).Sum(2.0f);\n}\n"
              "__global__ void k2(int *c) {\n"
              "  using BS = cub::BlockScan<int, 32, cub::BLOCK_SCAN_RAKING, 2>;\n"
              "  __shared__ typename BS::TempStorage ss;\n"
              "  int x, all;\n  BS(ss).ExclusiveSum(c[threadIdx.x], x, all);\n"
              "  c[threadIdx.x] = x + all;\n}\n",
              (const char *[]){
                  "GP_FUNC float cub_block_reduce_max_float_64(GP_SHARED float *s, "
                  "float v, int valid",
                  "s[t] = a < b ? b : a;", "GP_FUNC float cub_block_reduce_sum_float_64(",
                  "GP_FUNC int cub_block_scan_exclusive_total_int_64(GP_SHARED int *s",
                  "unsigned int t = gp_threadIdx_x + gp_threadIdx_y * gp_blockDim_x;",
                  "GP_SHARED_DECL float ts[64];",
                  "float m = cub_block_reduce_max_float_64(ts, o[(unsigned)gp_local_id(0)], 10",
                  "cub_block_reduce_sum_float_64(ts, 2.0f, 64", "GP_SHARED_DECL int ss[64];",
                  "x = cub_block_scan_exclusive_total_int_64(ss, "
                  "c[(unsigned)gp_local_id(0)], &all",
                  NULL});
    expect_refused("__global__ void k(float *o) {\n"
                   "  using BL = cub::BlockLoad<float, 32, 4>;\n  o[0] = 1.0f;\n}\n",
                   2, "cub", "cub::BlockLoad is not translated");
    /* WarpReduce: a butterfly of shuffles over the logical warp; its storage declares nothing */
    g_simd_width = 32;
    expect_ok("__global__ void k(int *o) {\n  typedef cub::WarpReduce<int, 8> WR;\n"
              "  __shared__ typename WR::TempStorage ts[16];\n"
              "  o[threadIdx.x] = WR(ts[threadIdx.x / 8]).Reduce(o[threadIdx.x], cub::Min());\n}\n",
              (const char *[]){"GP_FUNC int cub_warp_reduce_min_int_8(int v)",
                               "for (int m = 4; m > 0; m /= 2) {",
                               "int b = gp_simd_shuffle_xor(v, m);", "v = b < a ? b : a;",
                               "= cub_warp_reduce_min_int_8(o[(unsigned)gp_local_id(0)]);", NULL});
    g_simd_width = 0;
    /* CCCL's operators, as CUB since CUDA 13 spells them */
    expect_ok("__global__ void k(float *o) {\n  using BR = cub::BlockReduce<float, 32>;\n"
              "  __shared__ typename BR::TempStorage t;\n"
              "  o[0] = BR(t).Reduce(o[threadIdx.x], cuda::minimum<>{});\n"
              "  o[1] = BR(t).Reduce(o[threadIdx.x], cuda::std::plus<float>());\n}\n",
              (const char *[]){
                  "GP_FUNC float cub_block_reduce_minimum_float_32(", "s[t] = a < b ? a : b;",
                  "GP_FUNC float cub_block_reduce_plus_float_32(", "s[t] = a + b;", NULL});
    /* a functor of the file: its operator() as a device function of the element type */
    expect_ok("struct AbsMax {\n  template <typename T, typename U>\n"
              "  __device__ T operator()(T &&x, U &&y) const { return fabsf(x) > fabsf(y) ? x : y; "
              "}\n};\n"
              "__global__ void k(float *o) {\n  using BR = cub::BlockReduce<float, 32>;\n"
              "  __shared__ typename BR::TempStorage t;\n"
              "  o[0] = BR(t).Reduce(o[threadIdx.x], AbsMax{});\n}\n",
              (const char *[]){"GP_FUNC float cub_functor_AbsMax_float_2(float x, float y)",
                               "return fabsf(x) > fabsf(y) ? x : y;",
                               "s[t] = cub_functor_AbsMax_float_2(a, b);",
                               "cub_block_reduce_functor_absmax_float_32(t, "
                               "o[(unsigned)gp_local_id(0)], 32",
                               NULL});
    expect_refused("struct Pick { __device__ float operator()(float a) { return a; } };\n"
                   "__global__ void k(float *o) {\n"
                   "  using BR = cub::BlockReduce<float, 32>;\n"
                   "  __shared__ typename BR::TempStorage t;\n"
                   "  o[0] = BR(t).Reduce(o[1], Pick());\n}\n",
                   5, "cub", "functors of the file with an operator() of two values");
    expect_refused("__global__ void k(float *o) {\n"
                   "  using BR = cub::BlockReduce<float, 32>;\n"
                   "  __shared__ typename BR::TempStorage t;\n  float items[4];\n"
                   "  o[0] = BR(t).Sum(items);\n}\n",
                   5, "cub", "one item per thread");
    expect_refused("__global__ void k(float *o, int n) {\n"
                   "  using BR = cub::BlockReduce<float, n>;\n  o[0] = 1.0f;\n}\n",
                   2, "cub", "block size");
}

/* C++ references as device-function parameters and locals are pointers in the output. */
static void references(void **state)
{
    (void)state;
    expect_ok("__device__ void upd(float &m, const float &x, int &n) { m = fmaxf(m, x); n++; }\n"
              "__global__ void k(float *o, int *c) {\n"
              "  __shared__ float s[64];\n  float m = 0.0f;\n  int n = 0;\n"
              "  upd(m, o[0], n);\n  s[threadIdx.x] = 1.0f;\n  upd(s[threadIdx.x], m, c[0]);\n"
              "  float &r = o[1];\n  r = m + n;\n}\n",
              (const char *[]){"GP_FUNC void upd(GP_PRIVATE float *m, const float x, "
                               "GP_PRIVATE int *n)",
                               "*m = fmaxf(*m, x);", "(*n)++;",
                               "GP_FUNC void upd_sg(GP_SHARED float *m, const float x, "
                               "GP_GLOBAL int *n)",
                               "upd(&m, o[0], &n);",
                               "upd_sg(&s[(unsigned)gp_local_id(0)], m, &c[0]);",
                               "GP_GLOBAL float *r = &o[1];", "*r = m + n;", NULL});
}

/* CUDA converts integer arguments of the float math functions; OpenCL's and Metal's overloads
 * would be ambiguous, so the translation writes the conversion. bool stays bool. */
static void math_conversions_and_bool(void **state)
{
    (void)state;
    expect_ok("__global__ void k(float *o, int n, int i) {\n"
              "  bool ok = n > 2 && true;\n"
              "  o[0] = sqrtf(n) + powf(i, 2) + log2f(n) + fmaxf(o[1], 0) + expf(1.0);\n"
              "  o[1] = ok ? max(o[2], 1) : min(o[3], i);\n  o[2] = sqrt(n);\n}\n",
              (const char *[]){"bool ok = (n > 2) && true;",
                               "sqrtf((float)n) + powf((float)i, (float)2) + log2f((float)n) + "
                               "fmaxf(o[1], (float)0) + expf((float)1.0)",
                               "fmaxf(o[2], (float)1) : fminf(o[3], (float)i)",
                               "o[2] = sqrt((double)n);", NULL});
    /* nested min/max and math have no side effects: the macros may evaluate them twice */
    expect_ok("__global__ void k(int *o, int x, int w) {\n"
              "  o[0] = min(max(x - 1, 0), w - 1) + max(abs(x), 2);\n"
              "  o[1] = __popc(x) + __clz(x) + __ffs(w) + __brev(x) + __umulhi(x, w);\n}\n",
              (const char *[]){"GP_FUNC int cuda_popc(unsigned int v)",
                               "o[0] = gp_min(gp_max(x - 1, 0), w - 1) + "
                               "gp_max(((x) < 0 ? (int)(0u - (unsigned int)(x)) : (x)), 2)",
                               "cuda_popc(x) + cuda_clz(x) + cuda_ffs(w) + cuda_brev(x) + "
                               "cuda_umulhi(x, w)",
                               NULL});
}

/* Names C and CUDA headers define need no stubs, quoted system headers are skipped with a note,
 * and host-only syntax does not stop the kernels. */
static void standard_names_includes_and_host_syntax(void **state)
{
    (void)state;
    /* a functional cast first inside parentheses is no C cast; host constants initialised the
     * C++ ways (`constexpr unsigned N(1024);`, `const int M{4};`, `const int K(2), L(1);`) */
    expect_ok(
        "constexpr unsigned int N(1024);\nconstexpr unsigned int Nd2(N / 2);\n"
        "const int M{4};\nconst int K(2), L(1);\n"
        "__global__ void k(unsigned *o, float r, float g) {\n"
        "  float xf((int(threadIdx.x - Nd2)) * (2.0f / N));\n"
        "  o[threadIdx.x] = (unsigned(g * 255.0f) << 8) | unsigned(r) | (unsigned)xf | M | K | "
        "L;\n}\n",
        (const char *const[]){
            "float xf = (int)((unsigned)gp_local_id(0) - (unsigned int)((unsigned int)1024 / 2)) * "
            "(2.0f / (unsigned int)1024);",
            "o[(unsigned)gp_local_id(0)] = ((unsigned int)(g * 255.0f) << 8) | (unsigned "
            "int)r | (unsigned int)xf | (int)4 | (int)2 | (int)1;",
            NULL});
    /* T(x) of a template instantiated with a type of two words: unsigned char(x) */
    expect_ok("template <typename T>\n__global__ void k(const T *a, T *o, float w) {\n"
              "  o[threadIdx.x] = T(a[threadIdx.x] * w) + T(1);\n}\n"
              "void host(unsigned char *a, unsigned char *o) { k<unsigned char><<<1, 64>>>(a, o, "
              "0.5f); }\n",
              (const char *const[]){"o[(unsigned)gp_local_id(0)] = (unsigned char)(a[(unsigned)"
                                    "gp_local_id(0)] * w) + (unsigned char)1;",
                                    NULL});
    const char *src =
        "#include \"cuda_runtime.h\"\n#include \"assert.h\"\n#include <cstdio>\n"
        "#ifndef NULL\n#define NULL 0\n#endif\n#define M_PI 3.14159265358979323846\n"
        "namespace {\nconst int N = 1'024;\nenum { ROWS = 4, COLS };\n}\n"
        "__global__ void k(float *o, const float *bias) {\n"
        "  float m = -INFINITY;\n"
        "  if (bias != NULL && bias != nullptr) m = fmaxf(m, bias[0]);\n"
        "  o[0] = m + FLT_MAX * 0.0f + (float)M_PI + INT_MAX + N + ROWS + COLS + 1'000;\n}\n"
        "int main() { auto s = R\"(raw \"text\" { )\"; long x = 1'000'000; return 0; }\n";
    expect_ok(src,
              (const char *[]){"float m = -(1.0f / 0.0f);", "if ((bias != 0) && (bias != 0)) {",
                               "3.402823466e+38f * 0.0f + (float)3.14159265358979323846 + "
                               "2147483647 + (int)1024 + (int)4 + (int)5 + 1000;",
                               NULL});
    gp_translate_result r = run(src, false);
    assert_null(strstr(r.output, "#define NULL"));
    assert_null(strstr(r.output, "#define M_PI"));
    char *notes = cJSON_Print(cJSON_GetObjectItem(r.report, "notes"));
    assert_non_null(strstr(notes, "#include \\\"cuda_runtime.h\\\" names a system or CUDA"));
    assert_non_null(strstr(notes, "#include \\\"assert.h\\\""));
    free(notes);
    gp_translate_result_free(&r);
}

/* atomicInc and atomicDec: plain modular arithmetic at the full range, a compare-exchange loop
 * with CUDA's semantics otherwise; on another type, refused by name. */
static void atomic_inc_dec(void **state)
{
    (void)state;
    expect_ok("__global__ void k(unsigned *c) {\n  __shared__ unsigned s[1];\n"
              "  atomicInc(c, 0xffffffffu); atomicDec(c + 1, 0xffffffff);\n"
              "  atomicInc(c + 2, 16); atomicDec(&s[0], 7u); c[3] = s[0];\n}\n",
              (const char *[]){"GP_FUNC unsigned int atomicInc_global(GP_GLOBAL unsigned int *p, "
                               "unsigned int limit)",
                               "old >= limit ? 0u : old + 1u",
                               "GP_FUNC unsigned int atomicDec_shared(GP_SHARED unsigned int *p",
                               "(old == 0u || old > limit) ? limit : old - 1u",
                               "gp_atomic_add(c, 1u);", "gp_atomic_sub(c + 1, 1u);",
                               "atomicInc_global(c + 2, 16);", "atomicDec_shared(&s[0], 7u);",
                               NULL});
    expect_refused("__global__ void k(int *c) {\n  atomicInc(c, 3);\n}\n", 2, "atomicInc",
                   "unsigned int");
}

/* --partial: a refused kernel is left out as comments with its markers, the others stay;
 * GP_TODO is defined to stop a build at the marker with its reason. */
static void partial_output_builds_without_refused_kernels(void **state)
{
    (void)state;
    gp_translate_result r = run("__global__ void good(float *o) { o[0] = 1.0f; }\n"
                                "__global__ void bad(float *o) {\n  o[0] = clock();\n}\n",
                                true);
    assert_int_equal(r.status, GP_TRANSLATE_REFUSED);
    assert_non_null(strstr(r.output, "\nGP_KERNEL(good, GP_BUF(float, o))"));
    assert_non_null(strstr(r.output, "\n// GP_KERNEL(bad, GP_BUF(float, o))"));
    assert_non_null(strstr(r.output, "// GP_TODO: kernel bad is not translated"));
    assert_non_null(strstr(r.output, "GP_TODO(\"clock: the cycle counter"));
    assert_non_null(strstr(r.output, "#define GP_TODO(why) _Pragma"));
    const cJSON *k = cJSON_GetArrayItem(cJSON_GetObjectItem(r.report, "kernels"), 0);
    assert_true(cJSON_IsTrue(cJSON_GetObjectItem(k, "translated")));
    gp_translate_result_free(&r);
}

/* Refusals name the real cause: a call of a function whose body was refused says what refused
 * it; a refused function no kernel calls is a note. */
static void refusals_name_the_cause(void **state)
{
    (void)state;
    expect_refused("__device__ int f(int x) {\n  goto out;\nout:\n  return x;\n}\n"
                   "__global__ void k(int *o) {\n  o[0] = f(1);\n}\n",
                   7, "untranslated function", "goto is outside");
    gp_translate_result r = run("__device__ int unused(int x) { asm(\"nop;\"); return x; }\n"
                                "__global__ void k(int *o) { o[0] = 1; }\n",
                                false);
    assert_int_equal(r.status, GP_TRANSLATE_OK);
    char *notes = cJSON_Print(cJSON_GetObjectItem(r.report, "notes"));
    assert_non_null(strstr(notes, "in unused, which no kernel calls: inline PTX"));
    free(notes);
    gp_translate_result_free(&r);
}

/* Code that relies on lockstep: shared memory read across work-items with no barrier, in every
 * spelling; with --simd-width 32 the warp-synchronous tail becomes shuffles. */
static void warp_lockstep(void **state)
{
    (void)state;
    const char *tail = "__global__ void k(float *o) {\n  __shared__ float s[64];\n"
                       "  unsigned t = threadIdx.x;\n  s[t] = o[t];\n  __syncthreads();\n"
                       "  if (t < 32) {\n    volatile float *v = s;\n"
                       "    v[t] += v[t + 32];\n    v[t] += v[t + 16];\n    v[t] += v[t + 8];\n"
                       "  }\n  if (t == 0) o[0] = s[0];\n}\n";
    expect_refused(tail, 9, "warp lockstep", "at t.cu:8 and read at t.cu:9");
    /* without volatile, in an if (tid < 16) chain */
    expect_refused("__global__ void k(int *o) {\n  __shared__ int s[32];\n  int t = threadIdx.x;\n"
                   "  s[t] = o[t];\n  __syncthreads();\n  if (t < 16) {\n"
                   "    s[t] += s[t + 8];\n    s[t] += s[t + 4];\n  }\n  o[t] = s[t];\n}\n",
                   8, "warp lockstep", "relies on the lanes of a warp running in lockstep");
    /* an exchange through shared memory with no __syncwarp */
    expect_refused("__global__ void k(int *o) {\n  __shared__ int s[32];\n"
                   "  s[threadIdx.x] = o[threadIdx.x];\n"
                   "  o[threadIdx.x] = s[threadIdx.x ^ 1];\n}\n",
                   4, "warp lockstep", "no barrier between them");
    /* writes through a shared pointer in a helper */
    const char *helper = "__device__ void tail(volatile int *s, unsigned t) {\n"
                         "  s[t] += s[t + 2];\n  s[t] += s[t + 1];\n}\n"
                         "__global__ void k(int *o) {\n  __shared__ int s[64];\n"
                         "  s[threadIdx.x] = o[threadIdx.x];\n  __syncthreads();\n"
                         "  if (threadIdx.x < 32) tail(s, threadIdx.x);\n"
                         "  if (threadIdx.x == 0) o[0] = s[0];\n}\n";
    expect_refused(helper, 3, "warp lockstep", "kernel k");
    /* correct code is not refused: barriers between steps, one's own element, one writer */
    expect_ok("__global__ void k(float *o) {\n  __shared__ float s[256];\n  int t = threadIdx.x;\n"
              "  s[t] = o[t];\n  s[t] *= 2.0f;\n  __syncthreads();\n"
              "  for (int k = blockDim.x / 2; k > 0; k >>= 1) {\n"
              "    if (t < k) s[t] += s[t + k];\n    __syncthreads();\n  }\n"
              "  if (t == 0) o[0] = s[0];\n}\n",
              (const char *[]){"GP_KERNEL(k", NULL});
    /* with --simd-width 32: shuffles, in the kernel and in the helper */
    g_simd_width = 32;
    expect_ok(tail, (const char *[]){"float lockstep_v = s[t];", "float lockstep_o1 = v[t + 32];",
                                     "lockstep_v += lockstep_o1;",
                                     "float lockstep_o2 = gp_simd_shuffle_down(lockstep_v, 16);",
                                     "if (t + 16 >= 32) {", "lockstep_o2 = v[t + 16];",
                                     "s[t] = lockstep_v;", NULL});
    expect_ok(helper,
              (const char *[]){"GP_FUNC void tail(GP_SHARED volatile int *s, unsigned int t)",
                               "int lockstep_v = s[t];", "gp_simd_shuffle_down(lockstep_v, 2)",
                               "s[t] = lockstep_v;", NULL});
    gp_translate_result r = run(tail, false);
    char *notes = cJSON_Print(cJSON_GetObjectItem(r.report, "notes"));
    assert_non_null(strstr(notes, "rewritten with SIMD-group shuffles"));
    free(notes);
    gp_translate_result_free(&r);
    g_simd_width = 0;
}

/* Correct kernels in the shapes real CUDA writes them are not taken for warp-synchronous code;
 * the same shapes without their barriers still are. */
/* Apart only for the block the launches give (2-D grid of one-row blocks): translated with the
 * group it needs, which the runtime enforces; a file that launches it with two blocks, or one it
 * does not fix, keeps the refusal. */
static void lockstep_with_the_launch_block(void **state)
{
    (void)state;
    const char *k = "#define BS 128\n"
                    "__global__ void rowsum(const float *p, float *out) {\n"
                    "  __shared__ float c[BS];\n"
                    "  int col = blockIdx.x * blockDim.x + threadIdx.x;\n"
                    "  int row = blockIdx.y * blockDim.y + threadIdx.y;\n"
                    "  c[threadIdx.x] = p[row * 512 + col];\n"
                    "  __syncthreads();\n"
                    "  int i = BS >> 1;\n"
                    "  while (i != 0) {\n"
                    "    if (threadIdx.x < i) c[threadIdx.x] += c[threadIdx.x + i];\n"
                    "    __syncthreads();\n"
                    "    i >>= 1;\n"
                    "  }\n"
                    "  if (threadIdx.x == 0) out[row * gridDim.x + blockIdx.x] = c[0];\n"
                    "}\n";
    char src[2048];
    snprintf(src, sizeof src,
             "%svoid host(const float *p, float *o) {\n  dim3 block(BS, 1);\n"
             "  dim3 grid(512 / BS, 512);\n  rowsum<<<grid, block>>>(p, o);\n"
             "  rowsum<<<dim3(4, 512), dim3(BS)>>>(p, o);\n}\n",
             k);
    expect_ok(src, (const char *const[]){"GP_REQUIRES_GROUP_SIZE(rowsum, 128, 1, 1)\n",
                                         "GP_KERNEL(rowsum", NULL});
    snprintf(src, sizeof src,
             "%svoid host(const float *p, float *o) {\n  rowsum<<<dim3(4, 512), dim3(BS)>>>(p, "
             "o);\n  rowsum<<<dim3(4, 256), dim3(BS, 2)>>>(p, o);\n}\n",
             k);
    expect_refused(src, 10, "warp lockstep", "kernel rowsum");
    snprintf(src, sizeof src,
             "%svoid host(const float *p, float *o, int b) {\n  rowsum<<<dim3(4, 512), dim3(BS, "
             "b)>>>(p, o);\n}\n",
             k);
    expect_refused(src, 10, "warp lockstep", "kernel rowsum");
    expect_refused(k, 10, "warp lockstep", "kernel rowsum"); /* launched nowhere */
    /* a kernel apart without the block needs no requirement */
    expect_ok("__global__ void one(float *o) {\n  __shared__ float s[64];\n"
              "  s[threadIdx.x] = o[threadIdx.x];\n  __syncthreads();\n"
              "  o[threadIdx.x] = s[63 - threadIdx.x];\n}\n"
              "void host(float *o) { one<<<1, 64>>>(o); }\n",
              (const char *const[]){"GP_KERNEL(one", NULL});
    gp_translate_result r = run("__global__ void one(float *o) {\n  __shared__ float s[64];\n"
                                "  s[threadIdx.x] = o[threadIdx.x];\n  __syncthreads();\n"
                                "  o[threadIdx.x] = s[63 - threadIdx.x];\n}\n"
                                "void host(float *o) { one<<<1, 64>>>(o); }\n",
                                false);
    assert_null(strstr(r.output, "GP_REQUIRES_GROUP_SIZE"));
    gp_translate_result_free(&r);
    /* the block bounds the work-items too: s[t] and s[256 + u] are never one element of two of
     * a 256-wide group (a lagged-Fibonacci generator's shift of its state) */
    const char *lag = "#define P 256\n"
                      "__global__ void shift(unsigned *x) {\n"
                      "  __shared__ unsigned s[2 * P];\n"
                      "  s[threadIdx.x] = x[threadIdx.x];\n"
                      "  __syncthreads();\n"
                      "  x[P + threadIdx.x] = s[threadIdx.x] = s[P + threadIdx.x];\n"
                      "}\n";
    snprintf(src, sizeof src, "%svoid host(unsigned *x) { shift<<<1, P>>>(x); }\n", lag);
    expect_ok(src, (const char *const[]){"GP_REQUIRES_GROUP_SIZE(shift, 256, 1, 1)\n", NULL});
    snprintf(src, sizeof src, "%svoid host(unsigned *x) { shift<<<1, 2 * P>>>(x); }\n", lag);
    expect_refused(src, 6, "warp lockstep", "kernel shift");
}

/* Loops whose first iteration surely runs put their barrier between what comes before and
 * after them, unless something in them may leave early; padding computed apart (s[a + oa]) is
 * the padding. */
static void lockstep_loops_entered(void **state)
{
    (void)state;
    static const char *const body[] = {
        /* entered: the barrier in the first iteration orders s[t] before s[63 - t] */
        "  for (int d = 32; d > 0; d >>= 1) {\n    __syncthreads();\n  }\n",
        /* a break, a continue before the barrier: maybe no barrier at all */
        "  for (int i = 0; i < 4; i++) {\n    if (flag) break;\n    __syncthreads();\n  }\n",
        "  for (int i = 0; i < 4; i++) {\n    if (flag) continue;\n    __syncthreads();\n  }\n",
        /* a condition that may fail at once */
        "  for (int i = 0; i < flag; i++) {\n    __syncthreads();\n  }\n"};
    for (size_t b = 0; b < sizeof body / sizeof *body; b++) {
        char src[1024];
        snprintf(src, sizeof src,
                 "__global__ void k(float *o, const float *in, int flag) {\n"
                 "  __shared__ float s[64];\n  int t = threadIdx.x;\n  s[t] = in[t];\n%s"
                 "  o[t] = s[63 - t];\n}\n",
                 body[b]);
        if (b == 0)
            expect_ok(src, (const char *const[]){"GP_KERNEL(k", NULL});
        else
            expect_refused(src, b == 3 ? 8 : 9, "warp lockstep", "kernel k");
    }
    /* a + (a >> 5) through variables, each work-item's own padded elements */
    expect_ok("#define PAD(n) ((n) >> 5)\n"
              "__global__ void p(float *o, const float *in) {\n"
              "  __shared__ float s[132];\n  int a = threadIdx.x, b = a + 64;\n"
              "  int oa = PAD(a), ob = PAD(b);\n  s[a + oa] = in[a];\n  s[b + ob] = in[b];\n"
              "  o[a] = s[a + oa] * 2.0f;\n  o[b] = s[b + ob] * 2.0f;\n}\n"
              "void host(float *o, float *i) { p<<<1, 64>>>(o, i); }\n",
              (const char *const[]){"GP_KERNEL(p", NULL});
    /* ... but another work-item's element (s[b + ob] read back as s[a + oa] of another) */
    expect_refused("#define PAD(n) ((n) >> 5)\n"
                   "__global__ void p(float *o, const float *in) {\n"
                   "  __shared__ float s[132];\n  int a = threadIdx.x, b = a + 64;\n"
                   "  int oa = PAD(a), ob = PAD(b);\n  s[b + ob] = in[b];\n"
                   "  o[a] = s[a + oa];\n}\n"
                   "void host(float *o, float *i) { p<<<1, 128>>>(o, i); }\n",
                   7, "warp lockstep", "kernel p");
}

/* The note on a texture object whose reason holds `why`, or a failure. */
static void expect_texture_note(const char *src, const char *why)
{
    gp_translate_result r = run(src, true);
    const cJSON *x;
    bool found = false;
    cJSON_ArrayForEach(x, cJSON_GetObjectItem(r.report, "notes"))
    {
        found |= !strcmp(gp_json_str(x, "construct", ""), "texture object") &&
                 strstr(gp_json_str(x, "reason", ""), why);
    }
    if (!found) {
        char *rep = cJSON_Print(cJSON_GetObjectItem(r.report, "notes"));
        fail_msg("no texture note '%s'; got %s", why, rep);
    }
    gp_translate_result_free(&r);
}

/* Texture objects become buffers only where their sampling is certain: each launch's texture
 * created with one description, fetched by tex1Dfetch/tex1D/tex2D alone. */
static void texture_objects(void **state)
{
    (void)state;
    static const char kernel[] = "__global__ void k(float *o, int w, cudaTextureObject_t t) {\n"
                                 "  int x = threadIdx.x, y = blockIdx.x;\n"
                                 "  o[y * w + x] = tex2D<float>(t, x + 0.5f, y + 0.5f);\n}\n";
    char src[2048];
    /* two descriptions, the launch's texture created with the second: clamped point sampling */
    snprintf(src, sizeof src,
             "%svoid host(float *o, cudaArray_t a) {\n"
             "  cudaResourceDesc r; memset(&r, 0, sizeof r);\n"
             "  cudaTextureDesc d; memset(&d, 0, sizeof d);\n"
             "  d.filterMode = cudaFilterModeLinear; d.normalizedCoords = true;\n"
             "  cudaTextureObject_t lin, pt;\n  cudaCreateTextureObject(&lin, &r, &d, NULL);\n"
             "  memset(&d, 0, sizeof d);\n  d.addressMode[0] = cudaAddressModeClamp;\n"
             "  d.addressMode[1] = cudaAddressModeClamp;\n"
             "  cudaCreateTextureObject(&pt, &r, &d, NULL);\n"
             "  k<<<4, 64>>>(o, 64, pt);\n}\n",
             kernel);
    expect_ok(src, (const char *const[]){"GP_CBUF(float, t), GP_VAL(int, t_w), GP_VAL(int, t_h)",
                                         "_point_11(t, t_w, t_h, ", NULL});
    /* ... launched with both: two samplings */
    snprintf(src, sizeof src,
             "%svoid host(float *o, cudaArray_t a) {\n"
             "  cudaResourceDesc r; memset(&r, 0, sizeof r);\n"
             "  cudaTextureDesc d; memset(&d, 0, sizeof d);\n"
             "  d.filterMode = cudaFilterModeLinear;\n"
             "  cudaTextureObject_t lin, pt;\n  cudaCreateTextureObject(&lin, &r, &d, NULL);\n"
             "  memset(&d, 0, sizeof d);\n  cudaCreateTextureObject(&pt, &r, &d, NULL);\n"
             "  k<<<4, 64>>>(o, 64, pt);\n  k<<<4, 64>>>(o, 64, lin);\n}\n",
             kernel);
    expect_refused(src, 1, "cudaTextureObject_t", "parameter t");
    expect_texture_note(src, "its launches pass textures of two samplings");
    /* normalized-float reads, and no description at all */
    snprintf(src, sizeof src,
             "%svoid host(float *o) {\n  cudaTextureDesc d; memset(&d, 0, sizeof d);\n"
             "  d.readMode = cudaReadModeNormalizedFloat;\n}\n",
             kernel);
    expect_refused(src, 1, "cudaTextureObject_t", "parameter t");
    expect_texture_note(src, "normalized floats");
    expect_refused(kernel, 1, "cudaTextureObject_t", "parameter t");
    expect_texture_note(kernel, "this file has none");
    /* a description set from an expression */
    snprintf(src, sizeof src,
             "%svoid host(bool lin) {\n  cudaTextureDesc d; memset(&d, 0, sizeof d);\n"
             "  d.filterMode = lin ? cudaFilterModeLinear : cudaFilterModePoint;\n}\n",
             kernel);
    expect_texture_note(src, "from an expression");
    /* a field set under a condition; a description the creating function is given */
    snprintf(src, sizeof src,
             "%svoid host(float *o, bool lin) {\n  cudaResourceDesc r;\n"
             "  cudaTextureDesc d; memset(&d, 0, sizeof d);\n"
             "  if (lin) d.filterMode = cudaFilterModeLinear;\n"
             "  cudaTextureObject_t t;\n  cudaCreateTextureObject(&t, &r, &d, NULL);\n"
             "  k<<<4, 64>>>(o, 64, t);\n}\n",
             kernel);
    expect_texture_note(src, "under a condition");
    snprintf(src, sizeof src,
             "%svoid host(float *o, const cudaTextureDesc &d) {\n  cudaResourceDesc r;\n"
             "  cudaTextureObject_t t;\n  cudaCreateTextureObject(&t, &r, &d, NULL);\n"
             "  k<<<4, 64>>>(o, 64, t);\n}\n",
             kernel);
    expect_texture_note(src, "not one this file declares or zeroes");
    /* passed on to a device function */
    expect_texture_note("__device__ float get(cudaTextureObject_t t, float x) {\n"
                        "  return tex1D<float>(t, x);\n}\n"
                        "__global__ void k(float *o, cudaTextureObject_t t) {\n"
                        "  o[threadIdx.x] = get(t, threadIdx.x);\n}\n",
                        "used other than as the texture of");
    /* linear filtering of 8-bit texels needs normalized-float reads */
    expect_texture_note("__global__ void k(float *o, cudaTextureObject_t t) {\n"
                        "  o[threadIdx.x] = tex1D<unsigned char>(t, threadIdx.x);\n}\n"
                        "void host() { cudaTextureDesc d; memset(&d, 0, sizeof d);\n"
                        "  d.filterMode = cudaFilterModeLinear; }\n",
                        "float texels only");
    /* tex1Dfetch needs no description: an element, 0 outside the buffer */
    expect_ok("__global__ void k(int *o, const int *i, cudaTextureObject_t t) {\n"
              "  o[threadIdx.x] = tex1Dfetch<int>(t, i[threadIdx.x]);\n}\n",
              (const char *const[]){"GP_CBUF(int, t), GP_VAL(int, t_w)",
                                    "gpuport_tex1Dfetch_int(t, t_w, i[", NULL});
}

/* Each instance gets the launch configuration of its own launches: k<-1> is not k<1>, and
 * k<Pair<float>, true> is the instance k<Pair_float, true>. */
static void launches_find_their_instances(void **state)
{
    (void)state;
    gp_translate_result r =
        run("template <class T> struct Pair { T a, b; };\n"
            "template <int D> __global__ void shift(float *o) { o[threadIdx.x] += D; }\n"
            "template <class P, bool F> __global__ void pick(P *o) { if (F) o[0].a = o[0].b; }\n"
            "void host(float *o, Pair<float> *p) {\n"
            "  shift<-1><<<1, 64>>>(o);\n  shift<1><<<2, 128>>>(o);\n"
            "  pick<Pair<float>, true><<<3, 32>>>(p);\n}\n",
            false);
    assert_int_equal(r.status, GP_TRANSLATE_OK);
    static const char *const want[][2] = {{"shift_m1", "<<<1, 64>>>"},
                                          {"shift_1", "<<<2, 128>>>"},
                                          {"pick_Pair_float_true", "<<<3, 32>>>"}};
    for (size_t i = 0; i < sizeof want / sizeof *want; i++) {
        const cJSON *k, *found = NULL;
        cJSON_ArrayForEach(k, cJSON_GetObjectItem(r.report, "kernels"))
        {
            if (!strcmp(gp_json_str(k, "name", ""), want[i][0])) found = k;
        }
        if (!found) fail_msg("no kernel %s", want[i][0]);
        const cJSON *l = cJSON_GetObjectItem(found, "launch");
        if (!l || strcmp(gp_json_str(l, "config", ""), want[i][1]))
            fail_msg("%s: launch %s, want %s", want[i][0],
                     l ? gp_json_str(l, "config", "") : "none", want[i][1]);
    }
    gp_translate_result_free(&r);
}

static void lockstep_no_false_alarms(void **state)
{
    (void)state;
    {
        /* loads nested 28 deep (s[s[...s[t]...]]): each address is followed once
         * (following it again for each use made the check take 2^28 steps) */
        char deep[2048] = "__global__ void k(int *o) {\n  __shared__ int s[64];\n"
                          "  int t = threadIdx.x;\n  s[t] = t;\n  __syncthreads();\n  o[t] = ";
        for (int d = 0; d < 28; d++)
            strcat(deep, "s[");
        strcat(deep, "t");
        for (int d = 0; d < 28; d++)
            strcat(deep, "]");
        strcat(deep, ";\n  __syncthreads();\n  s[t]++;\n}\n");
        expect_ok(deep, (const char *[]){"GP_KERNEL(k", NULL});
    }
    const char *const ok[] = {
        /* a tree reduction with __syncthreads in the loop, on volatile memory too */
        "__global__ void k(const float *in, float *o, int n) {\n"
        "  __shared__ volatile float s[256];\n  unsigned t = threadIdx.x;\n"
        "  unsigned i = blockIdx.x * blockDim.x + t;\n  s[t] = i < n ? in[i] : 0.0f;\n"
        "  __syncthreads();\n"
        "  for (unsigned k = blockDim.x / 2; k > 0; k >>= 1) {\n"
        "    if (t < k) s[t] = s[t] + s[t + k];\n    __syncthreads();\n  }\n"
        "  if (t == 0) o[blockIdx.x] = s[0];\n}\n",
        /* a tiled matrix product */
        "#define T 16\n"
        "__global__ void k(const float *a, const float *b, float *c, int n) {\n"
        "  __shared__ float as[T][T], bs[T][T];\n"
        "  int tx = threadIdx.x, ty = threadIdx.y;\n"
        "  int row = blockIdx.y * T + ty, col = blockIdx.x * T + tx;\n  float acc = 0.0f;\n"
        "  for (int m = 0; m < n / T; m++) {\n"
        "    as[ty][tx] = a[row * n + m * T + tx];\n    bs[ty][tx] = b[(m * T + ty) * n + col];\n"
        "    __syncthreads();\n    for (int q = 0; q < T; q++) acc += as[ty][q] * bs[q][tx];\n"
        "    __syncthreads();\n  }\n  c[row * n + col] = acc;\n}\n",
        /* a histogram with shared atomics */
        "__global__ void k(const unsigned char *in, unsigned *bins, int n) {\n"
        "  __shared__ unsigned h[256];\n"
        "  for (int b = threadIdx.x; b < 256; b += blockDim.x) h[b] = 0;\n  __syncthreads();\n"
        "  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * "
        "gridDim.x)\n"
        "    atomicAdd(&h[in[i]], 1u);\n  __syncthreads();\n"
        "  for (int b = threadIdx.x; b < 256; b += blockDim.x) atomicAdd(&bins[b], h[b]);\n}\n",
        /* a stencil with a halo */
        "__global__ void k(const float *in, float *o, int n) {\n"
        "  __shared__ float tmp[256 + 6];\n  int g = blockIdx.x * blockDim.x + threadIdx.x;\n"
        "  int l = threadIdx.x + 3;\n  tmp[l] = in[g];\n"
        "  if (threadIdx.x < 3) {\n    tmp[l - 3] = g >= 3 ? in[g - 3] : 0.0f;\n"
        "    tmp[l + 256] = g + 256 < n ? in[g + 256] : 0.0f;\n  }\n  __syncthreads();\n"
        "  float r = 0.0f;\n  for (int d = -3; d <= 3; d++) r += tmp[l + d];\n  o[g] = r;\n}\n",
        /* a scan that reads, waits, then writes */
        "__global__ void k(float *d) {\n  __shared__ float s[256];\n  int t = threadIdx.x;\n"
        "  s[t] = d[t];\n  __syncthreads();\n"
        "  for (int off = 1; off < blockDim.x; off *= 2) {\n    float v = 0.0f;\n"
        "    if (t >= off) v = s[t - off];\n    __syncthreads();\n    s[t] += v;\n"
        "    __syncthreads();\n  }\n  d[t] = s[t];\n}\n",
        /* an index the check cannot follow, kept in a variable: each work-item's own element */
        "__global__ void k(const unsigned *in, unsigned *o, unsigned size) {\n"
        "  __shared__ unsigned s[512], w[32];\n"
        "  unsigned pos = 2 * threadIdx.x - (threadIdx.x & (size - 1));\n"
        "  s[pos] = in[threadIdx.x];\n  s[pos] = s[pos] * 2u;\n"
        "  unsigned lane = threadIdx.x % 32;\n  w[lane] = s[pos];\n"
        "  o[threadIdx.x] = s[pos];\n}\n",
        /* the compare-and-swap of a bitonic network: pos and pos + stride, never another's */
        "__global__ void k(unsigned *d, unsigned n) {\n  __shared__ unsigned s[1024];\n"
        "  s[threadIdx.x] = d[threadIdx.x];\n  s[threadIdx.x + 512] = d[threadIdx.x + 512];\n"
        "  for (unsigned stride = n / 2; stride > 0; stride >>= 1) {\n    __syncthreads();\n"
        "    unsigned pos = 2 * threadIdx.x - (threadIdx.x & (stride - 1));\n"
        "    unsigned a = s[pos], b = s[pos + stride];\n"
        "    if (a > b) {\n      s[pos] = b;\n      s[pos + stride] = a;\n    }\n  }\n"
        "  __syncthreads();\n  d[threadIdx.x] = s[threadIdx.x];\n}\n",
        /* a radix-4 step: four elements stride apart from ((t - lo) << 2) + lo, lo = t % stride */
        "__global__ void k(float *d, int n) {\n  __shared__ float s[1024];\n"
        "  for (int i = threadIdx.x; i < 1024; i += blockDim.x) s[i] = d[i];\n"
        "  int pos = threadIdx.x;\n"
        "  for (int stride = n >> 2; stride > 0; stride >>= 2) {\n"
        "    int lo = pos & (stride - 1);\n    int i0 = ((pos - lo) << 2) + lo;\n"
        "    int i1 = i0 + stride, i2 = i1 + stride, i3 = i2 + stride;\n    __syncthreads();\n"
        "    float a = s[i0], b = s[i1], c = s[i2], e = s[i3];\n"
        "    s[i0] = a + b + c + e;\n    s[i1] = a - b + c - e;\n"
        "    s[i2] = a + b - c - e;\n    s[i3] = a - b - c + e;\n  }\n  __syncthreads();\n"
        "  for (int i = threadIdx.x; i < 1024; i += blockDim.x) d[i] = s[i];\n}\n",
        /* cyclic reduction: b[i] and b[i - delta], delta = stride >> 1 after stride <<= 1 */
        "__global__ void k(float *d, int iterations) {\n  __shared__ float b[512];\n"
        "  int t = threadIdx.x;\n  b[t] = d[t];\n  b[t + 256] = d[t + 256];\n"
        "  int stride = 1;\n  for (int j = 0; j < iterations; j++) {\n    __syncthreads();\n"
        "    stride <<= 1;\n    int delta = stride >> 1;\n    if (t < 512 / stride) {\n"
        "      int i = stride * t + stride - 1;\n      b[i] = b[i] + b[i - delta];\n    }\n"
        "  }\n  __syncthreads();\n  d[t] = b[t];\n}\n",
        /* an index the check cannot follow, written out twice: the same element each time */
        "__global__ void k(const float *in, float *o) {\n  __shared__ float s[256];\n"
        "  s[threadIdx.x ^ 1] = in[threadIdx.x];\n  s[threadIdx.x ^ 1] *= 2.0f;\n"
        "  __syncthreads();\n  o[threadIdx.x] = s[threadIdx.x];\n}\n",
        /* the block's thread_rank() of cooperative groups in a one-dimensional kernel */
        "#include <cooperative_groups.h>\nnamespace cg = cooperative_groups;\n"
        "__global__ void k(const double *in, double *o) {\n"
        "  cg::thread_block b = cg::this_thread_block();\n  __shared__ double s[512];\n"
        "  double v = in[blockIdx.x * blockDim.x + threadIdx.x];\n  s[b.thread_rank()] = v;\n"
        "  cg::sync(b);\n"
        "  if (blockDim.x >= 512 && b.thread_rank() < 256)\n"
        "    s[b.thread_rank()] = v = v + s[b.thread_rank() + 256];\n  cg::sync(b);\n"
        "  if (b.thread_rank() < 128) s[b.thread_rank()] = v = v + s[b.thread_rank() + 128];\n"
        "  cg::sync(b);\n  if (b.thread_rank() == 0) o[blockIdx.x] = s[0];\n}\n",
        /* a tree reduction over the linear index of a two-dimensional block */
        "__global__ void k(const float *in, float *o) {\n  __shared__ float s[256];\n"
        "  int tid = threadIdx.y * blockDim.x + threadIdx.x;\n"
        "  s[tid] = in[blockIdx.x * 256 + tid];\n  __syncthreads();\n"
        "  for (int k = 128; k > 0; k >>= 1) {\n    if (tid < k) s[tid] += s[tid + k];\n"
        "    __syncthreads();\n  }\n  if (tid == 0) o[blockIdx.x] = s[0];\n}\n",
        /* an interleaved reduction that keeps every i-th work-item, counted from 1 */
        "__global__ void k(float *d) {\n  __shared__ float s[256];\n  int tx = threadIdx.x;\n"
        "  s[tx] = d[tx];\n  __syncthreads();\n"
        "  for (int i = 2; i <= 256; i *= 2) {\n"
        "    if ((tx + 1) % i == 0) s[tx] = s[tx] + s[tx - i / 2];\n    __syncthreads();\n"
        "  }\n  if (tx == 255) d[blockIdx.x] = s[tx];\n}\n",
        /* LU's diagonal block: row tx's elements left of column i, under tx > i, with j < i
         * (a loop's bound and start: j - i stays within one row) */
        "#define BS 16\n__global__ void k(float *m) {\n  __shared__ float sh[BS * BS];\n"
        "  int tx = threadIdx.x;\n"
        "  for (int r = 0; r < BS; r++) sh[r * BS + tx] = m[r * BS + tx];\n  __syncthreads();\n"
        "  for (int i = 0; i < BS - 1; i++) {\n    if (tx > i) {\n"
        "      for (int j = 0; j < i; j++) sh[tx * BS + i] -= sh[tx * BS + j] * sh[j * BS + i];\n"
        "      sh[tx * BS + i] /= sh[i * BS + i];\n    }\n    __syncthreads();\n  }\n"
        "  m[tx] = sh[tx];\n}\n",
        /* the group's own condition: every work-item of a group takes the same branch */
        "__global__ void k(float *d, int last) {\n  __shared__ float s[256];\n"
        "  int t = threadIdx.x;\n  s[t] = d[t];\n  __syncthreads();\n"
        "  if (blockIdx.x != gridDim.x - 1) {\n    if (t == 0) d[blockIdx.x] = s[255];\n"
        "  } else {\n    s[t] = s[t] * 2.0f;\n  }\n}\n",
        /* periodic halo of a row-per-threadIdx.y tile: the x == 0 work-item of each row copies
         * the row's ends; rows are mx + 2 apart, so no row's ends are another row's elements
         * (mx is unsigned: |mx| < mx + 2) */
        "__global__ void k(const float *f, float *df, const unsigned int mx) {\n"
        "  const int offset = 1;\n  extern __shared__ float s_f[];\n"
        "  int i = threadIdx.x, sj = threadIdx.y, si = i + offset;\n"
        "  s_f[sj * (mx + 2 * offset) + si] = f[sj * mx + i];\n  __syncthreads();\n"
        "  if (i < offset) {\n"
        "    s_f[sj * (mx + 2 * offset) + si - offset] = s_f[sj * (mx + 2 * offset) + si + mx - "
        "offset];\n"
        "    s_f[sj * (mx + 2 * offset) + si + mx] = s_f[sj * (mx + 2 * offset) + si];\n  }\n"
        "  __syncthreads();\n  df[sj * mx + i] = s_f[sj * (mx + 2 * offset) + si + 1];\n}\n",
    };
    for (size_t i = 0; i < sizeof ok / sizeof *ok; i++)
        expect_ok(ok[i], (const char *[]){"GP_KERNEL(k", NULL});
    /* planes rotated between a loop's iterations (a 3-D stencil's previous, current and next
     * x-plane): what is read before the loop meets the first iteration with the planes it
     * enters with; writing a plane still being read (q = c) stays refused */
    const char *planes = "__global__ void k(const float *in, float *o, int n) {\n"
                         "  __shared__ float s[3][64];\n  int t = threadIdx.x;\n"
                         "  int p = 0, c = 1, q = 2, r;\n  float acc = 0.0f;\n"
                         "  s[c][t] = in[t];\n  s[q][t] = in[64 + t];\n  __syncthreads();\n"
                         "  if (t < 63) acc = s[c][t + 1] + s[q][t + 1];\n"
                         "  %s\n"
                         "  for (int i = 0; i < n; i++) {\n"
                         "    s[q][t] = in[i * 64 + t];\n    __syncthreads();\n"
                         "    if (t < 63) acc += s[c][t + 1] - s[q][t + 1];\n"
                         "    __syncthreads();\n    r = p; p = c; c = q; q = r;\n  }\n"
                         "  o[t] = acc;\n}\n";
    char psrc[1024];
    snprintf(psrc, sizeof psrc, planes, "r = p; p = c; c = q; q = r;");
    expect_ok(psrc, (const char *[]){"GP_KERNEL(k", NULL});
    snprintf(psrc, sizeof psrc, planes, "r = p; p = c; q = c;");
    expect_refused(psrc, 12, "warp lockstep", "no barrier between them");
    /* a path each work-item writes at base = tid + t * N and reads back (a lookback option's
     * Monte Carlo path, launched with N work-items): the index follows the work-item into the
     * second loop, whose first iteration keeps the per-iteration form */
    expect_ok("#define N 128\n"
              "__global__ void k(float *o, unsigned T) {\n  __shared__ float path[N * 16];\n"
              "  int base = threadIdx.x;\n  float s = 1.0f;\n"
              "  for (unsigned t = 0; t < T; t++) {\n    path[base] = s;\n    base += N;\n"
              "    s *= 1.01f;\n  }\n  float sum = 0.0f;\n"
              "  for (unsigned t = 0; t < T; t++) {\n    base -= N;\n    sum += path[base];\n  }\n"
              "  o[threadIdx.x] = sum;\n}\n"
              "void host(float *o) { k<<<1, N>>>(o, 16); }\n",
              (const char *[]){"GP_REQUIRES_GROUP_SIZE(k, 128, 1, 1)", "GP_KERNEL(k", NULL});
    /* the same halo with a signed mx (mx = -1 would make rows 1 apart), or rows mx apart (the
     * end read, row + mx, is the next row's start): refused */
    const char *halo = "__global__ void k(const float *f, float *df, %s mx) {\n"
                       "  extern __shared__ float s_f[];\n"
                       "  int i = threadIdx.x, sj = threadIdx.y;\n"
                       "  s_f[sj * (mx + %d) + i + 1] = f[sj * mx + i];\n  __syncthreads();\n"
                       "  if (i < 1) s_f[sj * (mx + %d) + i] = s_f[sj * (mx + %d) + i + mx];\n"
                       "  __syncthreads();\n  df[sj * mx + i] = s_f[sj * (mx + 2) + i];\n}\n";
    const char *const halo_types[] = {"int", "unsigned"};
    const int halo_pad[] = {2, 0};
    for (size_t i = 0; i < 2; i++) {
        char src[1024];
        snprintf(src, sizeof src, halo, halo_types[i], halo_pad[i], halo_pad[i], halo_pad[i]);
        expect_refused(src, 6, "warp lockstep", "no barrier between them");
    }
    /* the two-dimensional reduction without its barrier, with a bound that lets a writer be read
     * (tid < 2 * k), and a scan in place (the element below is written by the work-item below) */
    const char *red2d = "__global__ void k(float *o) {\n  __shared__ float s[512];\n"
                        "  int tid = threadIdx.y * blockDim.x + threadIdx.x;\n"
                        "  s[tid] = o[tid];\n  __syncthreads();\n"
                        "  for (int k = 1; k < 256; k *= 2) {\n%s\n%s  }\n"
                        "  o[tid] = s[tid];\n}\n";
    const char *const racy[][2] = {
        {"    if (tid < k) s[tid] += s[tid + k];", ""},
        {"    if (tid < 2 * k) s[tid] += s[tid + k];", "    __syncthreads();\n"},
        {"    if (tid >= k) s[tid] += s[tid - k];", "    __syncthreads();\n"},
    };
    for (size_t i = 0; i < sizeof racy / sizeof *racy; i++) {
        char src[1024];
        snprintf(src, sizeof src, red2d, racy[i][0], racy[i][1]);
        expect_refused(src, 7, "warp lockstep", "no barrier between them");
    }
    /* the LU step with a bound that reaches a writer's row (j <= i + 1), or past the row */
    const char *lu =
        "#define BS 16\n__global__ void k(float *m) {\n  __shared__ float sh[BS * BS];\n"
        "  int tx = threadIdx.x;\n  sh[tx] = m[tx];\n  __syncthreads();\n"
        "  for (int i = 0; i < BS - 1; i++) {\n    if (tx > i) {\n"
        "      for (int j = 0; %s; j++) sh[tx * BS + i] -= sh[j * BS + i];\n"
        "    }\n    __syncthreads();\n  }\n  m[tx] = sh[tx];\n}\n";
    const char *const lu_racy[] = {"j <= i + 1", "j < 2 * BS"};
    for (size_t i = 0; i < sizeof lu_racy / sizeof *lu_racy; i++) {
        char src[1024];
        snprintf(src, sizeof src, lu, lu_racy[i]);
        expect_refused(src, 9, "warp lockstep", "no barrier between them");
    }
    /* an inner loop's counter that the outer loop assigns too is still a counter of many
     * values (it was once taken for its first two: s[0] and s[1], never a writer's) */
    expect_refused("__global__ void k(float *d, int n) {\n  __shared__ float s[256];\n"
                   "  int t = threadIdx.x;\n  s[t] = d[t];\n  __syncthreads();\n"
                   "  for (int r = 0; r < 2; r++) {\n    if (t >= 8) s[t] = 1.0f;\n"
                   "    for (int j = 0; j < n; j++) d[t] += s[j];\n  }\n}\n",
                   7, "warp lockstep", "written at t.cu:7 and read at t.cu:8");
    /* a condition of the work-item (not of the group) runs both branches alongside */
    expect_refused("__global__ void k(float *d) {\n  __shared__ float s[256];\n"
                   "  int t = threadIdx.x;\n  s[t] = d[t];\n  __syncthreads();\n"
                   "  if (t != 0) {\n    d[t] = s[t - 1];\n  } else {\n    s[t + 1] = 0.0f;\n"
                   "  }\n}\n",
                   9, "warp lockstep", "no barrier between them");
    /* without their barriers they are refused: the variable index read by another work-item */
    expect_refused("__global__ void k(const unsigned *in, unsigned *o) {\n"
                   "  __shared__ unsigned s[64];\n  unsigned t = threadIdx.x;\n"
                   "  unsigned p = t ^ 1;\n  s[t] = in[t];\n  o[t] = s[p];\n}\n",
                   6, "warp lockstep", "no barrier between them");
    /* that index against the work-item's own: another work-item's element */
    expect_refused("__global__ void k(const float *in, float *o) {\n  __shared__ float s[256];\n"
                   "  s[threadIdx.x] = in[threadIdx.x];\n  s[threadIdx.x ^ 1] *= 2.0f;\n"
                   "  __syncthreads();\n  o[threadIdx.x] = s[threadIdx.x];\n}\n",
                   4, "warp lockstep", "no barrier between them");
    /* a variable index read in one iteration and written in the next */
    expect_refused("__global__ void k(const unsigned *in, unsigned *o, int n) {\n"
                   "  __shared__ unsigned s[64];\n  unsigned p = in[threadIdx.x] & 63;\n"
                   "  for (int i = 0; i < n; i++) {\n    unsigned x = s[p];\n"
                   "    p = (p * 7 + x) & 63;\n    s[p] = x + 1;\n  }\n  o[threadIdx.x] = p;\n}\n",
                   5, "warp lockstep", "no barrier between them");
    /* the bitonic step without its barrier, and pairs 2 * stride apart, which can meet */
    const char *pairs = "__global__ void k(unsigned *d, unsigned n) {\n"
                        "  __shared__ unsigned s[1024];\n  s[threadIdx.x] = d[threadIdx.x];\n"
                        "  __syncthreads();\n"
                        "  for (unsigned stride = n / 2; stride > 0; stride >>= 1) {\n"
                        "    unsigned pos = 2 * threadIdx.x - (threadIdx.x & (stride - 1));\n"
                        "    unsigned a = s[pos], b = s[pos + stride];\n"
                        "    if (a > b) {\n      s[pos] = b;\n      s[pos + stride] = a;\n    }\n"
                        "  }\n  d[threadIdx.x] = s[threadIdx.x];\n}\n";
    expect_refused(pairs, 7, "warp lockstep", "no barrier between them");
    expect_refused("__global__ void k(unsigned *d, unsigned stride) {\n"
                   "  __shared__ unsigned s[1024];\n  s[threadIdx.x] = d[threadIdx.x];\n"
                   "  __syncthreads();\n"
                   "  unsigned pos = 2 * threadIdx.x - (threadIdx.x & (stride - 1));\n"
                   "  s[pos] += s[pos + 2 * stride];\n}\n",
                   6, "warp lockstep", "no barrier between them");
    /* cyclic reduction whose steps have no barrier between them */
    expect_refused("__global__ void k(float *d, int iterations) {\n  __shared__ float b[512];\n"
                   "  int t = threadIdx.x;\n  b[t] = d[t];\n  __syncthreads();\n"
                   "  int stride = 1;\n  for (int j = 0; j < iterations; j++) {\n"
                   "    stride <<= 1;\n    int delta = stride >> 1;\n"
                   "    int i = stride * t + stride - 1;\n    b[i] = b[i] + b[i - delta];\n"
                   "  }\n}\n",
                   11, "warp lockstep", "no barrier between them");
    /* a mask that tests one bit is no remainder: t & (n / 2) against t */
    expect_refused("__global__ void k(unsigned *d, unsigned n) {\n"
                   "  __shared__ unsigned s[1024];\n  s[threadIdx.x] = d[threadIdx.x];\n"
                   "  __syncthreads();\n"
                   "  unsigned pos = 2 * threadIdx.x - (threadIdx.x & (n / 2));\n"
                   "  s[pos] += s[pos + n];\n}\n",
                   6, "warp lockstep", "no barrier between them");
    /* thread_rank() with a step whose barrier is missing */
    expect_refused("#include <cooperative_groups.h>\nnamespace cg = cooperative_groups;\n"
                   "__global__ void k(float *o) {\n"
                   "  cg::thread_block b = cg::this_thread_block();\n  __shared__ float s[64];\n"
                   "  s[b.thread_rank()] = o[b.thread_rank()];\n  cg::sync(b);\n"
                   "  if (b.thread_rank() < 32) s[b.thread_rank()] += s[b.thread_rank() + 32];\n"
                   "  if (b.thread_rank() < 16) s[b.thread_rank()] += s[b.thread_rank() + 16];\n"
                   "  o[0] = s[0];\n}\n",
                   9, "warp lockstep", "no barrier between them");
    /* what the check tells apart: two different fixed elements; vectors of every CUDA type;
     * an index that is the work-item's own in one dimension of a 2-D array, whatever the
     * other; t + blockDim.x against t (threadIdx.x < blockDim.x) */
    const char *apart[] = {
        "__global__ void k(const int *in, int *o, int n) {\n  __shared__ int flag[2];\n"
        "  if (threadIdx.x == 0) flag[1] = in[0];\n  __syncthreads();\n"
        "  while (flag[1] < n) {\n    if (threadIdx.x == 0) flag[0] = flag[1] + 1;\n"
        "    __syncthreads();\n    o[threadIdx.x] += flag[0];\n    __syncthreads();\n"
        "    if (threadIdx.x == 0) flag[1] += 1;\n    __syncthreads();\n  }\n}\n",
        "__global__ void k(const uchar4 *in, uchar4 *o) {\n  __shared__ uchar4 s[64];\n"
        "  s[threadIdx.x] = in[threadIdx.x];\n  uchar4 v = s[threadIdx.x];\n"
        "  o[threadIdx.x] = v;\n}\n",
        "__global__ void k(const char *val, int *o) {\n  __shared__ int c[16][64];\n"
        "  int t = threadIdx.x;\n  for (int i = 0; i < 16; i++) c[i][t] = 0;\n"
        "  c[val[t] & 15][t]++;\n  o[t] = c[3][t];\n}\n",
        "__global__ void k(float *o) {\n  __shared__ float s[512];\n  int t = threadIdx.x;\n"
        "  s[t] = o[t];\n  s[t + blockDim.x] = o[t] * 2.0f;\n  o[t] = s[t] + s[t + "
        "blockDim.x];\n}\n",
    };
    for (size_t i = 0; i < sizeof apart / sizeof *apart; i++)
        expect_ok(apart[i], (const char *[]){"GP_KERNEL(k", NULL});
    /* one expression on both sides is one work-item's element only where it names every
     * dimension of the work-item's index the kernel uses: a row's element written by its first
     * work-item and read by the row, a warp's slot written by lane 0 and read by the warp */
    expect_refused("__global__ void k(float *o) {\n  __shared__ float s[32];\n"
                   "  if (threadIdx.x == 0) s[threadIdx.y] = o[threadIdx.y];\n"
                   "  o[threadIdx.y * blockDim.x + threadIdx.x] = s[threadIdx.y];\n}\n",
                   4, "warp lockstep", "no barrier between them");
    expect_refused("__global__ void k(const float *in, float *o) {\n  __shared__ float s[32];\n"
                   "  int wid = threadIdx.x / 32, lane = threadIdx.x % 32;\n"
                   "  if (lane == 0) s[wid] = in[blockIdx.x];\n"
                   "  o[threadIdx.x] = in[threadIdx.x] * s[wid];\n}\n",
                   5, "warp lockstep", "no barrier between them");
    /* and where they meet, still refused */
    expect_refused("__global__ void k(const int *in, int *o) {\n  __shared__ int flag[2];\n"
                   "  if (threadIdx.x == 0) flag[1] = in[0];\n  o[threadIdx.x] = flag[1];\n}\n",
                   4, "warp lockstep", "no barrier between them");
    expect_refused(
        "__global__ void k(const uchar4 *in, uchar4 *o) {\n  __shared__ uchar4 s[65];\n"
        "  s[threadIdx.x] = in[threadIdx.x];\n  o[threadIdx.x] = s[threadIdx.x + 1];\n}\n",
        4, "warp lockstep", "no barrier between them");
    expect_refused("__global__ void k(const char *val, int *o) {\n  __shared__ int c[16][65];\n"
                   "  int t = threadIdx.x;\n  c[val[t] & 15][t] = 1;\n  o[t] = c[3][t + 1];\n}\n",
                   5, "warp lockstep", "no barrier between them");
    expect_refused(
        "__global__ void k(float *o) {\n  __shared__ float s[512];\n  int t = threadIdx.x;\n"
        "  s[t + blockDim.x] = o[t];\n  o[t] = s[t + blockDim.x - 1];\n}\n",
        5, "warp lockstep", "no barrier between them");
}

static void report_lists_kernels_and_clones(void **state)
{
    (void)state;
    gp_translate_result r = run(
        "__device__ float f(const float *p) { return p[0]; }\n"
        "__global__ void a(float *o) { __shared__ float s[2]; s[0] = o[0]; o[1] = f(o) + f(s); }\n"
        "__global__ void b(float *o) { o[0] = f(o); }\n",
        false);
    assert_int_equal(r.status, GP_TRANSLATE_OK);
    const cJSON *rep = r.report;
    assert_string_equal(gp_json_str(rep, "schema", ""), "gpuport.translate/1");
    assert_int_equal(cJSON_GetArraySize(cJSON_GetObjectItem(rep, "kernels")), 2);
    const cJSON *h = cJSON_GetArrayItem(cJSON_GetObjectItem(rep, "helpers"), 0);
    assert_string_equal(gp_json_str(h, "name", ""), "f");
    assert_int_equal(cJSON_GetArraySize(cJSON_GetObjectItem(h, "clones")), 2);
    const cJSON *k = cJSON_GetArrayItem(cJSON_GetObjectItem(rep, "kernels"), 0);
    const cJSON *p = cJSON_GetArrayItem(cJSON_GetObjectItem(k, "parameters"), 0);
    assert_string_equal(gp_json_str(p, "kind", ""), "GP_BUF");
    gp_translate_result_free(&r);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(kernels_and_parameters),
        cmocka_unit_test(builtins_in_three_dimensions),
        cmocka_unit_test(value_parameters_assigned_are_copied),
        cmocka_unit_test(shared_arrays_hoisted_to_kernel_scope),
        cmocka_unit_test(helper_shared_array_passed_down),
        cmocka_unit_test(helper_cloned_per_address_space),
        cmocka_unit_test(local_pointer_spaces_inferred),
        cmocka_unit_test(dynamic_shared_block),
        cmocka_unit_test(constant_data),
        cmocka_unit_test(atomics_mapped),
        cmocka_unit_test(math_mapped),
        cmocka_unit_test(vectors_and_half),
        cmocka_unit_test(half_intrinsics_take_halves),
        cmocka_unit_test(struct_operators_refused_where_used),
        cmocka_unit_test(vector_types_of_every_family),
        cmocka_unit_test(vector_operators_become_calls),
        cmocka_unit_test(bit_casts_and_classification),
        cmocka_unit_test(preprocessor_macros_and_conditions),
        cmocka_unit_test(reserved_words_renamed_and_mixed_operators_parenthesised),
        cmocka_unit_test(double_precision_marked),
        cmocka_unit_test(double_literal_in_float_code_is_noted),
        cmocka_unit_test(host_code_is_skipped),
        cmocka_unit_test(refusals),
        cmocka_unit_test(kernel_named_like_a_type),
        cmocka_unit_test(template_kernel_is_counted),
        cmocka_unit_test(wide_and_bool_parameters),
        cmocka_unit_test(half_converts_values_not_bits),
        cmocka_unit_test(cxx_in_device_code),
        cmocka_unit_test(plain_structs),
        cmocka_unit_test(struct_members),
        cmocka_unit_test(local_constants_and_parameter_limit),
        cmocka_unit_test(array_sizes_from_constant_expressions),
        cmocka_unit_test(array_sized_by_a_variable_is_refused),
        cmocka_unit_test(explicit_specialisation_is_refused),
        cmocka_unit_test(instances_refused_at_one_line_are_all_refused),
        cmocka_unit_test(builtin_named_overload_of_a_vector_is_chosen),
        cmocka_unit_test(compound_assignment_on_half_is_refused),
        cmocka_unit_test(printf_in_kernels_and_helpers),
        cmocka_unit_test(partial_keeps_no_live_marker),
        cmocka_unit_test(overloads_get_names_of_their_own),
        cmocka_unit_test(recursive_template_argument_is_refused_with_a_reason),
        cmocka_unit_test(warp_intrinsics_with_simd_width),
        cmocka_unit_test(bad_input_is_an_error),
        cmocka_unit_test(missing_header),
        cmocka_unit_test(report_lists_kernels_and_clones),
        cmocka_unit_test(host_filled_data_becomes_buffers),
        cmocka_unit_test(cooperative_groups),
        cmocka_unit_test(templates_instantiated),
        cmocka_unit_test(cub_block_collectives),
        cmocka_unit_test(group_functions),
        cmocka_unit_test(references),
        cmocka_unit_test(math_conversions_and_bool),
        cmocka_unit_test(standard_names_includes_and_host_syntax),
        cmocka_unit_test(atomic_inc_dec),
        cmocka_unit_test(partial_output_builds_without_refused_kernels),
        cmocka_unit_test(refusals_name_the_cause),
        cmocka_unit_test(warp_lockstep),
        cmocka_unit_test(lockstep_no_false_alarms),
        cmocka_unit_test(lockstep_with_the_launch_block),
        cmocka_unit_test(lockstep_loops_entered),
        cmocka_unit_test(texture_objects),
        cmocka_unit_test(launches_find_their_instances),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
