//===--- ClosedArchTables.cpp - per-GPU tables that refuse new GPUs -------===//
// SPDX-License-Identifier: Apache-2.0
#include "matchers/python/ClosedArchTables.h"
#include "matchers/python/FactSink.h"
#include "matchers/python/PythonSyntax.h"
#include "model/PhaseTimer.h"

#include <algorithm>
#include <functional>
#include <optional>
#include <cctype>
#include <regex>

namespace archscope::py {
namespace {

/// Whether `text` names a GPU's capability: `major`, `cc`, `sm_version`,
/// `compute_capability`, `get_device_capability()[0]`; not `minor`, `success`.
/// A word counts when no letter touches it on either side, in any case.
bool namesCapability(std::string_view text) {
  auto letter = [](char c) { return std::isalpha(static_cast<unsigned char>(c)) != 0; };
  auto same = [](char a, char b) { return std::tolower(static_cast<unsigned char>(a)) == b; };
  for (std::string_view word : {"major", "capability", "cc", "sm", "arch"})
    for (auto at = text.begin();; ++at) {
      at = std::search(at, text.end(), word.begin(), word.end(), same);
      if (at == text.end()) break;
      bool before = at != text.begin() && letter(*(at - 1));
      bool after = at + word.size() != text.end() && letter(*(at + word.size()));
      if (!before && !after) return true;
    }
  return false;
}

/// One literal as a capability on one scale: 9 (a major), 90 or (9, 0) (10 *
/// major + minor). Scale 0 = major, 1 = sm; nullopt when not GPU-like.
struct ScaledValue {
  int scale;
  int value;
};

std::optional<int> integer(const ParsedModule &pm, TSNode n) {
  if (type(n) != "integer") return std::nullopt;
  std::string text(pm.text(n));
  bool digits = !text.empty() && text.size() <= 4 && std::all_of(text.begin(), text.end(), ::isdigit);
  if (!digits) return std::nullopt;
  return std::stoi(text);
}

std::optional<ScaledValue> capabilityLiteral(const ParsedModule &pm, TSNode n) {
  if (auto v = integer(pm, n)) {
    if (*v >= 3 && *v <= 15) return ScaledValue{0, *v};
    if (*v >= 30 && *v <= 200) return ScaledValue{1, *v};
    return std::nullopt;
  }
  if (type(n) == "tuple" || type(n) == "parenthesized_expression") {
    auto items = namedChildren(n);
    if (items.size() == 2) {
      auto major = integer(pm, items[0]), minor = integer(pm, items[1]);
      if (major && minor && *major >= 3 && *major <= 15 && *minor <= 9)
        return ScaledValue{1, *major * 10 + *minor};
    }
  }
  return std::nullopt;
}

/// The values an `in` collection lists: (80, 90), [(9, 0), (10, 0)].
std::optional<std::vector<ScaledValue>> capabilityCollection(const ParsedModule &pm, TSNode n) {
  if (type(n) != "tuple" && type(n) != "list" && type(n) != "set") return std::nullopt;
  std::vector<ScaledValue> out;
  for (TSNode item : namedChildren(n)) {
    auto v = capabilityLiteral(pm, item);
    if (!v) return std::nullopt;
    out.push_back(*v);
  }
  return out;
}

/// What the chain's tests say about one capability value.
struct Table {
  std::string subject;
  int scale = -1;
  std::vector<int> listed;
  bool open = false; ///< some test is not exact (>=, <, !=, not): the table may admit new GPUs
};

/// The operator between a comparison's two operands, as written: "==", "in".
std::string operatorOf(const ParsedModule &pm, TSNode left, TSNode right) {
  const std::string &src = pm.source();
  std::string op = src.substr(ts_node_end_byte(left), ts_node_start_byte(right) - ts_node_end_byte(left));
  op.erase(std::remove_if(op.begin(), op.end(), ::isspace), op.end());
  return op;
}

void readComparison(const ParsedModule &pm, TSNode cmp, Table &t) {
  auto operands = namedChildren(cmp);
  if (operands.size() != 2) {
    for (TSNode o : operands)
      if (namesCapability(pm.text(o))) t.open = true; // 9 <= cc < 11
    return;
  }
  TSNode left = operands[0], right = operands[1];
  std::string op = operatorOf(pm, left, right);
  std::vector<ScaledValue> values;
  TSNode subject = left;
  if (op == "==") {
    auto v = capabilityLiteral(pm, right);
    if (!v && (v = capabilityLiteral(pm, left))) subject = right;
    if (v) values.push_back(*v);
  } else if (op == "in") {
    if (auto vs = capabilityCollection(pm, right)) values = *vs;
  }
  bool aboutCapability = namesCapability(pm.text(subject));
  if (values.empty()) {
    if (aboutCapability) t.open = true; // `major >= 9`, `cc != (12, 0)`: not a closed row
    return;
  }
  if (!aboutCapability) return;
  std::string name(pm.text(subject));
  if (!t.subject.empty() && t.subject != name) t.open = true;
  t.subject = name;
  for (const auto &v : values) {
    if (t.scale >= 0 && t.scale != v.scale) t.open = true;
    t.scale = v.scale;
    t.listed.push_back(v.value);
  }
}

void readCondition(const ParsedModule &pm, TSNode cond, Table &t) {
  std::vector<TSNode> work = {cond};
  while (!work.empty()) {
    TSNode n = work.back();
    work.pop_back();
    if (type(n) == "not_operator" && namesCapability(pm.text(n))) t.open = true;
    if (type(n) == "comparison_operator") {
      readComparison(pm, n, t);
      continue;
    }
    for (TSNode c : namedChildren(n)) work.push_back(c);
  }
}

/// A string naming a compile target ("sm100a", "compute_90"): a chain that
/// picks one picks a kernel build, and a kernel exists only where it was built.
bool namesBuildTarget(std::string_view text) {
  static const std::regex target(R"((sm|compute)_?[0-9]{2,3}[af]?)", std::regex::icase);
  return std::regex_search(text.begin(), text.end(), target);
}

/// Whether a branch only hands back constants (`return 8, 8`, `x = 128`):
/// a table of per-GPU data, which newer GPUs need a row of too. A branch
/// that calls a kernel or names a build target is dispatch, and raising for
/// a GPU with no kernel is right.
bool onlyConstants(const ParsedModule &pm, TSNode block) {
  static const std::vector<std::string_view> constant = {
      "integer", "float", "true", "false", "none", "tuple", "expression_list", "list", "unary_operator"};
  std::function<bool(TSNode)> literal = [&](TSNode n) {
    if (type(n) == "string") {
      for (TSNode c : namedChildren(n))
        if (type(c) == "interpolation") return false;
      return !namesBuildTarget(pm.text(n));
    }
    if (std::find(constant.begin(), constant.end(), type(n)) == constant.end()) return false;
    for (TSNode c : namedChildren(n))
      if (!literal(c)) return false;
    return true;
  };
  auto statements = namedChildren(block);
  if (statements.empty()) return false;
  for (TSNode s : statements) {
    if (type(s) == "comment" || type(s) == "pass_statement") continue;
    TSNode value = s;
    if (type(s) == "return_statement") {
      auto kids = namedChildren(s);
      if (kids.size() != 1) return false;
      value = kids[0];
    } else if (type(s) == "expression_statement" && namedChildren(s).size() == 1 &&
               type(namedChildren(s)[0]) == "assignment") {
      value = field(namedChildren(s)[0], "right");
    } else {
      return false;
    }
    if (isNull(value) || !literal(value)) return false;
  }
  return true;
}

std::string enclosingFunctionName(const ParsedModule &pm, TSNode n) {
  TSNode def = enclosingFunction(ts_node_parent(n));
  return isNull(def) ? "" : std::string(pm.text(field(def, "name")));
}

/// The chain read as a closed table, when it is one.
std::optional<ClosedArchTable> closedTable(const ParsedModule &pm, TSNode chain) {
  Table t;
  int branches = 0;
  auto branch = [&](TSNode cond, TSNode body) {
    ++branches;
    readCondition(pm, cond, t);
    return onlyConstants(pm, body);
  };
  if (!branch(field(chain, "condition"), field(chain, "consequence"))) return std::nullopt;
  for (TSNode alt : namedChildren(chain))
    if (type(alt) == "elif_clause" && !branch(field(alt, "condition"), field(alt, "consequence")))
      return std::nullopt;
  std::sort(t.listed.begin(), t.listed.end());
  t.listed.erase(std::unique(t.listed.begin(), t.listed.end()), t.listed.end());
  if (t.open || branches < 2 || t.listed.size() < 2) return std::nullopt;
  return ClosedArchTable{enclosingFunctionName(pm, chain), t.subject, t.scale == 1, t.listed, {}};
}

/// Whether `raise` is the first statement of its block: the else refuses
/// outright (what the prefilter below looks for).
bool firstStatement(TSNode raise) {
  for (TSNode s : namedChildren(ts_node_parent(raise)))
    if (type(s) != "comment") return ts_node_eq(s, raise);
  return false;
}

/// The file-level prefilter: an `else:` whose first statement raises, after
/// an `elif` and a word naming the capability. The look-back is 8000
/// characters: a table of constants longer than that is not one a reader scans.
bool mayHoldClosedTable(const std::string &text) {
  constexpr size_t kLookBack = 8000;
  for (size_t at = text.find("else:"); at != std::string::npos; at = text.find("else:", at + 5)) {
    size_t next = text.find_first_not_of(" \t\r\n", at + 5);
    if (next == std::string::npos || text.compare(next, 5, "raise") != 0) continue;
    size_t from = at > kLookBack ? at - kLookBack : 0;
    std::string_view before(text.data() + from, at - from);
    if (before.find("elif") != std::string_view::npos && namesCapability(before)) return true;
  }
  return false;
}

} // namespace

void collectClosedArchTables(ModuleIndex &index, Facts &facts) {
  PhaseTimer timer;
  std::vector<Module *> candidates = index.modulesWhere(mayHoldClosedTable);
  for (Module *m : candidates) {
    if (!m->parsed) continue;
    const ParsedModule &pm = *m->parsed;
    closedArchTablesQuery().run(pm, pm.root(), [&](const Query::Captures &caps) {
      if (!firstStatement(caps.find("raise")->second)) return;
      auto table = closedTable(pm, caps.find("chain")->second);
      if (!table) return;
      table->where = evidenceAt(*m, caps.find("raise")->second);
      facts.closedArchTables.push_back(std::move(*table));
    });
  }
  timer.lap("arch tables", std::to_string(candidates.size()) + " files may hold a table that raises");
}

} // namespace archscope::py
