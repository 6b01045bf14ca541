//===--- Lint.cpp - `archscope lint`: every layer -> checks -> findings ---===//
// SPDX-License-Identifier: Apache-2.0
#include "tool/Lint.h"

#include "matchers/build/CMakeArchSets.h"
#include "matchers/cuda/CompileFlags.h"
#include "matchers/cuda/RuntimeChecks.h"
#include "model/Errors.h"
#include "model/KernelFamilies.h"
#include "model/checks/Rule.h"
#include "tool/Archs.h"
#include "tool/Audit.h"
#include "tool/Guards.h"
#include "tool/output/FindingEmitters.h"

#include <chrono>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <iomanip>
#include <iostream>
#include <map>
#include <unistd.h>

namespace fs = std::filesystem;

namespace archscope {
namespace {

void listRules(std::ostream &out) {
  for (const auto &r : checks::allRules())
    out << std::left << std::setw(28) << r->info().id << std::setw(9) << severityName(r->info().severity)
        << r->info().summary << "\n";
}

/// rule id -> severity, or nullopt for --off; unknown ids are usage errors.
std::map<std::string, std::optional<Severity>> severityOverrides(const Options &opts) {
  std::map<std::string, std::optional<Severity>> out;
  for (const auto &[id, level] : opts.ruleSeverity) {
    if (!checks::findRule(id)) throw usageError("unknown rule '" + id + "'", "archscope lint --list-rules shows them");
    out[id] = level == "off" ? std::nullopt : parseSeverity(level);
  }
  return out;
}

/// The CMake arch sets of every tree that has a CMake build with helpers.
std::vector<build::ArchSetReport> archSetsOf(const std::vector<std::string> &roots, const std::string &cuda,
                                             std::vector<std::string> &warnings) {
  std::vector<build::ArchSetReport> out;
  for (const auto &root : roots) {
    std::error_code ec;
    if (!fs::is_regular_file(fs::path(root) / "CMakeLists.txt", ec) || !fs::is_directory(fs::path(root) / "cmake", ec))
      continue;
    auto report = build::evaluateArchSets(root, defaultBuildArchs(), cuda);
    for (const auto &e : report.errors) warnings.push_back("cmake: " + e);
    if (!report.calls.empty()) out.push_back(std::move(report));
  }
  return out;
}

/// Evidence paths as a reader can open them from the working directory:
/// Python facts name files relative to their tree (a dependency's with the
/// tree's folder name first); the other layers give real paths.
class PathResolver {
public:
  explicit PathResolver(const std::vector<std::string> &roots) : roots_(roots) {}

  void apply(Finding &f) const {
    resolve(f.primary);
    for (auto &e : f.related) resolve(e);
  }

private:
  void resolve(Evidence &e) const {
    if (e.path.empty()) return;
    fs::path p = e.path;
    std::error_code ec;
    if (p.is_relative())
      for (size_t i = 0; i < roots_.size(); ++i) {
        fs::path root = roots_[i];
        fs::path candidate = i == 0 ? root / p : root.parent_path() / p;
        if (fs::exists(candidate, ec)) { p = candidate; break; }
      }
    fs::path shown = fs::proximate(p, ec);
    if (!ec && !shown.empty() && shown.native().rfind("..", 0) != 0) p = shown;
    e.path = p.lexically_normal().string();
  }

  std::vector<std::string> roots_;
};

/// The C++ runtime checks of the files whose kernels compile somewhere: the
/// ones a check there can contradict. A cheap literal scan skips the rest.
std::vector<cuda::RuntimeCheckReport> runtimeChecksOf(const std::vector<cuda::GuardReport> &guards,
                                                      std::vector<std::string> &warnings) {
  std::vector<cuda::RuntimeCheckReport> out;
  cuda::CompileFlags flags;
  for (const auto &g : guards) {
    bool hasKernel = std::any_of(g.kernels.begin(), g.kernels.end(), [](const cuda::KernelSite &k) {
      return std::any_of(k.byTarget.begin(), k.byTarget.end(),
                         [](const auto &kv) { return kv.second == cuda::KernelBody::Code; });
    });
    if (!hasKernel) continue;
    std::ifstream in(g.path, std::ios::binary);
    std::stringstream text;
    text << in.rdbuf();
    if (!cuda::mayHaveRuntimeChecks(text.str())) continue;
    auto report = cuda::extractRuntimeChecks(g.path, flags.argsFor(g.path));
    for (const auto &e : report.errors) warnings.push_back(g.path + ": " + e);
    out.push_back(std::move(report));
  }
  return out;
}

} // namespace

int runLint(const Options &opts, std::ostream &out) {
  if (opts.listRules) { listRules(out); return ExitClean; }
  auto threshold = parseSeverity(opts.minSeverity);
  if (!threshold) throw usageError("bad --min-severity '" + opts.minSeverity + "'", "use note, warning or error");
  auto overrides = severityOverrides(opts);
  auto start = std::chrono::steady_clock::now();

  AuditResult audit = runAudit(opts);
  std::string dataDir = dataDirOf(opts);
  ArchTable table = ArchTable::load(dataDir + "/arch-table.yaml");
  KernelFamilies families = KernelFamilies::load(dataDir + "/kernel-families.yaml");
  std::vector<std::string> warnings = audit.matrix.warnings;

  bool progress = !opts.quiet && isatty(STDERR_FILENO);
  auto files = cudaSourcesUnder(audit.roots);
  auto guards = guardReports(files, guardTargets({}), !opts.noCache, progress);
  for (const auto &g : guards)
    for (const auto &e : g.errors) warnings.push_back(g.path + ": " + e);
  auto archSets = archSetsOf(audit.roots, opts.cuda.empty() ? table.defaultToolkit() : opts.cuda, warnings);
  auto runtime = runtimeChecksOf(guards, warnings);

  checks::CheckInput in{audit.matrix, audit.facts, table,    families, audit.families,
                        audit.quantFlags, guards,  archSets, runtime};
  std::vector<Finding> findings;
  PathResolver paths(audit.roots);
  for (auto &f : checks::runChecks(in)) {
    paths.apply(f);
    if (auto it = overrides.find(f.rule); it != overrides.end()) {
      if (!it->second) continue;
      f.severity = *it->second;
    }
    if (f.severity >= *threshold) findings.push_back(std::move(f));
  }
  std::vector<checks::RuleInfo> rules;
  for (const auto &r : checks::allRules()) rules.push_back(r->info());
  if (opts.format == "json") emitFindingsJson(findings, warnings, rules, out);
  else emitFindingsText(findings, out, opts.color);

  if (!opts.quiet) {
    for (const auto &w : warnings) std::cerr << "archscope: warning: " << w << "\n";
    double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    std::cerr << "archscope: " << findings.size() << " finding" << (findings.size() == 1 ? "" : "s") << "; read "
              << audit.filesListed << " Python files, " << files.size() << " CUDA files x " << guardTargets({}).size()
              << " targets, " << archSets.size() << " CMake build" << (archSets.size() == 1 ? "" : "s") << " in "
              << std::fixed << std::setprecision(2) << s << " s\n";
  }
  return findings.empty() ? ExitClean : ExitFindings;
}

} // namespace archscope
