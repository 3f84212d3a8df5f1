/* bytescan.h — the first byte of a small set at or after a position, 16 bytes at a time with
 * SSE2 (x86-64) or NEON (AArch64), byte by byte elsewhere and for the last few bytes. Used by
 * the tokenizers' skips and string scans, where the bytes between the ones that matter are many.
 */
#ifndef GP_AUDIT_BYTESCAN_H
#define GP_AUDIT_BYTESCAN_H

#include <stdbool.h>
#include <stddef.h>

#if defined(__SSE2__)
#include <emmintrin.h>
#elif defined(__ARM_NEON) && defined(__aarch64__)
#include <arm_neon.h>
#endif

#define GP_BYTESCAN_MAX 12

/* The first of d[pos, n) that is one of set[0, k) (k <= GP_BYTESCAN_MAX), or n. Inlined, so that
 * with a constant set the compares unroll. */
static inline __attribute__((always_inline)) size_t gp_bytescan(const char *d, size_t pos, size_t n,
                                                                const char *set, int k)
{
#if defined(__SSE2__)
    __m128i want[GP_BYTESCAN_MAX];
    for (int j = 0; j < k; j++)
        want[j] = _mm_set1_epi8(set[j]);
    while (pos + 16 <= n) {
        __m128i v = _mm_loadu_si128((const __m128i *)(const void *)(d + pos));
        __m128i m = _mm_cmpeq_epi8(v, want[0]);
        for (int j = 1; j < k; j++)
            m = _mm_or_si128(m, _mm_cmpeq_epi8(v, want[j]));
        unsigned bits = (unsigned)_mm_movemask_epi8(m);
        if (bits) return pos + (size_t)__builtin_ctz(bits);
        pos += 16;
    }
#elif defined(__ARM_NEON) && defined(__aarch64__)
    uint8x16_t want[GP_BYTESCAN_MAX];
    for (int j = 0; j < k; j++)
        want[j] = vdupq_n_u8((uint8_t)set[j]);
    while (pos + 16 <= n) {
        uint8x16_t v = vld1q_u8((const uint8_t *)d + pos);
        uint8x16_t m = vceqq_u8(v, want[0]);
        for (int j = 1; j < k; j++)
            m = vorrq_u8(m, vceqq_u8(v, want[j]));
        if (vmaxvq_u8(m)) break; /* the loop below finds it within these 16 bytes */
        pos += 16;
    }
#endif
    for (; pos < n; pos++)
        for (int j = 0; j < k; j++)
            if (d[pos] == set[j]) return pos;
    return n;
}

/* The first i in [pos, end - gap) with d[i] == a and d[i + gap] == b, or end: where a word
 * whose first byte is a and whose byte at gap is b may start. */
static inline size_t gp_bytescan_pair(const char *d, size_t pos, size_t end, char a, char b,
                                      size_t gap)
{
    if (end - pos <= gap) return end;
    size_t last = end - gap; /* candidates are below it */
#if defined(__SSE2__)
    __m128i va = _mm_set1_epi8(a), vb = _mm_set1_epi8(b);
    while (pos + 16 <= last) {
        __m128i x = _mm_loadu_si128((const __m128i *)(const void *)(d + pos));
        __m128i y = _mm_loadu_si128((const __m128i *)(const void *)(d + pos + gap));
        unsigned bits = (unsigned)_mm_movemask_epi8(
            _mm_and_si128(_mm_cmpeq_epi8(x, va), _mm_cmpeq_epi8(y, vb)));
        if (bits) return pos + (size_t)__builtin_ctz(bits);
        pos += 16;
    }
#elif defined(__ARM_NEON) && defined(__aarch64__)
    uint8x16_t va = vdupq_n_u8((uint8_t)a), vb = vdupq_n_u8((uint8_t)b);
    while (pos + 16 <= last) {
        uint8x16_t x = vld1q_u8((const uint8_t *)d + pos);
        uint8x16_t y = vld1q_u8((const uint8_t *)d + pos + gap);
        if (vmaxvq_u8(vandq_u8(vceqq_u8(x, va), vceqq_u8(y, vb)))) break; /* found below */
        pos += 16;
    }
#endif
    for (; pos < last; pos++)
        if (d[pos] == a && d[pos + gap] == b) return pos;
    return end;
}

#endif
