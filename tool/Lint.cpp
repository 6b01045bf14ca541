//===--- Lint.cpp - `archscope lint`: every layer -> checks -> findings ---===//
// SPDX-License-Identifier: Apache-2.0
#include "tool/Lint.h"

#include "matchers/build/ArchStringRewrites.h"
#include "matchers/build/CMakeArchSets.h"
#include "matchers/build/ReleaseArchLists.h"
#include "matchers/cuda/CompileFlags.h"
#include "matchers/cuda/RuntimeChecks.h"
#include "matchers/cuda/SharedFiles.h"
#include "matchers/source/NameUses.h"
#include "model/Errors.h"
#include "model/KernelFamilies.h"
#include "model/checks/Rule.h"
#include "tool/Archs.h"
#include "tool/Audit.h"
#include "tool/Guards.h"
#include "tool/RuntimeChecksCache.h"
#include "tool/lint/Baseline.h"
#include "tool/lint/DiffBase.h"
#include "tool/lint/LintRun.h"
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
std::vector<cuda::RuntimeCheckReport> runtimeChecksOf(const std::vector<cuda::GuardReport> &guards, bool useCache,
                                                      std::vector<std::string> &warnings) {
  std::vector<std::string> files;
  for (const auto &g : guards) {
    bool hasKernel = std::any_of(g.kernels.begin(), g.kernels.end(), [](const cuda::KernelSite &k) {
      return std::any_of(k.byTarget.begin(), k.byTarget.end(),
                         [](const auto &kv) { return kv.second == cuda::KernelBody::Code; });
    });
    if (!hasKernel) continue;
    std::ifstream in(g.path, std::ios::binary);
    std::stringstream text;
    text << in.rdbuf();
    if (cuda::mayHaveRuntimeChecks(text.str()) || text.str().find("MaxDynamicSharedMemorySize") != std::string::npos)
      files.push_back(g.path);
  }
  cuda::SharedFileCache headersReadOnce;
  auto out = runtimeCheckReports(files, true, useCache);
  for (const auto &r : out)
    for (const auto &e : r.errors) warnings.push_back(r.path + ": " + e);
  return out;
}

/// The guard passes of `files`, each with the definitions of the CMake build
/// whose folder holds it (vLLM's ENABLE_NVFP4_SM120=1 where it found the
/// archs), in one batch per set of definitions.
std::vector<cuda::GuardReport> guardPassesWithBuildDefines(const std::vector<std::string> &files,
                                                           const std::vector<build::ArchSetReport> &archSets,
                                                           const std::vector<std::string> &archMacros, bool useCache,
                                                           bool progress, std::vector<std::string> &warnings) {
  cuda::SharedFileCache headersReadOnce; // one tree, unchanged while it is read
  std::map<std::vector<std::string>, std::vector<size_t>> byDefines;
  for (size_t i = 0; i < files.size(); ++i) {
    std::error_code ec;
    std::string file = fs::weakly_canonical(files[i], ec).string();
    std::vector<std::string> defines;
    for (const auto &r : archSets) {
      std::string root = fs::weakly_canonical(fs::path(r.cmakeLists).parent_path(), ec).string() + "/";
      if (file.rfind(root, 0) == 0)
        for (const auto &d : r.defines) defines.push_back("-D" + d);
    }
    byDefines[defines].push_back(i);
  }
  std::vector<cuda::GuardReport> out(files.size());
  for (const auto &[defines, indices] : byDefines) {
    std::vector<std::string> group;
    for (size_t i : indices) group.push_back(files[i]);
    cuda::GuardPassOptions extra;
    extra.extraArgs = defines;
    extra.archMacros = archMacros;
    auto reports = guardReports(group, guardTargets({}), useCache, progress, &warnings, extra);
    for (size_t k = 0; k < reports.size() && k < indices.size(); ++k) out[indices[k]] = std::move(reports[k]);
  }
  return out;
}

std::string plural(size_t n, const std::string &word) {
  return std::to_string(n) + " " + word + (n == 1 ? "" : "s");
}

/// The summary line on standard error: what was reported, hidden and read.
void printSummary(const LintReport &report, const std::string &stats, double seconds) {
  std::cerr << "archscope: " << plural(report.findings.size(), "finding");
  if (report.suppressed) std::cerr << ", " << report.suppressed << " suppressed inline";
  if (report.baselined) std::cerr << ", " << report.baselined << " in the baseline";
  if (report.preExisting) std::cerr << ", " << report.preExisting << " already before the diff base";
  std::cerr << "; " << stats << " in " << std::fixed << std::setprecision(2) << seconds << " s\n";
}

void emitReport(const Options &opts, const LintReport &report, std::ostream &out) {
  if (opts.format == "json") emitLintJson(report, out);
  else if (opts.format == "sarif") emitLintSarif(report, out);
  else emitFindingsText(report.findings, out, opts.color);
}

} // namespace

namespace lint {

RawLint collectFindings(const Options &opts) {
  AuditResult audit = runAudit(opts);
  std::string dataDir = dataDirOf(opts);
  ArchTable table = ArchTable::load(dataDir + "/arch-table.yaml");
  KernelFamilies families = KernelFamilies::load(dataDir + "/kernel-families.yaml");
  RawLint raw;
  raw.warnings = audit.matrix.warnings;
  raw.roots = audit.roots;

  bool progress = !opts.quiet && isatty(STDERR_FILENO);
  auto files = filesTheRulesRead(cudaSourcesUnder(audit.roots));
  auto archSets = cmakeArchSets(audit.roots, opts.cuda.empty() ? table.defaultToolkit() : opts.cuda, raw.warnings);
  auto guards = guardPassesWithBuildDefines(files, archSets, audit.archMacros, !opts.noCache, progress, raw.warnings);
  for (const auto &g : guards)
    for (const auto &e : g.errors) raw.warnings.push_back(g.path + ": " + e);
  auto runtime = runtimeChecksOf(guards, !opts.noCache, raw.warnings);
  auto releaseLists = build::readReleaseArchLists(audit.roots);
  auto published = releaseBuilds(archSets, releaseLists);
  for (const auto &b : published)
    for (const auto &e : b.report.errors) raw.warnings.push_back("cmake (release build " + b.archs + "): " + e);
  auto archRewrites = build::readArchStringRewrites(audit.roots);

  NameUses sourceNames(audit.roots);

  checks::CheckInput in{audit.matrix, audit.facts, table,   families,     audit.families, audit.quantFlags,
                        guards,       archSets,    runtime, releaseLists, published,      archRewrites,
                        sourceNames};
  PathResolver paths(audit.roots);
  for (auto &f : checks::runChecks(in)) {
    paths.apply(f);
    raw.findings.push_back(std::move(f));
  }
  raw.stats = "read " + std::to_string(audit.filesListed) + " Python files, " + std::to_string(files.size()) +
              " CUDA files x " + std::to_string(guardTargets({}).size()) + " targets, " +
              plural(archSets.size(), "CMake build") + ", " + plural(releaseLists.size(), "release arch list");
  return raw;
}

} // namespace lint

int runLint(const Options &opts, std::ostream &out) {
  if (opts.listRules) { listRules(out); return ExitClean; }
  lint::LintConfig config = lint::effectiveConfig(opts);
  if (opts.dumpConfig) { lint::dumpConfig(config, out); return ExitClean; }
  auto start = std::chrono::steady_clock::now();

  lint::RawLint raw = lint::collectFindings(opts);
  std::string stats = raw.stats;
  std::vector<std::string> roots = raw.roots;
  LintReport report = lint::buildReport(std::move(raw), config);
  if (!opts.writeBaseline.empty()) {
    lint::writeBaseline(opts.writeBaseline, report.findings, report.fingerprints, lint::portablePaths(report, roots));
    if (!opts.quiet)
      std::cerr << "archscope: wrote " << plural(report.findings.size(), "finding") << " to " << opts.writeBaseline
                << "\n";
    return ExitClean;
  }
  if (!config.baseline.empty()) lint::dropFingerprints(report, lint::readBaseline(config.baseline), report.baselined);
  if (!opts.diffBase.empty())
    lint::dropFingerprints(report, lint::fingerprintsAt(opts, config, opts.diffBase), report.preExisting);
  emitReport(opts, report, out);

  if (!opts.quiet) {
    for (const auto &w : report.warnings) std::cerr << "archscope: warning: " << w << "\n";
    for (const auto &n : report.notices) std::cerr << n.where.path << ":" << n.where.line << ":" << n.where.col
                                                   << ": warning: " << n.message << " [" << n.id << "]\n";
    printSummary(report, stats, std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
  }
  return report.findings.empty() ? ExitClean : ExitFindings;
}

} // namespace archscope
