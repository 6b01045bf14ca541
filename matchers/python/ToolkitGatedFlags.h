//===--- ToolkitGatedFlags.h - flags a JIT build drops on old toolkits ---===//
// SPDX-License-Identifier: Apache-2.0
//
// FlashInfer builds its FP4 modules with `"-DENABLE_FP4" if
// is_cuda_version_at_least("12.8") else ""`: on CUDA 12.6 the module builds
// without FP4 and the call fails later, naming a dtype (field bug 20). The
// scan reads every file that could hold such a flag (query
// toolkit_gated_flags.scm) and keeps those that no raise on the toolkit in
// the same function makes loud.
//===----------------------------------------------------------------------===//
#pragma once
#include "matchers/python/ModuleIndex.h"
#include "model/Facts.h"

namespace archscope::py {

void collectToolkitGatedFlags(ModuleIndex &index, Facts &facts);

} // namespace archscope::py
