//===--- IsaMatrix.h - which targets have each kernel family's ISA --------===//
// SPDX-License-Identifier: Apache-2.0
//
// The ISA half of validation, no GPU needed: each kernel family's probe
// (kernels/<family>/isa_probe.cu) is compiled to PTX once with nvcc, at the
// family's home target (the first arch-table GPU whose ISA has the family's
// feature), and that PTX is assembled by ptxas for every target of the arch
// table. ptxas accepts it, or names the instruction the target lacks
// ("Instruction 'tcgen05.alloc' not supported on .target 'sm_120a'"): the
// verdict is ptxas's own answer. Results are cached by the sources, the
// target and the toolkit.
//===----------------------------------------------------------------------===//
#pragma once
#include "model/ArchTable.h"
#include "model/KernelFamilies.h"

#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace archscope::validation {

/// Where results are kept between runs (the tool's content-hash cache).
struct ResultCache {
  std::function<std::optional<std::string>(const std::string &key)> get;
  std::function<void(const std::string &key, const std::string &value)> put;
};

struct IsaVerdict {
  enum class State { Ok, Missing, Error } state = State::Error;
  std::string family;
  Target target;
  std::string missing; ///< Missing: the instruction or feature ptxas names
  std::string detail;  ///< ptxas's first error line, or why nothing ran
};

struct IsaMatrix {
  std::string toolkit; ///< nvcc's version line
  std::vector<std::pair<std::string, Target>> homes; ///< family -> where its PTX was generated
  std::vector<IsaVerdict> verdicts; ///< family-major, targets in table order
  std::vector<std::string> errors;  ///< no nvcc, a probe that does not compile, ...
  size_t fromCache = 0;
};

struct IsaRequest {
  std::string kernelsDir;      ///< archscope's kernels/ folder
  std::vector<Target> targets; ///< empty: every target variant of the arch table nvcc knows
  std::vector<std::string> families; ///< empty: all
  ResultCache cache;
};

/// Every (plain, a, f) target of the arch table whose first toolkit is at
/// most `toolkit` ("13.0").
std::vector<Target> tableTargets(const ArchTable &table, const std::string &toolkit);

IsaMatrix computeIsaMatrix(const KernelFamilies &families, const ArchTable &table, const IsaRequest &request);

const char *isaStateName(IsaVerdict::State s);

} // namespace archscope::validation
