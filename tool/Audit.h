//===--- Audit.h - files -> facts -> matrix for one audit ----------------===//
// SPDX-License-Identifier: Apache-2.0
#pragma once
#include "model/Matrix.h"
#include "tool/Options.h"

namespace archscope {

struct AuditResult {
  Matrix matrix;
  std::string profileId;
  size_t filesListed = 0;
  size_t modulesParsed = 0;
  bool fromCache = false;
};

/// Runs the whole pipeline; throws ArchscopeError for bad input.
AuditResult runAudit(const Options &opts);

} // namespace archscope
