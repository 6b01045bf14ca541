//===--- DocPages.h - compatibility pages generated from the matrix -------===//
// SPDX-License-Identifier: Apache-2.0
//
// `archscope docs` writes, from one audit (and optionally one lint run):
//   index.md               backend x target per quant, each cell a link to its evidence
//   backends/<backend>.md  per target: verdict, reason, evidence chain (file:line)
//   rules/<id>.md          the rule's page, plus its current findings with --lint
//   index.html             all of it on one self-contained page (no network)
// Pages only format what the matrix and the findings hold.
//===----------------------------------------------------------------------===//
#pragma once
#include "model/Finding.h"
#include "model/Matrix.h"
#include "model/checks/Rule.h"

#include <map>
#include <ostream>
#include <string>
#include <vector>

namespace archscope::docs {

struct RulePage {
  checks::RuleInfo info;
  std::string text;              ///< docs/rules/<id>.md of this archscope, or "" when absent
  std::vector<Finding> findings; ///< with --lint: what lint reports for the rule now
};

struct DocSet {
  const Matrix *matrix = nullptr;
  std::vector<RulePage> rules;
  bool linted = false;   ///< findings were collected (else rule pages say how to)
  std::string generated; ///< "archscope 0.1.0, 2026-01-31 12:00 UTC"
};

/// The file name of a backend's page: backends/<name>.md, safe characters only.
std::string backendFile(const std::string &backend);
/// The anchor of a cell's evidence, the same in the Markdown and the HTML:
/// a heading "nvfp4 on sm_120" slugs to "nvfp4-on-sm_120" (GitHub, MkDocs).
std::string cellAnchor(const std::string &quant, ComputeCapability target);
/// The HTML page holds every backend: its anchors carry the backend too.
std::string htmlCellAnchor(const Cell &c);
/// "engine sglang @ 8905cbd 0.5.0; dependency flashinfer 0.6.14 (pinned 0.6.14)".
std::string treesLine(const Matrix &m);

void writeIndexMarkdown(const DocSet &d, std::ostream &out);
void writeBackendMarkdown(const DocSet &d, const std::string &backend, std::ostream &out);
void writeRuleMarkdown(const RulePage &rule, bool linted, std::ostream &out);
void writeHtml(const DocSet &d, std::ostream &out);

} // namespace archscope::docs
