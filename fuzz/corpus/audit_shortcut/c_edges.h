int a = 1'000;
#include <cuda.h>
auto s = at::cuda::x();
#if 0
cudaFree(0);
#endif
R"x(cudaFree
)x";
cudaFree(0); // gpuport: ignore
