#ifdef USE_CUDA
#include <cuda.h>
#endif
#ifndef GGML_USE_CUDA
#include <stdlib.h>
#else
#include <cuda_fp16.h>
#endif
