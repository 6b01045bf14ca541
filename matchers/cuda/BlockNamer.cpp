//===--- BlockNamer.cpp - which definition a `{` opens --------------------===//
// SPDX-License-Identifier: Apache-2.0
#include "matchers/cuda/BlockNamer.h"

#include <clang/Basic/IdentifierTable.h>
#include <llvm/ADT/StringSet.h>

#include <algorithm>

namespace archscope::cuda {
namespace {

/// Names before a `(` that are not a function being defined.
bool notAFunction(const std::string &name) {
  // clang-format off
  static const llvm::StringSet<> words{
      "if", "for", "while", "switch", "catch", "return", "sizeof", "decltype", "alignof", "alignas",
      "noexcept", "defined", "__attribute__", "__launch_bounds__", "__declspec", "static_assert",
      "__cluster_dims__", "asm", "__asm__", "operator"};
  // clang-format on
  return name.empty() || words.contains(name);
}

} // namespace

void BlockNamer::reset() {
  record_.clear();
  function_.clear();
  recordAt_ = functionAt_ = unnamedAt_ = 0;
  recordNext_ = false;
}

std::string BlockNamer::feed(const clang::Token &tok) {
  ++seen_;
  llvm::StringRef name; // copied only where kept
  if (const auto *info = tok.getIdentifierInfo()) name = info->getName();
  std::string opened;
  if (tok.isOneOf(clang::tok::kw_struct, clang::tok::kw_class, clang::tok::kw_union)) {
    recordNext_ = true;
  } else if (tok.isOneOf(clang::tok::kw_namespace, clang::tok::kw_enum, clang::tok::equal)) {
    unnamedAt_ = seen_;
  } else if (recordNext_ && tok.is(clang::tok::identifier)) {
    record_ = name.str();
    recordAt_ = seen_;
    recordNext_ = false;
  } else if (tok.is(clang::tok::l_paren)) {
    parens_.push_back(last_);
  } else if (tok.is(clang::tok::r_paren) && !parens_.empty()) {
    // Only a list at the outermost level names a function: `f(T x)`, not `decltype(g(x))`.
    if (parens_.size() == 1 && !notAFunction(parens_.back())) {
      function_ = parens_.back();
      functionAt_ = seen_;
    }
    parens_.pop_back();
  } else if (tok.is(clang::tok::l_brace)) {
    unsigned named = std::max(recordAt_, functionAt_);
    if (parens_.empty() && named > unnamedAt_) opened = functionAt_ > recordAt_ ? function_ : record_;
    reset();
  } else if (tok.isOneOf(clang::tok::semi, clang::tok::r_brace)) {
    reset();
    parens_.clear();
  }
  if (tok.isOneOf(clang::tok::identifier, clang::tok::kw_operator)) last_.assign(name.data(), name.size());
  else last_.clear();
  return opened;
}

} // namespace archscope::cuda
