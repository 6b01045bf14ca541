//===--- CellProof.cpp - upgrade claimed cells with what was proven -------===//
// SPDX-License-Identifier: Apache-2.0
#include "validation/CellProof.h"

#include <algorithm>
#include <cstdio>

namespace archscope::validation {
namespace {

/// The target a family compiles for on `gpu`; where its ISA is missing, the
/// GPU's arch-specific target (what a port would try), else plain.
Target buildTargetFor(const KernelFamily &f, const KernelFamilies &all, const ArchTable &table, ComputeCapability gpu) {
  if (auto t = all.buildTarget(f, table, gpu)) return *t;
  const ArchRow *row = table.find(gpu);
  bool hasA = row && row->firstCuda.count(Variant::ArchSpecific);
  return Target{gpu, hasA ? Variant::ArchSpecific : Variant::Plain, CodeKind::Sass};
}

const KernelFamily *chooseFamily(const std::vector<std::string> &names, const KernelFamilies &all,
                                 const ArchTable &table, ComputeCapability gpu) {
  const KernelFamily *first = nullptr;
  for (const auto &n : names)
    if (const auto *f = all.find(n)) {
      if (all.availableOn(*f, table, gpu)) return f;
      if (!first) first = f;
    }
  return first;
}

void addIsa(CellProof &p, const std::vector<ResultRecord> &results) {
  for (const auto &r : results)
    if (r.kind == "isa" && r.family == p.family && r.target == p.buildTarget) {
      p.isa = r.verdict;
      p.isaDetail = r.detail;
      return;
    }
  p.notRun.push_back("ISA probe: not compiled (is the CUDA toolkit installed?)");
}

void addLaunch(CellProof &p, const std::vector<ResultRecord> &results) {
  int ok = 0, wrong = 0;
  double worst = 0;
  std::string device;
  for (const auto &r : results) {
    if (r.kind != "launch" || r.family != p.family || r.target != p.gpu.name()) continue;
    if (r.verdict == "launched-ok") ++ok;
    else if (r.verdict == "launched-wrong") ++wrong;
    else continue;
    if (!std::isnan(r.maxRelErr)) worst = std::max(worst, r.maxRelErr);
    device = r.device;
  }
  if (ok + wrong == 0) {
    p.notRun.push_back("launch: no " + p.gpu.name() + " GPU in the results (run validation/launch_probes.py "
                       "there, then --merge its file)");
    return;
  }
  p.launch = wrong ? "launched-wrong" : "launched-ok";
  char buf[160];
  snprintf(buf, sizeof buf, "%d of %d shapes within bound on %s, max rel err %.3g", ok, ok + wrong, device.c_str(),
           worst);
  p.launchDetail = buf;
}

/// The shipped object of an entry the backend calls, if the linker read one.
void addBinary(CellProof &p, const ProofInput &in) {
  for (const auto &g : in.facts.guards) {
    if (g.kind != GuardFact::Kind::Calls || (!g.backend.empty() && g.backend != p.backend)) continue;
    EvalEnv env;
    env.gpu = p.gpu;
    env.backend = p.backend;
    if (g.cond.eval(env) == Tri::False) continue; // another backend's call
    auto it = in.lower.entries.find(g.entry);
    if (it == in.lower.entries.end() || !it->second.count(p.gpu)) continue;
    const EntryCoverage &c = it->second.at(p.gpu);
    for (const auto &ev : c.chain)
      if (ev.layer == "binary") {
        p.binary = ev.note.rfind("nothing", 0) == 0 ? "binary-missing" : "binary-present";
        p.binaryDetail = g.entry + " in " + ev.path + " (" + ev.snippet + ")";
        if (p.binary == "binary-missing") return;
      }
  }
}

} // namespace

std::vector<CellProof> proveCells(const ProofInput &in) {
  const auto &backendFamilies = in.backendFamilies;
  const auto &families = in.families;
  const auto &table = in.table;
  const auto &results = in.results;
  std::vector<CellProof> out;
  for (const auto &c : in.matrix.cells) {
    if (c.backend == "auto" || c.verdict == Verdict::Rejected || c.verdict == Verdict::Unreachable) continue;
    CellProof p;
    p.backend = c.backend;
    p.gpu = c.target;
    p.claim = c.verdict;
    addBinary(p, in);
    auto it = backendFamilies.find(c.backend);
    const KernelFamily *f = it == backendFamilies.end() ? nullptr : chooseFamily(it->second, families, table, c.target);
    if (!f) {
      p.notRun.push_back("probe: the profile names no kernel family for " + c.backend + " (backend.families)");
      out.push_back(std::move(p));
      continue;
    }
    p.family = f->name;
    p.buildTarget = buildTargetFor(*f, families, table, c.target).name();
    addIsa(p, results);
    if (p.isa == "isa-ok") addLaunch(p, results);
    out.push_back(std::move(p));
  }
  return out;
}

} // namespace archscope::validation
