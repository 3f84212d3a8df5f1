// mlx_atomics.metal — MLX's atomics (mlx/backend/metal/kernels/atomic.h of the mlx-metal wheel),
// instantiated for every type MLX's kernels use them with: the native atomic<int>, <uint> and
// <float>, and the narrower types MLX packs into atomic<uint>. Compiled through the stand-in
// <metal_stdlib> by tests/runtime/metal/apple/msl.py: real MSL exercising load, store, exchange,
// compare-exchange and the fetch operations on device atomics.
#include "mlx/backend/metal/kernels/atomic.h"

#define GP_MLX_COMMON(T)                                                                           \
    template T mlx_atomic_load_explicit<T>(device mlx_atomic<T> *, size_t);                        \
    template void mlx_atomic_store_explicit<T>(device mlx_atomic<T> *, T, size_t);                 \
    template void mlx_atomic_fetch_add_explicit<T>(device mlx_atomic<T> *, T, size_t);             \
    template void mlx_atomic_fetch_mul_explicit<T>(device mlx_atomic<T> *, T, size_t);

// native: min and max of int and uint are Apple's; of float, MLX's compare-exchange loop
#define GP_MLX_NATIVE(T)                                                                           \
    GP_MLX_COMMON(T)                                                                               \
    template bool mlx_atomic_compare_exchange_weak_explicit<T>(device mlx_atomic<T> *, thread T *, \
                                                               T, size_t);
GP_MLX_NATIVE(int)
GP_MLX_NATIVE(uint)
GP_MLX_NATIVE(float)
template void mlx_atomic_fetch_min_explicit<int>(device mlx_atomic<int> *, int, size_t);
template void mlx_atomic_fetch_max_explicit<uint>(device mlx_atomic<uint> *, uint, size_t);
template void mlx_atomic_fetch_and_explicit<int>(device mlx_atomic<int> *, int, size_t);
template void mlx_atomic_fetch_or_explicit<uint>(device mlx_atomic<uint> *, uint, size_t);

// packed into atomic<uint>
#define GP_MLX_PACKED(T)                                                                           \
    GP_MLX_COMMON(T)                                                                               \
    template void mlx_atomic_fetch_and_explicit<T>(device mlx_atomic<T> *, T, size_t);             \
    template void mlx_atomic_fetch_or_explicit<T>(device mlx_atomic<T> *, T, size_t);              \
    template void mlx_atomic_fetch_min_explicit<T>(device mlx_atomic<T> *, T, size_t);             \
    template void mlx_atomic_fetch_max_explicit<T>(device mlx_atomic<T> *, T, size_t);             \
    template bool mlx_atomic_compare_exchange_weak_explicit<T>(device mlx_atomic<T> *,             \
                                                               thread uint *, uint, size_t);
GP_MLX_PACKED(half)
GP_MLX_PACKED(short)
GP_MLX_PACKED(ushort)
GP_MLX_PACKED(char)
GP_MLX_PACKED(uchar)
