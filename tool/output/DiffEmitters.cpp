//===--- DiffEmitters.cpp - `archscope diff` as text, JSON, Markdown ------===//
// SPDX-License-Identifier: Apache-2.0
#include "tool/output/DiffEmitters.h"

#include "tool/output/Emitters.h"
#include "tool/output/MarkdownText.h"

#include <llvm/Support/FormatVariadic.h>
#include <llvm/Support/raw_ostream.h>

#include <algorithm>
#include <map>

namespace archscope {
namespace json = llvm::json;
using namespace diff;

namespace {

json::Value evidenceJson(const Evidence *e) {
  if (!e) return nullptr;
  return json::Object{{"path", e->path}, {"line", e->line},       {"col", e->col},
                      {"layer", e->layer}, {"snippet", e->snippet}, {"note", e->note}};
}

json::Value sideJson(const DiffSide &s) {
  json::Array trees;
  for (const auto &t : s.matrix.trees)
    trees.push_back(json::Object{{"role", t.role}, {"name", t.name}, {"path", t.path}, {"version", t.version},
                                 {"revision", t.revision}});
  return json::Object{{"rev", s.rev.spelled},   {"commit", s.rev.commit},  {"profile", s.profile},
                      {"trees", std::move(trees)}, {"warnings", json::Array(s.matrix.warnings)}};
}

json::Value rowJson(const RowChange &r) {
  json::Array cells;
  for (const auto &c : r.cells) cells.push_back(cellDocument(c));
  return json::Object{{"backend", r.backend}, {"quant", r.quant}, {"cells", std::move(cells)}};
}

/// "sm_120" or, when the diff spans several quant formats, "sm_120 (nvfp4)".
std::string where(const MatrixDiff &d, const std::string &quant, ComputeCapability target) {
  bool severalQuants = d.head.matrix.quants.size() > 1 || d.base.matrix.quants.size() > 1;
  return target.name() + (severalQuants ? " (" + quant + ")" : "");
}

/// "ok: sm_100, sm_103; CRASH: sm_120" for a row that exists on one side only.
std::string rowSummary(const RowChange &r) {
  std::map<std::string, std::string> byLabel;
  std::vector<std::string> order;
  for (const auto &c : r.cells) {
    std::string label = verdictLabel(c);
    if (!byLabel.count(label)) order.push_back(label);
    byLabel[label] += (byLabel[label].empty() ? "" : ", ") + c.target.name();
  }
  std::string s;
  for (const auto &label : order) s += (s.empty() ? "" : "; ") + label + " on " + byLabel[label];
  return s;
}

std::string folderOf(const MatrixDiff &d) {
  return d.prefix.empty() ? d.repoName : d.repoName + "/" + d.prefix;
}

std::string countLine(const MatrixDiff &d) {
  size_t n = d.changes.size(), r = d.regressions();
  std::string s = std::to_string(n) + (n == 1 ? " cell changed" : " cells changed");
  if (r) s += ", " + std::to_string(r) + (r == 1 ? " regression" : " regressions");
  return s + ", " + std::to_string(d.unchanged) + " unchanged";
}

/// Warnings of one side's audit that the other side does not have: a
/// profile scope missing at an old revision explains many changed cells.
std::vector<std::string> onlyIn(const Matrix &m, const Matrix &other) {
  std::vector<std::string> out;
  for (const auto &w : m.warnings)
    if (std::find(other.warnings.begin(), other.warnings.end(), w) == other.warnings.end()) out.push_back(w);
  return out;
}

template <typename Print> void sideWarnings(const MatrixDiff &d, Print print) {
  const size_t shown = 5;
  for (const auto *side : {&d.base, &d.head}) {
    auto list = onlyIn(side->matrix, (side == &d.base ? d.head : d.base).matrix);
    for (size_t i = 0; i < list.size() && i < shown; ++i) print(side->rev, list[i]);
    if (list.size() > shown)
      print(side->rev, "... and " + std::to_string(list.size() - shown) + " more (--format json lists them)");
  }
}

void textEvidence(const Evidence *e, std::ostream &out) {
  if (!e) return;
  out << "    " << e->layer << "  ";
  if (!e->path.empty()) out << md::location(*e) << "  `" << md::oneLine(e->snippet) << "`  ";
  out << e->note << "\n";
}

void textRows(const char *what, const std::vector<RowChange> &rows, std::ostream &out) {
  for (const auto &r : rows) out << "backend " << what << ": " << r.backend << " (" << rowSummary(r) << ")\n";
}

void markdownEvidence(const CellChange &c, std::ostream &out) {
  out << "#### `" << c.backend << "` on " << c.target.name() << ": " << verdictName(c.after.verdict) << "\n\n"
      << md::plain(c.after.reason) << "\n\n| layer | where | code | meaning |\n|---|---|---|---|\n";
  for (const auto &e : c.after.evidence)
    out << "| " << e.layer << " | " << (e.path.empty() ? "" : md::tableSafe(md::code(md::location(e)))) << " | "
        << (e.snippet.empty() ? "" : md::tableSafe(md::code(e.snippet))) << " | " << md::tableSafe(md::plain(e.note))
        << " |\n";
  for (const auto &k : c.after.conditions)
    out << "| when | | " << md::tableSafe(md::code(k.when)) << " | " << verdictName(k.verdict) << " |\n";
  out << "\n";
}

} // namespace

json::Value diffDocument(const MatrixDiff &d) {
  json::Array changes, added, removed;
  for (const auto &c : d.changes)
    changes.push_back(json::Object{{"backend", c.backend},
                                   {"quant", c.quant},
                                   {"target", c.target.name()},
                                   {"before", cellState(c.before)},
                                   {"after", cellState(c.after)},
                                   {"regression", c.regression},
                                   {"evidence", evidenceJson(changedEvidence(c))},
                                   {"before_cell", cellDocument(c.before)},
                                   {"after_cell", cellDocument(c.after)}});
  for (const auto &r : d.addedRows) added.push_back(rowJson(r));
  for (const auto &r : d.removedRows) removed.push_back(rowJson(r));
  return json::Object{{"tool", "archscope"},
                      {"command", "diff"},
                      {"repository", d.repoName},
                      {"folder", d.prefix},
                      {"base", sideJson(d.base)},
                      {"head", sideJson(d.head)},
                      {"changes", std::move(changes)},
                      {"rows_added", std::move(added)},
                      {"rows_removed", std::move(removed)},
                      {"unchanged", int64_t(d.unchanged)},
                      {"regressions", int64_t(d.regressions())}};
}

void emitDiffJson(const MatrixDiff &d, std::ostream &out) {
  std::string s;
  llvm::raw_string_ostream os(s);
  os << llvm::formatv("{0:2}", diffDocument(d));
  out << os.str() << "\n";
}

void emitDiffText(const MatrixDiff &d, std::ostream &out, bool color) {
  const char *red = color ? "\033[1;31m" : "", *bold = color ? "\033[1m" : "", *reset = color ? "\033[0m" : "";
  out << bold << folderOf(d) << reset << "  " << d.base.rev.spelled << " (" << d.base.rev.shortCommit() << ") -> "
      << d.head.rev.spelled << " (" << d.head.rev.shortCommit() << ")   " << countLine(d) << "\n";
  if (d.base.profile != d.head.profile)
    out << "note: the profile differs (" << d.base.profile << " -> " << d.head.profile
        << "): rows may change because the tree is read differently\n";
  sideWarnings(d, [&](const Revision &rev, const std::string &w) {
    out << "note: only at " << rev.spelled << ": " << w << "\n";
  });
  for (const auto &c : d.changes) {
    out << c.backend << " on " << where(d, c.quant, c.target) << ": " << cellState(c.before) << " -> "
        << (c.regression ? red : bold) << cellState(c.after) << reset;
    if (c.regression) out << "   " << red << "[regression]" << reset;
    out << "\n    " << c.after.reason << "\n";
    textEvidence(changedEvidence(c), out);
  }
  textRows("added", d.addedRows, out);
  textRows("removed", d.removedRows, out);
  if (d.changes.empty() && d.addedRows.empty() && d.removedRows.empty()) out << "no matrix cell changed\n";
  else out << "The whole chain of a cell: archscope explain BACKEND TARGET PATH, at either revision.\n";
}

void emitDiffMarkdown(const MatrixDiff &d, std::ostream &out) {
  out << "### archscope: MoE backend matrix, " << md::code(d.base.rev.spelled) << " → "
      << md::code(d.head.rev.spelled) << "\n\n"
      << md::code(folderOf(d)) << " at " << md::code(d.base.rev.shortCommit()) << " → "
      << md::code(d.head.rev.shortCommit()) << ": **" << countLine(d) << "**";
  if (d.regressions()) out << " (regression: a supported cell that became crash-risk or rejected)";
  out << ".\n\n";
  bool noted = false;
  sideWarnings(d, [&](const Revision &rev, const std::string &w) {
    out << (noted ? "" : "Audit warnings of one side only (they can explain changed cells):\n\n") << "- at "
        << md::code(rev.spelled) << ": " << md::plain(w) << "\n";
    noted = true;
  });
  if (noted) out << "\n";
  if (!d.changes.empty()) {
    out << "| backend | GPU | before | after | |\n|---|---|---|---|---|\n";
    for (const auto &c : d.changes)
      out << "| `" << c.backend << "` | " << where(d, c.quant, c.target) << " | " << cellState(c.before) << " | **"
          << cellState(c.after) << "** | " << (c.regression ? "regression" : "") << " |\n";
    out << "\n";
  }
  for (const auto &r : d.addedRows) out << "- backend added: `" << r.backend << "` (" << rowSummary(r) << ")\n";
  for (const auto &r : d.removedRows) out << "- backend removed: `" << r.backend << "`\n";
  if (!d.addedRows.empty() || !d.removedRows.empty()) out << "\n";
  if (!d.changes.empty()) {
    out << "<details>\n<summary>Evidence of the new verdicts</summary>\n\n";
    for (const auto &c : d.changes) markdownEvidence(c, out);
    out << "</details>\n\n";
  }
  out << "<sub>Generated by <code>archscope diff</code>; why a cell is what it is: "
         "<code>archscope explain BACKEND TARGET</code>.</sub>\n";
}

} // namespace archscope
