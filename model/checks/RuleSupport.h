//===--- RuleSupport.h - small helpers the rules share --------------------===//
// SPDX-License-Identifier: Apache-2.0
#pragma once
#include "model/checks/CheckInput.h"

#include <algorithm>
#include <string>
#include <vector>

namespace archscope::checks {

/// A CMake arch list ("10.0a;12.0f;8.0+PTX") as targets; items that are not archs are left out.
std::vector<Target> parseArchSet(const std::string &list);
/// "sm_110, sm_120 and sm_121".
std::string listTargets(const std::vector<std::string> &names);
/// The GPUs rules reason about: every arch-table row from CC 8.0 (the
/// tensor-core generations engines ship MoE kernels for).
std::vector<ComputeCapability> tableGpus(const ArchTable &table);
/// The families of `backend` (profile) whose ISA exists on `gpu`.
std::vector<std::string> familiesOn(const CheckInput &in, const std::string &backend, ComputeCapability gpu);
/// Whether the profile names any family for `backend`.
bool hasFamilies(const CheckInput &in, const std::string &backend);
/// The environment of the matrix's default world on `gpu`: optional packages
/// installed, environment variables unset (cells list the other worlds).
EvalEnv defaultWorld(const CheckInput &in, const Condition &c, ComputeCapability gpu, const std::string &backend);
/// Whether the condition compares the capability (major, or major*10+minor)
/// for equality: `major == 10`, `sm == 120`, `ICHECK_EQ(major, 10)`.
bool comparesCapabilityExactly(const Condition &c);
/// The guard report of `path`, or null.
const cuda::GuardReport *guardReportOf(const CheckInput &in, const std::string &path);
/// A build target of the passes that runs on `gpu` and compiles one of
/// `kernels` to a body ("" when none does).
std::string kernelTargetOn(const std::vector<const cuda::KernelSite *> &kernels, ComputeCapability gpu);
/// All kernels of a report, as kernelTargetOn takes them.
std::vector<const cuda::KernelSite *> kernelsOf(const cuda::GuardReport &g);
/// The evidence of a guard fact: its site, then its context and chain.
Evidence siteOf(const GuardFact &g);
std::vector<Evidence> chainOf(const GuardFact &g);
/// The evidence of a CMake call or #if line.
Evidence at(const std::string &path, int line, const std::string &layer, const std::string &snippet,
            const std::string &note = "");
/// The text of line `line` of `path`, trimmed ("" when unreadable).
std::string sourceLine(const std::string &path, int line);

} // namespace archscope::checks
