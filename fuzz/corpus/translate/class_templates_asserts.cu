#include <cassert>
template <typename T, int N = 2> struct Vec { T v[N]; __device__ T first() const { return v[0]; } };
template <class T> class alignas(8) Pair { public: T a, b; __device__ Pair(T x, T y) : a(x), b(y) {} };
template <typename T> struct Box { T in; };
struct P { float s, o; };
__shared__ float part[64];
extern __shared__ float dyn[];
__managed__ int hits;
constexpr unsigned int N(64);
class RNG { public: __device__ RNG(unsigned s) : x(s) {} unsigned x; };
__device__ P mk(float a) { return P{a, 1.0f}; }
__global__ void k(float *o, Box<Vec<float, 3>> b)
{
    assert(o != nullptr && "o");
    Pair<float> q = Pair<float>(1.0f, 2.0f);
    auto p = P{2.0f, o[0]};
    p = P{p.s, float{3}};
    RNG r(threadIdx.x);
    part[threadIdx.x % N] = (int(o[1]) << 2) + q.a + b.in.first() + mk(p.o).s + r.x;
    dyn[threadIdx.x] = part[0];
    atomicAdd(&hits, 1);
    if (o[2] < 0) assert(!"negative");
}
int main() { Box<Vec<float, 3>> b; k<<<1, 64, 256>>>(nullptr, b); }
