//===--- Target.h - GPU compute capabilities and compilation targets -----===//
// SPDX-License-Identifier: Apache-2.0
//
// Vocabulary:
//   ComputeCapability  a GPU (CC 12.0 = an RTX PRO 6000); matrix columns are these.
//   Target             what a compiler builds for: sm_120a, sm_100f, compute_90.
// The run rules are exact (hardware.md): sm_XYa runs only on CC X.Y; sm_XYf and
// plain SASS run on the same major at >= minor; plain PTX JIT-forwards to any
// newer GPU, while a/f PTX keeps its a/f restriction.
//===----------------------------------------------------------------------===//
#pragma once
#include <compare>
#include <optional>
#include <string>
#include <string_view>

namespace archscope {

struct ComputeCapability {
  int major = 0;
  int minor = 0;
  int sm() const { return major * 10 + minor; }
  std::string name() const { return "sm_" + std::to_string(sm()); }
  std::string dotted() const { return std::to_string(major) + "." + std::to_string(minor); }
  auto operator<=>(const ComputeCapability &) const = default;
  /// Parses "12.0", "sm_120", "120", "sm120".
  static std::optional<ComputeCapability> parse(std::string_view text);
};

enum class Variant { Plain, ArchSpecific /*a*/, FamilySpecific /*f*/ };
enum class CodeKind { Sass, Ptx };

struct Target {
  ComputeCapability cc;
  Variant variant = Variant::Plain;
  CodeKind kind = CodeKind::Sass;

  /// Parses "sm_120a", "sm_100f", "compute_90", "12.0a", "10.0f+PTX" (SASS part).
  static std::optional<Target> parse(std::string_view text);
  /// Whether code built for this target loads on a GPU of capability `gpu`.
  bool runsOn(ComputeCapability gpu) const;
  std::string name() const;
  auto operator<=>(const Target &) const = default;
};

std::string_view variantSuffix(Variant v);

} // namespace archscope
