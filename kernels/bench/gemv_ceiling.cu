//===--- gemv_ceiling.cu - how fast could the T = 1 GEMVs read their bytes? -===//
// SPDX-License-Identifier: Apache-2.0
//
// A measurement, not a kernel of the families. At T = 1 the w4a16 MoE is two
// dependent GEMV launches (gemv.cuh) that read the 8 routed experts' weights
// once. This times, for the same byte counts and in the probe's way (20
// back-to-back MoEs between two events, after 3 warm-up ones), what reading
// those bytes costs without the arithmetic, so the gap between the GEMVs and
// the copy bandwidth splits into structure, access pattern and compute:
//   fused-read   one grid-stride read of all the bytes: no launch boundary
//   two-reads    the gate/up bytes, then the down bytes: two plain launches
//   pattern      the GEMVs' own grids, rows, lane mapping, loads and depth
//                (gemv.cuh's gemvRows / loadKTile: 512 contiguous bytes a
//                load of the blocked layout, weight_layout.h, the scales
//                through a shared-memory ring), the down launch dependent as
//                in moe.cuh; the k tile's compute is an XOR
//   halves       the loads of the row-major layout before run 14: a lane's
//                32 bytes of each of its two rows, 16 rows K/2 bytes apart
//   halves-l1    the same loads kept in L1 (the second may hit there)
//   sectors      each 16-byte load of a row's four lanes takes two whole
//                sectors (a lane's two loads 64 bytes apart, another k order):
//                faster here, but the GEMVs lost with it (run 12, see README)
//   contig-D     the same grids, warps and bytes per warp, but each warp
//                reads one contiguous block, 512 bytes per load, D loads of
//                16 bytes ahead a lane (16: the bytes the GEMVs hold)
//   bulk-S       per-warp rings of S k tiles filled by cp.async.bulk (one
//                copy per 128-byte weight row run and per scale run), read
//                back with the GEMVs' lane mapping
//   tiles-S-T    per-warp rings of S stages of T k tiles each, one
//                cp.async.bulk for a stage's weights (T x 2 KB, contiguous in
//                the blocked layout since run 14) and one for its scales,
//                read back with the GEMVs' lane mapping (512 contiguous bytes
//                a warp-wide read: no bank conflicts, no padding)
// Rows print the MoE time and % of the device-to-device copy bandwidth of
// this run (cudaMemcpy, read + written bytes), as bench_h200.py counts it.
// Build: nvcc -std=c++17 -O3 -gencode=arch=compute_90a,code=sm_90a kernels/bench/gemv_ceiling.cu -o gemv_ceiling
//===----------------------------------------------------------------------===//
#include "../w4a16/moe.cuh"
#include "bench_util.cuh"

#include <cstdio>
#include <vector>

namespace {

using namespace archscope::w4a16;
using namespace archscope::bench;
using Config = GemvFewPairsConfig;

/// A lane's 32 bytes of each of its two rows and their scale words, as the
/// row-major comparison modes read them (the GEMVs before run 15).
struct RowMajorTile {
  uint4 w[2][2];
  uint32_t s[2];
};

__device__ __forceinline__ uint32_t xor4(uint4 v) { return v.x ^ v.y ^ v.z ^ v.w; }
__device__ __forceinline__ uint32_t fold(const RowMajorTile& t) {
  return t.s[0] ^ t.s[1] ^ xor4(t.w[0][0]) ^ xor4(t.w[0][1]) ^ xor4(t.w[1][0]) ^ xor4(t.w[1][1]);
}
__device__ __forceinline__ uint32_t fold(const GemvKTile& t) {
  return xor4(t.w[0]) ^ xor4(t.w[1]) ^ xor4(t.w[2]) ^ xor4(t.w[3]);
}

/// gemv.cuh's k loop with the tile's compute replaced by an XOR; refill(kt, tile) loads k tile kt,
/// use(d, tile) folds slot d.
template <class TILE, class REFILL, class USE>
__device__ __forceinline__ uint32_t streamOnly(int kTiles, TILE (&buf)[Config::DEPTH], REFILL refill, USE use) {
  uint32_t acc = 0;
  for (int base = 0; base < kTiles; base += Config::DEPTH) {
#pragma unroll
    for (int d = 0; d < Config::DEPTH; ++d) {
      const int kt = base + d;
      if (kt >= kTiles) break;
      acc ^= use(d, buf[d]);
      if (kt + Config::DEPTH < kTiles) refill(kt + Config::DEPTH, buf[d], d);
    }
  }
  return acc;
}

/// How a row-major lane reads its 32 bytes of a weight row in a k tile:
///   Halves    row-major rows: bytes [32c, 32c + 32) of each row in two
///             16-byte loads, not kept in L1, so each takes half of each of
///             the row's 4 sectors
///   HalvesL1  the same loads, kept in L1 (the second may hit there)
///   Sectors   bytes [16c, 16c + 16) and [64 + 16c, ...): each load takes 2
///             whole sectors of the row (a different k order per lane)
enum class Lanes { Halves, HalvesL1, Sectors };

__device__ __forceinline__ uint4 loadCached(const uint8_t* p) {
  uint4 v;
  asm volatile("ld.global.nc.v4.u32 {%0,%1,%2,%3}, [%4];\n" : "=r"(v.x), "=r"(v.y), "=r"(v.z), "=r"(v.w) : "l"(p));
  return v;
}

__device__ __forceinline__ uint32_t loadScaleWord(const uint8_t* p) {
  uint32_t v;
  asm volatile("ld.global.nc.u32 %0, [%1];\n" : "=r"(v) : "l"(p));
  return v;
}

/// A lane's two rows read as if row-major (the layout before run 14).
struct RowMajorRows {
  const uint8_t* w[2];
  const uint8_t* s[2];
};
__device__ __forceinline__ RowMajorRows rowMajorRows(const GemvOperands& op, int expert, int top, int bottom, int c) {
  const size_t row0 = size_t(expert) * op.rowsPerExpert;
  RowMajorRows r;
  const int rows[2] = {top, bottom};
#pragma unroll
  for (int h = 0; h < 2; ++h) {
    r.w[h] = op.packed + (row0 + rows[h]) * (op.K / 2) + c * 32; // k [64c, 64c + 64) of each tile
    r.s[h] = op.scales + (row0 + rows[h]) * (op.K / 16) + c * 4;
  }
  return r;
}

template <Lanes L> __device__ __forceinline__ void loadLanes(const RowMajorRows& r, int kt, int c, RowMajorTile& t) {
#pragma unroll
  for (int h = 0; h < 2; ++h) {
    const uint8_t* w = r.w[h] + size_t(kt) * (kGemvTileK / 2);
    if constexpr (L == Lanes::Sectors) w -= 16 * c;
    const int second = L == Lanes::Sectors ? 64 : 16;
    if constexpr (L == Lanes::HalvesL1) t.w[h][0] = loadCached(w), t.w[h][1] = loadCached(w + second);
    else t.w[h][0] = loadStreaming(w), t.w[h][1] = loadStreaming(w + second);
    t.s[h] = loadScaleWord(r.s[h] + kt * 16);
  }
}

/// GATE_UP: gemvGateUp's rows (gate row i, up row I + i); else gemvDown's (h, h + 8).
template <bool GATE_UP, Lanes L> __global__ void __launch_bounds__(Config::THREADS, Config::MIN_CTAS) lanesRead(GemvOperands op, uint32_t* sink) {
  if (GATE_UP) waitPrimaryGrid();
  allowDependentGrid();
  const int pair = blockIdx.y, warp = threadIdx.x / 32, lane = threadIdx.x % 32, g = lane >> 2, c = lane & 3;
  const int expert = __ldcg(op.topkIds + pair);
  const int row = (blockIdx.x * Config::WARPS + warp) * (GATE_UP ? 8 : 16) + g;
  if (row >= (GATE_UP ? op.inter : op.hidden)) return;
  const int kTiles = (op.K + kGemvTileK - 1) / kGemvTileK;
  const RowMajorRows rows = rowMajorRows(op, expert, row, GATE_UP ? op.inter + row : row + 8, c);
  const auto load = [&](int kt, RowMajorTile& t, int) { loadLanes<L>(rows, kt, c, t); };
  RowMajorTile buf[Config::DEPTH];
#pragma unroll
  for (int d = 0; d < Config::DEPTH; ++d)
    if (d < kTiles) load(d, buf[d], d);
  if (!GATE_UP) waitPrimaryGrid();
  if (streamOnly(kTiles, buf, load, [](int, const RowMajorTile& t) { return fold(t); }) == kNever) sink[0] = 1;
}

/// gemv.cuh's own loads (loadKTile: the warp's block one 2 KB run a k tile,
/// 512 contiguous bytes a load, the scales through the shared-memory ring) in
/// its grids; the rings' words are folded in once each tile has landed.
template <bool GATE_UP> __global__ void __launch_bounds__(Config::THREADS, Config::MIN_CTAS) patternRead(GemvOperands op, uint32_t* sink) {
  if (GATE_UP) waitPrimaryGrid();
  allowDependentGrid();
  extern __shared__ __align__(16) uint8_t shared[];
  uint8_t* ring = shared + threadIdx.x / 32 * Config::DEPTH * kLayoutScaleTileBytes;
  const int pair = blockIdx.y, warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  const int expert = __ldcg(op.topkIds + pair), block = blockIdx.x * Config::WARPS + warp;
  if (block * (GATE_UP ? 8 : 16) >= (GATE_UP ? op.inter : op.hidden)) return;
  const int kTiles = (op.K + kGemvTileK - 1) / kGemvTileK, laneTiles = gemvLaneKTiles(op.K, gemvLaneChunk(lane));
  const GemvRows rows = gemvRows(op, expert, block, lane);
  const auto load = [&](int kt, GemvKTile& t, int d) { // the benchmark shapes: K % 256 == 0, as gemv.cuh runs them
    loadKTile<false>(rows, kt, laneTiles, lane, sharedAddress(ring + d * kLayoutScaleTileBytes), t);
    commitAsync();
  };
  const auto use = [&](int d, const GemvKTile& t) {
    waitAsync<Config::DEPTH - 1>();
    const uint32_t word = *reinterpret_cast<const uint32_t*>(ring + d * kLayoutScaleTileBytes + lane * 4);
    return fold(t) ^ word;
  };
  GemvKTile buf[Config::DEPTH];
#pragma unroll
  for (int d = 0; d < Config::DEPTH; ++d) {
    if (d < kTiles) load(d, buf[d], d);
    else commitAsync();
  }
  if (!GATE_UP) waitPrimaryGrid();
  if (streamOnly(kTiles, buf, load, use) == kNever) sink[0] = 1;
}

/// The same grid and bytes per warp as patternRead, read as one contiguous
/// block per warp (its weights, then its scales), D loads of 16 bytes ahead a
/// lane (16: the bytes gemv.cuh has in flight).
template <bool GATE_UP, int D> __global__ void __launch_bounds__(Config::THREADS, Config::MIN_CTAS) contiguousRead(GemvOperands op, uint32_t* sink) {
  if (GATE_UP) waitPrimaryGrid();
  allowDependentGrid();
  const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  const size_t warpIndex = (size_t(blockIdx.y) * gridDim.x + blockIdx.x) * Config::WARPS + warp;
  const size_t weightBytes = size_t(16) * op.K / 2, scaleBytes = size_t(16) * op.K / 16;
  const uint4* w = reinterpret_cast<const uint4*>(op.packed + warpIndex * weightBytes) + lane;
  const uint4* s = reinterpret_cast<const uint4*>(op.scales + warpIndex * scaleBytes) + lane;
  const int weightLoads = int(weightBytes / 512), loads = weightLoads + int(scaleBytes / 512);
  auto load = [&](int j) { return loadStreaming(reinterpret_cast<const uint8_t*>(j < weightLoads ? w + 32 * j : s + 32 * (j - weightLoads))); };
  uint4 v[D];
#pragma unroll
  for (int d = 0; d < D; ++d) v[d] = d < loads ? load(d) : make_uint4(0, 0, 0, 0);
  if (!GATE_UP) waitPrimaryGrid();
  uint32_t acc = 0;
  for (int base = 0; base < loads; base += D) {
#pragma unroll
    for (int d = 0; d < D; ++d) {
      acc ^= v[d].x ^ v[d].y ^ v[d].z ^ v[d].w;
      if (base + d + D < loads) v[d] = load(base + d + D);
    }
  }
  if (acc == kNever) sink[0] = 1;
}

// Per-warp rings filled by bulk copies (the copy engine, no registers): S
// stages of one k tile, 16 weight rows of 128 bytes padded to 144 (conflict-
// free 16-byte reads by gemv.cuh's lane mapping) and their 16-byte scale runs.
constexpr int kRowPitch = 144, kStageBytes = 16 * kRowPitch + 16 * 16;

__device__ __forceinline__ void barrierInit(uint64_t* bar) {
  asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;\n" ::"r"(sharedAddress(bar)) : "memory");
}
__device__ __forceinline__ void expectBytes(uint64_t* bar, int bytes) {
  asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;\n" ::"r"(sharedAddress(bar)), "r"(bytes) : "memory");
}
__device__ __forceinline__ void bulkCopy(void* dst, const void* src, int bytes, uint64_t* bar) {
  asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], %2, [%3];\n"
               ::"r"(sharedAddress(dst)), "l"(src), "r"(bytes), "r"(sharedAddress(bar)) : "memory");
}
__device__ __forceinline__ void barrierWait(uint64_t* bar, uint32_t parity) {
  asm volatile("{\n.reg .pred done;\nWAIT:\nmbarrier.try_wait.parity.shared::cta.b64 done, [%0], %1;\n@!done bra WAIT;\n}\n"
               ::"r"(sharedAddress(bar)), "r"(parity) : "memory");
}

/// Lanes 0..15 copy weight row `lane`'s 128 bytes of k tile kt, lanes 16..31 its scales.
__device__ __forceinline__ void fillStage(const GemvOperands& op, size_t row0, const int (&rows)[2], int kt, uint8_t* stage, uint64_t* bar, int lane) {
  if (lane == 0) expectBytes(bar, 16 * 128 + 16 * 16);
  __syncwarp();
  const int r = lane & 15, row = rows[r >> 3] + (r & 7);
  if (lane < 16)
    bulkCopy(stage + r * kRowPitch, op.packed + (row0 + row) * (op.K / 2) + kt * 128, 128, bar);
  else
    bulkCopy(stage + 16 * kRowPitch + r * 16, op.scales + (row0 + row) * (op.K / 16) + kt * 16, 16, bar);
}

template <bool GATE_UP, int S> __global__ void __launch_bounds__(Config::THREADS, Config::MIN_CTAS) bulkRead(GemvOperands op, uint32_t* sink) {
  extern __shared__ __align__(128) uint8_t smem[];
  __shared__ uint64_t bars[Config::WARPS][S];
  if (GATE_UP) waitPrimaryGrid();
  allowDependentGrid();
  const int pair = blockIdx.y, warp = threadIdx.x / 32, lane = threadIdx.x % 32, g = lane >> 2, c = lane & 3;
  const int expert = __ldcg(op.topkIds + pair);
  const int first = (blockIdx.x * Config::WARPS + warp) * (GATE_UP ? 8 : 16);
  if (first >= (GATE_UP ? op.inter : op.hidden)) return;
  const int rows[2] = {first, GATE_UP ? op.inter + first : first + 8};
  const size_t row0 = size_t(expert) * op.rowsPerExpert;
  uint8_t* ring = smem + warp * S * kStageBytes;
  if (lane < S) barrierInit(&bars[warp][lane]);
  asm volatile("fence.mbarrier_init.release.cluster;\n" ::: "memory");
  __syncwarp();
  const int kTiles = op.K / kGemvTileK;
  for (int s = 0; s < S && s < kTiles; ++s) fillStage(op, row0, rows, s, ring + s * kStageBytes, &bars[warp][s], lane);
  if (!GATE_UP) waitPrimaryGrid();
  uint32_t acc = 0;
  for (int kt = 0; kt < kTiles; ++kt) {
    const int s = kt % S;
    uint8_t* stage = ring + s * kStageBytes;
    barrierWait(&bars[warp][s], (kt / S) & 1);
    uint4 w[4];
    uint32_t sc[2];
#pragma unroll
    for (int h = 0; h < 2; ++h) {
      const uint8_t* row = stage + (g + 8 * h) * kRowPitch + c * 32;
      w[2 * h] = *reinterpret_cast<const uint4*>(row), w[2 * h + 1] = *reinterpret_cast<const uint4*>(row + 16);
      sc[h] = *reinterpret_cast<const uint32_t*>(stage + 16 * kRowPitch + (g + 8 * h) * 16 + c * 4);
    }
#pragma unroll
    for (int j = 0; j < 4; ++j) acc ^= w[j].x ^ w[j].y ^ w[j].z ^ w[j].w;
    acc ^= sc[0] ^ sc[1];
    __syncwarp();
    if (kt + S < kTiles) fillStage(op, row0, rows, kt + S, stage, &bars[warp][s], lane);
  }
  if (acc == kNever) sink[0] = 1;
}

// Per-warp rings of S stages of T whole k tiles of the warp's block
// (weight_layout.h): weights, then scales, each one bulk copy.
template <int T> constexpr int kTilesStageBytes = T * (kLayoutTileBytes + kLayoutScaleTileBytes);

template <int T>
__device__ __forceinline__ void fillTiles(const uint8_t* w, const uint8_t* sc, int kt, int kTiles, uint8_t* stage,
                                          uint64_t* bar, int lane) {
  const int n = min(T, kTiles - kt);
  if (lane == 0) {
    expectBytes(bar, n * (kLayoutTileBytes + kLayoutScaleTileBytes));
    bulkCopy(stage, w + size_t(kt) * kLayoutTileBytes, n * kLayoutTileBytes, bar);
    bulkCopy(stage + T * kLayoutTileBytes, sc + size_t(kt) * kLayoutScaleTileBytes, n * kLayoutScaleTileBytes, bar);
  }
}

template <bool GATE_UP, int S, int T>
__global__ void __launch_bounds__(Config::THREADS, Config::MIN_CTAS) tilesRead(GemvOperands op, uint32_t* sink) {
  extern __shared__ __align__(128) uint8_t smem[];
  __shared__ uint64_t bars[Config::WARPS][S];
  if (GATE_UP) waitPrimaryGrid();
  allowDependentGrid();
  const int pair = blockIdx.y, warp = threadIdx.x / 32, lane = threadIdx.x % 32, q = gemvLaneChunk(lane);
  const int expert = __ldcg(op.topkIds + pair), block = blockIdx.x * Config::WARPS + warp;
  if (block * (GATE_UP ? 8 : 16) >= (GATE_UP ? op.inter : op.hidden)) return;
  const size_t expertRows = size_t(expert) * op.rowsPerExpert;
  const uint8_t* w = op.packed + expertRows * (op.K / 2) + blockWeightOffset(block * kBlockRows, op.K);
  const uint8_t* sc = op.scales + expertRows * (op.K / 16) + blockScaleOffset(block * kBlockRows, op.K);
  uint8_t* ring = smem + warp * S * kTilesStageBytes<T>;
  if (lane < S) barrierInit(&bars[warp][lane]);
  asm volatile("fence.mbarrier_init.release.cluster;\n" ::: "memory");
  __syncwarp();
  const int kTiles = op.K / kGemvTileK, stages = (kTiles + T - 1) / T;
  for (int s = 0; s < S && s < stages; ++s) fillTiles<T>(w, sc, s * T, kTiles, ring + s * kTilesStageBytes<T>, &bars[warp][s], lane);
  if (!GATE_UP) waitPrimaryGrid();
  const int chunk = wholeTileChunkOffset(gemvLaneRow(lane, 0), q / 2, q % 2);
  uint32_t acc = 0;
  for (int st = 0; st < stages; ++st) {
    const int s = st % S;
    uint8_t* stage = ring + s * kTilesStageBytes<T>;
    barrierWait(&bars[warp][s], (st / S) & 1);
    for (int t = 0; t < T && st * T + t < kTiles; ++t) {
#pragma unroll
      for (int j = 0; j < 4; ++j) acc ^= xor4(*reinterpret_cast<const uint4*>(stage + t * kLayoutTileBytes + chunk + j * 512));
      acc ^= *reinterpret_cast<const uint32_t*>(stage + T * kLayoutTileBytes + t * kLayoutScaleTileBytes + lane * 8);
    }
    __syncwarp();
    if (st + S < stages) fillTiles<T>(w, sc, (st + S) * T, kTiles, stage, &bars[warp][s], lane);
  }
  if (acc == kNever) sink[0] = 1;
}

struct NoL1 { // the GEMVs' weight loads
  __device__ uint4 operator()(const uint4* p) const { return loadStreaming(reinterpret_cast<const uint8_t*>(p)); }
};

/// Milliseconds per MoE: 20 back-to-back after 3 warm-up ones, as the probe times.
template <class F> float msPerMoe(F moe) {
  for (int i = 0; i < 3; ++i) moe();
  cudaEvent_t start, stop;
  cudaEventCreate(&start), cudaEventCreate(&stop);
  constexpr int kIters = 20;
  cudaEventRecord(start);
  for (int i = 0; i < kIters; ++i) moe();
  cudaEventRecord(stop);
  cudaEventSynchronize(stop);
  float ms = 0;
  cudaEventElapsedTime(&ms, start, stop);
  cudaEventDestroy(start), cudaEventDestroy(stop);
  return ms / kIters;
}

struct Shape {
  const char* name;
  int hidden, inter, topk;
};

/// One shape's eight routed experts in one buffer: W1, its scales, W2, its scales.
struct Experts {
  uint8_t *w1 = nullptr, *s1 = nullptr, *w2 = nullptr, *s2 = nullptr;
  int32_t* ids = nullptr;
  size_t w1Bytes = 0, w2Bytes = 0;
  bool allocate(const Shape& s) {
    w1Bytes = size_t(s.topk) * 2 * s.inter * s.hidden / 2, w2Bytes = size_t(s.topk) * s.hidden * s.inter / 2;
    std::vector<int32_t> experts(s.topk);
    for (int e = 0; e < s.topk; ++e) experts[e] = e;
    if (!check(cudaMalloc(&w1, bytes()), "malloc") || !check(cudaMemset(w1, 0x5a, bytes()), "memset") ||
        !check(cudaMalloc(&ids, s.topk * sizeof(int32_t)), "malloc") ||
        !check(cudaMemcpy(ids, experts.data(), experts.size() * sizeof(int32_t), cudaMemcpyHostToDevice), "ids"))
      return false;
    s1 = w1 + w1Bytes, w2 = s1 + w1Bytes / 8, s2 = w2 + w2Bytes;
    return true;
  }
  size_t bytes() const { return (w1Bytes + w2Bytes) / 8 * 9; } // e2m1 and one ue4m3 per 16
  void release() { cudaFree(w1), cudaFree(ids); }
};

void report(const char* shape, const char* variant, float ms, double bytes, double copyGbps) {
  const double gbps = bytes / ms / 1e6;
  std::printf("%-13s %-11s %9.2f us %8.0f GB/s %6.1f%% of copy\n", shape, variant, ms * 1e3, gbps, 100 * gbps / copyGbps);
}

template <int D> float contiguous(const GemvOperands& up, const GemvOperands& down, dim3 upGrid, dim3 downGrid, uint32_t* sink) {
  return msPerMoe([&] {
    launchDependent(contiguousRead<true, D>, upGrid, Config::THREADS, 0, nullptr, up, sink);
    launchDependent(contiguousRead<false, D>, downGrid, Config::THREADS, 0, nullptr, down, sink);
  });
}

/// The bulk-copy rings, S stages a warp; 0 when the shared memory does not fit.
template <int S> float bulk(const GemvOperands& up, const GemvOperands& down, dim3 upGrid, dim3 downGrid, uint32_t* sink) {
  constexpr int kSmem = Config::WARPS * S * kStageBytes;
  if (!check(cudaFuncSetAttribute(bulkRead<true, S>, cudaFuncAttributeMaxDynamicSharedMemorySize, kSmem), "smem") ||
      !check(cudaFuncSetAttribute(bulkRead<false, S>, cudaFuncAttributeMaxDynamicSharedMemorySize, kSmem), "smem"))
    return 0;
  return msPerMoe([&] {
    launchDependent(bulkRead<true, S>, upGrid, Config::THREADS, kSmem, nullptr, up, sink);
    launchDependent(bulkRead<false, S>, downGrid, Config::THREADS, kSmem, nullptr, down, sink);
  });
}

/// The whole-tile bulk rings, S stages of T tiles a warp; 0 when the shared memory does not fit.
template <int S, int T> float tiles(const GemvOperands& up, const GemvOperands& down, dim3 upGrid, dim3 downGrid, uint32_t* sink) {
  constexpr int kSmem = Config::WARPS * S * kTilesStageBytes<T>;
  if (!check(cudaFuncSetAttribute(tilesRead<true, S, T>, cudaFuncAttributeMaxDynamicSharedMemorySize, kSmem), "smem") ||
      !check(cudaFuncSetAttribute(tilesRead<false, S, T>, cudaFuncAttributeMaxDynamicSharedMemorySize, kSmem), "smem"))
    return 0;
  return msPerMoe([&] {
    launchDependent(tilesRead<true, S, T>, upGrid, Config::THREADS, kSmem, nullptr, up, sink);
    launchDependent(tilesRead<false, S, T>, downGrid, Config::THREADS, kSmem, nullptr, down, sink);
  });
}

bool measure(const Shape& s, double copyGbps, uint32_t* sink) {
  Experts x;
  if (!x.allocate(s)) return false;
  // The operands gemv.cuh's launches get (moe.cuh), over these eight experts.
  const GemvOperands up{x.w1, x.s1, nullptr, 2 * s.inter, s.hidden, s.inter, s.hidden, s.topk, 1, x.ids, nullptr,
                        nullptr, nullptr, nullptr};
  const GemvOperands down{x.w2, x.s2, nullptr, s.hidden, s.inter, s.inter, s.hidden, s.topk, 1, x.ids, nullptr,
                          nullptr, nullptr, nullptr};
  const dim3 upGrid((s.inter / 8 + Config::WARPS - 1) / Config::WARPS, s.topk);
  const dim3 downGrid((s.hidden / 16 + Config::WARPS - 1) / Config::WARPS, s.topk);
  const double bytes = double(x.bytes());
  const int blocks = multiprocessorCount() * 8;
  const uint4* all = reinterpret_cast<const uint4*>(x.w1);
  const size_t gateUp16 = (x.w1Bytes + x.w1Bytes / 8) / 16;
  report(s.name, "fused-read", msPerMoe([&] { plainRead<NoL1><<<blocks, 256>>>(all, x.bytes() / 16, sink); }), bytes, copyGbps);
  report(s.name, "two-reads", msPerMoe([&] {
           plainRead<NoL1><<<blocks, 256>>>(all, gateUp16, sink);
           plainRead<NoL1><<<blocks, 256>>>(all + gateUp16, x.bytes() / 16 - gateUp16, sink);
         }), bytes, copyGbps);
  const auto lanes = [&](auto up_kernel, auto down_kernel) {
    return msPerMoe([&] {
      launchDependent(up_kernel, upGrid, Config::THREADS, 0, nullptr, up, sink);
      launchDependent(down_kernel, downGrid, Config::THREADS, 0, nullptr, down, sink);
    });
  };
  constexpr int kRing = gemvRingBytes<Config>();
  report(s.name, "pattern", msPerMoe([&] {
           launchDependent(patternRead<true>, upGrid, Config::THREADS, kRing, nullptr, up, sink);
           launchDependent(patternRead<false>, downGrid, Config::THREADS, kRing, nullptr, down, sink);
         }), bytes, copyGbps);
  report(s.name, "halves", lanes(lanesRead<true, Lanes::Halves>, lanesRead<false, Lanes::Halves>), bytes, copyGbps);
  report(s.name, "halves-l1", lanes(lanesRead<true, Lanes::HalvesL1>, lanesRead<false, Lanes::HalvesL1>), bytes, copyGbps);
  report(s.name, "sectors", lanes(lanesRead<true, Lanes::Sectors>, lanesRead<false, Lanes::Sectors>), bytes, copyGbps);
  report(s.name, "contig-8", contiguous<8>(up, down, upGrid, downGrid, sink), bytes, copyGbps);
  report(s.name, "contig-16", contiguous<16>(up, down, upGrid, downGrid, sink), bytes, copyGbps);
  report(s.name, "contig-24", contiguous<24>(up, down, upGrid, downGrid, sink), bytes, copyGbps);
  report(s.name, "bulk-4", bulk<4>(up, down, upGrid, downGrid, sink), bytes, copyGbps);
  report(s.name, "bulk-6", bulk<6>(up, down, upGrid, downGrid, sink), bytes, copyGbps);
  report(s.name, "bulk-8", bulk<8>(up, down, upGrid, downGrid, sink), bytes, copyGbps);
  report(s.name, "tiles-2-1", tiles<2, 1>(up, down, upGrid, downGrid, sink), bytes, copyGbps);
  report(s.name, "tiles-4-1", tiles<4, 1>(up, down, upGrid, downGrid, sink), bytes, copyGbps);
  report(s.name, "tiles-6-1", tiles<6, 1>(up, down, upGrid, downGrid, sink), bytes, copyGbps);
  report(s.name, "tiles-2-2", tiles<2, 2>(up, down, upGrid, downGrid, sink), bytes, copyGbps);
  report(s.name, "tiles-3-2", tiles<3, 2>(up, down, upGrid, downGrid, sink), bytes, copyGbps);
  const bool ok = check(cudaDeviceSynchronize(), s.name);
  x.release();
  return ok;
}

} // namespace

int main() {
  ReadBuffers buffers;
  if (!buffers.allocate()) return 1;
  const double copyGbps = buffers.copyGbps([](auto copy) { return msPerMoe(copy); });
  std::printf("copy: %.0f GB/s (read + written, 1 GiB, cudaMemcpy)\n", copyGbps);
  cudaFree(buffers.data), cudaFree(buffers.copy);
  uint32_t* sink = buffers.sink;
  const Shape shapes[] = {{"deepseek", 7168, 2048, 8}, {"qwen-like", 4096, 1536, 8}};
  for (const Shape& s : shapes)
    if (!measure(s, copyGbps, sink)) return 1;
  return 0;
}
