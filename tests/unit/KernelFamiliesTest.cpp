//===--- KernelFamiliesTest.cpp - which line shows a kernel family ------===//
// SPDX-License-Identifier: Apache-2.0
#include "model/KernelFamilies.h"

#include <gtest/gtest.h>

using namespace archscope;

namespace {
KernelFamilies shipped() { return KernelFamilies::load(ARCHSCOPE_DATA_DIR "/kernel-families.yaml"); }
} // namespace

TEST(KernelFamilies, ShowsTheCodeLineNotTheDocstringThatNamesTheFamily) {
  // FlashInfer's CuTe DSL kernels describe their tcgen05 use in a docstring
  // before they use it: the evidence is the use.
  std::string py =
      "\"\"\"A grouped GEMM.\n\n- Utilizes Blackwell's tcgen05.mma for MMA\n\"\"\"\n"
      "import cutlass.cute as cute\n\n# tcgen05.mma below\nop = cute.nvgpu.tcgen05.CtaGroup.ONE\n";
  auto marks = shipped().marksIn("k.py", py);
  ASSERT_EQ(marks.size(), 1u);
  EXPECT_EQ(marks[0].family, "tcgen05");
  EXPECT_EQ(marks[0].where.line, 8);
}

TEST(KernelFamilies, AFamilyNamedOnlyInProseStillCounts) {
  // A mark only in a comment is kept (the family is read as before), shown as it is.
  auto marks = shipped().marksIn("k.cu", "// uses tcgen05.mma through cubins\nint x;\n");
  ASSERT_EQ(marks.size(), 1u);
  EXPECT_EQ(marks[0].where.line, 1);
}

TEST(KernelFamilies, CppCommentsAreProse) {
  std::string cu = "// mma.sync.aligned.kind::mxf4nvf4.block_scale, through CUTLASS:\n"
                   "using Arch = cutlass::arch::Sm120;\n";
  auto marks = shipped().marksIn("k.cu", cu);
  ASSERT_EQ(marks.size(), 1u);
  EXPECT_EQ(marks[0].family, "mma-blockscale");
  EXPECT_EQ(marks[0].where.line, 2);
}
