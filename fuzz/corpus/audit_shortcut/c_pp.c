#if 0
x
#elif defined(USE_CUDA)
R"d(raw)d" cudaFree(0);
#else
#endif
