// Op registrations: TORCH_LIBRARY with a schema def and its impl, a def
// naming its function, vLLM's TORCH_LIBRARY_EXPAND wrapper, and pybind.
#include <torch/library.h>
#include "ops.h"

#define TORCH_LIBRARY_EXPAND(NAME, MODULE) TORCH_LIBRARY(NAME, MODULE)

TORCH_LIBRARY_FRAGMENT(sgl_kernel, m) {
  m.def("fp4_moe(Tensor a, Tensor b) -> Tensor");
  m.impl("fp4_moe", torch::kCUDA, &fp4_moe);
  m.def("get_graph_buffer_ipc_meta", &get_graph_buffer_ipc_meta);
}

TORCH_LIBRARY_EXPAND(CONCAT(TORCH_EXTENSION_NAME, _moe), ops) {
  ops.def(
      "cutlass_moe_mm(Tensor! out, "
      "Tensor a) -> ()");
  ops.impl("cutlass_moe_mm", torch::kCUDA, TORCH_BOX(&cutlass_moe_mm));
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
  m.def("rasterize", &rasterize_image, "doc", py::arg("x"));
}
