/*
 * kernel.h — the portable kernel dialect: one kernel source for CUDA C (NVRTC), OpenCL C 1.2,
 * the Metal Shading Language and plain C on the CPU. The runtime puts this header in front of
 * every kernel source (followed by `#line 1 "<source name>"`, so errors point at the user's
 * lines); each compiler picks its own section below. Every rule and why: docs/dialect.md.
 * The host never includes this file, except the CPU backend for the ABI types at the end.
 */
#ifndef GPUPORT_KERNEL_H
#define GPUPORT_KERNEL_H

#define GP_DIALECT 1

/* GP_REQUIRES_GROUP_SIZE(kernel, x, y, z), alone on a line before the kernel: it runs only in
 * groups of x * y * z work-items (code that relies on its block shape); the runtime reads it from
 * the source, launches the kernel in that group when none is given and refuses any other. */
#define GP_REQUIRES_GROUP_SIZE(kernel, x, y, z)

/* ---- the signature machinery shared by all targets ------------------------------------------
 * GP_KERNEL(name, GP_BUF(T, a), GP_CBUF(T, b), GP_VAL(T, c), GP_DYN_SHARED(T, d)) lists the
 * parameters as (kind, type, name) triples; each target maps them, with their position, to its
 * own parameter syntax. At most 24 parameters. */
#define GP_BUF(T, name)        (GP__B, T, name)
#define GP_CBUF(T, name)       (GP__C, T, name)
#define GP_VAL(T, name)        (GP__V, T, name)
#define GP_DYN_SHARED(T, name) (GP__D, T, name)

#define GP__CAT(a, b)           GP__CAT_(a, b)
#define GP__CAT_(a, b)          a##b
#define GP__FIRST_(a, ...)      a
#define GP__UNPACK(k, T, n)     k, T, n
#define GP__AP(m, i, t)         GP__AP_(m, i, GP__UNPACK t)
#define GP__AP_(m, i, ...)      GP__AP__(m, i, __VA_ARGS__)
#define GP__AP__(m, i, k, T, n) m##k(i, T, n)
#define GP__MAP(m, ...)         GP__CAT(GP__MAP_, GP__NARG(__VA_ARGS__))(m, __VA_ARGS__)
#define GP__MAPL(m, ...)        GP__CAT(GP__MAPL_, GP__NARG(__VA_ARGS__))(m, __VA_ARGS__)
#define GP__NPARAMS(...)        (GP__NARG(__VA_ARGS__) - 1)
#define GP_KERNEL(...)          GP__KERNEL_X(GP__FIRST_(__VA_ARGS__, ~), __VA_ARGS__)
#define GP__KERNEL_X(name, ...) GP__KERNEL(name, __VA_ARGS__)
#define GP__NARG(...) \
    GP__NARG_(__VA_ARGS__, 25, 24, 23, 22, 21, 20, 19, 18, 17, 16, 15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, ~)
#define GP__NARG_(_1, _2, _3, _4, _5, _6, _7, _8, _9, _10, _11, _12, _13, _14, _15, _16, _17, _18, _19, _20, _21, _22, _23, _24, _25, N, ...) \
    N
#define GP__MAP_1(m, _n)
#define GP__MAP_2(m, _n, a0)         GP__AP(m, 0, a0)
#define GP__MAP_3(m, _n, a0, a1)     GP__AP(m, 0, a0) GP__AP(m, 1, a1)
#define GP__MAP_4(m, _n, a0, a1, a2) GP__AP(m, 0, a0) GP__AP(m, 1, a1) GP__AP(m, 2, a2)
#define GP__MAP_5(m, _n, a0, a1, a2, a3)                                                           \
    GP__AP(m, 0, a0) GP__AP(m, 1, a1) GP__AP(m, 2, a2) GP__AP(m, 3, a3)
#define GP__MAP_6(m, _n, a0, a1, a2, a3, a4)                                                       \
    GP__AP(m, 0, a0) GP__AP(m, 1, a1) GP__AP(m, 2, a2) GP__AP(m, 3, a3) GP__AP(m, 4, a4)
#define GP__MAP_7(m, _n, a0, a1, a2, a3, a4, a5)                                                   \
    GP__AP(m, 0, a0)                                                                               \
    GP__AP(m, 1, a1) GP__AP(m, 2, a2) GP__AP(m, 3, a3) GP__AP(m, 4, a4) GP__AP(m, 5, a5)
#define GP__MAP_8(m, _n, a0, a1, a2, a3, a4, a5, a6)                                               \
    GP__AP(m, 0, a0)                                                                               \
    GP__AP(m, 1, a1)                                                                               \
    GP__AP(m, 2, a2) GP__AP(m, 3, a3) GP__AP(m, 4, a4) GP__AP(m, 5, a5) GP__AP(m, 6, a6)
#define GP__MAP_9(m, _n, a0, a1, a2, a3, a4, a5, a6, a7)                                           \
    GP__AP(m, 0, a0)                                                                               \
    GP__AP(m, 1, a1)                                                                               \
    GP__AP(m, 2, a2) GP__AP(m, 3, a3) GP__AP(m, 4, a4) GP__AP(m, 5, a5) GP__AP(m, 6, a6)           \
        GP__AP(m, 7, a7)
#define GP__MAP_10(m, _n, a0, a1, a2, a3, a4, a5, a6, a7, a8)                                      \
    GP__AP(m, 0, a0)                                                                               \
    GP__AP(m, 1, a1)                                                                               \
    GP__AP(m, 2, a2) GP__AP(m, 3, a3) GP__AP(m, 4, a4) GP__AP(m, 5, a5) GP__AP(m, 6, a6)           \
        GP__AP(m, 7, a7) GP__AP(m, 8, a8)
#define GP__MAP_11(m, _n, a0, a1, a2, a3, a4, a5, a6, a7, a8, a9)                                  \
    GP__AP(m, 0, a0)                                                                               \
    GP__AP(m, 1, a1)                                                                               \
    GP__AP(m, 2, a2) GP__AP(m, 3, a3) GP__AP(m, 4, a4) GP__AP(m, 5, a5) GP__AP(m, 6, a6)           \
        GP__AP(m, 7, a7) GP__AP(m, 8, a8) GP__AP(m, 9, a9)
#define GP__MAP_12(m, _n, a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10)                             \
    GP__AP(m, 0, a0)                                                                               \
    GP__AP(m, 1, a1)                                                                               \
    GP__AP(m, 2, a2) GP__AP(m, 3, a3) GP__AP(m, 4, a4) GP__AP(m, 5, a5) GP__AP(m, 6, a6)           \
        GP__AP(m, 7, a7) GP__AP(m, 8, a8) GP__AP(m, 9, a9) GP__AP(m, 10, a10)
#define GP__MAP_13(m, _n, a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11)                        \
    GP__AP(m, 0, a0)                                                                               \
    GP__AP(m, 1, a1)                                                                               \
    GP__AP(m, 2, a2) GP__AP(m, 3, a3) GP__AP(m, 4, a4) GP__AP(m, 5, a5) GP__AP(m, 6, a6)           \
        GP__AP(m, 7, a7) GP__AP(m, 8, a8) GP__AP(m, 9, a9) GP__AP(m, 10, a10) GP__AP(m, 11, a11)
#define GP__MAP_14(m, _n, a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12)                   \
    GP__AP(m, 0, a0)                                                                               \
    GP__AP(m, 1, a1)                                                                               \
    GP__AP(m, 2, a2) GP__AP(m, 3, a3) GP__AP(m, 4, a4) GP__AP(m, 5, a5) GP__AP(m, 6, a6)           \
        GP__AP(m, 7, a7) GP__AP(m, 8, a8) GP__AP(m, 9, a9) GP__AP(m, 10, a10) GP__AP(m, 11, a11)   \
            GP__AP(m, 12, a12)
#define GP__MAP_15(m, _n, a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12, a13)              \
    GP__AP(m, 0, a0)                                                                               \
    GP__AP(m, 1, a1)                                                                               \
    GP__AP(m, 2, a2) GP__AP(m, 3, a3) GP__AP(m, 4, a4) GP__AP(m, 5, a5) GP__AP(m, 6, a6)           \
        GP__AP(m, 7, a7) GP__AP(m, 8, a8) GP__AP(m, 9, a9) GP__AP(m, 10, a10) GP__AP(m, 11, a11)   \
            GP__AP(m, 12, a12) GP__AP(m, 13, a13)
#define GP__MAP_16(m, _n, a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12, a13, a14)         \
    GP__AP(m, 0, a0)                                                                               \
    GP__AP(m, 1, a1)                                                                               \
    GP__AP(m, 2, a2) GP__AP(m, 3, a3) GP__AP(m, 4, a4) GP__AP(m, 5, a5) GP__AP(m, 6, a6)           \
        GP__AP(m, 7, a7) GP__AP(m, 8, a8) GP__AP(m, 9, a9) GP__AP(m, 10, a10) GP__AP(m, 11, a11)   \
            GP__AP(m, 12, a12) GP__AP(m, 13, a13) GP__AP(m, 14, a14)
#define GP__MAP_17(m, _n, a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12, a13, a14, a15)    \
    GP__AP(m, 0, a0)                                                                               \
    GP__AP(m, 1, a1)                                                                               \
    GP__AP(m, 2, a2) GP__AP(m, 3, a3) GP__AP(m, 4, a4) GP__AP(m, 5, a5) GP__AP(m, 6, a6)           \
        GP__AP(m, 7, a7) GP__AP(m, 8, a8) GP__AP(m, 9, a9) GP__AP(m, 10, a10) GP__AP(m, 11, a11)   \
            GP__AP(m, 12, a12) GP__AP(m, 13, a13) GP__AP(m, 14, a14) GP__AP(m, 15, a15)
#define GP__MAP_18(m, _n, a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12, a13, a14, a15, a16) \
    GP__AP(m, 0, a0) GP__AP(m, 1, a1) GP__AP(m, 2, a2) GP__AP(m, 3, a3) GP__AP(m, 4, a4) \
    GP__AP(m, 5, a5) GP__AP(m, 6, a6) GP__AP(m, 7, a7) GP__AP(m, 8, a8) GP__AP(m, 9, a9) \
    GP__AP(m, 10, a10) GP__AP(m, 11, a11) GP__AP(m, 12, a12) GP__AP(m, 13, a13) \
    GP__AP(m, 14, a14) GP__AP(m, 15, a15) GP__AP(m, 16, a16)
#define GP__MAP_19(m, _n, a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12, a13, a14, a15, a16, a17) \
    GP__AP(m, 0, a0) GP__AP(m, 1, a1) GP__AP(m, 2, a2) GP__AP(m, 3, a3) GP__AP(m, 4, a4) \
    GP__AP(m, 5, a5) GP__AP(m, 6, a6) GP__AP(m, 7, a7) GP__AP(m, 8, a8) GP__AP(m, 9, a9) \
    GP__AP(m, 10, a10) GP__AP(m, 11, a11) GP__AP(m, 12, a12) GP__AP(m, 13, a13) \
    GP__AP(m, 14, a14) GP__AP(m, 15, a15) GP__AP(m, 16, a16) GP__AP(m, 17, a17)
#define GP__MAP_20(m, _n, a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12, a13, a14, a15, a16, a17, a18) \
    GP__AP(m, 0, a0) GP__AP(m, 1, a1) GP__AP(m, 2, a2) GP__AP(m, 3, a3) GP__AP(m, 4, a4) \
    GP__AP(m, 5, a5) GP__AP(m, 6, a6) GP__AP(m, 7, a7) GP__AP(m, 8, a8) GP__AP(m, 9, a9) \
    GP__AP(m, 10, a10) GP__AP(m, 11, a11) GP__AP(m, 12, a12) GP__AP(m, 13, a13) \
    GP__AP(m, 14, a14) GP__AP(m, 15, a15) GP__AP(m, 16, a16) GP__AP(m, 17, a17) \
    GP__AP(m, 18, a18)
#define GP__MAP_21(m, _n, a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12, a13, a14, a15, a16, a17, a18, a19) \
    GP__AP(m, 0, a0) GP__AP(m, 1, a1) GP__AP(m, 2, a2) GP__AP(m, 3, a3) GP__AP(m, 4, a4) \
    GP__AP(m, 5, a5) GP__AP(m, 6, a6) GP__AP(m, 7, a7) GP__AP(m, 8, a8) GP__AP(m, 9, a9) \
    GP__AP(m, 10, a10) GP__AP(m, 11, a11) GP__AP(m, 12, a12) GP__AP(m, 13, a13) \
    GP__AP(m, 14, a14) GP__AP(m, 15, a15) GP__AP(m, 16, a16) GP__AP(m, 17, a17) \
    GP__AP(m, 18, a18) GP__AP(m, 19, a19)
#define GP__MAP_22(m, _n, a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12, a13, a14, a15, a16, a17, a18, a19, a20) \
    GP__AP(m, 0, a0) GP__AP(m, 1, a1) GP__AP(m, 2, a2) GP__AP(m, 3, a3) GP__AP(m, 4, a4) \
    GP__AP(m, 5, a5) GP__AP(m, 6, a6) GP__AP(m, 7, a7) GP__AP(m, 8, a8) GP__AP(m, 9, a9) \
    GP__AP(m, 10, a10) GP__AP(m, 11, a11) GP__AP(m, 12, a12) GP__AP(m, 13, a13) \
    GP__AP(m, 14, a14) GP__AP(m, 15, a15) GP__AP(m, 16, a16) GP__AP(m, 17, a17) \
    GP__AP(m, 18, a18) GP__AP(m, 19, a19) GP__AP(m, 20, a20)
#define GP__MAP_23(m, _n, a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12, a13, a14, a15, a16, a17, a18, a19, a20, a21) \
    GP__AP(m, 0, a0) GP__AP(m, 1, a1) GP__AP(m, 2, a2) GP__AP(m, 3, a3) GP__AP(m, 4, a4) \
    GP__AP(m, 5, a5) GP__AP(m, 6, a6) GP__AP(m, 7, a7) GP__AP(m, 8, a8) GP__AP(m, 9, a9) \
    GP__AP(m, 10, a10) GP__AP(m, 11, a11) GP__AP(m, 12, a12) GP__AP(m, 13, a13) \
    GP__AP(m, 14, a14) GP__AP(m, 15, a15) GP__AP(m, 16, a16) GP__AP(m, 17, a17) \
    GP__AP(m, 18, a18) GP__AP(m, 19, a19) GP__AP(m, 20, a20) GP__AP(m, 21, a21)
#define GP__MAP_24(m, _n, a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12, a13, a14, a15, a16, a17, a18, a19, a20, a21, a22) \
    GP__AP(m, 0, a0) GP__AP(m, 1, a1) GP__AP(m, 2, a2) GP__AP(m, 3, a3) GP__AP(m, 4, a4) \
    GP__AP(m, 5, a5) GP__AP(m, 6, a6) GP__AP(m, 7, a7) GP__AP(m, 8, a8) GP__AP(m, 9, a9) \
    GP__AP(m, 10, a10) GP__AP(m, 11, a11) GP__AP(m, 12, a12) GP__AP(m, 13, a13) \
    GP__AP(m, 14, a14) GP__AP(m, 15, a15) GP__AP(m, 16, a16) GP__AP(m, 17, a17) \
    GP__AP(m, 18, a18) GP__AP(m, 19, a19) GP__AP(m, 20, a20) GP__AP(m, 21, a21) \
    GP__AP(m, 22, a22)
#define GP__MAP_25(m, _n, a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12, a13, a14, a15, a16, a17, a18, a19, a20, a21, a22, a23) \
    GP__AP(m, 0, a0) GP__AP(m, 1, a1) GP__AP(m, 2, a2) GP__AP(m, 3, a3) GP__AP(m, 4, a4) \
    GP__AP(m, 5, a5) GP__AP(m, 6, a6) GP__AP(m, 7, a7) GP__AP(m, 8, a8) GP__AP(m, 9, a9) \
    GP__AP(m, 10, a10) GP__AP(m, 11, a11) GP__AP(m, 12, a12) GP__AP(m, 13, a13) \
    GP__AP(m, 14, a14) GP__AP(m, 15, a15) GP__AP(m, 16, a16) GP__AP(m, 17, a17) \
    GP__AP(m, 18, a18) GP__AP(m, 19, a19) GP__AP(m, 20, a20) GP__AP(m, 21, a21) \
    GP__AP(m, 22, a22) GP__AP(m, 23, a23)
#define GP__MAPL_1(m, _n)
#define GP__MAPL_2(m, _n, a0)         GP__AP(m, 0, a0)
#define GP__MAPL_3(m, _n, a0, a1)     GP__AP(m, 0, a0), GP__AP(m, 1, a1)
#define GP__MAPL_4(m, _n, a0, a1, a2) GP__AP(m, 0, a0), GP__AP(m, 1, a1), GP__AP(m, 2, a2)
#define GP__MAPL_5(m, _n, a0, a1, a2, a3)                                                          \
    GP__AP(m, 0, a0), GP__AP(m, 1, a1), GP__AP(m, 2, a2), GP__AP(m, 3, a3)
#define GP__MAPL_6(m, _n, a0, a1, a2, a3, a4)                                                      \
    GP__AP(m, 0, a0), GP__AP(m, 1, a1), GP__AP(m, 2, a2), GP__AP(m, 3, a3), GP__AP(m, 4, a4)
#define GP__MAPL_7(m, _n, a0, a1, a2, a3, a4, a5)                                                  \
    GP__AP(m, 0, a0), GP__AP(m, 1, a1), GP__AP(m, 2, a2), GP__AP(m, 3, a3), GP__AP(m, 4, a4),      \
        GP__AP(m, 5, a5)
#define GP__MAPL_8(m, _n, a0, a1, a2, a3, a4, a5, a6)                                              \
    GP__AP(m, 0, a0), GP__AP(m, 1, a1), GP__AP(m, 2, a2), GP__AP(m, 3, a3), GP__AP(m, 4, a4),      \
        GP__AP(m, 5, a5), GP__AP(m, 6, a6)
#define GP__MAPL_9(m, _n, a0, a1, a2, a3, a4, a5, a6, a7)                                          \
    GP__AP(m, 0, a0), GP__AP(m, 1, a1), GP__AP(m, 2, a2), GP__AP(m, 3, a3), GP__AP(m, 4, a4),      \
        GP__AP(m, 5, a5), GP__AP(m, 6, a6), GP__AP(m, 7, a7)
#define GP__MAPL_10(m, _n, a0, a1, a2, a3, a4, a5, a6, a7, a8)                                     \
    GP__AP(m, 0, a0), GP__AP(m, 1, a1), GP__AP(m, 2, a2), GP__AP(m, 3, a3), GP__AP(m, 4, a4),      \
        GP__AP(m, 5, a5), GP__AP(m, 6, a6), GP__AP(m, 7, a7), GP__AP(m, 8, a8)
#define GP__MAPL_11(m, _n, a0, a1, a2, a3, a4, a5, a6, a7, a8, a9)                                 \
    GP__AP(m, 0, a0), GP__AP(m, 1, a1), GP__AP(m, 2, a2), GP__AP(m, 3, a3), GP__AP(m, 4, a4),      \
        GP__AP(m, 5, a5), GP__AP(m, 6, a6), GP__AP(m, 7, a7), GP__AP(m, 8, a8), GP__AP(m, 9, a9)
#define GP__MAPL_12(m, _n, a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10)                            \
    GP__AP(m, 0, a0), GP__AP(m, 1, a1), GP__AP(m, 2, a2), GP__AP(m, 3, a3), GP__AP(m, 4, a4),      \
        GP__AP(m, 5, a5), GP__AP(m, 6, a6), GP__AP(m, 7, a7), GP__AP(m, 8, a8), GP__AP(m, 9, a9),  \
        GP__AP(m, 10, a10)
#define GP__MAPL_13(m, _n, a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11)                       \
    GP__AP(m, 0, a0), GP__AP(m, 1, a1), GP__AP(m, 2, a2), GP__AP(m, 3, a3), GP__AP(m, 4, a4),      \
        GP__AP(m, 5, a5), GP__AP(m, 6, a6), GP__AP(m, 7, a7), GP__AP(m, 8, a8), GP__AP(m, 9, a9),  \
        GP__AP(m, 10, a10), GP__AP(m, 11, a11)
#define GP__MAPL_14(m, _n, a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12)                  \
    GP__AP(m, 0, a0), GP__AP(m, 1, a1), GP__AP(m, 2, a2), GP__AP(m, 3, a3), GP__AP(m, 4, a4),      \
        GP__AP(m, 5, a5), GP__AP(m, 6, a6), GP__AP(m, 7, a7), GP__AP(m, 8, a8), GP__AP(m, 9, a9),  \
        GP__AP(m, 10, a10), GP__AP(m, 11, a11), GP__AP(m, 12, a12)
#define GP__MAPL_15(m, _n, a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12, a13)             \
    GP__AP(m, 0, a0), GP__AP(m, 1, a1), GP__AP(m, 2, a2), GP__AP(m, 3, a3), GP__AP(m, 4, a4),      \
        GP__AP(m, 5, a5), GP__AP(m, 6, a6), GP__AP(m, 7, a7), GP__AP(m, 8, a8), GP__AP(m, 9, a9),  \
        GP__AP(m, 10, a10), GP__AP(m, 11, a11), GP__AP(m, 12, a12), GP__AP(m, 13, a13)
#define GP__MAPL_16(m, _n, a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12, a13, a14)        \
    GP__AP(m, 0, a0), GP__AP(m, 1, a1), GP__AP(m, 2, a2), GP__AP(m, 3, a3), GP__AP(m, 4, a4),      \
        GP__AP(m, 5, a5), GP__AP(m, 6, a6), GP__AP(m, 7, a7), GP__AP(m, 8, a8), GP__AP(m, 9, a9),  \
        GP__AP(m, 10, a10), GP__AP(m, 11, a11), GP__AP(m, 12, a12), GP__AP(m, 13, a13),            \
        GP__AP(m, 14, a14)
#define GP__MAPL_17(m, _n, a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12, a13, a14, a15)   \
    GP__AP(m, 0, a0), GP__AP(m, 1, a1), GP__AP(m, 2, a2), GP__AP(m, 3, a3), GP__AP(m, 4, a4),      \
        GP__AP(m, 5, a5), GP__AP(m, 6, a6), GP__AP(m, 7, a7), GP__AP(m, 8, a8), GP__AP(m, 9, a9),  \
        GP__AP(m, 10, a10), GP__AP(m, 11, a11), GP__AP(m, 12, a12), GP__AP(m, 13, a13),            \
        GP__AP(m, 14, a14), GP__AP(m, 15, a15)

#define GP__MAPL_18(m, _n, a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12, a13, a14, a15, a16) \
    GP__AP(m, 0, a0), GP__AP(m, 1, a1), GP__AP(m, 2, a2), GP__AP(m, 3, a3), GP__AP(m, 4, a4), \
    GP__AP(m, 5, a5), GP__AP(m, 6, a6), GP__AP(m, 7, a7), GP__AP(m, 8, a8), GP__AP(m, 9, a9), \
    GP__AP(m, 10, a10), GP__AP(m, 11, a11), GP__AP(m, 12, a12), GP__AP(m, 13, a13), \
    GP__AP(m, 14, a14), GP__AP(m, 15, a15), GP__AP(m, 16, a16)
#define GP__MAPL_19(m, _n, a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12, a13, a14, a15, a16, a17) \
    GP__AP(m, 0, a0), GP__AP(m, 1, a1), GP__AP(m, 2, a2), GP__AP(m, 3, a3), GP__AP(m, 4, a4), \
    GP__AP(m, 5, a5), GP__AP(m, 6, a6), GP__AP(m, 7, a7), GP__AP(m, 8, a8), GP__AP(m, 9, a9), \
    GP__AP(m, 10, a10), GP__AP(m, 11, a11), GP__AP(m, 12, a12), GP__AP(m, 13, a13), \
    GP__AP(m, 14, a14), GP__AP(m, 15, a15), GP__AP(m, 16, a16), GP__AP(m, 17, a17)
#define GP__MAPL_20(m, _n, a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12, a13, a14, a15, a16, a17, a18) \
    GP__AP(m, 0, a0), GP__AP(m, 1, a1), GP__AP(m, 2, a2), GP__AP(m, 3, a3), GP__AP(m, 4, a4), \
    GP__AP(m, 5, a5), GP__AP(m, 6, a6), GP__AP(m, 7, a7), GP__AP(m, 8, a8), GP__AP(m, 9, a9), \
    GP__AP(m, 10, a10), GP__AP(m, 11, a11), GP__AP(m, 12, a12), GP__AP(m, 13, a13), \
    GP__AP(m, 14, a14), GP__AP(m, 15, a15), GP__AP(m, 16, a16), GP__AP(m, 17, a17), \
    GP__AP(m, 18, a18)
#define GP__MAPL_21(m, _n, a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12, a13, a14, a15, a16, a17, a18, a19) \
    GP__AP(m, 0, a0), GP__AP(m, 1, a1), GP__AP(m, 2, a2), GP__AP(m, 3, a3), GP__AP(m, 4, a4), \
    GP__AP(m, 5, a5), GP__AP(m, 6, a6), GP__AP(m, 7, a7), GP__AP(m, 8, a8), GP__AP(m, 9, a9), \
    GP__AP(m, 10, a10), GP__AP(m, 11, a11), GP__AP(m, 12, a12), GP__AP(m, 13, a13), \
    GP__AP(m, 14, a14), GP__AP(m, 15, a15), GP__AP(m, 16, a16), GP__AP(m, 17, a17), \
    GP__AP(m, 18, a18), GP__AP(m, 19, a19)
#define GP__MAPL_22(m, _n, a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12, a13, a14, a15, a16, a17, a18, a19, a20) \
    GP__AP(m, 0, a0), GP__AP(m, 1, a1), GP__AP(m, 2, a2), GP__AP(m, 3, a3), GP__AP(m, 4, a4), \
    GP__AP(m, 5, a5), GP__AP(m, 6, a6), GP__AP(m, 7, a7), GP__AP(m, 8, a8), GP__AP(m, 9, a9), \
    GP__AP(m, 10, a10), GP__AP(m, 11, a11), GP__AP(m, 12, a12), GP__AP(m, 13, a13), \
    GP__AP(m, 14, a14), GP__AP(m, 15, a15), GP__AP(m, 16, a16), GP__AP(m, 17, a17), \
    GP__AP(m, 18, a18), GP__AP(m, 19, a19), GP__AP(m, 20, a20)
#define GP__MAPL_23(m, _n, a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12, a13, a14, a15, a16, a17, a18, a19, a20, a21) \
    GP__AP(m, 0, a0), GP__AP(m, 1, a1), GP__AP(m, 2, a2), GP__AP(m, 3, a3), GP__AP(m, 4, a4), \
    GP__AP(m, 5, a5), GP__AP(m, 6, a6), GP__AP(m, 7, a7), GP__AP(m, 8, a8), GP__AP(m, 9, a9), \
    GP__AP(m, 10, a10), GP__AP(m, 11, a11), GP__AP(m, 12, a12), GP__AP(m, 13, a13), \
    GP__AP(m, 14, a14), GP__AP(m, 15, a15), GP__AP(m, 16, a16), GP__AP(m, 17, a17), \
    GP__AP(m, 18, a18), GP__AP(m, 19, a19), GP__AP(m, 20, a20), GP__AP(m, 21, a21)
#define GP__MAPL_24(m, _n, a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12, a13, a14, a15, a16, a17, a18, a19, a20, a21, a22) \
    GP__AP(m, 0, a0), GP__AP(m, 1, a1), GP__AP(m, 2, a2), GP__AP(m, 3, a3), GP__AP(m, 4, a4), \
    GP__AP(m, 5, a5), GP__AP(m, 6, a6), GP__AP(m, 7, a7), GP__AP(m, 8, a8), GP__AP(m, 9, a9), \
    GP__AP(m, 10, a10), GP__AP(m, 11, a11), GP__AP(m, 12, a12), GP__AP(m, 13, a13), \
    GP__AP(m, 14, a14), GP__AP(m, 15, a15), GP__AP(m, 16, a16), GP__AP(m, 17, a17), \
    GP__AP(m, 18, a18), GP__AP(m, 19, a19), GP__AP(m, 20, a20), GP__AP(m, 21, a21), \
    GP__AP(m, 22, a22)
#define GP__MAPL_25(m, _n, a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12, a13, a14, a15, a16, a17, a18, a19, a20, a21, a22, a23) \
    GP__AP(m, 0, a0), GP__AP(m, 1, a1), GP__AP(m, 2, a2), GP__AP(m, 3, a3), GP__AP(m, 4, a4), \
    GP__AP(m, 5, a5), GP__AP(m, 6, a6), GP__AP(m, 7, a7), GP__AP(m, 8, a8), GP__AP(m, 9, a9), \
    GP__AP(m, 10, a10), GP__AP(m, 11, a11), GP__AP(m, 12, a12), GP__AP(m, 13, a13), \
    GP__AP(m, 14, a14), GP__AP(m, 15, a15), GP__AP(m, 16, a16), GP__AP(m, 17, a17), \
    GP__AP(m, 18, a18), GP__AP(m, 19, a19), GP__AP(m, 20, a20), GP__AP(m, 21, a21), \
    GP__AP(m, 22, a22), GP__AP(m, 23, a23)

/* ---- gp_printf through a record buffer (OpenCL; Metal below MSL 3.2, which has no printf) ---
 * The runtime binds a buffer of 32-bit words (Metal: at [[buffer(GP_PRINT_REC_BINDING)]];
 * OpenCL: as the kernel's last argument): a header of GP_PRINT_REC_HEADER words (the write
 * cursor in words, the lines dropped because the buffer was full, the capacity in words,
 * GP_PRINT_REC_VERSION), then the records. A record is the call's
 * format id + 1 (0: nothing written there), the linear group index, the argument count n, then n
 * triples (type tag, low word, high word). The host formats them after the launch (the same
 * layout is read by src/runtime/printf_format.c). */
#define GP_PRINT_REC_BINDING   30
#define GP_PRINT_REC_HEADER    4
#define GP_PRINT_REC_VERSION   1
#define GP_PRINT_REC_CURSOR    0
#define GP_PRINT_REC_DROPPED   1
#define GP_PRINT_REC_CAPACITY  2
#define GP_PRINT_REC_LAYOUT    3
#define GP_PRINT_REC_FIXED     3 /* words of a record before its arguments */
#define GP_PRINT_REC_ARG_WORDS 3 /* words per argument */
#define GP_PRINT_ARG_INT       1 /* a signed integer (32 or 64 bits, sign-extended) */
#define GP_PRINT_ARG_UINT      2 /* an unsigned integer (32 or 64 bits) */
#define GP_PRINT_ARG_FLOAT     3 /* a float's bits in the low word */
#define GP_PRINT_ARG_DOUBLE    4 /* a double's bits (OpenCL, in a program that requires fp64) */

#define gp_min(a, b)        ((a) < (b) ? (a) : (b))
#define gp_max(a, b)        ((a) > (b) ? (a) : (b))
#define gp_clamp(x, lo, hi) gp_min(gp_max((x), (lo)), (hi))

/* ============================================================================================
 * CUDA C, compiled by NVRTC (__CUDACC_RTC__) or nvcc. The kernel is an `extern "C" __global__`
 * wrapper that forwards to the user's body as a force-inlined device function: that is where
 * the dynamic shared block (`extern __shared__`) gets its typed name. A GP_DYN_SHARED slot is an
 * `unsigned int` holding its byte size (the launch passes the size as sharedMemBytes too).
 * ============================================================================================ */
#if defined(__CUDACC__) || defined(__CUDACC_RTC__)
#define GP_TARGET_CUDA 1
#if defined(__CUDACC_RTC__)
typedef signed char int8_t;
typedef short int16_t;
typedef int int32_t;
typedef long long int64_t;
typedef unsigned char uint8_t;
typedef unsigned short uint16_t;
typedef unsigned int uint32_t;
typedef unsigned long long uint64_t;
#else
#include <stdint.h>
#endif
#define GP_GLOBAL
#define GP_SHARED
#define GP_CONSTANT const
#define GP_PRIVATE
#define GP_SHARED_DECL   __shared__
#define GP_CONSTANT_DECL __constant__ const
#define GP_FUNC          __device__ __forceinline__
#define GP_REQUIRES_FP64

#define GP__CU_OUT_GP__B(i, T, n) T *n
#define GP__CU_OUT_GP__C(i, T, n) const T *n
#define GP__CU_OUT_GP__V(i, T, n) T n
#define GP__CU_OUT_GP__D(i, T, n) unsigned int gp__dsz_##n
#define GP__CU_IN_GP__B(i, T, n)  T *n
#define GP__CU_IN_GP__C(i, T, n)  const T *n
#define GP__CU_IN_GP__V(i, T, n)  T n
#define GP__CU_IN_GP__D(i, T, n)  T *n
#define GP__CU_FWD_GP__B(i, T, n) n
#define GP__CU_FWD_GP__C(i, T, n) n
#define GP__CU_FWD_GP__V(i, T, n) n
#define GP__CU_FWD_GP__D(i, T, n) (T *)gp__dyn_shared
#define GP__KERNEL(name, ...)                                                                      \
    static __device__ __forceinline__ void gp__body_##name(GP__MAPL(GP__CU_IN_, __VA_ARGS__));     \
    extern "C" __global__ void name(GP__MAPL(GP__CU_OUT_, __VA_ARGS__))                            \
    {                                                                                              \
        extern __shared__ __align__(16) unsigned char gp__dyn_shared[];                            \
        gp__body_##name(GP__MAPL(GP__CU_FWD_, __VA_ARGS__));                                       \
    }                                                                                              \
    static __device__ __forceinline__ void gp__body_##name(GP__MAPL(GP__CU_IN_, __VA_ARGS__))

__device__ __forceinline__ unsigned gp__cu_pick(uint3 v, int d)
{
    return d == 0 ? v.x : (d == 1 ? v.y : v.z);
}
__device__ __forceinline__ unsigned gp__cu_pickd(dim3 v, int d)
{
    return d == 0 ? v.x : (d == 1 ? v.y : v.z);
}
#define gp_local_id(d)    ((int)gp__cu_pick(threadIdx, (d)))
#define gp_group_id(d)    ((int)gp__cu_pick(blockIdx, (d)))
#define gp_local_size(d)  ((int)gp__cu_pickd(blockDim, (d)))
#define gp_num_groups(d)  ((int)gp__cu_pickd(gridDim, (d)))
#define gp_global_id(d)   (gp_group_id(d) * gp_local_size(d) + gp_local_id(d))
#define gp_global_size(d) (gp_num_groups(d) * gp_local_size(d))
#define gp_barrier()      __syncthreads()
/* SIMD-group operations: the warp, every lane taking part (a full mask). */
#define GP_REQUIRES_SIMD_WIDTH(n) static_assert((n) == 32, "CUDA warps have 32 lanes");
#define gp_simd_width()           32
#define gp_simd_lane()                                                                             \
    ((int)((threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z)) & 31u))
#define gp_simd_shuffle(v, lane)       __shfl_sync(0xffffffffu, (v), (int)(lane))
#define gp_simd_shuffle_xor(v, mask)   __shfl_xor_sync(0xffffffffu, (v), (int)(mask))
#define gp_simd_shuffle_up(v, delta)   __shfl_up_sync(0xffffffffu, (v), (unsigned)(delta))
#define gp_simd_shuffle_down(v, delta) __shfl_down_sync(0xffffffffu, (v), (unsigned)(delta))
/* the votes take an int: a float or 64-bit predicate is tested for truth first, as elsewhere */
#define gp_simd_ballot(p)              ((uint32_t)__ballot_sync(0xffffffffu, (p) ? 1 : 0))
#define gp_simd_any(p)                 __any_sync(0xffffffffu, (p) ? 1 : 0)
#define gp_simd_all(p)                 __all_sync(0xffffffffu, (p) ? 1 : 0)
#define gp_simd_barrier()              __syncwarp(0xffffffffu)


#define gp_atomic_add(p, v)              atomicAdd((p), (v))
#define gp_atomic_sub(p, v)              atomicSub((p), (v))
#define gp_atomic_min(p, v)              atomicMin((p), (v))
#define gp_atomic_max(p, v)              atomicMax((p), (v))
#define gp_atomic_and(p, v)              atomicAnd((p), (v))
#define gp_atomic_or(p, v)               atomicOr((p), (v))
#define gp_atomic_xor(p, v)              atomicXor((p), (v))
#define gp_atomic_xchg(p, v)             atomicExch((p), (v))
#define gp_atomic_cas(p, cmp, v)         atomicCAS((p), (cmp), (v))
#define gp_atomic_add_float(p, v)        atomicAdd((float *)(p), (v))
#define gp_atomic_add_float_shared(p, v) atomicAdd((float *)(p), (v))
/* 64-bit atomics on global memory (GP_REQUIRES_ATOMIC64): int64_t and uint64_t, double add */
#define GP_REQUIRES_ATOMIC64
#define GP__CU_A64(name, T, CT, fn)                                                                \
    __device__ __forceinline__ T name(T *p, T v)                                                   \
    {                                                                                              \
        return (T)fn((CT *)p, (CT)v);                                                              \
    }
#define GP__CU_A64_T(T)                                                                            \
    GP__CU_A64(gp_atomic64_add, T, unsigned long long, atomicAdd)                                  \
    GP__CU_A64(gp_atomic64_and, T, unsigned long long, atomicAnd)                                  \
    GP__CU_A64(gp_atomic64_or, T, unsigned long long, atomicOr)                                    \
    GP__CU_A64(gp_atomic64_xor, T, unsigned long long, atomicXor)                                  \
    GP__CU_A64(gp_atomic64_xchg, T, unsigned long long, atomicExch)                                \
    __device__ __forceinline__ T gp_atomic64_sub(T *p, T v)                                        \
    {                                                                                              \
        return (T)atomicAdd((unsigned long long *)p, 0ull - (unsigned long long)v);                \
    }                                                                                              \
    __device__ __forceinline__ T gp_atomic64_cas(T *p, T cmp, T v)                                 \
    {                                                                                              \
        return (T)atomicCAS((unsigned long long *)p, (unsigned long long)cmp,                      \
                            (unsigned long long)v);                                                \
    }
GP__CU_A64_T(int64_t)
GP__CU_A64_T(uint64_t)
GP__CU_A64(gp_atomic64_min, int64_t, long long, atomicMin)
GP__CU_A64(gp_atomic64_max, int64_t, long long, atomicMax)
GP__CU_A64(gp_atomic64_min, uint64_t, unsigned long long, atomicMin)
GP__CU_A64(gp_atomic64_max, uint64_t, unsigned long long, atomicMax)
#define gp_atomic_add_double(p, v) atomicAdd((double *)(p), (double)(v))

#define gp_rsqrt(x) rsqrtf(x)
/* a value's bits as another type of the same size, and sine and cosine at once */
#define gp_float_as_int(x)   __float_as_int(x)
#define gp_int_as_float(x)   __int_as_float(x)
#define gp_float_as_uint(x)  __float_as_uint(x)
#define gp_uint_as_float(x)  __uint_as_float(x)
#define gp_double_as_long(x) __double_as_longlong(x)
#define gp_long_as_double(x) __longlong_as_double(x)
#define gp_sincos(x, s, c)   sincosf((x), (s), (c))
/* device printf: flushed by the launch's wait (the core checks the format at build time) */
#define gp_printf printf

typedef unsigned short gp_half;
__device__ __forceinline__ float gp_half_to_float(gp_half h)
{
    float f;
    asm("cvt.f32.f16 %0, %1;" : "=f"(f) : "h"(h));
    return f;
}
__device__ __forceinline__ gp_half gp_float_to_half(float f)
{
    gp_half h;
    asm("cvt.rn.f16.f32 %0, %1;" : "=h"(h) : "f"(f));
    return h;
}
/* bfloat16 as a storage type: the high 16 bits of a float, rounded to nearest even */
typedef unsigned short gp_bf16;
__device__ __forceinline__ float gp_bf16_to_float(gp_bf16 h)
{
    return __uint_as_float((unsigned int)h << 16);
}
__device__ __forceinline__ gp_bf16 gp_float_to_bf16(float f)
{
    unsigned int x = __float_as_uint(f);
    if ((x & 0x7fffffffu) > 0x7f800000u) return (gp_bf16)((x >> 16) | 0x40u); /* NaN */
    return (gp_bf16)((x + 0x7fffu + ((x >> 16) & 1u)) >> 16);
}
typedef float2 gp_float2;
typedef float4 gp_float4;
typedef int2 gp_int2;
typedef int4 gp_int4;
#define gp_make_float2(x, y)       make_float2((x), (y))
#define gp_make_float4(x, y, z, w) make_float4((x), (y), (z), (w))
#define gp_make_int2(x, y)         make_int2((x), (y))
#define gp_make_int4(x, y, z, w)   make_int4((x), (y), (z), (w))
/* the other vector types: CUDA's own, except the 4-component 64-bit ones (CUDA 13 deprecates
 * double4, longlong4 and ulonglong4 for variants named by their alignment) */
typedef char2 gp_char2;
#define gp_make_char2(x, y) make_char2((x), (y))
typedef char4 gp_char4;
#define gp_make_char4(x, y, z, w) make_char4((x), (y), (z), (w))
typedef uchar2 gp_uchar2;
#define gp_make_uchar2(x, y) make_uchar2((x), (y))
typedef uchar4 gp_uchar4;
#define gp_make_uchar4(x, y, z, w) make_uchar4((x), (y), (z), (w))
typedef short2 gp_short2;
#define gp_make_short2(x, y) make_short2((x), (y))
typedef short4 gp_short4;
#define gp_make_short4(x, y, z, w) make_short4((x), (y), (z), (w))
typedef ushort2 gp_ushort2;
#define gp_make_ushort2(x, y) make_ushort2((x), (y))
typedef ushort4 gp_ushort4;
#define gp_make_ushort4(x, y, z, w) make_ushort4((x), (y), (z), (w))
typedef uint2 gp_uint2;
#define gp_make_uint2(x, y) make_uint2((x), (y))
typedef uint4 gp_uint4;
#define gp_make_uint4(x, y, z, w) make_uint4((x), (y), (z), (w))
typedef longlong2 gp_long2;
#define gp_make_long2(x, y) make_longlong2((x), (y))
typedef struct __align__(16) gp_long4
{
    long long x, y, z, w;
}
gp_long4;
__device__ __forceinline__ gp_long4 gp_make_long4(long long x, long long y, long long z,
                                                  long long w)
{
    gp_long4 v = {x, y, z, w};
    return v;
}
typedef ulonglong2 gp_ulong2;
#define gp_make_ulong2(x, y) make_ulonglong2((x), (y))
typedef struct __align__(16) gp_ulong4
{
    unsigned long long x, y, z, w;
}
gp_ulong4;
__device__ __forceinline__ gp_ulong4 gp_make_ulong4(unsigned long long x, unsigned long long y,
                                                    unsigned long long z, unsigned long long w)
{
    gp_ulong4 v = {x, y, z, w};
    return v;
}
typedef double2 gp_double2;
#define gp_make_double2(x, y) make_double2((x), (y))
typedef struct __align__(16) gp_double4
{
    double x, y, z, w;
}
gp_double4;
__device__ __forceinline__ gp_double4 gp_make_double4(double x, double y, double z, double w)
{
    gp_double4 v = {x, y, z, w};
    return v;
}

/* ============================================================================================
 * OpenCL C 1.2. Parameters map one to one (buffers `__global`, the dynamic block `__local`, set
 * with clSetKernelArg(size, NULL)). The C math names are mapped to the overloaded built-ins.
 * ============================================================================================ */
#elif defined(__OPENCL_VERSION__) || defined(__OPENCL_C_VERSION__)
#define GP_TARGET_OPENCL 1
typedef char int8_t;
typedef short int16_t;
typedef int int32_t;
typedef long int64_t;
typedef uchar uint8_t;
typedef ushort uint16_t;
typedef uint uint32_t;
typedef ulong uint64_t;
#define GP_GLOBAL        __global
#define GP_SHARED        __local
#define GP_CONSTANT      __constant
#define GP_PRIVATE       __private
#define GP_SHARED_DECL   __local
#define GP_CONSTANT_DECL __constant
#define GP_FUNC          static inline
#define GP_REQUIRES_FP64 _Pragma("OPENCL EXTENSION cl_khr_fp64 : enable")

#define GP__CL_P_GP__B(i, T, n) __global T *n
#define GP__CL_P_GP__C(i, T, n) __global const T *n
#define GP__CL_P_GP__V(i, T, n) T n
#define GP__CL_P_GP__D(i, T, n) __local T *n
/* gp_printf, two ways (the runtime picks one per program, docs/debugging.md):
 * - a record buffer, as on Metal below MSL 3.2 (layout above): the runtime rewrites each call of a
 *   kernel body as GP__PRINTF_REC(id, lines, n, args..., GP__PF_END), each argument wrapped by
 *   the class of its conversion (GP__PF_I for %d %c %s, GP__PF_U for %u %x, GP__PF_F for %e %f
 *   %g), defines GP__PRINT_RECORDS, and binds the buffer as the kernel's last argument;
 * - OpenCL C 1.2's own printf, for a program whose calls the record path cannot take (a call in
 *   a helper function), which the driver writes to stdout when the launch completes. */
#if defined(GP__PRINT_RECORDS)
#define GP__KERNEL(name, ...)                                                                      \
    __kernel void name(GP__MAPL(GP__CL_P_, __VA_ARGS__), __global volatile uint *gp__pbuf)
#define GP__PF_I(x) ((ulong2)((ulong)GP_PRINT_ARG_INT, (ulong)(long)(x)))
#define GP__PF_U(x) ((ulong2)((ulong)GP_PRINT_ARG_UINT, (ulong)(x)))
#if defined(GP__PRINT_DOUBLE)
#define GP__PF_F(x) ((ulong2)((ulong)GP_PRINT_ARG_DOUBLE, as_ulong((double)(x))))
#else
#define GP__PF_F(x) ((ulong2)((ulong)GP_PRINT_ARG_FLOAT, (ulong)as_uint((float)(x))))
#endif
#define GP__PF_END  ((ulong2)((ulong)0, (ulong)0))
/* the arguments by value (a compound literal's address space differs between OpenCL versions):
 * at most 32, as CUDA's printf, and the end */
typedef struct gp__pf_args {
    ulong2 v[33];
} gp__pf_args;
static void gp__pf_emit(__global volatile uint *b, uint group, uint id, uint lines, uint n,
                        gp__pf_args a)
{
    const uint words = GP_PRINT_REC_FIXED + GP_PRINT_REC_ARG_WORDS * n;
    const uint cap = b[GP_PRINT_REC_CAPACITY];
    /* once the buffer is full the cursor is left alone, so it cannot wrap around */
    uint at = b[GP_PRINT_REC_CURSOR];
    if (at < cap && cap - at >= words) at = atomic_add(&b[GP_PRINT_REC_CURSOR], words);
    if (at >= cap || cap - at < words) {
        atomic_add(&b[GP_PRINT_REC_DROPPED], lines);
        return;
    }
    __global volatile uint *r = b + GP_PRINT_REC_HEADER + at;
    r[1] = group;
    r[2] = n;
    for (uint i = 0; i < n; i++) {
        r[GP_PRINT_REC_FIXED + GP_PRINT_REC_ARG_WORDS * i] = (uint)a.v[i].x;
        r[GP_PRINT_REC_FIXED + GP_PRINT_REC_ARG_WORDS * i + 1] = (uint)(a.v[i].y & 0xffffffffUL);
        r[GP_PRINT_REC_FIXED + GP_PRINT_REC_ARG_WORDS * i + 2] = (uint)(a.v[i].y >> 32);
    }
    r[0] = id + 1u;
}
#define GP__PRINTF_REC(id, lines, n, ...)                                                          \
    gp__pf_emit(gp__pbuf,                                                                          \
                (uint)(get_group_id(0) +                                                           \
                       get_num_groups(0) * (get_group_id(1) + get_num_groups(1) * get_group_id(2))), \
                (id), (lines), (n), (gp__pf_args){{__VA_ARGS__}})
/* a gp_printf the runtime did not rewrite (a name, not a call) */
#define gp_printf(...) gp_printf_is_rewritten_by_the_runtime_on_this_device(__VA_ARGS__)
#else
#define GP__KERNEL(name, ...) __kernel void name(GP__MAPL(GP__CL_P_, __VA_ARGS__))
/* OpenCL C 1.2's printf: flushed when the launch's event completes */
#define gp_printf             printf
#endif

#define gp_global_id(d)   ((int)get_global_id(d))
#define gp_local_id(d)    ((int)get_local_id(d))
#define gp_group_id(d)    ((int)get_group_id(d))
#define gp_local_size(d)  ((int)get_local_size(d))
#define gp_num_groups(d)  ((int)get_num_groups(d))
#define gp_global_size(d) ((int)get_global_size(d))
#define gp_barrier()      barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE)
/* No SIMD-group operations: OpenCL C 1.2 has none, and 2.x/3.0 sub-groups have no size a
 * kernel can require. A use is a compile error naming the reason (the runtime turns it into
 * GP_ERR_UNSUPPORTED); code behind `#if !defined(GP_TARGET_OPENCL)` builds. */
#define GP_REQUIRES_SIMD_WIDTH(n)
#define GP__NO_SIMD                    gp_simd_operations_do_not_exist_on_opencl()
#define gp_simd_width()                GP__NO_SIMD
#define gp_simd_lane()                 GP__NO_SIMD
#define gp_simd_shuffle(v, lane)       GP__NO_SIMD
#define gp_simd_shuffle_xor(v, mask)   GP__NO_SIMD
#define gp_simd_shuffle_up(v, delta)   GP__NO_SIMD
#define gp_simd_shuffle_down(v, delta) GP__NO_SIMD
#define gp_simd_ballot(p)              GP__NO_SIMD
#define gp_simd_any(p)                 GP__NO_SIMD
#define gp_simd_all(p)                 GP__NO_SIMD
#define gp_simd_barrier()              GP__NO_SIMD

#define gp_atomic_add(p, v)      atomic_add((p), (v))
#define gp_atomic_sub(p, v)      atomic_sub((p), (v))
#define gp_atomic_min(p, v)      atomic_min((p), (v))
#define gp_atomic_max(p, v)      atomic_max((p), (v))
#define gp_atomic_and(p, v)      atomic_and((p), (v))
#define gp_atomic_or(p, v)       atomic_or((p), (v))
#define gp_atomic_xor(p, v)      atomic_xor((p), (v))
#define gp_atomic_xchg(p, v)     atomic_xchg((p), (v))
#define gp_atomic_cas(p, cmp, v) atomic_cmpxchg((p), (cmp), (v))
/* OpenCL 1.2 has no float atomics: a compare-exchange loop on the bits, in global and local
 * memory. */
#define GP__CL_FLOAT_ADD_CAS(name, AS)                                                             \
    static inline float name(volatile AS float *p, float v)                                        \
    {                                                                                              \
        uint old = as_uint(*p), seen;                                                              \
        while ((seen = atomic_cmpxchg((volatile AS uint *)p, old,                                  \
                                      as_uint(as_float(old) + v))) != old)                         \
            old = seen;                                                                            \
        return as_float(old);                                                                      \
    }
GP__CL_FLOAT_ADD_CAS(gp_atomic_add_float, __global)
GP__CL_FLOAT_ADD_CAS(gp_atomic_add_float_shared, __local)
/* 64-bit atomics on global memory (GP_REQUIRES_ATOMIC64): cl_khr_int64_base_atomics and
 * _extended_atomics (the runtime refuses a device without both), and double add as a
 * compare-exchange loop on the bits where the device also has double precision. */
#define GP_REQUIRES_ATOMIC64                                                                       \
    _Pragma("OPENCL EXTENSION cl_khr_int64_base_atomics : enable")                                 \
        _Pragma("OPENCL EXTENSION cl_khr_int64_extended_atomics : enable")
#define gp_atomic64_add(p, v)      atom_add((p), (v))
#define gp_atomic64_sub(p, v)      atom_sub((p), (v))
#define gp_atomic64_min(p, v)      atom_min((p), (v))
#define gp_atomic64_max(p, v)      atom_max((p), (v))
#define gp_atomic64_and(p, v)      atom_and((p), (v))
#define gp_atomic64_or(p, v)       atom_or((p), (v))
#define gp_atomic64_xor(p, v)      atom_xor((p), (v))
#define gp_atomic64_xchg(p, v)     atom_xchg((p), (v))
#define gp_atomic64_cas(p, cmp, v) atom_cmpxchg((p), (cmp), (v))
#if defined(cl_khr_fp64) && defined(cl_khr_int64_base_atomics)
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#pragma OPENCL EXTENSION cl_khr_int64_base_atomics : enable
static inline double gp_atomic_add_double(volatile __global double *p, double v)
{
    ulong old = as_ulong(*p), seen;
    while ((seen = atom_cmpxchg((volatile __global ulong *)p, old,
                                as_ulong(as_double(old) + v))) != old)
        old = seen;
    return as_double(old);
}
#pragma OPENCL EXTENSION cl_khr_int64_base_atomics : disable
#pragma OPENCL EXTENSION cl_khr_fp64 : disable
#endif

/* a value's bits as another type of the same size (64-bit ones need GP_REQUIRES_FP64), and sine
 * and cosine at once */
#define gp_float_as_int(x)          as_int((float)(x))
#define gp_int_as_float(x)          as_float((int)(x))
#define gp_float_as_uint(x)         as_uint((float)(x))
#define gp_uint_as_float(x)         as_float((uint)(x))
#define gp_double_as_long(x)        as_long((double)(x))
#define gp_long_as_double(x)        as_double((long)(x))
#define gp_sincos(x, s, c)          ((void)(*(s) = sincos((float)(x), (c))))

typedef ushort gp_half;
static inline float gp_half_to_float(gp_half h)
{
    return vload_half(0, (const __private half *)&h);
}
static inline gp_half gp_float_to_half(float f)
{
    gp_half h;
    vstore_half_rte(f, 0, (__private half *)&h);
    return h;
}
typedef ushort gp_bf16;
static inline float gp_bf16_to_float(gp_bf16 h)
{
    return as_float((uint)h << 16);
}
static inline gp_bf16 gp_float_to_bf16(float f)
{
    uint x = as_uint(f);
    if ((x & 0x7fffffffu) > 0x7f800000u) return (gp_bf16)((x >> 16) | 0x40u);
    return (gp_bf16)((x + 0x7fffu + ((x >> 16) & 1u)) >> 16);
}
typedef float2 gp_float2;
typedef float4 gp_float4;
typedef int2 gp_int2;
typedef int4 gp_int4;
#define gp_make_float2(x, y)       ((float2)((x), (y)))
#define gp_make_float4(x, y, z, w) ((float4)((x), (y), (z), (w)))
#define gp_make_int2(x, y)         ((int2)((x), (y)))
#define gp_make_int4(x, y, z, w)   ((int4)((x), (y), (z), (w)))
/* the other vector types; double ones as macros, so that a source without them builds on a
 * device without fp64 */
typedef char2 gp_char2;
typedef char4 gp_char4;
#define gp_make_char2(x, y)         ((char2)((x), (y)))
#define gp_make_char4(x, y, z, w)   ((char4)((x), (y), (z), (w)))
typedef uchar2 gp_uchar2;
typedef uchar4 gp_uchar4;
#define gp_make_uchar2(x, y)        ((uchar2)((x), (y)))
#define gp_make_uchar4(x, y, z, w)  ((uchar4)((x), (y), (z), (w)))
typedef short2 gp_short2;
typedef short4 gp_short4;
#define gp_make_short2(x, y)        ((short2)((x), (y)))
#define gp_make_short4(x, y, z, w)  ((short4)((x), (y), (z), (w)))
typedef ushort2 gp_ushort2;
typedef ushort4 gp_ushort4;
#define gp_make_ushort2(x, y)       ((ushort2)((x), (y)))
#define gp_make_ushort4(x, y, z, w) ((ushort4)((x), (y), (z), (w)))
typedef uint2 gp_uint2;
typedef uint4 gp_uint4;
#define gp_make_uint2(x, y)         ((uint2)((x), (y)))
#define gp_make_uint4(x, y, z, w)   ((uint4)((x), (y), (z), (w)))
typedef long2 gp_long2;
typedef long4 gp_long4;
#define gp_make_long2(x, y)         ((long2)((x), (y)))
#define gp_make_long4(x, y, z, w)   ((long4)((x), (y), (z), (w)))
typedef ulong2 gp_ulong2;
typedef ulong4 gp_ulong4;
#define gp_make_ulong2(x, y)        ((ulong2)((x), (y)))
#define gp_make_ulong4(x, y, z, w)  ((ulong4)((x), (y), (z), (w)))
#define gp_double2                  double2
#define gp_double4                  double4
#define gp_make_double2(x, y)       ((double2)((x), (y)))
#define gp_make_double4(x, y, z, w) ((double4)((x), (y), (z), (w)))

/* ============================================================================================
 * Metal Shading Language (C++14 based). Buffers are `device T *` at [[buffer(i)]] where i is the
 * parameter's position; values are `constant T &` at [[buffer(i)]] (bound with setBytes); the
 * dynamic block is `threadgroup T *` at [[threadgroup(0)]]; the built-in positions are appended
 * as extra parameters, which is why indices are read in the kernel body only. Launches use whole
 * threadgroups (dispatchThreadgroups), like every other target.
 * ============================================================================================ */
#elif defined(__METAL_VERSION__)
#define GP_TARGET_METAL 1
#include <metal_stdlib>
using namespace metal;
#define GP_GLOBAL        device
#define GP_SHARED        threadgroup
#define GP_CONSTANT      constant
#define GP_PRIVATE       thread
#define GP_SHARED_DECL   threadgroup
#define GP_CONSTANT_DECL constant
#define GP_FUNC          static inline
#define GP_REQUIRES_FP64

#define GP__MT_P_GP__B(i, T, n) device T *n [[buffer(i)]],
#define GP__MT_P_GP__C(i, T, n) const device T *n [[buffer(i)]],
#define GP__MT_P_GP__V(i, T, n) constant T &n [[buffer(i)]],
#define GP__MT_P_GP__D(i, T, n) threadgroup T *n [[threadgroup(0)]],
#if defined(GP__PRINT_RECORDS)
#define GP__MT_PRINT_PARAM device atomic_uint *gp__pbuf [[buffer(GP_PRINT_REC_BINDING)]],
#else
#define GP__MT_PRINT_PARAM
#endif
#define GP__KERNEL(name, ...)                                                                      \
    kernel void name(                                                                              \
        GP__MAP(GP__MT_P_, __VA_ARGS__) GP__MT_PRINT_PARAM                                         \
        uint3 gp__lid [[thread_position_in_threadgroup]],                                          \
        uint3 gp__grp [[threadgroup_position_in_grid]], uint3 gp__lsz [[threads_per_threadgroup]], \
        uint3 gp__ngrp [[threadgroups_per_grid]], ushort gp__slane [[thread_index_in_simdgroup]])

#define gp_local_id(d)    ((int)gp__lid[(d)])
#define gp_group_id(d)    ((int)gp__grp[(d)])
#define gp_local_size(d)  ((int)gp__lsz[(d)])
#define gp_num_groups(d)  ((int)gp__ngrp[(d)])
#define gp_global_id(d)   (gp_group_id(d) * gp_local_size(d) + gp_local_id(d))
#define gp_global_size(d) (gp_num_groups(d) * gp_local_size(d))
#define gp_barrier()      threadgroup_barrier(mem_flags::mem_device | mem_flags::mem_threadgroup)
/* SIMD-group operations: the runtime offers them on Apple GPUs only, whose SIMD groups all have
 * 32 lanes (AMD and Intel GPUs in Macs vary per pipeline), so the width is a constant helpers can
 * use too. */
#define GP_REQUIRES_SIMD_WIDTH(n)
#define gp_simd_width()                32
#define gp_simd_lane()                 ((int)gp__slane)
/* gp_printf, two ways (the runtime picks one per device, docs/debugging.md):
 * - MSL 3.2 (macOS 15): os_log, which the runtime compiles with logging enabled and reads with a
 *   log handler on the command buffer's log state;
 * - below: the runtime rewrites each call of a kernel body as GP__PRINTF_REC(id, lines, args...)
 *   (the format and %s literals stay on the host, by id) and defines GP__PRINT_RECORDS; the call
 *   appends one record to the launch's print buffer (layout above), or counts its lines as
 *   dropped when the buffer is full. */
#if defined(GP__PRINT_RECORDS)
struct gp__pf_arg {
    uint tag, lo, hi;
};
#define GP__PF_ENC(T, tag, lo, hi)                                                                 \
    static inline gp__pf_arg gp__pf_enc(T v)                                                       \
    {                                                                                              \
        return gp__pf_arg{(tag), (lo), (hi)};                                                      \
    }
GP__PF_ENC(bool, GP_PRINT_ARG_INT, v ? 1u : 0u, 0u)
GP__PF_ENC(char, GP_PRINT_ARG_INT, (uint)(int)v, v < 0 ? 0xffffffffu : 0u)
GP__PF_ENC(signed char, GP_PRINT_ARG_INT, (uint)(int)v, v < 0 ? 0xffffffffu : 0u)
GP__PF_ENC(uchar, GP_PRINT_ARG_UINT, (uint)v, 0u)
GP__PF_ENC(short, GP_PRINT_ARG_INT, (uint)(int)v, v < 0 ? 0xffffffffu : 0u)
GP__PF_ENC(ushort, GP_PRINT_ARG_UINT, (uint)v, 0u)
GP__PF_ENC(int, GP_PRINT_ARG_INT, (uint)v, v < 0 ? 0xffffffffu : 0u)
GP__PF_ENC(uint, GP_PRINT_ARG_UINT, v, 0u)
GP__PF_ENC(long, GP_PRINT_ARG_INT, (uint)((ulong)v & 0xffffffffu), (uint)((ulong)v >> 32))
GP__PF_ENC(ulong, GP_PRINT_ARG_UINT, (uint)(v & 0xffffffffu), (uint)(v >> 32))
GP__PF_ENC(half, GP_PRINT_ARG_FLOAT, as_type<uint>((float)v), 0u)
GP__PF_ENC(float, GP_PRINT_ARG_FLOAT, as_type<uint>(v), 0u)
template <typename... A>
static inline void gp__pf_emit(device atomic_uint *b, uint group, uint id, uint lines, A... a)
{
    const gp__pf_arg v[] = {gp__pf_enc(a)..., gp__pf_arg{0u, 0u, 0u}};
    const uint n = (uint)sizeof...(A);
    const uint words = GP_PRINT_REC_FIXED + GP_PRINT_REC_ARG_WORDS * n;
    const uint cap = atomic_load_explicit(&b[GP_PRINT_REC_CAPACITY], memory_order_relaxed);
    /* once the buffer is full the cursor is left alone, so it cannot wrap around */
    uint at = atomic_load_explicit(&b[GP_PRINT_REC_CURSOR], memory_order_relaxed);
    if (at < cap && cap - at >= words)
        at = atomic_fetch_add_explicit(&b[GP_PRINT_REC_CURSOR], words, memory_order_relaxed);
    if (at >= cap || cap - at < words) {
        atomic_fetch_add_explicit(&b[GP_PRINT_REC_DROPPED], lines, memory_order_relaxed);
        return;
    }
    device uint *r = (device uint *)(b + GP_PRINT_REC_HEADER) + at;
    r[1] = group;
    r[2] = n;
    for (uint i = 0; i < n; i++) {
        r[GP_PRINT_REC_FIXED + GP_PRINT_REC_ARG_WORDS * i] = v[i].tag;
        r[GP_PRINT_REC_FIXED + GP_PRINT_REC_ARG_WORDS * i + 1] = v[i].lo;
        r[GP_PRINT_REC_FIXED + GP_PRINT_REC_ARG_WORDS * i + 2] = v[i].hi;
    }
    r[0] = id + 1u;
}
#define GP__PRINTF_REC(...)                                                                        \
    gp__pf_emit(gp__pbuf, gp__grp.x + gp__ngrp.x * (gp__grp.y + gp__ngrp.y * gp__grp.z),          \
                __VA_ARGS__)
/* a gp_printf the runtime did not rewrite (a name, not a call) */
#define gp_printf(...) gp_printf_is_rewritten_by_the_runtime_on_this_metal(__VA_ARGS__)
#elif __METAL_VERSION__ >= 320
#include <metal_logging>
#define gp_printf(...) os_log_default.log(__VA_ARGS__)
#else
/* The runtime rewrites gp_printf calls on this Metal version; a compile of the source by hand
 * must not pass silently. */
#define gp_printf(...) gp_printf_is_not_available_below_msl_3_2(__VA_ARGS__)
#endif
/* lane, mask and delta are taken modulo 32, as CUDA's shuffles do; narrow values are promoted
 * (`+ 0`) so the result has the type it has on CUDA and the CPU */
#define gp_simd_shuffle(v, lane)       simd_shuffle((v) + 0, (ushort)((uint)(lane) & 31u))
#define gp_simd_shuffle_xor(v, mask)   simd_shuffle_xor((v) + 0, (ushort)((uint)(mask) & 31u))
#define gp_simd_shuffle_up(v, delta)   simd_shuffle_up((v) + 0, (ushort)((uint)(delta) & 31u))
#define gp_simd_shuffle_down(v, delta) simd_shuffle_down((v) + 0, (ushort)((uint)(delta) & 31u))
#define gp_simd_ballot(p)                                                                          \
    ((uint)(static_cast<simd_vote::vote_t>(simd_ballot((bool)(p)))))
#define gp_simd_any(p)                 ((int)simd_any((bool)(p)))
#define gp_simd_all(p)                 ((int)simd_all((bool)(p)))
#define gp_simd_barrier()                                                                          \
    simdgroup_barrier(mem_flags::mem_device | mem_flags::mem_threadgroup)

/* The portable atomic subset as overloads for device and threadgroup int and uint. */
#define GP__MT_ATOMIC_SPACE(AS)                                                                    \
    GP__MT_ATOMIC_T(AS, int, atomic_int)                                                           \
    GP__MT_ATOMIC_T(AS, uint, atomic_uint)
#define GP__MT_ATOMIC_OP(AS, T, AT, op, fn)                                                        \
    static inline T gp_atomic_##op(AS T *p, T v)                                                   \
    {                                                                                              \
        return fn((AS AT *)p, v, memory_order_relaxed);                                            \
    }
#define GP__MT_ATOMIC_T(AS, T, AT)                                                                 \
    GP__MT_ATOMIC_OP(AS, T, AT, add, atomic_fetch_add_explicit)                                    \
    GP__MT_ATOMIC_OP(AS, T, AT, sub, atomic_fetch_sub_explicit)                                    \
    GP__MT_ATOMIC_OP(AS, T, AT, min, atomic_fetch_min_explicit)                                    \
    GP__MT_ATOMIC_OP(AS, T, AT, max, atomic_fetch_max_explicit)                                    \
    GP__MT_ATOMIC_OP(AS, T, AT, and, atomic_fetch_and_explicit)                                    \
    GP__MT_ATOMIC_OP(AS, T, AT, or, atomic_fetch_or_explicit)                                      \
    GP__MT_ATOMIC_OP(AS, T, AT, xor, atomic_fetch_xor_explicit)                                    \
    GP__MT_ATOMIC_OP(AS, T, AT, xchg, atomic_exchange_explicit)                                    \
    static inline T gp_atomic_cas(AS T *p, T cmp, T v)                                             \
    {                                                                                              \
        T expected = cmp;                                                                          \
        atomic_compare_exchange_weak_explicit((AS AT *)p, &expected, v, memory_order_relaxed,      \
                                              memory_order_relaxed);                               \
        return expected;                                                                           \
    }
GP__MT_ATOMIC_SPACE(device)
GP__MT_ATOMIC_SPACE(threadgroup)
/* float add as a compare-exchange loop on the bits, for memory without float atomics */
#define GP__MT_FLOAT_ADD_CAS(name, AS)                                                             \
    static inline float name(AS float *p, float v)                                                 \
    {                                                                                              \
        uint old = as_type<uint>(*p);                                                              \
        while (!atomic_compare_exchange_weak_explicit((AS atomic_uint *)p, &old,                   \
                                                      as_type<uint>(as_type<float>(old) + v),      \
                                                      memory_order_relaxed,                        \
                                                      memory_order_relaxed)) {                     \
        }                                                                                          \
        return as_type<float>(old);                                                                \
    }
#if __METAL_VERSION__ >= 300
static inline float gp_atomic_add_float(device float *p, float v)
{
    return atomic_fetch_add_explicit((device atomic_float *)p, v, memory_order_relaxed);
}
#else
GP__MT_FLOAT_ADD_CAS(gp_atomic_add_float, device)
#endif
GP__MT_FLOAT_ADD_CAS(gp_atomic_add_float_shared, threadgroup) /* no float atomics there */
/* Metal has no 64-bit add or compare-exchange on device memory: the runtime refuses a source
 * that says GP_REQUIRES_ATOMIC64 before it compiles; compiled by hand, it says why. */
#define GP_REQUIRES_ATOMIC64                                                                       \
    static_assert(false, "GP_REQUIRES_ATOMIC64: Metal has no 64-bit atomics on device memory");

/* a value's bits as another type of the same size (the cosine of gp_sincos goes to a thread's
 * variable), and sine and cosine at once */
#define gp_float_as_int(x)          as_type<int>((float)(x))
#define gp_int_as_float(x)          as_type<float>((int)(x))
#define gp_float_as_uint(x)         as_type<uint>((float)(x))
#define gp_uint_as_float(x)         as_type<float>((uint)(x))
#define gp_double_as_long(x)        as_type<long>((double)(x))
#define gp_long_as_double(x)        as_type<double>((long)(x))
#define gp_sincos(x, s, c)          ((void)(*(s) = sincos((float)(x), *(c))))

typedef ushort gp_half;
static inline float gp_half_to_float(gp_half h)
{
    return float(as_type<half>(h));
}
static inline gp_half gp_float_to_half(float f)
{
    return as_type<ushort>(half(f));
}
typedef ushort gp_bf16;
static inline float gp_bf16_to_float(gp_bf16 h)
{
    return as_type<float>(uint(h) << 16);
}
static inline gp_bf16 gp_float_to_bf16(float f)
{
    uint x = as_type<uint>(f);
    if ((x & 0x7fffffffu) > 0x7f800000u) return gp_bf16((x >> 16) | 0x40u);
    return gp_bf16((x + 0x7fffu + ((x >> 16) & 1u)) >> 16);
}
typedef float2 gp_float2;
typedef float4 gp_float4;
typedef int2 gp_int2;
typedef int4 gp_int4;
#define gp_make_float2(x, y)       float2((x), (y))
#define gp_make_float4(x, y, z, w) float4((x), (y), (z), (w))
#define gp_make_int2(x, y)         int2((x), (y))
#define gp_make_int4(x, y, z, w)   int4((x), (y), (z), (w))
/* the other vector types; 64-bit ones as macros (Metal has no double, and long only in newer
 * versions), so that a source without them builds everywhere */
typedef char2 gp_char2;
typedef char4 gp_char4;
#define gp_make_char2(x, y)         char2((x), (y))
#define gp_make_char4(x, y, z, w)   char4((x), (y), (z), (w))
typedef uchar2 gp_uchar2;
typedef uchar4 gp_uchar4;
#define gp_make_uchar2(x, y)        uchar2((x), (y))
#define gp_make_uchar4(x, y, z, w)  uchar4((x), (y), (z), (w))
typedef short2 gp_short2;
typedef short4 gp_short4;
#define gp_make_short2(x, y)        short2((x), (y))
#define gp_make_short4(x, y, z, w)  short4((x), (y), (z), (w))
typedef ushort2 gp_ushort2;
typedef ushort4 gp_ushort4;
#define gp_make_ushort2(x, y)       ushort2((x), (y))
#define gp_make_ushort4(x, y, z, w) ushort4((x), (y), (z), (w))
typedef uint2 gp_uint2;
typedef uint4 gp_uint4;
#define gp_make_uint2(x, y)         uint2((x), (y))
#define gp_make_uint4(x, y, z, w)   uint4((x), (y), (z), (w))
#define gp_long2                    long2
#define gp_long4                    long4
#define gp_make_long2(x, y)         long2((x), (y))
#define gp_make_long4(x, y, z, w)   long4((x), (y), (z), (w))
#define gp_ulong2                   ulong2
#define gp_ulong4                   ulong4
#define gp_make_ulong2(x, y)        ulong2((x), (y))
#define gp_make_ulong4(x, y, z, w)  ulong4((x), (y), (z), (w))
#define gp_double2                  double2
#define gp_double4                  double4
#define gp_make_double2(x, y)       double2((x), (y))
#define gp_make_double4(x, y, z, w) double4((x), (y), (z), (w))

/* ============================================================================================
 * C on the CPU (any C11 compiler). Each GP_KERNEL becomes the user's body as a static function
 * taking the group and the local position, a loop entry (all items of a group, for kernels
 * without barriers), an item entry (one work-item, run as a fiber when there are barriers) and an
 * exported descriptor `gp__kdesc_<prefix><name>` the runtime finds with dlsym (or links, for the
 * programs built into the library). Shared arrays are `static _Thread_local`: all fibers of a
 * group run on one OS thread, and a thread finishes one group before it starts the next.
 * ============================================================================================ */
#else
#include <stdint.h>
/* The CPU backend's ABI between the runtime and a compiled program. args[i] points at the value
 * of parameter i: for buffers and the dynamic block, at a `void *` holding the address; for
 * values, at the bytes of the value (the layout of CUDA's kernelParams). */
#define GP_CPU_ABI_VERSION 4
/* SIMD-group operations are emulated by the runtime: groups of GP_CPU_SIMD_WIDTH work-items in
 * linear local-id order, run as fibers, meet at each operation (simd() below). */
#define GP_CPU_SIMD_WIDTH  32
enum gp_cpu_simd_op {
    /* the shuffles take `arg` modulo the width (its low 5 bits), as CUDA's do */
    GP_CPU_SIMD_SHUFFLE, /* the value of lane `arg` */
    GP_CPU_SIMD_XOR,     /* of lane ^ arg */
    GP_CPU_SIMD_UP,      /* of lane - arg; one's own below arg */
    GP_CPU_SIMD_DOWN,    /* of lane + arg; one's own past the last lane */
    GP_CPU_SIMD_BALLOT,  /* bit i set when lane i's value is non-zero */
    GP_CPU_SIMD_ANY,
    GP_CPU_SIMD_ALL,
    GP_CPU_SIMD_BARRIER /* the lanes meet; the value is one's own */
};
typedef struct gp_cpu_group {
    uint32_t group_id[3];
    uint32_t local_size[3];
    uint32_t num_groups[3];
    uint32_t base[3]; /* group_id * local_size: the global id of local id 0 */
    void (*barrier)(void *ctx);
    void *barrier_ctx;
    uint32_t (*simd)(void *ctx, uint32_t op, uint32_t value, uint32_t arg); /* ctx: barrier_ctx */
    void *check; /* a checked build's hooks reach the checker through this; NULL otherwise */
    /* gp_printf: one call's formatted text (whole, not NUL-terminated); NULL drops it */
    void (*print)(const struct gp_cpu_group *g, const char *text, uint32_t len);
    void *print_ctx;
} gp_cpu_group;
typedef void (*gp_cpu_group_fn)(void *const *args, const gp_cpu_group *g);
typedef void (*gp_cpu_item_fn)(void *const *args, const gp_cpu_group *g, uint32_t lx, uint32_t ly,
                               uint32_t lz);
typedef struct gp_cpu_kernel_desc {
    uint32_t abi; /* GP_CPU_ABI_VERSION */
    uint32_t num_args;
    const char *name;
    gp_cpu_group_fn run_group;      /* every item of a group in a loop: kernels without barriers */
    gp_cpu_item_fn run_item;        /* one item: run as a fiber when the kernel has barriers */
    const unsigned char *arg_kinds; /* gp_arg_kind of each parameter */
    const uint32_t *arg_sizes;      /* sizeof the type of each parameter */
} gp_cpu_kernel_desc;

#if !defined(GP_KERNEL_ABI_ONLY)
#define GP_TARGET_CPU 1
#include <math.h>
#include <stdarg.h>
#include <stdbool.h> /* bool, true, false: keywords on the other targets */
#include <stdio.h>   /* vsnprintf, for gp_printf */
#include <string.h>
#ifdef GP_CPU_SYMBOL_PREFIX
#define GP__CPU_EXPORT
#else
#define GP_CPU_SYMBOL_PREFIX
#if defined(_WIN32)
#define GP__CPU_EXPORT __declspec(dllexport)
#else
#define GP__CPU_EXPORT __attribute__((visibility("default")))
#endif
#endif
#define GP_GLOBAL
#define GP_SHARED
#define GP_CONSTANT const
#define GP_PRIVATE
#if defined(_MSC_VER) && !defined(__clang__)
#define GP__CPU_TLS __declspec(thread)
#else
#define GP__CPU_TLS _Thread_local
#endif
#define GP_SHARED_DECL   static GP__CPU_TLS
#define GP_CONSTANT_DECL static const
#define GP_FUNC          static inline
#define GP_REQUIRES_FP64

#if defined(_MSC_VER) && !defined(__clang__)
#define GP__UNUSED
#else
#define GP__UNUSED __attribute__((unused))
#endif
static GP__CPU_TLS const gp_cpu_group *gp__cpu_cur GP__UNUSED;

#define GP__C_P_GP__B(i, T, n)  , T *n
#define GP__C_P_GP__C(i, T, n)  , const T *n
#define GP__C_P_GP__V(i, T, n)  , T n
#define GP__C_P_GP__D(i, T, n)  , T *n
#define GP__C_LD_GP__B(i, T, n) T *n = *(T *const *)gp__a[i];
#define GP__C_LD_GP__C(i, T, n) const T *n = *(const T *const *)gp__a[i];
#define GP__C_LD_GP__V(i, T, n)                                                                    \
    T n;                                                                                           \
    memcpy(&n, gp__a[i], sizeof n);
#define GP__C_LD_GP__D(i, T, n)   T *n = *(T *const *)gp__a[i];
#define GP__C_FWD_GP__B(i, T, n)  , n
#define GP__C_FWD_GP__C(i, T, n)  , n
#define GP__C_FWD_GP__V(i, T, n)  , n
#define GP__C_FWD_GP__D(i, T, n)  , n
#define GP__C_KIND_GP__B(i, T, n) 0,
#define GP__C_KIND_GP__C(i, T, n) 1,
#define GP__C_KIND_GP__V(i, T, n) 2,
#define GP__C_KIND_GP__D(i, T, n) 3,
#define GP__C_SIZE_GP__B(i, T, n) (uint32_t)sizeof(T),
#define GP__C_SIZE_GP__C(i, T, n) (uint32_t)sizeof(T),
#define GP__C_SIZE_GP__V(i, T, n) (uint32_t)sizeof(T),
#define GP__C_SIZE_GP__D(i, T, n) (uint32_t)sizeof(T),
#define GP__C_BODY_PARAMS(...)                                                                     \
    const gp_cpu_group *gp__g GP__UNUSED, int gp__gx GP__UNUSED, uint32_t gp__ly GP__UNUSED,       \
        uint32_t gp__lz GP__UNUSED GP__MAP(GP__C_P_, __VA_ARGS__)
#define GP__KERNEL(name, ...)                                                                      \
    static inline                                                                                  \
        __attribute__((always_inline)) void gp__body_##name(GP__C_BODY_PARAMS(__VA_ARGS__));       \
    static void gp__group_##name(void *const *gp__a, const gp_cpu_group *gp__g)                    \
    {                                                                                              \
        (void)gp__a;                                                                               \
        GP__MAP(GP__C_LD_, __VA_ARGS__)                                                            \
        gp__cpu_cur = gp__g;                                                                       \
        /* a private copy: stores through the kernel's pointers cannot alias it, so the            \
         * loop bounds and ids stay in registers and the loop can be vectorised */                 \
        const gp_cpu_group gp__gc = *gp__g;                                                        \
        /* the loop runs over the global x id itself: a guard `if (i < n)` then compares           \
         * the induction variable with an invariant, which compilers split off the loop            \
         * (no per-item branch, no masked stores) */                                               \
        const int gp__x0 = (int)gp__gc.base[0], gp__x1 = gp__x0 + (int)gp__gc.local_size[0];       \
        for (uint32_t gp__z = 0; gp__z < gp__gc.local_size[2]; gp__z++)                            \
            for (uint32_t gp__y = 0; gp__y < gp__gc.local_size[1]; gp__y++)                        \
                for (int gp__x = gp__x0; gp__x < gp__x1; gp__x++)                                  \
                    gp__body_##name(&gp__gc, gp__x, gp__y,                                         \
                                    gp__z GP__MAP(GP__C_FWD_, __VA_ARGS__));                       \
    }                                                                                              \
    static void gp__item_##name(void *const *gp__a, const gp_cpu_group *gp__g, uint32_t gp__x,     \
                                uint32_t gp__y, uint32_t gp__z)                                    \
    {                                                                                              \
        (void)gp__a;                                                                               \
        GP__MAP(GP__C_LD_, __VA_ARGS__)                                                            \
        gp__cpu_cur = gp__g;                                                                       \
        gp__body_##name(gp__g, (int)(gp__g->base[0] + gp__x), gp__y,                               \
                        gp__z GP__MAP(GP__C_FWD_, __VA_ARGS__));                                   \
    }                                                                                              \
    static const unsigned char gp__kinds_##name[] = {GP__MAP(GP__C_KIND_, __VA_ARGS__) 0};         \
    static const uint32_t gp__sizes_##name[] = {GP__MAP(GP__C_SIZE_, __VA_ARGS__) 0};              \
    GP__CPU_EXPORT const gp_cpu_kernel_desc GP__CAT(GP__CAT(gp__kdesc_, GP_CPU_SYMBOL_PREFIX),     \
                                                    name) = {                                      \
        GP_CPU_ABI_VERSION, GP__NPARAMS(__VA_ARGS__), #name,           gp__group_##name,           \
        gp__item_##name,    gp__kinds_##name,         gp__sizes_##name};                           \
    static inline                                                                                  \
        __attribute__((always_inline)) void gp__body_##name(GP__C_BODY_PARAMS(__VA_ARGS__))

/* The work-group loops form of a kernel with barriers (written by the CPU backend, not by users:
 * src/runtime/cpu/loops.c): one call runs the whole group, each region between barriers as a
 * GP__WI_BEGIN ... GP__WI_END loop over its work-items; the descriptor has no item entry. */
#define GP_KERNEL_LOOPS(...)          GP__KERNEL_LOOPS_X(GP__FIRST_(__VA_ARGS__, ~), __VA_ARGS__)
#define GP__KERNEL_LOOPS_X(name, ...) GP__KERNEL_LOOPS(name, __VA_ARGS__)
#define GP__KERNEL_LOOPS(name, ...)                                                                \
    static inline __attribute__((always_inline)) void gp__wg_##name(                               \
        const gp_cpu_group *gp__g GP__MAP(GP__C_P_, __VA_ARGS__));                                 \
    static void gp__group_##name(void *const *gp__a, const gp_cpu_group *gp__g)                    \
    {                                                                                              \
        (void)gp__a;                                                                               \
        GP__MAP(GP__C_LD_, __VA_ARGS__)                                                            \
        gp__cpu_cur = gp__g;                                                                       \
        const gp_cpu_group gp__gc = *gp__g; /* a private copy, as in GP__KERNEL */                 \
        gp__wg_##name(&gp__gc GP__MAP(GP__C_FWD_, __VA_ARGS__));                                   \
    }                                                                                              \
    static const unsigned char gp__kinds_##name[] = {GP__MAP(GP__C_KIND_, __VA_ARGS__) 0};         \
    static const uint32_t gp__sizes_##name[] = {GP__MAP(GP__C_SIZE_, __VA_ARGS__) 0};              \
    GP__CPU_EXPORT const gp_cpu_kernel_desc GP__CAT(GP__CAT(gp__kdesc_, GP_CPU_SYMBOL_PREFIX),     \
                                                    name) = {                                      \
        GP_CPU_ABI_VERSION, GP__NPARAMS(__VA_ARGS__), #name, gp__group_##name, NULL,               \
        gp__kinds_##name,   gp__sizes_##name};                                                     \
    static inline __attribute__((always_inline)) void gp__wg_##name(                               \
        const gp_cpu_group *gp__g GP__MAP(GP__C_P_, __VA_ARGS__))
/* Shared memory in the work-group loops form: its address taken once per group (a thread-local
 * object of a dlopen'd library costs a __tls_get_addr call per access otherwise). */
#if defined(__GNUC__) || defined(__clang__)
#define GP__SHARED_ALIAS(name)                                                                     \
    __typeof__(name) *gp__sh_##name = &name;                                                       \
    __asm__("" : "+r"(gp__sh_##name)); /* or GCC folds the address back into every access */
#define GP__SHARED_USE(name)   (*gp__sh_##name)
#else
#define GP__SHARED_ALIAS(name)
#define GP__SHARED_USE(name) name
#endif
#define GP__WG_PROLOGUE                                                                            \
    const int gp__x0 = (int)gp__g->base[0];                                                        \
    const uint32_t gp__lsx = gp__g->local_size[0], gp__lsy = gp__g->local_size[1],                 \
                   gp__lsz = gp__g->local_size[2], gp__n = gp__lsx * gp__lsy * gp__lsz;            \
    (void)gp__n;
/* The linear local id gp__li indexes the per-item arrays; x is the innermost loop, counted from 0
 * in a signed int (gp__lx) so that the compiler sees every index made of it as an affine function
 * of the loop (counting from the group's base, a masked load such as `lid >= k ? a[lid - k] : 0`
 * defeated GCC's data-reference analysis and the loop stayed scalar). */
#define GP__WI_BEGIN                                                                               \
    for (uint32_t gp__lz = 0; gp__lz < gp__lsz; gp__lz++)                                          \
        for (uint32_t gp__ly = 0; gp__ly < gp__lsy; gp__ly++)                                      \
            for (int gp__row = (int)(gp__lsx * (gp__ly + gp__lsy * gp__lz)), gp__lx = 0;           \
                 gp__lx < (int)gp__lsx; gp__lx++) {                                                \
                const int gp__gx = gp__x0 + gp__lx, gp__li = gp__row + gp__lx;                     \
                (void)gp__li;                                                                      \
                (void)gp__gx;
#define GP__WI_END }

#define gp_local_id(d)    ((d) == 0 ? gp__gx - (int)gp__g->base[0] : (int)((d) == 1 ? gp__ly : gp__lz))
#define gp_group_id(d)    ((int)gp__g->group_id[(d)])
#define gp_local_size(d)  ((int)gp__g->local_size[(d)])
#define gp_num_groups(d)  ((int)gp__g->num_groups[(d)])
#define gp_global_id(d)   ((d) == 0 ? gp__gx : (int)(gp__g->base[(d)] + ((d) == 1 ? gp__ly : gp__lz)))
#define gp_global_size(d) ((int)(gp__g->num_groups[(d)] * gp__g->local_size[(d)]))
#define gp_barrier()      gp__cpu_cur->barrier(gp__cpu_cur->barrier_ctx)

/* SIMD-group operations on 32-bit int, unsigned and float values (any narrower integer is
 * promoted, as `(v) + 0` shows _Generic). */
#define GP_REQUIRES_SIMD_WIDTH(n)                                                                  \
    _Static_assert((n) == GP_CPU_SIMD_WIDTH, "the CPU emulates SIMD groups of 32 lanes");
#define gp_simd_width() GP_CPU_SIMD_WIDTH
#define gp_simd_lane()                                                                             \
    ((int)(((uint32_t)gp_local_id(0) +                                                             \
            gp__g->local_size[0] * (gp__ly + gp__g->local_size[1] * gp__lz)) %                     \
           GP_CPU_SIMD_WIDTH))
static inline uint32_t gp__simd_u(uint32_t op, uint32_t v, uint32_t arg)
{
    return gp__cpu_cur->simd(gp__cpu_cur->barrier_ctx, op, v, arg);
}
static inline int gp__simd_i(uint32_t op, int v, uint32_t arg)
{
    return (int)gp__simd_u(op, (uint32_t)v, arg);
}
static inline float gp__simd_f(uint32_t op, float v, uint32_t arg)
{
    uint32_t u;
    memcpy(&u, &v, sizeof u);
    u = gp__simd_u(op, u, arg);
    memcpy(&v, &u, sizeof v);
    return v;
}
#define GP__SIMD_T(op, v, arg)                                                                     \
    _Generic((v) + 0, float: gp__simd_f, unsigned: gp__simd_u, int: gp__simd_i)(                  \
        (op), (v), (uint32_t)(arg))
#define gp_simd_shuffle(v, lane)       GP__SIMD_T(GP_CPU_SIMD_SHUFFLE, v, lane)
#define gp_simd_shuffle_xor(v, mask)   GP__SIMD_T(GP_CPU_SIMD_XOR, v, mask)
#define gp_simd_shuffle_up(v, delta)   GP__SIMD_T(GP_CPU_SIMD_UP, v, delta)
#define gp_simd_shuffle_down(v, delta) GP__SIMD_T(GP_CPU_SIMD_DOWN, v, delta)
#define gp_simd_ballot(p)              gp__simd_u(GP_CPU_SIMD_BALLOT, (p) ? 1u : 0u, 0)
#define gp_simd_any(p)                 ((int)gp__simd_u(GP_CPU_SIMD_ANY, (p) ? 1u : 0u, 0))
#define gp_simd_all(p)                 ((int)gp__simd_u(GP_CPU_SIMD_ALL, (p) ? 1u : 0u, 0))
#define gp_simd_barrier()              ((void)gp__simd_u(GP_CPU_SIMD_BARRIER, 0, 0))

/* SIMD-group operations in the work-group loops form (src/runtime/cpu/loops.c): each work-item
 * of the group stores its operand's bits in sv[gp__li] (and the lane, mask or delta in an array
 * of its own) at the end of one region, and reads the result at the start of the next. A SIMD
 * group is 32 consecutive linear ids (launches hold whole SIMD groups; a lane past the group's
 * end would give one's own value, as the fibers do). */
static inline uint32_t gp__simd_fbits(float v)
{
    uint32_t u;
    memcpy(&u, &v, sizeof u);
    return u;
}
static inline float gp__simd_asf(uint32_t u)
{
    float v;
    memcpy(&v, &u, sizeof v);
    return v;
}
static inline uint32_t gp__simd_ubits(unsigned v) { return v; }
static inline uint32_t gp__simd_ibits(int v) { return (uint32_t)v; }
static inline unsigned gp__simd_asu(uint32_t u) { return u; }
static inline int gp__simd_asi(uint32_t u) { return (int)u; }
#define GP__SIMD_BITS(v)                                                                           \
    _Generic((v) + 0, float: gp__simd_fbits, unsigned: gp__simd_ubits, int: gp__simd_ibits)(v)
#define GP__SIMD_FROM(v, bits)                                                                     \
    _Generic((v) + 0, float: gp__simd_asf, unsigned: gp__simd_asu, int: gp__simd_asi)(bits)
static inline uint32_t gp__simd_src(uint32_t op, const uint32_t *sv, uint32_t arg, int li, int n)
{
    int first = li - li % GP_CPU_SIMD_WIDTH;
    uint32_t lane = (uint32_t)(li - first), src = lane;
    uint32_t lanes = n - first < GP_CPU_SIMD_WIDTH ? (uint32_t)(n - first) : GP_CPU_SIMD_WIDTH;
    arg &= GP_CPU_SIMD_WIDTH - 1;
    if (op == GP_CPU_SIMD_SHUFFLE) src = arg;
    if (op == GP_CPU_SIMD_XOR) src = lane ^ arg;
    if (op == GP_CPU_SIMD_UP) src = arg <= lane ? lane - arg : lane;
    if (op == GP_CPU_SIMD_DOWN) src = lane + arg < lanes ? lane + arg : lane;
    return src < lanes ? sv[first + (int)src] : sv[li];
}
static inline uint32_t gp__simd_vote(uint32_t op, const uint32_t *sv, int li, int n)
{
    int first = li - li % GP_CPU_SIMD_WIDTH;
    uint32_t lanes = n - first < GP_CPU_SIMD_WIDTH ? (uint32_t)(n - first) : GP_CPU_SIMD_WIDTH;
    uint32_t mask = 0, all = lanes == 32 ? ~0u : (1u << lanes) - 1u;
    for (uint32_t l = 0; l < lanes; l++)
        if (sv[first + (int)l]) mask |= 1u << l;
    if (op == GP_CPU_SIMD_BALLOT) return mask;
    if (op == GP_CPU_SIMD_ANY) return mask != 0;
    return mask == all;
}

#define gp_atomic_add(p, v)  __atomic_fetch_add((p), (v), __ATOMIC_RELAXED)
#define gp_atomic_sub(p, v)  __atomic_fetch_sub((p), (v), __ATOMIC_RELAXED)
#define gp_atomic_and(p, v)  __atomic_fetch_and((p), (v), __ATOMIC_RELAXED)
#define gp_atomic_or(p, v)   __atomic_fetch_or((p), (v), __ATOMIC_RELAXED)
#define gp_atomic_xor(p, v)  __atomic_fetch_xor((p), (v), __ATOMIC_RELAXED)
#define gp_atomic_xchg(p, v) __atomic_exchange_n((p), (v), __ATOMIC_RELAXED)
#define GP__CPU_CAS_T(sfx, T)                                                                      \
    static inline T gp__cas_##sfx(T *p, T cmp, T v)                                                \
    {                                                                                              \
        __atomic_compare_exchange_n(p, &cmp, v, 0, __ATOMIC_RELAXED, __ATOMIC_RELAXED);            \
        return cmp;                                                                                \
    }                                                                                              \
    static inline T gp__min_##sfx(T *p, T v)                                                       \
    {                                                                                              \
        T old = __atomic_load_n(p, __ATOMIC_RELAXED);                                              \
        while (v < old &&                                                                          \
               !__atomic_compare_exchange_n(p, &old, v, 1, __ATOMIC_RELAXED, __ATOMIC_RELAXED)) {  \
        }                                                                                          \
        return old;                                                                                \
    }                                                                                              \
    static inline T gp__max_##sfx(T *p, T v)                                                       \
    {                                                                                              \
        T old = __atomic_load_n(p, __ATOMIC_RELAXED);                                              \
        while (v > old &&                                                                          \
               !__atomic_compare_exchange_n(p, &old, v, 1, __ATOMIC_RELAXED, __ATOMIC_RELAXED)) {  \
        }                                                                                          \
        return old;                                                                                \
    }
GP__CPU_CAS_T(i32, int32_t)
GP__CPU_CAS_T(u32, uint32_t)
/* The work-group loops form's atomics on the group's own shared integers (the CPU backend writes
 * them in place of gp_atomic_*): one thread runs the whole group and nothing else sees its shared
 * memory, so a plain read-modify-write is atomic there. */
#define GP__CPU_GROUP_RMW(sfx, T, op, expr)                                                        \
    static inline T gp__grp_##op##_##sfx(T *p, T v)                                                \
    {                                                                                              \
        T o = *p;                                                                                  \
        *p = (T)(expr);                                                                            \
        return o;                                                                                  \
    }
#define GP__CPU_GROUP_RMW_T(sfx, T)                                                                \
    GP__CPU_GROUP_RMW(sfx, T, add, (uint32_t)o + (uint32_t)v) /* wraps, as the atomic does */     \
    GP__CPU_GROUP_RMW(sfx, T, sub, (uint32_t)o - (uint32_t)v)                                      \
    GP__CPU_GROUP_RMW(sfx, T, and, o & v)                                                          \
    GP__CPU_GROUP_RMW(sfx, T, or, o | v)                                                           \
    GP__CPU_GROUP_RMW(sfx, T, xor, o ^ v)                                                          \
    GP__CPU_GROUP_RMW(sfx, T, xchg, v)                                                             \
    GP__CPU_GROUP_RMW(sfx, T, min, v < o ? v : o)                                                  \
    GP__CPU_GROUP_RMW(sfx, T, max, v > o ? v : o)                                                  \
    static inline T gp__grp_cas_##sfx(T *p, T cmp, T v)                                            \
    {                                                                                              \
        T o = *p;                                                                                  \
        if (o == cmp) *p = v;                                                                      \
        return o;                                                                                  \
    }
GP__CPU_GROUP_RMW_T(i32, int32_t)
GP__CPU_GROUP_RMW_T(u32, uint32_t)
#define GP__CPU_GROUP_OP(op, p)                                                                    \
    _Generic((p), int32_t * : gp__grp_##op##_i32, uint32_t * : gp__grp_##op##_u32)
#define gp__group_atomic_add(p, v)      GP__CPU_GROUP_OP(add, p)((p), (v))
#define gp__group_atomic_sub(p, v)      GP__CPU_GROUP_OP(sub, p)((p), (v))
#define gp__group_atomic_and(p, v)      GP__CPU_GROUP_OP(and, p)((p), (v))
#define gp__group_atomic_or(p, v)       GP__CPU_GROUP_OP(or, p)((p), (v))
#define gp__group_atomic_xor(p, v)      GP__CPU_GROUP_OP(xor, p)((p), (v))
#define gp__group_atomic_xchg(p, v)     GP__CPU_GROUP_OP(xchg, p)((p), (v))
#define gp__group_atomic_min(p, v)      GP__CPU_GROUP_OP(min, p)((p), (v))
#define gp__group_atomic_max(p, v)      GP__CPU_GROUP_OP(max, p)((p), (v))
#define gp__group_atomic_cas(p, cmp, v) GP__CPU_GROUP_OP(cas, p)((p), (cmp), (v))
#define gp_atomic_cas(p, cmp, v)                                                                   \
    _Generic((p), int32_t * : gp__cas_i32, uint32_t * : gp__cas_u32)((p), (cmp), (v))
#define gp_atomic_min(p, v)                                                                        \
    _Generic((p), int32_t * : gp__min_i32, uint32_t * : gp__min_u32)((p), (v))
#define gp_atomic_max(p, v)                                                                        \
    _Generic((p), int32_t * : gp__max_i32, uint32_t * : gp__max_u32)((p), (v))
/* floating-point add as a compare-exchange loop on the bits (U: the unsigned type of T's size) */
#define GP__CPU_ADD_CAS(name, T, U)                                                                \
    static inline T name(T *p, T v)                                                                \
    {                                                                                              \
        U old = __atomic_load_n((U *)p, __ATOMIC_RELAXED), nw;                                     \
        T f;                                                                                       \
        do {                                                                                       \
            memcpy(&f, &old, sizeof f);                                                            \
            f += v;                                                                                \
            memcpy(&nw, &f, sizeof nw);                                                            \
        } while (!__atomic_compare_exchange_n((U *)p, &old, nw, 1, __ATOMIC_RELAXED,               \
                                              __ATOMIC_RELAXED));                                  \
        memcpy(&f, &old, sizeof f);                                                                \
        return f;                                                                                  \
    }
GP__CPU_ADD_CAS(gp_atomic_add_float, float, uint32_t)
/* the group's shared memory is the group's thread's: the same loop is atomic there too */
#define gp_atomic_add_float_shared(p, v) gp_atomic_add_float((p), (v))
/* 64-bit atomics on global memory (GP_REQUIRES_ATOMIC64) */
#define GP_REQUIRES_ATOMIC64
GP__CPU_CAS_T(i64, int64_t)
GP__CPU_CAS_T(u64, uint64_t)
#define gp_atomic64_add(p, v)  __atomic_fetch_add((p), (v), __ATOMIC_RELAXED)
#define gp_atomic64_sub(p, v)  __atomic_fetch_sub((p), (v), __ATOMIC_RELAXED)
#define gp_atomic64_and(p, v)  __atomic_fetch_and((p), (v), __ATOMIC_RELAXED)
#define gp_atomic64_or(p, v)   __atomic_fetch_or((p), (v), __ATOMIC_RELAXED)
#define gp_atomic64_xor(p, v)  __atomic_fetch_xor((p), (v), __ATOMIC_RELAXED)
#define gp_atomic64_xchg(p, v) __atomic_exchange_n((p), (v), __ATOMIC_RELAXED)
#define gp_atomic64_cas(p, cmp, v)                                                                 \
    _Generic((p), int64_t * : gp__cas_i64, uint64_t * : gp__cas_u64)((p), (cmp), (v))
#define gp_atomic64_min(p, v)                                                                      \
    _Generic((p), int64_t * : gp__min_i64, uint64_t * : gp__min_u64)((p), (v))
#define gp_atomic64_max(p, v)                                                                      \
    _Generic((p), int64_t * : gp__max_i64, uint64_t * : gp__max_u64)((p), (v))
GP__CPU_ADD_CAS(gp_atomic_add_double, double, uint64_t)

#define gp_rsqrt(x)                (1.0f / sqrtf(x))
/* a value's bits as another type of the same size, and sine and cosine at once */
static inline int32_t gp_float_as_int(float x)
{
    int32_t v;
    memcpy(&v, &x, sizeof v);
    return v;
}
static inline float gp_int_as_float(int32_t x)
{
    float v;
    memcpy(&v, &x, sizeof v);
    return v;
}
static inline uint32_t gp_float_as_uint(float x)
{
    uint32_t v;
    memcpy(&v, &x, sizeof v);
    return v;
}
static inline float gp_uint_as_float(uint32_t x)
{
    float v;
    memcpy(&v, &x, sizeof v);
    return v;
}
static inline int64_t gp_double_as_long(double x)
{
    int64_t v;
    memcpy(&v, &x, sizeof v);
    return v;
}
static inline double gp_long_as_double(int64_t x)
{
    double v;
    memcpy(&v, &x, sizeof v);
    return v;
}
static inline void gp_sincos(float x, float *s, float *c)
{
    *s = sinf(x);
    *c = cosf(x);
}

/* gp_printf: each call formatted here (at most 1023 bytes) and handed whole to the runtime,
 * which keeps the launch's output in group order and hands it on when the launch ends. */
static inline void gp_printf(const char *gp__fmt, ...)
{
    char gp__buf[1024];
    va_list gp__ap;
    va_start(gp__ap, gp__fmt);
    int gp__n = vsnprintf(gp__buf, sizeof gp__buf, gp__fmt, gp__ap);
    va_end(gp__ap);
    if (gp__n < 0 || !gp__cpu_cur || !gp__cpu_cur->print) return;
    if ((size_t)gp__n >= sizeof gp__buf) gp__n = (int)sizeof gp__buf - 1;
    gp__cpu_cur->print(gp__cpu_cur, gp__buf, (uint32_t)gp__n);
}

/* half as a storage type: IEEE binary16 bits, converted in software, rounding to nearest even
 * (what cvt.rn.f16.f32, vstore_half_rte and Metal's half(float) do). */
typedef uint16_t gp_half;
static inline float gp_half_to_float(gp_half h)
{
    uint32_t s = (uint32_t)(h & 0x8000u) << 16, e = (h >> 10) & 0x1fu, m = h & 0x3ffu, bits;
    if (e == 0 && m == 0) {
        bits = s;
    } else if (e == 0) { /* subnormal: normalise */
        e = 113;
        while (!(m & 0x400u)) {
            m <<= 1;
            e--;
        }
        bits = s | (e << 23) | ((m & 0x3ffu) << 13);
    } else if (e == 31) {
        bits = s | 0x7f800000u | (m << 13);
    } else {
        bits = s | ((e + 112) << 23) | (m << 13);
    }
    float f;
    memcpy(&f, &bits, sizeof f);
    return f;
}
static inline gp_half gp_float_to_half(float f)
{
    uint32_t x;
    memcpy(&x, &f, sizeof x);
    uint32_t sign = (x >> 16) & 0x8000u, ax = x & 0x7fffffffu;
    if (ax > 0x7f800000u) return (gp_half)(sign | 0x7e00u | ((ax >> 13) & 0x3ffu)); /* NaN */
    if (ax >= 0x477ff000u) return (gp_half)(sign | 0x7c00u); /* rounds to infinity */
    if (ax < 0x33000000u) return (gp_half)sign;              /* rounds to zero */
    uint32_t h, rem, halfway;
    if (ax < 0x38800000u) { /* a half subnormal */
        uint32_t shift = 126 - (ax >> 23), m = (ax & 0x7fffffu) | 0x800000u;
        h = m >> shift;
        rem = m & ((1u << shift) - 1);
        halfway = 1u << (shift - 1);
    } else {
        h = (ax >> 13) - (112u << 10);
        rem = ax & 0x1fffu;
        halfway = 0x1000u;
    }
    if (rem > halfway || (rem == halfway && (h & 1u))) h++;
    return (gp_half)(sign | h);
}
/* bfloat16 as a storage type: the high 16 bits of a float, rounded to nearest even (as CUDA's
 * __float2bfloat16) */
typedef uint16_t gp_bf16;
static inline float gp_bf16_to_float(gp_bf16 h)
{
    uint32_t bits = (uint32_t)h << 16;
    float f;
    memcpy(&f, &bits, sizeof f);
    return f;
}
static inline gp_bf16 gp_float_to_bf16(float f)
{
    uint32_t x;
    memcpy(&x, &f, sizeof x);
    if ((x & 0x7fffffffu) > 0x7f800000u) return (gp_bf16)((x >> 16) | 0x40u);
    return (gp_bf16)((x + 0x7fffu + ((x >> 16) & 1u)) >> 16);
}
typedef struct gp_float2 {
    float x, y;
} gp_float2;
typedef struct gp_float4 {
    float x, y, z, w;
} gp_float4;
typedef struct gp_int2 {
    int x, y;
} gp_int2;
typedef struct gp_int4 {
    int x, y, z, w;
} gp_int4;
#define gp_make_float2(x, y)       ((gp_float2){(x), (y)})
#define gp_make_float4(x, y, z, w) ((gp_float4){(x), (y), (z), (w)})
#define gp_make_int2(x, y)         ((gp_int2){(x), (y)})
#define gp_make_int4(x, y, z, w)   ((gp_int4){(x), (y), (z), (w)})
#define GP__CPU_VEC(T, E)                                                                          \
    typedef struct gp_##T##2                                                                       \
    {                                                                                              \
        E x, y;                                                                                    \
    }                                                                                              \
    gp_##T##2;                                                                                     \
    typedef struct gp_##T##4                                                                       \
    {                                                                                              \
        E x, y, z, w;                                                                              \
    }                                                                                              \
    gp_##T##4;
GP__CPU_VEC(char, int8_t)
GP__CPU_VEC(uchar, uint8_t)
GP__CPU_VEC(short, int16_t)
GP__CPU_VEC(ushort, uint16_t)
GP__CPU_VEC(uint, uint32_t)
GP__CPU_VEC(long, int64_t)
GP__CPU_VEC(ulong, uint64_t)
GP__CPU_VEC(double, double)
#define gp_make_char2(x, y)         ((gp_char2){(x), (y)})
#define gp_make_char4(x, y, z, w)   ((gp_char4){(x), (y), (z), (w)})
#define gp_make_uchar2(x, y)        ((gp_uchar2){(x), (y)})
#define gp_make_uchar4(x, y, z, w)  ((gp_uchar4){(x), (y), (z), (w)})
#define gp_make_short2(x, y)        ((gp_short2){(x), (y)})
#define gp_make_short4(x, y, z, w)  ((gp_short4){(x), (y), (z), (w)})
#define gp_make_ushort2(x, y)       ((gp_ushort2){(x), (y)})
#define gp_make_ushort4(x, y, z, w) ((gp_ushort4){(x), (y), (z), (w)})
#define gp_make_uint2(x, y)         ((gp_uint2){(x), (y)})
#define gp_make_uint4(x, y, z, w)   ((gp_uint4){(x), (y), (z), (w)})
#define gp_make_long2(x, y)         ((gp_long2){(x), (y)})
#define gp_make_long4(x, y, z, w)   ((gp_long4){(x), (y), (z), (w)})
#define gp_make_ulong2(x, y)        ((gp_ulong2){(x), (y)})
#define gp_make_ulong4(x, y, z, w)  ((gp_ulong4){(x), (y), (z), (w)})
#define gp_make_double2(x, y)       ((gp_double2){(x), (y)})
#define gp_make_double4(x, y, z, w) ((gp_double4){(x), (y), (z), (w)})
#endif /* !GP_KERNEL_ABI_ONLY */
#endif /* targets */

/* OpenCL C and Metal spell the float math functions without the C suffix (they are overloaded):
 * the C names kernels use are mapped here, once for both. */
#if defined(GP_TARGET_OPENCL) || defined(GP_TARGET_METAL)
#define expf(x)                    exp(x)
#define exp2f(x)                   exp2(x)
#define logf(x)                    log(x)
#define log2f(x)                   log2(x)
#define log10f(x)                  log10(x)
#define powf(x, y)                 pow((x), (y))
#define sqrtf(x)                   sqrt(x)
#define gp_rsqrt(x)                rsqrt(x)
#define fabsf(x)                   fabs(x)
#define fminf(x, y)                fmin((x), (y))
#define fmaxf(x, y)                fmax((x), (y))
#define fmodf(x, y)                fmod((x), (y))
#define fmaf(x, y, z)              fma((x), (y), (z))
#define floorf(x)                  floor(x)
#define ceilf(x)                   ceil(x)
#define truncf(x)                  trunc(x)
#define roundf(x)                  round(x)
#define copysignf(x, y)            copysign((x), (y))
#define sinf(x)                    sin(x)
#define cosf(x)                    cos(x)
#define tanf(x)                    tan(x)
#define asinf(x)                   asin(x)
#define acosf(x)                   acos(x)
#define atanf(x)                   atan(x)
#define atan2f(y, x)               atan2((y), (x))
#define sinhf(x)                   sinh(x)
#define coshf(x)                   cosh(x)
#define tanhf(x)                   tanh(x)
#define rintf(x)                   rint(x)
#endif

/* 3-component vectors as CUDA lays them out in memory (float3: 12 bytes, uchar3: 3), for buffers
 * a host shares with CUDA code: gp_packed_float3, _int3, _uint3, _uchar3 are plain structs of
 * three (x, y, z: the same size and alignment on every target, where float3 is 16 bytes on
 * OpenCL and Metal), read into the 4-component type (w 0) and written back from it. */
#if !defined(GP_KERNEL_ABI_ONLY)
#define GP__PACKED3(T, E)                                                                          \
    typedef struct gp_packed_##T##3 {                                                              \
        E x, y, z;                                                                                 \
    } gp_packed_##T##3;                                                                            \
    GP_FUNC gp_##T##4 gp_unpack_##T##3(gp_packed_##T##3 v)                                         \
    {                                                                                              \
        return gp_make_##T##4(v.x, v.y, v.z, (E)0);                                                \
    }                                                                                              \
    GP_FUNC gp_packed_##T##3 gp_pack_##T##3(gp_##T##4 v)                                           \
    {                                                                                              \
        gp_packed_##T##3 r;                                                                        \
        r.x = v.x;                                                                                 \
        r.y = v.y;                                                                                 \
        r.z = v.z;                                                                                 \
        return r;                                                                                  \
    }
GP__PACKED3(float, float)
GP__PACKED3(int, int)
GP__PACKED3(uint, uint32_t)
GP__PACKED3(uchar, uint8_t)
#endif /* !GP_KERNEL_ABI_ONLY */

/* Half-precision arithmetic on the storage type gp_half, and pairs of halves (gp_half2: two
 * gp_half in 4 bytes, CUDA's __half2 layout), for code translated from CUDA's __half and __half2
 * intrinsics: each operation computed in float, then rounded to half. For add, sub, mul and div
 * that is the correctly rounded half result (float's 24 bits are enough for rounding twice to
 * give what rounding once would); fma's can differ from a native half unit's in the last bit. */
#if !defined(GP_KERNEL_ABI_ONLY)
typedef gp_ushort2 gp_half2;
#define GP__HALF_OP2(name, expr)                                                                   \
    GP_FUNC gp_half gp_half_##name(gp_half a, gp_half b)                                           \
    {                                                                                              \
        float x = gp_half_to_float(a), y = gp_half_to_float(b);                                    \
        return gp_float_to_half(expr);                                                             \
    }                                                                                              \
    GP_FUNC gp_half2 gp_half2_##name(gp_half2 a, gp_half2 b)                                       \
    {                                                                                              \
        return gp_make_ushort2(gp_half_##name(a.x, b.x), gp_half_##name(a.y, b.y));                \
    }
GP__HALF_OP2(add, x + y)
GP__HALF_OP2(sub, x - y)
GP__HALF_OP2(mul, x * y)
GP__HALF_OP2(div, x / y)
GP__HALF_OP2(max, x > y || y != y ? x : y)
GP__HALF_OP2(min, x < y || y != y ? x : y)
#undef GP__HALF_OP2
GP_FUNC gp_half gp_half_fma(gp_half a, gp_half b, gp_half c)
{
    return gp_float_to_half(gp_half_to_float(a) * gp_half_to_float(b) + gp_half_to_float(c));
}
GP_FUNC gp_half2 gp_half2_fma(gp_half2 a, gp_half2 b, gp_half2 c)
{
    return gp_make_ushort2(gp_half_fma(a.x, b.x, c.x), gp_half_fma(a.y, b.y, c.y));
}
/* the sign bit flipped or cleared, as CUDA's __hneg and __habs do (NaN's payload kept) */
GP_FUNC gp_half gp_half_neg(gp_half a)
{
    return (gp_half)(a ^ 0x8000u);
}
GP_FUNC gp_half gp_half_abs(gp_half a)
{
    return (gp_half)(a & 0x7fffu);
}
GP_FUNC gp_half2 gp_half2_neg(gp_half2 a)
{
    return gp_make_ushort2(gp_half_neg(a.x), gp_half_neg(a.y));
}
GP_FUNC gp_half2 gp_half2_abs(gp_half2 a)
{
    return gp_make_ushort2(gp_half_abs(a.x), gp_half_abs(a.y));
}
/* cuda_fp16.h's math functions (hexp, h2sqrt...): computed in float, rounded to half */
#define GP__HALF_FN1(name, expr)                                                                   \
    GP_FUNC gp_half gp_half_##name(gp_half a)                                                      \
    {                                                                                              \
        float x = gp_half_to_float(a);                                                             \
        return gp_float_to_half(expr);                                                             \
    }                                                                                              \
    GP_FUNC gp_half2 gp_half2_##name(gp_half2 a)                                                   \
    {                                                                                              \
        return gp_make_ushort2(gp_half_##name(a.x), gp_half_##name(a.y));                          \
    }
GP__HALF_FN1(exp, expf(x))
GP__HALF_FN1(exp2, exp2f(x))
GP__HALF_FN1(exp10, powf(10.0f, x))
GP__HALF_FN1(log, logf(x))
GP__HALF_FN1(log2, log2f(x))
GP__HALF_FN1(log10, log10f(x))
GP__HALF_FN1(sqrt, sqrtf(x))
GP__HALF_FN1(rsqrt, 1.0f / sqrtf(x))
GP__HALF_FN1(rcp, 1.0f / x)
GP__HALF_FN1(sin, sinf(x))
GP__HALF_FN1(cos, cosf(x))
GP__HALF_FN1(ceil, ceilf(x))
GP__HALF_FN1(floor, floorf(x))
GP__HALF_FN1(trunc, truncf(x))
GP__HALF_FN1(rint, rintf(x))
#undef GP__HALF_FN1
/* comparisons, 0 or 1 (ordered: false where either is NaN, as CUDA's __hlt...) */
#define GP__HALF_CMP(name, op)                                                                     \
    GP_FUNC int gp_half_##name(gp_half a, gp_half b)                                               \
    {                                                                                              \
        return gp_half_to_float(a) op gp_half_to_float(b) ? 1 : 0;                                 \
    }
GP__HALF_CMP(eq, ==)
GP__HALF_CMP(lt, <)
GP__HALF_CMP(le, <=)
GP__HALF_CMP(gt, >)
GP__HALF_CMP(ge, >=)
#undef GP__HALF_CMP
GP_FUNC int gp_half_neu(gp_half a, gp_half b) /* unordered: not equal, or either a NaN */
{
    return gp_half_eq(a, b) ? 0 : 1;
}
GP_FUNC int gp_half_ne(gp_half a, gp_half b)
{
    float x = gp_half_to_float(a), y = gp_half_to_float(b);
    return x < y || x > y ? 1 : 0; /* ordered, as CUDA's __hne */
}
/* conversions between pairs of floats and gp_half2 */
GP_FUNC gp_half2 gp_floats_to_half2(float lo, float hi)
{
    return gp_make_ushort2(gp_float_to_half(lo), gp_float_to_half(hi));
}
GP_FUNC gp_half2 gp_float_to_half2(float v)
{
    gp_half h = gp_float_to_half(v);
    return gp_make_ushort2(h, h);
}
GP_FUNC gp_half2 gp_float2_to_half2(gp_float2 f)
{
    return gp_make_ushort2(gp_float_to_half(f.x), gp_float_to_half(f.y));
}
GP_FUNC gp_float2 gp_half2_to_float2(gp_half2 h)
{
    return gp_make_float2(gp_half_to_float(h.x), gp_half_to_float(h.y));
}
GP_FUNC gp_half2 gp_halves_to_half2(gp_half lo, gp_half hi)
{
    return gp_make_ushort2(lo, hi);
}
GP_FUNC float gp_half2_low_float(gp_half2 h)
{
    return gp_half_to_float(h.x);
}
GP_FUNC float gp_half2_high_float(gp_half2 h)
{
    return gp_half_to_float(h.y);
}
#endif /* !GP_KERNEL_ABI_ONLY */

/* Classification, 0 or 1 on every target (C's macros may return any non-zero value, and -1 for
 * isinf of minus infinity; Metal's return bool). */
#define gp_isnan(x)    (isnan(x) ? 1 : 0)
#define gp_isinf(x)    (isinf(x) ? 1 : 0)
#define gp_isfinite(x) (isfinite(x) ? 1 : 0)
#define gp_signbit(x)  (signbit(x) ? 1 : 0)

#endif /* GPUPORT_KERNEL_H */
