//===--- ToolkitGatedFlags.cpp - flags a JIT build drops on old toolkits --===//
// SPDX-License-Identifier: Apache-2.0
#include "matchers/python/ToolkitGatedFlags.h"
#include "matchers/python/FactSink.h"
#include "matchers/python/PythonSyntax.h"
#include "model/PhaseTimer.h"

#include <regex>

namespace archscope::py {
namespace {

/// A test of the CUDA toolkit's version: `is_cuda_version_at_least("12.8")`,
/// `torch.version.cuda >= "12.8"`, `cuda_version >= (12, 8)`.
bool testsToolkit(std::string_view text) {
  static const std::regex toolkit(R"(cuda_version|version\.cuda|cuda_ver\b|CUDA_VERSION|nvcc_version)",
                                  std::regex::icase);
  return std::regex_search(text.begin(), text.end(), toolkit);
}

/// The file-level prefilter of testsToolkit: plain searches, no regex.
bool mayTestToolkit(const std::string &text) {
  for (const char *word : {"cuda_version", "version.cuda", "cuda_ver", "CUDA_VERSION", "nvcc_version"})
    if (text.find(word) != std::string::npos) return true;
  return false;
}

/// The flag a string literal passes, when it is one that changes what the
/// module compiles (-D/-U): "-DENABLE_FP4" -> -DENABLE_FP4.
std::string flagOf(std::string_view literal) {
  size_t open = literal.find_first_of("\"'");
  if (open == std::string_view::npos) return "";
  std::string_view body = literal.substr(open + 1, literal.size() - open - 2);
  return body.rfind("-D", 0) == 0 || body.rfind("-U", 0) == 0 ? std::string(body) : "";
}

/// Whether `node` lies in a function (or module) that also raises when the
/// toolkit is too old: then the missing flag is not silent.
bool raisesOnToolkit(const ParsedModule &pm, TSNode node) {
  TSNode scope = node;
  while (!isNull(ts_node_parent(scope)) && type(scope) != "function_definition") scope = ts_node_parent(scope);
  bool raises = false;
  std::vector<TSNode> work = {scope};
  while (!work.empty() && !raises) {
    TSNode n = work.back();
    work.pop_back();
    if (type(n) == "if_statement" && testsToolkit(pm.text(field(n, "condition"))) &&
        pm.text(field(n, "consequence")).find("raise") != std::string_view::npos)
      raises = true;
    for (TSNode c : namedChildren(n)) work.push_back(c);
  }
  return raises;
}

} // namespace

void collectToolkitGatedFlags(ModuleIndex &index, Facts &facts) {
  PhaseTimer timer;
  std::vector<Module *> candidates = index.modulesWhere([](const std::string &text) {
    bool passesDefine = text.find("\"-D") != std::string::npos || text.find("'-D") != std::string::npos;
    return passesDefine && mayTestToolkit(text);
  });
  for (Module *m : candidates) {
    if (!m->parsed) continue;
    const ParsedModule &pm = *m->parsed;
    toolkitGatedFlagsQuery().run(pm, pm.root(), [&](const Query::Captures &caps) {
      TSNode gate = caps.find("gate")->second, test = caps.find("test")->second;
      std::string flag = flagOf(pm.text(caps.find("flag")->second));
      if (flag.empty() || !testsToolkit(pm.text(test)) || raisesOnToolkit(pm, gate)) return;
      facts.toolkitGatedFlags.push_back({flag, std::string(pm.text(test)), evidenceAt(*m, gate)});
    });
  }
  timer.lap("toolkit", std::to_string(candidates.size()) + " files may gate a flag on the toolkit");
}

} // namespace archscope::py
