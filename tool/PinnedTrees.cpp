//===--- PinnedTrees.cpp - a --with checkout at the version the engine pins ===//
// SPDX-License-Identifier: Apache-2.0
#include "tool/PinnedTrees.h"

#include "model/Errors.h"
#include "tool/diff/GitCheckout.h"

#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>
#include <unistd.h>

namespace fs = std::filesystem;

namespace archscope {
namespace {

std::string readText(const fs::path &p) {
  std::ifstream in(p);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

/// `name = "flashinfer-python"` of the tree's own pyproject.toml.
std::string distributionName(const fs::path &tree) {
  static const std::regex name(R"re((?:^|\n)name\s*=\s*["']([A-Za-z0-9_.-]+)["'])re");
  std::smatch m;
  std::string text = readText(tree / "pyproject.toml");
  return std::regex_search(text, m, name) ? m[1].str() : "";
}

/// The files an engine pins its dependencies in.
std::vector<fs::path> pinFiles(const fs::path &engine) {
  std::vector<fs::path> out{engine / "pyproject.toml", engine / "python" / "pyproject.toml"};
  std::error_code ec;
  for (const auto &e : fs::directory_iterator(engine, ec)) // requirements*.txt
    if (e.path().extension() == ".txt" && e.path().filename().string().rfind("requirements", 0) == 0)
      out.push_back(e.path());
  for (const auto &e : fs::directory_iterator(engine / "requirements", ec)) // requirements/cuda.txt
    if (e.path().extension() == ".txt") out.push_back(e.path());
  return out;
}

/// Matches `dist==V` with `-`, `_` and `.` alike (PEP 503) and optional extras.
PinnedVersion pinOf(const std::string &dist, const fs::path &engine, const std::vector<fs::path> &files) {
  std::string pattern;
  for (char c : dist) pattern += c == '-' || c == '_' || c == '.' ? std::string("[-_.]") : std::string(1, c);
  std::regex pin(pattern + R"((?:\[[\w,]+\])?\s*==\s*([0-9][0-9A-Za-z.]*))", std::regex::icase);
  for (const auto &f : files) {
    std::smatch m;
    std::string text = readText(f);
    if (std::regex_search(text, m, pin)) return {m[1], f.lexically_relative(engine).string()};
  }
  return {};
}

} // namespace

PinnedVersion pinnedVersion(const std::string &engineRoot, const std::string &dependency, const Profile &profile) {
  std::string folder = fs::path(dependency).filename().string();
  for (const auto &p : profile.pins) {
    if (folder.find(p.name) == std::string::npos) continue;
    std::smatch m;
    std::string text = readText(fs::path(engineRoot) / p.file);
    if (std::regex_search(text, m, std::regex(p.pattern))) return {m[1], p.file};
  }
  std::string dist = distributionName(dependency);
  return dist.empty() ? PinnedVersion{} : pinOf(dist, engineRoot, pinFiles(engineRoot));
}

std::vector<std::string> treesAtPins(const std::vector<std::string> &withPaths, const std::string &engineRoot,
                                     const Profile &profile, std::vector<std::string> &notes) {
  std::vector<std::string> out;
  for (const auto &path : withPaths) {
    out.push_back(path);
    std::error_code ec;
    if (!fs::exists(fs::path(path) / ".git", ec)) continue; // a checkout's top, not an installed package
    std::string version = pinnedVersion(engineRoot, path, profile).version;
    if (version.empty()) continue;
    try {
      diff::GitRepo repo = diff::findRepository(path);
      diff::Revision head = diff::resolveRevision(repo, "HEAD"), tag;
      for (const std::string &name : {"v" + version, version}) {
        try {
          tag = diff::resolveRevision(repo, name);
          tag.spelled = name;
          break;
        } catch (const ArchscopeError &) {
        }
      }
      if (tag.commit.empty()) {
        notes.push_back(repo.name + ": the engine pins " + version + ", and the checkout has no tag v" + version +
                        " or " + version + "; read as it is");
        continue;
      }
      if (tag.commit == head.commit) continue;
      std::string dest = diff::runTempDir("archscope-pin-" + std::to_string(getuid()) + "-" + tag.shortCommit()) +
                         "/" + repo.name + "@" + version;
      diff::extractRevision(repo, tag, dest);
      out.back() = (fs::path(dest) / repo.prefix).lexically_normal().string();
      if (out.back().size() > 1 && out.back().back() == '/') out.back().pop_back();
      notes.push_back(repo.name + ": read at " + tag.spelled + " (" + tag.shortCommit() +
                      "), the version the engine pins, not at the checkout's HEAD");
    } catch (const ArchscopeError &) { // not a git work tree after all, or git missing: as given
    }
  }
  return out;
}

} // namespace archscope
