/* bits.c — CUDA's integer bit intrinsics (__popc, __clz, __ffs, __brev, their 64-bit forms,
 * __umulhi, __mulhi, __umul64hi, __byte_perm, the funnel shifts, __usad, __sad and the halving
 * adds): no target's prelude has all of them, so each becomes a small device function the
 * translation writes once, in plain integer C that computes exactly what the intrinsic does. */
#include <string.h>

#include "translate/parser.h"

static const struct {
    const char *cuda, *name, *text;
} helpers[] = {
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

const char *tp_bit_intrinsic(parser *p, const tr_token *t)
{
    if (t->text[0] != '_' || !tp_is_at(p, 1, "(") || tp_lookup(p, t->text)) return NULL;
    for (size_t i = 0; i < sizeof helpers / sizeof *helpers; i++)
        if (!strcmp(t->text, helpers[i].cuda)) {
            tp_make_item(p, helpers[i].name, helpers[i].text, t);
            return helpers[i].name;
        }
    return NULL;
}
