//===--- EntryLinker.cpp - Python kernel entries -> C++ -> per-GPU kernels -===//
// SPDX-License-Identifier: Apache-2.0
#include "model/link/EntryLinker.h"

#include "matchers/cuda/KernelLaunches.h"
#include "matchers/cuda/RuntimeChecks.h"
#include "model/PhaseTimer.h"
#include "model/link/FormatMacros.h"

#include <algorithm>

#include <filesystem>
#include <future>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

namespace fs = std::filesystem;

namespace archscope::link {
namespace {

using SourceFile = CppSource;

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

/// Whether `path` (of a file readSources read) lies in the folder `root`
/// (an absolute, canonical path).
bool under(const std::string &path, const std::string &root) {
  return !root.empty() && path.compare(0, root.size() + 1, root + "/") == 0;
}

/// (file, line) of each definition of the function `name`. A literal search
/// is enough here: the name comes from a registration, and the check that
/// a body follows tells definitions from declarations and calls.
std::vector<std::pair<const SourceFile *, int>> definitionsOf(const std::vector<const SourceFile *> &files,
                                                              const std::string &name) {
  std::vector<std::pair<const SourceFile *, int>> out;
  for (const SourceFile *f : files)
    for (size_t p = f->text.find(name); p != std::string::npos; p = f->text.find(name, p + 1)) {
      size_t end = p + name.size();
      if ((p > 0 && isIdentChar(f->text[p - 1])) || end >= f->text.size() || isIdentChar(f->text[end])) continue;
      size_t q = f->text.find_first_not_of(" \t\r\n", end);
      if (q == std::string::npos || f->text[q] != '(' || !opensDefinition(f->text, q)) continue;
      out.emplace_back(f, lineOf(f->text, p));
      break;
    }
  return out;
}

/// Definitions of `fn` for a registration: in the registration's own file
/// when it has one (a common name, `run`, is defined all over a tree),
/// else in the registration's tree.
std::vector<std::pair<const SourceFile *, int>> definitionsNear(const std::vector<SourceFile> &files,
                                                                const cuda::OpRegistration &reg,
                                                                const std::string &regRoot, const std::string &fn) {
  std::vector<const SourceFile *> own, sameTree;
  for (const auto &f : files) {
    if (f.path == reg.where.path) own.push_back(&f);
    if (regRoot.empty() || under(f.path, regRoot)) sameTree.push_back(&f);
  }
  auto defs = definitionsOf(own, fn);
  return defs.empty() ? definitionsOf(sameTree, fn) : defs;
}

std::string shortName(std::string fn) {
  if (!fn.empty() && fn[0] == '&') fn.erase(0, 1);
  auto p = fn.rfind("::");
  return p == std::string::npos ? fn : fn.substr(p + 2);
}

/// How many leading folders two paths share.
int sharedFolders(const std::string &a, const std::string &b) {
  int n = 0;
  for (size_t i = 0; i < a.size() && i < b.size() && a[i] == b[i]; ++i)
    if (a[i] == '/') ++n;
  return n;
}

/// The registration of `torch.ops.NS.OP` that names a C++ function: the
/// exact namespace first (a macro one, TORCH_EXTENSION_NAME, matches too),
/// then the tree whose code calls it, then the one nearest the calling file
/// (an installed SGLang vendors a copy of FlashInfer's launcher beside
/// FlashInfer's own). `tied` counts the registrations as good as the one
/// returned: more than one means the name alone does not say which is meant.
const cuda::OpRegistration *registrationOf(const std::vector<cuda::OpRegistration> &regs, const std::string &ns,
                                           const std::string &op, const std::string &callerRoot,
                                           const std::string &callerFile, int &tied) {
  const cuda::OpRegistration *best = nullptr;
  long bestScore = -1;
  tied = 0;
  for (const auto &r : regs) {
    if (r.op != op || r.function.empty()) continue;
    long score = (r.ns == ns ? 1L << 21 : 0) + (under(r.where.path, callerRoot) ? 1L << 20 : 0) +
                 sharedFolders(r.where.path, callerFile);
    if (score > bestScore) best = &r, bestScore = score, tied = 0;
    if (score == bestScore) ++tied;
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

/// A defining file's guard report and the kernels of it the entry uses
/// (the ones its function launches, else all of them).
struct UsedKernels {
  const cuda::GuardReport *report;
  std::vector<const cuda::KernelSite *> kernels;
};

EntryCoverage coverageOn(ComputeCapability gpu, const std::vector<UsedKernels> &reports,
                         const std::vector<Target> &targets) {
  EntryCoverage c;
  std::vector<const Target *> running;
  for (const auto &t : targets)
    if (t.runsOn(gpu)) running.push_back(&t);
  size_t kernels = 0;
  for (const auto &u : reports) kernels += u.kernels.size();
  if (running.empty()) { c.why = "the guard passes compile no target that runs on " + gpu.name(); return c; }
  for (const auto &u : reports)
    if (!u.report->errors.empty()) {
      c.why = u.report->path + " does not preprocess cleanly: " + u.report->errors.front();
      return c;
    }
  if (kernels == 0) {
    c.why = "no __global__ kernel in the defining file (its kernels come from headers, other files or prebuilt cubins)";
    return c;
  }
  for (const auto &u : reports)
    for (const auto *k : u.kernels)
      for (const auto *t : running)
        if (auto it = k->byTarget.find(t->name()); it != k->byTarget.end() && it->second == cuda::KernelBody::Code) {
          c.built = Tri::True;
          c.why = k->name + " has a body on " + t->name();
          c.chain.push_back({u.report->path, k->line, 1, "cuda", "__global__ " + k->name, "has a body on " + t->name()});
          return c;
        }
  c.built = Tri::False;
  c.layer = "cuda";
  std::string names;
  for (const auto *t : running) names += (names.empty() ? "" : ", ") + t->name();
  c.why = "every kernel the entry launches from its defining file compiles empty or to a trap on " + names;
  for (const auto &u : reports)
    for (const auto *k : u.kernels)
      if (const auto *d = decidingDirective(*u.report, *k, running.front()->name())) {
        c.chain.push_back({u.report->path, d->line, 1, "cuda", "#" + d->kind + " " + d->condition,
                           "not taken on " + running.front()->name() + ": " + k->name + " has no body"});
        return c;
      }
  return c;
}

/// The runtime checks of the registered function that must pass for it to
/// go on (TORCH_CHECK, ICHECK_EQ, `if (...) throw`), from its defining files.
std::vector<cuda::RuntimeCheck> entryAsserts(const std::vector<std::string> &defFiles,
                                             std::map<std::string, const std::vector<cuda::RuntimeCheck> *> &checksOf,
                                             const std::string &fn) {
  std::vector<cuda::RuntimeCheck> out;
  for (const auto &path : defFiles)
    for (const auto &c : *checksOf[path]) {
      std::string owner = c.function.substr(c.function.rfind(':') == std::string::npos ? 0 : c.function.rfind(':') + 1);
      // Only checks about the GPU: `TORCH_CHECK(false, ...)` in the #else of a
      // build macro (ENABLE_NVFP4_SM100) says what the build left out, which
      // the preprocessor here cannot know without the build's definitions.
      // A check on one configuration's path (`if (a_type == kFE4M3fn)`) does
      // not refuse the GPU for the whole entry.
      if (c.kind == cuda::RuntimeCheck::Kind::Assert && owner == fn && c.guardedBy.empty() && c.cond.readsHardware())
        out.push_back(c);
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
    for (std::string a; std::getline(archs, a, ';');) {
      auto t = Target::parse(a);
      if (!t) continue;
      // "8.0+PTX" also embeds compute_80 PTX, which the driver JIT-compiles on any later GPU.
      Target ptx = *t;
      ptx.kind = CodeKind::Ptx;
      bool viaPtx = a.find("+PTX") != std::string::npos && !t->runsOn(gpu) && ptx.runsOn(gpu);
      if (t->runsOn(gpu) || viaPtx) {
        c.chain.push_back({reports.front().cmakeLists, s->line, 1, "build", "CUDA_ARCHS " + s->archs,
                           viaPtx ? "compiled for " + a + ": its PTX JIT-compiles on " + gpu.name()
                                  : "compiled for " + a + ", which runs on " + gpu.name()});
        return;
      }
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

/// The JIT module has no code for the audited format on any GPU: its flags
/// leave out the macro its sources compile that code under.
void applyFormatGap(EntryCoverage &c, const FormatMacroGap &gap, const std::string &quant) {
  c.built = Tri::False;
  c.layer = "build";
  c.wholeModule = true;
  c.why = "its JIT module is built without -D" + gap.macro + ", the macro its sources compile their " + quant +
          " code under (other JIT modules of the trees define it)";
  Evidence test = gap.test;
  test.note = gap.macro + " is not among this module's flags: the " + quant + " code here is compiled out";
  c.chain.push_back(test);
}

} // namespace

/// An entry followed to its registration and defining files, or why not.
struct ResolvedEntry {
  std::string entry, op, fn, unlinked;
  const cuda::OpRegistration *reg = nullptr;
  const binary::BinaryImage *img = nullptr;
  std::vector<std::pair<const SourceFile *, int>> defs;
  std::vector<std::string> defFiles;
  /// A JIT module followed through its builder: the sources found, what it
  /// was built with (-D flags), and the sources the trees lack.
  bool fromSpec = false;
  std::vector<std::string> specSources; ///< per def: the source as the builder names it
  std::string specNote;
  std::vector<std::string> extraArgs;
  std::vector<std::string> unsureFlags; ///< flag-list items not known literally (GuardFact::jitFlagsUnsure)
  std::string definesFrom; ///< the CMakeLists.txt whose definitions extraArgs are
};

/// The file whose path ends with `suffix`: in the caller's tree first, then
/// the one nearest the calling file (SGLang's JIT sources are relative to
/// python/sglang/jit_kernel/csrc; sgl-kernel/csrc has files of the same name).
const SourceFile *sourceNamed(const std::vector<SourceFile> &files, const std::string &suffix,
                              const std::string &callerRoot, const std::string &callerFile) {
  const SourceFile *best = nullptr;
  long bestScore = -1;
  std::string tail = "/" + suffix;
  for (const auto &f : files) {
    if (f.path.size() < tail.size() || f.path.compare(f.path.size() - tail.size(), tail.size(), tail) != 0) continue;
    long score = (under(f.path, callerRoot) ? 1L << 20 : 0) + sharedFolders(f.path, callerFile);
    if (score > bestScore) best = &f, bestScore = score;
  }
  return best;
}

/// jit:MODULE.FUNC whose builder the Python walk saw (gen_jit_spec's source
/// list, load_jit's cuda_files): the module's own sources, compiled with its
/// flags, instead of a search for the export name; the export's
/// registration, when one of the sources has it, names the function.
ResolvedEntry resolveFromSpec(const std::string &entry, const std::vector<std::string> &sources,
                              const std::vector<std::string> &flags, const std::vector<cuda::OpRegistration> &regs,
                              const std::vector<SourceFile> &files, const std::string &callerRoot,
                              const std::string &callerFile) {
  ResolvedEntry r;
  r.entry = entry;
  r.op = entry.substr(entry.rfind('.') + 1);
  r.fromSpec = true;
  r.extraArgs = flags;
  size_t missing = 0;
  for (const auto &s : sources) {
    const SourceFile *f = sourceNamed(files, s, callerRoot, callerFile);
    if (!f) { ++missing; continue; }
    if (std::find(r.defFiles.begin(), r.defFiles.end(), f->path) != r.defFiles.end()) continue;
    r.defFiles.push_back(f->path);
    r.defs.emplace_back(f, 1);
    r.specSources.push_back(s);
  }
  for (const auto &g : regs)
    if (g.op == r.op && !g.function.empty() &&
        std::find(r.defFiles.begin(), r.defFiles.end(), g.where.path) != r.defFiles.end()) {
      r.reg = &g;
      r.fn = shortName(g.function);
      break;
    }
  if (missing) r.specNote = std::to_string(missing) + " of them not in the trees";
  if (r.defFiles.empty()) r.unlinked = "none of the JIT module's " + std::to_string(sources.size()) +
                                       " sources is in the trees";
  return r;
}

/// torch.ops.NS.OP, pybind:MODULE.FUNC (PYBIND11_MODULE(MODULE, m)
/// m.def("FUNC", &fn)), or jit:GETTER.FUNC (a JIT module's export: tvm-ffi
/// registrations have no namespace, so any registration of FUNC matches).
ResolvedEntry resolveEntry(const std::string &entry, const std::vector<cuda::OpRegistration> &regs,
                           const std::vector<binary::BinaryImage> &images, const std::vector<SourceFile> &files,
                           const std::vector<std::string> &roots, const std::string &callerRoot,
                           const std::string &callerFile) {
  ResolvedEntry r;
  r.entry = entry;
  auto dot = entry.rfind('.');
  bool jitModule = entry.rfind("jit:", 0) == 0, pybind = entry.rfind("pybind:", 0) == 0;
  r.op = entry.substr(dot + 1);
  // torch.ops.NS.OP, pybind:MODULE.FUNC, jit:MODULE.FUNC (no namespace)
  std::string ns = jitModule ? "" : pybind ? entry.substr(7, dot - 7) : entry.substr(10, dot - 10);
  int tied = 0;
  r.reg = registrationOf(regs, ns, r.op, callerRoot, callerFile, tied);
  r.img = jitModule ? nullptr : imageOf(images, ns); // JIT: built on the user's machine
  // A JIT module's export name shared by several modules (`run`) says
  // nothing about which one the getter builds.
  if (isKeptModuleEntry(entry)) r.unlinked = "which of the JIT module's functions it calls later is not followed";
  else if (!r.reg) r.unlinked = "no registration of " + (ns.empty() ? r.op : ns + "::" + r.op) + " in the trees";
  else if (jitModule && tied > 1)
    r.unlinked = std::to_string(tied) + " JIT modules export " + r.op + "; its name alone does not say which one is built";
  if (!r.unlinked.empty()) return r;
  r.fn = shortName(r.reg->function);
  std::string regRoot; // definitions come from the registration's own tree
  for (const auto &root : roots) {
    std::string canonical = fs::weakly_canonical(root).string();
    if (under(r.reg->where.path, canonical)) regRoot = canonical;
  }
  r.defs = definitionsNear(files, *r.reg, regRoot, r.fn);
  for (const auto &[f, line] : r.defs) r.defFiles.push_back(f->path);
  return r;
}

LowerLayers linkEntries(const Facts &facts, const LinkRequest &req, const GuardRunner &guards,
                        const CheckRunner &checkRunner, const BinaryReader &binaries,
                        const ArchSetReader &archSetReader) {
  LowerLayers out;
  out.read = true;
  std::set<std::string> entries;
  // entry -> root of the tree whose code calls it, and the calling file
  std::map<std::string, std::string> callerRoot, callerFile;
  std::map<std::string, const GuardFact *> specOf; // entry -> a call that saw its JIT builder
  std::map<std::string, const GuardFact *> familySourcesOf; // entry -> a call that saw its getter's sources
  std::set<std::string> jitMacros; // the macros some JIT module's flags define
  std::set<std::string> severalSpecs; // entries whose calls build modules of different flags
  for (const auto &g : facts.guards) {
    if (g.kind != GuardFact::Kind::Calls) continue;
    entries.insert(g.entry);
    if (!g.jitSources.empty()) {
      auto [it, fresh] = specOf.emplace(g.entry, &g);
      if (!fresh && it->second->jitFlags != g.jitFlags) severalSpecs.insert(g.entry);
    }
    for (const auto &m : macrosDefinedBy(g.jitFlags)) jitMacros.insert(m);
    if (!g.familySources.empty()) familySourcesOf.emplace(g.entry, &g);
    for (size_t i = 0; i < req.roots.size(); ++i) {
      bool engine = i == 0 && g.tree.empty();
      if (!engine && fs::path(req.roots[i]).filename() != g.tree) continue;
      std::string root = fs::weakly_canonical(req.roots[i]).string();
      callerRoot.emplace(g.entry, root);
      if (!g.chain.empty()) callerFile.emplace(g.entry, root + "/" + g.chain[0].path);
    }
  }
  if (entries.empty()) return out;

  PhaseTimer timer;
  const std::vector<SourceFile> &files = *req.sources;
  timer.lap("link:read", std::to_string(files.size()) + " C++ files");
  auto images = binaries ? binaries() : std::vector<binary::BinaryImage>{};
  auto archSets = archSetReader ? archSetReader() : std::vector<build::ArchSetReport>{};
  std::vector<cuda::OpRegistration> regs;
  for (const auto &f : files)
    if (f.text.find("TORCH_LIBRARY") != std::string::npos || f.text.find("PYBIND11_MODULE") != std::string::npos ||
        f.text.find("TVM_FFI_DLL_EXPORT") != std::string::npos)
      for (auto &r : cuda::scanOpRegistrations(f.path, f.text)) regs.push_back(std::move(r));

  timer.lap("link:scan", std::to_string(regs.size()) + " registrations");
  // Resolve every entry first, so that each defining file is preprocessed
  // and parsed once, all of them in parallel, however many entries it has.
  std::vector<ResolvedEntry> resolved;
  std::vector<std::string> defFiles;
  // A CMake build's own definitions (ENABLE_NVFP4_SM120=1 where it found
  // the archs) for the files under its folder; a JIT module's are its spec's.
  auto addBuildDefines = [&](ResolvedEntry &r) {
    for (const auto &set : archSets) {
      std::string root = fs::weakly_canonical(fs::path(set.cmakeLists).parent_path()).string();
      if (set.defines.empty() ||
          !std::any_of(r.defFiles.begin(), r.defFiles.end(), [&](const std::string &f) { return under(f, root); }))
        continue;
      for (const auto &d : set.defines) r.extraArgs.push_back("-D" + d);
      r.definesFrom = set.cmakeLists;
    }
  };
  for (const auto &entry : entries) {
    if (auto spec = specOf.find(entry); spec != specOf.end()) {
      resolved.push_back(resolveFromSpec(entry, spec->second->jitSources, spec->second->jitFlags, regs, files,
                                         callerRoot[entry], callerFile[entry]));
      resolved.back().unsureFlags = spec->second->jitFlagsUnsure;
    } else
      resolved.push_back(resolveEntry(entry, regs, images, files, req.roots, callerRoot[entry], callerFile[entry]));
    if (resolved.back().extraArgs.empty()) addBuildDefines(resolved.back());
    for (const auto &f : resolved.back().defFiles)
      if (std::find(defFiles.begin(), defFiles.end(), f) == defFiles.end()) defFiles.push_back(f);
  }
  timer.lap("link:resolve", std::to_string(defFiles.size()) + " defining files");
  std::map<std::string, const SourceFile *> byPath;
  for (const auto &f : files) byPath[f.path] = &f;
  // The preprocessor passes and the host-side parses of the defining files
  // run side by side; only files with some SM-like name can hold a check
  // about the GPU.
  std::vector<std::string> parsed;
  for (const auto &f : files)
    if (std::find(defFiles.begin(), defFiles.end(), f.path) != defFiles.end() && cuda::mayHaveRuntimeChecks(f.text))
      parsed.push_back(f.path);
  auto pendingChecks = std::async(std::launch::async, [&] {
    return parsed.empty() || !checkRunner ? std::vector<cuda::RuntimeCheckReport>{} : checkRunner(parsed);
  });
  // A defining file without a `__global__` of its own has no kernel for the
  // passes to find (its kernels come from headers, other files or cubins):
  // its report is empty without running them. Files are passed once per set
  // of extra flags (a JIT module's own -D flags).
  std::map<std::pair<std::string, std::vector<std::string>>, cuda::GuardReport> reportOf;
  std::map<std::vector<std::string>, std::vector<std::string>> byFlags;
  for (const auto &r : resolved)
    for (const auto &f : r.defFiles) {
      reportOf[{f, r.extraArgs}].path = f;
      auto &group = byFlags[r.extraArgs];
      if (byPath.count(f) && byPath[f]->text.find("__global__") != std::string::npos &&
          std::find(group.begin(), group.end(), f) == group.end())
        group.push_back(f);
    }
  // Each set's files run in parallel, and the sets beside each other: a set
  // holds a few files (a JIT module's), too few to keep the cores busy alone.
  std::vector<std::pair<const std::vector<std::string> *, std::future<std::vector<cuda::GuardReport>>>> pending;
  for (const auto &[extra, group] : byFlags)
    if (!group.empty())
      pending.emplace_back(&extra, std::async(std::launch::async, [&guards, &group = group, &extra = extra] {
                             return guards(group, extra);
                           }));
  for (auto &[extra, reports] : pending) {
    const auto &group = byFlags[*extra];
    auto got = reports.get();
    for (size_t i = 0; i < got.size() && i < group.size(); ++i) reportOf[{group[i], *extra}] = std::move(got[i]);
  }
  timer.lap("link:guards", std::to_string(byFlags.size()) + " flag sets");
  auto checks = pendingChecks.get();
  static const std::vector<cuda::RuntimeCheck> none;
  std::map<std::string, const std::vector<cuda::RuntimeCheck> *> checksOf;
  for (const auto &f : defFiles) checksOf[f] = &none;
  for (size_t i = 0; i < checks.size() && i < parsed.size(); ++i) checksOf[parsed[i]] = &checks[i].checks;
  timer.lap("link:checks", std::to_string(parsed.size()) + " files parsed (waited for)");
  for (const auto &r : resolved) {
    auto &byGpu = out.entries[r.entry];
    out.entryFiles[r.entry] = r.defFiles;
    if (auto fam = familySourcesOf.find(r.entry); fam != familySourcesOf.end())
      for (const auto &suffix : fam->second->familySources)
        if (const SourceFile *f = sourceNamed(files, suffix, callerRoot[r.entry], callerFile[r.entry]))
          out.entryFiles[r.entry].push_back(f->path);
    if (!r.unlinked.empty()) {
      for (auto gpu : req.gpus) {
        byGpu[gpu].why = r.unlinked;
        if (r.img) applyBinary(byGpu[gpu], *r.img, gpu);
      }
      continue;
    }
    std::vector<UsedKernels> used;
    for (const auto &[f, line] : r.defs) {
      const cuda::GuardReport &report = reportOf[{f->path, r.extraArgs}];
      std::vector<const cuda::KernelSite *> all;
      for (const auto &k : report.kernels) all.push_back(&k);
      used.push_back({&report, r.fromSpec ? all : cuda::kernelsLaunchedFrom(f->path, line, report)});
    }
    auto asserts = r.fn.empty() ? std::vector<cuda::RuntimeCheck>{} : entryAsserts(r.defFiles, checksOf, r.fn);
    std::vector<Evidence> head;
    if (r.reg) {
      Evidence regEv = r.reg->where;
      regEv.note = "registers " + r.op + " as " + r.reg->function;
      head.push_back(regEv);
    }
    std::string flags;
    for (const auto &a : r.extraArgs) flags += (flags.empty() ? "" : " ") + a;
    if (r.fromSpec && !r.defs.empty()) { // one line for the module's sources, however many
      std::string more = r.defs.size() > 1 ? " and " + std::to_string(r.defs.size() - 1) + " more" : "";
      head.push_back({r.defs[0].first->path, 1, 1, "cpp", r.specSources[0] + more,
                      "the JIT module's sources" + (flags.empty() ? "" : ", built with " + flags) +
                          (r.specNote.empty() ? "" : "; " + r.specNote)});
    }
    for (const auto &[f, line] : r.defs)
      if (!r.fromSpec) head.push_back({f->path, line, 1, "cpp", r.fn + "(...)", "defines " + r.fn});
    if (!r.definesFrom.empty())
      head.push_back({r.definesFrom, 0, 0, "build", flags, "the definitions this CMake build passes its CUDA sources"});
    // One entry name for modules of different flags: which one a call builds
    // is not known here, so none of them decides.
    auto formatGap = r.fromSpec && !severalSpecs.count(r.entry) ? formatMacroLeftOut(r.defs, r.extraArgs, r.unsureFlags, jitMacros, req.quant) : std::nullopt;
    for (auto gpu : req.gpus) {
      EntryCoverage c;
      if (r.defs.empty()) c.why = "no definition of " + r.fn + " in the trees";
      else c = coverageOn(gpu, used, req.guardTargets);
      std::vector<Evidence> chain = head;
      chain.insert(chain.end(), c.chain.begin(), c.chain.end());
      c.chain = std::move(chain);
      applyBuild(c, archSets, r.defFiles, gpu);
      if (r.img) applyBinary(c, *r.img, gpu);
      applyChecks(c, asserts, gpu);
      if (formatGap) applyFormatGap(c, *formatGap, req.quant);
      byGpu[gpu] = std::move(c);
    }
  }
  return out;
}

} // namespace archscope::link
