//===--- EntryWalks.cpp - walking a backend's way into its kernels ------===//
// SPDX-License-Identifier: Apache-2.0
//===----------------------------------------------------------------------===//
#include "matchers/python/EntryWalks.h"

#include <filesystem>

namespace archscope::py {

void walkAsEntry(Interpreter &in, FactSink &sink, Facts &facts, const FuncRef &fn, const Value *self,
                 const std::string &backend, Evidence why, const Condition &when,
                 const std::vector<FuncRef> &then) {
  GuardFact route;
  route.kind = GuardFact::Kind::Route;
  route.backend = backend;
  route.tree = std::filesystem::path(fn.mod->tree->root()).filename().string();
  route.chain.push_back(std::move(why));
  facts.guards.push_back(route);
  facts.dispatched.insert(backend);
  sink.setStage(kEntryStage);
  sink.setBackend(backend);
  in.setSinkDepth(6); // library call chains to the JIT build are deeper
  const Condition reach = Condition::backendIs({backend}, backend) && when;
  std::vector<FuncRef> steps{fn};
  steps.insert(steps.end(), then.begin(), then.end());
  for (const auto &step : steps) {
    in.resetBudget();
    in.walkFunction(step, {}, {}, reach, &sink, Interpreter::kEntryDepth, self);
  }
  sink.setBackend("");
  in.setSinkDepth(3);
}

} // namespace archscope::py
