//===--- RuntimeChecksTest.cpp - C++ runtime checks of the SM -------------===//
// SPDX-License-Identifier: Apache-2.0
//
// Each fixture under tests/cuda/runtime/ reproduces a real engine shape with
// its headers missing; each expected check is pinned by line, kind and its
// truth on sm_90 / sm_100 / sm_103 / sm_120 / sm_121, written as one letter
// per target: T true, F false, ? unknown.
//===----------------------------------------------------------------------===//
#include "matchers/cuda/RuntimeChecks.h"

#include <gtest/gtest.h>

#include <map>

using namespace archscope;
using Kind = cuda::RuntimeCheck::Kind;

namespace {

const cuda::RuntimeCheckReport &fixture(const std::string &name) {
  static std::map<std::string, cuda::RuntimeCheckReport> parsed;
  auto it = parsed.find(name);
  if (it == parsed.end())
    it = parsed.emplace(name, cuda::extractRuntimeChecks(ARCHSCOPE_TESTS_DIR "/cuda/runtime/" + name, {})).first;
  return it->second;
}

/// Per target, with CUDA 13.0 unless `base` says otherwise.
std::string truth(const Condition &c, EvalEnv base = {}) {
  std::string out;
  for (ComputeCapability gpu : {ComputeCapability{9, 0}, {10, 0}, {10, 3}, {12, 0}, {12, 1}}) {
    EvalEnv env = base;
    env.gpu = gpu;
    Tri t = c.eval(env);
    out += t == Tri::True ? 'T' : t == Tri::False ? 'F' : '?';
  }
  return out;
}

/// The one check at `line` (and `col`, when several share the line).
const cuda::RuntimeCheck &at(const cuda::RuntimeCheckReport &r, int line, int col = 0) {
  for (const auto &c : r.checks)
    if (c.where.line == line && (col == 0 || c.where.col == col)) return c;
  static cuda::RuntimeCheck none;
  ADD_FAILURE() << r.path << ": no check at line " << line;
  return none;
}

} // namespace

TEST(RuntimeChecks, FlashInferExactMajorAssert) { // field bug 13: ICHECK_EQ(major, 10)
  const auto &r = fixture("flashinfer_launcher.cu");
  const auto &eq = at(r, 14);
  EXPECT_EQ(eq.kind, Kind::Assert);
  EXPECT_EQ(truth(eq.cond), "FTTFF"); // rejects both sm_12x GPUs
  EXPECT_EQ(eq.function, "trtllm_fp4_block_scale_moe");
  EXPECT_EQ(eq.text, "major == 10");
  EXPECT_EQ(eq.where.layer, "cpp");
  EXPECT_EQ(eq.where.col, 3);
  EXPECT_EQ(eq.where.snippet.rfind("TVM_FFI_ICHECK_EQ(major, 10)", 0), 0u);
  EXPECT_EQ(truth(at(r, 15).cond), "FTTTT"); // major == 10 || major == 12
}

TEST(RuntimeChecks, FlashInferPropsAndDroppedDeclaration) {
  const auto &r = fixture("flashinfer_launcher.cu");
  EXPECT_EQ(truth(at(r, 25).cond), "FFFTF"); // props.major == 12 && props.minor == 0
  // `auto const sm_version = tensorrt_llm::common::getSMVersion();` is
  // dropped by clang (undeclared namespace); the check still reads it.
  const auto &dropped = at(r, 30);
  EXPECT_EQ(truth(dropped.cond), "FTTTT");
  EXPECT_EQ(dropped.function, "moe_a2a_combine");
  EXPECT_EQ(r.checks.size(), 4u); // not num_experts > 0, not num_experts >= 10
  ASSERT_EQ(r.registrations.size(), 2u);
  EXPECT_EQ(r.registrations[0].op, "trtllm_fp4_block_scale_moe");
  EXPECT_EQ(r.registrations[0].function, "trtllm_fp4_block_scale_moe");
  EXPECT_EQ(r.registrations[0].where.line, 33);
  EXPECT_TRUE(r.errors.empty());
}

TEST(RuntimeChecks, TrtllmIfElseChain) {
  const auto &r = fixture("trtllm_dispatch.cpp");
  const auto &sm100 = at(r, 15); // sm_ >= 100 && sm_ < 120
  EXPECT_EQ(sm100.kind, Kind::Branch);
  EXPECT_EQ(sm100.function, "tensorrt_llm::kernels::MoeGemmRunner::dispatch");
  EXPECT_EQ(truth(sm100.cond), "FTTFF");
  EXPECT_EQ(truth(at(r, 17).cond), "FFFTT"); // else if (sm_ == 120 || sm_ == 121)
  EXPECT_EQ(truth(at(r, 19).cond), "TFFFF"); // else if (sm_ == 90)
  const auto &otherwise = at(r, 21);         // else throw: an assert on the arms above
  EXPECT_EQ(otherwise.kind, Kind::Assert);
  EXPECT_EQ(truth(otherwise.cond), "TTTTT");
  EXPECT_EQ(otherwise.text, "else");
}

TEST(RuntimeChecks, TrtllmFilterThroughHelper) { // getSM() returns sm_
  const auto &f = at(fixture("trtllm_dispatch.cpp"), 26);
  EXPECT_EQ(f.kind, Kind::Filter);
  EXPECT_EQ(truth(f.cond), "TTTFT");
}

TEST(RuntimeChecks, TrtllmSwitchOnSmVersion) {
  const auto &r = fixture("trtllm_dispatch.cpp");
  EXPECT_EQ(at(r, 34).kind, Kind::Switch);
  EXPECT_EQ(truth(at(r, 34).cond), "TFFFF"); // case 90
  EXPECT_EQ(truth(at(r, 37).cond), "FTFFF"); // case 100
  EXPECT_EQ(truth(at(r, 38).cond), "FFTFF"); // case 103
  EXPECT_EQ(truth(at(r, 41).cond), "FFFTF"); // case 120
  const auto &dflt = at(r, 44);              // default: TLLM_THROW
  EXPECT_EQ(dflt.kind, Kind::Assert);
  EXPECT_EQ(dflt.text, "default");
  EXPECT_EQ(truth(dflt.cond), "TTTTF"); // sm_121 reaches the throw
}

TEST(RuntimeChecks, TrtllmLocalsTernaryAndConfiguration) {
  const auto &r = fixture("trtllm_dispatch.cpp");
  // bool const canUseCoop = (smMajor >= 9) && (num_tokens <= 1024);
  const auto &coop = at(r, 52);
  EXPECT_EQ(truth(coop.cond), "?????"); // split by the configuration atom
  EvalEnv small, large;
  small.assume = {{"num_tokens <= 1024", true}};
  large.assume = {{"num_tokens <= 1024", false}};
  EXPECT_EQ(truth(coop.cond, small), "TTTTT");
  EXPECT_EQ(truth(coop.cond, large), "FFFFF");
  EXPECT_EQ(truth(at(r, 55).cond), "FFFTF"); // tensorrt_llm::common::getSMVersion() == 120, text only
  EXPECT_EQ(at(r, 58).kind, Kind::Branch);  // (getSMVersion() >= 90) ? 1 : 0
  EXPECT_EQ(truth(at(r, 58).cond), "TTTTT");
}

TEST(RuntimeChecks, VllmTorchCheckAndBranches) {
  const auto &r = fixture("vllm_entry.cu");
  const auto &check = at(r, 10); // TORCH_CHECK(version_num >= 100, ...)
  EXPECT_EQ(check.kind, Kind::Assert);
  EXPECT_EQ(check.function, "cutlass_scaled_fp4_mm");
  EXPECT_EQ(truth(check.cond), "FTTTT");
  EXPECT_EQ(truth(at(r, 11).cond), "FFFTT"); // version_num >= 120 && version_num < 130
  EXPECT_EQ(truth(at(r, 15).cond), "FTTFF");
  // TORCH_CHECK_NOT_IMPLEMENTED(false, ..., version_num) asserts nothing about the SM.
  for (const auto &c : r.checks) EXPECT_NE(c.where.line, 19);
}

TEST(RuntimeChecks, VllmFilters) {
  const auto &r = fixture("vllm_entry.cu");
  const auto &fp4 = at(r, 25); // capability >= 100 && runtimeVersion >= 12080
  EXPECT_EQ(fp4.kind, Kind::Filter);
  EXPECT_EQ(truth(fp4.cond), "FTTTT"); // on CUDA 13.0
  EvalEnv cuda126;
  cuda126.cudaMajor = 12;
  cuda126.cudaMinor = 6;
  EXPECT_EQ(truth(fp4.cond, cuda126), "FFFFF");
  const auto &compatible = at(r, 28);
  EXPECT_EQ(compatible.kind, Kind::Filter);
  EXPECT_EQ(compatible.function, "isArchCompatible");
  EXPECT_EQ(truth(compatible.cond), "FTTFF");
}

TEST(RuntimeChecks, VllmThrowAndDependentMember) {
  const auto &r = fixture("vllm_entry.cu");
  const auto &guard = at(r, 32); // if (arch < 100) throw ...
  EXPECT_EQ(guard.kind, Kind::Assert);
  EXPECT_EQ(guard.function, "launch");
  EXPECT_EQ(truth(guard.cond), "FTTTT");
  EXPECT_EQ(truth(at(r, 33).cond), "FTTFF"); // cfg.sm_version in a template
  ASSERT_EQ(r.registrations.size(), 1u);
  EXPECT_EQ(r.registrations[0].ns, "_C");
  EXPECT_EQ(r.registrations[0].op, "cutlass_scaled_fp4_mm");
  EXPECT_EQ(r.registrations[0].function, "cutlass_scaled_fp4_mm");
}

TEST(RuntimeChecks, StructuredBinding) { // auto [major, minor] = getDeviceComputeCapability();
  const auto &b = at(fixture("vllm_entry.cu"), 42);
  EXPECT_EQ(b.kind, Kind::Branch);
  EXPECT_EQ(b.function, "structuredBinding");
  EXPECT_EQ(truth(b.cond), "FFFFT"); // GB10 only
}

TEST(RuntimeChecks, MissingCutlassHeadersAreSkipped) {
  const auto &r = fixture("cutlass_missing.cu");
  // <cassert> too: no system folder is searched, and assert() is read as a check all the same.
  EXPECT_EQ(r.missingIncludes, (std::vector<std::string>{"cutlass/cutlass.h",
                                                         "cutlass/gemm/device/gemm_universal_adapter.h", "cassert"}));
  EXPECT_TRUE(r.errors.empty());
  ASSERT_EQ(r.checks.size(), 2u);
  EXPECT_EQ(at(r, 19).kind, Kind::Assert); // assert(sm >= 120 && "SM120 GEMM")
  EXPECT_EQ(truth(at(r, 19).cond), "FFFTT");
  EXPECT_EQ(at(r, 20).kind, Kind::Branch); // the return of gemm.run() is no error
  EXPECT_EQ(truth(at(r, 20).cond), "FFFTF");
}

TEST(RuntimeChecks, UnrelatedComparisonsAreNotChecks) {
  const auto &r = fixture("no_checks.cu");
  for (const auto &c : r.checks) ADD_FAILURE() << "noisy: line " << c.where.line << ": " << c.text;
  EXPECT_TRUE(r.errors.empty());
}

TEST(RuntimeChecks, OpRegistrations) {
  const auto &r = fixture("torch_bindings.cpp");
  std::vector<std::tuple<std::string, std::string, std::string, int>> got;
  for (const auto &g : r.registrations) got.emplace_back(g.ns, g.op, g.function, g.where.line);
  std::vector<std::tuple<std::string, std::string, std::string, int>> want = {
      {"sgl_kernel", "fp4_moe", "", 9},
      {"sgl_kernel", "fp4_moe", "fp4_moe", 10},
      {"sgl_kernel", "get_graph_buffer_ipc_meta", "get_graph_buffer_ipc_meta", 11},
      {"CONCAT(TORCH_EXTENSION_NAME,_moe)", "cutlass_moe_mm", "", 15},
      {"CONCAT(TORCH_EXTENSION_NAME,_moe)", "cutlass_moe_mm", "cutlass_moe_mm", 18},
      {"TORCH_EXTENSION_NAME", "rasterize", "rasterize_image", 22},
  };
  EXPECT_EQ(got, want);
}

TEST(RuntimeChecks, Prefilter) {
  EXPECT_TRUE(cuda::mayHaveRuntimeChecks("int sm = getSMVersion();"));
  EXPECT_TRUE(cuda::mayHaveRuntimeChecks("TVM_FFI_ICHECK_EQ(major, 10)"));
  EXPECT_TRUE(cuda::mayHaveRuntimeChecks("if (arch >= 100)"));
  EXPECT_TRUE(cuda::mayHaveRuntimeChecks("cudaDevAttrComputeCapabilityMajor"));
  EXPECT_FALSE(cuda::mayHaveRuntimeChecks("if (num_experts >= 10) return;"));
  EXPECT_FALSE(cuda::mayHaveRuntimeChecks("using Arch = cutlass::arch::Sm100; int sm_count = 0;"));
  // Words in comments and literals are no code: CUTLASS's "K-major" layouts.
  EXPECT_FALSE(cuda::mayHaveRuntimeChecks("// A is K major\nint k = 0; /* row major,\n sm >= 90 */"));
  EXPECT_FALSE(cuda::mayHaveRuntimeChecks("auto s = \"major \\\" (sm >= 90)\"; char c = '\\'';"));
  EXPECT_TRUE(cuda::mayHaveRuntimeChecks("int n = 1'000; // note\nif (major >= 10) {}"));
  EXPECT_TRUE(cuda::mayHaveRuntimeChecks("auto s = \"a\"; TORCH_CHECK(major == 10)"));
}

TEST(RuntimeChecks, UnreadableFileIsReported) {
  auto r = cuda::extractRuntimeChecks("/nonexistent/launcher.cu", {});
  ASSERT_EQ(r.errors.size(), 1u);
  EXPECT_NE(r.errors[0].find("/nonexistent/launcher.cu"), std::string::npos);
}

// No system folder is searched: the C++ library's fixed-width types must still
// be real integers, or a constant request reads as no constant at all.
TEST(RuntimeChecks, SmemBytesOfFixedWidthTypes) {
  const auto &r = fixture("smem_fixed_width.cu");
  ASSERT_EQ(r.smemRequests.size(), 2u);
  EXPECT_EQ(r.smemRequests[0].bytes, 222 * 1024);
  EXPECT_EQ(r.smemRequests[0].function, "launch_fixed");
  EXPECT_EQ(r.smemRequests[1].bytes, 4 * 32768);
  EXPECT_EQ(r.missingIncludes, (std::vector<std::string>{"cstdint", "cstddef", "cuda_runtime.h"}));
}
