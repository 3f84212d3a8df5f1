/*
 * The membership step of k-means in the style of Rodinia's kmeans_cuda_kernel.cu: for each
 * point, the nearest of the cluster centres (features stored feature-major), FLT_MAX as the
 * starting distance, the centres passed as a buffer.
 */
// expect: translated
#include <stdio.h>
#include <float.h>
#include <cuda.h>

#define THREADS_PER_DIM 16
#define BLOCKS_PER_DIM 16
#define THREADS_PER_BLOCK THREADS_PER_DIM *THREADS_PER_DIM

/* ----------------- invert_mapping() --------------------- */
/* inverts data array from row-major to column-major.

   [p0,dim0][p0,dim1][p0,dim2] ...
   [p1,dim0][p1,dim1][p1,dim2] ...
   [p2,dim0][p2,dim1][p2,dim2] ...
                                        to
   [dim0,p0][dim0,p1][dim0,p2] ...
   [dim1,p0][dim1,p1][dim1,p2] ...
   [dim2,p0][dim2,p1][dim2,p2] ...
*/
__global__ void invert_mapping(float *input, float *output, int npoints, int nfeatures)
{
    int point_id = threadIdx.x + blockDim.x * blockIdx.x; /* id of thread */
    int i;
    if (point_id < npoints) {
        for (i = 0; i < nfeatures; i++)
            output[point_id + npoints * i] = input[point_id * nfeatures + i];
    }
    return;
}

__global__ void kmeansPoint(float *features, int nfeatures, int npoints, int nclusters,
                            int *membership, float *clusters, float *block_clusters,
                            int *block_deltas)
{
    // block ID
    const unsigned int block_id = gridDim.x * blockIdx.y + blockIdx.x;
    // point/thread ID
    const unsigned int point_id = block_id * blockDim.x * blockDim.y + threadIdx.x;

    int index = -1;

    if (point_id < npoints) {
        int i, j;
        float min_dist = FLT_MAX;
        float dist; /* distance square between a point to cluster center */

        /* find the cluster center id with min distance to pt */
        for (i = 0; i < nclusters; i++) {
            int cluster_base_index = i * nfeatures; /* base index of cluster centers for inverted array */
            float ans = 0.0; /* Euclidean distance sqaure */

            for (j = 0; j < nfeatures; j++) {
                int addr = point_id + j * npoints; /* appropriate index of data point */
                float diff = (features[addr] - clusters[cluster_base_index + j]); /* distance between a data point to cluster centers */
                ans += diff * diff; /* sum of squares */
            }
            dist = ans;

            /* see if distance is smaller than previous ones:
            if so, change minimum distance and save index of cluster center */
            if (dist < min_dist) {
                min_dist = dist;
                index = i;
            }
        }
    }

    if (point_id < npoints) {
        /* assign the membership to object point_id */
        membership[point_id] = index;
    }
}
