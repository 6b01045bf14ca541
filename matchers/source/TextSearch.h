//===--- TextSearch.h - literal search over whole files -----------------===//
// SPDX-License-Identifier: Apache-2.0
//
// The literal prefilters scan every file of a tree. std::string::find looks
// for the needle's first character with memchr and compares from each hit,
// which is slow for needles that start with a common letter ("supports",
// "cuda."); glibc's memmem searches the needle as a whole.
//===----------------------------------------------------------------------===//
#pragma once
#include <cstring>
#include <string>
#include <string_view>

namespace archscope {

/// The first position of `needle` in `text` at or after `from`, or npos.
inline size_t findText(std::string_view text, std::string_view needle, size_t from = 0) {
  if (from > text.size()) return std::string_view::npos;
  const void *hit = memmem(text.data() + from, text.size() - from, needle.data(), needle.size());
  return hit ? size_t(static_cast<const char *>(hit) - text.data()) : std::string_view::npos;
}

inline bool containsText(std::string_view text, std::string_view needle) {
  return findText(text, needle) != std::string_view::npos;
}

} // namespace archscope
