//===--- Fingerprint.cpp - line-independent identity of a finding --------===//
// SPDX-License-Identifier: Apache-2.0
#include "tool/lint/Fingerprint.h"

#include "tool/lint/CommentSyntax.h"

#include <llvm/ADT/StringExtras.h>
#include <llvm/Support/SHA256.h>

#include <filesystem>
#include <map>

namespace fs = std::filesystem;

namespace archscope::lint {
namespace {

fs::path absoluteNormal(const std::string &p) {
  std::error_code ec;
  fs::path abs = fs::absolute(p, ec);
  return (ec ? fs::path(p) : abs).lexically_normal();
}

/// `path` relative to `base` when inside it.
std::optional<std::string> relativeInside(const fs::path &path, const fs::path &base) {
  fs::path rel = path.lexically_relative(base);
  if (rel.empty() || *rel.begin() == "..") return std::nullopt;
  return rel.generic_string();
}

std::string withoutTrailingSlash(fs::path p) {
  std::string s = p.string();
  while (s.size() > 1 && s.back() == '/') s.pop_back();
  return s;
}

} // namespace

std::string sourceRootOf(const std::string &auditedRoot) {
  fs::path start = absoluteNormal(auditedRoot);
  std::error_code ec;
  if (fs::is_regular_file(start, ec)) start = start.parent_path();
  for (fs::path dir = start;; dir = dir.parent_path()) {
    if (fs::exists(dir / ".git", ec)) return withoutTrailingSlash(dir);
    if (dir == dir.root_path() || dir.parent_path() == dir) break;
  }
  return withoutTrailingSlash(start);
}

std::string portablePath(const std::string &path, const std::string &sourceRoot,
                         const std::vector<std::string> &roots) {
  fs::path abs = absoluteNormal(path);
  if (auto rel = relativeInside(abs, fs::path(sourceRoot))) return *rel;
  for (const auto &root : roots) {
    fs::path r = fs::path(withoutTrailingSlash(absoluteNormal(root)));
    if (relativeInside(abs, r)) return *relativeInside(abs, r.parent_path());
  }
  return abs.generic_string();
}

std::string normalizedSnippet(const std::string &snippet, const std::string &path) {
  std::string code = snippet.substr(0, commentStart(snippet, commentStyleOf(path)));
  std::string out;
  for (char c : code) {
    bool space = c == ' ' || c == '\t' || c == '\n' || c == '\r';
    if (space) {
      if (!out.empty() && out.back() != ' ') out += ' ';
    } else {
      out += c;
    }
  }
  while (!out.empty() && out.back() == ' ') out.pop_back();
  return out;
}

std::vector<std::string> fingerprintsOf(const std::vector<Finding> &findings, const std::string &sourceRoot,
                                        const std::vector<std::string> &roots) {
  std::vector<std::string> out;
  std::map<std::string, int> seen;
  for (const auto &f : findings) {
    std::string file = f.primary.path.empty() ? "" : portablePath(f.primary.path, sourceRoot, roots);
    // Without a snippet the message is all that tells two findings apart.
    std::string text = f.primary.snippet.empty() ? f.message : normalizedSnippet(f.primary.snippet, f.primary.path);
    std::string key = f.rule + '\0' + file + '\0' + f.backend + '\0' + text;
    auto digest = llvm::SHA256::hash(llvm::arrayRefFromStringRef(key));
    std::string hex = llvm::toHex(llvm::ArrayRef<uint8_t>(digest.data(), 8), /*LowerCase=*/true);
    out.push_back(hex + ":" + std::to_string(++seen[hex]));
  }
  return out;
}

} // namespace archscope::lint
