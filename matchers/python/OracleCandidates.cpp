//===--- OracleCandidates.cpp - the order an oracle walks its candidates -===//
// SPDX-License-Identifier: Apache-2.0
//===----------------------------------------------------------------------===//
#include "matchers/python/OracleCandidates.h"

#include "matchers/python/FactSink.h"

#include <optional>

namespace archscope::py {
namespace {

/// A place in the walked order: a backend, and the GPUs where it is there
/// (a reorder merged over the targets leaves `humming if c else marlin`).
struct Slot {
  std::string backend;
  Condition when;
  size_t place = 0; ///< 1-based, in the list as walked
};

/// The slots of one list item; false when an item is not a backend.
bool slotsOf(const Value &v, const Condition &when, std::vector<Slot> &out) {
  if (v.is(Value::Kind::EnumMember)) {
    out.push_back({v.text, when, 0});
    return true;
  }
  if (v.is(Value::Kind::Choice) && v.items.size() == 2)
    return slotsOf(v.items[0], when && v.cond, out) && slotsOf(v.items[1], when && !v.cond, out);
  return false;
}

/// The order a list value gives; nullopt when it is not a list of backends.
std::optional<std::vector<Slot>> orderOf(const Value &list) {
  if (!list.is(Value::Kind::Tuple) || list.open)
    return std::nullopt;
  std::vector<Slot> slots;
  for (size_t i = 0; i < list.items.size(); ++i) { // a filtered item is there where it passed
    size_t before = slots.size();
    if (!slotsOf(list.items[i], i < list.present.size() ? list.present[i] : Condition::truth(), slots))
      return std::nullopt;
    for (size_t k = before; k < slots.size(); ++k)
      slots[k].place = i + 1;
  }
  return slots;
}

/// `L = [b for b in L if ...]`: drops entries, keeps the order of the rest.
bool filtersInPlace(const ParsedModule &pm, TSNode right, const std::string &name) {
  if (type(right) != "list_comprehension")
    return false;
  for (TSNode c : namedChildren(right))
    if (type(c) == "for_in_clause")
      return pm.text(field(c, "right")) == name;
  return false;
}

/// The assignments to `name` in `body`, in source order.
void assignmentsTo(const ParsedModule &pm, TSNode node, const std::string &name, std::vector<TSNode> &out) {
  if (type(node) == "function_definition" || type(node) == "class_definition")
    return; // a nested scope's `name` is another variable
  if (type(node) == "assignment" && pm.text(field(node, "left")) == name)
    out.push_back(node);
  for (TSNode c : namedChildren(node))
    assignmentsTo(pm, c, name, out);
}

/// Whether `stmt` runs whenever the function body does (no branch or loop
/// between them).
bool directlyIn(TSNode node, TSNode fn) {
  for (node = ts_node_parent(node); !isNull(node) && node.id != fn.id; node = ts_node_parent(node))
    if (type(node) != "expression_statement" && type(node) != "block")
      return false;
  return true;
}

uint32_t lineOf(TSNode node) { return ts_node_start_point(node).row + 1; }

} // namespace

void readCandidates(ModuleIndex &index, Interpreter &in, const QuantProfile &quant,
                    const std::map<std::string, Condition> &support, Facts &facts) {
  for (const auto &spec : quant.scope) {
    Module *m = scopeModule(index, spec.file);
    if (!m)
      continue;
    const ParsedModule &pm = *m->parsed;
    auto pos = pm.source().find(quant.candidates + " =");
    if (pos == std::string::npos)
      continue;
    TSNode first = ts_node_descendant_for_byte_range(pm.root(), uint32_t(pos), uint32_t(pos + 1));
    while (!isNull(first) && type(first) != "assignment")
      first = ts_node_parent(first);
    if (isNull(first))
      continue;
    std::vector<TSNode> writes{first};
    TSNode fn = enclosingFunction(first);
    if (!isNull(fn)) {
      writes.clear();
      assignmentsTo(pm, field(fn, "body"), quant.candidates, writes);
    }
    Frame f{m, {}, 0, nullptr};
    std::optional<std::vector<Slot>> order;
    TSNode decided = first; // the write the order comes from
    std::string opaque;     // why the order is not known
    for (TSNode w : writes) {
      TSNode right = field(w, "right");
      if (order && filtersInPlace(pm, right, quant.candidates))
        continue;
      if (order && !isNull(fn) && !directlyIn(w, fn)) { // `if c: L = ...`: the walk depends on c
        opaque = "candidate list rewritten under a condition at line " + std::to_string(lineOf(w));
        order.reset();
        break;
      }
      Value v = in.evalExpr(right, f);
      f.locals[quant.candidates] = v;
      order = orderOf(v);
      decided = w;
      if (!order) {
        opaque = "candidate order set by `" + std::string(pm.text(right)) + "`, not interpreted";
        break;
      }
    }
    if (!order) { // every entry is a candidate, none is known to come first
      order.emplace();
      Value list = in.evalExpr(field(first, "right"), f);
      for (const auto &item : list.items)
        if (item.is(Value::Kind::EnumMember))
          order->push_back({item.text, Condition::unknown(opaque), order->size() + 1});
    }
    int n = 0;
    for (const auto &slot : *order) {
      GuardFact g;
      g.kind = GuardFact::Kind::Select;
      g.backend = slot.backend;
      auto found = support.find(slot.backend);
      g.cond = (found != support.end() ? found->second : Condition::unknown("no device check")) && slot.when;
      g.order = 500000 + n++;
      std::string note = "candidate " + std::to_string(slot.place) + ": " + slot.backend;
      if (decided.id != first.id)
        note += " (order of this rewrite)";
      g.chain.push_back(evidenceAt(*m, decided, note));
      facts.guards.push_back(g);
    }
    return;
  }
}

} // namespace archscope::py
