//===--- Suppressions.cpp - `archscope: ignore[rule-id]` comments --------===//
// SPDX-License-Identifier: Apache-2.0
#include "tool/lint/Suppressions.h"

#include "model/checks/Rule.h"
#include "tool/lint/CommentSyntax.h"

#include <filesystem>
#include <fstream>
#include <sstream>

namespace fs = std::filesystem;

namespace archscope::lint {
namespace {

constexpr const char *kMarker = "archscope:";

std::string absoluteNormal(const std::string &p) {
  std::error_code ec;
  fs::path abs = fs::absolute(p, ec);
  return (ec ? fs::path(p) : abs).lexically_normal().string();
}

/// As a reader opens it from the working directory.
std::string shownPath(const std::string &p) {
  std::error_code ec;
  fs::path shown = fs::proximate(p, ec);
  if (ec || shown.empty() || shown.native().rfind("..", 0) == 0) return fs::path(p).lexically_normal().string();
  return shown.string();
}

std::string trimmed(const std::string &s) {
  size_t b = s.find_first_not_of(" \t"), e = s.find_last_not_of(" \t");
  return b == std::string::npos ? "" : s.substr(b, e - b + 1);
}

/// The rule ids of "ignore[a, b]" starting at `pos`; nullopt when the comment
/// is not a suppression, an empty list when it names no rule.
std::optional<std::vector<std::string>> ignoredRules(const std::string &line, size_t pos) {
  while (pos < line.size() && line[pos] == ' ') ++pos;
  if (line.compare(pos, 6, "ignore") != 0) return std::nullopt;
  pos += 6;
  std::vector<std::string> rules;
  if (pos >= line.size() || line[pos] != '[') return rules;
  size_t close = line.find(']', pos);
  std::stringstream list(line.substr(pos + 1, close == std::string::npos ? std::string::npos : close - pos - 1));
  for (std::string id; std::getline(list, id, ',');)
    if (!trimmed(id).empty()) rules.push_back(trimmed(id));
  return rules;
}

bool isCommentOnly(const std::string &line, CommentStyle style) {
  size_t c = commentStart(line, style);
  return c != std::string::npos && trimmed(line.substr(0, c)).empty();
}

std::string readFile(const std::string &path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

} // namespace

std::vector<Suppression> parseSuppressions(const std::string &path, const std::string &text) {
  std::vector<Suppression> out;
  CommentStyle style = commentStyleOf(path);
  if (style == CommentStyle::None || text.find(kMarker) == std::string::npos) return out;
  std::vector<size_t> waiting; // comment-only suppressions, covering the next code line
  std::istringstream in(text);
  int number = 0;
  for (std::string line; std::getline(in, line);) {
    ++number;
    size_t comment = commentStart(line, style);
    size_t marker = comment == std::string::npos ? std::string::npos : line.find(kMarker, comment);
    auto rules = marker == std::string::npos ? std::nullopt : ignoredRules(line, marker + std::string(kMarker).size());
    bool commentOnly = isCommentOnly(line, style);
    if (!commentOnly) {
      for (size_t i : waiting) out[i].coveredLine = number;
      waiting.clear();
    }
    if (!rules) continue;
    Suppression s{path, number, static_cast<int>(comment) + 1, commentOnly ? 0 : number, *rules,
                  std::vector<bool>(rules->size(), false)};
    if (commentOnly) waiting.push_back(out.size());
    out.push_back(std::move(s));
  }
  return out;
}

Suppressions Suppressions::scan(const std::vector<std::string> &roots) {
  Suppressions result;
  for (const auto &root : roots) {
    std::error_code ec;
    for (auto it = fs::recursive_directory_iterator(root, fs::directory_options::skip_permission_denied, ec);
         !ec && it != fs::recursive_directory_iterator(); it.increment(ec)) {
      std::string name = it->path().filename().string();
      if (it->is_directory(ec) && (name.rfind('.', 0) == 0 || name == "__pycache__")) {
        it.disable_recursion_pending();
        continue;
      }
      if (!it->is_regular_file(ec) || commentStyleOf(name) == CommentStyle::None) continue;
      auto found = parseSuppressions(shownPath(it->path().string()), readFile(it->path().string()));
      if (!found.empty()) result.byFile_[absoluteNormal(it->path().string())] = std::move(found);
    }
  }
  return result;
}

bool Suppressions::suppresses(const Finding &f) {
  if (f.primary.path.empty()) return false;
  auto it = byFile_.find(absoluteNormal(f.primary.path));
  if (it == byFile_.end()) return false;
  bool hit = false;
  for (auto &s : it->second) {
    if (s.coveredLine != f.primary.line) continue;
    for (size_t i = 0; i < s.rules.size(); ++i)
      if (s.rules[i] == f.rule) hit = s.used[i] = true;
  }
  return hit;
}

std::vector<LintNotice> Suppressions::notices() const {
  std::vector<LintNotice> out;
  for (const auto &[file, list] : byFile_)
    for (const auto &s : list) {
      Evidence where{s.path, s.line, s.col, "", "", ""};
      if (s.rules.empty())
        out.push_back({kUnknownSuppressionRule, where, "suppression names no rule: write archscope: ignore[rule-id]"});
      for (size_t i = 0; i < s.rules.size(); ++i) {
        if (!checks::findRule(s.rules[i]))
          out.push_back({kUnknownSuppressionRule, where,
                         "suppression names unknown rule '" + s.rules[i] + "' (archscope lint --list-rules lists them)"});
        else if (!s.used[i])
          out.push_back({kUnusedSuppression, where,
                         "suppression of '" + s.rules[i] + "' matches no finding; remove it"});
      }
    }
  return out;
}

size_t Suppressions::size() const {
  size_t n = 0;
  for (const auto &[file, list] : byFile_) n += list.size();
  return n;
}

} // namespace archscope::lint
