//===--- OracleReader.cpp - a vLLM-style oracle's support and candidates -===//
// SPDX-License-Identifier: Apache-2.0
//===----------------------------------------------------------------------===//
#include "matchers/python/OracleReader.h"

#include "matchers/python/AnsweringLines.h"
#include "matchers/python/CapabilityTerms.h"
#include "matchers/python/OracleCandidates.h"
#include "matchers/python/FactSink.h"
#include "matchers/python/OracleQuantKeys.h"
#include "matchers/source/TextSearch.h"

#include <algorithm>
#include <map>
#include <optional>

namespace archscope::py {
namespace {

/// A scheme check's lines that answer for the format: the first naming its
/// keys (`(kNvfp4Static, kNvfp4Dynamic),`), and the next reading the GPU.
void schemeAnswerLines(const Module &m, TSNode def, const OracleCall &call, std::vector<Evidence> &chain) {
  std::vector<std::string> names;
  for (const auto &[param, key] : call.keys)
    if (!key.name.empty())
      names.push_back(key.name.substr(key.name.rfind('.') + 1));
  size_t keysAt = 0;
  Evidence keys = lineOf(
      m, def, 1,
      [&](std::string_view line) {
        return std::all_of(names.begin(), names.end(),
                           [&](const std::string &n) { return containsText(line, n); });
      },
      "takes this format's keys", &keysAt);
  if (names.empty() || keys.path.empty())
    return;
  Evidence gpu = lineOf(m, def, keysAt, mentionsHardware, "gives the answer");
  if (!gpu.path.empty() && gpu.line == keys.line)
    keys.note = "gives the answer";
  chain.push_back(keys);
  if (!gpu.path.empty() && gpu.line != keys.line)
    chain.push_back(gpu);
}

/// The scheme check passed by some value of the facts the keys leave open
/// (an activation key the caller reads from its config): the disjunction
/// over every value of its opaque atoms; unknown beyond four.
Condition someKeysPass(const Condition &scheme) {
  std::vector<Atom> open = scheme.opaqueAtoms();
  if (open.size() > 4)
    return Condition::unknown("too many open keys");
  Condition any = Condition::falsity();
  for (unsigned bits = 0; bits < (1u << open.size()); ++bits) {
    std::map<std::string, bool> assume;
    for (size_t i = 0; i < open.size(); ++i)
      assume[open[i].text] = bits >> i & 1;
    any = any || scheme.assuming(assume);
  }
  return any;
}

/// ANDs a kernel class's quantization-scheme check, asked with the format's
/// keys, into its support; one the keys leave undecided changes nothing.
void andSchemeCheck(Interpreter &in, const Value &klass, const std::string &schemeCheck,
                    const OracleCall &call, Condition &support, std::vector<Evidence> &chain) {
  Value check = in.memberOf(klass.cls, schemeCheck);
  if (!check.is(Value::Kind::Func))
    return;
  Condition scheme = someKeysPass(
      in.toCond(in.walkFunction(check.func, {}, call.keys, Condition::truth(), nullptr, 1, &klass)));
  if (scheme.isTrue() || !decidedOnEveryGpu(scheme))
    return;
  support = support && scheme;
  chain.push_back(call.where);
  chain.push_back(evidenceAt(*check.func.mod, check.func.def, in.className(klass.cls) + "." + schemeCheck));
  schemeAnswerLines(*check.func.mod, check.func.def, call, chain);
}

} // namespace

void readOracle(ModuleIndex &index, Interpreter &in, const QuantProfile &quant,
                const std::vector<std::string> &backends, Facts &facts) {
  if (quant.kernelMap.empty())
    return;
  Module *home = nullptr;
  Value kernelMap;
  for (const auto &spec : quant.scope) {
    home = scopeModule(index, spec.file);
    if (home && home->symbols.count(quant.kernelMap)) {
      kernelMap = in.resolveName(home, quant.kernelMap);
      break;
    }
  }
  if (!kernelMap.is(Value::Kind::Func)) {
    facts.warnings.push_back("oracle kernel map '" + quant.kernelMap + "' not found");
    return;
  }
  Frame frame{home, {}, 0, nullptr};
  std::map<std::string, Condition> support; // filled with insert_or_assign
  // The format's keys, from the oracle's caller, for the scheme checks.
  std::string schemeCheck = discoverSchemeCheck(index);
  std::optional<OracleCall> call;
  if (!schemeCheck.empty() && !quant.scope.empty() && !quant.scope[0].qualname.empty())
    call = findOracleCall(index, in, quant.scope[0].qualname);
  if (!in.backendClasses().empty()) {
    for (const auto &b : backends) {
      Value member;
      member.kind = Value::Kind::EnumMember;
      member.text = b;
      Value kernels = in.callValue(kernelMap, {member}, {}, frame, quant.kernelMap);
      if (kernels.is(Value::Kind::Class))
        kernels = Value::tuple({kernels}); // `return FlashInferExperts`
      if (!kernels.is(Value::Kind::Tuple))
        continue;
      for (const auto &k : kernels.items) {
        if (!k.is(Value::Kind::Class))
          continue;
        Value check = in.memberOf(k.cls, quant.deviceCheck);
        if (!check.is(Value::Kind::Func))
          continue;
        Value klass = k;
        Value r = in.walkFunction(check.func, {}, {}, Condition::truth(), nullptr, 1, &klass);
        Condition c = in.toCond(r);
        GuardFact g;
        g.kind = GuardFact::Kind::Support;
        g.backend = b;
        g.chain.push_back(
            evidenceAt(*check.func.mod, check.func.def, in.className(k.cls) + "." + quant.deviceCheck));
        if (Evidence body = answeringLine(*check.func.mod, check.func.def); !body.path.empty())
          g.chain.push_back(body); // the line of the check that answers
        if (call)
          andSchemeCheck(in, k, schemeCheck, *call, c, g.chain);
        g.cond = c;
        facts.guards.push_back(g);
        facts.dispatched.insert(b);
        auto it = support.find(b);
        if (it == support.end())
          support.emplace(b, c);
        else
          it->second = it->second || c;
      }
    }
  }
  readCandidates(index, in, quant, support, facts);
}

} // namespace archscope::py
