//===--- FactSink.h - walk results -> guard facts with evidence ---------===//
// SPDX-License-Identifier: Apache-2.0
#pragma once
#include "matchers/python/Interpreter.h"
#include "model/Facts.h"

#include <map>
#include <set>
#include <string>

namespace archscope::py {

/// Evidence for a node: path relative to its tree (dependencies prefixed by
/// their folder name), line, column and the first line of its text.
Evidence evidenceAt(const Module &m, TSNode node, const std::string &note = {});

class FactSink : public FlowSink {
public:
  FactSink(Interpreter &in, Facts &facts, std::vector<std::string> backends)
      : in_(in), facts_(facts), backends_(std::move(backends)) {}

  /// The stage (scope index) that walks report under; facts are ordered by it.
  void setStage(int stage) { stage_ = stage; }
  void setBackend(std::string backend) { backend_ = std::move(backend); }
  /// Appends the facts another sink took from a walk of its own that would
  /// have come next in this one (same stage numbering, its sequence after
  /// this one's), less those this sink already holds.
  void mergeLater(Facts &&later);
  /// Appends the facts another sink took from a stage that follows this
  /// one's, walked apart, as if this sink had walked it next: those it
  /// already holds drop out, the orders continue its sequence.
  void mergeFollowing(Facts &&later);
  const std::vector<std::string> &backends() const { return backends_; }

  void raised(const Condition &reach, Module &m, TSNode site) override;
  void selected(const Condition &reach, const std::string &backend, Module &m, TSNode site) override;
  void branched(const Condition &cond, const Condition &reach, Module &m, TSNode site) override;
  void entered(const FuncRef &fn, const Condition &reach) override;
  void libraryCalled(const Condition &reach, const std::string &dotted, Module &m, TSNode site) override;
  void kernelCalled(const Condition &reach, const std::string &entry, Module &m, TSNode site,
                    const JitSpec *spec, bool familiesOnly) override;

private:
  bool seen(const std::string &key) { return !keys_.insert(key).second; }
  /// A call of `entry` (a kernel entry or a library function) on this backend's way.
  GuardFact callAt(GuardFact::Kind kind, const Condition &reach, const std::string &entry, Module &m,
                   Evidence ev) const;
  /// The enclosing branch conditions that read the hardware, as context.
  std::vector<std::pair<Condition, Evidence>> context() const;
  /// Facts are numbered in walk (= execution) order within a stage, so a
  /// raise reached through a call orders at its call site.
  int nextOrder() { return stage_ * kStageSpan + ++seq_; }
  Interpreter &in_;
  Facts &facts_;
  std::vector<std::string> backends_;
  int stage_ = 0;
  std::string backend_;
  std::set<std::string> keys_;
  std::map<std::string, size_t> rejectIndex_; ///< one fact per raise site, conditions or-ed
  int seq_ = 0;
};

} // namespace archscope::py
