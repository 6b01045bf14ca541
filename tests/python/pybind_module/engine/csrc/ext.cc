#include <pybind11/pybind11.h>  // not in the tree: skipped

void run_grouped_gemm(float *out);

PYBIND11_MODULE(fp4_ext, m) { m.def("grouped_gemm", &run_grouped_gemm, "NVFP4 grouped GEMM"); }
