//===--- ExtensionModules.h - pybind11 modules the C++ of the trees defines ---===//
// SPDX-License-Identifier: Apache-2.0
//
// `PYBIND11_MODULE(fp4_ext, m) { m.def("grouped_gemm", &run); }` builds a
// Python module named fp4_ext; Python code that calls `fp4_ext.grouped_gemm`
// calls that C++ function. The names come from the C++ side, so the Python
// walk knows which dotted calls are compiled entries (`pybind:MOD.FUNC`).
// A module named by TORCH_EXTENSION_NAME gets its name from the build: not
// known here.
//===----------------------------------------------------------------------===//
#pragma once
#include "matchers/source/CppSources.h"

#include <set>
#include <string>
#include <vector>

namespace archscope::cuda {

std::set<std::string> pybindModuleNames(const std::vector<CppSource> &sources);

} // namespace archscope::cuda
