//===--- Markdown.cpp - the matrix as a Markdown page -------------------===//
// SPDX-License-Identifier: Apache-2.0
#include "tool/output/Emitters.h"

namespace archscope {

void emitMarkdown(const Matrix &m, std::ostream &out) {
  for (const auto &quant : m.quants) {
    out << "## " << quant << " MoE backends by GPU\n\n";
    for (const auto &t : m.trees)
      out << "- " << t.role << ": `" << t.name << "`" << (t.revision.empty() ? "" : " @ " + t.revision)
          << (t.version.empty() ? "" : " " + t.version) << "\n";
    out << "- CUDA toolkit assumed: " << m.toolkit << "\n\n| backend |";
    for (auto t : m.targets) out << " " << t.name() << " |";
    out << "\n|---|";
    for (size_t i = 0; i < m.targets.size(); ++i) out << "---|";
    out << "\n";
    for (const auto &b : m.backends) {
      out << "| `" << b << "` |";
      for (auto t : m.targets) {
        const Cell *c = m.find(b, quant, t);
        out << " " << (c ? verdictLabel(*c) : "-") << " |";
      }
      out << "\n";
    }
    out << "\n### Why\n\n";
    for (const auto &c : m.cells) {
      if (c.quant != quant || c.verdict == Verdict::Supported) continue;
      out << "- `" << c.backend << "` on " << c.target.name() << ": **" << verdictName(c.verdict) << "**, "
          << c.reason;
      for (const auto &e : c.evidence)
        if (!e.path.empty()) { out << " (`" << e.path << ":" << e.line << "`)"; break; }
      out << "\n";
    }
  }
}

} // namespace archscope
