//===--- FactsCache.h - extracted facts, stored by content hash ----------===//
// SPDX-License-Identifier: Apache-2.0
//
// An audit's extraction depends only on the files' contents, the profile,
// the quant and archscope's version; its facts are stored under a hash of
// all of them, so a second audit of an unchanged tree skips parsing.
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

/// Reads `dir/key.facts`; nullopt when absent or unreadable.
std::optional<CachedFacts> loadFacts(const std::string &dir, const std::string &key);
/// Writes atomically (temp file + rename); failures are ignored: the cache
/// is an optimization, never a reason to fail an audit.
void storeFacts(const std::string &dir, const std::string &key, const CachedFacts &c);

} // namespace archscope
