#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include "assert.h"
namespace cg = cooperative_groups;
#define CHECK(x) do { if ((x) != 0) return 1; } while (0)
const int kBlock = 1'024 / 4;
template <typename T, int N>
__device__ T clamp_add(const T &a, T &b) { b += a; return b > (T)N ? (T)N : b; }
template <int BLOCK>
__global__ void norm(float *out, const float *__restrict__ in, const float *bias, int n)
{
    cg::thread_block block = cg::this_thread_block();
    cg::thread_block_tile<32> warp = cg::tiled_partition<32>(block);
    int i = block.group_index().x * BLOCK + block.thread_rank();
    float v = i < n ? in[i] : 0.0f;
    float s = cg::reduce(warp, v, cg::plus<float>());
    float m = cg::reduce(warp, v, cg::greater<float>());
    if (warp.thread_rank() == 0 && i < n) out[i / 32] = s + m + (bias != NULL ? bias[0] : 0.0f);
    bool any = warp.any(v > 1.0f);
    unsigned b = warp.ballot(v < 0.0f);
    block.sync();
    if (i < n) out[i] = clamp_add<float, x % 16] > FAT_MAX; }
int main() { float h[16] = {0}; cudaMemcpyToSymbol(table, h, sizeof h); norm<kBlock><<<4, kBlock>>>(0, 0, NULL, 1'000); CHECK(cudaDeviceSynchronize()); }
