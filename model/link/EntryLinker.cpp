//===--- EntryLinker.cpp - Python kernel entries -> C++ -> per-GPU kernels -===//
// SPDX-License-Identifier: Apache-2.0
#include "model/link/EntryLinker.h"

#include "matchers/cuda/RuntimeChecks.h"

#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

namespace fs = std::filesystem;

namespace archscope::link {
namespace {

constexpr uintmax_t kMaxFileBytes = 4u << 20;

struct SourceFile {
  std::string path;
  std::string text;
};

bool isCppSource(const fs::path &p) {
  static const std::set<std::string> exts = {".cc", ".cpp", ".cxx", ".cu", ".cuh"};
  return exts.count(p.extension().string()) > 0;
}

/// The C++/CUDA sources of the trees, skipping vendored and hidden folders.
std::vector<SourceFile> readSources(const std::vector<std::string> &roots) {
  std::vector<SourceFile> out;
  for (const auto &root : roots) {
    std::error_code ec;
    for (auto it = fs::recursive_directory_iterator(root, fs::directory_options::skip_permission_denied, ec);
         it != fs::recursive_directory_iterator(); it.increment(ec)) {
      if (ec) break;
      std::string name = it->path().filename().string();
      if (it->is_directory(ec) && (name.starts_with(".") || name == "3rdparty" || name == "third_party" ||
                                   name == "build" || name == "node_modules")) {
        it.disable_recursion_pending();
        continue;
      }
      if (!it->is_regular_file(ec) || !isCppSource(it->path()) || it->file_size(ec) > kMaxFileBytes) continue;
      std::ifstream in(it->path(), std::ios::binary);
      std::stringstream ss;
      ss << in.rdbuf();
      out.push_back({it->path().string(), ss.str()});
    }
  }
  return out;
}

/// Whether `name(` at `pos` opens a definition: the parameter list is
/// followed (after qualifiers) by a body, not by `;` or `,`.
bool opensDefinition(const std::string &text, size_t pos) {
  size_t open = text.find('(', pos);
  if (open == std::string::npos) return false;
  int depth = 0;
  size_t i = open;
  for (; i < text.size(); ++i) {
    if (text[i] == '(') ++depth;
    else if (text[i] == ')' && --depth == 0) break;
  }
  for (++i; i < text.size(); ++i) {
    char c = text[i];
    if (c == '{') return true;
    if (c == ';' || c == ',' || c == ')' || c == '=') return false;
  }
  return false;
}

int lineOf(const std::string &text, size_t pos) {
  return 1 + int(std::count(text.begin(), text.begin() + long(pos), '\n'));
}

bool isIdentChar(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

/// (file, line) of each definition of the function `name`. A literal search
/// is enough here: the name comes from a registration, and the check that
/// a body follows tells definitions from declarations and calls.
std::vector<std::pair<const SourceFile *, int>> definitionsOf(const std::vector<SourceFile> &files,
                                                              const std::string &name) {
  std::vector<std::pair<const SourceFile *, int>> out;
  for (const auto &f : files)
    for (size_t p = f.text.find(name); p != std::string::npos; p = f.text.find(name, p + 1)) {
      size_t end = p + name.size();
      if ((p > 0 && isIdentChar(f.text[p - 1])) || end >= f.text.size() || isIdentChar(f.text[end])) continue;
      size_t q = f.text.find_first_not_of(" \t\r\n", end);
      if (q == std::string::npos || f.text[q] != '(' || !opensDefinition(f.text, q)) continue;
      out.emplace_back(&f, lineOf(f.text, p));
      break;
    }
  return out;
}

std::string shortName(std::string fn) {
  if (!fn.empty() && fn[0] == '&') fn.erase(0, 1);
  auto p = fn.rfind("::");
  return p == std::string::npos ? fn : fn.substr(p + 2);
}

/// Whether `path` lies in the folder `root` (an absolute, canonical path).
bool under(const std::string &path, const std::string &root) {
  std::error_code ec;
  return !root.empty() && fs::weakly_canonical(fs::absolute(path, ec), ec).string().rfind(root + "/", 0) == 0;
}

/// The registration of `torch.ops.NS.OP` that names a C++ function, from
/// the tree whose code calls it when that tree has one (a vendored copy
/// elsewhere registers the same name).
const cuda::OpRegistration *registrationOf(const std::vector<cuda::OpRegistration> &regs, const std::string &ns,
                                           const std::string &op, const std::string &callerRoot) {
  const cuda::OpRegistration *best = nullptr;
  int bestScore = -1;
  for (const auto &r : regs) {
    if (r.op != op || r.function.empty()) continue;
    // exact namespace first (a macro one, TORCH_EXTENSION_NAME, matches too), then the caller's tree
    int score = (r.ns == ns ? 2 : 0) + (under(r.where.path, callerRoot) ? 1 : 0);
    if (score > bestScore) best = &r, bestScore = score;
  }
  return best;
}

/// The directive that decides a kernel body on `target`: the nearest one
/// inside or just before the kernel that is not taken there.
const cuda::GuardDirective *decidingDirective(const cuda::GuardReport &r, const cuda::KernelSite &k,
                                              const std::string &target) {
  const cuda::GuardDirective *best = nullptr;
  for (const auto &d : r.directives) {
    auto it = d.byTarget.find(target);
    if (it == d.byTarget.end() || it->second != cuda::Branch::NotTaken) continue;
    if (!best || std::abs(d.line - k.line) < std::abs(best->line - k.line)) best = &d;
  }
  return best;
}

EntryCoverage coverageOn(ComputeCapability gpu, const std::vector<const cuda::GuardReport *> &reports,
                         const std::vector<Target> &targets) {
  EntryCoverage c;
  std::vector<const Target *> running;
  for (const auto &t : targets)
    if (t.runsOn(gpu)) running.push_back(&t);
  size_t kernels = 0;
  for (const auto *r : reports) kernels += r->kernels.size();
  if (running.empty()) { c.why = "the guard passes compile no target that runs on " + gpu.name(); return c; }
  for (const auto *r : reports)
    if (!r->errors.empty()) {
      c.why = r->path + " does not preprocess cleanly: " + r->errors.front();
      return c;
    }
  if (kernels == 0) {
    c.why = "no __global__ kernel in the defining file (its kernels come from headers, other files or prebuilt cubins)";
    return c;
  }
  for (const auto *r : reports)
    for (const auto &k : r->kernels)
      for (const auto *t : running)
        if (auto it = k.byTarget.find(t->name()); it != k.byTarget.end() && it->second == cuda::KernelBody::Code) {
          c.built = Tri::True;
          c.why = k.name + " has a body on " + t->name();
          return c;
        }
  c.built = Tri::False;
  c.layer = "cuda";
  std::string names;
  for (const auto *t : running) names += (names.empty() ? "" : ", ") + t->name();
  c.why = "every kernel of the defining file compiles empty or to a trap on " + names;
  for (const auto *r : reports)
    for (const auto &k : r->kernels)
      if (const auto *d = decidingDirective(*r, k, running.front()->name())) {
        c.chain.push_back({r->path, d->line, 1, "cuda", "#" + d->kind + " " + d->condition,
                           "not taken on " + running.front()->name() + ": " + k.name + " has no body"});
        return c;
      }
  return c;
}

/// The runtime checks of the registered function that must pass for it to
/// go on (TORCH_CHECK, ICHECK_EQ, `if (...) throw`), from its defining files.
std::vector<cuda::RuntimeCheck> entryAsserts(const std::vector<std::string> &defFiles, const std::string &fn) {
  std::vector<cuda::RuntimeCheck> out;
  for (const auto &path : defFiles)
    for (auto &c : cuda::extractRuntimeChecks(path, {}).checks) {
      std::string owner = c.function.substr(c.function.rfind(':') == std::string::npos ? 0 : c.function.rfind(':') + 1);
      // Only checks about the GPU: `TORCH_CHECK(false, ...)` in the #else of a
      // build macro (ENABLE_NVFP4_SM100) says what the build left out, which
      // the preprocessor here cannot know without the build's definitions.
      if (c.kind == cuda::RuntimeCheck::Kind::Assert && owner == fn && c.cond.readsHardware())
        out.push_back(std::move(c));
    }
  return out;
}

/// The first check that is false on `gpu`, if any.
void applyChecks(EntryCoverage &c, const std::vector<cuda::RuntimeCheck> &asserts, ComputeCapability gpu) {
  EvalEnv env;
  env.gpu = gpu;
  for (const auto &a : asserts)
    if (a.cond.eval(env) == Tri::False) {
      c.checksPass = Tri::False;
      c.refusal = a.where;
      c.refusal.note = "false on " + gpu.name() + ": the entry raises";
      return;
    }
}

/// The arch lists CMake gives the defining files: a GPU none of whose lists
/// runs there gets no kernel from the build, whatever the #if regions say.
void applyBuild(EntryCoverage &c, const std::vector<build::ArchSetReport> &reports,
                const std::vector<std::string> &defFiles, ComputeCapability gpu) {
  std::vector<const build::SourceArchs *> lists;
  for (const auto &r : reports)
    for (const auto &s : r.sources)
      for (const auto &f : defFiles) {
        std::error_code ec;
        if (fs::weakly_canonical(s.file, ec) == fs::weakly_canonical(f, ec)) lists.push_back(&s);
      }
  if (lists.empty()) return;
  std::string all;
  for (const auto *s : lists) {
    std::stringstream archs(s->archs);
    for (std::string a; std::getline(archs, a, ';');)
      if (auto t = Target::parse(a); t && t->runsOn(gpu)) {
        c.chain.push_back({reports.front().cmakeLists, s->line, 1, "build", "CUDA_ARCHS " + s->archs,
                           "compiled for " + a + ", which runs on " + gpu.name()});
        return;
      }
    all += (all.empty() ? "" : ", ") + (s->archs.empty() ? std::string("nothing") : s->archs);
  }
  const auto *first = lists.front();
  c.built = Tri::False;
  c.layer = "build";
  bool none = std::all_of(lists.begin(), lists.end(), [](const build::SourceArchs *s) { return s->archs.empty(); });
  c.why = fs::path(first->file).filename().string() + (none ? " is compiled for no arch" : " is compiled for " + all + " only") +
          ": nothing that runs on " + gpu.name();
  for (const auto &r : reports)
    for (const auto *s : lists)
      if (std::any_of(r.sources.begin(), r.sources.end(), [&](const build::SourceArchs &x) { return &x == s; }))
        c.chain.push_back({r.cmakeLists, s->line, 1, "build", "CUDA_ARCHS " + s->archs,
                           "no arch here runs on " + gpu.name()});
}

/// The shipped object that holds the namespace's ops: named like it, or in a
/// package folder named like it.
const binary::BinaryImage *imageOf(const std::vector<binary::BinaryImage> &images, const std::string &ns) {
  for (const auto &img : images) {
    fs::path p(img.path);
    std::string stem = p.filename().string().substr(0, p.filename().string().find('.'));
    if (img.hasDeviceCode() && (stem == ns || p.parent_path().filename() == ns)) return &img;
  }
  return nullptr;
}

/// The binary layer decides: a cubin that loads, or PTX that JIT-forwards.
void applyBinary(EntryCoverage &c, const binary::BinaryImage &img, ComputeCapability gpu) {
  Evidence ev{img.path, 0, 0, "binary", img.targetsText(), ""};
  if (img.runsOn(gpu)) {
    c.built = Tri::True;
    ev.note = "a kernel image loads on " + gpu.name();
  } else {
    c.built = Tri::False;
    c.layer = "binary";
    c.why = "no cubin in " + fs::path(img.path).filename().string() + " loads on " + gpu.name() +
            " and no PTX JIT-forwards there";
    ev.note = "nothing for " + gpu.name();
  }
  c.chain.push_back(ev);
}

} // namespace

LowerLayers linkEntries(const Facts &facts, const LinkRequest &req, const GuardRunner &guards,
                        const BinaryReader &binaries, const ArchSetReader &archSetReader) {
  LowerLayers out;
  out.read = true;
  std::set<std::string> entries;
  std::map<std::string, std::string> callerRoot; // entry -> root of the tree whose code calls it
  for (const auto &g : facts.guards) {
    if (g.kind != GuardFact::Kind::Calls) continue;
    entries.insert(g.entry);
    for (size_t i = 0; i < req.roots.size(); ++i) {
      bool engine = i == 0 && g.tree.empty();
      if (engine || fs::path(req.roots[i]).filename() == g.tree)
        callerRoot.emplace(g.entry, fs::weakly_canonical(req.roots[i]).string());
    }
  }
  if (entries.empty()) return out;

  auto files = readSources(req.roots);
  auto images = binaries ? binaries() : std::vector<binary::BinaryImage>{};
  auto archSets = archSetReader ? archSetReader() : std::vector<build::ArchSetReport>{};
  std::vector<cuda::OpRegistration> regs;
  for (const auto &f : files)
    if (f.text.find("TORCH_LIBRARY") != std::string::npos || f.text.find("PYBIND11_MODULE") != std::string::npos ||
        f.text.find("TVM_FFI_DLL_EXPORT") != std::string::npos)
      for (auto &r : cuda::scanOpRegistrations(f.path, f.text)) regs.push_back(std::move(r));

  for (const auto &entry : entries) {
    // torch.ops.NS.OP, or jit:GETTER.FUNC (a JIT module's export: tvm-ffi
    // registrations have no namespace, so any registration of FUNC matches).
    auto dot = entry.rfind('.');
    bool jitModule = entry.rfind("jit:", 0) == 0;
    std::string op = entry.substr(dot + 1), ns = jitModule ? "" : entry.substr(10, dot - 10);
    auto &byGpu = out.entries[entry];
    const cuda::OpRegistration *reg = registrationOf(regs, ns, op, callerRoot[entry]);
    const binary::BinaryImage *img = jitModule ? nullptr : imageOf(images, ns); // JIT: built on the user's machine
    if (!reg) {
      for (auto gpu : req.gpus) {
        byGpu[gpu].why = "no registration of " + (ns.empty() ? op : ns + "::" + op) + " in the trees";
        if (img) applyBinary(byGpu[gpu], *img, gpu);
      }
      continue;
    }
    std::string fn = shortName(reg->function);
    // Definitions in the registration's own tree.
    std::string regRoot;
    for (const auto &root : req.roots) {
      std::string canonical = fs::weakly_canonical(root).string();
      if (under(reg->where.path, canonical)) regRoot = canonical;
    }
    std::vector<SourceFile> sameTree;
    for (const auto &f : files)
      if (regRoot.empty() || under(f.path, regRoot)) sameTree.push_back(f);
    auto defs = definitionsOf(sameTree, fn);
    std::vector<std::string> defFiles;
    for (const auto &[f, line] : defs) defFiles.push_back(f->path);
    auto reports = defFiles.empty() ? std::vector<cuda::GuardReport>{} : guards(defFiles);
    std::vector<const cuda::GuardReport *> used;
    for (const auto &r : reports) used.push_back(&r);
    auto asserts = entryAsserts(defFiles, fn);
    Evidence regEv = reg->where;
    regEv.note = "registers " + op + " as " + reg->function;
    for (auto gpu : req.gpus) {
      EntryCoverage c;
      if (defs.empty()) c.why = "no definition of " + fn + " in the trees";
      else c = coverageOn(gpu, used, req.guardTargets);
      std::vector<Evidence> chain{regEv};
      for (const auto &[f, line] : defs) chain.push_back({f->path, line, 1, "cpp", fn + "(...)", "defines " + fn});
      chain.insert(chain.end(), c.chain.begin(), c.chain.end());
      c.chain = std::move(chain);
      applyBuild(c, archSets, defFiles, gpu);
      if (img) applyBinary(c, *img, gpu);
      applyChecks(c, asserts, gpu);
      byGpu[gpu] = std::move(c);
    }
  }
  return out;
}

} // namespace archscope::link
