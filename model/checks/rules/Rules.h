//===--- Rules.h - one factory per rule (each in its own file) -----------===//
// SPDX-License-Identifier: Apache-2.0
#pragma once
#include "model/checks/Rule.h"

namespace archscope::checks {
std::unique_ptr<Rule> makeAllowlistNotEnforced();
std::unique_ptr<Rule> makeArchSpecificOnlyBuild();
std::unique_ptr<Rule> makeArchStringMangle();
std::unique_ptr<Rule> makeAutoPicksFallback();
std::unique_ptr<Rule> makeClosedArchTable();
std::unique_ptr<Rule> makeCmakeArchDrop();
std::unique_ptr<Rule> makeDispatchAllowsUnbuilt();
std::unique_ptr<Rule> makeExactArchEquality();
std::unique_ptr<Rule> makeFamilyPredicateGap();
std::unique_ptr<Rule> makeOpenEndedArchGuard();
std::unique_ptr<Rule> makePredicateNameMismatch();
std::unique_ptr<Rule> makeReleaseArchGap();
std::unique_ptr<Rule> makeSmemOverDeviceLimit();
std::unique_ptr<Rule> makeToolkitGatedFlag();
} // namespace archscope::checks
