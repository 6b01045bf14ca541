//===--- ForeignPlatforms.h - backends made for other accelerators ------===//
// SPDX-License-Identifier: Apache-2.0
//
// SGLang's MoE runner enum lists `aiter` (AMD) and `ascend` (Huawei NPU)
// beside the NVIDIA backends, and nothing in its dispatch refuses them on an
// NVIDIA GPU: read alone, the dispatch admits them there. Their own modules
// say otherwise: aiter.py imports AMD's `aiter` package, ascend.py imports
// `sglang.srt.hardware_backend.npu`. A row is taken as another platform's
// when both its name and such an import say so (ForeignPlatform in Facts.h).
//===----------------------------------------------------------------------===//
#pragma once
#include "matchers/python/ModuleIndex.h"
#include "model/Facts.h"

#include <string>
#include <vector>

namespace archscope::py {

/// For each of `rows` named for another platform (a `_`-separated word of
/// its name: aiter, rocm, ascend, npu, xpu, hpu, musa, mlx), the first
/// unconditional import of that platform's code (its package, or a module
/// of the trees under a folder named for it) in a file its walks entered
/// that at most half of the rows enter: at module level, or at the top of
/// a function or method body, not under if/try/with.
void markForeignPlatforms(ModuleIndex &index, const std::vector<std::string> &rows, Facts &facts);

} // namespace archscope::py
