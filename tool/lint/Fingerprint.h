//===--- Fingerprint.h - line-independent identity of a finding ----------===//
// SPDX-License-Identifier: Apache-2.0
//
// A finding keeps its fingerprint when lines are inserted or removed above
// it: the hash covers the rule id, the file (relative to the source root), the
// backend and the primary snippet with comments and spacing normalized away,
// never line numbers or the message (which names targets from the arch
// table). Equal hashes in one run get ":1", ":2", ... in reading order, as
// GitHub's primaryLocationLineHash does.
//===----------------------------------------------------------------------===//
#pragma once
#include "model/Finding.h"

#include <string>
#include <vector>

namespace archscope::lint {

/// Where relative paths start: the git work tree holding `auditedRoot`, else
/// `auditedRoot` itself. Absolute and normalized.
std::string sourceRootOf(const std::string &auditedRoot);

/// `path` relative to `sourceRoot` ('/'-separated) when inside it; outside it
/// (a --with tree elsewhere), relative to the parent of the tree in `roots`
/// holding it, so the tree's folder name comes first; else absolute.
std::string portablePath(const std::string &path, const std::string &sourceRoot,
                         const std::vector<std::string> &roots);

/// The snippet without a trailing comment and with runs of spaces collapsed.
std::string normalizedSnippet(const std::string &snippet, const std::string &path);

/// One fingerprint per finding, "<16 hex digits>:<occurrence>".
std::vector<std::string> fingerprintsOf(const std::vector<Finding> &findings, const std::string &sourceRoot,
                                        const std::vector<std::string> &roots);

} // namespace archscope::lint
