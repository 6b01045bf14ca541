// tiny-kernels' compiled extension: the registration that links
// torch.ops.tiny_kernels.* (Python) to the C++ functions below.
#include <torch/library.h>

void cutlass_grouped_moe(at::Tensor &out, const at::Tensor &x, const at::Tensor &weights);

TORCH_LIBRARY(tiny_kernels, m) {
  m.def("cutlass_grouped_moe(Tensor! out, Tensor x, Tensor weights) -> ()");
  m.impl("cutlass_grouped_moe", torch::kCUDA, &cutlass_grouped_moe);
}
