//===--- DiffBase.cpp - `lint --diff-base REV`: only what a change adds ---===//
// SPDX-License-Identifier: Apache-2.0
#include "tool/lint/DiffBase.h"

#include "model/Errors.h"
#include "tool/lint/LintRun.h"

#include <llvm/ADT/SmallString.h>
#include <llvm/Support/FileSystem.h>
#include <llvm/Support/MemoryBuffer.h>
#include <llvm/Support/Program.h>

#include <filesystem>

namespace fs = std::filesystem;

namespace archscope::lint {
namespace {

struct GitResult {
  int status = -1;
  std::string out, err;
};

std::string readAndRemove(const llvm::SmallString<128> &path) {
  auto buffer = llvm::MemoryBuffer::getFile(path);
  llvm::sys::fs::remove(path);
  return buffer ? (*buffer)->getBuffer().rtrim().str() : "";
}

/// Runs git without a shell, so no argument is ever interpreted.
GitResult git(const std::vector<std::string> &args) {
  auto program = llvm::sys::findProgramByName("git");
  if (!program) throw usageError("--diff-base needs git on the PATH", "install git");
  llvm::SmallString<128> out, err;
  llvm::sys::fs::createTemporaryFile("archscope-git", "out", out);
  llvm::sys::fs::createTemporaryFile("archscope-git", "err", err);
  std::vector<llvm::StringRef> argv{*program};
  for (const auto &a : args) argv.push_back(a);
  std::optional<llvm::StringRef> redirects[] = {llvm::StringRef(""), out.str(), err.str()};
  GitResult r;
  r.status = llvm::sys::ExecuteAndWait(*program, argv, std::nullopt, redirects);
  r.out = readAndRemove(out);
  r.err = readAndRemove(err);
  return r;
}

/// Removes the temporary worktree however the base run ends.
class Worktree {
public:
  Worktree(std::string repo, const std::string &rev) : repo_(std::move(repo)) {
    llvm::SmallString<128> dir;
    if (llvm::sys::fs::createUniqueDirectory("archscope-diff-base", dir))
      throw inputError("cannot create a temporary folder for --diff-base", "check $TMPDIR");
    tmp_ = dir.str().str();
    path_ = tmp_ + "/tree";
    auto r = git({"-C", repo_, "worktree", "add", "--detach", "--quiet", path_, rev});
    if (r.status != 0) {
      fs::remove_all(tmp_);
      throw inputError("git worktree add " + rev + " failed: " + r.err, "check the revision and the repository");
    }
  }
  ~Worktree() {
    git({"-C", repo_, "worktree", "remove", "--force", path_});
    std::error_code ec;
    fs::remove_all(tmp_, ec);
  }
  const std::string &path() const { return path_; }

private:
  std::string repo_, tmp_, path_;
};

} // namespace

std::set<std::string> fingerprintsAt(const Options &opts, const LintConfig &config, const std::string &rev) {
  if (opts.path.empty()) throw usageError("--diff-base needs a PATH inside a git work tree");
  std::error_code ec;
  fs::path audited = fs::absolute(opts.path, ec).lexically_normal();
  fs::path dir = fs::is_directory(audited, ec) ? audited : audited.parent_path();
  auto top = git({"-C", dir.string(), "rev-parse", "--show-toplevel"});
  if (top.status != 0) throw usageError("--diff-base: '" + opts.path + "' is not in a git work tree", top.err);
  if (git({"-C", top.out, "rev-parse", "--verify", "--quiet", rev + "^{commit}"}).status != 0)
    throw usageError("--diff-base: '" + rev + "' is not a commit of " + top.out, "e.g. --diff-base origin/main");

  Worktree base(top.out, rev);
  Options at = opts;
  fs::path relative = fs::weakly_canonical(audited, ec).lexically_relative(fs::weakly_canonical(top.out, ec));
  at.path = (fs::path(base.path()) / relative).lexically_normal().string();
  at.quiet = true;
  std::error_code exists;
  if (!fs::exists(at.path, exists)) return {}; // the path is new since REV: everything in it is new
  LintReport report = buildReport(collectFindings(at), config);
  return {report.fingerprints.begin(), report.fingerprints.end()};
}

} // namespace archscope::lint
