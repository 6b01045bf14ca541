#!/usr/bin/env python3
"""Where the T = 1 GEMVs' time goes, warp by warp (one device call).

Copies kernels/ to a scratch directory, adds %globaltimer stamps to gemv.cuh's two kernels there
(lane 0 of every warp: gate/up start, k loop start, k loop end, k groups gathered; down start,
inputs ready, activations staged, k loop end) and a dump of the last launch's stamps at exit,
builds the probe from that copy, runs it (20 back-to-back MoEs after warm-up, as the benchmark
times them) and prints each stamp's spread in us from the first gate/up warp's start. The kernels
in the repository carry no instrumentation; each insertion fails loudly if gemv.cuh no longer has
the line it follows.

Usage (repository root, on the GPU machine):
    python3 kernels/bench/gemv_timeline.py [--shapes qwen-like,deepseek] [--config NAME[,NAME]] [--out DIR]
        [--prebuilt DIR]
    python3 kernels/bench/gemv_timeline.py --write-copy DIR   # the instrumented kernels/ only
--write-copy lets the probe be built on another machine (bench_h200.py's nvcc command, run in DIR)
and passed to --prebuilt, so the GPU machine's time is not spent compiling.
"""
import argparse
import os
import shutil
import struct
import sys
import tempfile

from bench_h200 import SHAPES, build, run_probe

SLOTS = 8192  # warps per kernel the dump holds
UP_STAMPS = ["start", "k-begin", "k-end", "gathered"]
DOWN_STAMPS = ["start", "ready", "staged", "k-end"]

PRELUDE = """namespace archscope::w4a16 {
__device__ unsigned long long gTraceUp[%d][4], gTraceDown[%d][4];
__device__ __forceinline__ unsigned long long globalTimer() {
  unsigned long long t;
  asm volatile("mov.u64 %%0, %%%%globaltimer;" : "=l"(t));
  return t;
}
#define STAMP(table, slot) \\
  if ((threadIdx.x & 31) == 0) \\
    table[(blockIdx.y * gridDim.x + blockIdx.x) * (C::THREADS / 32) + threadIdx.x / 32][slot] = globalTimer();
""" % (SLOTS, SLOTS)

# (text to find, text to put after it) in gemv.cuh
STAMPS = [
    ("namespace archscope::w4a16 {\n", None),  # replaced by PRELUDE
    ("gemvGateUp(GemvOperands op) {\n  waitPrimaryGrid();\n", "  STAMP(gTraceUp, 0)\n"),
    ("  stageZeros(op.K, xs);\n  __syncthreads();\n", "  STAMP(gTraceUp, 1)\n"),
    ("  if (hasRows) streamRowsFor<C, TAIL>(exact, rows, range, laneTiles, xs, ring, op.K, lane, buf, acc);\n",
     "  STAMP(gTraceUp, 2)\n"),
    ("group, warp, row, lane, gate, up);\n", "  STAMP(gTraceUp, 3)\n"),
    ("own their rows\");\n", "  STAMP(gTraceDown, 0)\n"),
    ("  waitPrimaryGrid(); // the activations, and `out` cleared\n", "  STAMP(gTraceDown, 1)\n"),
    ("  stageRow<false>(op.x + size_t(pair) * op.K, op.K, xs);\n  __syncthreads();\n", "  STAMP(gTraceDown, 2)\n"),
    ("  addKHalves(acc, g, top, bottom);\n  if (gemvLaneWrites(lane)) {\n", "    STAMP(gTraceDown, 3)\n"),
]

# A function-local static in the launcher: built after the CUDA runtime, so destroyed before it.
DUMP = """  struct TimelineDump {
    ~TimelineDump() {
      static unsigned long long up[%d][4], down[%d][4];
      cudaDeviceSynchronize();
      cudaMemcpyFromSymbol(up, gTraceUp, sizeof up);
      cudaMemcpyFromSymbol(down, gTraceDown, sizeof down);
      if (FILE* f = std::fopen(std::getenv("ARCHSCOPE_TIMELINE"), "wb")) {
        std::fwrite(up, 1, sizeof up, f), std::fwrite(down, 1, sizeof down, f), std::fclose(f);
      }
    }
  };
  static TimelineDump dump;
""" % (SLOTS, SLOTS)
LAUNCHER = ("inline cudaError_t launchMoe_w4a16(const archscope::MoeDeviceArgs& a, cudaStream_t stream) {\n"
            "  using namespace archscope::w4a16;\n")
DUMP_INCLUDES = "#include <cstdio>\n#include <cstdlib>\n"


def insert_after(text, anchor, addition, path):
    if text.count(anchor) != 1:
        sys.exit(f"{path}: expected one '{anchor.strip()}', found {text.count(anchor)}; update gemv_timeline.py")
    return text.replace(anchor, anchor + addition)


def instrument(root):
    gemv = os.path.join(root, "kernels/w4a16/gemv.cuh")
    text = open(gemv).read()
    text = insert_after(text, STAMPS[0][0], "", gemv).replace(STAMPS[0][0], PRELUDE, 1)
    for anchor, addition in STAMPS[1:]:
        text = insert_after(text, anchor, addition, gemv)
    open(gemv, "w").write(text)
    moe = os.path.join(root, "kernels/w4a16/moe.cuh")
    text = insert_after(open(moe).read(), LAUNCHER, DUMP, moe)
    open(moe, "w").write(DUMP_INCLUDES + text)


def stamps(raw, offset):
    rows = [struct.unpack_from("<4Q", raw, offset + 32 * i) for i in range(SLOTS)]
    return [r for r in rows if r[0]]


def percentile(values, p):
    values = sorted(values)
    return values[min(len(values) - 1, int(p / 100 * len(values)))]


def report(raw):
    up, down = stamps(raw, 0), stamps(raw, SLOTS * 32)
    base = min(r[0] for r in up)
    print(f"us from the first gate/up warp's start ({len(up)} gate/up warps, {len(down)} down warps)")
    print(f"{'':14s} {'min':>7s} {'p10':>7s} {'p50':>7s} {'p90':>7s} {'max':>7s}")
    for kernel, rows, names in (("up", up, UP_STAMPS), ("down", down, DOWN_STAMPS)):
        for slot, name in enumerate(names):
            us = [(r[slot] - base) / 1e3 for r in rows if r[slot]]
            if us:
                print(f"{kernel:4s} {name:9s} " + " ".join(f"{percentile(us, p):7.2f}" for p in (0, 10, 50, 90, 100)))


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--shapes", default="qwen-like", help="comma-separated: " + ", ".join(sorted(SHAPES)))
    parser.add_argument("--config", default="",
                        help="force w4a16 configurations (ARCHSCOPE_W4A16_CONFIG), comma-separated: each is run")
    parser.add_argument("--arch", default="sm_90a")
    parser.add_argument("--prebuilt", default="", metavar="DIR",
                        help="DIR/probe_w4a16 built from a --write-copy copy, used if it runs here")
    parser.add_argument("--write-copy", default="", metavar="DIR",
                        help="write the instrumented copy of kernels/ to DIR/kernels and exit")
    parser.add_argument("--out", default=os.environ.get("OUT", "timeline-out"))
    args = parser.parse_args()
    shapes = args.shapes.split(",")
    if unknown := [s for s in shapes if s not in SHAPES]:
        parser.error(f"unknown shape {unknown[0]} (known: {', '.join(sorted(SHAPES))})")
    if args.write_copy:
        shutil.copytree("kernels", os.path.join(args.write_copy, "kernels"))
        instrument(args.write_copy)
        print(f"instrumented copy in {os.path.join(args.write_copy, 'kernels')}")
        return 0
    out = os.path.abspath(args.out)
    os.makedirs(out, exist_ok=True)
    with tempfile.TemporaryDirectory() as root:
        shutil.copytree("kernels", os.path.join(root, "kernels"))
        instrument(root)
        here = os.getcwd()
        os.chdir(root)  # bench_h200.build compiles the kernels/ of the working directory
        try:
            binary = build("w4a16", args.arch, root, os.path.join(here, args.prebuilt) if args.prebuilt else "")
        finally:
            os.chdir(here)
        for shape, config in [(s, c) for s in shapes for c in args.config.split(",")]:
            dump = os.path.join(out, f"timeline-{shape}{'-' + config if config else ''}.bin")
            env = {"ARCHSCOPE_TIMELINE": dump, **({"ARCHSCOPE_W4A16_CONFIG": config} if config else {})}
            rc, rows = run_probe(binary, SHAPES[shape], [1], 20, env_extra=env, timeout=120)
            if rc == 77:
                print(f"SKIP {shape}: the probe cannot run here (no CUDA device, or not this family's)")
                return 77
            if rc != 0 or not rows:
                sys.exit(f"{shape}: the probe exited {rc}{' (no result)' if not rows else ''}")
            print(f"{shape}{' (' + config + ')' if config else ''}, T = 1: {rows[0]['ms'] * 1e3:.2f} us a MoE, "
                  f"pass={rows[0]['pass']}")
            report(open(dump, "rb").read())


if __name__ == "__main__":
    sys.exit(main())
