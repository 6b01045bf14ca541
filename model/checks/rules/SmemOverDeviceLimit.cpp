//===--- SmemOverDeviceLimit.cpp - 200 KiB of shared memory on a 99 KiB GPU --===//
// SPDX-License-Identifier: Apache-2.0
//
// A launch asks for more dynamic shared memory than a GPU it runs on can
// give: tile configurations sized for SM100 (232,448 bytes) reach an RTX
// PRO 6000 or a DGX Spark (101,376 bytes) and fail with an internal error
// (field bug 12: TensorRT-LLM #11368, NVIDIA/cutlass #3144). The request is a
// compile-time constant of `cudaFuncSetAttribute(...,
// cudaFuncAttributeMaxDynamicSharedMemorySize, N)`; flagged on each GPU whose
// opt-in limit (arch table) is below N and for which the file's kernels
// compile a body, unless the function reads the device's opt-in limit (the
// fix of TensorRT-LLM PR #12704).
//===----------------------------------------------------------------------===//
#include "model/checks/Rule.h"
#include "model/checks/RuleSupport.h"
#include "model/checks/rules/Rules.h"

namespace archscope::checks {
namespace {

class SmemOverDeviceLimit : public Rule {
public:
  const RuleInfo &info() const override {
    static const RuleInfo i{"smem-over-device-limit", Severity::Error,
                            "a launch asks for more shared memory than a GPU its kernel is built for has",
                            "SMEM-capacity assumption (field bug 12: 99 KiB on sm_12x)"};
    return i;
  }

  void check(const CheckInput &in, std::vector<Finding> &out) const override {
    for (const auto &r : in.runtime) {
      const cuda::GuardReport *g = guardReportOf(in, r.path);
      if (!g) continue;
      for (const auto &s : r.smemRequests) {
        if (s.checksOptinLimit) continue;
        std::vector<std::string> over;
        long limit = 0;
        for (const auto &row : in.table.rows())
          if (row.smemOptinBytes && *row.smemOptinBytes < s.bytes && !kernelTargetOn(kernelsOf(*g), row.cc).empty()) {
            over.push_back(row.cc.name());
            limit = *row.smemOptinBytes;
          }
        if (over.empty()) continue;
        Finding f = finding("asks for " + std::to_string(s.bytes) + " bytes of shared memory; " + listTargets(over) +
                                " allow" + (over.size() == 1 ? "s" : "") + " at most " + std::to_string(limit) +
                                " per block and the kernels here compile for " + (over.size() == 1 ? "it" : "them"),
                            s.where);
        f.targets = over;
        out.push_back(std::move(f));
      }
    }
  }

};

} // namespace

std::unique_ptr<Rule> makeSmemOverDeviceLimit() { return std::make_unique<SmemOverDeviceLimit>(); }

} // namespace archscope::checks
