//===--- ArchStringMangle.cpp - a text rewrite meant for one arch hits another ===//
// SPDX-License-Identifier: Apache-2.0
//
// torch's select_compute_arch.cmake rewrites a detected "2.1" (Fermi) into
// "2.1(2.0)" with string(REPLACE), a substring match: on a DGX Spark "12.1"
// becomes "12.1(2.0)", i.e. `-gencode arch=compute_20,code=sm_121`, and the
// build drops every arch-gated kernel while it "succeeds" (field bug 5, vLLM
// PR #49904). Flagged: an unanchored rewrite of one arch number that also
// matches inside the arch number of another GPU of the arch table.
//===----------------------------------------------------------------------===//
#include "model/checks/Rule.h"
#include "model/checks/RuleSupport.h"
#include "model/checks/rules/Rules.h"

namespace archscope::checks {
namespace {

/// "2.1a" -> "2.1": the capability part of a matched arch number.
std::string capabilityOf(std::string number) {
  while (!number.empty() && std::isalpha(static_cast<unsigned char>(number.back()))) number.pop_back();
  return number;
}

std::string replaceAll(std::string s, const std::string &from, const std::string &to) {
  for (size_t p = 0; (p = s.find(from, p)) != std::string::npos; p += to.size()) s.replace(p, from.size(), to);
  return s;
}

std::string gpuName(const ArchRow &row) {
  std::string parts;
  for (const auto &p : row.parts) parts += (parts.empty() ? "" : ", ") + p;
  return row.cc.dotted() + (parts.empty() ? "" : " (" + parts + ")");
}

class ArchStringMangle : public Rule {
public:
  const RuleInfo &info() const override {
    static const RuleInfo i{"arch-string-mangle", Severity::Error,
                            "a text rewrite meant for one arch number also rewrites another GPU's arch",
                            "build arch-string mangling (field bug 5)"};
    return i;
  }

  void check(const CheckInput &in, std::vector<Finding> &out) const override {
    for (const auto &r : in.archRewrites) {
      if (r.anchored) continue;
      std::vector<std::string> hit, gpus;
      std::string example;
      for (const auto &row : in.table.rows()) {
        std::string arch = row.cc.dotted();
        if (arch == capabilityOf(r.match) || arch.find(r.match) == std::string::npos) continue;
        hit.push_back(gpuName(row));
        gpus.push_back(row.cc.name());
        if (example.empty()) example = "\"" + arch + "\" becomes \"" + replaceAll(arch, r.match, r.replacement) + "\"";
      }
      if (hit.empty()) continue;
      Finding f = finding(r.command + " of \"" + r.match + "\" in " + r.variable + " also matches inside " +
                              listTargets(hit) + ": " + example + "; the match is not tied to a whole list item",
                          at(r.path, r.line, "build", sourceLine(r.path, r.line)));
      f.targets = gpus;
      out.push_back(std::move(f));
    }
  }

};

} // namespace

std::unique_ptr<Rule> makeArchStringMangle() { return std::make_unique<ArchStringMangle>(); }

} // namespace archscope::checks
