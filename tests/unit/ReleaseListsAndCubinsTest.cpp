//===--- ReleaseListsAndCubinsTest.cpp - arch lists and cubin names read as written ---===//
// SPDX-License-Identifier: Apache-2.0
#include "matchers/binary/CubinPools.h"
#include "matchers/build/ArchStringRewrites.h"
#include "matchers/build/ReleaseArchLists.h"

#include <gtest/gtest.h>

using namespace archscope;

namespace {
std::vector<std::string> names(const build::ReleaseArchList &l) {
  std::vector<std::string> out;
  for (const auto &t : l.targets) out.push_back(t.name());
  return out;
}
} // namespace

TEST(ReleaseArchLists, ReadsEveryAssignmentFormAndSeparator) {
  auto lists = build::archListsIn("Dockerfile", "ARG torch_cuda_arch_list='7.5 8.0 12.0+PTX'\n"
                                                "RUN export TORCH_CUDA_ARCH_LIST=\"9.0a;10.0a\" && make\n"
                                                "    FLASHINFER_CUDA_ARCH_LIST: 10.0f,12.0f\n");
  ASSERT_EQ(lists.size(), 3u);
  EXPECT_EQ(lists[0].line, 1);
  EXPECT_EQ(names(lists[0]), (std::vector<std::string>{"sm_75", "sm_80", "sm_120", "compute_120"}));
  EXPECT_EQ(lists[1].line, 2);
  EXPECT_EQ(lists[1].variable, "TORCH_CUDA_ARCH_LIST");
  EXPECT_EQ(names(lists[1]), (std::vector<std::string>{"sm_90a", "sm_100a"}));
  EXPECT_EQ(names(lists[2]), (std::vector<std::string>{"sm_100f", "sm_120f"}));
}

TEST(ReleaseArchLists, ReadsDefaultsAndSkipsReferencesAndOtherValues) {
  auto lists = build::archListsIn("build.sh", "TORCH_CUDA_ARCH_LIST=\"${TORCH_CUDA_ARCH_LIST:-12.0a}\"\n"
                                              "export TORCH_CUDA_ARCH_LIST=\"${ARCHS}\"\n"
                                              "CUDA_ARCH_LIST=native\n"
                                              "TORCH_CUDA_ARCH_LIST=\"Ampere Hopper\"\n");
  ASSERT_EQ(lists.size(), 1u);
  EXPECT_EQ(lists[0].value, "12.0a");
  EXPECT_EQ(names(lists[0]), (std::vector<std::string>{"sm_120a"}));
}

TEST(ReleaseArchLists, ReadsAPipelineVariableAndTheCudaVersionOfItsCommand) {
  auto lists = build::archListsIn(
      "release-pipeline.yaml",
      "env:\n  ARCHS_CU129: \"8.0 9.0 10.0 12.0\"\n  TWICE_ARCH: \"9.0\"\n  TWICE_ARCH: \"10.0\"\n"
      "steps:\n  - \"docker build --build-arg CUDA_VERSION=12.9.1 --build-arg torch_cuda_arch_list=\\\"${ARCHS_CU129}\\\" .\"\n"
      "  - |\n    docker build \\\n      --build-arg CUDA_VERSION=13.0.2 \\\n"
      "      --build-arg torch_cuda_arch_list=\"$ARCHS_CU129\" \\\n      -f docker/Dockerfile .\n"
      "  - \"docker build --build-arg torch_cuda_arch_list=${TWICE_ARCH} .\"\n"
      "  - \"export TORCH_CUDA_ARCH_LIST='10.0f'\"\n");
  ASSERT_EQ(lists.size(), 3u); // TWICE_ARCH has two values: which one is read is not known
  EXPECT_EQ(lists[0].line, 6);
  EXPECT_EQ(lists[0].value, "8.0 9.0 10.0 12.0");
  EXPECT_EQ(lists[0].via, "ARCHS_CU129");
  EXPECT_EQ(lists[0].cudaVersion, "12.9.1");
  EXPECT_EQ(lists[1].line, 10);
  EXPECT_EQ(lists[1].cudaVersion, "13.0.2"); // two lines up, joined by backslashes
  EXPECT_EQ(lists[2].via, "");
  EXPECT_EQ(lists[2].cudaVersion, ""); // not said where the list is
}

TEST(ReleaseArchLists, ADockerfileListBuildsWithTheFilesCudaDefault) {
  auto lists = build::archListsIn("docker/Dockerfile", "ARG CUDA_VERSION=12.8.1\nFROM base\nARG CUDA_VERSION\n"
                                                       "ARG torch_cuda_arch_list='8.0 10.0 12.0'\n");
  ASSERT_EQ(lists.size(), 1u);
  EXPECT_EQ(lists[0].cudaVersion, "12.8.1");
  EXPECT_EQ(build::archListsIn("build.sh", "ARG CUDA_VERSION=12.8.1\nTORCH_CUDA_ARCH_LIST='8.0'\n")[0].cudaVersion, "");
}

TEST(ArchStringRewrites, ReadsTheMatchAsCMakeDoesAndWhetherItIsAnchored) {
  auto rewrites = build::archStringRewritesIn(
      "select.cmake", "string(REPLACE \"2.1\" \"2.1(2.0)\" compute_capabilities \"${compute_capabilities}\")\n"
                      "# string(REPLACE \"2.1\" \"x\" archs \"${archs}\")\n"
                      "string(REGEX REPLACE \"(^|;)2\\\\.1(;|$)\" \"\\\\12.1(2.0)\\\\2\" OUT_ARCHS \"${IN}\")\n"
                      "list(TRANSFORM CUDA_ARCHS\n  REPLACE \"^12\\\\.0a$\" \"12.0f\")\n");
  ASSERT_EQ(rewrites.size(), 3u);
  EXPECT_EQ(rewrites[0].command, "string(REPLACE)");
  EXPECT_EQ(rewrites[0].match, "2.1");
  EXPECT_EQ(rewrites[0].replacement, "2.1(2.0)");
  EXPECT_EQ(rewrites[0].variable, "compute_capabilities");
  EXPECT_FALSE(rewrites[0].anchored);
  EXPECT_EQ(rewrites[1].line, 3);
  EXPECT_EQ(rewrites[1].match, "2.1");
  EXPECT_TRUE(rewrites[1].anchored);
  EXPECT_EQ(rewrites[2].command, "list(TRANSFORM REPLACE)");
  EXPECT_EQ(rewrites[2].match, "12.0a");
  EXPECT_EQ(rewrites[2].variable, "CUDA_ARCHS");
  EXPECT_TRUE(rewrites[2].anchored);
}

TEST(ArchStringRewrites, SkipsRewritesOfOtherTextAndOfEveryItem) {
  auto rewrites = build::archStringRewritesIn("CMakeLists.txt",
                                              "string(REPLACE \"2.1\" \"2.1.0\" PROJECT_VERSION \"${V}\")\n"
                                              "string(REPLACE \".\" \"\" STRIPPED_ARCHS \"${ARCHS}\")\n"
                                              "string(REGEX REPLACE \"[af]$\" \"\" ARCH_BASE \"${ARCH}\")\n"
                                              "string(REGEX REPLACE \"^([0-9]+)\\\\..*$\" \"\\\\1\" MAJOR \"${ARCH}\")\n"
                                              "string(REPLACE \"2.1\" \"2.1(2.0)\" compute_capabilities)\n");
  EXPECT_TRUE(rewrites.empty());
}

TEST(CubinPools, TargetsComeFromTheFileName) {
  EXPECT_EQ(binary::cubinTarget("Bmm_E2m1E2m1_Fp32_t128x128x256_s6_dynB_sm100f.cubin")->name(), "sm_100f");
  EXPECT_EQ(binary::cubinTarget("FmhaSm103aKernel_sm103a.cubin")->name(), "sm_103a");
  EXPECT_EQ(binary::cubinTarget("kernel.sm_120.cubin")->name(), "sm_120");
  EXPECT_FALSE(binary::cubinTarget("kernel.cubin").has_value());
  EXPECT_FALSE(binary::cubinTarget("Bmm_sm100f.ptx").has_value());
  binary::CubinPool pool;
  pool.byTarget = {{"sm_100f", 1516}};
  EXPECT_TRUE(pool.runsOn({10, 3}));  // f: the same major at or above the minor
  EXPECT_FALSE(pool.runsOn({11, 0}));
  EXPECT_FALSE(pool.runsOn({12, 0}));
  EXPECT_EQ(pool.targetsText(), "1516 sm_100f");
}
