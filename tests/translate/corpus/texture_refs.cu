// K-means' assignment step in the style of older benchmark suites: the points and the cluster
// centres are read through texture references bound to linear memory (cudaBindTexture), one
// of them declared static, with tex1Dfetch; each point gets the index of its nearest centre.
// A 2-D texture reference is declared too, and used by no kernel.
// legacy CUDA: texture references were removed in CUDA 12
// expect: translated
#include <cfloat>
#include <cuda_runtime.h>

#define NFEATURES 4

texture<float, 1, cudaReadModeElementType> t_features;
static texture<float, 1, cudaReadModeElementType> t_clusters;
texture<float, 2, cudaReadModeElementType> t_unused;

__device__ float dist2(int point, int cluster, int npoints)
{
    float d = 0.0f;
    for (int f = 0; f < NFEATURES; f++) {
        // the points are stored feature-major, the centres cluster-major
        float diff = tex1Dfetch(t_features, f * npoints + point) -
                     tex1Dfetch(t_clusters, cluster * NFEATURES + f);
        d += diff * diff;
    }
    return d;
}

__global__ void assign(int *membership, int npoints, int nclusters)
{
    int point = blockIdx.x * blockDim.x + threadIdx.x;
    if (point >= npoints) return;
    int best = 0;
    float best_d = FLT_MAX;
    for (int c = 0; c < nclusters; c++) {
        float d = dist2(point, c, npoints);
        if (d < best_d) {
            best_d = d;
            best = c;
        }
    }
    membership[point] = best;
}

int main()
{
    const int npoints = 2000, nclusters = 5;
    float *features, *clusters;
    int *membership;
    cudaMalloc(&features, npoints * NFEATURES * sizeof(float));
    cudaMalloc(&clusters, nclusters * NFEATURES * sizeof(float));
    cudaMalloc(&membership, npoints * sizeof(int));
    cudaBindTexture(0, t_features, features, npoints * NFEATURES * sizeof(float));
    cudaBindTexture(0, t_clusters, clusters, nclusters * NFEATURES * sizeof(float));
    assign<<<(npoints + 255) / 256, 256>>>(membership, npoints, nclusters);
    cudaDeviceSynchronize();
    return 0;
}
