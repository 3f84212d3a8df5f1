// expect: translated
// Black-Scholes option pricing (CUDA samples style): a polynomial approximation of the
// cumulative normal distribution, one option per thread, grid-stride loop.
#include <stdio.h>
#include <stdlib.h>
#include <math.h>
#include <cuda_runtime.h>
#include <helper_cuda.h>

#define OPT_N 4000000
#define NUM_ITERATIONS 512
#define OPT_SZ (OPT_N * sizeof(float))
const float RISKFREE = 0.02f;
const float VOLATILITY = 0.30f;

#define DIV_UP(a, b) (((a) + (b)-1) / (b))

__device__ inline float cndGPU(float d)
{
    const float A1 = 0.31938153f;
    const float A2 = -0.356563782f;
    const float A3 = 1.781477937f;
    const float A4 = -1.821255978f;
    const float A5 = 1.330274429f;
    const float RSQRT2PI = 0.39894228040143267793994605993438f;

    float K = __fdividef(1.0f, (1.0f + 0.2316419f * fabsf(d)));

    float cnd = RSQRT2PI * __expf(-0.5f * d * d) *
                (K * (A1 + K * (A2 + K * (A3 + K * (A4 + K * A5)))));

    if (d > 0) cnd = 1.0f - cnd;

    return cnd;
}

__device__ inline void BlackScholesBodyGPU(float &CallResult, float &PutResult, float S, float X,
                                           float T, float R, float V)
{
    float sqrtT, expRT;
    float d1, d2, CNDD1, CNDD2;

    sqrtT = __fdividef(1.0F, rsqrtf(T));
    d1 = __fdividef(__logf(S / X) + (R + 0.5f * V * V) * T, V * sqrtT);
    d2 = d1 - V * sqrtT;

    CNDD1 = cndGPU(d1);
    CNDD2 = cndGPU(d2);

    // Calculate Call and Put simultaneously
    expRT = __expf(-R * T);
    CallResult = S * CNDD1 - X * expRT * CNDD2;
    PutResult = X * expRT * (1.0f - CNDD2) - S * (1.0f - CNDD1);
}

__launch_bounds__(128) __global__
    void BlackScholesGPU(float2 *__restrict d_CallResult, float2 *__restrict d_PutResult,
                         float2 *__restrict d_StockPrice, float2 *__restrict d_OptionStrike,
                         float2 *__restrict d_OptionYears, float Riskfree, float Volatility,
                         int optN)
{
    const int opt = blockDim.x * blockIdx.x + threadIdx.x;

    // Calculating 2 options per thread to increase ILP (instruction level parallelism)
    if (opt < (optN / 2)) {
        float callResult1, callResult2;
        float putResult1, putResult2;
        BlackScholesBodyGPU(callResult1, putResult1, d_StockPrice[opt].x, d_OptionStrike[opt].x,
                            d_OptionYears[opt].x, Riskfree, Volatility);
        BlackScholesBodyGPU(callResult2, putResult2, d_StockPrice[opt].y, d_OptionStrike[opt].y,
                            d_OptionYears[opt].y, Riskfree, Volatility);
        d_CallResult[opt] = make_float2(callResult1, callResult2);
        d_PutResult[opt] = make_float2(putResult1, putResult2);
    }
}

int main(int argc, char **argv)
{
    float *d_CallResult, *d_PutResult, *d_StockPrice, *d_OptionStrike, *d_OptionYears;
    checkCudaErrors(cudaMalloc((void **)&d_CallResult, OPT_SZ));
    checkCudaErrors(cudaMalloc((void **)&d_PutResult, OPT_SZ));
    checkCudaErrors(cudaMalloc((void **)&d_StockPrice, OPT_SZ));
    checkCudaErrors(cudaMalloc((void **)&d_OptionStrike, OPT_SZ));
    checkCudaErrors(cudaMalloc((void **)&d_OptionYears, OPT_SZ));
    for (int i = 0; i < NUM_ITERATIONS; i++) {
        BlackScholesGPU<<<DIV_UP((OPT_N / 2), 128), 128 /*480, 128*/>>>(
            (float2 *)d_CallResult, (float2 *)d_PutResult, (float2 *)d_StockPrice,
            (float2 *)d_OptionStrike, (float2 *)d_OptionYears, RISKFREE, VOLATILITY, OPT_N);
        getLastCudaError("BlackScholesGPU() execution failed\n");
    }
    checkCudaErrors(cudaDeviceSynchronize());
    printf("done\n");
    return 0;
}
