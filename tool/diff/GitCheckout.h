//===--- GitCheckout.h - the files of a tree at one revision --------------===//
// SPDX-License-Identifier: Apache-2.0
//
// `archscope diff` audits the same folder at two revisions. Each revision's
// files are copied out with `git archive` into a temporary folder: the user's
// checkout, its index and its worktree list are never touched, and only the
// audited folder is copied, not the whole repository.
//===----------------------------------------------------------------------===//
#pragma once
#include <string>

namespace archscope::diff {

/// The repository that holds an audited folder.
struct GitRepo {
  std::string root;   ///< absolute top of the work tree, or the bare repository's folder
  std::string prefix; ///< the audited folder inside it ("python/", "" for the top)
  std::string name;   ///< the top folder's name ("sglang"; "sglang" for sglang.git)
  bool bare = false;  ///< no work tree (a CI mirror): every revision is read from git
};

/// One side of the diff: what the user typed and the commit it names.
struct Revision {
  std::string spelled; ///< "v0.5.0", "HEAD~3", "origin/main"
  std::string commit;  ///< full hash
  std::string shortCommit() const { return commit.substr(0, 9); }
};

/// The repository around `path` (a folder of a work tree, or a bare
/// repository such as `git clone --mirror` makes); throws an input error
/// when git is missing, the folder does not exist or is neither.
GitRepo findRepository(const std::string &path);

/// Whether `path` is the top of a git checkout or a bare repository (what
/// `--with` reads at the engine's pinned tag), not an installed package.
bool isRepositoryTop(const std::string &path);

/// The commit `spelled` names; throws a usage error naming it otherwise.
Revision resolveRevision(const GitRepo &repo, const std::string &spelled);

/// The text of `file` (relative to the repository's top) at `rev`; "" when
/// it does not exist there.
std::string fileAt(const GitRepo &repo, const Revision &rev, const std::string &file);

/// A temporary folder, removed with everything in it however the run ends
/// (return or exception). It is $TMPDIR/<stable> when no other run holds
/// that name: the same commits then land on the same paths, so the facts
/// cache (keyed by path and content) serves a repeated diff.
class TempDir {
public:
  explicit TempDir(const std::string &stable);
  ~TempDir();
  TempDir(const TempDir &) = delete;
  TempDir &operator=(const TempDir &) = delete;
  const std::string &path() const { return path_; }

private:
  std::string path_;
};

/// A TempDir kept for the rest of the run, the path of which stays valid
/// until `removeRunTempDirs`. main() calls that before it ends the process
/// with _exit, which runs no destructors (a static TempDir would never go).
const std::string &runTempDir(const std::string &stable);
void removeRunTempDirs();

/// Writes the repository's files of `rev` that lie under `repo.prefix` into
/// `dest` (as dest/<prefix>...). Throws an input error when the folder does
/// not exist at that revision. Submodules are not included (git archive).
void extractRevision(const GitRepo &repo, const Revision &rev, const std::string &dest);

} // namespace archscope::diff
