// warp: warp shuffles and votes, translated with --simd-width 32 (the flag line below is read by
// the tests): a shuffle_down reduction in a device function that uses warpSize, the block sum
// that combines warps through shared memory, an xor butterfly with an explicit width of 32, a
// shuffle_up scan, a broadcast, the three votes with the full mask spelled three ways, and the
// warp-synchronous tail of a shared-memory reduction with __syncwarp between its steps.
// translate flags: --simd-width 32
// expect: translated
#define FULL_MASK 0xffffffff

__device__ float warp_sum(float v)
{
    for (int offset = warpSize / 2; offset > 0; offset /= 2)
        v += __shfl_down_sync(FULL_MASK, v, offset);
    return v;
}

__global__ void block_sum(float *out, const float *in, int n)
{
    __shared__ float partial[32];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int lane = threadIdx.x % warpSize, warp = threadIdx.x / warpSize;
    float v = warp_sum(i < n ? in[i] : 0.0f);
    if (lane == 0) partial[warp] = v;
    __syncthreads();
    if (warp == 0) {
        v = lane < blockDim.x / warpSize ? partial[lane] : 0.0f;
        v = warp_sum(v);
        if (lane == 0) out[blockIdx.x] = v;
    }
}

__global__ void warp_ops(int *out, unsigned int *ballots, const int *in, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int lane = threadIdx.x & 31;
    int v = i < n ? in[i] : 0;
    int total = v;
    for (int m = 16; m >= 1; m >>= 1)
        total += __shfl_xor_sync(0xffffffffu, total, m, 32);
    int scan = v;
    for (int d = 1; d < 32; d <<= 1) {
        int t = __shfl_up_sync(FULL_MASK, scan, d);
        if (lane >= d) scan += t;
    }
    int first = __shfl_sync(FULL_MASK, v, 0);
    unsigned int positive = __ballot_sync(FULL_MASK, v > 0);
    int any_negative = __any_sync(~0u, v < 0);
    int all_nonzero = __all_sync(-1, v != 0);
    if (i < n) {
        out[4 * i + 0] = total;
        out[4 * i + 1] = scan;
        out[4 * i + 2] = first;
        out[4 * i + 3] = any_negative * 2 + all_nonzero;
    }
    if (lane == 0 && i < n) ballots[i / 32] = positive;
}

__global__ void tail_sum(int *sums, const int *in, int n)
{
    __shared__ int s[128];
    int t = threadIdx.x, i = blockIdx.x * blockDim.x + t;
    s[t] = i < n ? in[i] : 0;
    __syncthreads();
    if (t < 64) s[t] += s[t + 64];
    __syncthreads();
    if (t < 32) {
        int v = s[t] + s[t + 32];
        for (int off = 16; off > 0; off >>= 1) {
            __syncwarp();
            s[t] = v;
            __syncwarp();
            v += s[t + off];
        }
        if (t == 0) sums[blockIdx.x] = v;
    }
}
