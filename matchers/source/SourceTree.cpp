//===--- SourceTree.cpp - scanning and reading tree files ----------------===//
// SPDX-License-Identifier: Apache-2.0
#include "matchers/source/SourceTree.h"

#include "model/Errors.h"

#include <llvm/Support/ConvertUTF.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <cctype>
#include <filesystem>
#include <set>

namespace fs = std::filesystem;

namespace archscope {
namespace {

/// Folders that hold no dispatch code of the engine itself.
const std::set<std::string> kSkippedDirs = {
    ".git", ".hg", "node_modules", "__pycache__", ".tox", ".venv", "venv", "build",
    "dist", "3rdparty", "third_party", "thirdparty", "docs", "docs_new", "benchmark",
    "benchmarks", "tests", "test", "examples", ".mypy_cache", ".pytest_cache", "site-packages-cache"};

bool isIdentifier(const std::string &s) {
  if (s.empty() || std::isdigit(static_cast<unsigned char>(s[0]))) return false;
  return std::all_of(s.begin(), s.end(), [](unsigned char c) { return std::isalnum(c) || c == '_'; });
}

/// `rel` ("a/b/c.py") as dotted parts ([] for a root __init__.py), or
/// nullopt if a part is no identifier (such a file cannot be imported).
std::optional<std::vector<std::string>> dottedParts(const std::string &rel) {
  std::vector<std::string> parts;
  size_t start = 0;
  while (start <= rel.size()) {
    size_t slash = rel.find('/', start);
    if (slash == std::string::npos) slash = rel.size();
    parts.push_back(rel.substr(start, slash - start));
    start = slash + 1;
  }
  auto &last = parts.back();
  if (last.size() > 3 && last.ends_with(".py")) last.resize(last.size() - 3);
  if (last == "__init__") parts.pop_back();
  for (const auto &p : parts)
    if (!isIdentifier(p)) return std::nullopt;
  return parts;
}

std::string join(const std::vector<std::string> &parts, size_t from = 0) {
  std::string name;
  for (size_t i = from; i < parts.size(); ++i) name += (name.empty() ? "" : ".") + parts[i];
  return name;
}

} // namespace

/// Names a file's module two ways: relative to an import root (the tree, or
/// its python/ or src/ folder), which covers namespace packages, and by the
/// chain of folders holding __init__.py; both resolve.
void SourceTree::nameModules(const std::set<std::string> &packageDirs) {
  std::error_code ec;
  std::vector<std::string> roots;
  for (const char *sub : {"python/", "src/"})
    if (fs::is_directory(root_ + "/" + sub, ec)) roots.push_back(sub);
  // Pointed at a package folder itself (site-packages/sglang): its modules
  // are named from its parent, as Python imports them.
  std::string prefix = packageDirs.count("") ? fs::path(root_).filename().string() : "";
  for (auto &f : files_) {
    std::string rel = f.relPath;
    for (const auto &r : roots)
      if (rel.rfind(r, 0) == 0) { rel = rel.substr(r.size()); break; }
    f.isPackageInit = f.relPath.ends_with("__init__.py");
    auto byRoot = dottedParts(rel);
    if (byRoot) {
      f.module = join(*byRoot);
      if (!prefix.empty()) f.module = f.module.empty() ? prefix : prefix + "." + f.module;
    }
    // The __init__ chain: the longest suffix of folders that are packages.
    auto chainParts = dottedParts(f.relPath);
    if (!chainParts || chainParts->empty()) continue;
    const auto &parts = *chainParts;
    size_t dirs = parts.size() - (f.isPackageInit ? 0 : 1);
    size_t first = dirs;
    std::string dir;
    std::vector<std::string> prefixes;
    for (size_t i = 0; i < dirs; ++i) prefixes.push_back(dir += (i ? "/" : "") + parts[i]);
    while (first > 0 && packageDirs.count(prefixes[first - 1])) --first;
    std::string chain = join(parts, first);
    if (!prefix.empty() && first == 0) chain = chain.empty() ? prefix : prefix + "." + chain;
    if (f.module.empty()) f.module = chain;
    else if (chain != f.module && !chain.empty()) f.alias = chain;
  }
}

namespace {
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
  std::set<std::string> packageDirs; // folders (relative) holding __init__.py
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
    f.relPath = f.path.substr(tree.root_.size() + 1);
    if (name == "__init__.py") {
      auto slash = f.relPath.rfind('/');
      packageDirs.insert(slash == std::string::npos ? "" : f.relPath.substr(0, slash));
    }
    tree.files_.push_back(std::move(f));
  }
  tree.nameModules(packageDirs);
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

namespace {

/// Whether `text` is valid UTF-8. Source is mostly ASCII: eight bytes at a
/// time are skipped while no high bit is set, and only the multi-byte
/// sequences are validated.
bool isUtf8(const std::string &text) {
  const auto *p = reinterpret_cast<const llvm::UTF8 *>(text.data());
  const auto *end = p + text.size();
  while (p < end) {
    std::uint64_t word;
    if (end - p >= 8 && (std::memcpy(&word, p, 8), (word & 0x8080808080808080ull) == 0)) {
      p += 8;
      continue;
    }
    if (*p < 0x80) {
      ++p;
      continue;
    }
    unsigned length = llvm::getNumBytesForUTF8(*p);
    if (length > unsigned(end - p) || !llvm::isLegalUTF8Sequence(p, p + length)) return false;
    p += length;
  }
  return true;
}

std::optional<std::string> readChecked(const SourceFile &file, std::vector<std::string> &warnings) {
  std::error_code ec;
  auto size = fs::file_size(file.path, ec);
  if (ec) {
    warnings.push_back(file.path + ": skipped: cannot read (" + ec.message() + ")");
    return std::nullopt;
  }
  if (size > SourceTree::kMaxFileBytes) {
    warnings.push_back(file.path + ": skipped: " + std::to_string(size) + " bytes is larger than the " +
                       std::to_string(SourceTree::kMaxFileBytes) + "-byte limit");
    return std::nullopt;
  }
  std::string text(size, '\0');
  std::FILE *in = std::fopen(file.path.c_str(), "rb");
  if (!in) {
    warnings.push_back(file.path + ": skipped: cannot open for reading");
    return std::nullopt;
  }
  text.resize(std::fread(text.data(), 1, size, in));
  std::fclose(in);
  if (text.find('\0') != std::string::npos) {
    warnings.push_back(file.path + ": skipped: binary file (contains NUL bytes)");
    return std::nullopt;
  }
  if (!isUtf8(text)) {
    warnings.push_back(file.path + ": skipped: not valid UTF-8");
    return std::nullopt;
  }
  return text;
}

} // namespace

const std::string *SourceTree::read(const SourceFile &file) const {
  {
    std::lock_guard<std::mutex> lock(*textsMutex_);
    if (auto it = texts_.find(file.path); it != texts_.end()) return it->second ? &*it->second : nullptr;
  }
  std::vector<std::string> warnings;
  auto text = readChecked(file, warnings); // outside the lock: reads run in parallel
  std::lock_guard<std::mutex> lock(*textsMutex_);
  auto [it, inserted] = texts_.emplace(file.path, std::move(text));
  if (inserted) warnings_.insert(warnings_.end(), warnings.begin(), warnings.end());
  return it->second ? &*it->second : nullptr;
}

std::vector<std::string> SourceTree::warnings() const {
  std::lock_guard<std::mutex> lock(*textsMutex_);
  return warnings_;
}

} // namespace archscope
