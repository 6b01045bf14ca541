//===--- RuntimeChecks.h - C++ runtime checks of the device capability ---===//
// SPDX-License-Identifier: Apache-2.0
//
// The host side of the CUDA/C++ layer: where the engine's C++ decides on the
// GPU it runs on. One clang parse per file (host only, missing headers
// skipped) finds, with AST matchers:
//   Assert  TORCH_CHECK(major >= 10, ...), TVM_FFI_ICHECK(major == 10 || major == 12),
//           ICHECK_EQ(major, 10) and its _NE/_LT/_LE/_GT/_GE siblings, assert(),
//           and `if (arch < 100) throw ...;` (also what defined check macros expand to);
//   Branch  if / else-if / else arms and ?: on the SM (`getSMVersion() == 120`);
//   Switch  each case of `switch (sm)`, default as the negation of all cases;
//   Filter  `return arch >= 100 && arch < 120;` in a bool function (isArchCompatible).
// Each carries the Condition under which execution continues past the check
// or enters the arm, over the symbolic capability (major, minor); what cannot
// be translated is Condition::unknown with its text, never dropped.
// The same report lists the op registrations of the file (TORCH_LIBRARY,
// pybind, tvm-ffi exports), the link from a Python op name to a C++ function.
//===----------------------------------------------------------------------===//
#pragma once
#include "model/Condition.h"
#include "model/Evidence.h"

#include <string>
#include <string_view>
#include <vector>

namespace archscope::cuda {

struct RuntimeCheck {
  enum class Kind { Assert, Branch, Switch, Filter } kind = Kind::Assert;
  std::string function; ///< enclosing named function, qualified (lambdas: the function around them)
  Evidence where;       ///< path, line, col, layer "cpp", the source line trimmed
  Condition cond = Condition::truth();
  std::string text;     ///< the condition's source text (`default` for a switch default)
  /// The nearest enclosing `if`/`switch` condition that does not read the SM
  /// (`a_type == kFE4M3fn`): the check holds only on that path, not for the
  /// whole function. Empty when the check is on the function's own path.
  std::string guardedBy;
};

/// `m.def("op(...)")` / `m.impl("op", &fn)` in TORCH_LIBRARY*(ns, m), pybind's
/// `m.def("op", &fn)` in PYBIND11_MODULE(ns, m), TVM_FFI_DLL_EXPORT_TYPED_FUNC(op, fn).
struct OpRegistration {
  std::string ns;       ///< the library / module name as written (`sgl_kernel`, `TORCH_EXTENSION_NAME`); empty for tvm-ffi
  std::string op;
  std::string function; ///< the C++ function, as written; empty for a schema-only def
  Evidence where;
};

/// `cudaFuncSetAttribute(k, cudaFuncAttributeMaxDynamicSharedMemorySize, N)`
/// with N a compile-time constant: the shared memory a launch asks for.
struct SmemRequest {
  long bytes = 0;
  std::string function;     ///< the enclosing function
  Evidence where;
  bool checksOptinLimit = false; ///< the function reads the device's opt-in limit
};

struct RuntimeCheckReport {
  std::string path;
  std::vector<RuntimeCheck> checks;          ///< in source order
  std::vector<OpRegistration> registrations; ///< in source order
  std::vector<SmemRequest> smemRequests;     ///< constant dynamic shared-memory requests
  std::vector<std::string> missingIncludes;  ///< skipped, in first-seen order
  std::vector<std::string> errors;           ///< unreadable file, no AST
};

/// Parses `path` once (host side; `-x c++` for .cpp/.cc/.cxx, CUDA otherwise)
/// with `extraArgs` (-I, -D); never throws, reports bad input in `errors`.
RuntimeCheckReport extractRuntimeChecks(const std::string &path, const std::vector<std::string> &extraArgs);

/// Cheap literal prefilter: whether the text has any SM-, major- or
/// capability-like identifier at all. Files without one need no parse.
bool mayHaveRuntimeChecks(std::string_view text);

/// The op registrations of one file's text, from its tokens alone: the
/// registration macros are undeclared without torch/pybind/tvm-ffi headers,
/// and clang then drops their bodies, so no parse is needed (or usable).
std::vector<OpRegistration> scanOpRegistrations(const std::string &path, std::string_view text);

} // namespace archscope::cuda
