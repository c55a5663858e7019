#!/usr/bin/env bash
# Runs every benchmark executable in a build folder, keeps their JSON next to the console output, and ends with
# the summary of scripts/bench_summary.py (streams against the raw packer, the server tick's growth).
set -euo pipefail
build=$1
shopt -s nullglob
mkdir -p "$build/bench-results"
for b in "$build"/bench/bench_*; do
  [ -x "$b" ] || continue
  name=$(basename "$b")
  echo "== $name"
  "$b" --benchmark_out="$build/bench-results/$name.json" --benchmark_out_format=json
done
python3 "$(dirname "$0")/bench_summary.py" "$build"
