//===--- options.h - the probe's command line -----------------------------===//
// SPDX-License-Identifier: Apache-2.0
//===----------------------------------------------------------------------===//
#pragma once
#include "../common/moe_shape.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <random>
#include <string>
#include <vector>

namespace archscope {

struct ProbeOptions {
  MoeShape shape;
  uint64_t seed = 0;
  int iters = 0;
  int checkTokens = 64;
  bool quietBlocks = false; // --quiet-blocks: some block scales subnormal (makeMoeProblem)
  std::vector<int> sweep; // token counts, largest first
  // --also CONFIG:T1,T2 (repeatable; w4a16): after the default run at each of
  // those T, one more run with ARCHSCOPE_W4A16_CONFIG=CONFIG, on the same weights.
  std::vector<std::pair<std::string, std::vector<int>>> also;
};

inline bool parsePositive(const char* text, int& value) {
  char* end = nullptr;
  const long parsed = std::strtol(text, &end, 10);
  if (!text[0] || *end || parsed <= 0 || parsed > (1L << 30)) return false;
  value = int(parsed);
  return true;
}

inline bool parseSweep(const char* text, std::vector<int>& sweep) {
  std::string list(text);
  for (size_t begin = 0; begin <= list.size();) {
    const size_t comma = std::min(list.find(',', begin), list.size());
    int tokens = 0;
    if (!parsePositive(list.substr(begin, comma - begin).c_str(), tokens)) return false;
    sweep.push_back(tokens);
    begin = comma + 1;
  }
  std::sort(sweep.begin(), sweep.end(), std::greater<int>());
  return true;
}

inline void printUsage() {
  std::fprintf(stderr, "usage: probe --tokens T --hidden H --inter I --experts E --topk k [--seed S] [--iters N]\n"
                       "             [--check-tokens M] [--sweep T1,T2,...] [--also CONFIG:T1,T2 ...] [--quiet-blocks]\n"
                       "             (H, I multiples of 64; k <= E; --also: w4a16 configurations, T in the sweep)\n");
}

/// Parses argv; prints the usage and returns false on any error.
inline bool parseOptions(int argc, char** argv, ProbeOptions& o) {
  bool seeded = false;
  int tokens = 0;
  for (int i = 1; i < argc; ++i) {
    const char* flag = argv[i];
    if (!std::strcmp(flag, "--quiet-blocks")) {
      o.quietBlocks = true;
      continue;
    }
    const char* value = i + 1 < argc ? argv[++i] : "";
    bool ok = true;
    if (!std::strcmp(flag, "--tokens")) ok = parsePositive(value, tokens);
    else if (!std::strcmp(flag, "--hidden")) ok = parsePositive(value, o.shape.hidden);
    else if (!std::strcmp(flag, "--inter")) ok = parsePositive(value, o.shape.inter);
    else if (!std::strcmp(flag, "--experts")) ok = parsePositive(value, o.shape.experts);
    else if (!std::strcmp(flag, "--topk")) ok = parsePositive(value, o.shape.topk);
    else if (!std::strcmp(flag, "--iters")) ok = parsePositive(value, o.iters);
    else if (!std::strcmp(flag, "--check-tokens")) ok = parsePositive(value, o.checkTokens);
    else if (!std::strcmp(flag, "--sweep")) ok = parseSweep(value, o.sweep);
    else if (!std::strcmp(flag, "--also")) {
      const char* colon = std::strchr(value, ':');
      std::vector<int> at;
      ok = colon && colon != value && parseSweep(colon + 1, at);
      if (ok) o.also.emplace_back(std::string(value, colon), at);
    }
    else if (!std::strcmp(flag, "--seed")) ok = (o.seed = std::strtoull(value, nullptr, 10), seeded = true, value[0] != 0);
    else ok = false;
    if (!ok) {
      std::fprintf(stderr, "bad argument: %s %s\n", flag, value);
      printUsage();
      return false;
    }
  }
  if (tokens > 0) o.sweep.insert(o.sweep.begin(), tokens);
  std::sort(o.sweep.begin(), o.sweep.end(), std::greater<int>());
  o.shape.tokens = o.sweep.empty() ? 0 : o.sweep.front();
  if (!o.shape.valid()) {
    printUsage();
    return false;
  }
  if (!seeded) o.seed = (uint64_t(std::random_device{}()) << 32) | std::random_device{}(); // fresh inputs each run
  return true;
}

} // namespace archscope
