//===--- TextRecords.h - tab-separated records for the facts cache ------===//
// SPDX-License-Identifier: Apache-2.0
#pragma once
#include <string>
#include <vector>

namespace archscope::records {

inline std::vector<std::string> split(const std::string &s, char sep) {
  std::vector<std::string> out(1);
  for (char c : s) {
    if (c == sep) out.emplace_back();
    else out.back() += c;
  }
  return out;
}

/// Escapes the separators a record field may not contain.
inline std::string escape(const std::string &s) {
  std::string out;
  for (char c : s) out += c == '\\' ? "\\\\" : c == '\t' ? "\\t" : c == '\n' ? "\\n" : std::string(1, c);
  return out;
}

inline std::string unescape(const std::string &s) {
  std::string out;
  for (size_t i = 0; i < s.size(); ++i) {
    if (s[i] != '\\' || i + 1 == s.size()) { out += s[i]; continue; }
    char n = s[++i];
    out += n == 't' ? '\t' : n == 'n' ? '\n' : n;
  }
  return out;
}

} // namespace archscope::records
