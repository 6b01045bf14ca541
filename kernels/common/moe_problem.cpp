//===--- moe_problem.cpp - seeded NVFP4 MoE problems and their fp64 truth -===//
// SPDX-License-Identifier: Apache-2.0
//===----------------------------------------------------------------------===//
#include "moe_problem.h"
#include "nvfp4.h"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstring>
#include <limits>
#include <numeric>
#include <thread>

namespace archscope {
namespace {

// Stream ids keep each tensor's random numbers independent of the others.
enum Stream : uint64_t { kTokens = 1, kRouting = 2, kW1 = 3, kW2 = 4, kSubset = 5 };

uint64_t mix64(uint64_t z) { // splitmix64 finalizer
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

/// A splitmix64 stream keyed by (seed, stream, expert, row).
class RowRandom {
public:
  RowRandom(uint64_t seed, uint64_t stream, uint64_t expert, uint64_t row)
      : state_(mix64(mix64(mix64(seed + stream) + expert) + row)) {}
  uint64_t next() { return mix64(state_ += 0x9e3779b97f4a7c15ULL); }
  float uniformOpen() { return float((next() >> 40) + 1) * 0x1p-24f; } // (0, 1]
  /// Fills `count` (even) values with N(0, stddev^2) by Box-Muller.
  void normals(float* values, int count, float stddev) {
    for (int i = 0; i + 1 < count; i += 2) {
      const float radius = stddev * std::sqrt(-2.0f * std::log(uniformOpen()));
      const float angle = 6.28318530717958647f * (uniformOpen() - 0.5f);
      values[i] = radius * std::cos(angle);
      values[i + 1] = radius * std::sin(angle);
    }
  }

private:
  uint64_t state_;
};

int resolveThreads(int threads) {
  if (threads > 0) return threads;
  return std::max(1, int(std::thread::hardware_concurrency()));
}

/// Runs body(i) for i in [0, count) on `threads` threads, dynamically balanced.
template <class Body> void parallelFor(int64_t count, int threads, Body body) {
  std::atomic<int64_t> nextItem{0};
  auto worker = [&] {
    for (int64_t i = nextItem++; i < count; i = nextItem++) body(i);
  };
  const int64_t used = std::min<int64_t>(resolveThreads(threads), std::max<int64_t>(count, 1));
  std::vector<std::thread> pool;
  for (int64_t t = 1; t < used; ++t) pool.emplace_back(worker);
  worker();
  for (auto& thread : pool) thread.join();
}

void makeTokens(MoeProblem& p) {
  const MoeShape& s = p.shape;
  p.x.resize(size_t(s.tokens) * s.hidden);
  std::vector<float> row(s.hidden);
  float amax = 0.0f;
  for (int t = 0; t < s.tokens; ++t) {
    RowRandom(p.seed, kTokens, 0, t).normals(row.data(), s.hidden, 1.0f);
    for (int h = 0; h < s.hidden; ++h) {
      const uint16_t bits = floatToBf16Bits(row[h]);
      p.x[size_t(t) * s.hidden + h] = bits;
      amax = std::max(amax, std::fabs(bf16BitsToFloat(bits)));
    }
  }
  p.xGlobalScale = nvfp4::globalScaleFor(amax);
}

/// Softmax over random logits, top-k, weights renormalized over the k chosen.
void makeRouting(MoeProblem& p) {
  const MoeShape& s = p.shape;
  p.topkIds.resize(size_t(s.pairs()));
  p.topkWeights.resize(size_t(s.pairs()));
  p.routed.assign(s.experts, 0);
  std::vector<float> logits(s.experts + 1);
  std::vector<int> order(s.experts);
  for (int t = 0; t < s.tokens; ++t) {
    RowRandom(p.seed, kRouting, 0, t).normals(logits.data(), (s.experts + 1) & ~1, 1.0f);
    std::iota(order.begin(), order.end(), 0);
    std::partial_sort(order.begin(), order.begin() + s.topk, order.end(), [&](int a, int b) {
      return logits[a] != logits[b] ? logits[a] > logits[b] : a < b;
    });
    // softmax(l)_j / sum over top-k of softmax(l) = exp(l_j - m) / sum exp(l_i - m).
    const double top = logits[order[0]];
    double sum = 0.0;
    for (int j = 0; j < s.topk; ++j) sum += std::exp(double(logits[order[j]]) - top);
    for (int j = 0; j < s.topk; ++j) {
      const size_t slot = size_t(t) * s.topk + j;
      p.topkIds[slot] = order[j];
      p.topkWeights[slot] = float(std::exp(double(logits[order[j]]) - top) / sum);
      p.routed[order[j]] = 1;
    }
  }
}

/// One expert of one tensor: N(0, 1/cols) rows, global scale from the amax;
/// quiet: one block in every 7th row scaled down (makeMoeProblem).
void makeExpertWeights(Nvfp4Weights& w, uint64_t seed, Stream stream, int expert, bool quiet) {
  std::vector<float> values(size_t(w.rows) * w.cols);
  const float stddev = 1.0f / std::sqrt(float(w.cols));
  float amax = 0.0f;
  for (int r = 0; r < w.rows; ++r) {
    float* row = values.data() + size_t(r) * w.cols;
    RowRandom(seed, stream, expert, r).normals(row, w.cols, stddev);
    if (quiet && r % 7 == 0)
      for (int c = r / 7 % (w.cols / 16) * 16, end = c + 16; c < end; ++c) row[c] = std::ldexp(row[c], -15);
    for (int c = 0; c < w.cols; ++c) amax = std::max(amax, std::fabs(row[c]));
  }
  w.global[expert] = nvfp4::globalScaleFor(amax);
  for (int r = 0; r < w.rows; ++r)
    quantizeRow(values.data() + size_t(r) * w.cols, w.cols, w.global[expert],
                const_cast<uint8_t*>(w.packedRow(expert, r)), const_cast<uint8_t*>(w.scaleRow(expert, r)));
}

/// Per byte: the two e2m1 values (low nibble first); per ue4m3 byte: its value.
struct DecodeTables {
  double pair[256][2];
  double scale[256];
  DecodeTables() {
    for (int b = 0; b < 256; ++b) {
      pair[b][0] = nvfp4::e2m1ToFloat(uint8_t(b & 0xF));
      pair[b][1] = nvfp4::e2m1ToFloat(uint8_t(b >> 4));
      scale[b] = nvfp4::ue4m3ToFloat(uint8_t(b));
    }
  }
};
const DecodeTables& decodeTables() {
  static const DecodeTables tables;
  return tables;
}

} // namespace

uint16_t floatToBf16Bits(float value) {
  uint32_t bits;
  std::memcpy(&bits, &value, 4);
  if (std::isnan(value)) return uint16_t((bits >> 16) | 0x40);
  bits += 0x7FFF + ((bits >> 16) & 1); // round to nearest, ties to even
  return uint16_t(bits >> 16);
}

float bf16BitsToFloat(uint16_t bits) {
  const uint32_t wide = uint32_t(bits) << 16;
  float value;
  std::memcpy(&value, &wide, 4);
  return value;
}

void Nvfp4Weights::allocate(int expertCount, int rowCount, int colCount) {
  experts = expertCount, rows = rowCount, cols = colCount;
  packed.assign(size_t(experts) * rows * cols / 2, 0);
  scales.assign(size_t(experts) * rows * cols / nvfp4::kBlock, 0);
  global.assign(experts, 1.0f);
}

const uint8_t* Nvfp4Weights::packedRow(int expert, int row) const {
  return packed.data() + (size_t(expert) * rows + row) * (cols / 2);
}

const uint8_t* Nvfp4Weights::scaleRow(int expert, int row) const {
  return scales.data() + (size_t(expert) * rows + row) * (cols / nvfp4::kBlock);
}

void Nvfp4Weights::dequantizeRow(int expert, int row, double* values) const {
  const DecodeTables& tables = decodeTables();
  const uint8_t* bytes = packedRow(expert, row);
  const uint8_t* blockScales = scaleRow(expert, row);
  for (int block = 0; block < cols / nvfp4::kBlock; ++block) {
    const double step = tables.scale[blockScales[block]] * double(global[expert]);
    for (int i = 0; i < nvfp4::kBlock / 2; ++i) {
      const uint8_t byte = bytes[block * 8 + i];
      values[block * 16 + 2 * i] = tables.pair[byte][0] * step;
      values[block * 16 + 2 * i + 1] = tables.pair[byte][1] * step;
    }
  }
}

int MoeProblem::routedExperts() const { return int(std::count(routed.begin(), routed.end(), 1)); }

int MoeProblem::routedExpertsWithExponentZeroScales() const {
  const auto hasOne = [](const Nvfp4Weights& w, int e) {
    const uint8_t* first = w.scaleRow(e, 0);
    return std::any_of(first, first + size_t(w.rows) * (w.cols / 16), [](uint8_t b) { return (b & 0x78) == 0; });
  };
  int count = 0;
  for (int e = 0; e < shape.experts; ++e) count += routed[e] && (hasOne(w1, e) || hasOne(w2, e));
  return count;
}

int64_t MoeProblem::routedWeightBytes() const {
  return int64_t(routedExperts()) * (w1.bytesPerExpert() + w2.bytesPerExpert());
}

void quantizeRow(const float* values, int cols, float globalScale, uint8_t* packed, uint8_t* scales) {
  for (int block = 0; block < cols / nvfp4::kBlock; ++block) {
    const float* v = values + block * nvfp4::kBlock;
    float amax = 0.0f;
    for (int i = 0; i < nvfp4::kBlock; ++i) amax = std::max(amax, std::fabs(v[i]));
    const uint8_t scale = nvfp4::blockScaleByte(amax, globalScale);
    scales[block] = scale;
    // nvfp4::quantizeElement with the block's step computed once.
    const float step = nvfp4::ue4m3ToFloat(scale) * globalScale;
    for (int i = 0; i < nvfp4::kBlock; i += 2) {
      const uint8_t low = step > 0.0f ? nvfp4::floatToE2m1(v[i] / step) : 0;
      const uint8_t high = step > 0.0f ? nvfp4::floatToE2m1(v[i + 1] / step) : 0;
      packed[(block * nvfp4::kBlock + i) / 2] = uint8_t(low | (high << 4));
    }
  }
}

void fakeQuantizeRow(double* values, int cols, float globalScale) {
  std::vector<float> asFloat(values, values + cols);
  std::vector<uint8_t> packed(cols / 2), scales(cols / nvfp4::kBlock);
  quantizeRow(asFloat.data(), cols, globalScale, packed.data(), scales.data());
  const DecodeTables& tables = decodeTables();
  for (int k = 0; k < cols; ++k) {
    const double step = tables.scale[scales[k / nvfp4::kBlock]] * double(globalScale);
    values[k] = tables.pair[packed[k / 2]][k & 1] * step;
  }
}

MoeProblem makeMoeProblem(const MoeShape& shape, uint64_t seed, int threads, bool quietBlocks) {
  MoeProblem p;
  p.shape = shape;
  p.seed = seed;
  makeTokens(p);
  makeRouting(p);
  p.w1.allocate(shape.experts, 2 * shape.inter, shape.hidden);
  p.w2.allocate(shape.experts, shape.hidden, shape.inter);
  std::vector<int> routedList;
  for (int e = 0; e < shape.experts; ++e)
    if (p.routed[e]) routedList.push_back(e);
  // Items alternate W1/W2 of each routed expert, so both halves spread over threads.
  parallelFor(int64_t(routedList.size()) * 2, threads, [&](int64_t item) {
    const int expert = routedList[item / 2];
    const bool quiet = quietBlocks && expert % 2 == 0;
    if (item % 2 == 0) makeExpertWeights(p.w1, seed, kW1, expert, quiet);
    else makeExpertWeights(p.w2, seed, kW2, expert, quiet);
  });
  return p;
}

void truncateTokens(MoeProblem& p, int tokens) {
  MoeShape& s = p.shape;
  s.tokens = std::min(s.tokens, tokens);
  p.x.resize(size_t(s.tokens) * s.hidden);
  p.topkIds.resize(size_t(s.pairs()));
  p.topkWeights.resize(size_t(s.pairs()));
  p.routed.assign(s.experts, 0);
  for (int32_t e : p.topkIds) p.routed[e] = 1;
  float amax = 0.0f;
  for (uint16_t bits : p.x) amax = std::max(amax, std::fabs(bf16BitsToFloat(bits)));
  p.xGlobalScale = nvfp4::globalScaleFor(amax);
}

std::vector<int> checkedTokens(int tokens, int maxTokens, uint64_t seed) {
  std::vector<int> all(tokens);
  std::iota(all.begin(), all.end(), 0);
  if (tokens <= maxTokens) return all;
  RowRandom random(seed, kSubset, 0, 0);
  for (int i = 0; i < maxTokens; ++i) // partial Fisher-Yates
    std::swap(all[i], all[i + int(random.next() % uint64_t(tokens - i))]);
  all.resize(maxTokens);
  std::sort(all.begin(), all.end());
  return all;
}

double maxRelativeError(const MoeReference& reference, const float* out, int hidden) {
  double maxError = 0.0, maxReference = 0.0;
  for (size_t i = 0; i < reference.tokens.size(); ++i) {
    const float* row = out + size_t(reference.tokens[i]) * hidden;
    const double* expected = reference.out.data() + i * hidden;
    for (int h = 0; h < hidden; ++h) {
      if (!std::isfinite(row[h])) return std::numeric_limits<double>::infinity();
      maxError = std::max(maxError, std::fabs(double(row[h]) - expected[h]));
      maxReference = std::max(maxReference, std::fabs(expected[h]));
    }
  }
  if (maxReference == 0.0) return maxError == 0.0 ? 0.0 : std::numeric_limits<double>::infinity();
  return maxError / maxReference;
}

namespace {

/// The checked (token, slot) pairs, grouped by expert; pair = row * k + slot.
struct RoutedPairs {
  std::vector<std::vector<int>> ofExpert;
  std::vector<int> experts; // experts with at least one checked pair
};

RoutedPairs groupPairs(const MoeProblem& p, const std::vector<int>& tokens) {
  RoutedPairs g;
  g.ofExpert.resize(p.shape.experts);
  for (size_t row = 0; row < tokens.size(); ++row)
    for (int j = 0; j < p.shape.topk; ++j)
      g.ofExpert[p.topkIds[size_t(tokens[row]) * p.shape.topk + j]].push_back(int(row) * p.shape.topk + j);
  for (int e = 0; e < p.shape.experts; ++e)
    if (!g.ofExpert[e].empty()) g.experts.push_back(e);
  return g;
}

double dot(const double* a, const double* b, int n) {
  double partial[4] = {0, 0, 0, 0}; // four chains: independent adds, same result every run
  for (int i = 0; i < n; i += 4)
    for (int lane = 0; lane < 4; ++lane) partial[lane] += a[i + lane] * b[i + lane];
  return (partial[0] + partial[1]) + (partial[2] + partial[3]);
}

constexpr int kRowsPerItem = 256; // rows of one expert's weight per parallel work item

/// Runs body(expert, rowBegin, rowEnd, scratch) over the routed experts' rows.
template <class Body>
void forExpertRows(const RoutedPairs& g, int rows, int cols, int threads, Body body) {
  const int chunks = (rows + kRowsPerItem - 1) / kRowsPerItem;
  parallelFor(int64_t(g.experts.size()) * chunks, threads, [&](int64_t item) {
    thread_local std::vector<double> scratch;
    scratch.resize(cols);
    const int begin = int(item % chunks) * kRowsPerItem;
    body(g.experts[item / chunks], begin, std::min(rows, begin + kRowsPerItem), scratch.data());
  });
}

} // namespace

MoeReference referenceMoe(const MoeProblem& p, const std::vector<int>& tokens,
                          bool quantizeActivations, int threads) {
  const MoeShape& s = p.shape;
  const int H = s.hidden, I = s.inter, k = s.topk;
  const size_t pairs = tokens.size() * size_t(k);
  const RoutedPairs g = groupPairs(p, tokens);

  std::vector<double> xin(tokens.size() * H);
  for (size_t row = 0; row < tokens.size(); ++row) {
    double* v = xin.data() + row * H;
    for (int h = 0; h < H; ++h) v[h] = bf16BitsToFloat(p.x[size_t(tokens[row]) * H + h]);
    if (quantizeActivations) fakeQuantizeRow(v, H, p.xGlobalScale);
  }

  // W1 and SwiGLU: gate row i and up row I + i of the pair's expert.
  std::vector<double> act(pairs * I);
  forExpertRows(g, I, 2 * H, threads, [&](int e, int begin, int end, double* scratch) {
    double* gateW = scratch;
    double* upW = scratch + H;
    for (int i = begin; i < end; ++i) {
      p.w1.dequantizeRow(e, i, gateW);
      p.w1.dequantizeRow(e, I + i, upW);
      for (int pair : g.ofExpert[e]) {
        const double* v = xin.data() + size_t(pair / k) * H;
        const double gate = dot(gateW, v, H), up = dot(upW, v, H);
        act[size_t(pair) * I + i] = gate / (1.0 + std::exp(-gate)) * up;
      }
    }
  });

  MoeReference result;
  result.tokens = tokens;
  if (quantizeActivations) {
    double amax = 0.0;
    for (double a : act) amax = std::max(amax, std::fabs(a));
    result.actGlobalScale = nvfp4::globalScaleFor(float(amax));
    for (size_t pair = 0; pair < pairs; ++pair) fakeQuantizeRow(act.data() + pair * I, I, result.actGlobalScale);
  }

  // W2 per pair, then the weighted combine in slot order (deterministic).
  std::vector<double> y(pairs * H);
  forExpertRows(g, H, I, threads, [&](int e, int begin, int end, double* w2Row) {
    for (int h = begin; h < end; ++h) {
      p.w2.dequantizeRow(e, h, w2Row);
      for (int pair : g.ofExpert[e]) y[size_t(pair) * H + h] = dot(w2Row, act.data() + size_t(pair) * I, I);
    }
  });
  result.out.assign(tokens.size() * H, 0.0);
  for (size_t row = 0; row < tokens.size(); ++row)
    for (int j = 0; j < k; ++j) {
      const double weight = p.topkWeights[size_t(tokens[row]) * k + j];
      const double* yj = y.data() + (row * k + j) * H;
      for (int h = 0; h < H; ++h) result.out[row * H + h] += weight * yj[h];
    }
  return result;
}

} // namespace archscope
