/* bits.c — CUDA's integer bit intrinsics (__popc, __clz, __ffs, __brev, their 64-bit forms,
 * __umulhi): no target's prelude has all of them, so each becomes a small device function the
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
