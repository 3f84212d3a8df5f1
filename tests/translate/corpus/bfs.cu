/***********************************************************************************
  Breadth-first search in the style of Rodinia's bfs: two kernels over a CSR graph with bool
  masks (bool buffers become uint8_t buffers, one byte per element, 0 or 1, as CUDA stores them)
 ************************************************************************************/
// expect: translated
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <math.h>
#include <cuda.h>

#define MAX_THREADS_PER_BLOCK 512

struct Node {
    int starting;
    int no_of_edges;
};

__global__ void Kernel(const int *g_graph_node_start, const int *g_graph_node_edges,
                       const int *g_graph_edges, bool *g_graph_mask, bool *g_updating_graph_mask,
                       bool *g_graph_visited, int *g_cost, int no_of_nodes)
{
    int tid = blockIdx.x * MAX_THREADS_PER_BLOCK + threadIdx.x;
    if (tid < no_of_nodes && g_graph_mask[tid]) {
        g_graph_mask[tid] = false;
        for (int i = g_graph_node_start[tid]; i < (g_graph_node_edges[tid] + g_graph_node_start[tid]); i++) {
            int id = g_graph_edges[i];
            if (!g_graph_visited[id]) {
                g_cost[id] = g_cost[tid] + 1;
                g_updating_graph_mask[id] = true;
            }
        }
    }
}

__global__ void Kernel2(bool *g_graph_mask, bool *g_updating_graph_mask, bool *g_graph_visited,
                        bool *g_over, int no_of_nodes)
{
    int tid = blockIdx.x * MAX_THREADS_PER_BLOCK + threadIdx.x;
    if (tid < no_of_nodes && g_updating_graph_mask[tid]) {
        g_graph_mask[tid] = true;
        g_graph_visited[tid] = true;
        *g_over = true;
        g_updating_graph_mask[tid] = false;
    }
}

void BFSGraph(int no_of_nodes, Node *h_graph_nodes, int edge_list_size, int *h_graph_edges)
{
    int num_of_blocks = 1;
    int num_of_threads_per_block = no_of_nodes;
    if (no_of_nodes > MAX_THREADS_PER_BLOCK) {
        num_of_blocks = (int)ceil(no_of_nodes / (double)MAX_THREADS_PER_BLOCK);
        num_of_threads_per_block = MAX_THREADS_PER_BLOCK;
    }
    bool *d_graph_mask, *d_updating_graph_mask, *d_graph_visited, *d_over;
    int *d_start, *d_edges_count, *d_graph_edges, *d_cost;
    cudaMalloc((void **)&d_graph_mask, sizeof(bool) * no_of_nodes);
    cudaMalloc((void **)&d_updating_graph_mask, sizeof(bool) * no_of_nodes);
    cudaMalloc((void **)&d_graph_visited, sizeof(bool) * no_of_nodes);
    cudaMalloc((void **)&d_over, sizeof(bool));
    cudaMalloc((void **)&d_start, sizeof(int) * no_of_nodes);
    cudaMalloc((void **)&d_edges_count, sizeof(int) * no_of_nodes);
    cudaMalloc((void **)&d_graph_edges, sizeof(int) * edge_list_size);
    cudaMalloc((void **)&d_cost, sizeof(int) * no_of_nodes);
    dim3 grid(num_of_blocks, 1, 1);
    dim3 threads(num_of_threads_per_block, 1, 1);
    int k = 0;
    bool stop;
    do {
        stop = false;
        cudaMemcpy(d_over, &stop, sizeof(bool), cudaMemcpyHostToDevice);
        Kernel<<<grid, threads, 0>>>(d_start, d_edges_count, d_graph_edges, d_graph_mask,
                                    d_updating_graph_mask, d_graph_visited, d_cost, no_of_nodes);
        Kernel2<<<grid, threads, 0>>>(d_graph_mask, d_updating_graph_mask, d_graph_visited, d_over,
                                     no_of_nodes);
        cudaMemcpy(&stop, d_over, sizeof(bool), cudaMemcpyDeviceToHost);
        k++;
    } while (stop);
    printf("Kernel Executed %d times\n", k);
}
