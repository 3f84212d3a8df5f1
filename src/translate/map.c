/* map.c — see map.h. The float math names are those every prelude of kernel.h maps. */
#include "translate/map.h"
#include "util/thread.h"

#include <stdlib.h>
#include <string.h>

#define SAME(n, a)                                                                                 \
    {                                                                                              \
        n, TR_CALL_SAME, a, n, NULL, NULL                                                          \
    }
#define RENAME(n, a, o, w)                                                                         \
    {                                                                                              \
        n, TR_CALL_RENAME, a, o, NULL, w                                                           \
    }
#define FMATH(n, a, o)                                                                             \
    {                                                                                              \
        n, TR_CALL_FLOAT_MATH, a, o, NULL, NULL                                                    \
    }
#define TEMPLATE(n, a, o, w)                                                                       \
    {                                                                                              \
        n, TR_CALL_TEMPLATE, a, o, NULL, w                                                         \
    }
#define SIMD(n, o)                                                                                 \
    {                                                                                              \
        n, TR_CALL_SIMD, -1, o, NULL, NULL                                                         \
    }
#define HALF(n, a, o, sig)                                                                         \
    {                                                                                              \
        n, TR_CALL_HALF, a, o, sig, NULL                                                           \
    }
#define REFUSE(n, c, w)                                                                            \
    {                                                                                              \
        n, TR_CALL_REFUSE, -1, NULL, c, w                                                          \
    }

static const char warp[] = "the dialect's SIMD-group operations cover __shfl_sync, "
                           "__shfl_up/down/xor_sync, __ballot_sync, __any_sync, __all_sync and "
                           "__syncwarp with the full mask (translated with --simd-width 32); "
                           "rewrite this with those, or with shared memory and gp_barrier()";
static const char maskless[] = "the maskless form from before CUDA 9 (not available for sm_70 and "
                               "newer): write the _sync form with the mask 0xffffffff, which "
                               "--simd-width 32 translates";
static const char tex[] = "texture and surface objects have no portable equivalent: read a buffer "
                          "and interpolate in the kernel";
static const char fence[] = "memory fences are outside the dialect: use gp_barrier() within a "
                            "group, or split the kernel";
static const char bits[] = "this bit-level intrinsic is not in every target's prelude (__popc, "
                           "__clz, __ffs, __brev, __umulhi, __byte_perm and the funnel shifts are "
                           "translated): write it in C";

static const tr_callmap table[] = {
    SAME("expf", 1),
    SAME("exp2f", 1),
    SAME("logf", 1),
    SAME("log2f", 1),
    SAME("log10f", 1),
    SAME("powf", 2),
    SAME("sqrtf", 1),
    SAME("fabsf", 1),
    SAME("fminf", 2),
    SAME("fmaxf", 2),
    SAME("fmodf", 2),
    SAME("fmaf", 3),
    SAME("floorf", 1),
    SAME("ceilf", 1),
    SAME("truncf", 1),
    SAME("roundf", 1),
    SAME("copysignf", 2),
    SAME("sinf", 1),
    SAME("cosf", 1),
    SAME("tanf", 1),
    SAME("asinf", 1),
    SAME("acosf", 1),
    SAME("atanf", 1),
    SAME("atan2f", 2),
    SAME("sinhf", 1),
    SAME("coshf", 1),
    SAME("tanhf", 1),
    SAME("rintf", 1),
    RENAME("isnan", 1, "gp_isnan", NULL),
    RENAME("isinf", 1, "gp_isinf", NULL),
    RENAME("isfinite", 1, "gp_isfinite", NULL),
    RENAME("signbit", 1, "gp_signbit", NULL),
    FMATH("exp", 1, "expf"),
    FMATH("exp2", 1, "exp2f"),
    FMATH("log", 1, "logf"),
    FMATH("log2", 1, "log2f"),
    FMATH("log10", 1, "log10f"),
    FMATH("pow", 2, "powf"),
    FMATH("sqrt", 1, "sqrtf"),
    FMATH("fabs", 1, "fabsf"),
    FMATH("fmin", 2, "fminf"),
    FMATH("fmax", 2, "fmaxf"),
    FMATH("fmod", 2, "fmodf"),
    FMATH("fma", 3, "fmaf"),
    FMATH("floor", 1, "floorf"),
    FMATH("ceil", 1, "ceilf"),
    FMATH("trunc", 1, "truncf"),
    FMATH("round", 1, "roundf"),
    FMATH("copysign", 2, "copysignf"),
    FMATH("sin", 1, "sinf"),
    FMATH("cos", 1, "cosf"),
    FMATH("tan", 1, "tanf"),
    FMATH("asin", 1, "asinf"),
    FMATH("acos", 1, "acosf"),
    FMATH("atan", 1, "atanf"),
    FMATH("atan2", 2, "atan2f"),
    FMATH("sinh", 1, "sinhf"),
    FMATH("cosh", 1, "coshf"),
    FMATH("tanh", 1, "tanhf"),
    FMATH("rint", 1, "rintf"),
    /* nearbyint rounds as rint does in the default rounding mode (CUDA's only one) */
    RENAME("nearbyintf", 1, "rintf", NULL),
    {"nearbyint", TR_CALL_FLOAT_MATH, 1, "rintf", "rint", NULL}, /* rint on doubles too */
    TEMPLATE("lroundf", 1, "((int64_t)roundf($1))", NULL),
    TEMPLATE("llroundf", 1, "((int64_t)roundf($1))", NULL),
    TEMPLATE("lrintf", 1, "((int64_t)rintf($1))", NULL),
    TEMPLATE("llrintf", 1, "((int64_t)rintf($1))", NULL),
    RENAME("sincosf", 3, "gp_sincos", NULL),
    RENAME("__sincosf", 3, "gp_sincos",
           "fast-math intrinsic __sincosf became the precise gp_sincos"),
    RENAME("__float_as_int", 1, "gp_float_as_int", NULL),
    RENAME("__int_as_float", 1, "gp_int_as_float", NULL),
    RENAME("__float_as_uint", 1, "gp_float_as_uint", NULL),
    RENAME("__uint_as_float", 1, "gp_uint_as_float", NULL),
    RENAME("__double_as_longlong", 1, "gp_double_as_long", NULL),
    RENAME("__longlong_as_double", 1, "gp_long_as_double", NULL),
    RENAME("rsqrtf", 1, "gp_rsqrt", NULL),
    RENAME("printf", -1, "gp_printf", NULL), /* its format is checked when the .gpk is built */
    RENAME("__expf", 1, "expf", "fast-math intrinsic __expf became the precise expf"),
    RENAME("__logf", 1, "logf", "fast-math intrinsic __logf became the precise logf"),
    RENAME("__log2f", 1, "log2f", "fast-math intrinsic __log2f became the precise log2f"),
    RENAME("__sinf", 1, "sinf", "fast-math intrinsic __sinf became the precise sinf"),
    RENAME("__cosf", 1, "cosf", "fast-math intrinsic __cosf became the precise cosf"),
    RENAME("__tanf", 1, "tanf", "fast-math intrinsic __tanf became the precise tanf"),
    RENAME("__powf", 2, "powf", "fast-math intrinsic __powf became the precise powf"),
    RENAME("__fsqrt_rn", 1, "sqrtf", NULL),
    RENAME("__fmaf_rn", 3, "fmaf", NULL),
    RENAME("__float2half", 1, "gp_float_to_half", NULL),
    RENAME("__float2half_rn", 1, "gp_float_to_half", NULL),
    RENAME("__half2float", 1, "gp_half_to_float", NULL),
    /* __half and __half2 arithmetic (kernel.h: computed in float, rounded to half) */
    HALF("__hadd", 2, "gp_half_add", "hh>h"),
    HALF("__hsub", 2, "gp_half_sub", "hh>h"),
    HALF("__hmul", 2, "gp_half_mul", "hh>h"),
    HALF("__hdiv", 2, "gp_half_div", "hh>h"),
    HALF("__hfma", 3, "gp_half_fma", "hhh>h"),
    HALF("__hneg", 1, "gp_half_neg", "h>h"),
    HALF("__habs", 1, "gp_half_abs", "h>h"),
    HALF("__hmax", 2, "gp_half_max", "hh>h"),
    HALF("__hmin", 2, "gp_half_min", "hh>h"),
    HALF("__heq", 2, "gp_half_eq", "hh>i"),
    HALF("__hne", 2, "gp_half_ne", "hh>i"),
    HALF("__hlt", 2, "gp_half_lt", "hh>i"),
    HALF("__hle", 2, "gp_half_le", "hh>i"),
    HALF("__hgt", 2, "gp_half_gt", "hh>i"),
    HALF("__hge", 2, "gp_half_ge", "hh>i"),
    /* cuda_fp16.h's math functions on __half and __half2 */
    HALF("hexp", 1, "gp_half_exp", "h>h"),
    HALF("h2exp", 1, "gp_half2_exp", "2>2"),
    HALF("hexp2", 1, "gp_half_exp2", "h>h"),
    HALF("h2exp2", 1, "gp_half2_exp2", "2>2"),
    HALF("hexp10", 1, "gp_half_exp10", "h>h"),
    HALF("h2exp10", 1, "gp_half2_exp10", "2>2"),
    HALF("hlog", 1, "gp_half_log", "h>h"),
    HALF("h2log", 1, "gp_half2_log", "2>2"),
    HALF("hlog2", 1, "gp_half_log2", "h>h"),
    HALF("h2log2", 1, "gp_half2_log2", "2>2"),
    HALF("hlog10", 1, "gp_half_log10", "h>h"),
    HALF("h2log10", 1, "gp_half2_log10", "2>2"),
    HALF("hsqrt", 1, "gp_half_sqrt", "h>h"),
    HALF("h2sqrt", 1, "gp_half2_sqrt", "2>2"),
    HALF("hrsqrt", 1, "gp_half_rsqrt", "h>h"),
    HALF("h2rsqrt", 1, "gp_half2_rsqrt", "2>2"),
    HALF("hrcp", 1, "gp_half_rcp", "h>h"),
    HALF("h2rcp", 1, "gp_half2_rcp", "2>2"),
    HALF("hsin", 1, "gp_half_sin", "h>h"),
    HALF("h2sin", 1, "gp_half2_sin", "2>2"),
    HALF("hcos", 1, "gp_half_cos", "h>h"),
    HALF("h2cos", 1, "gp_half2_cos", "2>2"),
    HALF("hceil", 1, "gp_half_ceil", "h>h"),
    HALF("h2ceil", 1, "gp_half2_ceil", "2>2"),
    HALF("hfloor", 1, "gp_half_floor", "h>h"),
    HALF("h2floor", 1, "gp_half2_floor", "2>2"),
    HALF("htrunc", 1, "gp_half_trunc", "h>h"),
    HALF("h2trunc", 1, "gp_half2_trunc", "2>2"),
    HALF("hrint", 1, "gp_half_rint", "h>h"),
    HALF("h2rint", 1, "gp_half2_rint", "2>2"),
    HALF("__hadd2", 2, "gp_half2_add", "22>2"),
    HALF("__hsub2", 2, "gp_half2_sub", "22>2"),
    HALF("__hmul2", 2, "gp_half2_mul", "22>2"),
    HALF("__h2div", 2, "gp_half2_div", "22>2"),
    HALF("__hfma2", 3, "gp_half2_fma", "222>2"),
    HALF("__hneg2", 1, "gp_half2_neg", "2>2"),
    HALF("__habs2", 1, "gp_half2_abs", "2>2"),
    HALF("__hmax2", 2, "gp_half2_max", "22>2"),
    HALF("__hmin2", 2, "gp_half2_min", "22>2"),
    HALF("__floats2half2_rn", 2, "gp_floats_to_half2", "ff>2"),
    HALF("__float2half2_rn", 1, "gp_float_to_half2", "f>2"),
    HALF("__float22half2_rn", 1, "gp_float2_to_half2", "F>2"),
    HALF("__half22float2", 1, "gp_half2_to_float2", "2>F"),
    HALF("__halves2half2", 2, "gp_halves_to_half2", "hh>2"),
    HALF("__low2float", 1, "gp_half2_low_float", "2>f"),
    HALF("__high2float", 1, "gp_half2_high_float", "2>f"),
    RENAME("__bfloat162float", 1, "gp_bf16_to_float", NULL),
    RENAME("__float2bfloat16", 1, "gp_float_to_bf16", NULL),
    RENAME("__float2bfloat16_rn", 1, "gp_float_to_bf16", NULL),
    RENAME("make_float2", 2, "gp_make_float2", NULL),
    RENAME("make_float4", 4, "gp_make_float4", NULL),
    RENAME("make_int2", 2, "gp_make_int2", NULL),
    RENAME("make_int4", 4, "gp_make_int4", NULL),
    TEMPLATE("__fdividef", 2, "($1 / $2)", "fast division __fdividef became '/'"),
    TEMPLATE("__frcp_rn", 1, "(1.0f / $1)", NULL),
    TEMPLATE("__fadd_rn", 2, "($1 + $2)", NULL),
    TEMPLATE("__fsub_rn", 2, "($1 - $2)", NULL),
    TEMPLATE("__fmul_rn", 2, "($1 * $2)", NULL),
    TEMPLATE("__fdiv_rn", 2, "($1 / $2)", NULL),
    TEMPLATE("__saturatef", 1, "gp_clamp($1, 0.0f, 1.0f)", NULL),
    TEMPLATE("__ldg", 1, "(*$1)", "__ldg (read-only cache load) became a plain load"),
    /* the other cache-hint loads and stores: plain ones (the hints have no portable meaning) */
    TEMPLATE("__ldcs", 1, "(*$1)", "__ldcs (streaming load) became a plain load"),
    TEMPLATE("__ldcg", 1, "(*$1)", "__ldcg (L2-only load) became a plain load"),
    TEMPLATE("__ldca", 1, "(*$1)", "__ldca (cache-all load) became a plain load"),
    TEMPLATE("__ldlu", 1, "(*$1)", "__ldlu (last-use load) became a plain load"),
    TEMPLATE("__ldcv", 1, "(*$1)", "__ldcv (volatile-cache load) became a plain load"),
    TEMPLATE("__stcs", 2, "(*$1 = $2)", "__stcs (streaming store) became a plain store"),
    TEMPLATE("__stcg", 2, "(*$1 = $2)", "__stcg (L2-only store) became a plain store"),
    TEMPLATE("__stwb", 2, "(*$1 = $2)", "__stwb (write-back store) became a plain store"),
    TEMPLATE("__stwt", 2, "(*$1 = $2)", "__stwt (write-through store) became a plain store"),
    TEMPLATE("__ldcs", 1, "(*$1)", "__ldcs (streaming load) became a plain load"),
    TEMPLATE("__ldca", 1, "(*$1)", "__ldca (cached load) became a plain load"),
    TEMPLATE("__ldcg", 1, "(*$1)", "__ldcg (L2-only load) became a plain load"),
    TEMPLATE("__ldlu", 1, "(*$1)", "__ldlu (last-use load) became a plain load"),
    TEMPLATE("__ldcv", 1, "(*$1)", "__ldcv (uncached load) became a plain load"),
    TEMPLATE("__stcs", 2, "(*$1 = $2)", "__stcs (streaming store) became a plain store"),
    TEMPLATE("__stcg", 2, "(*$1 = $2)", "__stcg (L2-only store) became a plain store"),
    TEMPLATE("__stwb", 2, "(*$1 = $2)", "__stwb (write-back store) became a plain store"),
    TEMPLATE("__stwt", 2, "(*$1 = $2)", "__stwt (write-through store) became a plain store"),
    TEMPLATE("__int2float_rn", 1, "((float)$1)", NULL),
    TEMPLATE("__uint2float_rn", 1, "((float)$1)", NULL),
    TEMPLATE("__float2uint_rz", 1, "((unsigned int)$1)", NULL),
    RENAME("__frsqrt_rn", 1, "gp_rsqrt", NULL),
    TEMPLATE("fdividef", 2, "($1 / $2)", NULL),
    TEMPLATE("__mul24", 2, "($1 * $2)", NULL),
    TEMPLATE("__umul24", 2, "($1 * $2)", NULL),
    TEMPLATE("__float2int_rz", 1, "((int)$1)", NULL),
    /* conversions with a rounding mode: the mode's function, then the cast (which truncates) */
    TEMPLATE("__float2int_rn", 1, "((int)rintf($1))", NULL),
    TEMPLATE("__float2int_rd", 1, "((int)floorf($1))", NULL),
    TEMPLATE("__float2int_ru", 1, "((int)ceilf($1))", NULL),
    TEMPLATE("__float2uint_rn", 1, "((unsigned int)rintf($1))", NULL),
    TEMPLATE("__float2uint_rd", 1, "((unsigned int)floorf($1))", NULL),
    TEMPLATE("__float2uint_ru", 1, "((unsigned int)ceilf($1))", NULL),
    TEMPLATE("__float2ll_rn", 1, "((int64_t)rintf($1))", NULL),
    TEMPLATE("__float2ll_rz", 1, "((int64_t)$1)", NULL),
    TEMPLATE("__float2ll_rd", 1, "((int64_t)floorf($1))", NULL),
    TEMPLATE("__float2ll_ru", 1, "((int64_t)ceilf($1))", NULL),
    TEMPLATE("__double2int_rn", 1, "((int)rint($1))", NULL),
    TEMPLATE("__double2int_rz", 1, "((int)$1)", NULL),
    TEMPLATE("__double2int_rd", 1, "((int)floor($1))", NULL),
    TEMPLATE("__double2int_ru", 1, "((int)ceil($1))", NULL),
    TEMPLATE("__double2uint_rn", 1, "((unsigned int)rint($1))", NULL),
    TEMPLATE("__double2uint_rz", 1, "((unsigned int)$1)", NULL),
    TEMPLATE("__double2ll_rn", 1, "((int64_t)rint($1))", NULL),
    TEMPLATE("__double2ll_rz", 1, "((int64_t)$1)", NULL),
    TEMPLATE("__double2float_rn", 1, "((float)$1)", NULL),
    TEMPLATE("__int2double_rn", 1, "((double)$1)", NULL),
    TEMPLATE("__uint2double_rn", 1, "((double)$1)", NULL),
    TEMPLATE("__ll2double_rn", 1, "((double)$1)", NULL),
    TEMPLATE("__ll2float_rn", 1, "((float)$1)", NULL),
    TEMPLATE("__ull2float_rn", 1, "((float)$1)", NULL),
    /* double arithmetic in the default rounding mode, as the operators compute it */
    TEMPLATE("__dadd_rn", 2, "($1 + $2)", NULL),
    TEMPLATE("__dsub_rn", 2, "($1 - $2)", NULL),
    TEMPLATE("__dmul_rn", 2, "($1 * $2)", NULL),
    TEMPLATE("__ddiv_rn", 2, "($1 / $2)", NULL),
    TEMPLATE("__drcp_rn", 1, "(1.0 / $1)", NULL),
    TEMPLATE("__dsqrt_rn", 1, "sqrt($1)", NULL),
    TEMPLATE("__fma_rn", 3, "fma($1, $2, $3)", NULL),
    /* a double's 32-bit halves, and a double made of them */
    TEMPLATE("__double2hiint", 1, "((int)(gp_double_as_long($1) >> 32))", NULL),
    TEMPLATE("__double2loint", 1, "((int)(uint32_t)gp_double_as_long($1))", NULL),
    TEMPLATE("__hiloint2double", 2,
             "gp_long_as_double((int64_t)(((uint64_t)(uint32_t)($1) << 32) | (uint32_t)($2)))",
             NULL),
    /* the high 32 bits of a 64-bit product; the rounded average of two unsigned values */
    TEMPLATE("__umulhi", 2, "((unsigned int)(((uint64_t)($1) * (uint64_t)($2)) >> 32))", NULL),
    TEMPLATE("__mulhi", 2, "((int)(((int64_t)($1) * (int64_t)($2)) >> 32))", NULL),
    TEMPLATE("__urhadd", 2, "((unsigned int)(((uint64_t)($1) + (uint64_t)($2) + 1) >> 1))", NULL),
    TEMPLATE("__uhadd", 2, "((unsigned int)(((uint64_t)($1) + (uint64_t)($2)) >> 1))", NULL),
    {"min", TR_CALL_MINMAX, 2, "min", NULL, NULL},
    {"max", TR_CALL_MINMAX, 2, "max", NULL, NULL},
    {"abs", TR_CALL_MINMAX, 1, "abs", NULL, NULL},
    /* CUDA's integer min/max of a fixed type: the arguments converted to it */
    /* min/max where the file overloads them on vectors but the arguments are scalars (overload.c)
     */
    {"gp__min", TR_CALL_MINMAX, 2, "min", NULL, NULL},
    {"gp__max", TR_CALL_MINMAX, 2, "max", NULL, NULL},
    {"umin", TR_CALL_MINMAX, 2, "min", NULL, NULL},
    {"umax", TR_CALL_MINMAX, 2, "max", NULL, NULL},
    {"llmin", TR_CALL_MINMAX, 2, "min", NULL, NULL},
    {"llmax", TR_CALL_MINMAX, 2, "max", NULL, NULL},
    {"ullmin", TR_CALL_MINMAX, 2, "min", NULL, NULL},
    {"ullmax", TR_CALL_MINMAX, 2, "max", NULL, NULL},
    {"__syncthreads", TR_CALL_BARRIER, 0, "gp_barrier", NULL, NULL},
    {"atomicAdd", TR_CALL_ATOMIC, 2, "add", NULL, NULL},
    {"atomicSub", TR_CALL_ATOMIC, 2, "sub", NULL, NULL},
    {"atomicMin", TR_CALL_ATOMIC, 2, "min", NULL, NULL},
    {"atomicMax", TR_CALL_ATOMIC, 2, "max", NULL, NULL},
    {"atomicAnd", TR_CALL_ATOMIC, 2, "and", NULL, NULL},
    {"atomicOr", TR_CALL_ATOMIC, 2, "or", NULL, NULL},
    {"atomicXor", TR_CALL_ATOMIC, 2, "xor", NULL, NULL},
    {"atomicExch", TR_CALL_ATOMIC, 2, "xchg", NULL, NULL},
    {"atomicCAS", TR_CALL_ATOMIC, 3, "cas", NULL, NULL},
    {"atomicInc", TR_CALL_ATOMIC, 2, "inc", NULL, NULL},
    {"atomicDec", TR_CALL_ATOMIC, 2, "dec", NULL, NULL},
/* the scoped forms: a block's is a device-wide atomic (stronger, the same result); a
 * system's is one the host and other devices do not see during the kernel (said) */
#define ATOMIC_SCOPED(cu, a, op)                                                                   \
    {cu "_block", TR_CALL_ATOMIC, a, op, NULL, NULL},                                              \
    {                                                                                              \
        cu "_system", TR_CALL_ATOMIC, a, op, NULL,                                                 \
            "a system-scope atomic became a device-scope one: the host and other devices do not "  \
            "see it while the kernel runs"                                                         \
    }
    ATOMIC_SCOPED("atomicAdd", 2, "add"),
    ATOMIC_SCOPED("atomicSub", 2, "sub"),
    ATOMIC_SCOPED("atomicMin", 2, "min"),
    ATOMIC_SCOPED("atomicMax", 2, "max"),
    ATOMIC_SCOPED("atomicAnd", 2, "and"),
    ATOMIC_SCOPED("atomicOr", 2, "or"),
    ATOMIC_SCOPED("atomicXor", 2, "xor"),
    ATOMIC_SCOPED("atomicExch", 2, "xchg"),
    ATOMIC_SCOPED("atomicCAS", 3, "cas"),
    ATOMIC_SCOPED("atomicInc", 2, "inc"),
    ATOMIC_SCOPED("atomicDec", 2, "dec"),
#undef ATOMIC_SCOPED
    SIMD("__syncwarp", "gp_simd_barrier"),
    SIMD("__shfl_sync", "gp_simd_shuffle"),
    SIMD("__shfl_up_sync", "gp_simd_shuffle_up"),
    SIMD("__shfl_down_sync", "gp_simd_shuffle_down"),
    SIMD("__shfl_xor_sync", "gp_simd_shuffle_xor"),
    SIMD("__ballot_sync", "gp_simd_ballot"),
    SIMD("__any_sync", "gp_simd_any"),
    SIMD("__all_sync", "gp_simd_all"),
    REFUSE("__shfl", "warp shuffle", maskless),
    REFUSE("__shfl_down", "warp shuffle", maskless),
    REFUSE("__shfl_up", "warp shuffle", maskless),
    REFUSE("__shfl_xor", "warp shuffle", maskless),
    REFUSE("__ballot", "warp vote", maskless),
    REFUSE("__any", "warp vote", maskless),
    REFUSE("__all", "warp vote", maskless),
    REFUSE("__activemask", "warp vote", warp),
    REFUSE("__match_any_sync", "warp match", warp),
    REFUSE("__reduce_add_sync", "warp reduce", warp),
    REFUSE("__threadfence", "memory fence", fence),
    REFUSE("__threadfence_block", "memory fence", fence),
    REFUSE("__threadfence_system", "memory fence", fence),
    REFUSE("tex1Dfetch", "texture object", tex),
    REFUSE("tex1D", "texture object", tex),
    REFUSE("tex2D", "texture object", tex),
    REFUSE("tex3D", "texture object", tex),
    REFUSE("tex2DLayered", "texture object", tex),
    REFUSE("texCubemap", "texture object", tex),
    REFUSE("surf1Dwrite", "surface object", tex),
    REFUSE("surf2Dwrite", "surface object", tex),
    REFUSE("surf1Dread", "surface object", tex),
    REFUSE("surf2Dread", "surface object", tex),
    REFUSE("surf3Dwrite", "surface object", tex),
    REFUSE("this_grid", "cooperative groups",
           "grid-wide synchronisation has no equivalent on "
           "Metal, OpenCL 1.2 or the CPU backend"),
    REFUSE("this_thread_block", "cooperative groups",
           "cooperative groups are outside the subset: "
           "use gp_barrier()"),
    REFUSE("tiled_partition", "cooperative groups", warp),
    REFUSE("assert", "assert",
           "an assert inside an expression is not translated (one that is a statement of its "
           "own becomes a printed message): write it as a statement, or translate with -D "
           "NDEBUG to have it removed, as nvcc -DNDEBUG does"),
    REFUSE("__popc", "bit intrinsic", bits),
    REFUSE("__popcll", "bit intrinsic", bits),
    REFUSE("__clz", "bit intrinsic", bits),
    REFUSE("__ffs", "bit intrinsic", bits),
    REFUSE("__brev", "bit intrinsic", bits),
    REFUSE("clock", "clock", "the cycle counter has no portable equivalent"),
    REFUSE("clock64", "clock", "the cycle counter has no portable equivalent"),
    REFUSE("malloc", "device malloc", "device-side allocation has no portable equivalent"),
    REFUSE("free", "device malloc", "device-side allocation has no portable equivalent"),
    TEMPLATE("make_float3", 3, "gp_make_float4($1, $2, $3, 0.0f)", NULL),
    TEMPLATE("make_int3", 3, "gp_make_int4($1, $2, $3, 0)", NULL),
    /* the other vector types: 3 components in the 4-component type (vectors.c) */
    RENAME("make_char2", 2, "gp_make_char2", NULL),
    TEMPLATE("make_char3", 3, "gp_make_char4($1, $2, $3, 0)", NULL),
    RENAME("make_char4", 4, "gp_make_char4", NULL),
    RENAME("make_uchar2", 2, "gp_make_uchar2", NULL),
    TEMPLATE("make_uchar3", 3, "gp_make_uchar4($1, $2, $3, 0)", NULL),
    RENAME("make_uchar4", 4, "gp_make_uchar4", NULL),
    RENAME("make_short2", 2, "gp_make_short2", NULL),
    TEMPLATE("make_short3", 3, "gp_make_short4($1, $2, $3, 0)", NULL),
    RENAME("make_short4", 4, "gp_make_short4", NULL),
    RENAME("make_ushort2", 2, "gp_make_ushort2", NULL),
    TEMPLATE("make_ushort3", 3, "gp_make_ushort4($1, $2, $3, 0)", NULL),
    RENAME("make_ushort4", 4, "gp_make_ushort4", NULL),
    RENAME("make_uint2", 2, "gp_make_uint2", NULL),
    TEMPLATE("make_uint3", 3, "gp_make_uint4($1, $2, $3, 0)", NULL),
    RENAME("make_uint4", 4, "gp_make_uint4", NULL),
    RENAME("make_long2", 2, "gp_make_long2", NULL),
    TEMPLATE("make_long3", 3, "gp_make_long4($1, $2, $3, 0)", NULL),
    RENAME("make_long4", 4, "gp_make_long4", NULL),
    RENAME("make_ulong2", 2, "gp_make_ulong2", NULL),
    TEMPLATE("make_ulong3", 3, "gp_make_ulong4($1, $2, $3, 0)", NULL),
    RENAME("make_ulong4", 4, "gp_make_ulong4", NULL),
    RENAME("make_longlong2", 2, "gp_make_long2", NULL),
    TEMPLATE("make_longlong3", 3, "gp_make_long4($1, $2, $3, 0)", NULL),
    RENAME("make_longlong4", 4, "gp_make_long4", NULL),
    RENAME("make_ulonglong2", 2, "gp_make_ulong2", NULL),
    TEMPLATE("make_ulonglong3", 3, "gp_make_ulong4($1, $2, $3, 0)", NULL),
    RENAME("make_ulonglong4", 4, "gp_make_ulong4", NULL),
    RENAME("make_double2", 2, "gp_make_double2", NULL),
    TEMPLATE("make_double3", 3, "gp_make_double4($1, $2, $3, 0)", NULL),
    RENAME("make_double4", 4, "gp_make_double4", NULL),
    REFUSE("cudaMalloc", "host API in device code", "the CUDA runtime API is host code"),
};

/* The table's entries sorted by name (the first of a name first), found by bisection: every call
 * of every function is looked up, several times. */
static const tr_callmap *by_name[sizeof table / sizeof table[0]];
static gp_once by_name_once = GP_ONCE_INIT;

static int cmp_entry(const void *a, const void *b)
{
    const tr_callmap *x = *(const tr_callmap *const *)a, *y = *(const tr_callmap *const *)b;
    int c = strcmp(x->cuda, y->cuda);
    return c ? c : (x > y) - (x < y);
}

static void by_name_init(void)
{
    for (size_t i = 0; i < sizeof table / sizeof table[0]; i++)
        by_name[i] = &table[i];
    qsort(by_name, sizeof table / sizeof table[0], sizeof *by_name, cmp_entry);
}

const tr_callmap *tr_map_call(const char *name)
{
    gp_once_call(&by_name_once, by_name_init);
    size_t lo = 0, hi = sizeof table / sizeof table[0];
    while (lo < hi) { /* the first entry not below name */
        size_t mid = lo + (hi - lo) / 2;
        if (strcmp(by_name[mid]->cuda, name) < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    if (lo == sizeof table / sizeof table[0] || strcmp(by_name[lo]->cuda, name)) return NULL;
    const tr_callmap *m = by_name[lo];
    return m->out || m->kind == TR_CALL_REFUSE ? m : NULL;
}

const tr_callmap *tr_map_table(int *count)
{
    *count = (int)(sizeof table / sizeof table[0]);
    return table;
}
