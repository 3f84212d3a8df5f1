// Bilinear sampling through a texture object (the CUDA samples' simpleTexture style): texture
// objects have no portable equivalent and are refused, by name and line.
// expect: refused cudaTextureObject_t 7
#include <cuda_runtime.h>

__global__ void transformKernel(float *outputData, int width, int height, float theta,
                                cudaTextureObject_t tex)
{
    unsigned int x = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned int y = blockIdx.y * blockDim.y + threadIdx.y;
    float u = (float)x - (float)width / 2;
    float v = (float)y - (float)height / 2;
    float tu = u * cosf(theta) - v * sinf(theta);
    float tv = v * cosf(theta) + u * sinf(theta);
    tu /= (float)width;
    tv /= (float)height;
    outputData[y * width + x] = tex2D<float>(tex, tu + 0.5f, tv + 0.5f);
}
