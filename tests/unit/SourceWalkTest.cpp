//===--- SourceWalkTest.cpp - which folders the source scans read ---------===//
// SPDX-License-Identifier: Apache-2.0
#include "matchers/source/CppSources.h"
#include "matchers/source/NameUses.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <unistd.h>

using namespace archscope;
namespace fs = std::filesystem;

namespace {

/// A tree shaped like an installed vLLM beside a FlashInfer wheel: the
/// engine's own csrc/.../w8a8/cutlass/ kernels, and vendored CUTLASS and
/// CCCL copies told by their layout (include/, cub/).
class SourceWalk : public ::testing::Test {
protected:
  void SetUp() override {
    root_ = fs::temp_directory_path() / ("archscope-walk-" + std::to_string(::getpid()));
    fs::remove_all(root_);
    write("csrc/quantization/w8a8/cutlass/scaled_mm_sm120.cu", "void enable_sm120_only() {}\n");
    write("flashinfer/data/cutlass/include/cutlass/arch/mma.h", "// enable_sm120_only\n");
    write("flashinfer/data/cutlass/tools/util.cu", "void enable_sm120_only();\n");
    write("flashinfer/data/cccl/cub/cub/device.cuh", "// enable_sm120_only\n");
    write("third_party/lib/kernel.cu", "// enable_sm120_only\n");
    write("csrc/moe/user.cu", "template void enable_sm120_only();\n");
  }
  void TearDown() override { fs::remove_all(root_); }
  void write(const std::string &rel, const std::string &text) {
    fs::create_directories((root_ / rel).parent_path());
    std::ofstream(root_ / rel) << text;
  }
  std::vector<std::string> cppFiles() const {
    std::vector<std::string> out;
    for (const auto &s : readCppSources({root_.string()}))
      out.push_back(fs::relative(s.path, root_).string());
    std::sort(out.begin(), out.end());
    return out;
  }
  fs::path root_;
};

} // namespace

TEST_F(SourceWalk, ReadsAnEnginesOwnCutlassFolderAndSkipsVendoredCopies) {
  EXPECT_EQ(cppFiles(), (std::vector<std::string>{"csrc/moe/user.cu",
                                                  "csrc/quantization/w8a8/cutlass/scaled_mm_sm120.cu"}));
}

TEST_F(SourceWalk, NameUsesCountsTheSameFilesTheCppScanReads) {
  auto counts = NameUses({root_.string()}).count({"enable_sm120_only", "never_named"});
  EXPECT_EQ(counts["enable_sm120_only"], 2); // its definition and the one user; no vendored copy
  EXPECT_EQ(counts["never_named"], 0);
}
