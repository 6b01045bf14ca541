//===--- ArchGuardPassTest.cpp - #if outcomes per target ------------------===//
// SPDX-License-Identifier: Apache-2.0
#include "matchers/cuda/ArchGuardPass.h"

#include <gtest/gtest.h>
#include <llvm/Support/FileUtilities.h>

using namespace archscope;
using cuda::Branch;

namespace {
std::vector<Target> targets(std::initializer_list<const char *> names) {
  std::vector<Target> out;
  for (const char *n : names) out.push_back(*Target::parse(n));
  return out;
}
const cuda::GuardDirective &at(const cuda::GuardReport &r, int line) {
  for (const auto &d : r.directives)
    if (d.line == line) return d;
  static cuda::GuardDirective none;
  ADD_FAILURE() << "no directive at line " << line;
  return none;
}
} // namespace

class ArchGuardPass : public ::testing::Test {
protected:
  static void SetUpTestSuite() {
    report = new cuda::GuardReport(cuda::runArchGuardPass(
        ARCHSCOPE_TESTS_DIR "/cuda/exact_equality.cu",
        targets({"sm_90a", "sm_100a", "sm_100f", "sm_103a", "sm_120a", "sm_120f", "sm_121a"})));
  }
  static void TearDownTestSuite() { delete report; }
  static cuda::GuardReport *report;
};
cuda::GuardReport *ArchGuardPass::report = nullptr;

TEST_F(ArchGuardPass, ExactEqualityExcludesTheSibling) {
  const auto &d = at(*report, 8); // __CUDA_ARCH__ == 1200
  EXPECT_EQ(d.condition, "defined __CUDA_ARCH__ && __CUDA_ARCH__ == 1200");
  EXPECT_EQ(d.byTarget.at("sm_120a"), Branch::Taken);
  EXPECT_EQ(d.byTarget.at("sm_120f"), Branch::Taken);
  EXPECT_EQ(d.byTarget.at("sm_121a"), Branch::NotTaken); // GB10 traps
  EXPECT_EQ(at(*report, 10).byTarget.at("sm_121a"), Branch::Taken);
}

TEST_F(ArchGuardPass, FamilyRangeCoversSm121) {
  const auto &d = at(*report, 17);
  EXPECT_EQ(d.byTarget.at("sm_121a"), Branch::Taken);
  EXPECT_EQ(d.byTarget.at("sm_100a"), Branch::NotTaken);
}

TEST_F(ArchGuardPass, FeatureAndFamilyMacrosFollowNvcc) {
  const auto &tc = at(*report, 22);
  EXPECT_EQ(tc.byTarget.at("sm_100a"), Branch::Taken); // __CUDA_ARCH_FEAT_SM100_ALL
  EXPECT_EQ(tc.byTarget.at("sm_100f"), Branch::Taken); // FAMILY_SPECIFIC == 1000, emulated
  EXPECT_EQ(tc.byTarget.at("sm_120a"), Branch::NotTaken);
  const auto &open = at(*report, 24); // the open-ended >= 1000 fallback
  EXPECT_EQ(open.byTarget.at("sm_120a"), Branch::Taken);
  EXPECT_EQ(open.byTarget.at("sm_100a"), Branch::NotTaken);
  const auto &specific = at(*report, 28); // only a-targets define __CUDA_ARCH_SPECIFIC__
  EXPECT_EQ(specific.byTarget.at("sm_120a"), Branch::Taken);
  EXPECT_EQ(specific.byTarget.at("sm_120f"), Branch::NotTaken);
}

TEST_F(ArchGuardPass, MissingHeadersAreListedNotFatal) {
  ASSERT_EQ(report->missingIncludes.size(), 1u);
  EXPECT_EQ(report->missingIncludes[0], "cutlass/cutlass.h");
  EXPECT_EQ(report->directives.size(), 9u);
}

TEST_F(ArchGuardPass, KernelBodiesPerTarget) {
  auto kernel = [&](const std::string &name) -> const cuda::KernelSite & {
    for (const auto &k : report->kernels)
      if (k.name == name) return k;
    static cuda::KernelSite none;
    ADD_FAILURE() << "no kernel " << name;
    return none;
  };
  using cuda::KernelBody;
  const auto &sm120 = kernel("moe_sm120_kernel");
  EXPECT_EQ(sm120.byTarget.at("sm_120a"), KernelBody::Code);
  EXPECT_EQ(sm120.byTarget.at("sm_121a"), KernelBody::Empty); // compiles, does nothing
  const auto &trap = kernel("moe_trap_kernel");
  EXPECT_EQ(trap.byTarget.at("sm_100a"), KernelBody::Code);
  EXPECT_EQ(trap.byTarget.at("sm_100f"), KernelBody::TrapOnly); // no FEAT macro on f targets
  EXPECT_EQ(trap.byTarget.at("sm_120a"), KernelBody::TrapOnly);
  const auto &tcgen05 = kernel("tcgen05_kernel");
  EXPECT_EQ(tcgen05.byTarget.at("sm_100a"), KernelBody::Empty);
  EXPECT_EQ(tcgen05.byTarget.at("sm_120a"), KernelBody::Absent);
}

TEST(ArchGuardPassInput, UnreadableFileIsReportedNotThrown) {
  auto r = cuda::runArchGuardPass("/nonexistent/x.cu", {*Target::parse("sm_120a")});
  ASSERT_EQ(r.errors.size(), 1u);
  EXPECT_NE(r.errors[0].find("cannot read"), std::string::npos);
}

TEST(ArchGuardPassInput, NestedRegionsInsideDeadCodeAreSkipped) {
  std::string path = ::testing::TempDir() + "/nested.cu";
  llvm::FileRemover removeAtEnd(path);
  FILE *f = fopen(path.c_str(), "w");
  fputs("#if __CUDA_ARCH__ >= 1000\n#if __CUDA_ARCH__ == 1200\nint a;\n#endif\n#endif\n", f);
  fclose(f);
  auto r = cuda::runArchGuardPass(path, {*Target::parse("sm_90a"), *Target::parse("sm_120a")});
  EXPECT_EQ(at(r, 1).byTarget.at("sm_90a"), Branch::NotTaken);
  EXPECT_EQ(at(r, 2).byTarget.count("sm_90a"), 0u); // never reached on sm_90a
  EXPECT_EQ(at(r, 2).byTarget.at("sm_120a"), Branch::Taken);
}

// Headers are read through their directives alone (HeaderDirectives.h): their
// macros, nested includes and per-target #if outcomes must still reach the
// main file's directives, and their own kernels must not become its kernels.
TEST(ArchGuardPassInput, HeaderMacrosDecideTheMainFilesBranches) {
  auto r = cuda::runArchGuardPass(ARCHSCOPE_TESTS_DIR "/cuda/header_macros/uses_header_macros.cu",
                                  targets({"sm_90a", "sm_100a", "sm_120a"}));
  EXPECT_TRUE(r.errors.empty()) << r.errors.front();
  EXPECT_TRUE(r.missingIncludes.empty());
  EXPECT_EQ(at(r, 4).byTarget.at("sm_100a"), Branch::Taken); // set in arch_config.h
  EXPECT_EQ(at(r, 4).byTarget.at("sm_120a"), Branch::NotTaken);
  EXPECT_EQ(at(r, 7).byTarget.at("sm_90a"), Branch::NotTaken); // a function-like macro of the header
  EXPECT_EQ(at(r, 7).byTarget.at("sm_120a"), Branch::Taken);
  EXPECT_EQ(at(r, 10).byTarget.at("sm_120a"), Branch::Taken); // from the nested header
  EXPECT_EQ(at(r, 10).byTarget.at("sm_100a"), Branch::NotTaken);
  ASSERT_EQ(r.kernels.size(), 1u); // header_kernel is the header's
  EXPECT_EQ(r.kernels[0].name, "tcgen05_path");
  EXPECT_EQ(r.kernels[0].byTarget.at("sm_100a"), cuda::KernelBody::Code);
  EXPECT_EQ(r.kernels[0].byTarget.at("sm_90a"), cuda::KernelBody::Absent);
}

// A file whose first pass reads no target macro gets that pass for every
// target (TargetMacroWatcher.h); one that reads one in any form must not.
namespace {
cuda::GuardReport passOver(const std::string &name, const std::string &text, std::vector<Target> ts,
                           bool reuse = true, std::vector<std::string> archMacros = {}) {
  std::string path = ::testing::TempDir() + "/" + name;
  llvm::FileRemover removeAtEnd(path);
  FILE *f = fopen(path.c_str(), "w");
  fputs(text.c_str(), f);
  fclose(f);
  cuda::GuardPassOptions options;
  options.reuseTargetFreePasses = reuse;
  options.archMacros = std::move(archMacros);
  return cuda::runArchGuardPass(path, ts, options);
}
} // namespace

TEST(ArchGuardPassReuse, TargetFreeFileGetsOnePassForAll) {
  std::string text = "#define TILE 128\n#if TILE > 64\n__global__ void k() { int x = TILE; }\n#endif\n"
                     "#ifdef NOT_SET\n__global__ void never() {}\n#endif\n";
  auto ts = targets({"sm_90a", "sm_100a", "sm_120a"});
  auto reused = passOver("free.cu", text, ts);
  auto full = passOver("free.cu", text, ts, false);
  EXPECT_TRUE(reused.targetFree);
  EXPECT_FALSE(full.targetFree);
  ASSERT_EQ(reused.directives.size(), full.directives.size());
  for (size_t i = 0; i < full.directives.size(); ++i) EXPECT_EQ(reused.directives[i].byTarget, full.directives[i].byTarget);
  ASSERT_EQ(reused.kernels.size(), 1u);
  EXPECT_EQ(reused.kernels[0].byTarget, full.kernels[0].byTarget);
  EXPECT_EQ(reused.kernels[0].byTarget.at("sm_120a"), cuda::KernelBody::Code);
}

TEST(ArchGuardPassReuse, EveryWayOfReadingTheTargetRunsEachPass) {
  struct Case { const char *what, *text; std::vector<Target> ts; std::vector<std::string> macros; };
  std::vector<Case> cases = {
      // undefined on the first target: no expansion callback, only the condition's text
      {"undefined feature macro", "#if __CUDA_ARCH_FEAT_SM100_ALL\nint a;\n#endif\n", targets({"sm_90a", "sm_100a"}), {}},
      {"macro built on one", "#define HAS_SM100 __CUDA_ARCH_FEAT_SM100_ALL\n#if HAS_SM100\nint a;\n#endif\n",
       targets({"sm_90a", "sm_100a"}), {}},
      {"defined()", "#if defined(__CUDA_ARCH_SPECIFIC__)\nint a;\n#endif\n", targets({"sm_100f", "sm_100a"}), {}},
      {"__has_builtin", "#if __has_builtin(__nvvm_redux_sync_add)\nint a;\n#endif\n", targets({"sm_70", "sm_80"}), {}},
      {"engine arch macro", "#if SGL_CUDA_ARCH >= 1000\nint a;\n#endif\n", targets({"sm_90a", "sm_100a"}),
       {"SGL_CUDA_ARCH"}},
  };
  for (const auto &c : cases) {
    auto r = passOver("reads.cu", c.text, c.ts, true, c.macros);
    EXPECT_FALSE(r.targetFree) << c.what;
    const auto &d = r.directives.back();
    EXPECT_EQ(d.byTarget.at(c.ts[0].name()), Branch::NotTaken) << c.what;
    EXPECT_EQ(d.byTarget.at(c.ts[1].name()), Branch::Taken) << c.what;
  }
}

// What a guard reads must not depend on the machine: the CUDA and C++ library
// headers it has installed are not searched (DeviceTarget.h), so they are
// listed as skipped, and CUDA_VERSION is the assumed toolkit's, not cuda.h's.
TEST(ArchGuardPassInput, SystemHeadersAreNotSearched) {
  std::string path = ::testing::TempDir() + "/system_headers.cu";
  llvm::FileRemover removeAtEnd(path);
  FILE *f = fopen(path.c_str(), "w");
  fputs("#include <vector>\n#include <cuda_fp16.h>\n#if CUDA_VERSION >= 12080\nint fp4;\n#endif\n"
        "#if __CUDA_ARCH__ >= 1000\nint blackwell;\n#endif\n",
        f);
  fclose(f);
  auto r = cuda::runArchGuardPass(path, targets({"sm_90a", "sm_120a"}));
  EXPECT_EQ(r.missingIncludes, (std::vector<std::string>{"vector", "cuda_fp16.h"}));
  EXPECT_EQ(at(r, 3).byTarget.at("sm_90a"), Branch::Taken); // CUDA 13.0 assumed
  EXPECT_EQ(at(r, 6).byTarget.at("sm_90a"), Branch::NotTaken);
  EXPECT_EQ(at(r, 6).byTarget.at("sm_120a"), Branch::Taken);
}

// A group closed inside a live region must not make the next group look dead
// (the recorder kept the closed group's branch state: xqa/mha.cu's
// `#if __CUDA_ARCH__ == 1210` read as skipped on every target).
TEST(ArchGuardPassGroups, AClosedGroupDoesNotHideTheNextOne) {
  auto r = passOver("closed.cu", "#if 1\n#if 0\n#endif\n#if __CUDA_ARCH__ == 1210\nint a;\n#endif\n#endif\n",
                    targets({"sm_120a", "sm_121a"}));
  EXPECT_EQ(at(r, 4).byTarget.at("sm_121a"), Branch::Taken);
  EXPECT_EQ(at(r, 4).byTarget.at("sm_120a"), Branch::NotTaken);
}

// Each branch knows its group, its lines, and what it compiles per target:
// a branch whose only content is a nested guard false wherever it holds
// compiles nothing there.
TEST(ArchGuardPassGroups, EachBranchKnowsItsGroupAndWhatItCompiles) {
  auto r = passOver("group.cu",
                    "#if __CUDA_ARCH__ == 1030\n#if __CUDA_ARCH__ == 1000\n#error no\n#endif\n"
                    "#else\nint b; // a comment\n\n#endif\n",
                    targets({"sm_100a", "sm_103a"}));
  const auto &exact = at(r, 1), &other = at(r, 5);
  EXPECT_EQ(exact.group, 1);
  EXPECT_EQ(exact.end, 5);
  EXPECT_EQ(exact.compiled.at("sm_103a"), 0);
  EXPECT_EQ(exact.compiled.count("sm_100a"), 0u); // not taken there
  EXPECT_TRUE(exact.text.fails);                  // its lines say #error
  EXPECT_EQ(other.group, 1);
  EXPECT_EQ(other.end, 8);
  EXPECT_EQ(other.text.codeLines, 1);
  EXPECT_FALSE(other.text.fails);
  EXPECT_EQ(other.compiled.at("sm_100a"), 3); // int b ;
  EXPECT_EQ(at(r, 2).group, 2);
}

// The block a directive is read in, per target: what the siblings keep
// around a branch they skip.
TEST(ArchGuardPassGroups, TheEnclosingBlockIsCountedPerTarget) {
  auto r = passOver("block.cu",
                    "int f() {\n  int x = 1;\n#if __CUDA_ARCH__ == 1210\n  x++;\n#endif\n  return x;\n}\n",
                    targets({"sm_120a", "sm_121a"}));
  const auto &d = at(r, 3);
  EXPECT_EQ(d.enclosingBlock.at("sm_120a"), 8);  // int x = 1 ; return x ;
  EXPECT_EQ(d.enclosingBlock.at("sm_121a"), 11); // and x ++ ;
  EXPECT_EQ(d.compiled.at("sm_121a"), 3);
  auto top = passOver("top.cu", "#if __CUDA_ARCH__ == 1210\nint y;\n#endif\n", targets({"sm_121a"}));
  EXPECT_TRUE(at(top, 1).enclosingBlock.empty()); // at file scope
}

// The named definitions a directive sits in: a struct (not its operator()),
// a kernel (not its if-block or lambda, nor __launch_bounds__), none for a
// namespace or file scope.
TEST(ArchGuardPassGroups, DirectivesKnowTheDefinitionsAroundThem) {
  auto r = passOver("defs.cu",
                    "namespace ns {\n"                                                    // 1
                    "template <typename K, class U = int> struct wrap : K {\n"            // 2
                    "  template <typename... A> __device__ void operator()(A &&...a) {\n" // 3
                    "#if __CUDA_ARCH__ == 1200\n"                                         // 4
                    "#endif\n"                                                            // 5
                    "  }\n};\n"                                                           // 6, 7
                    "__global__ void __launch_bounds__(128) kern(float *x, int n = 0) {\n" // 8
                    "  if (x) {\n"                                                        // 9
                    "#if __CUDA_ARCH__ == 1200\n"                                         // 10
                    "#endif\n  }\n"                                                       // 11, 12
                    "  auto f = [](int y) {\n"                                            // 13
                    "#if __CUDA_ARCH__ == 1200\n"                                         // 14
                    "#endif\n  };\n}\n}\n"                                                // 15-18
                    "#if __CUDA_ARCH__ == 1200\n#endif\n",                                // 19, 20
                    targets({"sm_120a"}));
  EXPECT_EQ(at(r, 4).definitions, std::vector<std::string>{"wrap"});
  EXPECT_EQ(at(r, 10).definitions, std::vector<std::string>{"kern"});
  EXPECT_EQ(at(r, 14).definitions, std::vector<std::string>{"kern"});
  EXPECT_TRUE(at(r, 19).definitions.empty());
}

// The #defines a branch compiles, per target, and, for a branch of
// #defines alone, the macros they name (nested branches included).
TEST(ArchGuardPassGroups, BranchesCountTheirDefinesAndNameTheirMacros) {
  auto r = passOver("defines.cu",
                    "#if __CUDA_ARCH__ == 1030\n#define STAGES 2\n#if 1\n#define WORK 2\n#endif\n#endif\n"
                    "#if __CUDA_ARCH__ == 1030\n#define DEPTH 3\nint z;\n#endif\n",
                    targets({"sm_100a", "sm_103a"}));
  const auto &only = at(r, 1), &mixed = at(r, 7);
  EXPECT_EQ(only.macros, (std::vector<std::string>{"STAGES", "WORK"}));
  EXPECT_EQ(only.defines.at("sm_103a"), 2);
  EXPECT_EQ(only.compiled.at("sm_103a"), 2);
  EXPECT_EQ(only.defines.count("sm_100a"), 0u); // not taken there
  EXPECT_EQ(at(r, 3).macros, std::vector<std::string>{"WORK"});
  EXPECT_EQ(mixed.defines.at("sm_103a"), 1);
  EXPECT_EQ(mixed.compiled.at("sm_103a"), 4); // the #define, then int z ;
  EXPECT_TRUE(mixed.macros.empty());          // named only for a branch of #defines alone
}
