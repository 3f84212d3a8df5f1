// Work-efficient exclusive scan of one block (Blelloch's up-sweep and down-sweep) in the style
// of GPU Gems 3, chapter 39: the dynamic shared block, two elements per thread, the offsets that
// avoid bank conflicts as macros, and a naive double-buffered Hillis-Steele scan beside it. The
// naive scan is refused: that its two buffers never overlap holds only when n is at least the
// block size, which the launch decides, so the translation cannot show it is not racing.
// expect kernel prescan: translated
// expect kernel scan_naive: refused warp lockstep 67
#include <stdio.h>
#include <cuda_runtime.h>

#define NUM_BANKS 32
#define LOG_NUM_BANKS 5
#define CONFLICT_FREE_OFFSET(n) ((n) >> LOG_NUM_BANKS)

__global__ void prescan(float *g_odata, const float *g_idata, int n)
{
    extern __shared__ float temp[];
    int thid = threadIdx.x;
    int offset = 1;
    int ai = thid;
    int bi = thid + (n / 2);
    int bankOffsetA = CONFLICT_FREE_OFFSET(ai);
    int bankOffsetB = CONFLICT_FREE_OFFSET(bi);
    temp[ai + bankOffsetA] = g_idata[blockIdx.x * n + ai];
    temp[bi + bankOffsetB] = g_idata[blockIdx.x * n + bi];
    for (int d = n >> 1; d > 0; d >>= 1) { // build sum in place up the tree
        __syncthreads();
        if (thid < d) {
            int ai2 = offset * (2 * thid + 1) - 1;
            int bi2 = offset * (2 * thid + 2) - 1;
            ai2 += CONFLICT_FREE_OFFSET(ai2);
            bi2 += CONFLICT_FREE_OFFSET(bi2);
            temp[bi2] += temp[ai2];
        }
        offset *= 2;
    }
    if (thid == 0) temp[n - 1 + CONFLICT_FREE_OFFSET(n - 1)] = 0; // clear the last element
    for (int d = 1; d < n; d *= 2) { // traverse down the tree and build the scan
        offset >>= 1;
        __syncthreads();
        if (thid < d) {
            int ai2 = offset * (2 * thid + 1) - 1;
            int bi2 = offset * (2 * thid + 2) - 1;
            ai2 += CONFLICT_FREE_OFFSET(ai2);
            bi2 += CONFLICT_FREE_OFFSET(bi2);
            float t = temp[ai2];
            temp[ai2] = temp[bi2];
            temp[bi2] += t;
        }
    }
    __syncthreads();
    g_odata[blockIdx.x * n + ai] = temp[ai + bankOffsetA];
    g_odata[blockIdx.x * n + bi] = temp[bi + bankOffsetB];
}

__global__ void scan_naive(float *g_odata, const float *g_idata, int n)
{
    extern __shared__ float temp[]; // allocated on invocation: 2 * n floats
    int thid = threadIdx.x;
    int pout = 0, pin = 1;
    temp[pout * n + thid] = (thid > 0) ? g_idata[blockIdx.x * n + thid - 1] : 0;
    __syncthreads();
    for (int offset = 1; offset < n; offset *= 2) {
        pout = 1 - pout; // swap double buffer indices
        pin = 1 - pout;
        if (thid >= offset)
            temp[pout * n + thid] = temp[pin * n + thid] + temp[pin * n + thid - offset];
        else
            temp[pout * n + thid] = temp[pin * n + thid];
        __syncthreads();
    }
    g_odata[blockIdx.x * n + thid] = temp[pout * n + thid];
}

int main()
{
    const int n = 512, blocks = 8;
    float *d_in, *d_out;
    cudaMalloc(&d_in, n * blocks * sizeof(float));
    cudaMalloc(&d_out, n * blocks * sizeof(float));
    int smem = (n + CONFLICT_FREE_OFFSET(n)) * sizeof(float);
    prescan<<<blocks, n / 2, smem>>>(d_out, d_in, n);
    scan_naive<<<blocks, n, 2 * n * sizeof(float)>>>(d_out, d_in, n);
    cudaDeviceSynchronize();
    return 0;
}
