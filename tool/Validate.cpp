//===--- Validate.cpp - `archscope validate`: claims -> proofs ------------===//
// SPDX-License-Identifier: Apache-2.0
#include "tool/Validate.h"

#include "model/Errors.h"
#include "model/KernelFamilies.h"
#include "tool/Audit.h"
#include "tool/Cache.h"
#include "tool/output/Emitters.h"
#include "validation/CellProof.h"
#include "validation/IsaMatrix.h"
#include "validation/Process.h"
#include "validation/Results.h"

#include <llvm/Support/FormatVariadic.h>
#include <llvm/Support/JSON.h>
#include <llvm/Support/raw_ostream.h>

#include <chrono>
#include <filesystem>
#include <iomanip>
#include <iostream>
#include <map>
#include <unistd.h>

namespace fs = std::filesystem;

namespace archscope {
namespace {

using namespace validation;

ResultCache toolCache(bool enabled) {
  std::string dir = enabled ? cacheDir() : "";
  if (dir.empty()) return {};
  return {[dir](const std::string &key) { return readCacheFile(dir + "/validate/" + hashKey(key) + ".txt"); },
          [dir](const std::string &key, const std::string &value) {
            writeCacheFile(dir + "/validate/" + hashKey(key) + ".txt", value);
          }};
}

std::string hostName() {
  char buf[256] = {0};
  gethostname(buf, sizeof buf - 1);
  return buf;
}

void emitIsaText(const IsaMatrix &m, std::ostream &out) {
  std::vector<std::string> families, targets;
  std::map<std::pair<std::string, std::string>, const IsaVerdict *> at;
  for (const auto &v : m.verdicts) {
    if (std::find(families.begin(), families.end(), v.family) == families.end()) families.push_back(v.family);
    if (std::find(targets.begin(), targets.end(), v.target.name()) == targets.end()) targets.push_back(v.target.name());
    at[{v.family, v.target.name()}] = &v;
  }
  out << std::left << std::setw(16) << "family";
  for (const auto &t : targets) out << std::setw(9) << t;
  out << "\n";
  for (const auto &f : families) {
    out << std::setw(16) << f;
    for (const auto &t : targets) {
      const IsaVerdict *v = at[{f, t}];
      out << std::setw(9) << (!v ? "?" : v->state == IsaVerdict::State::Ok ? "ok" : v->state == IsaVerdict::State::Missing ? "-" : "err");
    }
    out << "\n";
  }
  out << "ok = ptxas assembles the family's probe for the target; - = ptxas rejects it (missing instruction below)\n";
  std::map<std::string, std::vector<std::string>> missing; // "family: instr" -> targets
  for (const auto &v : m.verdicts)
    if (v.state != IsaVerdict::State::Ok)
      missing[v.family + ": " + (v.missing.empty() ? v.detail : v.missing)].push_back(v.target.name());
  for (const auto &[what, ts] : missing) {
    out << "  " << what << " on";
    for (const auto &t : ts) out << " " << t;
    out << "\n";
  }
  for (const auto &e : m.errors) out << "  note: " << e << "\n";
}

std::string proofLabel(const CellProof &p) {
  if (p.binary == "binary-missing") return "NO-CUBIN";
  if (p.launch == "launched-ok") return "launched";
  if (p.launch == "launched-wrong") return "WRONG";
  if (p.isa == "isa-ok") return "isa";
  if (p.isa == "isa-missing") return "ISA-MISSING";
  if (p.isa == "isa-error") return "isa-err";
  return "unproven";
}

void emitCellsText(const Matrix &m, const std::vector<CellProof> &proofs, std::ostream &out) {
  std::map<std::pair<std::string, ComputeCapability>, const CellProof *> at;
  for (const auto &p : proofs) at[{p.backend, p.gpu}] = &p;
  size_t width = 8;
  for (const auto &b : m.backends) width = std::max(width, b.size() + 2);
  out << std::left << std::setw(int(width)) << "backend";
  for (auto t : m.targets) out << std::setw(18) << t.name();
  out << "\n";
  for (const auto &b : m.backends) {
    if (b == "auto") continue;
    out << std::setw(int(width)) << b;
    for (auto t : m.targets) {
      const Cell *c = m.find(b, m.quants.front(), t);
      const CellProof *p = at.count({b, t}) ? at[{b, t}] : nullptr;
      std::string label = c ? verdictLabel(*c) : "?";
      if (p) label.append("/").append(proofLabel(*p));
      out << std::setw(18) << label;
    }
    out << "\n";
  }
  out << "static verdict / what validation proved: launched = the family's kernel ran on that GPU and matched\n"
         "the fp64 reference; isa = ptxas assembles it for the target (not launched); ISA-MISSING = the target\n"
         "lacks the instruction; WRONG = ran with wrong numbers; NO-CUBIN = the installed engine ships no\n"
         "kernel image for that GPU; unproven = nothing could be run\n";
  for (const auto &p : proofs)
    if (p.binary == "binary-missing")
      out << "  " << p.backend << " on " << p.gpu.name() << ": shipped binary: no kernel image for it: "
          << p.binaryDetail << "\n";
    else if (p.isa == "isa-missing" || p.launch == "launched-wrong")
      out << "  " << p.backend << " on " << p.gpu.name() << ": " << p.family << " for " << p.buildTarget << ": "
          << (p.launch == "launched-wrong" ? p.launchDetail : "ptxas: the target lacks " + p.isaDetail) << "\n";
    else if (p.launch == "launched-ok")
      out << "  " << p.backend << " on " << p.gpu.name() << ": " << p.family << " " << p.launchDetail << "\n";
  std::map<std::string, int> reasons;
  for (const auto &p : proofs)
    for (const auto &r : p.notRun) reasons[r]++;
  if (!reasons.empty()) out << "not run:\n";
  for (const auto &[why, n] : reasons) out << "  " << n << " cell" << (n == 1 ? "" : "s") << " - " << why << "\n";
}

llvm::json::Value documentOf(const IsaMatrix &isa, const std::vector<CellProof> &proofs,
                             const std::vector<ResultRecord> &results) {
  llvm::json::Array cells, isaList;
  for (const auto &r : isaRecords(isa, "")) isaList.push_back(llvm::json::Object{
      {"family", r.family}, {"target", r.target}, {"verdict", r.verdict}, {"detail", r.detail}});
  for (const auto &p : proofs) {
    llvm::json::Array notRun;
    for (const auto &r : p.notRun) notRun.push_back(r);
    cells.push_back(llvm::json::Object{{"backend", p.backend}, {"target", p.gpu.name()},
                                       {"claim", verdictName(p.claim)}, {"family", p.family},
                                       {"build_target", p.buildTarget}, {"isa", p.isa}, {"isa_detail", p.isaDetail},
                                       {"launch", p.launch}, {"launch_detail", p.launchDetail},
                                       {"binary", p.binary}, {"binary_detail", p.binaryDetail},
                                       {"not_run", std::move(notRun)}});
  }
  return llvm::json::Object{{"toolkit", isa.toolkit}, {"isa", std::move(isaList)}, {"cells", std::move(cells)},
                            {"results_merged", int64_t(results.size())}};
}

} // namespace

int runValidate(const Options &opts, std::ostream &out) {
  auto start = std::chrono::steady_clock::now();
  std::string dataDir = dataDirOf(opts);
  ArchTable table = ArchTable::load(dataDir + "/arch-table.yaml");
  KernelFamilies families = KernelFamilies::load(dataDir + "/kernel-families.yaml");
  IsaRequest req{(fs::path(dataDir).parent_path() / "kernels").string(), {}, {}, toolCache(!opts.noCache)};
  IsaMatrix isa = computeIsaMatrix(families, table, req);
  double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  if (!opts.quiet)
    std::cerr << "archscope: ISA probes: " << isa.verdicts.size() << " (family, target) pairs with CUDA "
              << isa.toolkit << ", " << isa.fromCache << " from the cache, " << std::fixed << std::setprecision(2)
              << seconds << " s\n";

  std::vector<std::vector<ResultRecord>> files{isaRecords(isa, hostName())};
  for (const auto &f : opts.mergeFiles) files.push_back(loadResults(f));
  auto results = mergeResults(files);
  if (!opts.resultsFile.empty()) writeResults(opts.resultsFile, results);

  if (opts.isaOnly) {
    if (opts.format == "json") {
      std::string s;
      llvm::raw_string_ostream os(s);
      os << llvm::formatv("{0:2}", documentOf(isa, {}, results));
      out << os.str() << "\n";
    } else {
      emitIsaText(isa, out);
    }
    return isa.errors.empty() ? ExitClean : ExitInput;
  }
  AuditResult audit = runAudit(opts);
  auto proofs = proveCells(
      {audit.matrix, audit.facts, audit.lower, audit.families, families, table, results});
  if (opts.format == "json") {
    std::string s;
    llvm::raw_string_ostream os(s);
    os << llvm::formatv("{0:2}", documentOf(isa, proofs, results));
    out << os.str() << "\n";
  } else {
    emitCellsText(audit.matrix, proofs, out);
  }
  return ExitClean;
}

} // namespace archscope
