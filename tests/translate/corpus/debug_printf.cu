// Two kernels, one of which prints from the device while debugging: its printf becomes the
// dialect's gp_printf (whose format the .gpk build checks), so both translate.
// expect: translated
#include <stdio.h>

__global__ void scale_rows(float *m, const float *s, int rows, int cols)
{
    int r = blockIdx.y * blockDim.y + threadIdx.y;
    int c = blockIdx.x * blockDim.x + threadIdx.x;
    if (r < rows && c < cols) m[r * cols + c] *= s[r];
}

__global__ void dump_rows(const float *m, int rows, int cols)
{
    int r = blockIdx.x * blockDim.x + threadIdx.x;
    if (r < rows) {
        float sum = 0.0f;
        for (int c = 0; c < cols; c++) sum += m[r * cols + c];
        printf("row %d: %f\n", r, sum);
    }
}
