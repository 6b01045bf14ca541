//===--- configs.cuh - w4a16: the tile and GEMV configurations -------------===//
// SPDX-License-Identifier: Apache-2.0
//
// The configurations moe.cuh's launcher picks from, apart from the launcher,
// so that isa_probe.cu can name one of each kind without instantiating them
// all (the launcher's switch does).
//===----------------------------------------------------------------------===//
#pragma once
#include "gemm.cuh"
#include "gemm_wgmma.cuh"
#include "gemv.cuh"

namespace archscope::w4a16 {

// Tile shapes <BM, BN, BK, warps along M, warps along N, stages[, k groups, CTAs per SM]>, chosen by
// pairs per expert: few stream weights (memory bound: 8-pair tiles, 256-wide
// k tiles, 5 CTAs per SM); many need wide token tiles to amortize the
// dequantization over more MMAs. Each was the fastest of the variants timed
// on an H200 for its regime (kernels/README.md lists them).
using DecodeConfig = GemmConfig<64, 8, 256, 4, 1, 3>;
using DecodeDeepConfig = GemmConfig<64, 8, 256, 4, 1, 4>;
// The decode tile in two k groups: 8 warps, at most 64 registers (4 CTAs per SM),
// for gate/up grids of under one wave (T = 1).
using DecodeK2Config = GemmConfig<64, 8, 256, 4, 1, 3, 2, 4>;
using MediumConfig = GemmConfig<64, 32, 128, 4, 1, 4>;
using PrefillConfig = GemmConfig<128, 128, 64, 2, 2, 4>;

// wgmma (sm_90a): <max pairs per tile, stages, CTAs per SM, N step, warp-specialized, max stages,
// A fragment slots>. Picked on an H200 (run 6): `wgmma-160` for more than 24 pairs per
// expert (faster than `wgmma`, one 256-pair tile at one CTA per SM, and `wgmma-2cta`,
// 128-pair tiles, at both ~128 and ~256 pairs per expert), `wgmma-small` for 5..24;
// `wgmma-medium` and `wgmma-ws` (a copying warpgroup, slower) are kept for comparison
// (kernels/README.md has the figures).
using WgmmaPrefillConfig = WgmmaConfig<256, 6, 1, 8, false, 8>;
// 160-pair tiles at two CTAs per SM (126 registers with two A fragment slots,
// 102 KB of shared memory: 4 stages, 5 for tiles of <= 96 pairs, 6 for <= 64).
using Wgmma160Config = WgmmaConfig<160, 4, 2, 8, false, 6, 2>;
using WgmmaTwoCtaConfig = WgmmaConfig<128, 5, 2, 16>;
using WgmmaWsConfig = WgmmaConfig<256, 6, 1, 8, true>;
using WgmmaMediumConfig = WgmmaConfig<64, 8, 2, 8>;
using WgmmaSmallConfig = WgmmaConfig<32, 10, 2, 8>;

// Few pairs, experts rarely repeated (gemv.cuh): <warps, k tiles in registers,
// CTAs per SM>; the variants timed against these are in kernels/README.md.
using GemvFewPairsConfig = GemvConfig<4, 4, 4>;
// A down grid of more than one wave at depth 4 (DeepSeek-like: 896 CTAs at T = 1)
// runs its down GEMV at depth 3 (95 registers, 5 CTAs per SM): 73.6% of copy
// against 70.3% (H200, run 10, call 8); where depth 4 fits one wave (Qwen-like,
// 512 CTAs) depth 3 was slower (54.4% against 55.9%).
using GemvDepth3Config = GemvConfig<4, 3, 5>;
// A gate/up grid of at most 3 CTAs per SM (Qwen-like T = 1: 384 CTAs) in two k
// groups, 2 tiles deep (78 registers; 80 with run 15's lane map; 24 warps per SM): 66.4% of copy against
// 60.5-61.0% with one k group 6 tiles deep (159 registers, 12 warps), in the
// same processes (H200, run 12, calls 6, 7 and 9). Both hold about as many
// bytes in flight; twice the warps, each with half the tiles in a row, hide
// more of the dequantization (run 11's depth 6 had beaten depth 4 and 5).
using GemvKGroupsConfig = GemvConfig<4, 2, 3, 2>;

} // namespace archscope::w4a16
