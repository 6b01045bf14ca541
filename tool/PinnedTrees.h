//===--- PinnedTrees.h - a --with checkout at the version the engine pins -===//
// SPDX-License-Identifier: Apache-2.0
//
// An engine pins its kernel library (SGLang: flashinfer_python==0.6.14 in
// python/pyproject.toml); a user passes one checkout of that library with
// --with and audits the engine at many revisions (diff, lint --diff-base).
// Where the --with tree is a git checkout with a tag for the pinned version,
// the library is read at that tag, so each revision meets its own pin.
//===----------------------------------------------------------------------===//
#pragma once
#include "model/Profile.h"

#include <memory>
#include <string>
#include <vector>

namespace archscope {

/// A version the engine pins, and the file (relative to the engine) that says so.
struct PinnedVersion {
  std::string version; ///< "" when the engine pins none
  std::string file;
};

/// The version `engineRoot` pins for the dependency tree `dependency`: the
/// profile's pin for it, else `<its distribution name>[extras]==V` in the
/// engine's pyproject.toml or requirements files.
PinnedVersion pinnedVersion(const std::string &engineRoot, const std::string &dependency, const Profile &profile);

/// The tree to read for each --with path: the path itself, or, for a git
/// checkout not at the pinned version's tag (vV or V), that tag's files
/// copied into a temporary folder that lives as long as the process.
/// `notes` gets one line per substitution.
std::vector<std::string> treesAtPins(const std::vector<std::string> &withPaths, const std::string &engineRoot,
                                     const Profile &profile, std::vector<std::string> &notes);

} // namespace archscope
