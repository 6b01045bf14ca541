//===--- TargetTest.cpp - run rules of plain, a and f targets -----------===//
// SPDX-License-Identifier: Apache-2.0
#include "model/Target.h"

#include <gtest/gtest.h>

using namespace archscope;

namespace {
ComputeCapability cc(int major, int minor) { return {major, minor}; }
Target target(const char *text) {
  auto t = Target::parse(text);
  EXPECT_TRUE(t.has_value()) << text;
  return t.value_or(Target{});
}
} // namespace

TEST(Target, ParsesNamesAndArchLists) {
  EXPECT_EQ(target("sm_120a").name(), "sm_120a");
  EXPECT_EQ(target("sm_100f").name(), "sm_100f");
  EXPECT_EQ(target("compute_90").name(), "compute_90");
  EXPECT_EQ(target("12.0a").name(), "sm_120a");
  EXPECT_EQ(target("10.0f").name(), "sm_100f");
  EXPECT_EQ(target("9.0+PTX").name(), "sm_90");
  EXPECT_FALSE(Target::parse("sm_").has_value());
  EXPECT_FALSE(Target::parse("sm_120x").has_value());
  EXPECT_EQ(ComputeCapability::parse("sm_121")->dotted(), "12.1");
  EXPECT_EQ(ComputeCapability::parse("10.3")->sm(), 103);
  EXPECT_FALSE(ComputeCapability::parse("twelve").has_value());
}

TEST(Target, ArchSpecificRunsOnlyOnItsOwnCapability) {
  Target a = target("sm_100a");
  EXPECT_TRUE(a.runsOn(cc(10, 0)));
  EXPECT_FALSE(a.runsOn(cc(10, 3))); // a B300 cannot load sm_100a (vllm #56548)
  EXPECT_FALSE(a.runsOn(cc(12, 0)));
  EXPECT_FALSE(target("sm_120a").runsOn(cc(12, 1)));
}

TEST(Target, FamilySpecificRunsOnTheSameMajorAtOrAboveMinor) {
  Target f = target("sm_100f");
  EXPECT_TRUE(f.runsOn(cc(10, 0)));
  EXPECT_TRUE(f.runsOn(cc(10, 3)));
  EXPECT_FALSE(f.runsOn(cc(11, 0))); // sm_100f does not cover sm_110
  EXPECT_TRUE(target("sm_120f").runsOn(cc(12, 1)));
  EXPECT_FALSE(target("sm_103f").runsOn(cc(10, 0)));
}

TEST(Target, PlainSassStaysInItsMajorWhilePtxForwards) {
  EXPECT_TRUE(target("sm_80").runsOn(cc(8, 6)));
  EXPECT_FALSE(target("sm_80").runsOn(cc(9, 0)));
  EXPECT_FALSE(target("sm_86").runsOn(cc(8, 0)));
  EXPECT_TRUE(target("compute_80").runsOn(cc(12, 0)));
  EXPECT_FALSE(target("compute_90").runsOn(cc(8, 9)));
  EXPECT_FALSE(target("compute_90a").runsOn(cc(10, 0))); // a-PTX does not forward
}
