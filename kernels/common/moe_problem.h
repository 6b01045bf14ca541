//===--- moe_problem.h - seeded NVFP4 MoE problems and their fp64 truth ---===//
// SPDX-License-Identifier: Apache-2.0
//
// A MoeProblem is everything a kernel reads: bf16 tokens, top-k routing and the
// NVFP4 weights of every expert, laid out as kernels/common/moe_device.cuh says.
// Its generator is deterministic in (shape, seed) and independent of thread
// count: each weight row draws from its own stream keyed by (seed, tensor,
// expert, row).
//
// Only the experts some token routes to are generated (the others stay zero
// and no kernel reads them): at T=1 that is 8 of 256 experts, which keeps the
// DeepSeek-sized problem cheap to build when only a few tokens are routed.
//
// The reference is fp64 over the quantized operands: it dequantizes the NVFP4
// weights exactly, optionally quantizes activations the way a block-scaled
// kernel must (x, then the SwiGLU output), and never rounds anything else.
// For large T it runs on a subset of tokens (checkedTokens): the full fp64
// MoE at T=4096 of the DeepSeek shape is ~1.4e12 multiply-adds, too slow on a
// CPU, while a seeded random subset of 64 tokens still touches most experts.
//===----------------------------------------------------------------------===//
#pragma once
#include "moe_shape.h"

#include <cstdint>
#include <vector>

namespace archscope {

/// float <-> bf16 bits, round to nearest even (NaN stays NaN).
uint16_t floatToBf16Bits(float value);
float bf16BitsToFloat(uint16_t bits);

/// One NVFP4 weight tensor per expert: [experts][rows][cols], K = cols contiguous.
struct Nvfp4Weights {
  int experts = 0, rows = 0, cols = 0;
  std::vector<uint8_t> packed; // [experts][rows][cols/2], even k in the low nibble
  std::vector<uint8_t> scales; // [experts][rows][cols/16] ue4m3
  std::vector<float> global;   // [experts]

  void allocate(int expertCount, int rowCount, int colCount);
  const uint8_t* packedRow(int expert, int row) const;
  const uint8_t* scaleRow(int expert, int row) const;
  /// Exact dequantization of one row into `values` (cols doubles).
  void dequantizeRow(int expert, int row, double* values) const;
  int64_t bytesPerExpert() const { return int64_t(rows) * cols / 2 + int64_t(rows) * cols / 16; }
};

struct MoeProblem {
  MoeShape shape;
  uint64_t seed = 0;
  std::vector<uint16_t> x;          // [T][H] bf16 bits, ~N(0,1)
  std::vector<int32_t> topkIds;     // [T][k], distinct per token
  std::vector<float> topkWeights;   // [T][k], renormalized softmax weights
  Nvfp4Weights w1;                  // [E][2I][H], ~N(0, 1/sqrt(H)) before quantization
  Nvfp4Weights w2;                  // [E][H][I], ~N(0, 1/sqrt(I))
  std::vector<uint8_t> routed;      // [E] 1 if some token routes there (weights generated)
  float xGlobalScale = 1.0f;        // amax(x) / (6*448), for activation-quantizing families

  int routedExperts() const;
  /// Routed experts with a W1 or W2 block scale of exponent field 0 (zero or
  /// subnormal ue4m3): the inputs of the kernels' exact scale decoders.
  int routedExpertsWithExponentZeroScales() const;
  /// Bytes a kernel must read at least once: the routed experts' W1 and W2.
  int64_t routedWeightBytes() const;
};

/// Builds the problem; `threads` <= 0 means all hardware threads. With
/// `quietBlocks`, every even-numbered expert has one 16-element block in every
/// 7th row scaled by 2^-15 before quantization, so that its block scale is
/// subnormal (or zero): weights that take the kernels' exact scale decoders.
MoeProblem makeMoeProblem(const MoeShape& shape, uint64_t seed, int threads = 0, bool quietBlocks = false);

/// Keeps the first `tokens` tokens (a prefix is exactly the smaller problem of
/// the same seed: token rows draw from per-token streams). Recomputes `routed`
/// and xGlobalScale; weights of experts no longer routed stay as they are.
void truncateTokens(MoeProblem& problem, int tokens);

/// Quantizes `cols` floats of one row to NVFP4 relative to `globalScale`
/// (block scale = ue4m3(amax / (6 * global)), element = e2m1(v / (scale * global))).
void quantizeRow(const float* values, int cols, float globalScale, uint8_t* packed, uint8_t* scales);

/// Quantizes and immediately dequantizes a row (what a block-scaled kernel's
/// activations become), in place.
void fakeQuantizeRow(double* values, int cols, float globalScale);

/// The tokens the check compares: all of them when T <= maxTokens, else a
/// seeded random subset of maxTokens distinct tokens, sorted.
std::vector<int> checkedTokens(int tokens, int maxTokens, uint64_t seed);

struct MoeReference {
  std::vector<int> tokens;        // the rows computed, ascending
  std::vector<double> out;        // [tokens.size()][H]
  // Global scale of the SwiGLU output, calibrated as amax/(6*448) over the
  // checked tokens (a static calibration, as NVFP4 checkpoints ship). Kernels
  // that quantize the intermediate must use this value (MoeDeviceArgs).
  float actGlobalScale = 1.0f;
};

/// fp64 MoE for the given tokens. With quantizeActivations, x is quantized
/// with problem.xGlobalScale and the SwiGLU output with the calibrated scale.
MoeReference referenceMoe(const MoeProblem& problem, const std::vector<int>& tokens,
                          bool quantizeActivations, int threads = 0);

/// max|out - ref| / max|ref| over the reference's rows; NaN (or a non-finite
/// output) gives +inf, so it never passes a bound.
double maxRelativeError(const MoeReference& reference, const float* out, int hidden);

} // namespace archscope
