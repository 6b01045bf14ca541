//===--- Audit.h - files -> facts -> matrix for one audit ----------------===//
// SPDX-License-Identifier: Apache-2.0
#pragma once
#include "model/Facts.h"
#include "model/LowerLayers.h"
#include "model/Matrix.h"
#include "tool/Options.h"

#include <map>
#include <set>
#include <string>
#include <vector>

namespace archscope {

struct AuditResult {
  Matrix matrix;
  std::string profileId;
  size_t filesListed = 0;
  size_t modulesParsed = 0;
  bool fromCache = false;
  // What the checks need besides the matrix:
  Facts facts;
  std::map<std::string, std::vector<std::string>> families; ///< backend -> kernel families
  std::vector<std::string> archMacros; ///< the profile's: defined per guard pass as __CUDA_ARCH__
  std::set<std::string> quantFlags;
  std::vector<std::string> roots; ///< the engine tree, then each --with tree
  LowerLayers lower;              ///< what the layers below Python say of each compiled entry
};

/// Where the arch table, kernel families and profiles are read from.
std::string dataDirOf(const Options &opts);
/// Runs the whole pipeline; throws ArchscopeError for bad input.
AuditResult runAudit(const Options &opts);

} // namespace archscope
