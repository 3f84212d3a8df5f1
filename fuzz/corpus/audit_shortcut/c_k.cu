__global__ void k(float *x) {
    float v = __shfl_down_sync(0xffffffff, x[0], 1);
    wmma::fragment<int, 16, 16, 16, half> a;
    asm("mov.u32 %0, %%laneid;" : "=r"(v));
}
