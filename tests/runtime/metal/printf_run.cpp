// printf_run.cpp — runs the kernel `show` of test_metal_printf.c on the host, as C++ through the
// stand-in <metal_stdlib>: the prelude (kernel.h, with GP__PRINT_RECORDS) and the source as the
// runtime rewrote it (p.gpk, found with -I) are compiled for real, each work-item is a call of
// the kernel function, groups in reverse order, and the print buffer's words are written to
// stdout, one a line, for the test to format. The stand-in only declares its atomics: the two
// the record writer uses are defined here (one thread, so plain reads and writes).
extern "C" int printf(const char *, ...);
namespace metal {
template <typename T, typename E>
T atomic_fetch_add_explicit(volatile device atomic<T> *o, typename _same<T>::type v, memory_order)
{
    T old = o->value;
    o->value = old + v;
    return old;
}
template <typename T> T atomic_load_explicit(volatile device atomic<T> *o, memory_order)
{
    return o->value;
}
} // namespace metal

#include "p.gpk"

static uint words[GP_PRINT_REC_HEADER + GPT_CAP];

int main()
{
    float x[GPT_N];
    int n = GPT_N;
    for (int i = 0; i < GPT_N; i++)
        x[i] = (float)i * 0.37f - 5.0f;
    words[GP_PRINT_REC_CAPACITY] = GPT_CAP;
    words[GP_PRINT_REC_LAYOUT] = GP_PRINT_REC_VERSION;
    const uint groups = (GPT_N + 3) / 4;
    for (uint g = groups; g-- > 0;)
        for (uint l = 0; l < 4; l++)
            show((const device float *)x, *(constant int *)&n, (device atomic_uint *)words,
                 uint3(l, 0, 0), uint3(g, 0, 0), uint3(4, 1, 1), uint3(groups, 1, 1), 0);
    for (uint i = 0; i < GP_PRINT_REC_HEADER + GPT_CAP; i++)
        printf("%u\n", words[i]);
    return 0;
}
