//===--- Value.h - abstract values of the Python interpreter ------------===//
// SPDX-License-Identifier: Apache-2.0
//
// The interpreter evaluates dispatch code symbolically: the device capability
// and the CUDA version are symbolic integers (Linear), the selected backend
// and the quantization flag are symbolic strings, and everything that cannot
// be decided becomes Unknown carrying its source text (later an opaque atom).
//===----------------------------------------------------------------------===//
#pragma once
#include "matchers/python/ModuleIndex.h"
#include "model/Condition.h"

#include <map>
#include <memory>
#include <string>
#include <vector>

namespace archscope::py {

struct ClassRef {
  Module *mod = nullptr;
  TSNode def{};
  bool valid() const { return mod != nullptr; }
};

struct FuncRef {
  Module *mod = nullptr;
  TSNode def{};   ///< function_definition
  ClassRef owner; ///< set for methods
  bool isStatic = false;
  bool isClassMethod = false;
  bool isProperty = false; ///< @property: reading the attribute calls it
};

/// A JIT-built module as its builder describes it (FlashInfer's
/// `gen_jit_spec(name, sources, extra_cuda_cflags=...)`, SGLang's
/// `load_jit(name, cuda_files=[...])`): what the linker follows instead of
/// an export name. Paths are as far as the code spells them literally
/// (`FLASHINFER_CSRC_DIR / "fused_moe/x.cu"` gives "fused_moe/x.cu"): the
/// linker matches them as path suffixes.
struct JitSpec {
  std::string name;                 ///< the module name when literal
  std::vector<std::string> sources; ///< literal path (suffixes)
  std::vector<std::string> flags;   ///< the -D/-U flags written literally
  /// The flag list's items not known literally (their source text), and
  /// "..." when the list is joined with something unknown: macros the module
  /// may define beyond `flags`.
  std::vector<std::string> unsureFlags;
  /// Relative paths its builder reads through attributes
  /// (`ArtifactPath.TRTLLM_GEN_BMM`): where its prebuilt cubins install.
  std::vector<std::string> artifacts;
};

struct Value {
  enum class Kind {
    Unknown,    ///< not decidable; `text` is the source expression
    Bool,       ///< a Condition (constants included)
    Int, Str, None,
    Tuple,      ///< tuples, lists and sets
    Sym,        ///< symbolic integer (capability or CUDA version)
    CudaStr,    ///< torch.version.cuda and its string transforms
    Func, Partial, Wrapper, Class, Instance,
    Module,     ///< a module of one of the trees
    External,   ///< a dotted name outside the trees (torch.cuda.x)
    EnumMember, ///< `text` is the normalized value, `name` the member
    Backend,    ///< the selected backend (symbolic)
    Quant,      ///< the quantization flag (symbolic)
    Choice,     ///< `a if cond else b` of non-boolean values: items[0] if cond, else items[1]
    JitModule,  ///< a JIT module spec or the module it builds (`jit` says what it compiles)
  } kind = Kind::Unknown;

  Condition cond = Condition::unknown("");
  long i = 0;
  std::string text; ///< Str value, Unknown/External text, EnumMember value
  std::string name; ///< EnumMember member name, Module name
  Linear lin;
  bool symIsString = false; ///< f"{major * 10 + minor}"
  std::vector<Value> items;
  /// Tuple: item i is there only when present[i] holds (a filtered
  /// comprehension); empty means every item is there.
  std::vector<Condition> present;
  /// Tuple: more items may follow the known ones (a spread over files on
  /// disk, a list plus something unknown): membership and len() are not
  /// decided by the known items alone.
  bool open = false;
  FuncRef func;
  ClassRef cls;
  std::shared_ptr<std::map<std::string, Value>> bound; ///< Partial keyword arguments
  std::shared_ptr<Value> self;                         ///< bound method receiver
  /// JitModule, and a function read off one: the module built under each
  /// condition (one entry, `true`, unless branches build different ones:
  /// FlashInfer's get_cutlass_fused_moe_module picks its spec per GPU).
  std::vector<std::pair<Condition, std::shared_ptr<const JitSpec>>> jit;

  static Value unknown(std::string text) { Value v; v.text = std::move(text); return v; }
  static Value boolean(Condition c) { Value v; v.kind = Kind::Bool; v.cond = std::move(c); return v; }
  static Value integer(long x) { Value v; v.kind = Kind::Int; v.i = x; return v; }
  static Value string(std::string s) { Value v; v.kind = Kind::Str; v.text = std::move(s); return v; }
  static Value none() { Value v; v.kind = Kind::None; return v; }
  static Value sym(Linear l) { Value v; v.kind = Kind::Sym; v.lin = l; return v; }
  static Value tuple(std::vector<Value> items) { Value v; v.kind = Kind::Tuple; v.items = std::move(items); return v; }
  static Value external(std::string dotted) { Value v; v.kind = Kind::External; v.text = std::move(dotted); return v; }

  bool is(Kind k) const { return kind == k; }
};

} // namespace archscope::py
