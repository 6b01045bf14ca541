//===--- Audit.cpp - the audit pipeline -----------------------------------===//
// SPDX-License-Identifier: Apache-2.0
#include "tool/Audit.h"

#include "matchers/binary/CubinPools.h"
#include "matchers/binary/ShippedBinaries.h"
#include "matchers/cuda/ExtensionModules.h"
#include "matchers/cuda/SharedFiles.h"
#include "matchers/source/CppSources.h"
#include "matchers/python/PythonExtractor.h"
#include "model/ArchTable.h"
#include "model/Errors.h"
#include "model/FactsCache.h"
#include "model/KernelFamilies.h"
#include "model/MatrixBuilder.h"
#include "model/PhaseTimer.h"
#include "model/Profile.h"
#include "model/link/EntryLinker.h"
#include "tool/Archs.h"
#include "tool/Cache.h"
#include "tool/Guards.h"
#include "tool/PinnedTrees.h"
#include "tool/RuntimeChecksCache.h"
#include "tool/diff/GitCheckout.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <unistd.h>
#include <llvm/Support/Parallel.h>
#include <llvm/Support/xxhash.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <future>
#include <memory>
#include <regex>
#include <sstream>

#ifndef ARCHSCOPE_DATA_DIR
#define ARCHSCOPE_DATA_DIR "data"
#endif

namespace fs = std::filesystem;

namespace archscope {
namespace {

std::string readSmall(const fs::path &p) {
  std::ifstream in(p);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

/// The commit a checkout is at, read from .git without running git.
std::string gitRevision(const fs::path &root) {
  std::error_code ec;
  for (fs::path dir = root; !dir.empty(); dir = dir.parent_path()) {
    fs::path git = dir / ".git";
    if (fs::is_regular_file(git, ec)) { // worktree: "gitdir: PATH"
      auto text = readSmall(git);
      auto p = text.find("gitdir:");
      if (p == std::string::npos) return "";
      std::string target = text.substr(p + 7);
      target.erase(0, target.find_first_not_of(" \t"));
      target.erase(target.find_last_not_of(" \n\r\t") + 1);
      git = fs::path(target).is_absolute() ? fs::path(target) : dir / target;
    } else if (!fs::is_directory(git, ec)) {
      if (dir == dir.parent_path()) break;
      continue;
    }
    std::string head = readSmall(git / "HEAD");
    head.erase(head.find_last_not_of(" \n\r\t") + 1);
    if (head.rfind("ref: ", 0) == 0) {
      std::string ref = head.substr(5);
      std::string sha = readSmall(git / ref);
      if (sha.empty()) {
        std::string packed = readSmall(git / "packed-refs");
        std::smatch m;
        if (std::regex_search(packed, m, std::regex("([0-9a-f]{40}) " + ref))) sha = m[1];
      }
      head = sha;
    }
    head.erase(head.find_last_not_of(" \n\r\t") + 1);
    return head.substr(0, 7);
  }
  return "";
}

/// A tree's version from pyproject.toml, version.txt or __version__.
std::string treeVersion(const fs::path &root) {
  std::error_code ec;
  for (const char *f : {"version.txt", "VERSION"})
    if (fs::exists(root / f, ec)) {
      auto v = readSmall(root / f);
      v.erase(v.find_last_not_of(" \n\r\t") + 1);
      if (!v.empty() && v.size() < 40) return v;
    }
  for (const char *f : {"pyproject.toml", "python/pyproject.toml", "PKG-INFO"}) {
    std::smatch m;
    auto text = readSmall(root / f);
    if (std::regex_search(text, m, std::regex(R"((?:^|\n)version\s*=\s*"([^"]+)\")")) ||
        std::regex_search(text, m, std::regex(R"((?:^|\n)Version:\s*(\S+))")))
      return m[1];
  }
  return "";
}

/// A checkout path from a profile ("python/sglang/srt/x.py") inside this
/// tree, which may be the checkout or an installed package folder where the
/// same file is "sglang/srt/x.py". Returns "" when absent.
std::string resolveTreePath(const fs::path &root, const std::string &rel) {
  std::error_code ec;
  if (fs::exists(root / rel, ec)) return rel;
  for (const char *prefix : {"python/", "src/"})
    if (rel.rfind(prefix, 0) == 0 && fs::exists(root / rel.substr(strlen(prefix)), ec))
      return rel.substr(strlen(prefix));
  // The tree is the package folder itself: "sglang/srt/x.py" is "srt/x.py".
  std::string inside = rel.rfind("python/", 0) == 0 ? rel.substr(7) : rel;
  std::string pkg = root.filename().string() + "/";
  if (inside.rfind(pkg, 0) == 0 && fs::exists(root / inside.substr(pkg.size()), ec)) return inside.substr(pkg.size());
  return "";
}

/// Every shipped profile whose detect files exist in one of the trees.
std::vector<Profile> detectedProfiles(const std::string &dataDir, const std::vector<SourceTree> &trees) {
  std::vector<Profile> out;
  std::error_code ec;
  for (const auto &e : fs::directory_iterator(fs::path(dataDir) / "profiles", ec)) {
    if (e.path().extension() != ".yaml") continue;
    Profile p = Profile::load(e.path().string());
    bool present = std::any_of(trees.begin(), trees.end(), [&](const SourceTree &t) {
      return std::any_of(p.detectFiles.begin(), p.detectFiles.end(),
                         [&](const std::string &d) { return !resolveTreePath(t.root(), d).empty(); });
    });
    if (present) out.push_back(std::move(p));
  }
  return out;
}

Profile chooseProfile(const Options &opts, const std::string &dataDir, const fs::path &engineRoot) {
  if (opts.noProfile) return Profile::generic();
  if (!opts.profile.empty()) return Profile::load(opts.profile);
  std::error_code ec;
  std::vector<fs::path> files;
  for (const auto &e : fs::directory_iterator(fs::path(dataDir) / "profiles", ec))
    if (e.path().extension() == ".yaml") files.push_back(e.path());
  std::sort(files.begin(), files.end());
  std::vector<Profile> profiles;
  for (const auto &f : files) profiles.push_back(Profile::load(f.string()));
  // Engines (profiles that pin a dependency) before libraries: a site-packages
  // folder holding SGLang and FlashInfer is an SGLang install.
  std::stable_sort(profiles.begin(), profiles.end(),
                   [](const Profile &a, const Profile &b) { return !a.pins.empty() && b.pins.empty(); });
  for (const auto &p : profiles)
    for (const auto &d : p.detectFiles)
      if (!resolveTreePath(engineRoot, d).empty()) return p;
  return Profile::generic();
}

std::vector<ComputeCapability> chooseTargets(const Options &opts, const ArchTable &table) {
  std::vector<ComputeCapability> out;
  bool all = opts.targets.size() == 1 && opts.targets[0] == "all";
  if (opts.targets.empty() || all) {
    for (const auto &row : table.rows())
      if (all || row.cc.major >= 8) out.push_back(row.cc);
    return out;
  }
  for (const auto &t : opts.targets) {
    auto cc = ComputeCapability::parse(t);
    if (!cc) throw usageError("bad target '" + t + "'", "write targets as sm_90,sm_120 or 9.0,12.0");
    if (!table.find(*cc))
      throw usageError("target '" + t + "' is not in the arch table", "add a row to data/arch-table.yaml");
    out.push_back(*cc);
  }
  return out;
}

/// Each dependency tree against the version the engine pins for it.
void checkPins(const Profile &profile, const fs::path &engineRoot, std::vector<TreeInfo> &trees,
               std::vector<std::string> &warnings) {
  for (auto &t : trees) {
    if (t.role != "dependency") continue;
    PinnedVersion pin = pinnedVersion(engineRoot.string(), t.path, profile);
    if (pin.version.empty()) continue;
    t.profile = "pinned " + pin.version;
    if (!t.version.empty() && t.version != pin.version)
      warnings.push_back(t.name + ": the engine pins " + pin.version + " (" + pin.file +
                         ") but the tree given with --with is " + t.version);
  }
}

/// A hash of everything the extraction reads: every file's path and text,
/// the profile, the quant, and this archscope binary itself.
std::string extractionKey(const std::vector<SourceTree> &trees, const Profile &profile, const QuantProfile &quant,
                          const std::set<std::string> &extensionModules, bool lintFacts) {
  std::vector<std::pair<const SourceTree *, const SourceFile *>> files;
  for (const auto &t : trees)
    for (const auto &f : t.files()) files.push_back({&t, &f});
  std::vector<uint64_t> hashes(files.size());
  llvm::parallelFor(0, files.size(), [&](size_t i) {
    const std::string *text = files[i].first->read(*files[i].second);
    hashes[i] = llvm::xxh3_64bits(files[i].second->path + '\0' + (text ? *text : std::string("\x01unreadable")));
  });
  std::string all = "archscope-facts-v1\0" + profile.id + '\0' + readSmall(profile.path) + '\0' + quant.name +
                    '\0' + binaryIdentity();
  for (const auto &t : trees) all += t.role() + t.root() + '\0';
  for (const auto &m : extensionModules) all += "pybind " + m + '\0';
  if (lintFacts) all += std::string("lint facts") + '\0';
  for (uint64_t h : hashes) all.append(reinterpret_cast<const char *>(&h), sizeof h);
  return hashKey(all);
}

/// Whether a .cubin lies anywhere under `root` (stops at the first).
bool holdsCubins(const std::string &root) {
  std::error_code ec;
  for (auto it = fs::recursive_directory_iterator(root, fs::directory_options::skip_permission_denied, ec);
       !ec && it != fs::recursive_directory_iterator(); it.increment(ec))
    if (it->path().extension() == ".cubin") return true;
  return false;
}

/// What to do about a tree with no Python file to read.
std::string noPythonHint(const std::string &root) {
  std::error_code ec;
  if (holdsCubins(root))
    return "cubins are read through the package that ships them: give the folder that holds its "
           "__init__.py too (an unpacked flashinfer-cubin wheel, say)";
  if (diff::isRepositoryTop(root) && !fs::exists(fs::path(root) / ".git", ec))
    return "a bare git repository has no files to read: give a checkout of it, or compare two of its "
           "revisions with archscope diff REV_A REV_B " + root;
  return "give the root of an engine checkout or of a site-packages folder";
}

} // namespace

/// Each owner's installed cubin pools, per GPU: a kernel when some cubin
/// is named for a target that runs there.
static void addCubinPools(std::map<std::string, std::map<ComputeCapability, EntryCoverage>> &layer,
                          const std::vector<binary::CubinPool> &pools, const std::vector<ComputeCapability> &gpus) {
  for (const auto &p : pools) {
    auto &byGpu = layer[p.owner];
    for (auto gpu : gpus) {
      EntryCoverage &c = byGpu[gpu];
      bool runs = p.runsOn(gpu);
      if (c.built == Tri::True) continue; // another pool of the backend has one
      c.built = runs ? Tri::True : p.unnamed ? Tri::Unknown : Tri::False;
      c.layer = "binary";
      c.why = runs ? "prebuilt cubins for it in " + p.pattern
                   : "none of the " + std::to_string(p.cubins) + " prebuilt cubins of " + p.pattern + " (" +
                         p.targetsText() + ") loads on " + gpu.name();
      c.chain = {{p.dirs.front(), 0, 0, "binary", p.pattern, (runs ? "cubins load on " : "no cubin loads on ") +
                                                                gpu.name() + ": " + p.targetsText()}};
    }
  }
}

/// The cubin artifact paths the JIT builders of each called entry name.
static std::map<std::string, std::vector<std::string>> cubinArtifacts(const Facts &facts) {
  std::map<std::string, std::vector<std::string>> out;
  for (const auto &g : facts.guards) {
    if (g.kind != GuardFact::Kind::Calls) continue;
    auto &paths = out[g.entry];
    for (const auto &a : g.cubinArtifacts)
      if (std::find(paths.begin(), paths.end(), a) == paths.end()) paths.push_back(a);
    if (paths.empty()) out.erase(g.entry);
  }
  return out;
}

/// The kernel families each linked entry's sources show (markers of
/// data/kernel-families.yaml), each file read once.
static void addFamilyMarks(LowerLayers &lower, const KernelFamilies &families) {
  std::map<std::string, std::vector<FamilyMark>> byFile;
  for (const auto &[entry, files] : lower.entryFiles)
    for (const auto &f : files) {
      if (!byFile.count(f)) byFile[f] = families.marksIn(f, readSmall(f));
      for (const auto &m : byFile[f]) {
        auto &marks = lower.entryFamilies[entry];
        bool seen = std::any_of(marks.begin(), marks.end(), [&](const FamilyMark &x) { return x.family == m.family; });
        if (!seen) marks.push_back(m);
      }
    }
}

/// The kernel families the library Python files each backend's walks
/// entered show; a file most rows enter (a quantize helper) sets none.
static void addEnteredFamilies(LowerLayers &lower, const Facts &facts, const std::vector<std::string> &rows,
                               const KernelFamilies &families) {
  std::map<std::string, size_t> enteredBy;
  for (const auto &[backend, files] : facts.enteredFiles)
    for (const auto &f : files) ++enteredBy[f];
  std::map<std::string, std::vector<FamilyMark>> byFile;
  for (const auto &[backend, files] : facts.enteredFiles)
    for (const auto &f : files) {
      if (2 * enteredBy[f] > std::max<size_t>(2, rows.size())) continue;
      if (!byFile.count(f)) byFile[f] = families.marksIn(f, readSmall(f));
      auto &marks = lower.backendFamilies[backend];
      for (const auto &m : byFile[f])
        if (std::none_of(marks.begin(), marks.end(), [&](const FamilyMark &x) { return x.family == m.family; }))
          marks.push_back(m);
    }
}

/// Lower-layer evidence named the way the Python facts name files: relative
/// to the engine tree, or to a dependency tree behind its folder name.
static void nameLikeTheTrees(LowerLayers &lower, const std::vector<std::string> &roots) {
  // The linker names files from the canonical roots; evidence may also
  // carry a root as given.
  std::vector<std::pair<std::string, std::string>> prefixes; // (root prefix, shown name; "" for the engine)
  for (size_t i = 0; i < roots.size(); ++i) {
    std::error_code ec;
    std::string given = fs::path(roots[i]).lexically_normal().string();
    if (!given.empty() && given.back() == '/') given.pop_back();
    std::string name = i == 0 ? "" : fs::path(given).filename().string();
    prefixes.push_back({fs::weakly_canonical(given, ec).string(), name});
    prefixes.push_back({given, name});
  }
  auto rename = [&](Evidence &e) {
    for (const auto &[root, name] : prefixes) {
      if (root.empty() || e.path.rfind(root + "/", 0) != 0) continue;
      std::string rel = e.path.substr(root.size() + 1);
      e.path = name.empty() ? rel : name + "/" + rel;
      return;
    }
  };
  for (auto *layer : {&lower.entries, &lower.cubinPools, &lower.entryCubinPools})
    for (auto &[entry, byGpu] : *layer)
      for (auto &[gpu, c] : byGpu) {
        for (auto &e : c.chain) rename(e);
        rename(c.refusal);
      }
  for (auto *layer : {&lower.entryFamilies, &lower.backendFamilies})
    for (auto &[key, marks] : *layer)
      for (auto &m : marks) rename(m.where);
}

/// The profile's rows that this revision has. A row the engine's backend
/// enum lacks (SGLang of January 2026 had no flashinfer_trtllm_routed), or,
/// where there is no enum, a row no fact is about (FlashInfer 0.6.2 had no
/// B12xMoEWrapper), is a backend of another revision: a profile adds no rows.
static std::vector<std::string> rowsOfThisRevision(const std::vector<std::string> &profileRows,
                                                   const std::vector<std::string> &codeRows, const Facts &facts,
                                                   std::vector<std::string> &warnings) {
  auto about = [&](const std::string &row) {
    if (!codeRows.empty()) return std::find(codeRows.begin(), codeRows.end(), row) != codeRows.end();
    return facts.dispatched.count(row) ||
           std::any_of(facts.guards.begin(), facts.guards.end(), [&](const GuardFact &g) { return g.backend == row; });
  };
  std::vector<std::string> rows;
  for (const auto &row : profileRows) {
    if (row == "auto" || about(row)) rows.push_back(row);
    else
      warnings.push_back("profile row '" + row + "': not a backend of this revision (" +
                         (codeRows.empty() ? "nothing in the trees is about it" : "the backend enum has no such member") +
                         "), left out");
  }
  return rows;
}

/// Like clang's -disable-free: the hundreds of syntax trees are not freed
/// node by node on the way out (the facts hold copies). The last audit's go
/// with the process; an earlier one's (diff) before the next is built, which
/// keeps the peak memory of one. Audits run one at a time.
static py::ModuleIndex &freshIndex(std::vector<SourceTree> trees) {
  static auto *kept = new std::unique_ptr<py::ModuleIndex>;
  kept->reset();
  *kept = std::make_unique<py::ModuleIndex>(std::move(trees));
  return **kept;
}

std::string dataDirOf(const Options &opts) { return opts.dataDir.empty() ? ARCHSCOPE_DATA_DIR : opts.dataDir; }

AuditResult runAudit(const Options &opts) {
  std::string dataDir = dataDirOf(opts);
  std::string enginePath = opts.path.empty() ? dataDir + "/examples/tiny-engine" : opts.path;
  std::vector<std::string> withPaths = opts.with;
  if (opts.path.empty() && withPaths.empty()) withPaths.push_back(dataDir + "/examples/tiny-kernels");

  ArchTable table = ArchTable::load(dataDir + "/arch-table.yaml");
  std::vector<SourceTree> trees;
  trees.push_back(SourceTree::scan(enginePath, "engine"));
  fs::path engineRoot = trees[0].root();
  Profile profile = chooseProfile(opts, dataDir, engineRoot);
  std::vector<std::string> warnings; // tree scan and read warnings come with the facts
  withPaths = treesAtPins(withPaths, engineRoot.string(), profile, warnings);
  std::vector<std::string> roots{engineRoot.string()};
  roots.insert(roots.end(), withPaths.begin(), withPaths.end());
  // The C++ side is read once, beside the Python scans: the Python walk needs
  // its pybind11 module names, the linker its files.
  auto cppRead = std::async(std::launch::async, [roots] { return readCppSources(roots); });
  for (const auto &w : withPaths) trees.push_back(SourceTree::scan(w, "dependency"));
  // lint reads trees of CUDA and CMake only as well; audit needs the Python layer.
  for (const auto &t : trees)
    if (t.files().empty() && opts.command != "lint")
      throw inputError("no Python files under '" + t.root() + "'", noPythonHint(t.root()));
  // What the profiles of the libraries present (a --with tree, or a package
  // beside the engine in one site-packages folder) know about their code
  // comes along.
  for (const auto &other : opts.noProfile ? std::vector<Profile>{} : detectedProfiles(dataDir, trees)) {
    for (const auto &[k, v] : other.attributes) profile.attributes.emplace(k, v);
    for (const auto &[k, v] : other.families) profile.families.emplace(k, v);
    for (const auto &[k, v] : other.cubins) profile.cubins.emplace(k, v);
    for (const auto &m : other.archMacros)
      if (std::find(profile.archMacros.begin(), profile.archMacros.end(), m) == profile.archMacros.end())
        profile.archMacros.push_back(m);
  }

  const QuantProfile *quant = profile.quants.empty() ? nullptr : &profile.quants[0];
  if (!opts.quant.empty()) {
    quant = nullptr;
    for (const auto &q : profile.quants)
      if (q.name == opts.quant) quant = &q;
    if (!quant) throw usageError("profile '" + profile.id + "' has no quant '" + opts.quant + "'");
  }
  if (!quant) throw inputError("profile '" + profile.id + "' defines no quant format", "add one under 'quants:'");

  AuditResult result;
  result.profileId = profile.id;
  std::vector<TreeInfo> infos;
  for (const auto &t : trees) {
    result.filesListed += t.files().size();
    bool bundled = opts.path.empty(); // the example lives in archscope's own checkout
    TreeInfo info{t.role(), t.root(), fs::path(t.root()).filename().string(), treeVersion(t.root()),
                  bundled ? "" : gitRevision(t.root()), ""};
    if (t.role() == "engine") info.profile = profile.id;
    infos.push_back(info);
  }
  checkPins(profile, engineRoot, infos, warnings);

  PhaseTimer timer;
  std::string dir = opts.noCache ? "" : cacheDir();
  const std::vector<CppSource> cppSources = cppRead.get();
  std::set<std::string> extensionModules = cuda::pybindModuleNames(cppSources);
  bool lintFacts = opts.command == "lint"; // an audit has no use for them (and their parses)
  std::string key = dir.empty() ? "" : extractionKey(trees, profile, *quant, extensionModules, lintFacts);
  timer.lap("hash");
  py::ExtractResult extracted;
  std::string file = dir + "/" + key + ".facts";
  auto text = key.empty() ? std::nullopt : readCacheFile(file);
  if (auto cached = text ? decodeFacts(*text) : std::nullopt) {
    extracted.facts = std::move(cached->facts);
    extracted.backends = std::move(cached->backends);
    result.fromCache = true;
  } else {
    py::ModuleIndex &index = freshIndex(std::move(trees));
    extracted = py::extractPython(index, profile, *quant, extensionModules, lintFacts);
    if (!key.empty()) writeCacheFile(file, encodeFacts({extracted.facts, extracted.backends}));
  }
  if (std::getenv("ARCHSCOPE_DUMP_FACTS")) { // debugging aid: every guard fact
    static const char *kinds[] = {"reject", "select", "route", "support", "declared", "calls"};
    for (const auto &g : extracted.facts.guards)
      fprintf(stderr, "fact %-8s %-20s order=%-8d %s:%d %s%s when %s\n", kinds[int(g.kind)], g.backend.c_str(),
              g.order, g.chain[0].path.c_str(), g.chain[0].line, g.entry.c_str(),
              g.jitSources.empty() ? "" : (" [" + std::to_string(g.jitSources.size()) + " JIT sources: " +
                                           g.jitSources[0] + " ...]").c_str(),
              g.cond.str().substr(0, 200).c_str());
  }
  result.modulesParsed = extracted.modulesParsed;
  timer.lap("python", result.fromCache ? "facts from the cache" : "");

  MatrixRequest req;
  req.backends = profile.backends.empty()
                     ? extracted.backends
                     : rowsOfThisRevision(profile.backends, extracted.backends, extracted.facts, warnings);
  req.quants.push_back({quant->name, {quant->flags.begin(), quant->flags.end()}});
  req.targets = chooseTargets(opts, table);
  KernelFamilies kernelFamilies = KernelFamilies::load(dataDir + "/kernel-families.yaml");
  req.families = profile.families;
  req.kernelFamilies = &kernelFamilies;
  req.table = &table;
  std::string cuda = opts.cuda.empty() ? table.defaultToolkit() : opts.cuda;
  std::smatch m;
  if (!std::regex_match(cuda, m, std::regex(R"((\d+)\.(\d+))")))
    throw usageError("bad CUDA version '" + cuda + "'", "write it as 13.0");
  req.cudaMajor = std::stoi(m[1]);
  req.cudaMinor = std::stoi(m[2]);
  // The lower layers of the kernel entries the Python layer calls.
  link::LinkRequest linkReq{roots, req.targets, guardTargets({}), &cppSources, quant->name};
  bool progress = !opts.quiet && isatty(STDERR_FILENO);
  cuda::SharedFileCache headersReadOnce; // the trees stay as they are while linking
  LowerLayers lower = link::linkEntries(
      extracted.facts, linkReq,
      [&](const std::vector<std::string> &files, const std::vector<std::string> &extraArgs) {
        cuda::GuardPassOptions extra;
        extra.extraArgs = extraArgs;
        extra.archMacros = profile.archMacros;
        return guardReports(files, linkReq.guardTargets, !opts.noCache, progress, nullptr, extra);
      },
      [&](const std::vector<std::string> &files) { return runtimeCheckReports(files, false, !opts.noCache); },
      [&] {
        std::string error;
        auto images = binary::readShippedBinaries(linkReq.roots, error);
        if (!error.empty()) warnings.push_back(error);
        for (const auto &img : images)
          if (!img.error.empty()) warnings.push_back(img.error);
        return images;
      },
      [&] { return cmakeArchSets(linkReq.roots, opts.cuda.empty() ? table.defaultToolkit() : opts.cuda, warnings); });
  addCubinPools(lower.cubinPools, binary::readCubinPools(linkReq.roots, profile.cubins), req.targets);
  addCubinPools(lower.entryCubinPools, binary::readArtifactPools(linkReq.roots, cubinArtifacts(extracted.facts)),
                req.targets);
  addFamilyMarks(lower, kernelFamilies);
  addEnteredFamilies(lower, extracted.facts, req.backends, kernelFamilies);
  nameLikeTheTrees(lower, linkReq.roots);
  timer.lap("link", std::to_string(lower.entries.size()) + " compiled entries");
  result.matrix = buildMatrix(extracted.facts, req, &lower);
  timer.lap("matrix");
  result.lower = std::move(lower);
  result.facts = std::move(extracted.facts);
  result.families = profile.families;
  // What validate may compile for a backend: the profile's families and those
  // its linked code shows (a marker read in one module of several does not
  // take the others' families away).
  auto addFamilies = [&](const std::string &backend, const std::vector<FamilyMark> &marks) {
    auto &names = result.families[backend];
    for (const auto &m : marks)
      if (std::find(names.begin(), names.end(), m.family) == names.end()) names.push_back(m.family);
  };
  for (const auto &g : result.facts.guards)
    if (auto marks = result.lower.entryFamilies.find(g.entry);
        g.kind == GuardFact::Kind::Calls && !g.backend.empty() && marks != result.lower.entryFamilies.end())
      addFamilies(g.backend, marks->second);
  for (const auto &[backend, marks] : result.lower.backendFamilies) addFamilies(backend, marks);
  result.archMacros = profile.archMacros;
  result.quantFlags = {quant->flags.begin(), quant->flags.end()};
  result.roots.push_back(engineRoot.string());
  for (const auto &w : withPaths) result.roots.push_back(w);
  result.matrix.trees = infos;
  for (auto &w : warnings) result.matrix.warnings.insert(result.matrix.warnings.begin(), w);
  // lint reads the other layers of such a tree, and diff may meet a revision
  // before the dispatch existed; for the rest, a tree without backend rows has
  // nothing to show, whatever capability predicates it defines.
  bool needsRows = opts.command != "lint" && opts.command != "diff";
  if (req.backends.empty() && needsRows) {
    auto predicates = result.facts.predicates.size();
    std::string seen;
    if (predicates)
      seen = std::to_string(predicates) + (predicates == 1 ? " capability predicate" : " capability predicates") +
             " but ";
    throw inputError("no recognisable MoE dispatch in '" + engineRoot.string() + "': " + seen +
                         "no backend enum, selector, oracle or kernel entry point of " + quant->name + " found",
                     "give an engine checkout, an installed engine, or a kernel library; --profile FILE names the "
                     "rows (docs/profiles.md)");
  }
  if (req.backends.empty())
    result.matrix.warnings.push_back("no backends found: no backend enum and no profile rows "
                                     "(is this an inference engine tree?)");
  return result;
}

} // namespace archscope
