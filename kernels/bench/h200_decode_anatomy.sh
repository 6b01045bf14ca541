#!/usr/bin/env bash
# Where the w4a16 decode path's time goes on the lent H200 (one device call):
#  1. read_patterns: read-only ceilings of the decode GEMMs' access pattern (no arithmetic)
#  2. ncu, T = 1: each of the three launches' duration and DRAM bytes (serialized by ncu)
#  3. ncu, T = 32 (DeepSeek-like): the GEMMs' speed-of-light, pipe use, stalls
#  4. the probe's own timings at T = 1, 8, 32 (back-to-back launches, same binary)
# Usage (repository root, binaries built here by the commands in their headers):
#   bash kernels/bench/h200_decode_anatomy.sh build/w4a16-h200 "$OUT"
set -u
bin=$1 out=$2
ds="--hidden 7168 --inter 2048 --experts 256 --topk 8"
qw="--hidden 4096 --inter 1536 --experts 128 --topk 8"
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem,temperature.gpu,power.draw --format=csv
"$bin/read_patterns" | tee "$out/read_patterns.txt"
for shape in ds qw; do
  ncu --clock-control none -k 'regex:prepareRouting|moeGemm' -c 3 \
      --metrics gpu__time_duration.sum,dram__bytes_read.sum,dram__throughput.avg.pct_of_peak_sustained_elapsed,launch__grid_size \
      "$bin/probe_w4a16" --tokens 1 ${!shape} --check-tokens 1 > "$out/ncu-t1-$shape.txt" 2>&1
  grep -E 'prepareRouting|moeGemm|gpu__time|dram__|grid_size' "$out/ncu-t1-$shape.txt"
done
ncu --clock-control none -k regex:moeGemm -c 2 --section SpeedOfLight --section ComputeWorkloadAnalysis \
    --section MemoryWorkloadAnalysis --section WarpStateStats --section SchedulerStats --section Occupancy \
    --metrics sm__inst_executed_pipe_alu.avg.pct_of_peak_sustained_active,sm__inst_executed_pipe_fma.avg.pct_of_peak_sustained_active,sm__inst_executed_pipe_lsu.avg.pct_of_peak_sustained_active,dram__bytes_read.sum \
    "$bin/probe_w4a16" --tokens 32 $ds --check-tokens 1 > "$out/ncu-t32-ds.txt" 2>&1
grep -E 'moeGemm|Duration|DRAM Throughput|Memory Throughput|Compute \(SM\)|Issue Slots|Issued Ipc|Executed Ipc|pipe_|No Eligible|Achieved Occupancy|Warp Cycles Per Issued|dram__bytes|stall' "$out/ncu-t32-ds.txt" | head -60
for shape in ds qw; do
  "$bin/probe_w4a16" ${!shape} --sweep 1,8,32 --iters 50 --check-tokens 8
done > "$out/probe.jsonl"
python3 - "$out/probe.jsonl" <<'PY'
import json, sys
for line in open(sys.argv[1]):
    r = json.loads(line)
    s = r["shape"]
    print("probe H=%d T=%3d %-10s %8.1f us %6.0f GB/s pass=%s" % (s["hidden"], s["tokens"], r["config"], r["ms"] * 1e3,
          r["routed_weight_bytes"] / r["ms"] / 1e6, r["pass"]))
PY
