#pragma once
#define LOG(fmt, ...) printf(fmt, ##__VA_ARGS__)
#if not defined(_OPENMP) and defined(__linux__) or __has_include(<mpi.h>)
#define S 2
#endif
#if __has_include("missing.h") || __has_include(
#endif
template <class T, bool = (sizeof(T) > 2)> struct W { T v; };
__global__ void k(float *o) { LOG("a\n"); LOG("%d\n", S); o[0] = S; }
