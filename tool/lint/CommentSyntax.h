//===--- CommentSyntax.h - where comments start, per source language ------===//
// SPDX-License-Identifier: Apache-2.0
#pragma once
#include <string>

namespace archscope::lint {

/// `#` for Python and CMake, `//` and `/* */` for C, C++ and CUDA.
enum class CommentStyle { None, Hash, Slash };

CommentStyle commentStyleOf(const std::string &path);

/// Byte offset where a comment starts in `line`, skipping string and character
/// literals; std::string::npos when the line has none.
size_t commentStart(const std::string &line, CommentStyle style);

} // namespace archscope::lint
