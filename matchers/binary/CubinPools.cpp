//===--- CubinPools.cpp - cubin folders matched, their targets by name ---===//
// SPDX-License-Identifier: Apache-2.0
#include "matchers/binary/CubinPools.h"

#include <fnmatch.h>

#include <filesystem>
#include <regex>
#include <sstream>

namespace archscope::binary {
namespace fs = std::filesystem;
namespace {

/// Folders under `base` matching the glob's components from `i` on, one
/// component (`*`, `batched_gemm-*`) per level.
void expand(const fs::path &base, const std::vector<std::string> &parts, size_t i, std::vector<std::string> &out) {
  std::error_code ec;
  if (i == parts.size()) {
    if (fs::is_directory(base, ec)) out.push_back(base.string());
    return;
  }
  bool wild = parts[i].find_first_of("*?[") != std::string::npos;
  if (!wild) return expand(base / parts[i], parts, i + 1, out);
  for (auto it = fs::directory_iterator(base, fs::directory_options::skip_permission_denied, ec);
       !ec && it != fs::directory_iterator(); it.increment(ec))
    if (it->is_directory(ec) && fnmatch(parts[i].c_str(), it->path().filename().c_str(), 0) == 0)
      expand(it->path(), parts, i + 1, out);
}

std::vector<std::string> components(const std::string &glob) {
  std::vector<std::string> out;
  std::stringstream ss(glob);
  for (std::string part; std::getline(ss, part, '/');)
    if (!part.empty()) out.push_back(part);
  return out;
}

} // namespace

std::optional<Target> cubinTarget(const std::string &fileName) {
  static const std::regex named(R"((?:^|[_.-])[sS][mM]_?(\d{2,3})([af]?)\.cubin$)");
  std::smatch m;
  if (!std::regex_search(fileName, m, named)) return std::nullopt;
  return Target::parse("sm_" + m[1].str() + m[2].str());
}

bool CubinPool::runsOn(ComputeCapability gpu) const {
  for (const auto &[name, n] : byTarget)
    if (auto t = Target::parse(name); t && t->runsOn(gpu)) return true;
  return false;
}

std::string CubinPool::targetsText() const {
  std::string out;
  for (const auto &[name, n] : byTarget) out += (out.empty() ? "" : ", ") + std::to_string(n) + " " + name;
  if (unnamed) out += (out.empty() ? "" : ", ") + std::to_string(unnamed) + " without a target in the name";
  return out;
}

namespace {

/// The cubins directly in the pool's folders, counted by the target each
/// file name carries.
void countCubins(CubinPool &pool) {
  for (const auto &dir : pool.dirs) {
    std::error_code ec;
    for (auto it = fs::directory_iterator(dir, ec); !ec && it != fs::directory_iterator(); it.increment(ec)) {
      std::string name = it->path().filename().string();
      if (!it->is_regular_file(ec) || it->path().extension() != ".cubin") continue;
      ++pool.cubins;
      if (auto t = cubinTarget(name)) ++pool.byTarget[t->name()];
      else ++pool.unnamed;
    }
  }
}

} // namespace

std::vector<CubinPool> readCubinPools(const std::vector<std::string> &roots,
                                      const std::map<std::string, std::vector<std::string>> &globs) {
  std::vector<CubinPool> out;
  for (const auto &[backend, patterns] : globs)
    for (const auto &pattern : patterns) {
      CubinPool pool{backend, pattern, {}, 0, {}, 0};
      for (const auto &root : roots) expand(fs::path(root), components(pattern), 0, pool.dirs);
      countCubins(pool);
      if (!pool.dirs.empty()) out.push_back(std::move(pool));
    }
  return out;
}

std::vector<CubinPool> readArtifactPools(const std::vector<std::string> &roots,
                                         const std::map<std::string, std::vector<std::string>> &artifacts) {
  std::vector<CubinPool> out;
  if (artifacts.empty()) return out;
  std::map<std::string, std::vector<std::string>> dirsOf; // artifact -> folders ending with it
  for (const auto &root : roots) {
    std::error_code ec;
    for (auto it = fs::recursive_directory_iterator(root, fs::directory_options::skip_permission_denied, ec);
         !ec && it != fs::recursive_directory_iterator(); it.increment(ec)) {
      if (!it->is_directory(ec)) continue;
      if (it->path().filename().string().rfind('.', 0) == 0) { // .git and the like hold no package
        it.disable_recursion_pending();
        continue;
      }
      std::string dir = it->path().string();
      for (const auto &[owner, paths] : artifacts)
        for (const auto &a : paths)
          if (dir.size() > a.size() && dir.compare(dir.size() - a.size(), a.size(), a) == 0 &&
              dir[dir.size() - a.size() - 1] == '/')
            dirsOf[a].push_back(dir);
    }
  }
  for (const auto &[owner, paths] : artifacts)
    for (const auto &a : paths) {
      auto found = dirsOf.find(a);
      if (found == dirsOf.end()) continue;
      CubinPool pool{owner, a, found->second, 0, {}, 0};
      countCubins(pool);
      if (pool.cubins) out.push_back(std::move(pool));
    }
  return out;
}

} // namespace archscope::binary
