//===--- FactsCache.h - extracted facts, stored by content hash ----------===//
// SPDX-License-Identifier: Apache-2.0
//
// An audit's extraction depends only on the files' contents, the profile,
// the quant and archscope's build; tool/ stores its facts in this format
// under a hash of all of them, so a second audit of an unchanged tree skips
// parsing.
//===----------------------------------------------------------------------===//
#pragma once
#include "model/Facts.h"

#include <optional>
#include <string>
#include <vector>

namespace archscope {

struct CachedFacts {
  Facts facts;
  std::vector<std::string> backends;
};

std::string encodeFacts(const CachedFacts &c);
/// nullopt for a file of another format version or a damaged one.
std::optional<CachedFacts> decodeFacts(const std::string &text);

} // namespace archscope
