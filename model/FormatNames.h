//===--- FormatNames.h - names that say which quant format they are for --===//
// SPDX-License-Identifier: Apache-2.0
//
// Engines name types and modules for the quant format they serve
// (`FlashInferTrtllmFp4MoeQuantInfo`, `layers/quantization/mxfp4.py`); without
// a profile, that name is how code of another format's path is told apart.
//===----------------------------------------------------------------------===//
#pragma once
#include <algorithm>
#include <optional>
#include <string>

namespace archscope {

/// Whether `name` says it is for the quant format `quant` (nvfp4: `...Fp4...`
/// and `...NvFp4...` true; `...Fp8...`, `Mxfp4...` false); nullopt when it
/// names no format.
inline std::optional<bool> namesFormat(std::string name, const std::string &quant) {
  if (quant.empty()) return std::nullopt;
  std::transform(name.begin(), name.end(), name.begin(), [](unsigned char c) { return std::tolower(c); });
  for (const char *f :
       {"fp8", "bf16", "fp16", "int4", "int8", "mxfp4", "mxfp8", "w4a8", "w4a16", "w8a8", "wna16", "awq", "gptq"})
    if (quant.find(f) == std::string::npos && name.find(f) != std::string::npos) return false;
  std::string tail = quant.size() > 3 ? quant.substr(quant.size() - 3) : quant; // nvfp4 -> fp4
  if (name.find(quant) != std::string::npos || name.find(tail) != std::string::npos) return true;
  return std::nullopt;
}

} // namespace archscope
