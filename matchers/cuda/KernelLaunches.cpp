//===--- KernelLaunches.cpp - `name<<<` in a host function's body --------===//
// SPDX-License-Identifier: Apache-2.0
#include "matchers/cuda/KernelLaunches.h"

#include <fstream>
#include <regex>

namespace archscope::cuda {

std::vector<const KernelSite *> kernelsLaunchedFrom(const std::string &path, int line, const GuardReport &report) {
  std::ifstream in(path);
  std::string body, l;
  for (int n = 1; std::getline(in, l); ++n) {
    if (n < line) continue;
    if (n > line && !l.empty() && l[0] == '}') break;
    body += l + "\n";
  }
  std::vector<const KernelSite *> launched, all;
  for (const auto &k : report.kernels) {
    all.push_back(&k);
    if (std::regex_search(body, std::regex("\\b" + k.name + "\\s*(<[^;]*?>)?\\s*<<<"))) launched.push_back(&k);
  }
  return launched.empty() ? all : launched;
}

} // namespace archscope::cuda
