//===--- Progress.h - one status line on a terminal, nothing elsewhere ---===//
// SPDX-License-Identifier: Apache-2.0
//
// Long commands (diff, docs) say what they are doing while a user waits, on
// one line of standard error that each step overwrites. When standard error
// is a file, a pipe or a CI log, or with --quiet, nothing is printed: logs
// keep only the results.
//===----------------------------------------------------------------------===//
#pragma once
#include <iostream>
#include <string>
#include <unistd.h>

namespace archscope {

class Progress {
public:
  explicit Progress(bool quiet) : on_(!quiet && isatty(STDERR_FILENO)) {}
  Progress(const Progress &) = delete;
  Progress &operator=(const Progress &) = delete;
  ~Progress() { clear(); }

  bool enabled() const { return on_; }

  /// Replaces the status line with "archscope: <what>".
  void step(const std::string &what) {
    if (!on_) return;
    std::cerr << "\r\033[K" << "archscope: " << what << std::flush;
    shown_ = true;
  }

  /// Erases the status line so that the next output starts clean.
  void clear() {
    if (!on_ || !shown_) return;
    std::cerr << "\r\033[K" << std::flush;
    shown_ = false;
  }

private:
  bool on_;
  bool shown_ = false;
};

} // namespace archscope
