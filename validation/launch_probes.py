#!/usr/bin/env python3
"""Launches the NVFP4 MoE probe kernels on the GPU of this machine.

Runs where a GPU and the CUDA toolkit are, with nothing else installed (no
archscope build needed): for each kernel family whose instructions the GPU
has, builds kernels/probe/main.cu for it with nvcc, runs it on the issue's
shapes (fresh random inputs each run, output poisoned before each launch,
compared with the fp64 host reference), and writes an archscope results
file that `archscope validate --merge FILE` reads on any machine.

    python3 validation/launch_probes.py -o h200.json [--families w4a16,reference]
                                        [--tokens 1,8,32,256,4096] [--quick]

Build target per family: the GPU's arch-specific target (sm_XXa, written
-gencode=arch=compute_XXa,code=sm_XXa) where the family needs it
(mma-blockscale, tcgen05) or has a faster path for it (w4a16 on CC 9.0: the
wgmma kernels exist only in sm_90a code; a plain sm_90 build runs its
mma.sync fallback); otherwise -arch=sm_XX. A probe already in --build-dir
that was built by the same command from the same sources (a .stamp file
beside it holds both) is reused, so a machine with little time can carry a
build made elsewhere; --rebuild ignores it. The results keep `target` = the
GPU's target (what archscope validate matches); `build_target`, `config`
(the tile configuration the launcher ran, w4a16) and `detail` say what ran.

Exit 0: every launch matched; 1: a launch was wrong; 77: SKIP (no GPU, or no
family runs on it); 2: usage or build error.
"""
import argparse
import hashlib
import json
import pathlib
import platform
import shutil
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
FAMILIES = {"reference": "reference", "w4a16": "w4a16", "mma-blockscale": "mma_blockscale", "tcgen05": "tcgen05"}
ARCH_SPECIFIC = {"mma-blockscale", "tcgen05"}  # their instructions need an sm_XXa build
# Families with a faster path in the arch-specific code of some GPUs (compute capability x 10):
# w4a16's wgmma kernels (sm_90a) run only from an sm_90a build.
ARCH_SPECIFIC_BENEFITS = {"w4a16": {90}}
SHAPES = [(7168, 2048, 256, 8), (4096, 1536, 128, 8)]  # (H, I, E, top-k): DeepSeek-like and a smaller MoE
QUICK_SHAPES = [(1024, 512, 16, 4)]


def gpu():
    smi = shutil.which("nvidia-smi")
    if not smi:
        return None
    run = subprocess.run([smi, "--query-gpu=compute_cap,name,driver_version", "--format=csv,noheader"],
                         capture_output=True, text=True)
    if run.returncode != 0 or not run.stdout.strip():
        return None
    cc, name, driver = [x.strip() for x in run.stdout.splitlines()[0].split(",")]
    major, minor = cc.split(".")
    return {"sm": int(major) * 10 + int(minor), "name": name, "driver": driver}


def toolkit(nvcc):
    out = subprocess.run([nvcc, "--version"], capture_output=True, text=True).stdout
    return out.split("release ")[1].split(",")[0] if "release " in out else "unknown"


def build_target(family, sm):
    """The target a family is built for on a GPU of compute capability sm / 10."""
    specific = family in ARCH_SPECIFIC or sm in ARCH_SPECIFIC_BENEFITS.get(family, set())
    return f"sm_{sm}a" if specific else f"sm_{sm}"


def sources_digest():
    """sha256 over every file the probes compile from (kernels/**), names and contents."""
    digest = hashlib.sha256()
    for path in sorted((ROOT / "kernels").rglob("*")):
        if path.is_file() and path.suffix in (".cu", ".cuh", ".h", ".cpp"):
            digest.update(str(path.relative_to(ROOT)).encode() + b"\0" + path.read_bytes() + b"\0")
    return digest.hexdigest()


def stamp_key(cmd):
    """What a reusable probe must have been built from: the nvcc command (compiler and output by
    name, sources relative to the repository) and the sources' digest."""
    last = len(cmd) - 1
    words = [pathlib.Path(c).name if i in (0, last) else c.replace(str(ROOT), ".") for i, c in enumerate(cmd)]
    return json.dumps({"command": words, "sources": sources_digest()})


def build(nvcc, family, sm, outdir, rebuild=False):
    """Returns (executable, build target, how: 'built' / 'reused', error)."""
    arch = build_target(family, sm)
    # The arch-specific target as -gencode: the -arch=sm_XXa shorthand also runs a plain
    # sm_XX pass on some nvcc versions, which rejects the arch-specific instructions.
    target = f"-gencode=arch=compute_{arch[3:]},code={arch}" if arch.endswith("a") else f"-arch={arch}"
    exe = outdir / f"probe_{FAMILIES[family]}_{arch}"
    cmd = [nvcc, "-O3", "-std=c++17", target, f"-DARCHSCOPE_FAMILY={FAMILIES[family]}",
           str(ROOT / "kernels/probe/main.cu"), str(ROOT / "kernels/common/moe_problem.cpp"), "-o", str(exe)]
    stamp = exe.with_suffix(".stamp")
    key = stamp_key(cmd)
    if not rebuild and exe.exists() and stamp.exists() and stamp.read_text() == key:
        return exe, arch, "reused", ""
    stamp.unlink(missing_ok=True)
    run = subprocess.run(cmd, capture_output=True, text=True)
    if run.returncode != 0:
        return None, arch, "", f"nvcc failed for {family} on {arch}: {run.stderr[-600:]}"
    stamp.write_text(key)
    return exe, arch, "built", ""


def launch(exe, shape, tokens):
    h, i, e, k = shape
    cmd = [str(exe), "--hidden", str(h), "--inter", str(i), "--experts", str(e), "--topk", str(k),
           "--sweep", ",".join(map(str, tokens)), "--iters", "5"]
    run = subprocess.run(cmd, capture_output=True, text=True)
    lines = [json.loads(l) for l in run.stdout.splitlines() if l.startswith("{")]
    return run.returncode, lines, run.stderr


def record(family, sm, line, info, tk, arch):
    s = line.get("shape", {})
    config = line.get("config")
    ran = f"; tile configuration {config}" if config else ""
    return {"kind": "launch", "family": family, "target": f"sm_{sm}",
            "verdict": "launched-ok" if line.get("pass") else "launched-wrong",
            "shape": f"T={s.get('tokens')} H={s.get('hidden')} I={s.get('inter')} E={s.get('experts')} k={s.get('topk')}",
            "device": line.get("device", info["name"]), "driver": info["driver"], "toolkit": tk,
            "machine": platform.node(), "max_rel_err": line.get("max_rel_err"),  # null: not finite
            "bound": line.get("bound"), "ms": line.get("ms"), "build_target": arch, "config": config,
            "detail": f"built for {arch}{ran}; checked {line.get('checked_tokens')} tokens against the fp64 reference"}


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("-o", "--output", required=True)
    ap.add_argument("--families", default=",".join(FAMILIES))
    ap.add_argument("--tokens", default="1,8,32,256,4096")
    ap.add_argument("--quick", action="store_true", help="one small shape (a smoke test)")
    ap.add_argument("--build-dir", default=str(ROOT / "build" / "probes"))
    ap.add_argument("--rebuild", action="store_true", help="build even where a matching probe is in --build-dir")
    args = ap.parse_args()
    families = [f for f in args.families.split(",") if f]
    unknown = [f for f in families if f not in FAMILIES]
    if unknown:
        print(f"unknown family {unknown[0]}; known: {', '.join(FAMILIES)}", file=sys.stderr)
        return 2
    info, nvcc = gpu(), shutil.which("nvcc") or "/usr/local/cuda/bin/nvcc"
    if info is None:
        print("SKIP: no GPU on this machine (nvidia-smi finds none): nothing launched", file=sys.stderr)
        return 77
    if not pathlib.Path(nvcc).exists():
        print("SKIP: no nvcc: the probes cannot be built here", file=sys.stderr)
        return 77
    tk, outdir = toolkit(nvcc), pathlib.Path(args.build_dir)
    outdir.mkdir(parents=True, exist_ok=True)
    tokens = [int(t) for t in args.tokens.split(",")]
    results, wrong, ran = [], False, False
    for family in families:
        exe, arch, how, error = build(nvcc, family, info["sm"], outdir, args.rebuild)
        if exe is None:
            print(f"{family}: not built: {error}", file=sys.stderr)
            if family not in ARCH_SPECIFIC:
                return 2
            continue  # the GPU lacks the instructions: ptxas refused the a-target build
        print(f"{family}: {how} {exe.name} for {arch} on {info['name']} (sm_{info['sm']})", flush=True)
        for shape in (QUICK_SHAPES if args.quick else SHAPES):
            rc, lines, err = launch(exe, shape, tokens)
            if rc == 77:
                print(f"{family}: SKIP: {err.strip()}", file=sys.stderr)
                break
            if rc not in (0, 1):
                print(f"{family}: probe failed ({rc}): {err.strip()}", file=sys.stderr)
                return 2
            ran = True
            for line in lines:
                results.append(record(family, info["sm"], line, info, tk, arch))
                wrong = wrong or not line.get("pass")
                print(f"{family:15} {results[-1]['shape']:34} {line.get('config') or '-':12} err {line.get('max_rel_err')} "
                      f"bound {line.get('bound')} {'PASS' if line.get('pass') else 'FAIL'} {line.get('ms'):.4f} ms",
                      flush=True)
    pathlib.Path(args.output).write_text(json.dumps({"archscope_results": 1, "results": results}, indent=2) + "\n")
    if not ran:
        print("SKIP: no kernel family runs on this GPU", file=sys.stderr)
        return 77
    return 1 if wrong else 0


if __name__ == "__main__":
    sys.exit(main())
