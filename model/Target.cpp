//===--- Target.cpp - parsing and run rules of GPU targets ---------------===//
// SPDX-License-Identifier: Apache-2.0
#include "model/Target.h"

#include <cctype>

namespace archscope {
namespace {

bool consumePrefix(std::string_view &s, std::string_view prefix) {
  if (s.substr(0, prefix.size()) != prefix) return false;
  s.remove_prefix(prefix.size());
  return true;
}

/// Reads "12.0" or "120" (last digit is the minor) from the front of `s`.
std::optional<ComputeCapability> readCapability(std::string_view &s) {
  size_t i = 0;
  while (i < s.size() && std::isdigit(static_cast<unsigned char>(s[i]))) ++i;
  if (i == 0) return std::nullopt;
  std::string digits(s.substr(0, i));
  if (i < s.size() && s[i] == '.') {
    size_t j = i + 1;
    while (j < s.size() && std::isdigit(static_cast<unsigned char>(s[j]))) ++j;
    if (j == i + 1) return std::nullopt;
    ComputeCapability cc{std::stoi(digits), std::stoi(std::string(s.substr(i + 1, j - i - 1)))};
    s.remove_prefix(j);
    return cc;
  }
  if (digits.size() < 2 || digits.size() > 4) return std::nullopt;
  int value = std::stoi(digits);
  s.remove_prefix(i);
  return ComputeCapability{value / 10, value % 10};
}

} // namespace

std::optional<ComputeCapability> ComputeCapability::parse(std::string_view text) {
  std::string_view s = text;
  consumePrefix(s, "sm_") || consumePrefix(s, "sm");
  auto cc = readCapability(s);
  if (!cc || !s.empty()) return std::nullopt;
  return cc;
}

std::optional<Target> Target::parse(std::string_view text) {
  std::string_view s = text;
  Target t;
  if (consumePrefix(s, "compute_")) t.kind = CodeKind::Ptx;
  else consumePrefix(s, "sm_");
  auto cc = readCapability(s);
  if (!cc) return std::nullopt;
  t.cc = *cc;
  if (!s.empty() && (s[0] == 'a' || s[0] == 'f')) {
    t.variant = s[0] == 'a' ? Variant::ArchSpecific : Variant::FamilySpecific;
    s.remove_prefix(1);
  }
  if (consumePrefix(s, "+PTX") || consumePrefix(s, "+ptx")) s = {};
  if (!s.empty()) return std::nullopt;
  return t;
}

bool Target::runsOn(ComputeCapability gpu) const {
  switch (variant) {
  case Variant::ArchSpecific:
    return gpu == cc;
  case Variant::FamilySpecific:
    return gpu.major == cc.major && gpu.minor >= cc.minor;
  case Variant::Plain:
    if (kind == CodeKind::Ptx) return gpu >= cc;
    return gpu.major == cc.major && gpu.minor >= cc.minor;
  }
  return false;
}

std::string_view variantSuffix(Variant v) {
  switch (v) {
  case Variant::ArchSpecific: return "a";
  case Variant::FamilySpecific: return "f";
  case Variant::Plain: return "";
  }
  return "";
}

std::string Target::name() const {
  return (kind == CodeKind::Ptx ? "compute_" : "sm_") + std::to_string(cc.sm()) +
         std::string(variantSuffix(variant));
}

} // namespace archscope
