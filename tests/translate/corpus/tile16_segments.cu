// Cooperative-group tiles narrower than a warp: a thread_block_tile<16> per half warp sums its
// segment with shfl_down and shfl_xor, votes with any/all/ballot, and broadcasts its rank-0 value
// with shfl; a thread_block_tile<8> with cg::reduce and greater/less, and the same tiling made at
// run time (tiled_partition(block, 8), a thread_group) for its rank.
// translate flags: --simd-width 32
// expect: translated
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>

using namespace cooperative_groups;

__global__ void segments(const int *in, int *out, int n)
{
    thread_block block = this_thread_block();
    thread_block_tile<16> tile = tiled_partition<16>(block);
    int i = block.group_index().x * block.size() + block.thread_rank();
    int v = i < n ? in[i] : 0;
    int down = v;
    for (int o = tile.size() / 2; o > 0; o /= 2) down += tile.shfl_down(down, o);
    int bfly = v;
    for (int m = 1; m < 16; m <<= 1) bfly += tile.shfl_xor(bfly, m);
    int first = tile.shfl(v, 0);
    int up = tile.shfl_up(v, 1);
    unsigned int pos = tile.ballot(v > 0);
    int any_neg = tile.any(v < 0), all_nz = tile.all(v != 0);
    thread_block_tile<8> eight = tiled_partition<8>(block);
    int mx = reduce(eight, v, greater<int>());
    int mn = reduce(eight, v, less<int>());
    thread_group dyn8 = tiled_partition(block, 8);
    dyn8.sync();
    int rank8 = dyn8.thread_rank();
    block.sync();
    if (i < n) {
        out[8 * i + 0] = tile.thread_rank() == 0 ? down : -1;
        out[8 * i + 1] = bfly;
        out[8 * i + 2] = first;
        out[8 * i + 3] = up;
        out[8 * i + 4] = (int)pos;
        out[8 * i + 5] = any_neg * 2 + all_nz;
        out[8 * i + 6] = mx;
        out[8 * i + 7] = mn + (int)tile.meta_group_rank() + 100 * (rank8 - (int)eight.thread_rank());
    }
}
