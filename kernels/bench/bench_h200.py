#!/usr/bin/env python3
"""Build the NVFP4 MoE probe, check it, and benchmark it against this GPU's ceilings.

Run from the repository root on a machine with an NVIDIA GPU, nvcc and PyTorch:
    python3 kernels/bench/bench_h200.py [--out DIR] [--families reference,w4a16] [--tune 'CONFIG:T,T;...']
        [--ncu 'SHAPE:T[:CONFIG[:stalls]];...'] [--prebuilt DIR]
1. Builds kernels/probe/main.cu once per family (nvcc -gencode=arch=compute_90a,code=sm_90a by
   default: the w4a16 wgmma path needs sm_90a code), or takes DIR/probe_<family> from --prebuilt
   when that binary runs here.
2. Measures, in this same run, the device-to-device copy bandwidth (torch copy of a
   4 GiB buffer, counting bytes read plus written) and the dense bf16 matmul rate
   (torch, 8192^3, random data), each the median of 10 timed repeats after warm-up.
3. Checks correctness on small odd shapes (one process per shape: the default and every
   w4a16 tile configuration forced, each on fresh inputs of that shape's one seed), each
   shape twice: plain, and with --quiet-blocks (zero and subnormal block scales in the even
   experts, which take the kernels' exact scale decoders).
4. Runs both benchmark shapes x T in {1, 8, 32, 256, 4096} (one probe process per
   family and shape: the weights are generated once and the T values are prefixes)
   and prints the table. Weight bandwidth counts only the routed experts' bytes
   (e2m1 + ue4m3); TFLOP/s counts 2 * T * k * 3 * H * I.
5. --tune times forced configurations (a configuration name: in the same process as
   step 4, on the same weights, 20 launches, 64 checked tokens; NAME=VALUE: an
   environment variable, a process of its own, 8 checked tokens); --ncu profiles the
   two GEMMs of one launch.
Raw JSON lines and logs go to --out (default $OUT or ./bench-out).
"""
import argparse
import json
import os
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor

SHAPES = {"deepseek": dict(hidden=7168, inter=2048, experts=256, topk=8),
          "qwen-like": dict(hidden=4096, inter=1536, experts=128, topk=8)}
TOKENS = [1, 8, 32, 256, 4096]
ITERS = {"reference": 2, "w4a16": 20}
W4A16_CONFIGS = ["decode", "decode-deep", "medium", "prefill", "wgmma", "wgmma-2cta", "wgmma-ws", "wgmma-medium",
                 "wgmma-small", "wgmma-160", "decode-k2", "gemv"]
SMALL_CASES = [  # (tokens, hidden, inter, experts, topk): odd sizes, ragged tiles
    (1, 64, 64, 4, 1), (3, 192, 320, 7, 3), (37, 256, 128, 16, 4), (300, 512, 192, 12, 2), (700, 1024, 512, 64, 6),
    # many pairs per expert: several wgmma tiles per expert (N up to 256), H % 128 == 64
    (400, 448, 128, 3, 2), (1200, 320, 192, 4, 2)]


def build(family, arch, out_dir, prebuilt=""):
    binary = os.path.join(out_dir, f"probe_{family}")
    if prebuilt:  # a binary built elsewhere with the same command: used if it runs here
        candidate = os.path.join(prebuilt, f"probe_{family}")
        if os.path.exists(candidate):
            ok = subprocess.run([candidate, "--tokens", "1", "--hidden", "64", "--inter", "64", "--experts", "4",
                                 "--topk", "1"], capture_output=True, text=True, timeout=60).returncode
            if ok == 0:
                print(f"using prebuilt {candidate}", flush=True)
                return candidate
            print(f"prebuilt {candidate} did not run here (rc={ok}); building", flush=True)
    # An arch-specific target (sm_90a) as -gencode: the wgmma path needs sm_90a code (HOPPER.md).
    target = (f"-gencode=arch=compute_{arch[3:]},code={arch}" if arch.endswith("a") else f"-arch={arch}")
    cmd = ["nvcc", "-std=c++17", "-O3", target, f"-DARCHSCOPE_FAMILY={family}",
           "kernels/probe/main.cu", "kernels/common/moe_problem.cpp", "-o", binary]
    done = subprocess.run(cmd, capture_output=True, text=True)
    if done.returncode != 0:
        sys.exit(f"build of {family} failed:\n{done.stderr}")
    return binary


def run_probe(binary, shape, sweep, iters, env_extra=None, check_tokens=64, log=None, timeout=180, also=(),
              extra_args=()):
    """One probe process: the sweep with the default configuration, plus `also` = [(config, [T, ...])]
    forced w4a16 configurations on the same weights (the probe's --also)."""
    cmd = [binary, "--hidden", str(shape["hidden"]), "--inter", str(shape["inter"]),
           "--experts", str(shape["experts"]), "--topk", str(shape["topk"]),
           "--sweep", ",".join(map(str, sweep)), "--check-tokens", str(check_tokens), *extra_args]
    if iters:
        cmd += ["--iters", str(iters)]
    for config, at in also:
        cmd += ["--also", f"{config}:{','.join(map(str, at))}"]
    env = dict(os.environ, **(env_extra or {}))
    started = time.time()
    try:
        done = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=timeout)
    except subprocess.TimeoutExpired as timeout:
        if log:
            log.write(f"$ {' '.join(cmd)} TIMED OUT\n{timeout.stdout or ''}\n")
        return 124, []
    if log:
        log.write(f"$ {' '.join(cmd)} {env_extra or ''}  (rc={done.returncode}, {time.time() - started:.1f}s)\n")
        log.write(done.stdout + done.stderr)
        log.flush()
    rows = [json.loads(line) for line in done.stdout.splitlines() if line.startswith("{")]
    return done.returncode, rows


def run_ncu(binary, spec, out_dir):
    """ncu over the GEMM kernels of one checked launch (no timed iterations)."""
    parts = spec.split(":")
    name, tokens = parts[0], int(parts[1])
    shape = SHAPES[name]
    env = dict(os.environ)
    if len(parts) > 2 and parts[2]:
        env["ARCHSCOPE_W4A16_CONFIG"] = parts[2]
    stalls = len(parts) > 3 and parts[3] == "stalls"  # warp stall reasons and tensor pipe use instead of sections
    report = os.path.join(out_dir, f"ncu-{name}-{tokens}{'-stalls' if stalls else ''}.txt")
    what = (["--metrics", "regex:smsp__average_warps_issue_stalled_.*_per_issue_active\\.ratio,"
             "regex:sm__pipe_tensor_op.*cycles_active\\.avg\\.pct_of_peak_sustained_active,"
             "regex:sm__inst_executed_pipe_tensor_op.*\\.sum,gpu__time_duration.sum"] if stalls else
            ["--section", "SpeedOfLight", "--section", "ComputeWorkloadAnalysis", "--section", "MemoryWorkloadAnalysis",
             "--section", "LaunchStats", "--section", "Occupancy", "--section", "WarpStateStats",
             "--section", "InstructionStats"])
    cmd = ["ncu", "--clock-control", "none", "-k", "regex:moeGemm|gemv", "-c", "2"] + what + [
           binary, "--tokens", str(tokens), "--hidden", str(shape["hidden"]),
           "--inter", str(shape["inter"]), "--experts", str(shape["experts"]), "--topk", str(shape["topk"]),
           "--check-tokens", "1"]
    started = time.time()
    try:
        done = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=300)
        text = done.stdout + done.stderr
    except subprocess.TimeoutExpired as timeout:
        text = f"TIMED OUT\n{timeout.stdout or ''}"
    with open(report, "w") as f:
        f.write(f"$ {' '.join(cmd)}\n{text}")
    keys = ("moeGemm", "gemv", "Duration", "stalled", "pipe_tensor", "gpu__time", "ERROR", "rror", "Compute (SM) Throughput", "Memory Throughput", "L2 Cache Throughput",
            "DRAM Throughput", "Registers Per Thread", "Achieved Occupancy", "Issue Slots Busy",
            "Executed Ipc Active", "L1/TEX Hit Rate", "L2 Hit Rate", "Warp Cycles Per Issued Instruction")
    print(f"ncu {spec} ({time.time() - started:.0f}s):")
    for line in text.splitlines():
        if any(k in line for k in keys):
            print("   " + line.strip()[:150])


def median_ms(fn, repeats=10, warmup=3):
    import torch
    for _ in range(warmup):
        fn()
    times = []
    for _ in range(repeats):
        start, stop = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        start.record()
        fn()
        stop.record()
        torch.cuda.synchronize()
        times.append(start.elapsed_time(stop))
    return sorted(times)[len(times) // 2]


def measure_ceilings():
    import torch
    n = 1 << 32  # bytes
    src = torch.randint(0, 255, (n,), dtype=torch.uint8, device="cuda")
    dst = torch.empty_like(src)
    copy_ms = median_ms(lambda: dst.copy_(src))
    del src, dst
    m = 8192
    a = torch.randn(m, m, device="cuda", dtype=torch.bfloat16)
    b = torch.randn(m, m, device="cuda", dtype=torch.bfloat16)
    mm_ms = median_ms(lambda: a @ b)
    return {"copy_gbps": 2 * n / copy_ms / 1e6, "bf16_tflops": 2 * m ** 3 / mm_ms / 1e9,
            "device": torch.cuda.get_device_name(0)}


def check_small(binaries, log):
    """Each small case in one process: the default configuration, then (w4a16) every one forced; and
    again with --quiet-blocks (the even experts' weights have zero or subnormal block scales, which
    the kernels decode on their exact path), each line saying how many routed experts had such scales."""
    failures = []
    for family, binary in binaries.items():
        configs = W4A16_CONFIGS if family == "w4a16" else []
        for (t, h, i, e, k), quiet in [(case, q) for case in SMALL_CASES for q in (False, True)]:
            rc, rows = run_probe(binary, dict(hidden=h, inter=i, experts=e, topk=k), [t], 0, log=log,
                                 timeout=120, also=[(c, [t]) for c in configs],
                                 extra_args=["--quiet-blocks"] if quiet else [])
            expected = ["default"] + configs
            for n, name in enumerate(expected):
                row = rows[n] if n < len(rows) else None
                ok = bool(row and row.get("pass")) and (rc == 0 or rc == 1)
                err = row.get("max_rel_err") if row else None
                ran = row.get("config", "-") if row else "-"
                marked = f" exponent-0 scale experts={row.get('exponent_zero_scale_experts')}" if quiet and row else ""
                print(f"check {family:9s} {name:12s} ({ran:12s}) T={t:4d} H={h} I={i} E={e} k={k}"
                      f"{' quiet' if quiet else ''}: {'PASS' if ok else 'FAIL'} rc={rc} err={err}{marked}", flush=True)
                if not ok:
                    failures.append((family, name, t, h, i, e, k, quiet))
    return failures


def table_row(row, shape, ceilings):
    s = row["shape"]
    ms = row["ms"]
    gbps = row["routed_weight_bytes"] / ms / 1e6
    tflops = 2 * s["tokens"] * s["topk"] * 3 * s["hidden"] * s["inter"] / ms / 1e9
    return (f"{row['family']:9s} {shape:24s} {row.get('config', '-'):12s} {s['tokens']:5d} "
            f"{row['max_rel_err'] or float('nan'):10.2e} "
            f"{'PASS' if row['pass'] else 'FAIL':4s} {ms:9.4f} {row['routed_weight_bytes'] / 1e6:9.1f} "
            f"{gbps:8.0f} {100 * gbps / ceilings['copy_gbps']:6.1f}% {tflops:8.1f} "
            f"{100 * tflops / ceilings['bf16_tflops']:6.1f}%")


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--out", default=os.environ.get("OUT", "bench-out"))
    parser.add_argument("--families", default="reference,w4a16")
    parser.add_argument("--arch", default="sm_90a")
    parser.add_argument("--tune", default="", metavar="CONFIG:T,T;...",
                        help="also time forced w4a16 configs, e.g. 'medium:8,32;ARCHSCOPE_W4A16_PDL=0:1,8'")
    parser.add_argument("--ncu", default="", metavar="SHAPE:T[:CONFIG]",
                        help="also profile the w4a16 GEMMs of one launch with ncu (--clock-control none), "
                             "e.g. 'deepseek:4096'; the report goes to OUT/ncu-<shape>-<T>.txt")
    parser.add_argument("--skip-main", action="store_true", help="skip the main table (tuning runs only)")
    parser.add_argument("--prebuilt", default="", help="directory with probe_<family> built by the same command")
    args = parser.parse_args()
    os.makedirs(args.out, exist_ok=True)
    families = args.families.split(",")
    with ThreadPoolExecutor(len(families)) as pool:
        binaries = dict(zip(families, pool.map(lambda f: build(f, args.arch, args.out, args.prebuilt), families)))
    ceilings = measure_ceilings()
    print(f"ceilings on {ceilings['device']}: copy {ceilings['copy_gbps']:.0f} GB/s (read+write), "
          f"bf16 matmul {ceilings['bf16_tflops']:.0f} TFLOP/s", flush=True)
    log = open(os.path.join(args.out, "probe-log.txt"), "w")
    failures = check_small(binaries, log)

    # --tune: a configuration name runs in the main sweep's process (--also: same weights, same
    # checks); 'NAME=VALUE' sets that environment variable in a process of its own (A/B runs).
    tunes = [spec.split(":") for spec in filter(None, args.tune.split(";"))]
    also = [(config, [int(t) for t in sweep.split(",")]) for config, sweep in tunes if "=" not in config]
    results = []
    for family in ([] if args.skip_main else families):
        for name, shape in SHAPES.items():
            extra = also if family == "w4a16" else []
            sweep = sorted(set(TOKENS) | {t for _, at in extra for t in at}, reverse=True)
            rc, rows = run_probe(binaries[family], shape, sweep, ITERS[family], log=log, also=extra, timeout=600)
            # the probe prints, per T, the default run first, then the --also runs in order
            by_t = {}
            for row in rows:
                by_t.setdefault(row.get("shape", {}).get("tokens"), []).append(row)
            for t, group in by_t.items():
                for n, row in enumerate(group):
                    label = name if n == 0 else f"{name}/{row.get('config', '?')}"
                    if n == 0 and t not in TOKENS:
                        label = f"{name}/default"
                    results.append((label, row))
            if rc != 0:
                failures.append((family, name, rc))
    for config, sweep in tunes:
        if "=" not in config:
            continue
        for name, shape in SHAPES.items():
            _, rows = run_probe(binaries["w4a16"], shape, [int(t) for t in sweep.split(",")], 20,
                                dict([config.split("=", 1)]), check_tokens=8, log=log)
            results += [(f"{name}/{config}", row) for row in rows]

    for spec in filter(None, args.ncu.split(";")):
        run_ncu(binaries["w4a16"], spec, args.out)

    header = (f"{'family':9s} {'shape':24s} {'config':12s} {'T':>5s} {'max_rel_err':>10s} pass {'ms':>9s} {'wt MB':>9s} "
              f"{'GB/s':>8s} {'%copy':>7s} {'TFLOP/s':>8s} {'%bf16':>7s}")
    lines = [header] + [table_row(row, name, ceilings) for name, row in results if "ms" in row]
    with open(os.path.join(args.out, "bench.json"), "w") as f:
        json.dump({"ceilings": ceilings, "results": [dict(row, shape_name=n) for n, row in results],
                   "failures": failures}, f, indent=1)
    print("\n".join(lines))
    print(f"failures: {failures or 'none'}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
