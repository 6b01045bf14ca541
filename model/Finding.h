//===--- Finding.h - one disagreement between layers, with its evidence --===//
// SPDX-License-Identifier: Apache-2.0
//
// Checks turn facts and the matrix into findings; emitters print them. A
// finding's rule id is the same string everywhere: the text suffix `[id]`,
// the SARIF ruleId, the doc page docs/rules/<id>.md and the fixture folder
// tests/rules/<id>/.
//===----------------------------------------------------------------------===//
#pragma once
#include "model/Evidence.h"

#include <optional>
#include <string>
#include <vector>

namespace archscope {

enum class Severity { Note = 0, Warning = 1, Error = 2 };
const char *severityName(Severity s);
std::optional<Severity> parseSeverity(const std::string &name);

struct Finding {
  std::string rule;
  Severity severity = Severity::Warning;
  std::string message;          ///< one sentence: what disagrees, and on which targets
  Evidence primary;             ///< where to fix it
  std::vector<Evidence> related; ///< the rest of the chain, in reading order
  std::string backend;          ///< the cell it concerns, when there is one
  std::vector<std::string> targets;
};

} // namespace archscope
