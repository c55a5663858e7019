#!/usr/bin/env bash
# Runs every benchmark executable in a build folder, keeps their JSON next to the console output, and ends with
# the summary of scripts/bench_summary.py (streams against the raw packer, the server tick's growth, the lab's
# speed).
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
# The lab's own speed (issue 14's goals: the main pass at 63 players >= 15x real time, at 8 players >= 60x).
if [ -x "$build/apps/rewind-lab" ]; then
  for players in 63 8; do
    echo "== rewind-lab --profile checklist --players $players --duration 60 --seed 1"
    status=0
    "$build/apps/rewind-lab" --profile checklist --players "$players" --duration 60 --seed 1 --quiet \
      --json "$build/bench-results/lab_$players.json" >/dev/null || status=$?
    [ "$status" -le 1 ] || { echo "rewind-lab exited $status" >&2; exit "$status"; }  # 1: an item failed
  done
fi
python3 "$(dirname "$0")/bench_summary.py" "$build"
