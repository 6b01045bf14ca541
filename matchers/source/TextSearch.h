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

/// Whether `word` occurs in `text` as a whole identifier (`NUM_STAGES` in
/// `#if NUM_STAGES > 1`, not in `NUM_STAGES_2`).
inline bool containsWord(std::string_view text, std::string_view word) {
  auto inWord = [](char c) {
    return (c >= '0' && c <= '9') || (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || c == '_';
  };
  for (size_t at = findText(text, word); at != std::string_view::npos; at = findText(text, word, at + 1))
    if ((at == 0 || !inWord(text[at - 1])) &&
        (at + word.size() == text.size() || !inWord(text[at + word.size()])))
      return true;
  return false;
}

} // namespace archscope
