//===--- RuntimeCheckNames.cpp - SM-valued names and their algebra -------===//
// SPDX-License-Identifier: Apache-2.0
//
// Which names stand for the device capability, and how comparisons and
// arithmetic over them become Conditions. Names are compared normalized:
// lower case, no underscores, a member prefix dropped (`m_sm`, `mSM` -> `sm`).
//===----------------------------------------------------------------------===//
#include "matchers/cuda/RuntimeCheckConditions.h"

#include <array>
#include <cctype>

namespace archscope::cuda::detail {
namespace {

/// Sm = major * 10 + minor; Cuda = the toolkit's CUDA_VERSION, major * 1000 + minor * 10.
enum class Scale { Sm, Major, Minor, Cuda, CudaMajor, CudaMinor };

Linear linearOf(Scale s) {
  Linear l;
  switch (s) {
  case Scale::Sm: l.coef[int(SymVar::CcMajor)] = 10; l.coef[int(SymVar::CcMinor)] = 1; break;
  case Scale::Major: l.coef[int(SymVar::CcMajor)] = 1; break;
  case Scale::Minor: l.coef[int(SymVar::CcMinor)] = 1; break;
  case Scale::Cuda: l.coef[int(SymVar::CudaMajor)] = 1000; l.coef[int(SymVar::CudaMinor)] = 10; break;
  case Scale::CudaMajor: l.coef[int(SymVar::CudaMajor)] = 1; break;
  case Scale::CudaMinor: l.coef[int(SymVar::CudaMinor)] = 1; break;
  }
  return l;
}

std::string normalize(std::string_view name) {
  if (name.size() > 2 && name.substr(0, 2) == "m_") name.remove_prefix(2);
  else if (name.size() > 1 && name[0] == 'm' && std::isupper(static_cast<unsigned char>(name[1]))) name.remove_prefix(1);
  std::string out;
  for (char c : name)
    if (c != '_') out += char(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

struct NameRule {
  std::string_view name; ///< normalized
  Scale scale;
  bool loose; ///< also names other things: needs a plausible constant
};

// Variables, parameters and fields.
constexpr std::array kVariables = {
    NameRule{"sm", Scale::Sm, false},           NameRule{"smversion", Scale::Sm, false},
    NameRule{"smver", Scale::Sm, false},        NameRule{"smversionnum", Scale::Sm, false},
    NameRule{"smarch", Scale::Sm, false},       NameRule{"cudadevicecapability", Scale::Sm, false},
    NameRule{"devicecapability", Scale::Sm, true}, NameRule{"computecapability", Scale::Sm, true},
    NameRule{"capability", Scale::Sm, true},    NameRule{"arch", Scale::Sm, true},
    NameRule{"cc", Scale::Sm, true},            NameRule{"versionnum", Scale::Sm, true},
    NameRule{"archversion", Scale::Sm, true},   NameRule{"gpuarch", Scale::Sm, true},
    NameRule{"devicearch", Scale::Sm, true},    NameRule{"major", Scale::Major, true},
    NameRule{"ccmajor", Scale::Major, false},   NameRule{"smmajor", Scale::Major, false},
    NameRule{"majorcc", Scale::Major, false},   NameRule{"computecapabilitymajor", Scale::Major, false},
    NameRule{"majorcapability", Scale::Major, false}, NameRule{"capabilitymajor", Scale::Major, false},
    NameRule{"archmajor", Scale::Major, false}, NameRule{"devicemajor", Scale::Major, true},
    NameRule{"capmajor", Scale::Major, false},  NameRule{"minor", Scale::Minor, true},
    NameRule{"ccminor", Scale::Minor, false},   NameRule{"smminor", Scale::Minor, false},
    NameRule{"minorcc", Scale::Minor, false},   NameRule{"computecapabilityminor", Scale::Minor, false},
    NameRule{"minorcapability", Scale::Minor, false}, NameRule{"capabilityminor", Scale::Minor, false},
    NameRule{"archminor", Scale::Minor, false}, NameRule{"deviceminor", Scale::Minor, true},
    NameRule{"capminor", Scale::Minor, false},
    // The toolkit, which conditions also carry (`CUDA_VERSION >= 12090 && cc_major >= 10`);
    // CUDA headers are missing, so the macro is an undeclared name here.
    NameRule{"cudaversion", Scale::Cuda, false}, NameRule{"cudartversion", Scale::Cuda, false},
    NameRule{"runtimeversion", Scale::Cuda, true}, NameRule{"cudaruntimeversion", Scale::Cuda, false},
    NameRule{"cudaccvermajor", Scale::CudaMajor, false}, NameRule{"cudaccverminor", Scale::CudaMinor, false},
};

// Functions returning the capability of the current device.
constexpr std::array kCalls = {
    NameRule{"getsmversion", Scale::Sm, false},    NameRule{"smversion", Scale::Sm, false},
    NameRule{"getsmversionnum", Scale::Sm, false}, NameRule{"getsm", Scale::Sm, false},
    NameRule{"getsmarch", Scale::Sm, false},       NameRule{"currentsm", Scale::Sm, false},
    NameRule{"getcomputecapability", Scale::Sm, true}, NameRule{"computecapability", Scale::Sm, true},
    NameRule{"getdevicecapability", Scale::Sm, true},  NameRule{"getarch", Scale::Sm, true},
    NameRule{"getsmmajor", Scale::Major, false},   NameRule{"smmajor", Scale::Major, false},
    NameRule{"getcomputecapabilitymajor", Scale::Major, false},
    NameRule{"getsmminor", Scale::Minor, false},   NameRule{"smminor", Scale::Minor, false},
    NameRule{"getcomputecapabilityminor", Scale::Minor, false},
};

template <size_t N> SmTerm lookup(const std::array<NameRule, N> &rules, std::string_view name) {
  std::string key = normalize(name);
  for (const auto &r : rules)
    if (r.name == key) return SmTerm::of(linearOf(r.scale), r.loose);
  return SmTerm::none();
}

bool sameLinear(const Linear &a, const Linear &b) {
  for (int i = 0; i < kSymVars; ++i)
    if (a.coef[i] != b.coef[i]) return false;
  return a.constant == b.constant;
}

Linear combine(const Linear &a, const Linear &b, long sign) {
  Linear out = a;
  for (int i = 0; i < kSymVars; ++i) out.coef[i] += sign * b.coef[i];
  out.constant += sign * b.constant;
  return out;
}

Linear scaled(const Linear &a, long k) {
  Linear out = a;
  for (auto &c : out.coef) c *= k;
  out.constant *= k;
  return out;
}

/// A constant next to a loosely named variable must look like a value of
/// its scale, or the variable is probably something else.
bool plausibleFor(const Linear &var, long constant) {
  if (sameLinear(var, linearOf(Scale::Sm))) return constant >= 20 && constant < 300;
  if (sameLinear(var, linearOf(Scale::Major))) return constant >= 1 && constant < 20;
  if (sameLinear(var, linearOf(Scale::Minor))) return constant >= 0 && constant < 10;
  if (sameLinear(var, linearOf(Scale::Cuda))) return constant >= 9000 && constant < 30000;
  return true;
}

/// A loose side counts only against a plausible constant or a firm SM value.
bool looseSideHolds(const SmTerm &side, const SmTerm &other) {
  bool variable = side.value.readsCapability() || side.value.readsCuda();
  if (!side.loose || !variable) return true;
  if (other.isConstant()) return plausibleFor(side.value, other.value.constant);
  return (other.value.readsCapability() || other.value.readsCuda()) && !other.loose;
}

} // namespace

SmTerm classifyVariableName(std::string_view name) { return lookup(kVariables, name); }
SmTerm classifyCallName(std::string_view name) { return lookup(kCalls, name); }

bool identifierHintsSm(std::string_view identifier, std::string_view after) {
  std::string key = normalize(identifier);
  if (key.find("computecapability") != std::string::npos || key.find("smversion") != std::string::npos)
    return true;
  SmTerm t = classifyCallName(identifier);
  if (t.kind == SmTerm::Kind::None) t = classifyVariableName(identifier);
  if (!t.readsSm()) return false; // nothing, or only the CUDA toolkit
  auto follows = [&](std::string_view op) { return after.substr(0, op.size()) == op; };
  bool comparisonFollows = follows("==") || follows("!=") || (follows("<") && !follows("<<")) || (follows(">") && !follows(">>"));
  // major/minor are loose too, but ICHECK_EQ(major, 10) has no operator.
  bool needsOperator = t.loose && key != "major" && key != "minor";
  return !needsOperator || comparisonFollows;
}

std::optional<CmpOp> cmpOpOf(std::string_view s) {
  if (s == "<") return CmpOp::Lt;
  if (s == "<=") return CmpOp::Le;
  if (s == ">") return CmpOp::Gt;
  if (s == ">=") return CmpOp::Ge;
  if (s == "==") return CmpOp::Eq;
  if (s == "!=") return CmpOp::Ne;
  return std::nullopt;
}

SmTerm arithmetic(char op, const SmTerm &a, const SmTerm &b) {
  bool reads = a.firmlyReadsSm() || b.firmlyReadsSm();
  if (a.kind != SmTerm::Kind::Value || b.kind != SmTerm::Kind::Value) return reads ? SmTerm::opaque() : SmTerm::none();
  bool loose = a.loose || b.loose;
  const Linear &x = a.value, &y = b.value;
  switch (op) {
  case '+': return SmTerm::of(combine(x, y, 1), loose);
  case '-': return SmTerm::of(combine(x, y, -1), loose);
  case '*':
    if (x.isConstant()) return SmTerm::of(scaled(y, x.constant), loose);
    if (y.isConstant()) return SmTerm::of(scaled(x, y.constant), loose);
    break;
  case '/':
    if (!y.isConstant() || y.constant == 0) break;
    if (x.isConstant()) return SmTerm::constant(x.constant / y.constant);
    // sm / 10 is the major: minor < 10 (TRT-LLM's `getSMVersion() / 10`).
    if (y.constant == 10 && (sameLinear(x, linearOf(Scale::Sm)) || sameLinear(x, scaled(linearOf(Scale::Major), 10))))
      return SmTerm::of(linearOf(Scale::Major), loose);
    break;
  case '%':
    if (!y.isConstant() || y.constant == 0) break;
    if (x.isConstant()) return SmTerm::constant(x.constant % y.constant);
    if (y.constant == 10 && sameLinear(x, linearOf(Scale::Sm))) return SmTerm::of(linearOf(Scale::Minor), loose);
    break;
  default: break;
  }
  return reads ? SmTerm::opaque() : SmTerm::none();
}

Translated leaf(const std::string &text, bool readsSm) {
  if (readsSm) return {Condition::unknown(text), true};
  return {Condition::opaque(OpaqueKind::Config, text), false};
}

Translated compareTerms(const SmTerm &l, CmpOp op, const SmTerm &r, const std::string &text) {
  if (l.kind == SmTerm::Kind::Opaque || r.kind == SmTerm::Kind::Opaque) return leaf(text, true);
  if (l.kind == SmTerm::Kind::Value && r.kind == SmTerm::Kind::Value) {
    if (!looseSideHolds(l, r) || !looseSideHolds(r, l)) return leaf(text, false);
    bool reads = l.readsSm() || r.readsSm();
    return {Condition::compare({l.value}, op, {r.value}, text), reads};
  }
  // One side reads the SM, the other is an expression of something else.
  const SmTerm &sm = l.readsSm() ? l : r;
  if (!sm.readsSm() || sm.loose) return leaf(text, false);
  return leaf(text, true);
}

Translated truthOf(const SmTerm &t, const std::string &text) {
  if (t.kind == SmTerm::Kind::Value && t.value.isConstant())
    return {t.value.constant != 0 ? Condition::truth() : Condition::falsity(), false};
  if (t.kind == SmTerm::Kind::Value && !t.loose) return compareTerms(t, CmpOp::Ne, SmTerm::constant(0), text);
  return leaf(text, t.kind == SmTerm::Kind::Opaque);
}

Translated both(const Translated &a, const Translated &b) { return {a.cond && b.cond, a.readsSm || b.readsSm}; }
Translated either(const Translated &a, const Translated &b) { return {a.cond || b.cond, a.readsSm || b.readsSm}; }
Translated negation(const Translated &a) { return {!a.cond, a.readsSm}; }

} // namespace archscope::cuda::detail
