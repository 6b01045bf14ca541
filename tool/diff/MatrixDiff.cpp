//===--- MatrixDiff.cpp - what a change does to the matrix ----------------===//
// SPDX-License-Identifier: Apache-2.0
#include "tool/diff/MatrixDiff.h"

#include <algorithm>

namespace archscope::diff {
namespace {

bool sameConditions(const Cell &a, const Cell &b) {
  if (a.conditions.size() != b.conditions.size()) return false;
  for (size_t i = 0; i < a.conditions.size(); ++i)
    if (a.conditions[i].when != b.conditions[i].when || a.conditions[i].verdict != b.conditions[i].verdict)
      return false;
  return true;
}

/// What a user would notice: the verdict, auto's pick, the conditional
/// worlds. Reasons and evidence lines move with unrelated edits.
bool sameState(const Cell &a, const Cell &b) {
  return a.verdict == b.verdict && a.picked == b.picked && sameConditions(a, b);
}

bool isRegression(const Cell &before, const Cell &after) {
  return before.verdict == Verdict::Supported &&
         (after.verdict == Verdict::CrashRisk || after.verdict == Verdict::Rejected);
}

bool hasRow(const Matrix &m, const std::string &backend) {
  return std::find(m.backends.begin(), m.backends.end(), backend) != m.backends.end();
}

RowChange rowOf(const Matrix &m, const std::string &backend, const std::string &quant) {
  RowChange row{backend, quant, {}};
  for (auto t : m.targets)
    if (const Cell *c = m.find(backend, quant, t)) row.cells.push_back(*c);
  return row;
}

std::vector<std::string> unionOf(const std::vector<std::string> &a, const std::vector<std::string> &b) {
  std::vector<std::string> out = a;
  for (const auto &x : b)
    if (std::find(out.begin(), out.end(), x) == out.end()) out.push_back(x);
  return out;
}

} // namespace

size_t MatrixDiff::regressions() const {
  return std::count_if(changes.begin(), changes.end(), [](const CellChange &c) { return c.regression; });
}

void compareMatrices(MatrixDiff &diff) {
  const Matrix &a = diff.base.matrix, &b = diff.head.matrix;
  for (const auto &quant : unionOf(b.quants, a.quants)) {
    for (const auto &backend : unionOf(b.backends, a.backends)) {
      if (!hasRow(a, backend)) { diff.addedRows.push_back(rowOf(b, backend, quant)); continue; }
      if (!hasRow(b, backend)) { diff.removedRows.push_back(rowOf(a, backend, quant)); continue; }
      for (auto target : b.targets) {
        const Cell *before = a.find(backend, quant, target), *after = b.find(backend, quant, target);
        if (!before || !after) continue; // a target or quant only one side audited
        if (sameState(*before, *after)) { ++diff.unchanged; continue; }
        diff.changes.push_back({backend, quant, target, *before, *after, isRegression(*before, *after)});
      }
    }
  }
}

std::string cellState(const Cell &c) {
  std::string s = verdictName(c.verdict);
  if (!c.picked.empty()) s = c.picked + " (" + s + ")";
  if (!c.conditions.empty()) s += "*";
  return s;
}

const Evidence *leadingEvidence(const Cell &c) {
  for (const auto &e : c.evidence)
    if (!e.path.empty()) return &e;
  return c.evidence.empty() ? nullptr : &c.evidence.front();
}

const Evidence *changedEvidence(const CellChange &change) {
  auto same = [](const Evidence &x, const Evidence &y) {
    return x.path == y.path && x.snippet == y.snippet && x.note == y.note;
  };
  for (const auto &e : change.after.evidence) {
    if (e.path.empty()) continue;
    bool old = std::any_of(change.before.evidence.begin(), change.before.evidence.end(),
                           [&](const Evidence &b) { return same(b, e); });
    if (!old) return &e;
  }
  return leadingEvidence(change.after);
}

} // namespace archscope::diff
