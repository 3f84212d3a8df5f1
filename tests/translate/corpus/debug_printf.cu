// Two kernels, one of which prints from the device while debugging: that one is refused
// (printf is not portable) and the other translates; with --partial the file builds with the
// refused kernel left out.
// expect kernel scale_rows: translated
// expect kernel dump_rows: refused string literal 21
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
