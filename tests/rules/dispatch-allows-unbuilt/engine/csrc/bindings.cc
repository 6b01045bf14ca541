// TORCH_LIBRARY registration, the link from torch.ops to C++.
#include <torch/library.h>

void gen_fp4_moe(at::Tensor &x);
void marlin_moe(at::Tensor &x);
void checked_fp4_moe(at::Tensor &x);
void grouped_fp4_moe(at::Tensor &x);

TORCH_LIBRARY(fixture_kernels, m) {
  m.def("gen_fp4_moe(Tensor x) -> ()");
  m.impl("gen_fp4_moe", torch::kCUDA, &gen_fp4_moe);
  m.def("checked_fp4_moe(Tensor x) -> ()");
  m.impl("checked_fp4_moe", torch::kCUDA, &checked_fp4_moe);
  m.def("grouped_fp4_moe(Tensor x) -> ()");
  m.impl("grouped_fp4_moe", torch::kCUDA, &grouped_fp4_moe);
  m.def("marlin_moe(Tensor x) -> ()");
  m.impl("marlin_moe", torch::kCUDA, &marlin_moe);
}
