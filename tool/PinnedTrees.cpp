//===--- PinnedTrees.cpp - a --with checkout at the version the engine pins ===//
// SPDX-License-Identifier: Apache-2.0
#include "tool/PinnedTrees.h"

#include "model/Errors.h"
#include "tool/diff/GitCheckout.h"

#include <filesystem>
#include <optional>
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

/// `name = "flashinfer-python"` of a pyproject.toml's text.
std::string distributionIn(const std::string &pyproject) {
  static const std::regex name(R"re((?:^|\n)name\s*=\s*["']([A-Za-z0-9_.-]+)["'])re");
  std::smatch m;
  return std::regex_search(pyproject, m, name) ? m[1].str() : "";
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

/// The profile's pin for a dependency named `folder`, else the engine's pin
/// of its distribution `dist`.
PinnedVersion pinFor(const std::string &engineRoot, const std::string &folder, const std::string &dist,
                     const Profile &profile) {
  for (const auto &p : profile.pins) {
    if (folder.find(p.name) == std::string::npos) continue;
    std::smatch m;
    std::string text = readText(fs::path(engineRoot) / p.file);
    if (std::regex_search(text, m, std::regex(p.pattern))) return {m[1], p.file};
  }
  return dist.empty() ? PinnedVersion{} : pinOf(dist, engineRoot, pinFiles(engineRoot));
}

/// The pinned version's tag (vV or V) in `repo`; none when it has neither.
std::optional<diff::Revision> tagOf(const diff::GitRepo &repo, const std::string &version) {
  for (const std::string &name : {"v" + version, version}) {
    try {
      diff::Revision tag = diff::resolveRevision(repo, name);
      tag.spelled = name;
      return tag;
    } catch (const ArchscopeError &) {
    }
  }
  return std::nullopt;
}

/// What to read of a --with repository: a revision to copy out (no commit:
/// the checkout as it is) and the note that says so (none: nothing to say).
struct PinnedRead {
  diff::Revision rev;
  std::string note;
};

PinnedRead revisionToRead(const diff::GitRepo &repo, const std::string &version) {
  diff::Revision head = diff::resolveRevision(repo, "HEAD");
  if (auto tag = version.empty() ? std::nullopt : tagOf(repo, version)) {
    if (tag->commit == head.commit && !repo.bare) return {};
    return {*tag, ": read at " + tag->spelled + " (" + tag->shortCommit() + "), the version the engine pins" +
                      (repo.bare ? "" : ", not at the checkout's HEAD")};
  }
  std::string missing = version.empty() ? ""
                                        : ": the engine pins " + version + ", and the " +
                                              (repo.bare ? "repository" : "checkout") + " has no tag v" +
                                              version + " or " + version;
  if (!repo.bare) return {{}, missing.empty() ? "" : missing + "; read as it is"};
  head.spelled = "HEAD"; // a bare repository has no files but its revisions'
  return {head, (missing.empty() ? ": a bare repository" : missing) + "; read at its HEAD (" +
                    head.shortCommit() + ")"};
}

PinnedVersion pinnedVersion(const std::string &engineRoot, const std::string &dependency,
                            const Profile &profile) {
  return pinFor(engineRoot, fs::path(dependency).filename().string(),
                distributionIn(readText(fs::path(dependency) / "pyproject.toml")), profile);
}

std::vector<std::string> treesAtPins(const std::vector<std::string> &withPaths, const std::string &engineRoot,
                                     const Profile &profile, std::vector<std::string> &notes) {
  std::vector<std::string> out;
  for (const auto &path : withPaths) {
    out.push_back(path);
    if (!diff::isRepositoryTop(path)) continue; // an installed package, or a plain folder
    try {
      diff::GitRepo repo = diff::findRepository(path);
      std::string version = pinnedVersion(engineRoot, path, profile).version;
      if (repo.bare) { // no files: its distribution names it (a mirror is often just "repo.git")
        diff::Revision head = diff::resolveRevision(repo, "HEAD");
        std::string dist = distributionIn(diff::fileAt(repo, head, "pyproject.toml"));
        if (!dist.empty()) repo.name = dist;
        version = pinFor(engineRoot, repo.name, dist, profile).version;
      }
      PinnedRead read = revisionToRead(repo, version);
      if (!read.note.empty()) notes.push_back(repo.name + read.note);
      if (read.rev.commit.empty()) continue; // the checkout as it is
      std::string at = version.empty() || read.rev.spelled == "HEAD" ? read.rev.shortCommit() : version;
      std::string dest =
          diff::runTempDir("archscope-pin-" + std::to_string(getuid()) + "-" + read.rev.shortCommit()) + "/" +
          repo.name + "@" + at;
      diff::extractRevision(repo, read.rev, dest);
      out.back() = (fs::path(dest) / repo.prefix).lexically_normal().string();
      if (out.back().size() > 1 && out.back().back() == '/') out.back().pop_back();
    } catch (const ArchscopeError &) { // not a git repository after all, or git missing: as given
    }
  }
  return out;
}

} // namespace archscope
