#define BS 16
__global__ void lud(float *m)
{
    __shared__ float sh[BS * BS];
    int tx = threadIdx.x;
    for (int k = 0; k < BS; k++) sh[k * BS + tx] = m[k * BS + tx];
    __syncthreads();
    for (int i = 0; i < BS - 1; i++) {
        if (tx > i) {
            for (int j = 0; j < i; j++)
                sh[tx * BS + i] -= sh[tx * BS + j] * sh[j * BS + i];
        }
        __syncthreads();
    }
    m[tx] = sh[tx];
}
int main() { lud<<<1, BS>>>(0); }
