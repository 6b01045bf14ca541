//===--- Diff.cpp - `archscope diff`: the matrix at two revisions ---------===//
// SPDX-License-Identifier: Apache-2.0
#include "tool/Diff.h"

#include "model/Errors.h"
#include "tool/Audit.h"
#include "tool/Progress.h"
#include "tool/diff/GitCheckout.h"
#include "tool/diff/MatrixDiff.h"
#include "tool/output/DiffEmitters.h"

#include <filesystem>
#include <unistd.h>

namespace fs = std::filesystem;

namespace archscope {
namespace {

using namespace diff;

/// Evidence as a reviewer finds it in the repository: engine paths relative
/// to the repository's top (not to the temporary copy, nor to PATH);
/// dependency trees (--with) as the audit names them.
class RepoPaths {
public:
  RepoPaths(std::string copyTop, std::string prefix) : top_(std::move(copyTop) + "/"), prefix_(std::move(prefix)) {}

  void apply(Matrix &m) const {
    for (auto &c : m.cells)
      for (auto &e : c.evidence) e.path = shown(e.path);
    for (auto &w : m.warnings) w = withoutCopyTop(w);
  }

private:
  std::string shown(const std::string &path) const {
    if (path.empty()) return path;
    if (path.rfind(top_, 0) == 0) return path.substr(top_.size());
    std::error_code ec;
    if (fs::path(path).is_relative() && fs::exists(fs::path(top_) / prefix_ / path, ec)) return prefix_ + path;
    return path;
  }

  std::string withoutCopyTop(std::string text) const {
    for (size_t at; (at = text.find(top_)) != std::string::npos;) text.erase(at, top_.size());
    return text;
  }

  std::string top_, prefix_;
};

/// Copies the audited folder out at `rev`, audits it with the user's options
/// (--with trees, targets, profile), and names the tree as the user knows it.
DiffSide auditAt(const Options &opts, const GitRepo &repo, const Revision &rev, Progress &progress) {
  TempDir copy("archscope-diff-" + std::to_string(getuid()) + "-" + rev.shortCommit());
  std::string top = copy.path() + "/" + repo.name;
  progress.step("diff: copying " + repo.name + " at " + rev.spelled + " (" + rev.shortCommit() + ")");
  extractRevision(repo, rev, top);
  Options at = opts;
  at.command = "audit";
  at.path = (fs::path(top) / repo.prefix).lexically_normal().string();
  if (at.path.size() > 1 && at.path.back() == '/') at.path.pop_back();
  progress.step("diff: auditing " + repo.name + " at " + rev.spelled);
  AuditResult r;
  try {
    r = runAudit(at);
  } catch (const ArchscopeError &e) { // name the revision and the real folder, not the copy
    std::string what = e.what();
    for (size_t p; (p = what.find(top)) != std::string::npos;) what.replace(p, top.size(), repo.root);
    throw ArchscopeError(e.code(), "at " + rev.spelled + ": " + what, e.hint());
  }
  RepoPaths(top, repo.prefix).apply(r.matrix);
  if (!r.matrix.trees.empty()) {
    r.matrix.trees[0].revision = rev.shortCommit();
    r.matrix.trees[0].path = (fs::path(repo.root) / repo.prefix).lexically_normal().string();
  }
  return {rev, r.profileId, std::move(r.matrix)};
}

} // namespace

int runDiff(const Options &opts, std::ostream &out) {
  Progress progress(opts.quiet);
  GitRepo repo = findRepository(opts.path.empty() ? "." : opts.path);
  Revision base = resolveRevision(repo, opts.revA), head = resolveRevision(repo, opts.revB);
  MatrixDiff d;
  d.repoName = repo.name;
  d.prefix = repo.prefix;
  d.base = auditAt(opts, repo, base, progress);
  d.head = auditAt(opts, repo, head, progress);
  progress.clear();
  compareMatrices(d);
  if (opts.format == "json") emitDiffJson(d, out);
  else if (opts.format == "markdown") emitDiffMarkdown(d, out);
  else emitDiffText(d, out, opts.color);
  return opts.failOnRegression && d.regressions() > 0 ? ExitFindings : ExitClean;
}

} // namespace archscope
