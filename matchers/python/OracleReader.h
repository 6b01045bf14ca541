//===--- OracleReader.h - a vLLM-style oracle's support and candidates --===//
// SPDX-License-Identifier: Apache-2.0
//
// vLLM picks an MoE backend through an oracle: each backend maps to kernel
// classes, each class says where it runs (`_supports_current_device`) and
// which formats it takes (`_supports_quant_scheme`), and auto-selection takes
// the first supported entry of an ordered candidate list. Each class's
// support becomes a Support guard of its backend, the list Select guards in
// its order.
//===----------------------------------------------------------------------===//
#pragma once
#include "matchers/python/Interpreter.h"
#include "model/Facts.h"
#include "model/Profile.h"

#include <string>
#include <vector>

namespace archscope::py {

/// Reads the oracle `quant` names (kernel map, device check, candidates)
/// into `facts`; nothing when it names no kernel map.
void readOracle(ModuleIndex &index, Interpreter &in, const QuantProfile &quant,
                const std::vector<std::string> &backends, Facts &facts);

} // namespace archscope::py
