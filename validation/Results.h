//===--- Results.h - validation results as a file machines can share ------===//
// SPDX-License-Identifier: Apache-2.0
//
// Each machine writes what it proved (ISA verdicts anywhere; launches on its
// own GPU; binary targets of an installed engine) into one JSON file;
// `archscope validate --merge A.json B.json` combines files from a fleet
// (one CI runner per GPU type) so together they fill the matrix.
//===----------------------------------------------------------------------===//
#pragma once
#include "validation/IsaMatrix.h"

#include <cmath>
#include <string>
#include <vector>

namespace archscope::validation {

struct ResultRecord {
  std::string kind;    ///< isa | launch | binary
  std::string family;
  std::string target;  ///< isa: build target (sm_100a); launch: the GPU (sm_90); binary: the target found
  std::string verdict; ///< isa-ok, isa-missing, isa-error, launched-ok, launched-wrong, skipped, binary-present ...
  std::string detail;
  std::string shape;   ///< launch: "T=8 H=7168 I=2048 E=256 k=8"
  std::string device, driver, toolkit, machine;
  double maxRelErr = NAN, bound = NAN, ms = NAN;
};

/// Reads a results file; throws an input error naming the file and what is wrong.
std::vector<ResultRecord> loadResults(const std::string &path);
void writeResults(const std::string &path, const std::vector<ResultRecord> &records);
/// Later records replace earlier ones with the same kind, family, target, shape and device.
std::vector<ResultRecord> mergeResults(const std::vector<std::vector<ResultRecord>> &files);
std::vector<ResultRecord> isaRecords(const IsaMatrix &m, const std::string &machine);

} // namespace archscope::validation
