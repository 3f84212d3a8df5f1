/* bits.c — CUDA's integer bit intrinsics (__popc, __clz, __ffs, __brev, their 64-bit forms,
 * __umulhi, __mulhi, __umul64hi, __byte_perm, the funnel shifts, __usad, __sad and the halving
 * adds), and the C math functions Metal's standard library lacks (hypot, cbrt, expm1, log1p,
 * ldexp): no target's prelude has all of them, so each becomes a small device function the
 * translation writes once, in plain C it translates like the file's own: integer code that
 * computes exactly what the intrinsic does, float code within a few units in the last place of
 * what CUDA's libdevice gives (its documented bounds are 1 to 3). */
#include <string.h>

#include "translate/parser.h"

/* A CUDA name, the helper's name in the output, and its CUDA source. */
typedef struct helper {
    const char *cuda, *name, *text;
} helper;

static const helper helpers[] = {
    {"__popc", "cuda_popc",
     "__device__ int cuda_popc(unsigned int v)\n{\n"
     "    v = v - ((v >> 1) & 0x55555555u);\n"
     "    v = (v & 0x33333333u) + ((v >> 2) & 0x33333333u);\n"
     "    v = (v + (v >> 4)) & 0x0f0f0f0fu;\n"
     "    return (int)((v * 0x01010101u) >> 24);\n}\n"},
    {"__popcll", "cuda_popcll",
     "__device__ int cuda_popcll(unsigned long long v)\n{\n"
     "    int n = 0;\n    while (v != 0ull) {\n        v &= v - 1ull;\n        n++;\n    }\n"
     "    return n;\n}\n"},
    {"__clz", "cuda_clz",
     "__device__ int cuda_clz(int x)\n{\n    unsigned int v = (unsigned int)x;\n"
     "    int n = 0;\n    if (v == 0u) return 32;\n"
     "    while ((v & 0x80000000u) == 0u) {\n        v <<= 1;\n        n++;\n    }\n"
     "    return n;\n}\n"},
    {"__clzll", "cuda_clzll",
     "__device__ int cuda_clzll(long long x)\n{\n    unsigned long long v = (unsigned long "
     "long)x;\n"
     "    int n = 0;\n    if (v == 0ull) return 64;\n"
     "    while ((v & 0x8000000000000000ull) == 0ull) {\n        v <<= 1;\n        n++;\n    }\n"
     "    return n;\n}\n"},
    {"__ffs", "cuda_ffs",
     "__device__ int cuda_ffs(int x)\n{\n    unsigned int v = (unsigned int)x;\n"
     "    int n = 1;\n    if (v == 0u) return 0;\n"
     "    while ((v & 1u) == 0u) {\n        v >>= 1;\n        n++;\n    }\n    return n;\n}\n"},
    {"__ffsll", "cuda_ffsll",
     "__device__ int cuda_ffsll(long long x)\n{\n    unsigned long long v = (unsigned long "
     "long)x;\n"
     "    int n = 1;\n    if (v == 0ull) return 0;\n"
     "    while ((v & 1ull) == 0ull) {\n        v >>= 1;\n        n++;\n    }\n    return n;\n}\n"},
    {"__brev", "cuda_brev",
     "__device__ unsigned int cuda_brev(unsigned int v)\n{\n"
     "    v = ((v >> 1) & 0x55555555u) | ((v & 0x55555555u) << 1);\n"
     "    v = ((v >> 2) & 0x33333333u) | ((v & 0x33333333u) << 2);\n"
     "    v = ((v >> 4) & 0x0f0f0f0fu) | ((v & 0x0f0f0f0fu) << 4);\n"
     "    v = ((v >> 8) & 0x00ff00ffu) | ((v & 0x00ff00ffu) << 8);\n"
     "    return (v >> 16) | (v << 16);\n}\n"},
    {"__umulhi", "cuda_umulhi",
     "__device__ unsigned int cuda_umulhi(unsigned int a, unsigned int b)\n{\n"
     "    return (unsigned int)(((unsigned long long)a * (unsigned long long)b) >> 32);\n}\n"},
    {"__mulhi", "cuda_mulhi",
     "__device__ int cuda_mulhi(int a, int b)\n{\n"
     "    return (int)(((long long)a * (long long)b) >> 32);\n}\n"},
    {"__umul64hi", "cuda_umul64hi",
     "__device__ unsigned long long cuda_umul64hi(unsigned long long a, unsigned long long b)\n"
     "{\n    unsigned long long al = a & 0xffffffffull, ah = a >> 32;\n"
     "    unsigned long long bl = b & 0xffffffffull, bh = b >> 32;\n"
     "    unsigned long long p0 = al * bl, p1 = al * bh, p2 = ah * bl, p3 = ah * bh;\n"
     "    unsigned long long mid = (p0 >> 32) + (p1 & 0xffffffffull) + (p2 & 0xffffffffull);\n"
     "    return p3 + (p1 >> 32) + (p2 >> 32) + (mid >> 32);\n}\n"},
    {"__brevll", "cuda_brevll",
     "__device__ unsigned long long cuda_brevll(unsigned long long v)\n{\n"
     "    v = ((v >> 1) & 0x5555555555555555ull) | ((v & 0x5555555555555555ull) << 1);\n"
     "    v = ((v >> 2) & 0x3333333333333333ull) | ((v & 0x3333333333333333ull) << 2);\n"
     "    v = ((v >> 4) & 0x0f0f0f0f0f0f0f0full) | ((v & 0x0f0f0f0f0f0f0f0full) << 4);\n"
     "    v = ((v >> 8) & 0x00ff00ff00ff00ffull) | ((v & 0x00ff00ff00ff00ffull) << 8);\n"
     "    v = ((v >> 16) & 0x0000ffff0000ffffull) | ((v & 0x0000ffff0000ffffull) << 16);\n"
     "    return (v >> 32) | (v << 32);\n}\n"},
    /* byte i of the result is byte (s >> 4i) & 7 of y:x (x the low four) */
    {"__byte_perm", "cuda_byte_perm",
     "__device__ unsigned int cuda_byte_perm(unsigned int x, unsigned int y, unsigned int s)\n"
     "{\n    unsigned long long v = ((unsigned long long)y << 32) | (unsigned long long)x;\n"
     "    unsigned int r = 0u;\n    for (int i = 0; i < 4; i++) {\n"
     "        unsigned int n = (s >> (4 * i)) & 7u;\n"
     "        r |= (unsigned int)((v >> (8u * n)) & 0xffull) << (8 * i);\n    }\n"
     "    return r;\n}\n"},
    /* the high word of hi:lo shifted left, the low word of it shifted right; the shift modulo
     * 32, or clamped to 32 (the c forms) */
    {"__funnelshift_l", "cuda_funnelshift_l",
     "__device__ unsigned int cuda_funnelshift_l(unsigned int lo, unsigned int hi, unsigned int "
     "s)\n{\n    unsigned long long v = ((unsigned long long)hi << 32) | (unsigned long long)lo;\n"
     "    return (unsigned int)((v << (s & 31u)) >> 32);\n}\n"},
    {"__funnelshift_lc", "cuda_funnelshift_lc",
     "__device__ unsigned int cuda_funnelshift_lc(unsigned int lo, unsigned int hi, unsigned int "
     "s)\n{\n    unsigned long long v = ((unsigned long long)hi << 32) | (unsigned long long)lo;\n"
     "    return (unsigned int)((v << (s < 32u ? s : 32u)) >> 32);\n}\n"},
    {"__funnelshift_r", "cuda_funnelshift_r",
     "__device__ unsigned int cuda_funnelshift_r(unsigned int lo, unsigned int hi, unsigned int "
     "s)\n{\n    unsigned long long v = ((unsigned long long)hi << 32) | (unsigned long long)lo;\n"
     "    return (unsigned int)(v >> (s & 31u));\n}\n"},
    {"__funnelshift_rc", "cuda_funnelshift_rc",
     "__device__ unsigned int cuda_funnelshift_rc(unsigned int lo, unsigned int hi, unsigned int "
     "s)\n{\n    unsigned long long v = ((unsigned long long)hi << 32) | (unsigned long long)lo;\n"
     "    return (unsigned int)(v >> (s < 32u ? s : 32u));\n}\n"},
    /* |x - y| + z; the averages without overflow */
    {"__usad", "cuda_usad",
     "__device__ unsigned int cuda_usad(unsigned int x, unsigned int y, unsigned int z)\n{\n"
     "    return (x > y ? x - y : y - x) + z;\n}\n"},
    {"__sad", "cuda_sad",
     "__device__ unsigned int cuda_sad(int x, int y, unsigned int z)\n{\n"
     "    return (x > y ? (unsigned int)x - (unsigned int)y : (unsigned int)y - (unsigned int)x) + "
     "z;\n}\n"},
    {"__uhadd", "cuda_uhadd",
     "__device__ unsigned int cuda_uhadd(unsigned int x, unsigned int y)\n{\n"
     "    return (x >> 1) + (y >> 1) + (x & y & 1u);\n}\n"},
    {"__urhadd", "cuda_urhadd",
     "__device__ unsigned int cuda_urhadd(unsigned int x, unsigned int y)\n{\n"
     "    return (x >> 1) + (y >> 1) + ((x | y) & 1u);\n}\n"},
    {"__rhadd", "cuda_rhadd",
     "__device__ int cuda_rhadd(int x, int y)\n{\n"
     "    return (int)(((long long)x + (long long)y + 1ll) >> 1);\n}\n"},
};

/* hypot scaled by the larger magnitude (no overflow for large arguments, C's infinities and
 * NaNs); cbrt from exp2(log2(|x|)/3) and a Newton step (y += (a/y^2 - y)/3, which cannot
 * overflow); expm1 and log1p by Kahan's method (exact near 0); ldexp by exact multiplications by
 * powers of two, made from their bits, at most three steps apart. */
static const helper math[] = {
    {"hypotf", "cuda_hypotf",
     "__device__ float cuda_hypotf(float x, float y)\n{\n"
     "    if (isinf(x) || isinf(y)) return 1.0f / 0.0f;\n"
     "    if (x != x || y != y) return x + y;\n"
     "    float a = fabsf(x), b = fabsf(y);\n"
     "    float m = fmaxf(a, b), n = fminf(a, b);\n"
     "    if (m == 0.0f) return 0.0f;\n"
     "    float r = n / m;\n"
     "    return m * sqrtf(1.0f + r * r);\n}\n"},
    {"hypot", "cuda_hypot",
     "__device__ double cuda_hypot(double x, double y)\n{\n"
     "    if (isinf(x) || isinf(y)) return 1.0 / 0.0;\n"
     "    if (x != x || y != y) return x + y;\n"
     "    double a = fabs(x), b = fabs(y);\n"
     "    double m = fmax(a, b), n = fmin(a, b);\n"
     "    if (m == 0.0) return 0.0;\n"
     "    double r = n / m;\n"
     "    return m * sqrt(1.0 + r * r);\n}\n"},
    {"cbrtf", "cuda_cbrtf",
     "__device__ float cuda_cbrtf(float x)\n{\n"
     "    if (x == 0.0f || x != x || isinf(x)) return x;\n"
     "    float a = fabsf(x);\n"
     "    float y = exp2f(log2f(a) * (1.0f / 3.0f));\n"
     "    y = y + (a / (y * y) - y) * (1.0f / 3.0f);\n"
     "    return copysignf(y, x);\n}\n"},
    {"cbrt", "cuda_cbrt",
     "__device__ double cuda_cbrt(double x)\n{\n"
     "    if (x == 0.0 || x != x || isinf(x)) return x;\n"
     "    double a = fabs(x);\n"
     "    double y = exp2(log2(a) * (1.0 / 3.0));\n"
     "    y = y + (a / (y * y) - y) * (1.0 / 3.0);\n"
     "    return copysign(y, x);\n}\n"},
    {"expm1f", "cuda_expm1f",
     "__device__ float cuda_expm1f(float x)\n{\n"
     "    float u = expf(x);\n"
     "    if (u == 1.0f) return x;\n"
     "    float um1 = u - 1.0f;\n"
     "    if (um1 == -1.0f) return -1.0f;\n"
     "    if (isinf(u)) return u;\n"
     "    return um1 * x / logf(u);\n}\n"},
    {"expm1", "cuda_expm1",
     "__device__ double cuda_expm1(double x)\n{\n"
     "    double u = exp(x);\n"
     "    if (u == 1.0) return x;\n"
     "    double um1 = u - 1.0;\n"
     "    if (um1 == -1.0) return -1.0;\n"
     "    if (isinf(u)) return u;\n"
     "    return um1 * x / log(u);\n}\n"},
    {"log1pf", "cuda_log1pf",
     "__device__ float cuda_log1pf(float x)\n{\n"
     "    float u = 1.0f + x;\n"
     "    if (u == 1.0f) return x;\n"
     "    if (isinf(u)) return u;\n"
     "    return logf(u) * (x / (u - 1.0f));\n}\n"},
    {"log1p", "cuda_log1p",
     "__device__ double cuda_log1p(double x)\n{\n"
     "    double u = 1.0 + x;\n"
     "    if (u == 1.0) return x;\n"
     "    if (isinf(u)) return u;\n"
     "    return log(u) * (x / (u - 1.0));\n}\n"},
    {"ldexpf", "cuda_ldexpf",
     "__device__ float cuda_ldexpf(float x, int n)\n{\n"
     "    n = n > 400 ? 400 : n < -400 ? -400 : n;\n"
     "    while (n > 127) {\n        x *= __int_as_float(0x7f000000);\n        n -= 127;\n    }\n"
     "    while (n < -126) {\n        x *= __int_as_float(0x00800000);\n        n += 126;\n    }\n"
     "    return x * __int_as_float((n + 127) << 23);\n}\n"},
};

/* The helper named `name` among n, made an item of the file on first use. */
static const char *use_helper(parser *p, const tr_token *t, const helper *h, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (!strcmp(t->text, h[i].cuda)) {
            tp_make_item(p, h[i].name, h[i].text, t);
            return h[i].name;
        }
    return NULL;
}

const char *tp_bit_intrinsic(parser *p, const tr_token *t)
{
    if (!tp_is_at(p, 1, "(") || tp_lookup(p, t->text)) return NULL;
    if (t->text[0] == '_') return use_helper(p, t, helpers, sizeof helpers / sizeof *helpers);
    return use_helper(p, t, math, sizeof math / sizeof *math);
}
