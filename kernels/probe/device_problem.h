//===--- device_problem.h - the probe's device buffers and device facts ---===//
// SPDX-License-Identifier: Apache-2.0
//===----------------------------------------------------------------------===//
#pragma once
#include "../common/moe_device.cuh"
#include "../common/moe_problem.h"

#include <cmath>
#include <cuda_runtime.h>
#include <string>
#include <vector>

namespace archscope {

struct DeviceInfo {
  std::string name, error;
  int major = 0, minor = 0, driver = 0, runtime = 0;
};

/// False when no usable device is present (error says why).
inline bool queryDevice(DeviceInfo& info) {
  int count = 0;
  cudaError_t err = cudaGetDeviceCount(&count);
  if (err != cudaSuccess || count == 0) {
    info.error = err != cudaSuccess ? cudaGetErrorString(err) : "device count is 0";
    return false;
  }
  cudaDeviceProp prop{};
  if ((err = cudaGetDeviceProperties(&prop, 0)) != cudaSuccess) {
    info.error = cudaGetErrorString(err);
    return false;
  }
  info.name = prop.name;
  info.major = prop.major, info.minor = prop.minor;
  cudaDriverGetVersion(&info.driver);
  cudaRuntimeGetVersion(&info.runtime);
  return true;
}

inline bool allFinite(const std::vector<float>& values) {
  for (float v : values)
    if (!std::isfinite(v)) return false;
  return true;
}

/// Device copies of a problem. Weights of all E experts are allocated (the
/// layout kernels index) and uploaded once; tokens and routing per run.
class DeviceProblem {
public:
  DeviceProblem() = default;
  DeviceProblem(const DeviceProblem&) = delete;
  DeviceProblem& operator=(const DeviceProblem&) = delete;
  ~DeviceProblem() {
    for (void* p : buffers_) cudaFree(p);
  }

  /// Allocates for problem.shape (the largest run) and uploads the weights.
  cudaError_t allocate(const MoeProblem& p) {
    const MoeShape& s = p.shape;
    cudaError_t err = cudaSuccess;
    auto upload = [&](const auto& host, auto*& device) {
      if (err == cudaSuccess) err = alloc(host.size() * sizeof(host[0]), device);
      if (err == cudaSuccess) err = cudaMemcpy(device, host.data(), host.size() * sizeof(host[0]), cudaMemcpyHostToDevice);
    };
    upload(p.w1.packed, w1Packed_), upload(p.w1.scales, w1Scales_), upload(p.w1.global, w1Global_);
    upload(p.w2.packed, w2Packed_), upload(p.w2.scales, w2Scales_), upload(p.w2.global, w2Global_);
    shape_ = s;
    if (err == cudaSuccess) err = alloc(p.x.size() * 2, x_);
    if (err == cudaSuccess) err = alloc(size_t(s.pairs()) * 4, ids_);
    if (err == cudaSuccess) err = alloc(size_t(s.pairs()) * 4, weights_);
    if (err == cudaSuccess) err = alloc(size_t(s.tokens) * s.hidden * 4, out_);
    workspaceBytes_ = moeWorkspaceBytes(s);
    if (err == cudaSuccess) err = alloc(workspaceBytes_, workspace_);
    return err;
  }

  /// Uploads tokens and routing of `p` (at most the allocated size) and returns the arguments.
  MoeDeviceArgs upload(const MoeProblem& p) {
    cudaMemcpy(x_, p.x.data(), p.x.size() * 2, cudaMemcpyHostToDevice);
    cudaMemcpy(ids_, p.topkIds.data(), p.topkIds.size() * 4, cudaMemcpyHostToDevice);
    cudaMemcpy(weights_, p.topkWeights.data(), p.topkWeights.size() * 4, cudaMemcpyHostToDevice);
    MoeDeviceArgs a;
    a.shape = p.shape;
    a.x = reinterpret_cast<const MoeBf16*>(x_);
    a.topkIds = ids_, a.topkWeights = weights_;
    a.w1Packed = w1Packed_, a.w1Scales = w1Scales_, a.w1Global = w1Global_;
    a.w2Packed = w2Packed_, a.w2Scales = w2Scales_, a.w2Global = w2Global_;
    a.xGlobalScale = p.xGlobalScale;
    a.out = out_;
    a.workspace = workspace_, a.workspaceBytes = workspaceBytes_;
    tokens_ = p.shape.tokens, hidden_ = p.shape.hidden;
    return a;
  }

  /// Rewrites the weight buffers in place with a family's repack (e.g.
  /// repackWeights_w4a16), once, after allocate.
  cudaError_t repackWeights(cudaError_t (*repack)(const MoeShape&, const MoeWeightBuffers&, cudaStream_t)) {
    const cudaError_t err = repack(shape_, {w1Packed_, w1Scales_, w2Packed_, w2Scales_}, nullptr);
    return err == cudaSuccess ? cudaDeviceSynchronize() : err;
  }

  /// NaN bytes in every output element, so an element never written fails.
  cudaError_t poisonOutput() { return cudaMemset(out_, 0xFF, size_t(tokens_) * hidden_ * 4); }

  std::vector<float> downloadOutput() const {
    std::vector<float> out(size_t(tokens_) * hidden_);
    cudaMemcpy(out.data(), out_, out.size() * 4, cudaMemcpyDeviceToHost);
    return out;
  }

private:
  template <class T> cudaError_t alloc(size_t bytes, T*& pointer) {
    void* raw = nullptr;
    const cudaError_t err = cudaMalloc(&raw, std::max<size_t>(bytes, 256));
    if (err == cudaSuccess) buffers_.push_back(raw);
    pointer = static_cast<T*>(raw);
    return err;
  }

  std::vector<void*> buffers_;
  uint8_t *w1Packed_ = nullptr, *w1Scales_ = nullptr, *w2Packed_ = nullptr, *w2Scales_ = nullptr;
  float *w1Global_ = nullptr, *w2Global_ = nullptr, *weights_ = nullptr, *out_ = nullptr;
  int32_t* ids_ = nullptr;
  uint16_t* x_ = nullptr;
  void* workspace_ = nullptr;
  size_t workspaceBytes_ = 0;
  MoeShape shape_{};
  int tokens_ = 0, hidden_ = 0;
};

} // namespace archscope
