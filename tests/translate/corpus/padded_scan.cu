// An exclusive scan of N elements per block (Blelloch's up-sweep and down-sweep), its shared
// array padded against bank conflicts with the padding computed apart (`oa = PAD(a)`,
// `s[a + oa]`), each group scanning several blocks in turn; launched from a host template whose
// block is N / 2 for each N main picks.
// expect: translated
#include <cstdio>
#include <cuda_runtime.h>

#define LOG_BANKS 5
#define PAD(n) ((n) >> LOG_BANKS)

template <typename T, int N>
__global__ void padded_scan(const long nblocks, T *__restrict__ out, const T *__restrict__ in)
{
    __shared__ T s[N + N / 32];
    for (long blk = blockIdx.x; blk < nblocks; blk += gridDim.x) {
        const T *src = in + blk * N;
        T *dst = out + blk * N;
        int t = threadIdx.x;
        int a = t, b = t + N / 2;
        int oa = PAD(a), ob = PAD(b);
        s[a + oa] = src[a];
        s[b + ob] = src[b];
        int step = 1;
        for (int d = N >> 1; d > 0; d >>= 1) {
            __syncthreads();
            if (t < d) {
                int i = step * (2 * t + 1) - 1, j = step * (2 * t + 2) - 1;
                i += PAD(i);
                j += PAD(j);
                s[j] += s[i];
            }
            step *= 2;
        }
        if (t == 0) s[N - 1 + PAD(N - 1)] = 0;
        for (int d = 1; d < N; d *= 2) {
            step >>= 1;
            __syncthreads();
            if (t < d) {
                int i = step * (2 * t + 1) - 1, j = step * (2 * t + 2) - 1;
                i += PAD(i);
                j += PAD(j);
                T v = s[i];
                s[i] = s[j];
                s[j] += v;
            }
        }
        __syncthreads();
        dst[a] = s[a + oa];
        dst[b] = s[b + ob];
    }
}

template <typename T, int N>
void run(long nblocks)
{
    T *d_in, *d_out;
    cudaMalloc((void **)&d_in, nblocks * N * sizeof(T));
    cudaMalloc((void **)&d_out, nblocks * N * sizeof(T));
    dim3 grid(8);
    dim3 block(N / 2);
    padded_scan<T, N><<<grid, block>>>(nblocks, d_out, d_in);
    cudaDeviceSynchronize();
    cudaFree(d_in);
    cudaFree(d_out);
}

int main()
{
    run<int, 128>(20);
    run<float, 256>(20);
    printf("done\n");
    return 0;
}
