//===--- NameUses.h - how often the trees' sources name an identifier -----===//
// SPDX-License-Identifier: Apache-2.0
//
// A guard inside a template or kernel that nothing names is compiled by no
// build (vLLM's enable_sm120_only, left defined once its users moved to the
// family guard). This counts whole-word occurrences of given identifiers in
// the trees' C++, CUDA and Python sources and templates, comments and
// strings included: a name a JIT template or a binding spells counts as a
// use. One pass over the files, asked once for all the names a rule needs.
//===----------------------------------------------------------------------===//
#pragma once
#include <map>
#include <set>
#include <string>
#include <vector>

namespace archscope {

class NameUses {
public:
  explicit NameUses(std::vector<std::string> roots) : roots_(std::move(roots)) {}
  /// name -> whole-word occurrences in the sources under the roots (the
  /// definition itself included), for each of `names`.
  std::map<std::string, int> count(const std::set<std::string> &names) const;

private:
  std::vector<std::string> roots_;
};

} // namespace archscope
