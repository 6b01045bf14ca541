// CPU checks of kernels/tcgen05/layouts.h: descriptor bits against values
// worked out by hand from the PTX ISA tables, the canonical K-major layout as a
// bijection, a model of one tcgen05.mma that reads A and B out of a simulated
// shared-memory image by decoding the descriptors itself (ISA 9.7.16.3: LBO,
// SBO), and the scale-factor path smem -> tcgen05.cp .32x128b.warpx4 -> TMEM.
// Nothing here ran on a GPU: no sm_100 device exists in this workplace.
#include "../../../kernels/common/moe_problem.h"
#include "../../../kernels/tcgen05/moe_tiles.h"

#include "MoeStepsModel.h"

#include <gtest/gtest.h>

#include <cmath>
#include <map>
#include <random>
#include <set>
#include <vector>

namespace {
namespace L = archscope::tcgen05::layout;
using archscope::nvfp4::e2m1ToFloat;
using archscope::nvfp4::ue4m3ToFloat;

// ---- Descriptor bit fields, expected values written from the tables ---------
TEST(Tcgen05Layout, SharedMemoryDescriptorBits) {
  // Table 40: start 0x1000 -> (0x1000 & 0x3FFFF) >> 4 = 0x100 in bits 0-13;
  // LBO 128 -> 8 in bits 16-29; SBO 1024 -> 64 in bits 32-45; bits 46-48 =
  // 0b001; base offset 0 (bits 49-51); relative LBO (bit 52 = 0); no swizzle.
  EXPECT_EQ(L::encode(L::SmemDescriptor{0x1000, 128, 1024}), 0x0000404000080100ull);
  // 9.7.16.3.3 example "K-major, no-swizzling, tf32": LBO encoded 16, SBO 8.
  EXPECT_EQ(L::encode(L::SmemDescriptor{0, 64 * 4, 32 * 4}), 0x0000400800100000ull);
  // Table 40 bits 61-63: 128-Byte swizzling = 2; bits 49-51 base offset 5.
  EXPECT_EQ(L::encode(L::SmemDescriptor{0, 0, 0, 5, false, L::Swizzle::B128}), 0x400A400000000000ull);
  // Bit 52, leading dimension absolute address mode.
  EXPECT_EQ(L::encode(L::SmemDescriptor{0, 0, 0, 0, true}) & (1ull << 52), 1ull << 52);
  // matrix-descriptor-encode keeps 18 address bits: 0x40010 -> 0x10 >> 4.
  EXPECT_EQ(L::matrixDescriptorEncode(0x40010), 1u);
}

TEST(Tcgen05Layout, InstructionDescriptorBits) {
  // Table 44, .kind::mxf4nvf4: atype E2M1 = 1 (bits 7-9) -> 0x80; btype E2M1
  // = 1 (bits 10-11) -> 0x400; N = 32 -> N>>3 = 4 in bits 17-22 -> 0x80000;
  // scale type UE4M3 = 0 (bit 23); M = 128 -> M>>7 = 1 in bits 27-28 ->
  // 0x08000000; SFA/SFB ID 0, dense, K = 64 (bit 31 = 0).
  EXPECT_EQ(L::encode(L::InstrDescriptor{}), 0x08080480u);
  // N = 256 -> 32 << 17 = 0x400000; UE8M0 = 1 in bit 23 -> 0x800000.
  L::InstrDescriptor d;
  d.n = 256, d.scaleUe8m0 = true;
  EXPECT_EQ(L::encode(d), 0x08C00480u);
  // Scale factor IDs 2 (the only other value for 2X): bits 4-5 and 29-30.
  d = {};
  d.scaleFactorAId = 2, d.scaleFactorBId = 2;
  EXPECT_EQ(L::encode(d), 0x08080480u | 0x20u | 0x40000000u);
  // CUTLASS's InstrDescriptorBlockScaled stores m_dim = M>>4 at bit 24: for
  // M = 128 and 256 that is the same bit pattern as the ISA's M>>7 at bit 27.
  for (int m : {128, 256}) {
    d = {};
    d.m = m;
    EXPECT_EQ(L::encode(d) & 0x1F000000u, uint32_t(m >> 4) << 24);
  }
}

// ---- Canonical layout ---------------------------------------------------------
TEST(Tcgen05Layout, CanonicalLayoutIsABijectionWith16ByteCoreRows) {
  constexpr int rows = L::kM;
  std::vector<int> hits(rows * L::kTileRowBytes * 2);
  for (int r = 0; r < rows; ++r)
    for (int k = 0; k < L::kKTile; ++k) {
      const L::NibbleAddress a = L::canonicalKMajor(r, k);
      ASSERT_LT(a.byte, uint32_t(rows * L::kTileRowBytes));
      ++hits[a.byte * 2 + a.nibble];
      // A 16-byte core-matrix row holds 32 consecutive k of one row.
      EXPECT_EQ(a.byte / 16, L::canonicalChunk(r, k / 32 * 32) / 16);
      EXPECT_EQ(a.byte % 16, uint32_t((k % 32) / 2));
    }
  for (int h : hits)
    ASSERT_EQ(h, 1);
}

// ---- CPU model of the operand fetch by descriptor -----------------------------
// Decodes Table 40 itself and walks ISA 9.7.16.3 for K-major, no swizzle: row
// r%8 of a core matrix is 16 bytes after row r%8-1, the next 8 rows are SBO
// further, the second 16 bytes (32 e2m1) of the 64-element K step are LBO
// further. Elements are two per byte, even k in the low nibble.
struct Decoded {
  uint32_t start, lbo, sbo, fixed, base, swizzle;
};
Decoded decode(uint64_t d) {
  return {uint32_t(d & 0x3FFF) << 4, uint32_t((d >> 16) & 0x3FFF) << 4, uint32_t((d >> 32) & 0x3FFF) << 4,
          uint32_t((d >> 46) & 7),   uint32_t((d >> 49) & 7),           uint32_t(d >> 61)};
}
int fetch(const std::vector<uint8_t> &smem, uint64_t desc, int r, int k) {
  const Decoded d = decode(desc);
  EXPECT_EQ(d.fixed, 1u);
  EXPECT_EQ(d.swizzle, 0u);
  const uint32_t byte = d.start + (r % 8) * 16 + (r / 8) * d.sbo + (k % 32) / 2 + (k / 32) * d.lbo;
  return (smem.at(byte) >> (4 * (k % 2))) & 0xF;
}

struct Operand {
  std::vector<uint8_t> codes;
  int rows;
}; // codes[r * kKTile + k]
Operand randomOperand(int rows, std::mt19937 &rng) {
  Operand o{std::vector<uint8_t>(rows * L::kKTile), rows};
  for (auto &c : o.codes)
    c = uint8_t(rng() & 0xF);
  return o;
}
// The kernel's writer: each element to its canonical position.
void store(const Operand &o, uint32_t base, std::vector<uint8_t> &smem) {
  for (int r = 0; r < o.rows; ++r)
    for (int k = 0; k < L::kKTile; ++k) {
      const L::NibbleAddress a = L::canonicalKMajor(r, k);
      uint8_t &b = smem.at(base + a.byte);
      b = uint8_t((b & (a.nibble ? 0x0F : 0xF0)) | o.codes[r * L::kKTile + k] << (4 * a.nibble));
    }
}

TEST(Tcgen05Layout, DescriptorsReproduceTheTileForEveryMmaStep) {
  std::mt19937 rng(3);
  const Operand a = randomOperand(L::kM, rng), b = randomOperand(L::kN, rng);
  const uint32_t aAddr = 0x400, bAddr = aAddr + L::kM * L::kTileRowBytes;
  std::vector<uint8_t> smem(bAddr + L::kN * L::kTileRowBytes);
  store(a, aAddr, smem);
  store(b, bAddr, smem);
  for (int s = 0; s < L::kMmasPerTile; ++s) {
    for (int r = 0; r < L::kM; ++r)
      for (int k = 0; k < L::kKPerMma; ++k)
        ASSERT_EQ(fetch(smem, L::operandDescriptor(aAddr, s), r, k), a.codes[r * L::kKTile + s * 64 + k]);
    for (int r = 0; r < L::kN; ++r)
      for (int k = 0; k < L::kKPerMma; ++k)
        ASSERT_EQ(fetch(smem, L::operandDescriptor(bAddr, s), r, k), b.codes[r * L::kKTile + s * 64 + k]);
  }
  // Control: LBO and SBO exchanged must read something else.
  Decoded d = decode(L::operandDescriptor(aAddr, 0));
  const uint64_t swapped = L::encode(L::SmemDescriptor{d.start, d.sbo, d.lbo});
  int differ = 0;
  for (int r = 0; r < L::kM; ++r)
    for (int k = 0; k < 64; ++k)
      differ += fetch(smem, swapped, r, k) != a.codes[r * L::kKTile + k];
  EXPECT_GT(differ, 1000);
}

// ---- Scale factors: chunk -> tcgen05.cp .32x128b.warpx4 -> TMEM -> MMA ----------
// TMEM model: cells[lane][column] = 32-bit word.
using Tmem = std::map<std::pair<int, int>, uint32_t>;
// 9.7.16.9.2 + 9.7.16.2.3: .32x128b copies 32 rows x 128 bits (source rows as a
// K-major matrix: 8-row core matrices SBO apart, 16 bytes a row) into 32 lanes
// x 4 columns; .warpx4 multicasts it to the lanes of all four warps.
void copy32x128bWarpx4(const std::vector<uint8_t> &smem, uint64_t desc, int column, Tmem &tmem) {
  const Decoded d = decode(desc);
  for (int i = 0; i < 32; ++i)
    for (int c = 0; c < 4; ++c) {
      const uint32_t src = d.start + (i % 8) * 16 + (i / 8) * d.sbo + 4 * c;
      uint32_t word = 0;
      for (int j = 0; j < 4; ++j)
        word |= uint32_t(smem.at(src + j)) << (8 * j);
      for (int q = 0; q < 4; ++q)
        tmem[{32 * q + i, column + c}] = word;
    }
}
// How the MMA reads scale_A / scale_B for 4X (9.7.16.10.7.2.3, 9.7.16.10.7.3.3:
// four bytes per row in one 4-byte column; rows 32c..32c+31 in column c, each
// row in its own lane). Unconfirmed beyond the drawn figures: see layouts.h.
uint8_t mmaScale(const Tmem &tmem, int column, int row, int block) {
  return uint8_t(tmem.at({row, column + row / 32}) >> (8 * block));
}

TEST(Tcgen05Layout, ScaleFactorsRoundTripThroughTensorMemory) {
  std::mt19937 rng(5);
  const uint32_t chunkAddr = 0x200;
  std::vector<uint8_t> smem(chunkAddr + L::kScaleChunkBytes);
  uint8_t sf[128][4];
  for (int r = 0; r < 128; ++r)
    for (int j = 0; j < 4; ++j)
      smem.at(chunkAddr + L::scaleChunkByte(r, j)) = sf[r][j] = uint8_t(rng());
  Tmem tmem;
  copy32x128bWarpx4(smem, L::scaleChunkDescriptor(chunkAddr), L::kScaleAColumn, tmem);
  for (int r = 0; r < 128; ++r)
    for (int j = 0; j < 4; ++j) {
      ASSERT_EQ(mmaScale(tmem, L::kScaleAColumn, r, j), sf[r][j]);
      const L::TmemCell cell = L::scaleCell(r, j);
      ASSERT_EQ(uint8_t(tmem.at({cell.lane, L::kScaleAColumn + cell.column}) >> (8 * cell.byte)), sf[r][j]);
    }
  // The chunk fills each byte exactly once.
  std::set<uint32_t> bytes;
  for (int r = 0; r < 128; ++r)
    for (int j = 0; j < 4; ++j)
      bytes.insert(L::scaleChunkByte(r, j));
  EXPECT_EQ(bytes.size(), size_t(L::kScaleChunkBytes));
}

// One whole block-scaled MMA step on the model: A, B, scales written the way the
// kernel writes them, read back through descriptors and TMEM, D compared with
// the product of the source matrices.
TEST(Tcgen05Layout, ModelOfOneMmaStepMatchesMatrixProduct) {
  std::mt19937 rng(11);
  const Operand a = randomOperand(L::kM, rng), b = randomOperand(L::kN, rng);
  const uint32_t aAddr = 0, bAddr = L::kM * L::kTileRowBytes, sAddr = bAddr + L::kN * L::kTileRowBytes;
  std::vector<uint8_t> smem(sAddr + 2 * L::kScaleChunkBytes);
  store(a, aAddr, smem);
  store(b, bAddr, smem);
  const int step = 2;
  uint8_t sfa[128][4], sfb[128][4] = {};
  for (int r = 0; r < 128; ++r)
    for (int j = 0; j < 4; ++j) {
      sfa[r][j] = uint8_t(0x30 + rng() % 0x20);
      if (r < L::kN)
        sfb[r][j] = uint8_t(0x30 + rng() % 0x20);
      smem[sAddr + L::scaleChunkByte(r, j)] = sfa[r][j];
      smem[sAddr + L::kScaleChunkBytes + L::scaleChunkByte(r, j)] = sfb[r][j];
    }
  Tmem tmem;
  copy32x128bWarpx4(smem, L::scaleChunkDescriptor(sAddr), L::kScaleAColumn, tmem);
  copy32x128bWarpx4(smem, L::scaleChunkDescriptor(sAddr + L::kScaleChunkBytes), L::kScaleBColumn, tmem);
  const uint64_t aDesc = L::operandDescriptor(aAddr, step), bDesc = L::operandDescriptor(bAddr, step);
  for (int m = 0; m < L::kM; m += 7)
    for (int n = 0; n < L::kN; ++n) {
      double model = 0, direct = 0;
      for (int k = 0; k < 64; ++k) {
        model += e2m1ToFloat(uint8_t(fetch(smem, aDesc, m, k))) *
                 ue4m3ToFloat(mmaScale(tmem, L::kScaleAColumn, m, k / 16)) *
                 e2m1ToFloat(uint8_t(fetch(smem, bDesc, n, k))) *
                 ue4m3ToFloat(mmaScale(tmem, L::kScaleBColumn, n, k / 16));
        direct += e2m1ToFloat(a.codes[m * L::kKTile + step * 64 + k]) * ue4m3ToFloat(sfa[m][k / 16]) *
                  e2m1ToFloat(b.codes[n * L::kKTile + step * 64 + k]) * ue4m3ToFloat(sfb[n][k / 16]);
      }
      ASSERT_EQ(model, direct) << m << "," << n;
    }
}

TEST(Tcgen05Layout, AccumulatorRowsCoverTheTileOnce) {
  std::vector<int> seen(L::kM);
  for (int w = 0; w < 4; ++w)
    for (int lane = 0; lane < 32; ++lane)
      ++seen[L::accumulatorRow(w, lane)];
  for (int s : seen)
    ASSERT_EQ(s, 1);
  EXPECT_EQ(L::tmemAddress(0x00000020u, 64, 3), 0x00400023u); // lane << 16 | column
}

// ---- The kernel's CTA tile loop on the CPU: a whole MoE -----------------------
// moe.cuh's steps with the same staging/epilogue functions (moe_tiles.h); the
// hardware parts are the models above: tcgen05.cp into TMEM, operands fetched
// through the descriptors the kernel builds, D accumulated in fp32 per MMA.
namespace tc = archscope::tcgen05;
namespace steps = archscope::nvfp4moe;

struct CtaModel {
  std::vector<uint8_t> smem = std::vector<uint8_t>(tc::kABytes + tc::kBBytes + 2 * tc::kScaleBytes);
  uint8_t *a = smem.data(), *b = a + tc::kABytes, *sfa = b + tc::kBBytes, *sfb = sfa + tc::kScaleBytes;
  float d[tc::kARows][tc::kBRows] = {};

  void round(const tc::TileView &v, int r, int nTile) {
    for (int c = 0; c < tc::kARows * tc::kChunksPerRow; ++c)
      tc::stageA(v, r, c, a);
    for (int c = 0; c < tc::kBRows * tc::kChunksPerRow; ++c)
      tc::stageB(v, r, nTile, c, b);
    for (int t = 0; t < tc::kThreads; ++t)
      tc::stageScales(v, r, nTile, t, sfa, sfb);
    for (int step = 0; step < tc::stepsInRound(v.K, r); ++step)
      mma(step, r > 0 || step > 0);
  }
  void mma(int step, bool accumulate) {
    Tmem tmem;
    const uint32_t chunk = step * L::kScaleChunkBytes;
    copy32x128bWarpx4(smem, L::scaleChunkDescriptor(uint32_t(sfa - a) + chunk), L::kScaleAColumn, tmem);
    copy32x128bWarpx4(smem, L::scaleChunkDescriptor(uint32_t(sfb - a) + chunk), L::kScaleBColumn, tmem);
    const uint64_t aDesc = L::operandDescriptor(0, step), bDesc = L::operandDescriptor(uint32_t(b - a), step);
    double av[tc::kARows][64], bv[tc::kBRows][64];
    for (int k = 0; k < 64; ++k) {
      for (int m = 0; m < tc::kARows; ++m)
        av[m][k] = e2m1ToFloat(uint8_t(fetch(smem, aDesc, m, k))) *
                   ue4m3ToFloat(mmaScale(tmem, L::kScaleAColumn, m, k / 16));
      for (int n = 0; n < tc::kBRows; ++n)
        bv[n][k] = e2m1ToFloat(uint8_t(fetch(smem, bDesc, n, k))) *
                   ue4m3ToFloat(mmaScale(tmem, L::kScaleBColumn, n, k / 16));
    }
    for (int m = 0; m < tc::kARows; ++m)
      for (int n = 0; n < tc::kBRows; ++n) {
        double sum = 0;
        for (int k = 0; k < 64; ++k)
          sum += av[m][k] * bv[n][k];
        d[m][n] = float((accumulate ? d[m][n] : 0.0f) + sum);
      }
  }
};

void modelGemm(bool gemm1, const archscope::MoeDeviceArgs &args, const steps::Workspace &w) {
  const archscope::MoeShape &s = args.shape;
  for (int e = 0; e < s.experts; ++e)
    for (int tile = 0; tile < tc::rowTiles(gemm1, s); ++tile) {
      const tc::TileView v = tc::gemmView(gemm1, args, w, e, tile);
      for (int nTile = 0; nTile * tc::kBRows < v.count; ++nTile) {
        CtaModel cta;
        for (int r = 0; r < tc::roundsFor(v.K); ++r)
          cta.round(v, r, nTile);
        float stage[tc::kARows][tc::kBRows + 1];
        for (int m = 0; m < tc::kARows; ++m) // tcgen05.ld: warp m/32, lane m%32 reads row m
          for (int n = 0; n < tc::kBRows; ++n)
            stage[m][n] = cta.d[m][n] * tc::gemmScale(gemm1, args, e);
        tc::OutAdd o;
        for (int t = 0; t < tc::kThreads; ++t) {
          if (gemm1)
            tc::swigluEpilogue(v, nTile, t, &stage[0][0], tc::kBRows + 1, v.rowBase0, s.inter,
                               args.actGlobalScale, w);
          else
            for (int n = 0; n < tc::kBRows; ++n)
              if (tc::combineTerm(v, nTile, t, n, cta.d[t][n], tc::gemmScale(false, args, e), args, o))
                args.out[o.index] += o.value;
        }
      }
    }
}

std::vector<float> modelMoe(const archscope::MoeProblem &p, float actGlobal) {
  const archscope::MoeShape &s = p.shape;
  ModelWorkspace ws;
  routeAndQuantize(p, ws);
  steps::Workspace &w = ws.w;
  std::vector<float> out(size_t(s.tokens) * s.hidden, 0.0f);
  archscope::MoeDeviceArgs args; // host pointers: the view functions only do index math
  args.shape = s;
  args.topkIds = p.topkIds.data(), args.topkWeights = p.topkWeights.data();
  args.w1Packed = p.w1.packed.data(), args.w1Scales = p.w1.scales.data(), args.w1Global = p.w1.global.data();
  args.w2Packed = p.w2.packed.data(), args.w2Scales = p.w2.scales.data(), args.w2Global = p.w2.global.data();
  args.xGlobalScale = p.xGlobalScale, args.actGlobalScale = actGlobal, args.out = out.data();
  modelGemm(true, args, w);
  modelGemm(false, args, w);
  return out;
}

TEST(Tcgen05Moe, CtaTileLoopMatchesFp64Reference) {
  // H = 320: a short last K round (1 MMA) in GEMM1 and a GEMM2 row tile past H;
  // 40 tokens x top-3 of 3 experts: 40 pairs each, two pair tiles, the second partial.
  const archscope::MoeShape shape{40, 320, 128, 3, 3};
  const archscope::MoeProblem p = archscope::makeMoeProblem(shape, 9, 1);
  for (int e = 0; e < shape.experts; ++e)
    ASSERT_EQ(steps::countPairs(p.topkIds.data(), int(shape.pairs()), e), 40);
  const std::vector<int> tokens = archscope::checkedTokens(shape.tokens, shape.tokens, p.seed);
  const archscope::MoeReference ref = archscope::referenceMoe(p, tokens, /*quantizeActivations=*/true, 1);
  const std::vector<float> out = modelMoe(p, ref.actGlobalScale);
  const double err = archscope::maxRelativeError(ref, out.data(), shape.hidden);
  std::printf("tcgen05 CPU model: max_rel_err %.3e\n", err);
  EXPECT_LT(err, 1e-3);
}

} // namespace
