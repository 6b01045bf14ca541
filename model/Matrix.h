//===--- Matrix.h - backend x quant x target cells with evidence --------===//
// SPDX-License-Identifier: Apache-2.0
#pragma once
#include "model/Evidence.h"
#include "model/Facts.h"
#include "model/Target.h"

#include <optional>
#include <string>
#include <vector>

namespace archscope {

enum class Verdict { Supported, Rejected, CrashRisk, Unreachable, Unknown };
std::string verdictName(Verdict v);

/// The verdict in one world of the atoms a cell depends on
/// ("if has_flashinfer_cutlass_fused_moe() is false: rejected").
struct ConditionalVerdict {
  std::string when;
  Verdict verdict;
};

/// The reason of a row's cell that no dispatch site reaches (a member of
/// another format's backend enum): the text table folds such rows into a line.
extern const char *const kNoDispatchSite;

struct Cell {
  std::string backend; ///< "auto" for the engine's own choice
  std::string quant;
  ComputeCapability target;
  Verdict verdict = Verdict::Unknown;
  std::string reason;   ///< one line: why
  std::string picked;   ///< auto row: the backend auto selects
  /// crash-risk: what lacks the kernel the dispatch reaches: "allow-list"
  /// (the library's own declared list), "cuda" (#if), "build" (CMake/JIT
  /// arch list), "binary" (shipped cubins)
  std::string lacking;
  std::vector<Evidence> evidence;
  std::vector<ConditionalVerdict> conditions;
};

struct TreeInfo {
  std::string role; ///< engine | dependency
  std::string path;
  std::string name;
  std::string version;
  std::string revision;
  std::string profile;
};

struct Matrix {
  std::vector<TreeInfo> trees;
  std::vector<std::string> quants;
  std::vector<ComputeCapability> targets;
  std::vector<std::string> backends; ///< rows, "auto" first when present
  std::vector<Cell> cells;
  std::vector<PredicateFact> predicates;
  std::vector<std::string> warnings;
  std::string toolkit;
  std::string lowerLayers; ///< one line: what the layers below Python contributed

  const Cell *find(const std::string &backend, const std::string &quant,
                   ComputeCapability target) const;
};

} // namespace archscope
