//===--- EntryWalks.h - walking a backend's way into its kernels --------===//
// SPDX-License-Identifier: Apache-2.0
//
// A backend's entry (a profile's entry, a library's public entry point, a
// registered function, a registry's runner) is walked from its first line
// under `backend == b`; what the walk reaches becomes that backend's facts.
//===----------------------------------------------------------------------===//
#pragma once
#include "matchers/python/FactSink.h"
#include "matchers/python/Interpreter.h"
#include "model/Facts.h"

#include <string>
#include <vector>

namespace archscope::py {

/// Walks `fn` as a way into `backend`'s kernels: a route fact with `why` as
/// its evidence, then the body under `backend == b` and `when`, then each of
/// `then` (methods its caller calls next on the same `self`).
void walkAsEntry(Interpreter &in, FactSink &sink, Facts &facts, const FuncRef &fn, const Value *self,
                 const std::string &backend, Evidence why, const Condition &when = Condition::truth(),
                 const std::vector<FuncRef> &then = {});

} // namespace archscope::py
