typedef float2 vel_t;
__global__ void k(float *o, vel_t *v, int w, cudaTextureObject_t a, cudaTextureObject_t b,
                  cudaTextureObject_t c)
{
    int x = threadIdx.x, y = blockIdx.x;
    o[y * w + x] = tex2D<float>(a, x + 0.5f, y * 0.25f) + tex1Dfetch<float>(c, x - 1);
    v[y * w + x] = tex2D<vel_t>(b, x, y);
}
void host(float *o, vel_t *v)
{
    cudaResourceDesc r;
    cudaTextureDesc d;
    memset(&d, 0, sizeof d);
    d.normalizedCoords = true;
    d.filterMode = cudaFilterModeLinear;
    d.addressMode[0] = cudaAddressModeMirror;
    d.addressMode[1] = cudaAddressModeBorder;
    cudaTextureObject_t a, b, c;
    cudaCreateTextureObject(&a, &r, &d, NULL);
    cudaCreateTextureObject(&b, &r, &d, NULL);
    memset(&d, 0, sizeof d);
    cudaCreateTextureObject(&c, &r, &d, NULL);
    k<<<4, 64>>>(o, v, 64, a, b, c);
}
