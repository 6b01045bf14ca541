//===--- RuleSupport.cpp - small helpers the rules share ------------------===//
// SPDX-License-Identifier: Apache-2.0
#include "model/checks/RuleSupport.h"

#include <fstream>
#include <sstream>

namespace archscope::checks {

std::vector<Target> parseArchSet(const std::string &list) {
  std::vector<Target> out;
  std::stringstream ss(list);
  for (std::string item; std::getline(ss, item, ';');) {
    auto t = Target::parse(item);
    if (!t) continue;
    out.push_back(*t);
    if (item.ends_with("+PTX")) { // the PTX half JIT-forwards to newer GPUs
      t->kind = CodeKind::Ptx;
      out.push_back(*t);
    }
  }
  return out;
}

std::string listTargets(const std::vector<std::string> &names) {
  std::string s;
  for (size_t i = 0; i < names.size(); ++i)
    s += (i == 0 ? "" : i + 1 == names.size() ? " and " : ", ") + names[i];
  return s;
}

std::vector<ComputeCapability> tableGpus(const ArchTable &table) {
  std::vector<ComputeCapability> out;
  for (const auto &row : table.rows())
    if (row.cc.major >= 8) out.push_back(row.cc);
  return out;
}

std::vector<std::string> familiesOn(const CheckInput &in, const std::string &backend, ComputeCapability gpu) {
  std::vector<std::string> out;
  auto it = in.backendFamilies.find(backend);
  if (it == in.backendFamilies.end()) return out;
  for (const auto &name : it->second)
    if (const auto *f = in.families.find(name); f && in.families.availableOn(*f, in.table, gpu))
      out.push_back(name);
  return out;
}

bool hasFamilies(const CheckInput &in, const std::string &backend) {
  auto it = in.backendFamilies.find(backend);
  return it != in.backendFamilies.end() && !it->second.empty();
}

EvalEnv defaultWorld(const CheckInput &in, const Condition &c, ComputeCapability gpu, const std::string &backend) {
  EvalEnv env;
  env.gpu = gpu;
  env.backend = backend;
  env.quantFlags = in.quantFlags;
  for (const auto &a : c.opaqueAtoms())
    if (isAssumedFact(a.opaqueKind)) env.assume[a.text] = assumedValue(a.opaqueKind);
  return env;
}

bool comparesCapabilityExactly(const Condition &c) {
  for (const auto &a : c.atoms())
    if (a.kind == Atom::Kind::Compare && a.op == CmpOp::Eq)
      for (const auto *side : {&a.lhs, &a.rhs})
        for (const auto &l : *side)
          if (l.readsCapability()) return true;
  return false;
}

const cuda::GuardReport *guardReportOf(const CheckInput &in, const std::string &path) {
  for (const auto &g : in.guards)
    if (g.path == path) return &g;
  return nullptr;
}

std::string kernelTargetOn(const std::vector<const cuda::KernelSite *> &kernels, ComputeCapability gpu) {
  for (const auto *k : kernels)
    for (const auto &[name, body] : k->byTarget)
      if (auto t = Target::parse(name); t && body == cuda::KernelBody::Code && t->runsOn(gpu)) return name;
  return "";
}

std::vector<const cuda::KernelSite *> kernelsOf(const cuda::GuardReport &g) {
  std::vector<const cuda::KernelSite *> out;
  for (const auto &k : g.kernels) out.push_back(&k);
  return out;
}

Evidence siteOf(const GuardFact &g) { return g.chain.empty() ? Evidence{} : g.chain.front(); }

std::vector<Evidence> chainOf(const GuardFact &g) {
  std::vector<Evidence> out;
  for (const auto &[cond, ev] : g.context) out.push_back(ev);
  for (size_t i = 1; i < g.chain.size(); ++i) out.push_back(g.chain[i]);
  return out;
}

Evidence at(const std::string &path, int line, const std::string &layer, const std::string &snippet,
            const std::string &note) {
  return Evidence{path, line, 1, layer, snippet.empty() ? sourceLine(path, line) : snippet, note};
}

std::string sourceLine(const std::string &path, int line) {
  std::ifstream in(path);
  std::string text;
  for (int n = 1; n <= line && std::getline(in, text); ++n)
    if (n == line) {
      auto b = text.find_first_not_of(" \t");
      return b == std::string::npos ? "" : text.substr(b, text.find_last_not_of(" \t\r") - b + 1);
    }
  return "";
}

} // namespace archscope::checks
