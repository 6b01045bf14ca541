//===--- MatrixBuilder.cpp - decide each cell from the facts ------------===//
// SPDX-License-Identifier: Apache-2.0
//
// A cell's verdict, in order of precedence:
//   rejected    a guard that raises/asserts is definitely taken, or every
//               device check of the backend's kernels is false;
//   crash-risk  the kernel's own allow-list excludes the target but nothing
//               enforces it before the kernel is called;
//   unknown     no dispatch site for the backend was found, or its kernels
//               are in a package no given tree holds (and no family is known);
//   supported   otherwise, with the lower layers named as not yet read.
// Opaque atoms of kind package/env/plugin split a cell: the main verdict
// assumes packages installed, environment variables unset and no plugin
// registered; each flip that changes the verdict is a conditional verdict.
//===----------------------------------------------------------------------===//
#include "model/MatrixBuilder.h"

#include <algorithm>
#include <atomic>
#include <climits>
#include <functional>
#include <future>
#include <regex>
#include <set>
#include <thread>
#include <unordered_map>

namespace archscope {
namespace {

using Kind = GuardFact::Kind;

const char *kLowerLayersNote =
    "the C++/CUDA and build layers were not read for this cell (no compiled kernel entry was linked); "
    "archscope lint and guards read them";

struct Decision {
  Verdict verdict = Verdict::Unknown;
  std::string reason;
  std::string lacking;
  std::vector<Evidence> evidence;
};

/// Whether an opaque atom's text talks about the hardware itself. An SM
/// number inside a class name (`Sm100BlockScaledGemmKernel.can_implement`)
/// and a model's architecture (`_hf_arch(config)`) do not.
bool atomNamesHardware(const std::string &raw) {
  // A source location in the atom ("try at .../blackwell_sm12x/moe_dispatch.py:343
  // succeeds") names where the code is, not the hardware it tests.
  static const std::regex location(R"([\w./-]+\.py:\d+)");
  const std::string text = std::regex_replace(raw, location, "");
  static const std::regex re(R"((blackwell|hopper|ampere|capability|(^|\W|_)sm_?\d+([^a-z0-9]|$)|arch\b))",
                             std::regex::icase);
  static const std::regex modelArch(R"((^|[^a-z])(hf|model)_arch)", std::regex::icase);
  return std::regex_search(text, re) && !std::regex_search(text, modelArch);
}

bool appliesTo(const GuardFact &g, const std::string &backend) {
  return g.backend.empty() || g.backend == backend;
}

Evidence annotated(Evidence e, std::string note) {
  if (e.note.empty()) e.note = std::move(note);
  return e;
}

std::string truthOn(Tri v, ComputeCapability t) {
  return std::string(v == Tri::True ? "true" : v == Tri::False ? "false" : "unknown") + " on " + t.name();
}

/// A fact's evidence: its enclosing hardware branches (outermost first, each
/// with its truth on the target), then the site with `note`.
void append(std::vector<Evidence> &out, const GuardFact &g, const std::string &note, const EvalEnv &e) {
  for (const auto &[cond, ev] : g.context) out.push_back(annotated(ev, truthOn(cond.eval(e), e.gpu)));
  for (size_t i = 0; i < g.chain.size(); ++i) out.push_back(i == 0 ? annotated(g.chain[i], note) : g.chain[i]);
}

class CellDecider {
public:
  CellDecider(const Facts &facts, const MatrixRequest &req, const LowerLayers *lower)
      : facts_(facts), req_(req), lower_(lower) {
    for (const auto &g : facts.guards) readsHardware_.push_back(g.cond.readsHardware()); // once, not per cell
    for (const auto &g : facts.guards)
      if (!g.backend.empty() && (g.kind == Kind::Calls || g.kind == Kind::Reject)) ownFacts_[g.backend].push_back(&g);
  }

  bool readsHardware(const GuardFact &g) const { return readsHardware_[&g - facts_.guards.data()]; }

  /// `g.cond.evalEveryValue(e)`, once per fact and environment: cells and
  /// their conditional verdicts ask the same questions many times.
  Tri reachedOnEveryPath(const GuardFact &g, const EvalEnv &e) const {
    Tri direct = g.cond.eval(e);
    if (direct != Tri::Unknown || !readsHardware(g)) return direct; // about the GPU, or not asked
    std::string key = std::to_string(&g - facts_.guards.data()) + '|' + e.gpu.name() + '|' + e.backend.value_or("");
    for (const auto &[atom, value] : e.assume) key += '|' + atom + (value ? "=1" : "=0");
    auto [it, fresh] = everyValue_.try_emplace(key, Tri::Unknown);
    if (fresh) it->second = g.cond.evalEveryValue(e);
    return it->second;
  }

  /// Raises on the backend's own way to its kernels (the walk of its entries)
  /// that depend on the GPU and, none on every path alone, lie on every path
  /// of that walk that reaches a compiled kernel: the JIT build that has no
  /// architecture for this GPU, reached from each of a runner's branches.
  /// Paths that raise before any kernel (a configuration refused) do not
  /// count, nor do the engine's stages (a weight-layout helper kernel called
  /// there). Their sites, or nullopt.
  /// The memo key of a question about backend b's raises in stages [from, to).
  static std::string stageKey(const std::string &b, const EvalEnv &e, int from, int to) {
    std::string key = b + '|' + e.gpu.name() + '|' + std::to_string(from) + '|' + std::to_string(to);
    for (const auto &[atom, value] : e.assume) key += '|' + atom + (value ? "=1" : "=0");
    return key;
  }

  std::optional<std::vector<const GuardFact *>> everyKernelPathRaises(const std::string &b, const EvalEnv &e,
                                                                      int from, int to) const {
    auto [it, fresh] = kernelPaths_.try_emplace(stageKey(b, e, from, to));
    if (fresh) it->second = kernelPathRaises(b, e, from, to);
    return it->second;
  }

  std::optional<std::vector<const GuardFact *>> kernelPathRaises(const std::string &b, const EvalEnv &e, int from,
                                                                 int to) const {
    Condition toKernel = Condition::falsity(), byGpu = Condition::falsity(), anyRaise = Condition::falsity();
    std::vector<const GuardFact *> sites;
    auto own = ownFacts_.find(b);
    if (own == ownFacts_.end()) return std::nullopt;
    for (const GuardFact *g : own->second) {
      if (g->cond.eval(e) == Tri::False) continue;
      if (g->kind == Kind::Calls) toKernel = toKernel || g->cond;
      if (g->kind != Kind::Reject || g->order < from || g->order >= to) continue;
      anyRaise = anyRaise || g->cond;
      if (!readsHardware(*g)) continue;
      byGpu = byGpu || g->cond;
      if (sites.size() < 4) sites.push_back(g);
    }
    if (sites.empty() || toKernel.isFalse()) return std::nullopt;
    // Every path that reaches a kernel raises on this GPU (asked first: it
    // fails for most backends); some path reaches one; and every path raises
    // or reaches one (none returns through kernels archscope cannot see, a
    // CuTe DSL runner's).
    if ((!toKernel || byGpu).evalEveryValue(e) != Tri::True || toKernel.evalSomeValue(e) != Tri::True ||
        (toKernel || anyRaise).evalEveryValue(e) != Tri::True)
      return std::nullopt;
    return sites;
  }

  /// A raise that reads the GPU, undecided on it alone, that is reached on
  /// every path unless a raise above it in its file is taken first: `if cfg:
  /// raise` before `if major != 9: raise`, whatever cfg is, one of the two
  /// is taken. The raises of other files (an engine's invariants, each with
  /// its own over-approximated reach) are not combined. The sites, or nullopt.
  std::optional<std::vector<const GuardFact *>> raisesTogether(const std::string &b, const EvalEnv &e,
                                                               int from, int to) const {
    auto [it, fresh] = together_.try_emplace(stageKey(b, e, from, to));
    if (fresh) it->second = jointRaises(b, e, from, to);
    return it->second;
  }

  std::optional<std::vector<const GuardFact *>> jointRaises(const std::string &b, const EvalEnv &e, int from,
                                                            int to) const {
    std::vector<const GuardFact *> live, undecided;
    for (const auto &g : facts_.guards) {
      if (g.kind != Kind::Reject || !appliesTo(g, b) || g.order < from || g.order >= to || g.chain.empty())
        continue;
      Tri here = g.cond.eval(e);
      if (here != Tri::False) live.push_back(&g);
      if (here == Tri::Unknown) undecided.push_back(&g);
    }
    for (const GuardFact *g : undecided) {
      // A raise a scope stage takes on the backend's name (a format's
      // "unsupported runner" fallthrough) combines only within that stage's
      // walk, and only for a backend its file has no branch for: one it
      // names (SGLang's `is_lora()` return) it may serve by another way
      // (LoRA replaces the forward that reaches the fallthrough). An entry
      // walk's facts all read the backend, through their reach.
      bool byGpu = readsHardware(*g);
      bool byName = g->cond.readsBackend() && g->order / kStageSpan < kEntryStage &&
                    !routedIn(b, g->chain[0].path);
      if (!byGpu && !byName) continue;
      std::vector<const GuardFact *> above;
      bool gpuFree = !byGpu;
      for (const GuardFact *h : live)
        if (h->chain[0].path == g->chain[0].path && h->chain[0].line < g->chain[0].line &&
            (byGpu || h->order / kStageSpan == g->order / kStageSpan)) {
          above.push_back(h);
          gpuFree = gpuFree && !readsHardware(*h);
        }
      if (above.empty() || everyValueOf(g, above, gpuFree, e) != Tri::True) continue;
      std::vector<const GuardFact *> sites(above.begin(),
                                           above.begin() + long(std::min<size_t>(above.size(), 3)));
      sites.insert(sites.begin(), g);
      return sites;
    }
    return std::nullopt;
  }

  /// Whether `g` or one of the raises `above` it holds for every value;
  /// asked once per backend and world where none of them reads the GPU, not
  /// once per target.
  Tri everyValueOf(const GuardFact *g, const std::vector<const GuardFact *> &above, bool gpuFree,
                   const EvalEnv &e) const {
    auto joint = [&] {
      Condition any = g->cond;
      for (const GuardFact *h : above) any = any || h->cond;
      return any.evalEveryValue(e);
    };
    if (!gpuFree) return joint();
    std::string key = "joint|" + std::to_string(g - facts_.guards.data()) + '|' + e.backend.value_or("");
    for (const auto &[atom, value] : e.assume) key += '|' + atom + (value ? "=1" : "=0");
    auto [it, fresh] = everyValue_.try_emplace(key, Tri::Unknown);
    if (fresh) it->second = joint();
    return it->second;
  }

  /// Whether a dispatch branch for `b` lies in the file `path`.
  bool routedIn(const std::string &b, const std::string &path) const {
    if (routedFiles_.empty())
      for (const auto &g : facts_.guards)
        if (g.kind == Kind::Route && !g.chain.empty()) routedFiles_.insert(g.backend + '|' + g.chain[0].path);
    return routedFiles_.count(b + '|' + path) > 0;
  }

  EvalEnv env(const std::string &backend, const QuantSpec &q, ComputeCapability t,
              const std::map<std::string, bool> &assume) const {
    EvalEnv e;
    e.gpu = t;
    e.cudaMajor = req_.cudaMajor;
    e.cudaMinor = req_.cudaMinor;
    e.backend = backend;
    e.quantFlags = q.flags;
    e.assume = assume;
    return e;
  }

  /// Rejects with order in [from, to) are considered: stages before an auto
  /// selection see "auto", the stages after it see the picked backend.
  Decision decide(const std::string &b, const QuantSpec &q, ComputeCapability t,
                  const std::map<std::string, bool> &assume, int from = 0, int to = INT_MAX) const {
    auto e = env(b, q, t, assume);
    Decision d;
    for (const auto &g : facts_.guards) {
      if (g.kind != Kind::Reject || !appliesTo(g, b) || g.order < from || g.order >= to) continue;
      if (reachedOnEveryPath(g, e) == Tri::True) { // reached on every path (`c or not c`)
        d.verdict = Verdict::Rejected;
        d.reason = g.tree.empty() ? "the engine raises before dispatch"
                                  : "raises in " + g.tree + " before the kernel";
        append(d.evidence, g, "taken on " + t.name() + ": raises" + defaultModesNote(g.cond, e), e);
        return d;
      }
    }
    if (auto sites = raisesTogether(b, e, from, to)) {
      d.verdict = Verdict::Rejected;
      d.reason = "raises on " + t.name() + " on every path, at one check or another";
      append(d.evidence, *sites->front(),
             "raises on " + t.name() + " unless a check above it raises first" +
                 defaultModesNote(sites->front()->cond, e),
             e);
      for (size_t i = 1; i < sites->size(); ++i)
        append(d.evidence, *(*sites)[i], "raises first where it holds", e);
      return d;
    }
    if (auto sites = everyKernelPathRaises(b, e, from, to)) {
      d.verdict = Verdict::Rejected;
      d.reason = "every path that reaches its kernels raises on " + t.name() + " first";
      for (auto *g : *sites) append(d.evidence, *g, "raises on " + t.name() + " on the way to the kernel", e);
      return d;
    }
    std::vector<const GuardFact *> supports, declared, routes;
    for (const auto &g : facts_.guards) {
      // An allow-list nothing enforces matters where some configuration reaches it.
      if (g.kind == Kind::Declared && appliesTo(g, b) && g.reach.evalSomeValue(e) == Tri::True)
        declared.push_back(&g);
      if (g.backend != b) continue;
      if (g.kind == Kind::Support) supports.push_back(&g);
      if (g.kind == Kind::Route) routes.push_back(&g);
    }
    if (!supports.empty()) {
      Tri any = Tri::False;
      for (auto *s : supports) any = triOr(any, s->cond.eval(e));
      if (any == Tri::False) {
        d.verdict = Verdict::Rejected;
        d.reason = "every support check of its kernels (device, quantization scheme) is false on " + t.name();
        for (auto *s : supports) append(d.evidence, *s, "false on " + t.name(), e);
        return d;
      }
    }
    for (auto *g : declared) {
      if (g->cond.eval(e) == Tri::False) {
        d.verdict = Verdict::CrashRisk;
        d.lacking = "allow-list";
        d.reason = "the kernel's allow-list excludes " + t.name() + " but nothing enforces it";
        for (auto *r : routes) append(d.evidence, *r, "dispatch branch taken", e);
        append(d.evidence, *g, "excludes " + t.name() + "; declared, never checked", e);
        dedupe(d.evidence);
        return d;
      }
    }
    // A raise guarded by the hardware that stays undecided because of an
    // atom that itself names the hardware (`get_platform().is_blackwell`)
    // leaves the cell undecided: saying supported would be a guess.
    for (const auto &g : facts_.guards) {
      if (g.kind != Kind::Reject || !appliesTo(g, b) || !readsHardware(g) ||
          g.cond.eval(e) != Tri::Unknown)
        continue;
      for (const auto &a : g.cond.opaqueAtoms()) {
        if (!atomNamesHardware(a.text)) continue;
        d.verdict = Verdict::Unknown;
        d.reason = "a guard on " + t.name() + " depends on " + a.text + ", which archscope cannot resolve";
        append(d.evidence, g, "undecided: " + a.text, e);
        return d;
      }
    }
    if (supports.empty() && routes.empty() && !facts_.dispatched.count(b)) {
      d.verdict = Verdict::Unknown;
      d.reason = kNoDispatchSite;
      return d;
    }
    if (madeForAnotherPlatform(b, t, routes, e, d)) return d;
    d.verdict = Verdict::Supported;
    d.reason = "dispatch admits it on " + t.name();
    // The raises this GPU may hit are what a reader of "supported" needs most:
    // they keep their place when a backend has many dispatch branches.
    // The backend's own first (its kernel's build), then the engine's stages.
    std::vector<const GuardFact *> mayRaise;
    for (bool own : {true, false})
      for (const auto &g : facts_.guards)
        if (g.kind == Kind::Reject && appliesTo(g, b) && (g.backend == b) == own && g.cond.eval(e) == Tri::Unknown &&
            readsHardware(g) && mayRaise.size() < 4)
          mayRaise.push_back(&g);
    size_t shownRoutes = mayRaise.empty() ? routes.size() : std::min<size_t>(routes.size(), 6);
    for (size_t i = 0; i < shownRoutes; ++i) append(d.evidence, *routes[i], "dispatch branch", e);
    for (auto *s : supports)
      if (s->cond.eval(e) != Tri::False) append(d.evidence, *s, "device check holds on " + t.name(), e);
    for (auto *g : declared) append(d.evidence, *g, "allow-list includes " + t.name(), e);
    for (auto *g : mayRaise) append(d.evidence, *g, "may raise: depends on " + describeUnknowns(g->cond, e), e);
    if (!lowerLayersLack(b, t, e, d) && !cubinsLack(b, t, e, d) && !isaLacks(b, t, e, d) &&
        !cubinsUnseen(b, t, e, d))
      libraryUnseen(b, t, e, d);
    dedupe(d.evidence);
    return d;
  }

  /// A backend written for another platform's accelerators (ForeignPlatform):
  /// the dispatch admits it, but its kernels are not NVIDIA's. Selecting it
  /// fails in that platform's code (a missing package), not in a kernel launch.
  bool madeForAnotherPlatform(const std::string &b, ComputeCapability t,
                              const std::vector<const GuardFact *> &routes, const EvalEnv &e,
                              Decision &d) const {
    auto p = std::find_if(facts_.foreignPlatforms.begin(), facts_.foreignPlatforms.end(),
                          [&](const ForeignPlatform &f) { return f.backend == b; });
    if (p == facts_.foreignPlatforms.end()) return false;
    d.verdict = Verdict::Rejected;
    d.reason = "a backend for " + p->platform + ", not NVIDIA GPUs: the dispatch admits it on " + t.name() +
               ", but its code imports " + p->module;
    for (size_t i = 0; i < std::min<size_t>(routes.size(), 3); ++i)
      append(d.evidence, *routes[i], "dispatch branch", e);
    d.evidence.push_back(p->where);
    return true;
  }

  /// " (with X at its default)" for the modes of other backend choices the
  /// cell assumes in `c` (OpaqueKind::Mode): what a reader must know of the
  /// configuration the raise was judged in.
  static std::string defaultModesNote(const Condition &c, const EvalEnv &e) {
    std::string modes;
    for (const auto &a : c.opaqueAtoms())
      if (a.opaqueKind == OpaqueKind::Mode && e.assume.count(a.text) && modes.find(a.text) == std::string::npos)
        modes += (modes.empty() ? "" : ", ") + a.text + " false";
    return modes.empty() ? "" : " (with " + modes + ": the default)";
  }

  static void dedupe(std::vector<Evidence> &evidence) {
    std::set<std::string> seen;
    std::vector<Evidence> out;
    for (auto &e : evidence)
      if (e.path.empty() || seen.insert(e.path + ":" + std::to_string(e.line)).second) out.push_back(e);
    evidence = std::move(out);
  }

  /// The assumed atoms (isAssumedFact) the facts about `b` depend on: up to
  /// four of the installation (package, env, plugin), then every mode of
  /// another backend choice; the cell flips the first kMaxFlips.
  std::vector<Atom> splitAtoms(const std::string &b) const {
    std::vector<Atom> out, modes;
    for (const auto &g : facts_.guards) {
      if (!(g.backend == b || (g.kind == Kind::Reject && g.backend.empty()))) continue;
      for (auto &a : g.cond.opaqueAtoms()) {
        if (!isAssumedFact(a.opaqueKind)) continue;
        auto &into = a.opaqueKind == OpaqueKind::Mode ? modes : out;
        auto same = [&](const Atom &x) { return x.text == a.text; };
        bool seen = std::any_of(into.begin(), into.end(), same);
        if (!seen && (&into == &modes || out.size() < kMaxFlips)) into.push_back(a);
      }
    }
    out.insert(out.end(), modes.begin(), modes.end());
    return out;
  }
  static constexpr size_t kMaxFlips = 4;

  static std::map<std::string, bool> defaultWorld(const std::vector<Atom> &atoms) {
    std::map<std::string, bool> w;
    for (const auto &a : atoms) w[a.text] = assumedValue(a.opaqueKind);
    return w;
  }

  static std::string describeUnknowns(const Condition &c, const EvalEnv &e) {
    std::string s;
    int n = 0;
    for (const auto &a : c.opaqueAtoms()) {
      if (e.assume.count(a.text)) continue;
      if (++n > 3) { s += ", ..."; break; }
      s += (s.empty() ? "" : ", ") + a.text;
    }
    for (const auto &why : c.unknownReasons()) { // what was not interpreted, and why
      if (++n > 3) { s += ", ..."; break; }
      s += (s.empty() ? "" : ", ") + why;
    }
    return s.empty() ? "the backend choice" : s;
  }

  Cell cell(const std::string &b, const QuantSpec &q, ComputeCapability t, int from = 0) const {
    auto atoms = splitAtoms(b);
    auto world = defaultWorld(atoms);
    auto d = decide(b, q, t, world, from);
    Cell c{b, q.name, t, d.verdict, d.reason, "", d.lacking, d.evidence, {}};
    for (size_t i = 0; i < std::min(atoms.size(), kMaxFlips); ++i) {
      const Atom &a = atoms[i];
      auto flipped = world;
      flipped[a.text] = !flipped[a.text];
      auto alt = decide(b, q, t, flipped, from);
      if (alt.verdict != d.verdict)
        c.conditions.push_back({"if " + a.text + " is " + (flipped[a.text] ? "true" : "false"), alt.verdict});
    }
    return c;
  }

  /// The engine's own choice in one world of the package/env atoms: the
  /// first selection definitely taken, then that backend's verdict.
  Cell pickIn(const std::vector<const GuardFact *> &selects, const QuantSpec &q, ComputeCapability t,
              const std::map<std::string, bool> &world) const {
    Cell c{"auto", q.name, t, Verdict::Unknown, "", "", "", {}, {}};
    auto e = env("auto", q, t, world);
    for (auto *s : selects) {
      Tri v = s->cond.eval(e);
      if (v == Tri::False) continue;
      if (v == Tri::Unknown) { // depends on the model or configuration
        if (c.conditions.size() < 3)
          c.conditions.push_back({"picks " + s->backend + " first if " + describeUnknowns(s->cond, e),
                                  cell(s->backend, q, t, s->order).verdict});
        continue;
      }
      auto before = decide("auto", q, t, world, 0, s->order);
      if (before.verdict == Verdict::Rejected) {
        c.verdict = Verdict::Rejected;
        c.reason = before.reason;
        c.evidence = before.evidence;
        return c;
      }
      auto picked = cell(s->backend, q, t, s->order);
      c.picked = s->backend;
      c.verdict = picked.verdict;
      c.lacking = picked.lacking;
      c.reason = "auto picks " + s->backend + "; " + picked.reason;
      append(c.evidence, *s, "selected on " + t.name(), e);
      for (auto &ev : picked.evidence) c.evidence.push_back(ev);
      return c;
    }
    // Nothing picked: the backend stays "auto" through every stage.
    auto stays = decide("auto", q, t, world);
    if (stays.verdict == Verdict::Rejected) {
      c.verdict = Verdict::Rejected;
      c.reason = "nothing is selected on " + t.name() + "; " + stays.reason;
      c.evidence = stays.evidence;
      return c;
    }
    c.reason = selects.empty() ? "no automatic selection was found"
                               : "no automatic selection is definite on " + t.name();
    return c;
  }

  Cell autoCell(const QuantSpec &q, ComputeCapability t) const {
    std::vector<const GuardFact *> selects;
    for (const auto &g : facts_.guards)
      if (g.kind == Kind::Select) selects.push_back(&g);
    // The installation is assumed as for the other rows (isAssumedFact);
    // each flip that changes the pick is listed.
    std::vector<Atom> atoms;
    for (auto *s : selects)
      for (auto &a : s->cond.opaqueAtoms())
        if (isAssumedFact(a.opaqueKind) && atoms.size() < 6 &&
            std::none_of(atoms.begin(), atoms.end(), [&](const Atom &x) { return x.text == a.text; }))
          atoms.push_back(a);
    auto world = defaultWorld(atoms);
    Cell c = pickIn(selects, q, t, world);
    for (size_t i = 0; i < std::min(atoms.size(), kMaxFlips); ++i) {
      const Atom &a = atoms[i];
      auto flipped = world;
      flipped[a.text] = !flipped[a.text];
      Cell alt = pickIn(selects, q, t, flipped);
      if (alt.picked != c.picked || alt.verdict != c.verdict)
        c.conditions.push_back({"if " + a.text + " is " + (flipped[a.text] ? "true" : "false") +
                                    (alt.picked.empty() ? "" : ": picks " + alt.picked),
                                alt.verdict});
    }
    return c;
  }

private:
  /// The kernel entries `b` calls on `t`, and what the lower layers say of
  /// each: the first entry no target builds for `t` makes the cell a crash.
  bool lowerLayersLack(const std::string &b, ComputeCapability t, const EvalEnv &e, Decision &d) const {
    bool linked = false;
    for (const auto &g : facts_.guards) {
      if (g.kind != Kind::Calls || !appliesTo(g, b) || g.cond.eval(e) == Tri::False) continue;
      const EntryCoverage *cov = coverage(g.entry, t);
      if (!cov) {
        append(d.evidence, g, "calls " + g.entry + ": not linked to compiled code", e);
        continue;
      }
      linked = true;
      if (cov->checksPass == Tri::False) {
        d.verdict = Verdict::Rejected;
        d.reason = g.entry + " refuses " + t.name() + " with a C++ runtime check (a clean error)";
        append(d.evidence, g, "calls " + g.entry, e);
        for (const auto &ev : cov->chain) d.evidence.push_back(ev);
        d.evidence.push_back(cov->refusal);
        return true;
      }
      if (cov->built == Tri::False && cov->wholeModule && g.cond.eval(e) != Tri::True) {
        d.evidence.push_back({"", 0, 0, "model", "",
                              "may call " + g.entry + " (not certain here): " + cov->why});
        continue;
      }
      if (cov->built != Tri::False) {
        append(d.evidence, g, "calls " + g.entry, e);
        for (const auto &ev : cov->chain) d.evidence.push_back(ev);
        if (cov->built == Tri::Unknown) d.evidence.push_back({"", 0, 0, "model", "", "unknown below: " + cov->why});
        continue;
      }
      d.verdict = Verdict::CrashRisk;
      d.lacking = cov->layer;
      d.reason = g.entry + " has no kernel for " + t.name() + ": " + cov->why;
      append(d.evidence, g, "calls " + g.entry, e);
      for (const auto &ev : cov->chain) d.evidence.push_back(ev);
      return true;
    }
    if (!linked) d.evidence.push_back({"", 0, 0, "model", "", kLowerLayersNote});
    return false;
  }

  /// The backend's installed pool of prebuilt cubins (profile
  /// backend.cubins, else the pool the JIT builder of an entry it alone
  /// calls names): none named for a target that runs on the GPU is a crash
  /// at the cubin lookup (TRT-LLM-gen's sm_100f pool on an sm_120).
  bool cubinsLack(const std::string &b, ComputeCapability t, const EvalEnv &e, Decision &d) const {
    if (!lower_) return false;
    const EntryCoverage *pool = poolOn(lower_->cubinPools, b, t);
    for (const GuardFact *g : ownCallsOf(b, e))
      if (!pool) pool = poolOn(lower_->entryCubinPools, g->entry, t);
    if (!pool) return false;
    const EntryCoverage &c = *pool;
    for (const auto &ev : c.chain) d.evidence.push_back(ev);
    if (c.built != Tri::False) return false;
    d.verdict = Verdict::CrashRisk;
    d.lacking = "binary";
    d.reason = c.why;
    return true;
  }

  /// Whether `entry` is one of `b`'s own kernels in environment `e`: called
  /// by at most half of the rows. A kernel most backends call (a quantize
  /// step) is not what sets one backend's family; one two variants share
  /// (flashinfer_trtllm and its routed form) is.
  bool ownEntry(const std::string &entry, const std::string &b, const EvalEnv &e) const {
    size_t callers = 0;
    for (const auto &row : req_.backends) {
      EvalEnv o = e;
      o.backend = row;
      callers += std::any_of(facts_.guards.begin(), facts_.guards.end(), [&](const GuardFact &g) {
        return g.kind == Kind::Calls && g.entry == entry && appliesTo(g, row) && g.cond.eval(o) != Tri::False;
      });
    }
    return 2 * callers <= std::max<size_t>(2, req_.backends.size());
  }

  /// The kernel calls of `b`'s paths in `e` whose entry is its own (ownEntry).
  std::vector<const GuardFact *> ownCallsOf(const std::string &b, const EvalEnv &e) const {
    std::vector<const GuardFact *> out;
    std::map<std::string, bool> own; // entry -> ownEntry, asked once
    for (const auto &g : facts_.guards) {
      if (g.kind != Kind::Calls || !appliesTo(g, b) || g.cond.eval(e) == Tri::False) continue;
      auto [it, fresh] = own.try_emplace(g.entry, false);
      if (fresh) it->second = ownEntry(g.entry, b, e);
      if (it->second) out.push_back(&g);
    }
    return out;
  }

  static const EntryCoverage *poolOn(const std::map<std::string, std::map<ComputeCapability, EntryCoverage>> &layer,
                                     const std::string &owner, ComputeCapability t) {
    auto it = layer.find(owner);
    if (it == layer.end()) return nullptr;
    auto jt = it->second.find(t);
    return jt == it->second.end() ? nullptr : &jt->second;
  }

  /// The kernel families `b` runs on `t`: read off the sources of the
  /// entries it alone calls there (with the line that shows each), else the
  /// profile's `families`; `fromCode` says which.
  std::vector<FamilyMark> familiesOf(const std::string &b, const EvalEnv &e, bool &fromCode) const {
    std::vector<FamilyMark> out;
    auto addAll = [&](const std::vector<FamilyMark> &marks) {
      for (const auto &m : marks)
        if (std::none_of(out.begin(), out.end(), [&](const FamilyMark &x) { return x.family == m.family; }))
          out.push_back(m);
    };
    fromCode = true;
    if (lower_) {
      for (const GuardFact *g : ownCallsOf(b, e))
        if (auto it = lower_->entryFamilies.find(g->entry); it != lower_->entryFamilies.end()) addAll(it->second);
      if (auto it = lower_->backendFamilies.find(b); it != lower_->backendFamilies.end()) addAll(it->second);
    }
    if (!out.empty()) return out;
    fromCode = false;
    if (auto it = req_.families.find(b); it != req_.families.end())
      for (const auto &name : it->second) out.push_back({name, {}});
    return out;
  }

  /// The backend's kernel families against the arch table: where none of
  /// them has its ISA, the dispatch reaches code that cannot run there
  /// (TRT-LLM-gen's tcgen05 cubins on an sm_120). validate confirms it with
  /// ptxas.
  bool isaLacks(const std::string &b, ComputeCapability t, const EvalEnv &e, Decision &d) const {
    bool fromCode = false;
    auto families = familiesOf(b, e, fromCode);
    if (families.empty() || !req_.kernelFamilies || !req_.table) return false;
    std::string names, features;
    for (const auto &mark : families) {
      const KernelFamily *f = req_.kernelFamilies->find(mark.family);
      if (!f || req_.kernelFamilies->availableOn(*f, *req_.table, t)) return false;
      names += (names.empty() ? "" : " or ") + mark.family;
      features += (features.empty() ? "" : ", ") + (f->feature.empty() ? mark.family : f->feature);
    }
    d.verdict = Verdict::CrashRisk;
    d.lacking = "isa";
    d.reason = b + " runs " + names + " kernels (" + (fromCode ? "read off its linked sources" : "profile, not read off the code") +
               "), and " + t.name() + " has no " + features + " (arch table); archscope validate checks it with ptxas";
    if (fromCode)
      for (const auto &mark : families) d.evidence.push_back(mark.where);
    d.evidence.push_back({"", 0, 0, "isa", "", "kernel family " + names + ": needs " + features + ", absent on " +
                                                   t.name()});
    return true;
  }

  /// An entry whose builder names prebuilt cubins that no given tree holds,
  /// with no kernel of its own and no kernel family known: which GPUs they
  /// load on is not in the code, so the cell is unknown (TRT-LLM-gen without
  /// the flashinfer-cubin wheel).
  bool cubinsUnseen(const std::string &b, ComputeCapability t, const EvalEnv &e, Decision &d) const {
    bool fromCode = false;
    if (!lower_ || poolOn(lower_->cubinPools, b, t) || !familiesOf(b, e, fromCode).empty()) return false;
    for (const GuardFact *g : ownCallsOf(b, e)) {
      if (g->cubinArtifacts.empty()) continue;
      if (const EntryCoverage *c = coverage(g->entry, t); c && c->built == Tri::True) continue; // a kernel of its own
      if (poolOn(lower_->entryCubinPools, g->entry, t)) return false;
      const std::string &artifact = g->cubinArtifacts.front();
      d.verdict = Verdict::Unknown;
      d.reason = g->entry + " loads prebuilt cubins (" + artifact +
                 ") that no given tree holds, and no kernel family is read off its code: whether one loads on " +
                 t.name() + " is unknown (give the flashinfer-cubin wheel with --with)";
      d.evidence.push_back({"", 0, 0, "binary", "", "prebuilt cubins " + artifact + ": not installed in the given trees"});
      return true;
    }
    return false;
  }

  /// A backend whose path calls into a kernel library (a package rows are
  /// named after) that no given tree holds (SGLang's flashinfer_trtllm
  /// audited without FlashInfer), with no kernel of its own linked and no
  /// kernel family known: what runs on the GPU is in code archscope was not
  /// given, so the cell is unknown, not "dispatch admits it". The call shown
  /// is the one fewest rows make (the MoE kernel, not a quantize step).
  bool libraryUnseen(const std::string &b, ComputeCapability t, const EvalEnv &e, Decision &d) const {
    bool fromCode = false;
    if (!familiesOf(b, e, fromCode).empty()) return false;
    const GuardFact *call = nullptr;
    size_t fewest = SIZE_MAX;
    for (const auto &g : facts_.guards) {
      // The backend's own: its entry walk's, or reached through a branch on
      // the backend choice (not a helper's walk that any row could be on).
      bool own = g.backend == b || (g.backend.empty() && g.cond.readsBackend());
      if (!own || g.cond.eval(e) == Tri::False) continue;
      if (g.kind == Kind::Calls && coverage(g.entry, t)) return false; // a kernel of its own is read
      if (g.kind != Kind::Library) continue;
      if (size_t n = libraryCallers(g.entry); n < fewest) call = &g, fewest = n;
    }
    if (!call) return false;
    std::string package = call->entry.substr(0, call->entry.find('.'));
    d.verdict = Verdict::Unknown;
    d.reason = b + " calls " + call->entry + ", and `" + package +
               "` is in none of the given trees: whether its kernels run on " + t.name() +
               " is unknown (give " + package + " with --with: a checkout, or site-packages)";
    append(d.evidence, *call, "", e);
    return true;
  }

  /// How many rows call the library function `entry`.
  size_t libraryCallers(const std::string &entry) const {
    std::set<std::string> rows;
    for (const auto &g : facts_.guards)
      if (g.kind == Kind::Library && g.entry == entry) rows.insert(g.backend);
    return rows.size();
  }

  const EntryCoverage *coverage(const std::string &entry, ComputeCapability t) const {
    if (!lower_ || !lower_->read) return nullptr;
    auto it = lower_->entries.find(entry);
    if (it == lower_->entries.end()) return nullptr;
    auto jt = it->second.find(t);
    return jt == it->second.end() ? nullptr : &jt->second;
  }

  const Facts &facts_;
  const MatrixRequest &req_;
  const LowerLayers *lower_;
  std::vector<bool> readsHardware_; ///< per fact of facts_.guards
  mutable std::unordered_map<std::string, Tri> everyValue_;
  mutable std::set<std::string> routedFiles_; ///< "backend|path" of each dispatch branch, built on first use
  /// Per backend, the kernel calls and raises of its own walk (its entries).
  std::map<std::string, std::vector<const GuardFact *>> ownFacts_;
  mutable std::unordered_map<std::string, std::optional<std::vector<const GuardFact *>>> kernelPaths_;
  mutable std::unordered_map<std::string, std::optional<std::vector<const GuardFact *>>> together_;
};

std::string describeLowerLayers(const LowerLayers *lower) {
  if (!lower || !lower->read) return "the C++/CUDA layer was not read";
  size_t linked = 0;
  for (const auto &[entry, byGpu] : lower->entries)
    if (std::any_of(byGpu.begin(), byGpu.end(), [](const auto &kv) { return kv.second.built != Tri::Unknown; }))
      ++linked;
  return std::to_string(lower->entries.size()) + " compiled kernel entr" + (lower->entries.size() == 1 ? "y" : "ies") +
         " called, " + std::to_string(linked) + " linked to compiled code (CUDA kernels per target, or shipped cubins)";
}

} // namespace

/// task(0) .. task(n - 1) on the machine's cores; the first exception a
/// task throws reaches the caller.
static void onAllCores(size_t n, const std::function<void(size_t)> &task) {
  std::atomic<size_t> next{0};
  auto work = [&] {
    for (size_t i; (i = next++) < n;) task(i);
  };
  size_t helpers = std::min<size_t>(n, std::max(1u, std::thread::hardware_concurrency())) - 1;
  std::vector<std::future<void>> running;
  for (size_t k = 0; k < helpers; ++k) running.push_back(std::async(std::launch::async, work));
  work();
  for (auto &r : running) r.get();
}

Matrix buildMatrix(const Facts &facts, const MatrixRequest &req, const LowerLayers *lower) {
  Matrix m;
  m.targets = req.targets;
  m.predicates = facts.predicates;
  m.warnings = facts.warnings;
  m.toolkit = std::to_string(req.cudaMajor) + "." + std::to_string(req.cudaMinor);
  bool hasSelect = std::any_of(facts.guards.begin(), facts.guards.end(),
                               [](const GuardFact &g) { return g.kind == Kind::Select; });
  if (req.autoRow && hasSelect) m.backends.push_back("auto");
  for (const auto &b : req.backends) m.backends.push_back(b);
  // Guards in execution order: the first raise a run would hit is the evidence.
  Facts ordered = facts;
  std::stable_sort(ordered.guards.begin(), ordered.guards.end(),
                   [](const GuardFact &a, const GuardFact &b) { return a.order < b.order; });
  m.lowerLayers = describeLowerLayers(lower);
  for (const auto &q : req.quants) {
    m.quants.push_back(q.name);
    // One decider per target, its memo the target's own: targets are decided
    // on all cores, each cell the same as one decider for all would make.
    std::vector<std::vector<Cell>> byTarget(req.targets.size());
    onAllCores(req.targets.size(), [&](size_t i) {
      CellDecider decider(ordered, req, lower);
      for (const auto &b : m.backends)
        byTarget[i].push_back(b == "auto" ? decider.autoCell(q, req.targets[i]) : decider.cell(b, q, req.targets[i]));
    });
    for (size_t b = 0; b < m.backends.size(); ++b)
      for (auto &cells : byTarget) m.cells.push_back(std::move(cells[b]));
  }
  return m;
}

} // namespace archscope
