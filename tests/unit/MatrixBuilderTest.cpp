//===--- MatrixBuilderTest.cpp - verdicts from facts ---------------------===//
// SPDX-License-Identifier: Apache-2.0
#include "model/MatrixBuilder.h"

#include <gtest/gtest.h>

using namespace archscope;

namespace {
Condition majorIs(long m) {
  return Condition::compare({Linear::var(SymVar::CcMajor)}, CmpOp::Eq, {Linear::constantOf(m)}, "major == " + std::to_string(m));
}
Condition atLeast(long major) {
  return Condition::compare({Linear::var(SymVar::CcMajor), Linear::var(SymVar::CcMinor)}, CmpOp::Ge,
                            {Linear::constantOf(major), Linear::constantOf(0)}, ">= (" + std::to_string(major) + ", 0)");
}
GuardFact fact(GuardFact::Kind kind, Condition cond, std::string backend, int order = 0) {
  GuardFact g;
  g.kind = kind;
  g.cond = std::move(cond);
  g.backend = std::move(backend);
  g.order = order;
  g.chain.push_back({"engine.py", order, 1, "python", "snippet", ""});
  return g;
}
MatrixRequest request(std::vector<std::string> backends) {
  MatrixRequest r;
  r.backends = std::move(backends);
  r.quants.push_back({"nvfp4", {"modelopt_fp4"}});
  r.targets = {{9, 0}, {10, 0}, {12, 0}};
  return r;
}
Verdict verdict(const Matrix &m, const std::string &b, ComputeCapability t) {
  const Cell *c = m.find(b, "nvfp4", t);
  EXPECT_NE(c, nullptr);
  return c ? c->verdict : Verdict::Unknown;
}
} // namespace

TEST(MatrixBuilder, RaiseUnderAGuardRejects) {
  Facts f;
  f.guards.push_back(fact(GuardFact::Kind::Route, Condition::backendIs({"gen"}, ""), "gen"));
  f.guards.push_back(fact(GuardFact::Kind::Reject, Condition::backendIs({"gen"}, "") && !atLeast(10), ""));
  auto m = buildMatrix(f, request({"gen"}));
  EXPECT_EQ(verdict(m, "gen", {9, 0}), Verdict::Rejected);
  EXPECT_EQ(verdict(m, "gen", {12, 0}), Verdict::Supported);
}

TEST(MatrixBuilder, UnenforcedAllowListIsCrashRisk) {
  Facts f;
  f.guards.push_back(fact(GuardFact::Kind::Route, Condition::backendIs({"gen"}, ""), "gen"));
  GuardFact declared = fact(GuardFact::Kind::Declared, majorIs(10), "gen");
  f.guards.push_back(declared);
  auto m = buildMatrix(f, request({"gen"}));
  EXPECT_EQ(verdict(m, "gen", {10, 0}), Verdict::Supported);
  EXPECT_EQ(verdict(m, "gen", {12, 0}), Verdict::CrashRisk);
}

TEST(MatrixBuilder, DeviceChecksAndPackageSplits) {
  Facts f;
  auto pkg = Condition::opaque(OpaqueKind::Package, "has_b12x()");
  f.guards.push_back(fact(GuardFact::Kind::Support, majorIs(12) && pkg, "b12x"));
  auto m = buildMatrix(f, request({"b12x"}));
  EXPECT_EQ(verdict(m, "b12x", {10, 0}), Verdict::Rejected);
  const Cell *c = m.find("b12x", "nvfp4", {12, 0});
  ASSERT_NE(c, nullptr);
  EXPECT_EQ(c->verdict, Verdict::Supported); // packages assumed installed
  ASSERT_EQ(c->conditions.size(), 1u);
  EXPECT_EQ(c->conditions[0].when, "if has_b12x() is false");
  EXPECT_EQ(c->conditions[0].verdict, Verdict::Rejected);
}

TEST(MatrixBuilder, AutoPicksTheFirstDefiniteSelection) {
  Facts f;
  auto isAuto = Condition::backendIs({"auto"}, "");
  f.guards.push_back(fact(GuardFact::Kind::Route, Condition::backendIs({"gen"}, ""), "gen"));
  f.guards.push_back(fact(GuardFact::Kind::Route, Condition::backendIs({"w4a16"}, ""), "w4a16"));
  f.guards.push_back(fact(GuardFact::Kind::Select, isAuto && atLeast(10), "gen", 1));
  f.guards.push_back(fact(GuardFact::Kind::Select, isAuto && !atLeast(10), "w4a16", 2));
  auto m = buildMatrix(f, request({"gen", "w4a16"}));
  ASSERT_EQ(m.backends.front(), "auto");
  EXPECT_EQ(m.find("auto", "nvfp4", {9, 0})->picked, "w4a16");
  EXPECT_EQ(m.find("auto", "nvfp4", {12, 0})->picked, "gen");
}

TEST(MatrixBuilder, NoDispatchSiteIsUnknown) {
  auto m = buildMatrix(Facts{}, request({"ghost"}));
  EXPECT_EQ(verdict(m, "ghost", {10, 0}), Verdict::Unknown);
}
