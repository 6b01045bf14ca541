//===--- OracleCandidates.h - the order an oracle walks its candidates --===//
// SPDX-License-Identifier: Apache-2.0
//
// Auto-selection takes the first supported entry of an ordered list. The
// list is written once and may be rewritten before the walk: filtered
// (`[b for b in L if b in WITH_CLAMP]`, which keeps the order) or reordered
// per GPU (vLLM 0.34's `L = prioritize_humming(L)`, humming ahead of marlin
// on Hopper only). A reorder is interpreted; one that cannot be makes every
// pick unknown rather than reading the list as first written.
//===----------------------------------------------------------------------===//
#pragma once
#include "matchers/python/Interpreter.h"
#include "model/Facts.h"
#include "model/Profile.h"

#include <map>
#include <string>

namespace archscope::py {

/// Select guards for the candidate list `quant.candidates` in the order
/// the oracle walks it, each under its backend's `support`.
void readCandidates(ModuleIndex &index, Interpreter &in, const QuantProfile &quant,
                    const std::map<std::string, Condition> &support, Facts &facts);

} // namespace archscope::py
