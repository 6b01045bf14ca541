//===--- Docs.cpp - `archscope docs`: the matrix as pages a user reads ----===//
// SPDX-License-Identifier: Apache-2.0
#include "tool/Docs.h"

#include "model/Errors.h"
#include "model/checks/Rule.h"
#include "tool/Audit.h"
#include "tool/Lint.h"
#include "tool/Progress.h"
#include "tool/docs/DocPages.h"

#include <llvm/Support/JSON.h>

#include <filesystem>
#include <fstream>
#include <functional>
#include <iostream>
#include <sstream>

namespace fs = std::filesystem;

namespace archscope {
namespace {

/// Paths as a reader of the pages knows them: relative to the engine tree,
/// a dependency's with its folder name first (as the Python layer already
/// names them), never the absolute paths of the machine that generated them.
class TreePaths {
public:
  explicit TreePaths(const std::vector<std::string> &roots) {
    for (size_t i = 0; i < roots.size(); ++i) {
      std::error_code ec;
      fs::path root = fs::weakly_canonical(fs::absolute(roots[i], ec), ec);
      roots_.push_back({root.string() + "/", i == 0 ? "" : root.filename().string() + "/"});
    }
  }

  /// `fromWorkingDir`: a relative path names a file from the working
  /// directory (lint's findings) rather than from its tree (Python facts).
  void apply(std::string &path, bool fromWorkingDir = false) const {
    std::error_code ec;
    if (path.empty() || (!fs::path(path).is_absolute() && !(fromWorkingDir && fs::exists(path, ec)))) return;
    std::string real = fs::weakly_canonical(fs::absolute(path, ec), ec).string();
    for (const auto &[root, shown] : roots_)
      if (real.rfind(root, 0) == 0) { path = shown + real.substr(root.size()); return; }
  }

private:
  std::vector<std::pair<std::string, std::string>> roots_;
};

std::string readText(const fs::path &p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

/// What `archscope lint --format json` reports, with the user's lint
/// configuration (suppressions, baseline, severities) applied.
std::vector<Finding> lintFindings(const Options &opts) {
  Options lint = opts;
  lint.command = "lint";
  lint.format = "json";
  lint.output.clear();
  lint.quiet = true;
  std::ostringstream text;
  runLint(lint, text);
  auto doc = llvm::json::parse(text.str());
  if (!doc) {
    llvm::consumeError(doc.takeError());
    throw ArchscopeError(ExitInternal, "lint's JSON output did not parse", "please report it");
  }
  std::vector<Finding> out;
  auto *list = doc->getAsObject() ? doc->getAsObject()->getArray("findings") : nullptr;
  for (const auto &item : list ? *list : llvm::json::Array()) {
    const auto *f = item.getAsObject();
    const auto *loc = f ? f->getObject("location") : nullptr;
    if (!f || !loc) continue;
    Finding finding;
    finding.rule = f->getString("rule").value_or("").str();
    finding.severity = parseSeverity(f->getString("severity").value_or("warning").str()).value_or(Severity::Warning);
    finding.message = f->getString("message").value_or("").str();
    finding.primary.path = loc->getString("path").value_or("").str();
    finding.primary.line = int(loc->getInteger("line").value_or(0));
    out.push_back(std::move(finding));
  }
  return out;
}

/// One page per rule: its docs/rules/<id>.md (beside archscope's data
/// folder) when present, and its findings when they were collected.
std::vector<docs::RulePage> rulePages(const std::string &dataDir, const std::vector<Finding> &findings) {
  fs::path pages = fs::path(dataDir).parent_path() / "docs" / "rules";
  std::vector<docs::RulePage> out;
  for (const auto &rule : checks::allRules()) {
    docs::RulePage page{rule->info(), readText(pages / (rule->info().id + ".md")), {}};
    for (const auto &f : findings)
      if (f.rule == page.info.id) page.findings.push_back(f);
    out.push_back(std::move(page));
  }
  return out;
}

void writePage(const fs::path &file, const std::function<void(std::ostream &)> &write) {
  std::ostringstream text;
  write(text);
  std::ofstream out(file, std::ios::binary);
  if (!out || !(out << text.str()))
    throw inputError("cannot write '" + file.string() + "'", "check the folder is writable");
}

void makeFolder(const fs::path &dir) {
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec || !fs::is_directory(dir, ec))
    throw inputError("cannot create the folder '" + dir.string() + "'", "give -o a writable folder path");
}

} // namespace

int runDocs(const Options &opts) {
  if (opts.output.empty())
    throw usageError("docs needs -o DIR, the folder to write the pages into", "e.g. archscope docs ~/src/sglang -o compat");
  fs::path dir = opts.output;
  Progress progress(opts.quiet);
  progress.step("docs: auditing the matrix");
  AuditResult audit = runAudit(opts);
  std::vector<Finding> findings;
  if (opts.docsLint) {
    progress.step("docs: linting (CUDA guards, CMake arch sets)");
    findings = lintFindings(opts);
  }
  TreePaths paths(audit.roots);
  for (auto &c : audit.matrix.cells)
    for (auto &e : c.evidence) paths.apply(e.path);
  for (auto &f : findings) paths.apply(f.primary.path, /*fromWorkingDir=*/true);

  docs::DocSet set;
  set.matrix = &audit.matrix;
  set.rules = rulePages(dataDirOf(opts), findings);
  set.linted = opts.docsLint;
  set.generated = "archscope 0.1.0";
  progress.step("docs: writing the pages");
  makeFolder(dir / "backends");
  makeFolder(dir / "rules");
  writePage(dir / "index.md", [&](std::ostream &o) { docs::writeIndexMarkdown(set, o); });
  writePage(dir / "index.html", [&](std::ostream &o) { docs::writeHtml(set, o); });
  for (const auto &b : audit.matrix.backends)
    writePage(dir / "backends" / docs::backendFile(b), [&](std::ostream &o) { docs::writeBackendMarkdown(set, b, o); });
  for (const auto &r : set.rules)
    writePage(dir / "rules" / (r.info.id + ".md"), [&](std::ostream &o) { docs::writeRuleMarkdown(r, set.linted, o); });
  progress.clear();
  if (!opts.quiet)
    std::cerr << "archscope: wrote " << (dir / "index.md").string() << ", " << (dir / "index.html").string() << ", "
              << audit.matrix.backends.size() << " backend pages and " << set.rules.size() << " rule pages"
              << (audit.matrix.warnings.empty() ? "" : "; " + std::to_string(audit.matrix.warnings.size()) +
                                                           " audit warnings (archscope audit prints them)")
              << "\n";
  return ExitClean;
}

} // namespace archscope
