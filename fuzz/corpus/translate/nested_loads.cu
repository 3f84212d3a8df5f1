__global__ void k(float **q, float *o, int n)
{
    __shared__ int s[64];
    s[threadIdx.x] = n;
    __syncthreads();
    o[0] = s[s[s[s[s[s[s[s[s[s[s[s[threadIdx.x]]]]]]]]]]]];
    (*(*(*(*(*(*(*(*(*(*(*(*(q + 1))))))))))))))++;
}
