/***********************************************************************************
  Complex arithmetic with operators on the file's own struct, as FFT and quantum-chemistry
  codes write it: free operator functions taking values and const references, a scalar on the
  left, unary minus, a compound assignment and a comparison, used on buffer elements, locals
  and the results of other operators; and operators written as member functions.
 ************************************************************************************/
// expect: translated
#include <cuda_runtime.h>

struct Complex {
    float re, im;
};

__device__ Complex operator+(const Complex &a, const Complex &b)
{
    Complex r;
    r.re = a.re + b.re;
    r.im = a.im + b.im;
    return r;
}

__device__ Complex operator*(Complex a, Complex b)
{
    Complex r;
    r.re = a.re * b.re - a.im * b.im;
    r.im = a.re * b.im + a.im * b.re;
    return r;
}

__device__ Complex operator*(float s, const Complex &a)
{
    Complex r;
    r.re = s * a.re;
    r.im = s * a.im;
    return r;
}

__device__ Complex operator-(const Complex &a)
{
    Complex r;
    r.re = -a.re;
    r.im = -a.im;
    return r;
}

__device__ Complex &operator+=(Complex &a, const Complex &b)
{
    a.re += b.re;
    a.im += b.im;
    return a;
}

__device__ bool operator==(const Complex &a, const Complex &b)
{
    return a.re == b.re && a.im == b.im;
}

// one step of a twiddle: out = w * x + 0.5 * y, then out += -x; same flags where w * x == y
__global__ void twiddle(Complex *out, const Complex *x, const Complex *y, Complex w, int *same,
                        int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        Complex v = w * x[i] + 0.5f * y[i];
        v += -x[i];
        out[i] = v;
        same[i] = w * x[i] == y[i];
    }
}

// the same written as member functions, as helper classes of particle codes do
struct Vec2 {
    float x, y;
    __device__ Vec2 operator+(const Vec2 &o) const
    {
        Vec2 r;
        r.x = x + o.x;
        r.y = this->y + o.y;
        return r;
    }
    __device__ Vec2 operator*(float s) const
    {
        Vec2 r;
        r.x = x * s;
        r.y = y * s;
        return r;
    }
    __device__ Vec2 &operator+=(const Vec2 &o)
    {
        x += o.x;
        y += o.y;
        return *this;
    }
};

__global__ void blend(Vec2 *out, const Vec2 *a, float s, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        Vec2 v = a[i] * s + a[(i + 1) % n];
        v += a[i];
        out[i] = v;
    }
}

int main()
{
    const int n = 100;
    Complex *out, *x, *y;
    int *same;
    cudaMalloc(&out, n * sizeof(Complex));
    cudaMalloc(&x, n * sizeof(Complex));
    cudaMalloc(&y, n * sizeof(Complex));
    cudaMalloc(&same, n * sizeof(int));
    Complex w = {0.0f, 1.0f};
    twiddle<<<(n + 63) / 64, 64>>>(out, x, y, w, same, n);
    Vec2 *v, *b;
    cudaMalloc(&v, n * sizeof(Vec2));
    cudaMalloc(&b, n * sizeof(Vec2));
    blend<<<(n + 63) / 64, 64>>>(b, v, 0.5f, n);
    return 0;
}
