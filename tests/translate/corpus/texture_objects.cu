// Texture objects as image-processing samples use them: an image rotated through normalized,
// linearly filtered, wrapping coordinates; an 8-bit image read texel by texel with clamped
// integer coordinates; a velocity field of float2 advected with linear filtering and a border
// of zeros; a lookup table read with tex1Dfetch. Each texture's sampling is set by the host's
// cudaTextureDesc before cudaCreateTextureObject, one description reused for two of them.
// expect: translated
#include <cstring>
#include <cuda_runtime.h>

__global__ void rotate(float *out, int w, int h, float angle, cudaTextureObject_t img)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= w || y >= h) return;
    float u = (float)x / w - 0.5f, v = (float)y / h - 0.5f;
    float tu = u * cosf(angle) - v * sinf(angle) + 0.5f;
    float tv = v * cosf(angle) + u * sinf(angle) + 0.5f;
    out[y * w + x] = tex2D<float>(img, tu, tv);
}

__global__ void edges(unsigned char *out, int w, int h, cudaTextureObject_t gray)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= w || y >= h) return;
    float gx = (float)tex2D<unsigned char>(gray, x + 1, y) - (float)tex2D<unsigned char>(gray, x - 1, y);
    float gy = (float)tex2D<unsigned char>(gray, x, y + 1) - (float)tex2D<unsigned char>(gray, x, y - 1);
    float g = sqrtf(gx * gx + gy * gy);
    out[y * w + x] = (unsigned char)(g > 255.0f ? 255.0f : g);
}

typedef float2 vel_t;

__global__ void __launch_bounds__(256) advect(float2 *out, int w, int h, float dt, cudaTextureObject_t vel)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= w || y >= h) return;
    vel_t here = tex2D<vel_t>(vel, x + 0.5f, y + 0.5f);
    vel_t back = tex2D<vel_t>(vel, x + 0.5f - dt * here.x, y + 0.5f - dt * here.y);
    out[y * w + x] = back;
}

__global__ void lookup(float *out, const int *keys, int n, cudaTextureObject_t table)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = tex1Dfetch<float>(table, keys[i]);
}

static cudaTextureObject_t make_texture(cudaArray_t array, const cudaTextureDesc &desc)
{
    cudaResourceDesc res;
    memset(&res, 0, sizeof res);
    res.resType = cudaResourceTypeArray;
    res.res.array.array = array;
    cudaTextureObject_t tex = 0;
    cudaCreateTextureObject(&tex, &res, &desc, NULL);
    return tex;
}

int main()
{
    const int w = 64, h = 48, n = 256;
    cudaChannelFormatDesc f1 = cudaCreateChannelDesc<float>();
    cudaChannelFormatDesc u8 = cudaCreateChannelDesc<unsigned char>();
    cudaChannelFormatDesc f2 = cudaCreateChannelDesc<float2>();
    cudaArray_t a_img, a_gray, a_vel;
    cudaMallocArray(&a_img, &f1, w, h);
    cudaMallocArray(&a_gray, &u8, w, h);
    cudaMallocArray(&a_vel, &f2, w, h);

    cudaTextureDesc td;
    memset(&td, 0, sizeof td);
    td.normalizedCoords = true;
    td.filterMode = cudaFilterModeLinear;
    td.addressMode[0] = cudaAddressModeWrap;
    td.addressMode[1] = cudaAddressModeWrap;
    td.readMode = cudaReadModeElementType;
    cudaResourceDesc res;
    memset(&res, 0, sizeof res);
    res.resType = cudaResourceTypeArray;
    res.res.array.array = a_img;
    cudaTextureObject_t img;
    cudaCreateTextureObject(&img, &res, &td, NULL);

    memset(&td, 0, sizeof td);
    td.filterMode = cudaFilterModePoint;
    td.addressMode[0] = cudaAddressModeClamp;
    td.addressMode[1] = cudaAddressModeClamp;
    cudaTextureObject_t gray;
    res.res.array.array = a_gray;
    cudaCreateTextureObject(&gray, &res, &td, NULL);

    memset(&td, 0, sizeof td);
    td.filterMode = cudaFilterModeLinear;
    td.addressMode[0] = cudaAddressModeBorder;
    td.addressMode[1] = cudaAddressModeBorder;
    cudaTextureObject_t vel;
    res.res.array.array = a_vel;
    cudaCreateTextureObject(&vel, &res, &td, NULL);

    float *d_table;
    cudaMalloc(&d_table, n * sizeof(float));
    cudaResourceDesc lin;
    memset(&lin, 0, sizeof lin);
    lin.resType = cudaResourceTypeLinear;
    lin.res.linear.devPtr = d_table;
    lin.res.linear.desc = f1;
    lin.res.linear.sizeInBytes = n * sizeof(float);
    memset(&td, 0, sizeof td);
    cudaTextureObject_t table;
    cudaCreateTextureObject(&table, &lin, &td, NULL);

    float *d_out;
    unsigned char *d_edges;
    float2 *d_vel;
    int *d_keys;
    cudaMalloc(&d_out, w * h * sizeof(float));
    cudaMalloc(&d_edges, w * h);
    cudaMalloc(&d_vel, w * h * sizeof(float2));
    cudaMalloc(&d_keys, n * sizeof(int));
    dim3 block(16, 16), grid((w + 15) / 16, (h + 15) / 16);
    rotate<<<grid, block>>>(d_out, w, h, 0.3f, img);
    edges<<<grid, block>>>(d_edges, w, h, gray);
    advect<<<grid, block>>>(d_vel, w, h, 0.5f, vel);
    lookup<<<(n + 127) / 128, 128>>>(d_out, d_keys, n, table);
    cudaDeviceSynchronize();
    cudaDestroyTextureObject(img);
    cudaDestroyTextureObject(gray);
    cudaDestroyTextureObject(vel);
    cudaDestroyTextureObject(table);
    (void)make_texture;
    return 0;
}
