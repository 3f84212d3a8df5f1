// Byte and word shuffles of hashing and cipher code: __byte_perm to swap a word's bytes and to
// pick bytes of two words, funnel shifts for rotations (ChaCha-style quarter rounds), the high
// words of products, sums of absolute differences and averages without overflow.
// expect: translated
#include <cstdint>

__device__ unsigned int rotl32(unsigned int v, unsigned int n)
{
    return __funnelshift_l(v, v, n);
}

__global__ void shuffle_words(const unsigned int *a, const unsigned int *b, unsigned int *out,
                              int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    unsigned int x = a[i], y = b[i];
    out[8 * i + 0] = __byte_perm(x, 0, 0x0123);          // byte swap
    out[8 * i + 1] = __byte_perm(x, y, 0x7531 + i % 7);  // bytes of both words
    out[8 * i + 2] = rotl32(x, i % 40) ^ __funnelshift_r(x, y, i % 40);
    out[8 * i + 3] = __funnelshift_lc(x, y, i % 40) + __funnelshift_rc(x, y, i % 40);
    out[8 * i + 4] = __umulhi(x, y) ^ (unsigned int)__mulhi((int)x, (int)y);
    out[8 * i + 5] = __usad(x, y, 7u) + __sad((int)x, (int)y, 3u);
    out[8 * i + 6] = __uhadd(x, y) ^ __urhadd(x, y) ^ (unsigned int)__rhadd((int)x, (int)y);
    out[8 * i + 7] = (unsigned int)(__umul64hi((unsigned long long)x << 21 | y,
                                               (unsigned long long)y << 29 | x) ^
                                    __brevll((unsigned long long)x << 32 | y));
}

int main()
{
    int n = 300;
    shuffle_words<<<(n + 127) / 128, 128>>>(nullptr, nullptr, nullptr, n);
    return 0;
}
