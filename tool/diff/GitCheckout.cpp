//===--- GitCheckout.cpp - the files of a tree at one revision ------------===//
// SPDX-License-Identifier: Apache-2.0
#include "tool/diff/GitCheckout.h"

#include "model/Errors.h"

#include <llvm/ADT/SmallString.h>
#include <llvm/Support/FileSystem.h>
#include <llvm/Support/MemoryBuffer.h>
#include <llvm/Support/Path.h>
#include <llvm/Support/Program.h>

#include <filesystem>
#include <memory>
#include <optional>
#include <vector>

namespace fs = std::filesystem;

namespace archscope::diff {
namespace {

struct ProgramResult {
  int status = -1;
  std::string out, err;
};

std::string readAndRemove(const llvm::SmallString<128> &path) {
  auto buffer = llvm::MemoryBuffer::getFile(path);
  llvm::sys::fs::remove(path);
  return buffer ? (*buffer)->getBuffer().rtrim().str() : "";
}

/// Runs `program` without a shell, so no revision or path is ever
/// interpreted; throws an input error when the program is not installed.
ProgramResult runProgram(const std::string &program, const std::vector<std::string> &args) {
  auto found = llvm::sys::findProgramByName(program);
  if (!found)
    throw inputError("archscope diff needs " + program + " on the PATH", "install it (apt-get install " + program + ")");
  llvm::SmallString<128> out, err;
  if (llvm::sys::fs::createTemporaryFile("archscope-diff", "out", out) ||
      llvm::sys::fs::createTemporaryFile("archscope-diff", "err", err))
    throw inputError("cannot create a temporary file", "check $TMPDIR is writable");
  std::vector<llvm::StringRef> argv{*found};
  for (const auto &a : args) argv.push_back(a);
  std::optional<llvm::StringRef> redirects[] = {llvm::StringRef(""), out.str(), err.str()};
  ProgramResult r;
  r.status = llvm::sys::ExecuteAndWait(*found, argv, std::nullopt, redirects);
  r.out = readAndRemove(out);
  r.err = readAndRemove(err);
  return r;
}

ProgramResult git(const std::string &dir, std::vector<std::string> args) {
  args.insert(args.begin(), {"-C", dir});
  return runProgram("git", args);
}

/// git's own first line ("fatal: not a git repository ..."), for hints.
std::string firstLine(const std::string &text) { return text.substr(0, text.find('\n')); }

/// "sglang" for /mirrors/sglang.git.
std::string bareName(const std::string &gitDir) {
  std::string name = fs::path(gitDir).filename().string();
  if (name.size() > 4 && name.compare(name.size() - 4, 4, ".git") == 0) name.resize(name.size() - 4);
  return name;
}

} // namespace

GitRepo findRepository(const std::string &path) {
  std::error_code ec;
  fs::path dir = fs::absolute(path, ec).lexically_normal();
  if (!fs::exists(dir, ec)) throw inputError("no such file or folder: '" + path + "'");
  if (!fs::is_directory(dir, ec))
    throw inputError("'" + path + "' is a file, not a folder", "give the engine's folder inside the repository");
  auto top = git(dir.string(), {"rev-parse", "--show-toplevel"});
  if (top.status != 0) {
    auto bare = git(dir.string(), {"rev-parse", "--is-bare-repository"});
    auto gitDir = git(dir.string(), {"rev-parse", "--absolute-git-dir"});
    if (bare.status == 0 && bare.out == "true" && gitDir.status == 0 && !gitDir.out.empty())
      return {gitDir.out, "", bareName(gitDir.out), true};
    throw inputError("'" + path + "' is not inside a git repository's work tree (" + firstLine(top.err) + ")",
                     "diff compares two revisions of a git checkout or a bare repository: give a folder of "
                     "one");
  }
  auto prefix = git(dir.string(), {"rev-parse", "--show-prefix"});
  if (prefix.status != 0) throw inputError("git rev-parse --show-prefix failed in '" + path + "': " + prefix.err);
  return {top.out, prefix.out, fs::path(top.out).filename().string()};
}

bool isRepositoryTop(const std::string &path) {
  std::error_code ec;
  fs::path dir(path);
  if (fs::exists(dir / ".git", ec)) return true;
  // A bare repository's own files; git confirms it in findRepository.
  return fs::is_regular_file(dir / "HEAD", ec) && fs::is_directory(dir / "objects", ec) &&
         fs::is_directory(dir / "refs", ec);
}

Revision resolveRevision(const GitRepo &repo, const std::string &spelled) {
  if (spelled.empty() || spelled[0] == '-')
    throw usageError("bad revision '" + spelled + "'", "give a commit, tag or branch, e.g. HEAD~1");
  auto r = git(repo.root, {"rev-parse", "--verify", "--quiet", "--end-of-options", spelled + "^{commit}"});
  if (r.status != 0 || r.out.empty())
    throw usageError("unknown revision '" + spelled + "' in " + repo.root,
                     "give a commit, tag or branch of that repository (git log --oneline shows them)");
  return {spelled, r.out};
}

std::string fileAt(const GitRepo &repo, const Revision &rev, const std::string &file) {
  auto r = git(repo.root, {"show", rev.commit + ":" + file});
  return r.status == 0 ? r.out : "";
}

TempDir::TempDir(const std::string &stable) {
  llvm::SmallString<128> dir;
  llvm::sys::path::system_temp_directory(/*ErasedOnReboot=*/true, dir);
  llvm::sys::path::append(dir, stable);
  std::error_code ec;
  if (fs::create_directory(dir.str().str(), ec)) { // atomic: a concurrent run gets false
    path_ = dir.str().str();
    return;
  }
  if (llvm::sys::fs::createUniqueDirectory(stable, dir))
    throw inputError("cannot create a temporary folder", "check $TMPDIR is writable");
  path_ = dir.str().str();
}

TempDir::~TempDir() {
  std::error_code ec;
  fs::remove_all(path_, ec);
}

namespace {
std::vector<std::unique_ptr<TempDir>> &runTempDirs() {
  static std::vector<std::unique_ptr<TempDir>> dirs;
  return dirs;
}
} // namespace

const std::string &runTempDir(const std::string &stable) {
  return runTempDirs().emplace_back(std::make_unique<TempDir>(stable))->path();
}

void removeRunTempDirs() { runTempDirs().clear(); }

void extractRevision(const GitRepo &repo, const Revision &rev, const std::string &dest) {
  std::string tar = dest + ".tar";
  std::vector<std::string> args{"archive", "--format=tar", "-o", tar, rev.commit};
  if (!repo.prefix.empty()) args.insert(args.end(), {"--", repo.prefix});
  auto archived = git(repo.root, args);
  std::error_code ec;
  if (archived.status != 0) {
    fs::remove(tar, ec);
    if (!repo.prefix.empty() && archived.err.find("did not match") != std::string::npos)
      throw inputError("'" + repo.prefix + "' does not exist at " + rev.spelled + " (" + rev.shortCommit() + ")",
                       "the folder must be tracked by git at both revisions");
    throw inputError("git archive " + rev.spelled + " failed: " + firstLine(archived.err));
  }
  fs::create_directories(dest, ec);
  auto extracted = runProgram("tar", {"-xf", tar, "-C", dest});
  fs::remove(tar, ec);
  if (extracted.status != 0)
    throw inputError("cannot unpack " + rev.spelled + " into " + dest + ": " + firstLine(extracted.err),
                     "check the free space of $TMPDIR");
}

} // namespace archscope::diff
