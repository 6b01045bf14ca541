//===--- MarkdownText.h - code spans and table cells that survive any text ===//
// SPDX-License-Identifier: Apache-2.0
//
// Snippets are verbatim source: they hold backticks, pipes and angle
// brackets. These helpers keep them from breaking a Markdown table or
// opening HTML in a pull-request comment or a generated page.
//===----------------------------------------------------------------------===//
#pragma once
#include "model/Evidence.h"

#include <algorithm>
#include <string>

namespace archscope::md {

/// One line: newlines and tabs become spaces.
inline std::string oneLine(std::string s) {
  for (auto &ch : s)
    if (ch == '\n' || ch == '\r' || ch == '\t') ch = ' ';
  return s;
}

/// A pipe ends a table cell even inside a code span (GFM): escape it.
inline std::string tableSafe(const std::string &s) {
  std::string out;
  for (char ch : oneLine(s)) {
    if (ch == '|') out += '\\';
    out += ch;
  }
  return out;
}

/// Prose that may quote code in backticks (reasons, messages, summaries):
/// outside the code spans no raw HTML and no accidental emphasis; inside them
/// nothing is escaped, since GFM shows code spans verbatim.
inline std::string plain(const std::string &s) {
  std::string out;
  bool inCode = false;
  for (char ch : oneLine(s)) {
    if (ch == '`') inCode = !inCode;
    if (inCode || ch == '`') out += ch;
    else if (ch == '<') out += "&lt;";
    else if (ch == '>') out += "&gt;";
    else if (ch == '*') out += "\\*"; // '_' stays: GFM never reads sm_120's as emphasis
    else out += ch;
  }
  return out;
}

/// A code span long enough to hold the backticks inside the text.
inline std::string code(const std::string &text) {
  std::string s = oneLine(text);
  size_t longest = 0, run = 0;
  for (char ch : s) longest = std::max(longest, run = ch == '`' ? run + 1 : 0);
  std::string fence(longest + 1, '`');
  bool pad = !s.empty() && (s.front() == '`' || s.back() == '`');
  return fence + (pad ? " " : "") + s + (pad ? " " : "") + fence;
}

/// "path:line" of one piece of evidence ("" when it has no place).
inline std::string location(const Evidence &e) {
  if (e.path.empty()) return "";
  return e.line > 0 ? e.path + ":" + std::to_string(e.line) : e.path;
}

} // namespace archscope::md
