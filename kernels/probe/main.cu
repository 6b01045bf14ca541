//===--- main.cu - the NVFP4 MoE probe: launch one family, check, report ---===//
// SPDX-License-Identifier: Apache-2.0
//
// Built once per family:
//   nvcc -std=c++17 -O3 -gencode=arch=compute_90a,code=sm_90a -DARCHSCOPE_FAMILY=w4a16
//        kernels/probe/main.cu kernels/common/moe_problem.cpp -o probe
// Usage: probe --tokens T --hidden H --inter I --experts E --topk k
//              [--seed S] [--iters N] [--check-tokens M] [--sweep T1,T2,...]
//              [--also CONFIG:T1,T2 ...]
// Builds a seeded random problem (a fresh seed when none is given; the JSON
// names it), computes the fp64 reference on up to M tokens (all when T <= M,
// default 64), poisons `out` with NaN, launches, and compares. --iters N times
// N more launches with CUDA events after two warm-ups. --sweep runs several
// token counts on one set of weights (for the benchmark), one line each;
// --also (w4a16) adds runs with a forced tile configuration at some of them
// (ARCHSCOPE_W4A16_CONFIG set per run; the JSON's "config" names what ran).
// Prints one JSON line per run. Exit: 0 pass, 1 wrong, 77 SKIP (no GPU, or a
// GPU the family does not run on; why on stderr), 2 usage error (or no
// device memory for the problem). A launch that faults counts as wrong (1).
//===----------------------------------------------------------------------===//
#include "../common/bounds.h"
#include "../common/moe_device.cuh"
#include "../common/moe_problem.h"

#define ARCHSCOPE_ID_reference 1
#define ARCHSCOPE_ID_w4a16 2
#define ARCHSCOPE_ID_mma_blockscale 3
#define ARCHSCOPE_ID_tcgen05 4
#define ARCHSCOPE_CAT(a, b) a##b
#define ARCHSCOPE_ID(f) ARCHSCOPE_CAT(ARCHSCOPE_ID_, f)
#define ARCHSCOPE_LAUNCH(f) ARCHSCOPE_CAT(launchMoe_, f)
#define ARCHSCOPE_REPACK(f) ARCHSCOPE_CAT(repackWeights_, f)
#define ARCHSCOPE_STR2(f) #f
#define ARCHSCOPE_STR(f) ARCHSCOPE_STR2(f)

#if !defined(ARCHSCOPE_FAMILY)
#error "build with -DARCHSCOPE_FAMILY=reference|w4a16|mma_blockscale|tcgen05"
#elif ARCHSCOPE_ID(ARCHSCOPE_FAMILY) == 1
#include "../reference/moe.cuh"
#elif ARCHSCOPE_ID(ARCHSCOPE_FAMILY) == 2
#include "../w4a16/moe.cuh"
#elif ARCHSCOPE_ID(ARCHSCOPE_FAMILY) == 3
#include "../mma-blockscale/moe.cuh"
#elif ARCHSCOPE_ID(ARCHSCOPE_FAMILY) == 4
#include "../tcgen05/moe.cuh"
#else
#error "unknown ARCHSCOPE_FAMILY"
#endif

#include "device_problem.h"
#include "options.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <string>

namespace {

using namespace archscope;
const char* const kFamily = ARCHSCOPE_STR(ARCHSCOPE_FAMILY);

/// Compute capabilities the family's ISA runs on (DESIGN.md, Validation).
bool familyRunsOn(int major, int minor) {
  const int cc = major * 10 + minor;
  switch (ARCHSCOPE_ID(ARCHSCOPE_FAMILY)) {
  case 1: return cc >= 75;
  case 2: return cc >= 80;
  case 3: return cc == 120 || cc == 121;
  default: return cc == 100 || cc == 103 || cc == 110;
  }
}

struct RunResult {
  double maxRelError = 0.0;
  bool allFinite = false;
  double ms = 0.0;
  int timedIters = 0;
  size_t checkedTokens = 0;
};

/// Launch (timed with events); a CUDA error is returned, never hidden.
cudaError_t launchTimed(const MoeDeviceArgs& args, int launches, float* ms) {
  cudaEvent_t start, stop;
  cudaEventCreate(&start);
  cudaEventCreate(&stop);
  cudaEventRecord(start);
  cudaError_t err = cudaSuccess;
  for (int i = 0; i < launches && err == cudaSuccess; ++i) err = ARCHSCOPE_LAUNCH(ARCHSCOPE_FAMILY)(args, nullptr);
  cudaEventRecord(stop);
  if (err == cudaSuccess) err = cudaEventSynchronize(stop);
  if (err == cudaSuccess) err = cudaGetLastError();
  cudaEventElapsedTime(ms, start, stop);
  cudaEventDestroy(start);
  cudaEventDestroy(stop);
  return err;
}

cudaError_t runOnce(const MoeProblem& problem, DeviceProblem& device, const ProbeOptions& options, RunResult& result) {
  const std::vector<int> tokens = checkedTokens(problem.shape.tokens, options.checkTokens, problem.seed);
  const MoeReference reference = referenceMoe(problem, tokens, bounds::quantizesActivations(kFamily));
  result.checkedTokens = tokens.size();
  MoeDeviceArgs args = device.upload(problem);
  args.actGlobalScale = reference.actGlobalScale;

  float ms = 0.0f;
  cudaError_t err = device.poisonOutput();
  if (err == cudaSuccess) err = launchTimed(args, 1, &ms);
  if (err != cudaSuccess) return err;
  const std::vector<float> out = device.downloadOutput();
  result.allFinite = allFinite(out);
  result.maxRelError = result.allFinite ? maxRelativeError(reference, out.data(), problem.shape.hidden) : INFINITY;
  result.ms = ms;
  if (options.iters > 0) {
    if ((err = launchTimed(args, 2, &ms)) != cudaSuccess) return err; // warm-up
    if ((err = launchTimed(args, options.iters, &ms)) != cudaSuccess) return err;
    result.ms = ms / options.iters;
    result.timedIters = options.iters;
  }
  return cudaSuccess;
}

/// The tile configuration the family's launcher picks for this shape (w4a16;
/// empty for the others).
std::string configName(const MoeShape& s) {
#if ARCHSCOPE_ID(ARCHSCOPE_FAMILY) == 2
  return w4a16::kTileConfigNames[int(w4a16::chooseConfig(s))];
#else
  (void)s;
  return "";
#endif
}

void printJson(const MoeProblem& problem, const DeviceInfo& info, const RunResult& r, double bound, bool pass) {
  const MoeShape& s = problem.shape;
  const std::string config = configName(s);
  char error[32];
  std::snprintf(error, sizeof error, std::isfinite(r.maxRelError) ? "%.3e" : "null", r.maxRelError);
  std::printf("{\"family\":\"%s\",\"device\":\"%s\",\"cc\":\"%d.%d\",\"driver\":%d,\"runtime\":%d,"
              "\"shape\":{\"tokens\":%d,\"hidden\":%d,\"inter\":%d,\"experts\":%d,\"topk\":%d},"
              "\"seed\":%llu,\"max_rel_err\":%s,\"bound\":%g,\"pass\":%s,\"ms\":%.5f,\"timed_iters\":%d,"
              "\"checked_tokens\":%zu,\"all_outputs_finite\":%s,\"routed_experts\":%d,\"routed_weight_bytes\":%lld,"
              "\"exponent_zero_scale_experts\":%d%s%s%s}\n",
              kFamily, info.name.c_str(), info.major, info.minor, info.driver, info.runtime, s.tokens, s.hidden,
              s.inter, s.experts, s.topk, (unsigned long long)problem.seed, error, bound, pass ? "true" : "false",
              r.ms, r.timedIters, r.checkedTokens, r.allFinite ? "true" : "false", problem.routedExperts(),
              (long long)problem.routedWeightBytes(), problem.routedExpertsWithExponentZeroScales(),
              config.empty() ? "" : ",\"config\":\"", config.c_str(),
              config.empty() ? "" : "\"");
  std::fflush(stdout);
}

int skip(const std::string& why) {
  std::fprintf(stderr, "SKIP %s: %s\n", kFamily, why.c_str());
  std::printf("{\"family\":\"%s\",\"skip\":true,\"reason\":\"%s\"}\n", kFamily, why.c_str());
  return 77;
}

bool isMissingImage(cudaError_t err) {
  return err == cudaErrorNoKernelImageForDevice || err == cudaErrorInvalidDeviceFunction ||
         err == cudaErrorUnsupportedPtxVersion;
}

} // namespace

int main(int argc, char** argv) {
  ProbeOptions options;
  if (!parseOptions(argc, argv, options)) return 2;
  DeviceInfo info;
  if (!queryDevice(info)) return skip("no CUDA device (" + info.error + ")");
  if (!familyRunsOn(info.major, info.minor))
    return skip("the " + info.name + " is sm_" + std::to_string(info.major * 10 + info.minor) +
                ", which this family's instructions do not run on");

  MoeShape shape = options.shape;
  shape.tokens = options.sweep.front(); // the largest: smaller runs are its prefixes
  MoeProblem problem = makeMoeProblem(shape, options.seed, 0, options.quietBlocks);
  DeviceProblem device;
  if (cudaError_t err = device.allocate(problem); err != cudaSuccess) {
    std::fprintf(stderr, "CUDA error while allocating: %s\n", cudaGetErrorString(err));
    return 2;
  }
#if defined(ARCHSCOPE_FAMILY_REPACKS_WEIGHTS) // the family's load-time weight layout
  if (cudaError_t err = device.repackWeights(ARCHSCOPE_REPACK(ARCHSCOPE_FAMILY)); err != cudaSuccess) {
    std::fprintf(stderr, "CUDA error while repacking the weights: %s\n", cudaGetErrorString(err));
    return 2;
  }
#endif
  const double bound = bounds::forFamily(kFamily);
  bool allPass = true;
  const char* defaultConfig = std::getenv("ARCHSCOPE_W4A16_CONFIG");
  const std::string baseConfig = defaultConfig ? defaultConfig : "";
  for (int tokens : options.sweep) {
    truncateTokens(problem, tokens);
    std::vector<std::string> configs{baseConfig}; // the default run, then the --also ones at this T
    for (const auto& [name, at] : options.also)
      if (std::find(at.begin(), at.end(), tokens) != at.end()) configs.push_back(name);
    for (size_t i = 0; i < configs.size(); ++i) {
      if (configs[i].empty()) unsetenv("ARCHSCOPE_W4A16_CONFIG");
      else setenv("ARCHSCOPE_W4A16_CONFIG", configs[i].c_str(), 1);
      RunResult result;
      const cudaError_t err = runOnce(problem, device, options, result);
      if (isMissingImage(err)) {
        if (i == 0) return skip(std::string("no kernel image for this GPU: ") + cudaGetErrorString(err));
        std::fprintf(stderr, "SKIP %s config %s at T=%d: %s\n", kFamily, configs[i].c_str(), tokens,
                     cudaGetErrorString(err));
        continue;
      }
      if (err != cudaSuccess) { // a launch that faults is a wrong launch; the context is lost
        std::fprintf(stderr, "FAIL %s: CUDA error at T=%d: %s\n", kFamily, tokens, cudaGetErrorString(err));
        result.maxRelError = INFINITY;
        printJson(problem, info, result, bound, false);
        return 1;
      }
      const bool pass = result.allFinite && result.maxRelError <= bound;
      allPass = allPass && pass;
      printJson(problem, info, result, bound, pass);
    }
  }
  return allPass ? 0 : 1;
}
