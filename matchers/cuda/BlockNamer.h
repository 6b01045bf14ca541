//===--- BlockNamer.h - which definition a `{` opens ----------------------===//
// SPDX-License-Identifier: Apache-2.0
//
// The guard pass says which named definitions a directive sits in (struct
// enable_sm120_only, a kernel), so a rule can tell code that a build
// compiles from a template nothing instantiates. Read off the token stream
// alone: the name after `struct`/`class`/`union`, or the name before the
// last parenthesised list ahead of the `{` (a function). Loops, namespaces,
// lambdas and initializers open unnamed blocks.
//===----------------------------------------------------------------------===//
#pragma once
#include <clang/Lex/Token.h>

#include <string>
#include <vector>

namespace archscope::cuda {

class BlockNamer {
public:
  /// Feeds one compiled token; for a `{`, returns the name of the definition
  /// it opens ("" for an unnamed block).
  std::string feed(const clang::Token &tok);

private:
  void reset();

  std::vector<std::string> parens_; ///< per open `(`: the name before it
  std::string record_, function_;   ///< candidates for the next `{`: the later one wins
  unsigned recordAt_ = 0, functionAt_ = 0, seen_ = 0;
  unsigned unnamedAt_ = 0;  ///< `namespace`, `enum`, `=`: a `{` after it and no later name is unnamed
  std::string last_;        ///< the previous token's identifier, "" when it was none
  bool recordNext_ = false; ///< after struct/class/union: the next identifier names it
};

} // namespace archscope::cuda
