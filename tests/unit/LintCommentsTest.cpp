//===--- LintCommentsTest.cpp - suppression comments and fingerprints ----===//
// SPDX-License-Identifier: Apache-2.0
#include "tool/lint/Fingerprint.h"
#include "tool/lint/Suppressions.h"

#include <gtest/gtest.h>

using namespace archscope::lint;

TEST(Suppressions, TrailingCoversItsLineAloneCoversTheNextCodeLine) {
  auto s = parseSuppressions("a.py", "x = 1  # archscope: ignore[r1]\n"
                                     "# archscope: ignore[r2, r3] why\n"
                                     "# a reason on its own line\n"
                                     "y = 2\n");
  ASSERT_EQ(s.size(), 2u);
  EXPECT_EQ(s[0].coveredLine, 1);
  EXPECT_EQ(s[0].col, 8);
  EXPECT_EQ(s[1].coveredLine, 4);
  EXPECT_EQ(s[1].rules, (std::vector<std::string>{"r2", "r3"}));
}

TEST(Suppressions, ABlankLineBreaksTheLink) {
  auto s = parseSuppressions("CMakeLists.txt", "# archscope: ignore[r]\n\nset(X 1)\n");
  ASSERT_EQ(s.size(), 1u);
  EXPECT_EQ(s[0].coveredLine, 2);
}

TEST(Suppressions, OnlyRealCommentsOfTheFilesLanguage) {
  EXPECT_TRUE(parseSuppressions("a.py", "s = '# archscope: ignore[r]'\n").empty());
  EXPECT_TRUE(parseSuppressions("a.cu", "#if X  # archscope: ignore[r]\n#endif\n").empty());
  EXPECT_TRUE(parseSuppressions("notes.txt", "# archscope: ignore[r]\n").empty());
  EXPECT_TRUE(parseSuppressions("a.py", "# archscope: the rest is prose\n").empty());
  auto cu = parseSuppressions("a.cu", "#if X  // archscope: ignore[r]\n/* archscope: ignore[q] */\nint y;\n");
  ASSERT_EQ(cu.size(), 2u);
  EXPECT_EQ(cu[0].coveredLine, 1);
  EXPECT_EQ(cu[1].coveredLine, 3);
}

TEST(Suppressions, ABareIgnoreNamesNoRule) {
  auto s = parseSuppressions("a.py", "x = 1  # archscope: ignore\n");
  ASSERT_EQ(s.size(), 1u);
  EXPECT_TRUE(s[0].rules.empty());
}

TEST(Fingerprint, SnippetsLoseCommentsAndSpacing) {
  EXPECT_EQ(normalizedSnippet("if  cc >= (10, 0):   # EXPECT: x", "a.py"), "if cc >= (10, 0):");
  EXPECT_EQ(normalizedSnippet("s = '#not a comment'  # one", "a.py"), "s = '#not a comment'");
  EXPECT_EQ(normalizedSnippet("#if __CUDA_ARCH__ == 1200 // sm_120", "a.cu"), "#if __CUDA_ARCH__ == 1200");
}

TEST(Fingerprint, LineNumbersDoNotCountRepeatsDo) {
  archscope::Finding f;
  f.rule = "r";
  f.primary = {"/src/a.py", 10, 1, "python", "if cc >= (10, 0):", ""};
  archscope::Finding moved = f;
  moved.primary.line = 42;
  moved.message = "other words";
  auto a = fingerprintsOf({f}, "/src", {});
  auto b = fingerprintsOf({moved, moved}, "/src", {});
  EXPECT_EQ(a[0], b[0]);
  EXPECT_EQ(b[1].substr(0, 16), b[0].substr(0, 16));
  EXPECT_EQ(b[1].substr(16), ":2");
  EXPECT_EQ(portablePath("/src/x/a.py", "/src", {}), "x/a.py");
  EXPECT_EQ(portablePath("/lib/kern/m.py", "/src", {"/src", "/lib/kern"}), "kern/m.py");
}
