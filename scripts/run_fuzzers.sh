#!/usr/bin/env bash
# Runs every libFuzzer target in a build folder for N seconds each, from its committed seed corpus.
set -euo pipefail
build=$1; seconds=$2
root=$(cd "$(dirname "$0")/.." && pwd)
shopt -s nullglob
targets=("$build"/tests/fuzz/fuzz_*)
if [ ${#targets[@]} -eq 0 ]; then echo "fuzz: no targets built"; exit 1; fi
failed=0
# The server-session seeds: server_session_seeds.py still writes the committed ones, and each still does what it
# was written to do in the driver's input layout of today.
check="$build/tests/fuzz/server_session_seed_check"
if [ -x "$check" ]; then
  gen=$(mktemp -d)
  python3 "$root/tests/fuzz/server_session_seeds.py" "$gen"
  for f in "$gen"/*; do
    if ! cmp -s "$f" "$root/tests/fuzz/corpus/server_session/$(basename "$f")"; then
      echo "fuzz: seed server_session/$(basename "$f") is not what tests/fuzz/server_session_seeds.py writes"; failed=1
    fi
  done
  rm -rf "$gen"
  if "$check" "$root/tests/fuzz/corpus/server_session" >"$build/server_session_seed_check.log" 2>&1; then
    echo "fuzz: server-session seeds ok"
  else
    echo "fuzz: server-session seeds FAILED"; cat "$build/server_session_seed_check.log"; failed=1
  fi
fi
for t in "${targets[@]}"; do
  [ -x "$t" ] || continue
  name=$(basename "$t")
  seeds="$root/tests/fuzz/corpus/${name#fuzz_}"
  scratch=$(mktemp -d)
  args=("$scratch")
  [ -d "$seeds" ] && args+=("$seeds")
  if "$t" -max_total_time="$seconds" -rss_limit_mb=2048 -malloc_limit_mb=512 -print_final_stats=0 \
       -artifact_prefix="$build/" "${args[@]}" >"$build/$name.log" 2>&1; then
    echo "fuzz: $name ok ($(grep -o 'stat::number_of_executed_units: [0-9]*' "$build/$name.log" || grep -oE '#[0-9]+' "$build/$name.log" | tail -1) runs in ${seconds}s)"
  else
    echo "fuzz: $name FAILED, see $build/$name.log"; tail -40 "$build/$name.log"; failed=1
  fi
  rm -rf "$scratch"
done
exit $failed
