//===--- MatrixDiff.h - what a change does to the matrix ------------------===//
// SPDX-License-Identifier: Apache-2.0
//
// Two matrices of the same tree at two revisions, compared cell by cell
// (backend x quant x target, the auto row's pick included). Evidence that
// only moved (a line inserted above) is not a change; a verdict, a pick or a
// conditional world that differs is.
//===----------------------------------------------------------------------===//
#pragma once
#include "model/Matrix.h"
#include "tool/diff/GitCheckout.h"

#include <optional>
#include <string>
#include <vector>

namespace archscope::diff {

/// One revision's side: what was asked for and what the audit said.
struct DiffSide {
  Revision rev;
  std::string profile;
  Matrix matrix;
};

struct CellChange {
  std::string backend, quant;
  ComputeCapability target;
  Cell before, after;
  bool regression = false; ///< supported before, crash-risk or rejected after
};

/// A backend row present at one revision only.
struct RowChange {
  std::string backend, quant;
  std::vector<Cell> cells;
};

struct MatrixDiff {
  std::string repoName;
  std::string prefix; ///< the audited folder inside the repository
  DiffSide base, head;
  std::vector<CellChange> changes; ///< in row order of the head matrix, then target order
  std::vector<RowChange> addedRows, removedRows;
  size_t unchanged = 0;

  size_t regressions() const;
};

/// Compares `base` and `head` cell by cell; fills changes, rows and counts.
void compareMatrices(MatrixDiff &diff);

/// How a cell reads in one phrase: "crash-risk", or for the auto row
/// "flashinfer_cutlass (supported)"; "*" marks a conditional cell.
std::string cellState(const Cell &c);

/// The first evidence of a cell that names a source line, or nullptr.
const Evidence *leadingEvidence(const Cell &c);

/// The first evidence of the new verdict that the old one did not have (the
/// same path, snippet and note; lines may move), else its leading evidence:
/// the line that most likely made the change.
const Evidence *changedEvidence(const CellChange &change);

} // namespace archscope::diff
