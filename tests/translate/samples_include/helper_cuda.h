/* helper_cuda.h — a stand-in for the CUDA samples' header of that name, so that nvcc can compile
 * the corpus files that include it (the samples' own headers are not part of the toolkit). It
 * declares what the corpus uses, nothing more. The translator never reads it: it names the
 * header a host helper and skips it. */
#ifndef GP_CORPUS_HELPER_CUDA_H
#define GP_CORPUS_HELPER_CUDA_H
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define checkCudaErrors(val) gp_corpus_check((val), #val, __FILE__, __LINE__)
#define getLastCudaError(msg) gp_corpus_check(cudaGetLastError(), (msg), __FILE__, __LINE__)

inline void gp_corpus_check(cudaError_t result, const char *what, const char *file, int line)
{
    if (result != cudaSuccess) {
        fprintf(stderr, "CUDA error at %s:%d code=%d \"%s\"\n", file, line, (int)result, what);
        exit(EXIT_FAILURE);
    }
}
#endif
