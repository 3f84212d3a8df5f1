#include <torch/extension.h>

at::Tensor add_cpu(const at::Tensor &a) {
    AT_ERROR("add: not implemented on the CPU");
}

at::Tensor mul_cpu(const at::Tensor &a) {
    TORCH_CHECK(false, "mul: CUDA only");
    return a;
}
