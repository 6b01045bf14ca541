//===--- DiffBase.h - `lint --diff-base REV`: only what a change adds -----===//
// SPDX-License-Identifier: Apache-2.0
//
// Lints the same path in a temporary `git worktree` of REV, with the same
// configuration, and returns the fingerprints found there; the caller drops
// those, so what remains is what the change since REV introduced. Line
// numbers play no part (see Fingerprint.h), so edits above a finding do not
// make it new.
//===----------------------------------------------------------------------===//
#pragma once
#include "tool/Options.h"
#include "tool/lint/Config.h"

#include <set>
#include <string>

namespace archscope::lint {

/// The fingerprints `archscope lint` reports for opts.path at git revision
/// `rev`. Usage error when the path is not in a git work tree or `rev` is not
/// a commit there.
std::set<std::string> fingerprintsAt(const Options &opts, const LintConfig &config, const std::string &rev);

} // namespace archscope::lint
