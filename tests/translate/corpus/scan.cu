// scan: an exclusive prefix sum of one block in shared memory (up-sweep and down-sweep).
// expect: translated
#define N 256

__global__ void scan(int *out, const int *in)
{
    __shared__ int s[N];
    int t = threadIdx.x;
    s[t] = in[blockIdx.x * N + t];
    __syncthreads();
    for (int d = 1; d < N; d *= 2) {
        int k = (t + 1) * d * 2 - 1;
        if (k < N) s[k] += s[k - d];
        __syncthreads();
    }
    if (t == 0) s[N - 1] = 0;
    __syncthreads();
    for (int d = N / 2; d >= 1; d /= 2) {
        int k = (t + 1) * d * 2 - 1;
        if (k < N) {
            int x = s[k - d];
            s[k - d] = s[k];
            s[k] += x;
        }
        __syncthreads();
    }
    out[blockIdx.x * N + t] = s[t];
}
