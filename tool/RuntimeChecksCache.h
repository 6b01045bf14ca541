//===--- RuntimeChecksCache.h - C++ runtime checks, parsed once per content -===//
// SPDX-License-Identifier: Apache-2.0
//
// The host-side clang parse of a file (RuntimeChecks.h) costs a tenth of a
// second or more; its report is kept in the cache, keyed by the file's
// content, the flags and this archscope build, like the guard passes.
//===----------------------------------------------------------------------===//
#pragma once
#include "matchers/cuda/RuntimeChecks.h"

#include <string>
#include <vector>

namespace archscope {

/// The runtime-check reports of `files`, in order, parsed on all cores (or
/// read from the cache). `withFlags`: the files' own preprocessor flags
/// (compile_commands.json or inferred include folders); otherwise none, so
/// that every header is missing and skipped (the fast path).
std::vector<cuda::RuntimeCheckReport> runtimeCheckReports(const std::vector<std::string> &files, bool withFlags,
                                                          bool useCache);

} // namespace archscope
