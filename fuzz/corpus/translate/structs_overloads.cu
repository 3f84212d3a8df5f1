/***********************************************************************************
  Graph kernels in the style of Rodinia's bfs and nn: the graph's nodes are structs in a buffer
  (Node *), a query point is a struct passed by value, sizes are size_t, a flag is a bool passed
  by value, and one helper is overloaded for int and float.
 ************************************************************************************/
// expect: translated
#include <stdio.h>
#include <stdlib.h>
#include <cuda_runtime.h>

#define BLOCK 64

struct Node {
    int starting;
    int no_of_edges;
};

typedef struct {
    float lat, lng;
    int id;
} LatLong;

__device__ int weight(int d) { return d * 2; }
__device__ float weight(float d) { return d * 0.5f; }

__global__ void degree_sum(const Node *nodes, const int *edges, int *out, size_t n, bool twice)
{
    size_t i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        Node nd = nodes[i];
        int s = 0;
        for (int e = nd.starting; e < nd.starting + nd.no_of_edges; e++)
            s += edges[e];
        out[i] = twice ? weight(s) : s;
    }
}

__global__ void euclid(const LatLong *d_locations, float *d_distances, int numRecords, LatLong q)
{
    int globalId = blockDim.x * (gridDim.x * blockIdx.y + blockIdx.x) + threadIdx.x;
    const LatLong *latLong = d_locations + globalId;
    if (globalId < numRecords) {
        float *dist = d_distances + globalId;
        *dist = weight((float)sqrtf((q.lat - latLong->lat) * (q.lat - latLong->lat) +
                                    (q.lng - latLong->lng) * (q.lng - latLong->lng)));
    }
}

int main()
{
    const size_t n = 256;
    Node *d_nodes;
    int *d_edges, *d_out;
    cudaMalloc(&d_nodes, n * sizeof(Node));
    cudaMalloc(&d_edges, 2 * n * sizeof(int));
    cudaMalloc(&d_out, n * sizeof(int));
    degree_sum<<<n / BLOCK, BLOCK>>>(d_nodes, d_edges, d_out, n, true);
    LatLong *d_loc;
    float *d_dist;
    cudaMalloc(&d_loc, n * sizeof(LatLong));
    cudaMalloc(&d_dist, n * sizeof(float));
    LatLong q = {30.0f, 90.0f, 0};
    euclid<<<n / BLOCK, BLOCK>>>(d_loc, d_dist, (int)n, q);
    cudaDeviceSynchronize();
    return 0;
}
