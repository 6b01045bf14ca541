//===--- CommentSyntax.cpp - where comments start, per source language ----===//
// SPDX-License-Identifier: Apache-2.0
#include "tool/lint/CommentSyntax.h"

#include <algorithm>
#include <array>
#include <filesystem>

namespace archscope::lint {

CommentStyle commentStyleOf(const std::string &path) {
  std::filesystem::path p(path);
  std::string ext = p.extension().string();
  std::transform(ext.begin(), ext.end(), ext.begin(), [](unsigned char c) { return std::tolower(c); });
  if (p.filename() == "CMakeLists.txt" || ext == ".cmake" || ext == ".py" || ext == ".pyi") return CommentStyle::Hash;
  static const std::array<const char *, 11> cxx = {".c", ".cc", ".cpp", ".cxx", ".h", ".hh",
                                                   ".hpp", ".hxx", ".cu", ".cuh", ".inl"};
  if (std::find(cxx.begin(), cxx.end(), ext) != cxx.end()) return CommentStyle::Slash;
  return CommentStyle::None;
}

size_t commentStart(const std::string &line, CommentStyle style) {
  if (style == CommentStyle::None) return std::string::npos;
  char quote = 0;
  for (size_t i = 0; i < line.size(); ++i) {
    char c = line[i];
    if (quote) {
      if (c == '\\') ++i; // an escaped character never closes the literal
      else if (c == quote) quote = 0;
      continue;
    }
    if (c == '"' || c == '\'') quote = c;
    else if (style == CommentStyle::Hash && c == '#') return i;
    else if (style == CommentStyle::Slash && c == '/' && i + 1 < line.size() && (line[i + 1] == '/' || line[i + 1] == '*'))
      return i;
  }
  return std::string::npos;
}

} // namespace archscope::lint
