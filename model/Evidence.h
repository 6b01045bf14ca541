//===--- Evidence.h - where a fact comes from ---------------------------===//
// SPDX-License-Identifier: Apache-2.0
#pragma once
#include <string>

namespace archscope {

/// One link of an evidence chain: a source location, the layer it belongs to
/// (python, cuda, build, binary, model), the verbatim snippet and a short note
/// on what it means for the cell ("true on sm_120", "selected").
struct Evidence {
  std::string path;
  int line = 0;
  int col = 0;
  std::string layer;
  std::string snippet;
  std::string note;
};

} // namespace archscope
