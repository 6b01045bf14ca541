//===--- RuntimeCheckStubs.h - declarations a missing header would make --===//
// SPDX-License-Identifier: Apache-2.0
//
// Internal to the runtime-check extractor. With torch, tvm-ffi or CUTLASS
// headers missing, a signature such as
//   void FusedMoeLauncher::init_common(std::unique_ptr<tensorrt_llm::kernels::Args>&& a)
//   void run(tvm::ffi::Optional<TensorView> x)
// names an undeclared namespace or template, and clang then reads the whole
// definition as a variable and drops its body, with the checks inside. This
// Sema source answers such failed lookups in the main file by declaring the
// name, shaped by what the file writes after it: `X::` a namespace, `X<` a
// class template taking anything, `X name` a complete empty struct. Names
// followed by `(` stay undeclared: a missing TORCH_CHECK must stay a call.
// Nothing is declared for a name some header really declares: lookups that
// succeed never reach this source.
//===----------------------------------------------------------------------===//
#pragma once
#include <clang/Sema/ExternalSemaSource.h>
#include <llvm/ADT/StringRef.h>

namespace clang {
class SourceManager;
}

namespace archscope::cuda::detail {

llvm::IntrusiveRefCntPtr<clang::ExternalSemaSource> makeMissingDeclarations(const clang::SourceManager &sm,
                                                                           llvm::StringRef mainFileText);

} // namespace archscope::cuda::detail
