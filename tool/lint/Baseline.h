//===--- Baseline.h - accepted findings, for gradual adoption ------------===//
// SPDX-License-Identifier: Apache-2.0
//
// A baseline lists the findings a project has accepted for now, by
// fingerprint (rule, file relative to the source root, normalized snippet;
// see Fingerprint.h), so entries survive edits elsewhere in the file. Rule,
// path and message are stored too, for the reader of a review diff only.
//===----------------------------------------------------------------------===//
#pragma once
#include "model/Finding.h"

#include <set>
#include <string>
#include <vector>

namespace archscope::lint {

/// The fingerprints of a baseline file; throws an input error for a file that
/// is missing or not a baseline.
std::set<std::string> readBaseline(const std::string &path);

/// Writes every finding (portable paths from `paths`); throws an input error
/// when the file cannot be written.
void writeBaseline(const std::string &path, const std::vector<Finding> &findings,
                   const std::vector<std::string> &fingerprints, const std::vector<std::string> &paths);

} // namespace archscope::lint
