//===--- SourceTree.cpp - scanning and reading tree files ----------------===//
// SPDX-License-Identifier: Apache-2.0
#include "matchers/source/SourceTree.h"

#include "model/Errors.h"

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

namespace fs = std::filesystem;

namespace archscope {
namespace {

/// Folders that hold no dispatch code of the engine itself.
const std::set<std::string> kSkippedDirs = {
    ".git", ".hg", "node_modules", "__pycache__", ".tox", ".venv", "venv", "build",
    "dist", "3rdparty", "third_party", "thirdparty", "docs", "docs_new", "benchmark",
    "benchmarks", "tests", "test", "examples", ".mypy_cache", ".pytest_cache", "site-packages-cache"};

bool validUtf8(const std::string &s) {
  size_t i = 0, n = s.size();
  while (i < n) {
    unsigned char c = s[i];
    int len = c < 0x80 ? 1 : (c >> 5) == 6 ? 2 : (c >> 4) == 14 ? 3 : (c >> 3) == 30 ? 4 : 0;
    if (!len || i + len > n) return false;
    for (int k = 1; k < len; ++k)
      if ((static_cast<unsigned char>(s[i + k]) >> 6) != 2) return false;
    i += len;
  }
  return true;
}

/// Dotted name by the chain of folders holding __init__.py.
std::string initChainName(const fs::path &root, const fs::path &file, bool &isInit) {
  std::vector<std::string> parts;
  isInit = file.filename() == "__init__.py";
  if (!isInit) parts.push_back(file.stem().string());
  fs::path dir = file.parent_path();
  std::error_code ec;
  while (fs::exists(dir / "__init__.py", ec)) {
    parts.push_back(dir.filename().string());
    if (dir == root) break;
    dir = dir.parent_path();
  }
  std::string name;
  for (auto it = parts.rbegin(); it != parts.rend(); ++it) name += (name.empty() ? "" : ".") + *it;
  return name;
}

bool isIdentifier(const std::string &s) {
  if (s.empty() || std::isdigit(static_cast<unsigned char>(s[0]))) return false;
  return std::all_of(s.begin(), s.end(), [](unsigned char c) { return std::isalnum(c) || c == '_'; });
}

/// Dotted name relative to an import root (the tree, or its python/ or src/
/// folder), which also covers namespace packages without __init__.py.
std::string rootRelativeName(const fs::path &root, const fs::path &file) {
  std::error_code ec;
  fs::path base = root;
  for (const char *sub : {"python", "src"})
    if (fs::is_directory(root / sub, ec) && file.string().rfind((root / sub).string() + "/", 0) == 0)
      base = root / sub;
  fs::path rel = fs::relative(file, base, ec);
  std::vector<std::string> parts;
  for (const auto &p : rel) parts.push_back(p.string());
  if (parts.empty()) return "";
  parts.back() = fs::path(parts.back()).stem().string();
  if (parts.back() == "__init__") parts.pop_back();
  std::string name;
  for (const auto &p : parts) {
    if (!isIdentifier(p)) return "";
    name += (name.empty() ? "" : ".") + p;
  }
  return name;
}

} // namespace

SourceTree SourceTree::scan(const std::string &rootArg, const std::string &role) {
  std::error_code ec;
  fs::path root = fs::absolute(rootArg, ec);
  auto status = fs::status(root, ec);
  if (ec || !fs::exists(status)) {
    if (fs::is_symlink(fs::symlink_status(root, ec)))
      throw inputError("'" + rootArg + "' is a broken or looping symbolic link",
                       "point archscope at the real folder");
    throw inputError("no such file or folder: '" + rootArg + "'", "check the path");
  }
  if (!fs::is_directory(status))
    throw inputError("'" + rootArg + "' is a file, not a folder",
                     "give the root of an engine checkout or a site-packages folder");
  SourceTree tree;
  tree.root_ = fs::canonical(root, ec).string();
  tree.role_ = role;
  fs::recursive_directory_iterator it(tree.root_, fs::directory_options::skip_permission_denied, ec);
  if (ec) throw inputError("cannot read folder '" + rootArg + "': " + ec.message(), "check its permissions");
  for (auto end = fs::recursive_directory_iterator(); it != end; it.increment(ec)) {
    if (ec) {
      tree.warnings_.push_back(it->path().string() + ": skipped: " + ec.message());
      ec.clear();
      continue;
    }
    const auto &entry = *it;
    auto name = entry.path().filename().string();
    if (entry.is_directory(ec) && !entry.is_symlink(ec)) {
      if (kSkippedDirs.count(name) || (name.size() > 1 && name[0] == '.') ||
          name.ends_with(".dist-info") || name.ends_with(".egg-info"))
        it.disable_recursion_pending();
      continue;
    }
    if (entry.path().extension() != ".py" || !entry.is_regular_file(ec)) continue;
    SourceFile f;
    f.path = entry.path().string();
    f.relPath = fs::relative(entry.path(), tree.root_, ec).string();
    std::string chain = initChainName(tree.root_, entry.path(), f.isPackageInit);
    std::string byRoot = rootRelativeName(tree.root_, entry.path());
    f.module = byRoot.empty() ? chain : byRoot;
    if (chain != f.module) f.alias = chain;
    tree.files_.push_back(std::move(f));
  }
  std::sort(tree.files_.begin(), tree.files_.end(),
            [](const SourceFile &a, const SourceFile &b) { return a.relPath < b.relPath; });
  std::set<std::string> packages;
  for (size_t i = 0; i < tree.files_.size(); ++i) {
    const auto &f = tree.files_[i];
    tree.byRel_[f.relPath] = i;
    if (!f.alias.empty()) tree.byModule_.emplace(f.alias, i);
    if (f.module.empty()) continue;
    tree.byModule_[f.module] = i;
    if (f.isPackageInit && f.module.find('.') == std::string::npos) packages.insert(f.module);
  }
  tree.packages_.assign(packages.begin(), packages.end());
  return tree;
}

const SourceFile *SourceTree::byModule(const std::string &module) const {
  auto it = byModule_.find(module);
  return it == byModule_.end() ? nullptr : &files_[it->second];
}

const SourceFile *SourceTree::byRelPath(const std::string &rel) const {
  auto it = byRel_.find(rel);
  return it == byRel_.end() ? nullptr : &files_[it->second];
}

std::optional<std::string> SourceTree::read(const SourceFile &file,
                                            std::vector<std::string> &warnings) const {
  std::error_code ec;
  auto size = fs::file_size(file.path, ec);
  if (ec) {
    warnings.push_back(file.path + ": skipped: cannot read (" + ec.message() + ")");
    return std::nullopt;
  }
  if (size > kMaxFileBytes) {
    warnings.push_back(file.path + ": skipped: " + std::to_string(size) +
                       " bytes is larger than the " + std::to_string(kMaxFileBytes) + "-byte limit");
    return std::nullopt;
  }
  std::ifstream in(file.path, std::ios::binary);
  if (!in) {
    warnings.push_back(file.path + ": skipped: cannot open for reading");
    return std::nullopt;
  }
  std::stringstream buffer;
  buffer << in.rdbuf();
  std::string text = buffer.str();
  if (text.find('\0') != std::string::npos) {
    warnings.push_back(file.path + ": skipped: binary file (contains NUL bytes)");
    return std::nullopt;
  }
  if (!validUtf8(text)) {
    warnings.push_back(file.path + ": skipped: not valid UTF-8");
    return std::nullopt;
  }
  return text;
}

} // namespace archscope
