#!/usr/bin/env python3
"""archscope on the real engine trees of shared/reference/engines.md.

Needs ARCHSCOPE_CORPUS, a folder holding checkouts named
  sglang                    modal-projects/sglang @ 8905cbd
  vllm                      local-inference-lab/vllm @ 28be48f
  flashinfer-0.6.14         flashinfer-ai/flashinfer @ v0.6.14 (SGLang's pin)
  flashinfer-0.6.11.post2   flashinfer-ai/flashinfer @ v0.6.11.post2 (vLLM's pin)
and, optionally, the TRT-LLM-gen cubin pool of vLLM's pin:
  flashinfer-cubin-0.6.11.post2  flashinfer-cubin==0.6.11.post2 wheel, unzipped (its
                            flashinfer_cubin/*.py, which name the package, and its
                            flashinfer_cubin/cubins/*/batched_gemm-* folder are enough)
optionally FlashInfer audited alone where its MoE module is chosen by a
capability string (get_cutlass_fused_moe_module(backend="120")):
  flashinfer-fb28d72        flashinfer-ai/flashinfer @ fb28d7242 (master, 0.6.18)
and installed engines:
  site-packages             sglang==0.5.23 and flashinfer-python==0.7.2.post1 wheels,
                            unzipped into one folder (pip download --no-deps, unzip)
  site-vllm                 vllm==0.34.0 and flashinfer-python==0.7.2.post1 wheels, the same way
and, for the lint, the CMake files a torch wheel ships:
  torch-2.9.1               torch==2.9.1 wheel, its torch/share/cmake unzipped
Without it the test says SKIP and exits 77 (CTest reports it skipped).
With ARCHSCOPE_CORPUS_LINT=1 it also lints the trees (a minute or two each)
and checks the findings read as true by hand, and the false ones fixed.
The cells checked are the ones verified by reading the engines' code; each
names the line that decides it.
"""
import json
import os
import pathlib
import subprocess
import sys
import time

TARGETS = "sm_90,sm_100,sm_103,sm_110,sm_120,sm_121"

# (backend, target) -> (verdict, picked or None, the deciding source line)
SGLANG = {
    ("flashinfer_trtllm", "sm_90"): ("rejected", None, "modelopt_quant.py:1904 not is_blackwell_supported()"),
    ("flashinfer_trtllm", "sm_100"): ("supported", None, "dispatch admits; cubins not read yet"),
    ("flashinfer_trtllm", "sm_110"): ("rejected", None, "compilation_context.py:95 no arch of majors [10, 12]"),
    ("flashinfer_cutlass", "sm_110"): ("supported", None, "gen_cutlass_fused_moe_sm100_module majors [10, 11, 12]"),
    ("flashinfer_cutlass", "sm_90"): ("rejected", None, "modelopt_quant.py:1904"),
    ("flashinfer_cutedsl", "sm_103"): ("supported", None, "CuteDslMoEWrapper declares [100, 103]"),
    ("flashinfer_cutedsl", "sm_120"): ("crash-risk", None, "cute_dsl/fused_moe.py:365 declared, not enforced"),
    ("flashinfer_cutedsl", "sm_110"): ("crash-risk", None, "cute_dsl/fused_moe.py:365"),
    ("marlin", "sm_90"): ("supported", None, "use_marlin_fallback = is_marlin()"),
    ("flashinfer_trtllm_routed", "sm_110"): ("rejected", None, "compilation_context.py:95, as flashinfer_trtllm"),
    ("flashinfer_trtllm_routed", "sm_120"): ("crash-risk", None, "tcgen05 kernels (profile families)"),
    ("triton", "sm_100"): ("rejected", None, "modelopt_quant.py:2621 apply: no NVFP4 path for triton"),
    ("triton", "sm_120"): ("rejected", None, "modelopt_quant.py:2621"),
    ("auto", "sm_90"): ("supported", "marlin", "modelopt_quant.py:2437 (8, 0) <= cap < (10, 0)"),
    ("auto", "sm_100"): ("supported", "flashinfer_trtllm", "modelopt_quant.py:2442"),
    ("auto", "sm_110"): ("rejected", "flashinfer_trtllm", "auto picks TRT-LLM on Thor; its JIT has no sm_110"),
    ("auto", "sm_120"): ("supported", "flashinfer_cutlass", "overrides.py:2003 modelopt_fp4 on SM120"),
    ("auto", "sm_121"): ("supported", "flashinfer_cutlass", "is_sm120_supported is major 12"),
}
VLLM = {
    ("flashinfer_trtllm", "sm_120"): ("rejected", None, "trtllm_nvfp4_moe.py:88 family(100) only"),
    ("flashinfer_trtllm", "sm_103"): ("supported", None, "family(100)"),
    ("flashinfer_cutlass", "sm_110"): ("rejected", None, "flashinfer_cutlass_moe.py:125 SM110 excluded"),
    ("flashinfer_cutlass", "sm_121"): ("supported", None, "family(120)"),
    ("b12x", "sm_121"): ("supported", None, "b12x_moe.py:338 family(120) and _has_b12x()"),
    ("b12x", "sm_100"): ("rejected", None, "b12x_moe.py:338"),
    ("auto", "sm_120"): ("supported", "b12x", "oracle/nvfp4.py:168 B12X first"),
    ("auto", "sm_100"): ("supported", "flashinfer_trtllm", "second candidate"),
    ("flashinfer_cutlass", "sm_90"): ("rejected", None, "flashinfer_cutlass_moe.py:176 NVFP4 scheme needs 10.0+"),
    ("vllm_cutlass", "sm_90"): ("rejected", None, "cutlass_moe.py:683 families 100/110/120"),
    ("auto", "sm_90"): ("supported", "marlin", "modelopt.py:1584 NVFP4 keys: FlashInferExperts refuses 9.0"),
}
FLASHINFER_ALONE = {
    ("flashinfer_cutlass", "sm_100"): ("supported", None, "core.py:567 backend in (\"100\", \"107\", \"110\") -> sm100 module"),
    ("flashinfer_cutlass", "sm_120"): ("supported", None, "core.py backend in (\"120\", \"121\") -> sm120 module"),
    ("flashinfer_cutlass", "sm_121"): ("supported", None, "sm120 module"),
    ("flashinfer_trtllm", "sm_120"): ("crash-risk", None, "batched_gemm_runner.cu CudaArch::Sm100a: tcgen05"),
    ("flashinfer_b12x", "sm_121"): ("supported", None, "b12x MoE: sm_12x"),
}

# (rule, path suffix:line) -> why; LINT_ABSENT: findings that were false and must stay gone.
LINT_PRESENT = {
    "vllm": {("exact-arch-equality", "csrc/quantization/marlin/marlin.cu:403"): "FP8 path: == 120 refuses 12.1",
             ("arch-specific-only-build", "docker/Dockerfile:386"): "DeepEP built for '9.0a 10.0a': no B300",
             ("release-arch-gap", ".buildkite/release-pipeline.yaml:72"): "cu129 wheel: no 10.3a/12.1a kernels (bug 7)",
             ("smem-over-device-limit", "include/flashinfer/fast_topk_clusters_exact.cuh:557"): "227 KiB on sm_12x"},
    "sglang": {("dispatch-allows-unbuilt", "flashinfer/fused_moe/core.py:3906"): "TRT-LLM-gen (tcgen05) on sm_12x",
               ("allowlist-not-enforced", "flashinfer/fused_moe/cute_dsl/fused_moe.py:365"): "[100, 103] unchecked",
               ("arch-specific-only-build", "sgl-kernel/Dockerfile:31"): "FlashInfer AOT '10.0a 12.0a': no 10.3, 12.1",
               ("closed-arch-table", "srt/multiplex/pdmux_context.py:67"): "majors 6-9 then raise (bug 19)",
               ("toolkit-gated-flag", "flashinfer/jit/fp4_quantization.py:50"): "-DENABLE_FP4 on CUDA >= 12.8 (bug 20)"},
}
LINT_ABSENT = {
    "vllm": {("exact-arch-equality", "csrc/moe/marlin_moe_wna16/ops.cu:449"): "FP8 path admits all of 12.x on purpose",
             ("exact-arch-equality", "csrc/cutlass_extensions/common.hpp:118"):
                 "bug 4's enable_sm120_only: no user since its fix (06d020bb6), a note"},
}
TORCH_LINT_PRESENT = {
    ("arch-string-mangle", "FindCUDA/select_compute_arch.cmake:141"): "\"2.1\" -> \"2.1(2.0)\" hits 12.1 (bug 5)",
}


# The released packages (sglang 0.5.23 + flashinfer-python 0.7.2.post1
# unzipped into one folder, no profile fitted to them), cells read off the
# installed code.
INSTALLED = {
    ("auto", "sm_90"): ("supported", "marlin", "modelopt_quant.py:3119 (8, 0) <= cap < (10, 0)"),
    ("auto", "sm_100"): ("supported", "flashinfer_trtllm", "modelopt_quant.py:3123 TRT-LLM by default"),
    ("auto", "sm_110"): ("supported", "flashinfer_cutlass", "overrides.py:1516 modelopt_fp4 on is_sm110"),
    ("auto", "sm_120"): ("supported", "flashinfer_cutlass", "overrides.py:1516 modelopt_fp4 on is_sm120"),
    ("auto", "sm_121"): ("supported", "flashinfer_cutlass", "is_sm120_supported is major 12"),
    ("flashinfer_trtllm", "sm_100"): ("supported", None, "trtllm-gen MoE is SM100-family"),
    ("flashinfer_trtllm", "sm_110"): ("rejected", None, "compilation_context.py:161 no arch of its majors"),
    ("flashinfer_cutlass", "sm_120"): ("supported", None, "get_cutlass_fused_moe_module(device_arch)"),
    ("flashinfer_cutedsl", "sm_120"): ("crash-risk", None, "cute_dsl/fused_moe.py:942 [100, 103, 107] declared only"),
    ("flashinfer_cutedsl", "sm_103"): ("supported", None, "cute_dsl/fused_moe.py:942"),
    ("marlin", "sm_90"): ("supported", None, "modelopt_quant.py:2381 use_marlin_fallback = is_marlin()"),
    ("marlin", "sm_120"): ("supported", None, "Muse Spark's SP-prefill raise is about that mode, not the GPU"),
    ("cutlass", "sm_120"): ("rejected", None, "modelopt_quant.py:3145 not for NVFP4 (MegaMoE off by default)"),
    ("triton", "sm_100"): ("rejected", None, "modelopt_quant.py:3205 assert, else :3366 unsupported runner"),
}
# Rows only the code names (the profile lists the NVIDIA backends alone).
INSTALLED_CODE_ROWS = {
    ("aiter", "sm_120"): ("rejected", None, "moe_runner/aiter.py imports AMD's aiter"),
    ("ascend", "sm_100"): ("rejected", None, "moe_runner/ascend.py imports hardware_backend.npu"),
    ("hpc_ops", "sm_100"): ("rejected", None, "runner.py:155 SM90 only, :65 raises first where it holds"),
    ("lora_marlin", "sm_120"): ("supported", None, "create_moe_runner returns for LoRA: apply never runs"),
}
# vllm==0.34.0 and flashinfer-python==0.7.2.post1 wheels unzipped into one
# folder: the candidate list is reordered per GPU before the oracle walks it.
SITE_VLLM = {
    ("auto", "sm_90"): ("supported", "humming", "nvfp4.py:248 prioritize_humming: humming ahead of marlin on 9.0"),
    ("auto", "sm_100"): ("supported", "flashinfer_trtllm", "nvfp4.py:239 first candidate, family(100)"),
    ("auto", "sm_110"): ("supported", "marlin", "humming is put first on 9.0 only (priority.py:11)"),
    ("auto", "sm_120"): ("supported", "flashinfer_cutlass", "nvfp4.py:235 B12X left out of auto; cutlass family(120)"),
    ("auto", "sm_121"): ("supported", "flashinfer_cutlass", "family(120)"),
    ("flashinfer_cutlass", "sm_90"): ("rejected", None, "flashinfer_cutlass_moe.py:186 NVFP4 needs 10.0+"),
    ("flashinfer_cutlass", "sm_110"): ("rejected", None, "flashinfer_cutlass_moe.py:142 SM110 excluded"),
    ("flashinfer_trtllm", "sm_120"): ("rejected", None, "trtllm_nvfp4_moe.py:232 family(100) only"),
}


def lint(binary, engine, dep):
    cmd = [binary, "lint", str(engine), "--format", "json", "-q"] + (["--with", str(dep)] if dep else [])
    r = subprocess.run(cmd, capture_output=True, text=True, timeout=1200)
    if r.returncode not in (0, 1):
        raise SystemExit(f"FAIL archscope lint exited {r.returncode} on {engine}: {r.stderr}")
    return {(f["rule"], f"{f['location']['path']}:{f['location']['line']}") for f in json.loads(r.stdout)["findings"]}


def check_lint(name, found, present=None):
    failures = 0
    def has(rule, where):
        return any(r == rule and p.endswith(where) for r, p in found)
    for (rule, where), why in (present or LINT_PRESENT.get(name, {})).items():
        ok = has(rule, where)
        failures += not ok
        print(f"  {'ok  ' if ok else 'FAIL'} {name} lint {rule} at {where} ({why})")
    for (rule, where), why in LINT_ABSENT.get(name, {}).items():
        ok = not has(rule, where)
        failures += not ok
        print(f"  {'ok  ' if ok else 'FAIL'} {name} lint: no {rule} at {where} ({why})")
    return failures


def audit(binary, engine, dep, extra=()):
    start = time.monotonic()
    cmd = [binary, "audit", str(engine), "--targets", TARGETS, "--format", "json", "-q", *extra]
    if dep:
        cmd += ["--with", str(dep)]
    r = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
    if r.returncode != 0:
        raise SystemExit(f"FAIL archscope exited {r.returncode} on {engine}: {r.stderr}")
    return json.loads(r.stdout), time.monotonic() - start


def check(name, doc, expected):
    cells = {(c["backend"], c["target"]): c for c in doc["cells"]}
    failures = 0
    for key, (verdict, picked, why) in expected.items():
        c = cells.get(key)
        ok = c is not None and c["verdict"] == verdict and (picked is None or c.get("picked") == picked)
        failures += not ok
        got = "missing" if c is None else f"{c['verdict']} {c.get('picked', '')}"
        print(f"  {'ok  ' if ok else 'FAIL'} {name} {key[0]} {key[1]}: {got} (expected {verdict} {picked or ''}; {why})")
    unresolved = [p["name"] for p in doc["predicates"] if p["condition"].startswith("unknown(")]
    print(f"  {name}: {len(doc['predicates'])} predicates, {len(unresolved)} not resolved: {unresolved}")
    return failures


def check_without_profile(binary, name, tree, expected):
    """No profile is fitted to an installed engine either: the same cells from the code alone."""
    doc, seconds = audit(binary, tree, None, ["--no-profile"])
    print(f"{name} --no-profile: audited in {seconds:.2f} s")
    return check(f"{name} --no-profile", doc, expected)


def main():
    corpus = os.environ.get("ARCHSCOPE_CORPUS")
    if not corpus:
        print("SKIP corpus/real-engines: ARCHSCOPE_CORPUS is not set (see tests/corpus/test_corpus.py)")
        return 77
    root, binary = pathlib.Path(corpus), sys.argv[1]
    failures = 0
    for name, engine, dep, expected in [("sglang", "sglang", "flashinfer-0.6.14", SGLANG),
                                        ("vllm", "vllm", "flashinfer-0.6.11.post2", VLLM)]:
        if not (root / engine).is_dir() or not (root / dep).is_dir():
            print(f"SKIP corpus/real-engines: {root / engine} or {root / dep} is missing")
            return 77
        doc, seconds = audit(binary, root / engine, root / dep)
        print(f"{name}: audited in {seconds:.2f} s")
        failures += check(name, doc, expected)
        if os.environ.get("ARCHSCOPE_CORPUS_LINT") == "1":
            failures += check_lint(name, lint(binary, root / engine, root / dep))
    cubins = root / "flashinfer-cubin-0.6.11.post2"
    if (cubins / "flashinfer_cubin").is_dir():
        # The TRT-LLM-gen cubin pool vLLM's pin loads: 1516 sm_100f cubins, so
        # 10.0 and 10.3 have them (the binary layer in the chain).
        start = time.monotonic()
        cmd = [binary, "audit", str(root / "vllm"), "--with", str(root / "flashinfer-0.6.11.post2"), "--with",
               str(cubins), "--targets", TARGETS, "--format", "json", "-q"]
        doc = json.loads(subprocess.run(cmd, capture_output=True, text=True, timeout=300).stdout)
        print(f"vllm + flashinfer-cubin 0.6.11.post2: audited in {time.monotonic() - start:.2f} s")
        for target in ("sm_100", "sm_103"):
            cell = next(c for c in doc["cells"] if c["backend"] == "flashinfer_trtllm" and c["target"] == target)
            ok = cell["verdict"] == "supported" and any(e.get("layer") == "binary" for e in cell["evidence"])
            failures += not ok
            print(f"  {'ok  ' if ok else 'FAIL'} vllm flashinfer_trtllm {target}: {cell['verdict']} with the cubin pool")
    master = root / "flashinfer-fb28d72"
    if (master / "flashinfer").is_dir():
        # Audited alone: the capability string picks the module, so a
        # parameter named `backend` is not the backend row (issue 21).
        doc, seconds = audit(binary, master, None)
        print(f"flashinfer fb28d72 alone: audited in {seconds:.2f} s")
        failures += check("flashinfer", doc, FLASHINFER_ALONE)
    installed = root / "site-packages"
    if (installed / "sglang").is_dir() and (installed / "flashinfer").is_dir():
        # The released packages: the verified cells hold and every judged
        # cell is decided.
        doc, seconds = audit(binary, installed, None)
        print(f"site-packages (sglang 0.5.23 + flashinfer 0.7.2.post1): audited in {seconds:.2f} s")
        failures += check("installed", doc, INSTALLED)
        rows = ("flashinfer_trtllm", "flashinfer_cutlass", "flashinfer_cutedsl", "marlin")
        undecided = [(c["backend"], c["target"]) for c in doc["cells"]
                     if c["backend"] in rows and c["verdict"] == "unknown"]
        print(f"  {'ok  ' if not undecided else 'FAIL'} installed: undecided cells {undecided}")
        failures += len(undecided)
        failures += check_without_profile(binary, "installed", installed, {**INSTALLED, **INSTALLED_CODE_ROWS})
    site_vllm = root / "site-vllm"
    if (site_vllm / "vllm").is_dir():
        doc, seconds = audit(binary, site_vllm, None)
        print(f"site-vllm (vllm 0.34.0 + flashinfer 0.7.2.post1): audited in {seconds:.2f} s")
        failures += check("site-vllm", doc, SITE_VLLM)
        failures += check_without_profile(binary, "site-vllm", site_vllm, SITE_VLLM)
    torch = root / "torch-2.9.1"
    if os.environ.get("ARCHSCOPE_CORPUS_LINT") == "1" and (torch / "torch").is_dir():
        failures += check_lint("torch", lint(binary, root / "vllm", torch / "torch"), TORCH_LINT_PRESENT)
    print(f"{'PASS' if not failures else 'FAIL'} corpus/real-engines: {failures} cells differ")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
