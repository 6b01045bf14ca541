//===--- KernelLaunches.h - which kernels a host function launches -------===//
// SPDX-License-Identifier: Apache-2.0
//
// A defining file often holds several kernels (the GEMM and small helpers);
// the ones a host function launches (`name<<<`, `name<T><<<`) between its
// definition and the end of its body (a `}` in column 0) are the ones its
// coverage is about. Read from the text: launches are plain tokens.
//===----------------------------------------------------------------------===//
#pragma once
#include "matchers/cuda/ArchGuardPass.h"

#include <string>
#include <vector>

namespace archscope::cuda {

/// The kernels of `report` that the function defined at `path`:`line`
/// launches; when it launches none of them itself, every kernel of the file.
std::vector<const KernelSite *> kernelsLaunchedFrom(const std::string &path, int line, const GuardReport &report);

} // namespace archscope::cuda
