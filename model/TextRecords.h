//===--- TextRecords.h - tab-separated records for the facts cache ------===//
// SPDX-License-Identifier: Apache-2.0
#pragma once
#include "model/Evidence.h"

#include <istream>
#include <optional>
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

/// Reads records `T<tab>field<tab>field...` a line each, calling
/// `onRecord(tag, rest, fields)` (rest: the line after the tag); false when a
/// line is malformed or `onRecord` returns false.
template <class OnRecord> bool forEachRecord(std::istream &in, OnRecord onRecord) {
  for (std::string line; std::getline(in, line);) {
    if (line.size() < 2) return false;
    std::string rest = line.substr(2);
    if (!onRecord(line[0], rest, split(rest, '\t'))) return false;
  }
  return true;
}

/// A field that never holds the record separators (tab, newline, \x1e, \x1f).
inline std::string clean(const std::string &s) {
  std::string out = s;
  for (char &c : out)
    if (c == '\t' || c == '\n' || c == '\x1e' || c == '\x1f') c = ' ';
  return out;
}

/// Evidence as one field: its parts joined by \x1f.
inline std::string encodeEvidence(const Evidence &e) {
  return clean(e.path) + '\x1f' + std::to_string(e.line) + '\x1f' + std::to_string(e.col) + '\x1f' +
         clean(e.layer) + '\x1f' + clean(e.snippet) + '\x1f' + clean(e.note);
}

inline std::optional<Evidence> decodeEvidence(const std::string &s) {
  auto f = split(s, '\x1f');
  if (f.size() != 6) return std::nullopt;
  return Evidence{f[0], std::stoi(f[1]), std::stoi(f[2]), f[3], f[4], f[5]};
}

} // namespace archscope::records
