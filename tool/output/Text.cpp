//===--- Text.cpp - the terminal table and the explain chain ------------===//
// SPDX-License-Identifier: Apache-2.0
#include "tool/output/Emitters.h"

#include <algorithm>
#include <iomanip>
#include <map>
#include <set>

namespace archscope {
namespace {

const char *colorOf(Verdict v) {
  switch (v) {
  case Verdict::Supported: return "\033[32m";
  case Verdict::Rejected: return "\033[2m";
  case Verdict::CrashRisk: return "\033[1;31m";
  case Verdict::Unreachable: return "\033[33m";
  case Verdict::Unknown: return "\033[35m";
  }
  return "";
}

/// The short name of a verdict in the table.
const char *verdictShort(Verdict v) {
  switch (v) {
  case Verdict::Supported: return "ok";
  case Verdict::Rejected: return "rejected";
  case Verdict::CrashRisk: return "CRASH";
  case Verdict::Unreachable: return "unreach";
  case Verdict::Unknown: return "?";
  }
  return "?";
}

std::string treeLine(const Matrix &m) {
  std::string s;
  for (const auto &t : m.trees) {
    std::string part = t.name;
    if (!t.revision.empty()) part += " @ " + t.revision;
    if (!t.version.empty()) part += " " + t.version;
    if (t.role == "dependency" && !t.profile.empty()) part += " (" + t.profile + ")";
    s += (s.empty() ? "" : "  +  ") + part;
  }
  return s;
}

} // namespace

std::string verdictLabel(const Cell &c) {
  // Built from a const char* (not assigned one): GCC 12 misreads a short
  // literal's assignment as an overlapping copy (-Wrestrict, GCC bug 105329).
  std::string base = verdictShort(c.verdict);
  if (!c.picked.empty()) base = c.picked + (c.verdict == Verdict::Supported ? "" : ":" + base);
  if (!c.conditions.empty()) base += "*";
  return base;
}

void emitText(const Matrix &m, std::ostream &out, bool color) {
  const char *reset = color ? "\033[0m" : "";
  for (const auto &quant : m.quants) {
    out << treeLine(m) << "   quant: " << quant << "   CUDA " << m.toolkit << " assumed\n";
    if (m.backends.empty()) {
      out << "no MoE backends found: no backend enum in the tree and no profile names any.\n"
             "Pass --profile FILE naming the rows (see docs/profiles.md).\n";
      continue;
    }
    // Rows no dispatch site reaches on any target (another format's
    // backends) are named below the table, not drawn as rows of `?`.
    std::vector<std::string> rows, unreached;
    for (const auto &b : m.backends) {
      bool none = std::all_of(m.targets.begin(), m.targets.end(), [&](ComputeCapability t) {
        const Cell *c = m.find(b, quant, t);
        return c && c->verdict == Verdict::Unknown && c->reason == kNoDispatchSite;
      });
      (none ? unreached : rows).push_back(b);
    }
    if (rows.empty()) rows.swap(unreached);
    size_t nameWidth = 8;
    for (const auto &b : rows) nameWidth = std::max(nameWidth, b.size() + 1);
    std::vector<size_t> widths;
    for (auto t : m.targets) {
      size_t w = t.name().size();
      for (const auto &b : rows)
        if (auto *c = m.find(b, quant, t)) w = std::max(w, verdictLabel(*c).size());
      widths.push_back(w + 2);
    }
    out << std::left << std::setw(int(nameWidth)) << "backend";
    for (size_t i = 0; i < m.targets.size(); ++i) out << std::setw(int(widths[i])) << m.targets[i].name();
    out << "\n";
    size_t conditional = 0;
    for (const auto &b : rows) {
      out << std::setw(int(nameWidth)) << b;
      for (size_t i = 0; i < m.targets.size(); ++i) {
        const Cell *c = m.find(b, quant, m.targets[i]);
        if (!c) { out << std::setw(int(widths[i])) << "-"; continue; }
        conditional += !c->conditions.empty();
        std::string label = verdictLabel(*c);
        if (color) out << colorOf(c->verdict);
        out << label << reset << std::string(widths[i] - label.size(), ' ');
      }
      out << "\n";
    }
    if (!unreached.empty()) {
      out << "\nnamed in the code, reached by no " << quant << " dispatch site (? everywhere):";
      size_t column = 200;
      for (size_t i = 0; i < unreached.size(); ++i) {
        std::string item = " " + unreached[i] + (i + 1 < unreached.size() ? "," : "");
        if (column + item.size() > 90) { out << "\n "; column = 1; }
        out << item;
        column += item.size();
      }
      out << "\n";
    }
    out << "\nok = dispatch admits it; rejected = clean error or never selected; CRASH = admitted but\n"
           "no kernel there; ? = unknown.";
    if (conditional)
      out << " * = depends on what explain names (a package, an environment variable, a\n"
             "plugin, another backend setting, the model, or code not interpreted).";
    out << "\nWhy a cell is what it is: archscope explain BACKEND TARGET [PATH]\n";
    size_t unresolved = std::count_if(m.predicates.begin(), m.predicates.end(),
                                      [](const PredicateFact &p) { return p.cond.isUnknownLeaf(); });
    out << m.predicates.size() << " capability predicates read";
    if (unresolved) out << " (" << unresolved << " not resolved: see --format json)";
    out << "; " << m.lowerLayers << " (CMake arch sets: archscope archs and lint).\n";
  }
}

/// The predicates a snippet reads (`not is_blackwell_supported()`, `_is_blackwell`).
/// A name several modules define (`_supports_current_device`) is taken only
/// from the snippet's own file; a definition line reads nothing.
std::vector<const PredicateFact *> predicatesCalledIn(const Matrix &m, const Evidence &e) {
  auto ident = [](char ch) { return std::isalnum(static_cast<unsigned char>(ch)) || ch == '_'; };
  const std::string &snippet = e.snippet;
  std::vector<const PredicateFact *> out;
  if (snippet.rfind("def ", 0) == 0) return out;
  std::map<std::string, int> defined; // short name -> predicates of that name
  for (const auto &p : m.predicates) ++defined[p.name.substr(p.name.rfind('.') + 1)];
  for (const auto &p : m.predicates) {
    if (defined[p.name.substr(p.name.rfind('.') + 1)] > 1 && p.where.path != e.path) continue;
    std::string name = p.name.substr(p.name.rfind('.') + 1);
    for (size_t at = snippet.find(name); at != std::string::npos; at = snippet.find(name, at + 1)) {
      size_t end = at + name.size();
      bool word = (at == 0 || (!ident(snippet[at - 1]) && snippet[at - 1] != '.')) &&
                  (end == snippet.size() || !ident(snippet[end]));
      if (word) {
        out.push_back(&p);
        break;
      }
    }
  }
  return out;
}

/// A predicate under the line that calls it: where it is defined, the body
/// line that gives its answer, and that answer on the cell's GPU.
void printPredicate(const PredicateFact &p, const Cell &c, std::ostream &out) {
  EvalEnv env;
  env.gpu = c.target;
  Tri v = p.cond.eval(env);
  std::string answer = v == Tri::True ? "true" : v == Tri::False ? "false" : "undecided";
  const Evidence &line = p.body.path.empty() ? p.where : p.body;
  out << "    defined " << line.path << ":" << line.line << "  `" << line.snippet << "`  "
      << p.name.substr(p.name.rfind('.') + 1) << " is " << answer << " on " << c.target.name() << "\n";
}

void emitExplain(const Matrix &m, const Cell &c, std::ostream &out, bool color) {
  const char *reset = color ? "\033[0m" : "";
  out << c.backend << " on " << c.target.name() << " (CC " << c.target.dotted() << "), " << c.quant << ": ";
  if (color) out << colorOf(c.verdict);
  out << verdictName(c.verdict) << reset;
  if (!c.lacking.empty()) out << " (the " << c.lacking << " layer has no kernel)";
  out << "\n";
  size_t pathWidth = 0;
  for (const auto &e : c.evidence)
    if (!e.path.empty()) pathWidth = std::max(pathWidth, e.path.size() + (e.line > 0 ? std::to_string(e.line).size() + 1 : 0));
  for (const auto &e : c.evidence) {
    out << "  " << std::left << std::setw(7) << e.layer;
    if (!e.path.empty()) {
      std::string loc = e.line > 0 ? e.path + ":" + std::to_string(e.line) : e.path;
      out << std::setw(int(pathWidth + 2)) << loc << "`" << e.snippet << "`";
      if (!e.note.empty()) out << "  " << e.note;
    } else {
      out << e.note;
    }
    out << "\n";
    for (const auto *p : predicatesCalledIn(m, e)) printPredicate(*p, c, out);
  }
  for (const auto &k : c.conditions) out << "  when   " << k.when << ": " << verdictName(k.verdict) << "\n";
  out << "  => " << c.reason << "\n";
}

} // namespace archscope
