//===--- PhaseTimer.h - ARCHSCOPE_TIMING=1: how long each phase took ------===//
// SPDX-License-Identifier: Apache-2.0
//
// A debugging aid for archscope itself: with ARCHSCOPE_TIMING set, each
// lap prints its phase's wall time on standard error; otherwise nothing.
//===----------------------------------------------------------------------===//
#pragma once
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>

namespace archscope {

class PhaseTimer {
public:
  void lap(const char *phase, const std::string &detail = {}) {
    auto now = std::chrono::steady_clock::now();
    if (enabled_)
      std::fprintf(stderr, "archscope: timing: %-10s %.3f s%s%s\n", phase,
                   std::chrono::duration<double>(now - last_).count(), detail.empty() ? "" : ", ", detail.c_str());
    last_ = now;
  }

private:
  bool enabled_ = std::getenv("ARCHSCOPE_TIMING") != nullptr;
  std::chrono::steady_clock::time_point last_ = std::chrono::steady_clock::now();
};

} // namespace archscope
