// The host side of an NVFP4 MoE run shared by the CPU models of the native
// families: routing lists and activation quantization into the workspace
// the kernels use (kernels/mma-blockscale/moe_steps.h), run on the CPU.
#pragma once
#include "../../../kernels/common/moe_problem.h"
#include "../../../kernels/mma-blockscale/moe_steps.h"

#include <cstdint>
#include <vector>

struct ModelWorkspace {
  std::vector<uint64_t> memory; // owns what `w` points into
  archscope::nvfp4moe::Workspace w;
};

/// Routes the problem's (token, slot) pairs by expert and quantizes x to NVFP4,
/// as the kernels' first steps do.
inline void routeAndQuantize(const archscope::MoeProblem &p, ModelWorkspace &ws) {
  namespace steps = archscope::nvfp4moe;
  const archscope::MoeShape &s = p.shape;
  ws.memory.assign(steps::carveWorkspace(s, nullptr, nullptr) / 8 + 1, 0);
  steps::carveWorkspace(s, ws.memory.data(), &ws.w);
  steps::Workspace &w = ws.w;
  const int pairs = int(s.pairs());
  for (int e = 0; e < s.experts; ++e) w.counts[e] = steps::countPairs(p.topkIds.data(), pairs, e);
  steps::prefixOffsets(w.counts, s.experts, w.offsets);
  for (int e = 0; e < s.experts; ++e) steps::listPairs(p.topkIds.data(), pairs, e, w.pairList + w.offsets[e]);
  for (int64_t b = 0; b < int64_t(s.tokens) * s.hidden / 16; ++b) {
    float v[16];
    for (int i = 0; i < 16; ++i) v[i] = archscope::bf16BitsToFloat(p.x[b * 16 + i]);
    steps::quantizeBlock16(v, 1, p.xGlobalScale, w.xPacked + b * 8, w.xScales + b);
  }
}
