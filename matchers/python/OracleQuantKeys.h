//===--- OracleQuantKeys.h - the format an oracle is asked about --------===//
// SPDX-License-Identifier: Apache-2.0
//
// A vLLM oracle picks the first kernel class that passes both its device
// check and its quantization-scheme check (`_supports_quant_scheme(weight_key,
// activation_key)`), the keys coming from the format's caller
// (`select_nvfp4_moe_backend(weight_key=kNvfp4Static, ...)`). The device
// check alone admits FlashInferExperts on sm_90; the scheme check refuses
// NVFP4 there.
//===----------------------------------------------------------------------===//
#pragma once
#include "matchers/python/Interpreter.h"
#include "model/Facts.h"

#include <map>
#include <optional>
#include <string>

namespace archscope::py {

/// The `_supports_quant_scheme`-style method the engine's classes define
/// most, or "" when none is defined.
std::string discoverSchemeCheck(ModuleIndex &index);

/// A call of the oracle: its quantization-key arguments by parameter name.
struct OracleCall {
  std::map<std::string, Value> keys; ///< named objects, None, or a choice of them
  Evidence where;
};

/// The call of `oracle` (a function name) in the engine tree that says most
/// about its keys (a named object or None counts 2, a choice of them 1), the
/// first in path order on a tie; nullopt when no call passes a key.
std::optional<OracleCall> findOracleCall(ModuleIndex &index, Interpreter &in, const std::string &oracle);

} // namespace archscope::py
