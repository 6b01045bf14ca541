//===--- Matrix.cpp - verdict names and cell lookup ---------------------===//
// SPDX-License-Identifier: Apache-2.0
#include "model/Matrix.h"

namespace archscope {

const char *const kNoDispatchSite = "no dispatch site for this backend was found";

std::string verdictName(Verdict v) {
  switch (v) {
  case Verdict::Supported: return "supported";
  case Verdict::Rejected: return "rejected";
  case Verdict::CrashRisk: return "crash-risk";
  case Verdict::Unreachable: return "unreachable";
  case Verdict::Unknown: return "unknown";
  }
  return "unknown";
}

const Cell *Matrix::find(const std::string &backend, const std::string &quant,
                         ComputeCapability target) const {
  for (const auto &c : cells)
    if (c.backend == backend && c.quant == quant && c.target == target) return &c;
  return nullptr;
}

} // namespace archscope
