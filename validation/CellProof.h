//===--- CellProof.h - what validation proved about each claimed cell -----===//
// SPDX-License-Identifier: Apache-2.0
//
// A static "supported" is a claim. For each claimed (backend, GPU) cell the
// profile names the kernel families the backend runs; the family whose ISA
// the GPU has (else the first one) is checked: ISA verdict of its build
// target (ptxas), launches on that GPU (from any machine's results), and
// what was not run, with why.
//===----------------------------------------------------------------------===//
#pragma once
#include "model/ArchTable.h"
#include "model/Facts.h"
#include "model/KernelFamilies.h"
#include "model/LowerLayers.h"
#include "model/Matrix.h"
#include "validation/Results.h"

#include <map>
#include <string>
#include <vector>

namespace archscope::validation {

struct CellProof {
  std::string backend;
  ComputeCapability gpu;
  Verdict claim = Verdict::Unknown;
  std::string family;      ///< "" when the profile names none
  std::string buildTarget; ///< sm_120a: what the family compiles for on this GPU
  std::string isa;         ///< isa-ok | isa-missing | isa-error | "" (not run)
  std::string isaDetail;
  std::string launch;      ///< launched-ok | launched-wrong | "" (not run)
  std::string launchDetail;
  std::string binary;      ///< binary-present | binary-missing | "" (no shipped object linked)
  std::string binaryDetail;
  std::vector<std::string> notRun; ///< each: what was not run and why
};

struct ProofInput {
  const Matrix &matrix;
  const Facts &facts;        ///< the compiled entries each backend calls
  const LowerLayers &lower;  ///< what the shipped binaries say of them
  const std::map<std::string, std::vector<std::string>> &backendFamilies;
  const KernelFamilies &families;
  const ArchTable &table;
  const std::vector<ResultRecord> &results;
};

std::vector<CellProof> proveCells(const ProofInput &in);

} // namespace archscope::validation
