#!/usr/bin/env bash
# Runs every benchmark executable in a build folder and keeps their JSON next to the console output.
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
