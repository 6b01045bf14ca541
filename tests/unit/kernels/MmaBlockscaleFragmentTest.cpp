// Checks kernels/mma-blockscale/fragments.h against a CPU emulator of ONE
// mma.sync.aligned.m16n8k64.row.col.kind::mxf4nvf4.block_scale.scale_vec::4X
// .f32.e2m1.e2m1.f32.ue4m3. The emulator reassembles the matrices from the 32
// lanes' registers with its OWN encoding of the layout tables, written from the
// PTX ISA text ("Matrix Fragments for mma.m16n8k64", "Block Scaling for
// mma.sync") and, for the scale rows the ISA only draws, from CUTLASS's
// SM120 CuTe layouts evaluated literally. It never calls fragments.h.
#include "../../../kernels/common/moe_device.cuh"
#include "../../../kernels/common/moe_problem.h"
#include "../../../kernels/mma-blockscale/moe_tiles.h"

#include "MoeStepsModel.h"

#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <vector>

namespace {
namespace frag = archscope::mma_blockscale::frag;
using archscope::nvfp4::e2m1ToFloat;
using archscope::nvfp4::ue4m3ToFloat;

// ---- Independent layout tables (PTX ISA formulas, element index i) ----------
struct RC {
  int r, c;
};
RC isaA(int lane, int i) { // a_i, i in 0..31; register i/8, nibble i%8
  const int g = lane >> 2, t = lane % 4;
  const int row = (i < 8 || (i >= 16 && i < 24)) ? g : g + 8;
  const int col = i < 16 ? t * 8 + (i & 7) : t * 8 + (i & 7) + 32;
  return {row, col};
}
RC isaB(int lane, int i) { // b_i, i in 0..15 -> (k, n)
  const int g = lane >> 2, t = lane % 4;
  return {i < 8 ? t * 8 + (i & 7) : t * 8 + (i & 7) + 32, g};
}
RC isaC(int lane, int i) { // c_i, i in 0..3
  const int g = lane >> 2, t = lane % 4;
  return {i < 2 ? g : g + 8, t * 2 + (i & 1)};
}
// CUTLASS SM120_16x8x64 SFALayout thread mode Shape(2,2,8) Stride(8,0,1) into
// an M16 column: offset = 8*(t%2) + 0*((t/2)%2) + 1*(t/4). The ISA's tidA
// rule decides which pair actually supplies it (Figure 43 text).
int cuteSfaRow(int lane) { return 8 * (lane % 2) + 0 * ((lane / 2) % 2) + (lane / 4); }
bool isaSfaSupplier(int lane, int tidA) { return lane % 4 == 2 * tidA || lane % 4 == 2 * tidA + 1; }
// SFBLayout thread mode Shape(4,8) Stride(0,1) into N8.
int cuteSfbCol(int lane) { return 0 * (lane % 4) + (lane / 4); }
bool isaSfbSupplier(int lane, int tidB) { return lane % 4 == tidB; }

struct WarpRegs {
  uint32_t a[32][4]{}, b[32][2]{}, sfa[32]{}, sfb[32]{};
  float c[32][4]{};
  uint16_t bidA = 0, tidA = 0, bidB = 0, tidB = 0;
};
int nib(uint32_t reg, int i) { return (reg >> (4 * i)) & 0xF; }
int byteOf(uint32_t reg, int i) { return (reg >> (8 * i)) & 0xFF; }

// D = (A * scale_A) x (B * scale_B) + C, one scale per 16 K (scale_vec::4X).
void emulateMma(const WarpRegs &w, float d[32][4]) {
  int A[16][64], B[64][8], SFA[16][4], SFB[4][8];
  double C[16][8];
  for (int l = 0; l < 32; ++l) {
    for (int i = 0; i < 32; ++i)
      A[isaA(l, i).r][isaA(l, i).c] = nib(w.a[l][i / 8], i % 8);
    for (int i = 0; i < 16; ++i)
      B[isaB(l, i).r][isaB(l, i).c] = nib(w.b[l][i / 8], i % 8);
    for (int i = 0; i < 4; ++i)
      C[isaC(l, i).r][isaC(l, i).c] = w.c[l][i];
    for (int j = 0; j < 4; ++j) { // 4X: byte-id is 0 and all four bytes count
      if (isaSfaSupplier(l, w.tidA))
        SFA[cuteSfaRow(l)][j] = byteOf(w.sfa[l], j);
      if (isaSfbSupplier(l, w.tidB))
        SFB[j][cuteSfbCol(l)] = byteOf(w.sfb[l], j);
    }
  }
  for (int l = 0; l < 32; ++l)
    for (int i = 0; i < 4; ++i) {
      const RC o = isaC(l, i);
      double acc = C[o.r][o.c];
      for (int k = 0; k < 64; ++k)
        acc += e2m1ToFloat(A[o.r][k]) * ue4m3ToFloat(SFA[o.r][k / 16]) * e2m1ToFloat(B[k][o.c]) *
               ue4m3ToFloat(SFB[k / 16][o.c]);
      d[l][i] = float(acc);
    }
}

// ---- The tile in memory, as the kernel sees it ------------------------------
struct Tile {
  uint8_t aPacked[16][32]; // 16 rows x 64 e2m1, K contiguous
  uint8_t bPacked[8][32];  // 8 columns (tokens) x 64 e2m1, K contiguous
  uint8_t sfa[16][4], sfb[8][4];
  float c[16][8];
};
Tile randomTile(unsigned seed) {
  std::mt19937 rng(seed);
  Tile t;
  for (auto &row : t.aPacked)
    for (auto &x : row)
      x = uint8_t(rng());
  for (auto &row : t.bPacked)
    for (auto &x : row)
      x = uint8_t(rng());
  // Finite scales of moderate size (0x7F would be NaN).
  for (auto &row : t.sfa)
    for (auto &x : row)
      x = uint8_t(0x28 + rng() % 0x28);
  for (auto &row : t.sfb)
    for (auto &x : row)
      x = uint8_t(0x28 + rng() % 0x28);
  for (auto &row : t.c)
    for (auto &x : row)
      x = float(int(rng() % 17) - 8);
  return t;
}
float value(const uint8_t *packedRow, int k) {
  return e2m1ToFloat(uint8_t(packedRow[k / 2] >> (4 * (k & 1))));
}
// Plain matrix product straight from the tile.
double reference(const Tile &t, int m, int n) {
  double acc = t.c[m][n];
  for (int k = 0; k < 64; ++k)
    acc += value(t.aPacked[m], k) * ue4m3ToFloat(t.sfa[m][k / 16]) * value(t.bPacked[n], k) *
           ue4m3ToFloat(t.sfb[n][k / 16]);
  return acc;
}
// Distribute the tile into registers exactly as the kernel does (fragments.h),
// run the emulator, and gather D back through fragments.h.
void runThroughFragments(const Tile &t, const uint8_t *const sfaRows[16], float out[16][8]) {
  WarpRegs w;
  w.bidA = frag::kByteIdA, w.tidA = frag::kThreadIdA, w.bidB = frag::kByteIdB, w.tidB = frag::kThreadIdB;
  const uint8_t *cols[8];
  const uint8_t *sfbCols[8];
  for (int n = 0; n < 8; ++n)
    cols[n] = t.bPacked[n], sfbCols[n] = t.sfb[n];
  for (int l = 0; l < 32; ++l) {
    frag::loadA(&t.aPacked[0][0], 32, l, w.a[l]);
    frag::loadB(cols, l, w.b[l]);
    w.sfa[l] = frag::loadScaleA(sfaRows, l);
    w.sfb[l] = frag::loadScaleB(sfbCols, l);
    for (int r = 0; r < 4; ++r)
      w.c[l][r] = t.c[frag::cElement(l, r).row][frag::cElement(l, r).col];
  }
  float d[32][4];
  emulateMma(w, d);
  for (int l = 0; l < 32; ++l)
    for (int r = 0; r < 4; ++r)
      out[frag::cElement(l, r).row][frag::cElement(l, r).col] = d[l][r];
}

TEST(MmaBlockscaleFragment, EmulatedMmaMatchesMatrixProduct) {
  for (unsigned seed = 1; seed <= 20; ++seed) {
    const Tile t = randomTile(seed);
    const uint8_t *sfaRows[16];
    for (int m = 0; m < 16; ++m)
      sfaRows[m] = t.sfa[m];
    float out[16][8];
    runThroughFragments(t, sfaRows, out);
    for (int m = 0; m < 16; ++m)
      for (int n = 0; n < 8; ++n) {
        const double ref = reference(t, m, n);
        ASSERT_NEAR(out[m][n], ref, 1e-6 * (1.0 + std::fabs(ref)))
            << "seed " << seed << " m " << m << " n " << n;
      }
  }
}

// Control: a kernel that fed scale rows g and g+8 the wrong way round must be
// caught, so the comparison above is sensitive to the scale layout.
TEST(MmaBlockscaleFragment, SwappedScaleRowsAreDetected) {
  const Tile t = randomTile(7);
  const uint8_t *swapped[16];
  for (int m = 0; m < 16; ++m)
    swapped[m] = t.sfa[(m + 8) % 16];
  float out[16][8];
  runThroughFragments(t, swapped, out);
  int wrong = 0;
  for (int m = 0; m < 16; ++m)
    for (int n = 0; n < 8; ++n)
      wrong += std::fabs(out[m][n] - reference(t, m, n)) > 1e-6 * (1 + std::fabs(reference(t, m, n)));
  EXPECT_GT(wrong, 64);
}

TEST(MmaBlockscaleFragment, EveryElementHeldExactlyOnce) {
  std::vector<int> a(16 * 64), b(64 * 8), c(16 * 8), sfa(16), sfb(8);
  for (int l = 0; l < 32; ++l) {
    for (int r = 0; r < 4; ++r)
      for (int i = 0; i < 8; ++i)
        ++a[frag::aElement(l, r, i).row * 64 + frag::aElement(l, r, i).col];
    for (int r = 0; r < 2; ++r)
      for (int i = 0; i < 8; ++i)
        ++b[frag::bElement(l, r, i).row * 8 + frag::bElement(l, r, i).col];
    for (int r = 0; r < 4; ++r)
      ++c[frag::cElement(l, r).row * 8 + frag::cElement(l, r).col];
    if (frag::scaleARow(l) >= 0)
      ++sfa[frag::scaleARow(l)];
    if (frag::scaleBCol(l) >= 0)
      ++sfb[frag::scaleBCol(l)];
  }
  for (int x : a)
    ASSERT_EQ(x, 1);
  for (int x : b)
    ASSERT_EQ(x, 1);
  for (int x : c)
    ASSERT_EQ(x, 1);
  for (int x : sfa)
    ASSERT_EQ(x, 1); // 16 rows x 4 K-blocks: one lane per row
  for (int x : sfb)
    ASSERT_EQ(x, 1);
}

// fragments.h against the ISA formulas element by element (same facts as the
// emulator, so a disagreement points at the exact lane/register/nibble).
TEST(MmaBlockscaleFragment, AgreesWithIsaFormulas) {
  for (int l = 0; l < 32; ++l) {
    for (int i = 0; i < 32; ++i) {
      EXPECT_EQ(frag::aElement(l, i / 8, i % 8).row, isaA(l, i).r);
      EXPECT_EQ(frag::aElement(l, i / 8, i % 8).col, isaA(l, i).c);
    }
    for (int i = 0; i < 16; ++i) {
      EXPECT_EQ(frag::bElement(l, i / 8, i % 8).row, isaB(l, i).r);
      EXPECT_EQ(frag::bElement(l, i / 8, i % 8).col, isaB(l, i).c);
    }
    for (int i = 0; i < 4; ++i) {
      EXPECT_EQ(frag::cElement(l, i).row, isaC(l, i).r);
      EXPECT_EQ(frag::cElement(l, i).col, isaC(l, i).c);
    }
    EXPECT_EQ(frag::scaleARow(l), isaSfaSupplier(l, 0) ? cuteSfaRow(l) : -1);
    EXPECT_EQ(frag::scaleBCol(l), isaSfbSupplier(l, 0) ? cuteSfbCol(l) : -1);
  }
}

// ---- The kernel's tile loop on the CPU: a whole MoE ----------------------------
// Runs moe.cuh's steps in the same order with the same per-lane functions
// (moe_steps.h, moe_tiles.h); only the instruction is the emulator above.
namespace mb = archscope::mma_blockscale;
namespace steps = archscope::nvfp4moe;

struct WarpMma { // one warp's accumulator across K steps
  float d[32][4] = {};
  void step(const mb::Fragments f[32]) {
    WarpRegs w;
    for (int l = 0; l < 32; ++l) {
      for (int r = 0; r < 4; ++r)
        w.a[l][r] = f[l].a[r], w.c[l][r] = d[l][r];
      w.b[l][0] = f[l].b[0], w.b[l][1] = f[l].b[1], w.sfa[l] = f[l].sfa, w.sfb[l] = f[l].sfb;
    }
    emulateMma(w, d);
  }
  void run(const mb::GemmView &g, int row0, int nTile) {
    mb::Fragments f[32];
    for (int k = 0; k < g.K / frag::kK; ++k) {
      for (int l = 0; l < 32; ++l)
        mb::loadStep(g, row0, nTile, k, l, f[l]);
      step(f);
    }
  }
};

std::vector<float> modelMoe(const archscope::MoeProblem &p, float actGlobal) {
  const archscope::MoeShape &s = p.shape;
  ModelWorkspace ws;
  routeAndQuantize(p, ws);
  steps::Workspace &w = ws.w;
  std::vector<float> out(size_t(s.tokens) * s.hidden, 0.0f);
  for (int e = 0; e < s.experts; ++e) {
    const mb::GemmView g1 = mb::expertView(p.w1.packed.data(), p.w1.scales.data(), 2 * s.inter, s.hidden,
                                           w.xPacked, w.xScales, e, s.topk, w);
    for (int row0 = 0; row0 < s.inter; row0 += 16)
      for (int nTile = 0; nTile < mb::pairTiles(g1.count); ++nTile) {
        WarpMma gate, up;
        gate.run(g1, row0, nTile);
        up.run(g1, s.inter + row0, nTile);
        float gTile[16][8], uTile[16][8];
        for (int l = 0; l < 32; ++l) {
          mb::stageAccumulator(l, gate.d[l], p.w1.global[e] * p.xGlobalScale, gTile);
          mb::stageAccumulator(l, up.d[l], p.w1.global[e] * p.xGlobalScale, uTile);
        }
        for (int n = 0; n < 8; ++n)
          if (mb::tilePair(g1, nTile, n) >= 0)
            mb::swigluQuantizeColumn(gTile, uTile, n, mb::tilePair(g1, nTile, n), row0, s.inter, actGlobal,
                                     w);
      }
  }
  for (int e = 0; e < s.experts; ++e) {
    const mb::GemmView g2 = mb::expertView(p.w2.packed.data(), p.w2.scales.data(), s.hidden, s.inter,
                                           w.actPacked, w.actScales, e, 1, w);
    for (int row0 = 0; row0 < s.hidden; row0 += 16)
      for (int nTile = 0; nTile < mb::pairTiles(g2.count); ++nTile) {
        WarpMma y;
        y.run(g2, row0, nTile);
        mb::OutAdd o;
        for (int l = 0; l < 32; ++l)
          for (int r = 0; r < 4; ++r)
            if (mb::combineTerm(g2, nTile, row0, l, r, y.d[l], p.w2.global[e] * actGlobal,
                                p.topkWeights.data(), s.topk, o))
              out[size_t(o.token) * s.hidden + o.h] += o.value;
      }
  }
  return out;
}

TEST(MmaBlockscaleMoe, TileLoopMatchesFp64Reference) {
  // K of 4 (W1) and 2 (W2) mma steps; experts with several pair tiles, the
  // last one partial (checked below, so the test keeps covering them).
  const archscope::MoeShape shape{24, 256, 128, 6, 3};
  const archscope::MoeProblem p = archscope::makeMoeProblem(shape, 42, 1);
  int multiTile = 0, partial = 0;
  for (int e = 0; e < shape.experts; ++e) {
    const int n = steps::countPairs(p.topkIds.data(), int(shape.pairs()), e);
    multiTile += n > frag::kN, partial += n % frag::kN != 0;
  }
  ASSERT_GT(multiTile, 0);
  ASSERT_GT(partial, 0);
  const std::vector<int> tokens = archscope::checkedTokens(shape.tokens, shape.tokens, p.seed);
  const archscope::MoeReference ref = archscope::referenceMoe(p, tokens, /*quantizeActivations=*/true, 1);
  const std::vector<float> out = modelMoe(p, ref.actGlobalScale);
  const double err = archscope::maxRelativeError(ref, out.data(), shape.hidden);
  std::printf("mma-blockscale CPU model: max_rel_err %.3e\n", err);
  EXPECT_LT(err, 1e-3);
  // Control: the same model with the reference's quantization turned off must
  // be much further away, so the bound above is not loose enough to hide it.
  const archscope::MoeReference unquantized = archscope::referenceMoe(p, tokens, false, 1);
  EXPECT_GT(archscope::maxRelativeError(unquantized, out.data(), shape.hidden), 2 * err);
}

TEST(MmaBlockscaleMoe, WorkspaceFitsTheContractBudget) {
  for (const archscope::MoeShape base :
       {archscope::MoeShape{1, 7168, 2048, 256, 8}, archscope::MoeShape{1, 4096, 1536, 128, 8},
        archscope::MoeShape{1, 64, 64, 1, 1}})
    for (int t : {1, 8, 32, 256, 4096}) {
      archscope::MoeShape s = base;
      s.tokens = t;
      EXPECT_LE(steps::carveWorkspace(s, nullptr, nullptr), archscope::moeWorkspaceBytes(s)) << t;
    }
}

} // namespace
