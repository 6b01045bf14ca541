//===--- SourceTree.h - the files of one checkout or package folder -----===//
// SPDX-License-Identifier: Apache-2.0
//
// Lists a tree's Python files once (no parsing), maps them to dotted module
// names through their package roots, and reads a file on demand with the
// checks every input needs: readable, not binary, valid UTF-8, not huge.
// Directory symlinks are never followed, so symlink loops cannot recurse.
//===----------------------------------------------------------------------===//
#pragma once
#include <cstddef>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace archscope {

struct SourceFile {
  std::string path;     ///< absolute
  std::string relPath;  ///< relative to the tree root
  std::string module;   ///< dotted module name ("" when outside any package)
  std::string alias;    ///< the same module named by its __init__.py chain, if different
  bool isPackageInit = false;
};

class SourceTree {
public:
  static constexpr std::size_t kMaxFileBytes = 4 << 20;

  /// Scans `root` (a folder). Throws an input error for a missing,
  /// unreadable or non-folder root.
  static SourceTree scan(const std::string &root, const std::string &role);

  const std::string &root() const { return root_; }
  const std::string &role() const { return role_; }
  const std::vector<SourceFile> &files() const { return files_; }
  const SourceFile *byModule(const std::string &module) const;
  const SourceFile *byRelPath(const std::string &rel) const;
  /// Top-level package names found in the tree (sglang, flashinfer, ...).
  const std::vector<std::string> &packages() const { return packages_; }
  /// Scan and read warnings so far.
  std::vector<std::string> warnings() const;

  /// A file's text, read once and cached (thread-safe); nullptr when it is
  /// unreadable, binary, not UTF-8 or larger than kMaxFileBytes, with a
  /// warning saying which (see warnings()).
  const std::string *read(const SourceFile &file) const;

private:
  void nameModules(const std::set<std::string> &packageDirs);
  std::string root_;
  std::string role_;
  std::vector<SourceFile> files_;
  std::map<std::string, size_t> byModule_, byRel_;
  std::vector<std::string> packages_;
  mutable std::vector<std::string> warnings_;
  mutable std::map<std::string, std::optional<std::string>> texts_; ///< by path
  mutable std::unique_ptr<std::mutex> textsMutex_ = std::make_unique<std::mutex>();
};

} // namespace archscope
