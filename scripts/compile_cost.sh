#!/usr/bin/env bash
# Compile cost of a game using rewind: compiles tests/compile_cost/arena_sessions.cpp (Server, Client and
# P2PSession instantiated for the arena) at -O2 with the flags and include paths CMake gives that target, and
# prints wall time, peak memory and preprocessed lines. Exit 1 above --max-seconds, 77 if a tool is missing.
#
#   scripts/compile_cost.sh [BUILD_DIR] [--max-seconds N]     (BUILD_DIR defaults to build/)
set -euo pipefail

root="$(cd "$(dirname "$0")/.." && pwd)"
build="$root/build"
max_seconds=""
while [ $# -gt 0 ]; do
  case "$1" in
    --max-seconds) max_seconds="$2"; shift 2 ;;
    -h|--help) sed -n '2,6p' "$0"; exit 0 ;;
    *) build="$1"; shift ;;
  esac
done

db="$build/compile_commands.json"
source_file="$root/tests/compile_cost/arena_sessions.cpp"
if [ ! -f "$db" ]; then
  echo "compile_cost: no $db (configure first: cmake -S . -B build -G Ninja)" >&2
  exit 77
fi
for tool in python3 /usr/bin/time; do
  if ! command -v "$tool" >/dev/null; then
    echo "compile_cost: $tool is missing (scripts/setup.sh installs it)" >&2
    exit 77
  fi
done

# The probe's compile command from the build, with the optimisation level set to -O2, the output redirected, and
# dependency-file, sanitizer and debug flags and any compiler launcher (ccache) dropped, so that the compiler
# really runs what a game's -O2 build does. No -o: the callers below add it.
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
python3 - "$db" "$source_file" "$tmp" >"$tmp/cmd" <<'PY'
import json, os, shlex, sys
db, source, tmp = sys.argv[1:4]
entries = [e for e in json.load(open(db)) if os.path.realpath(e["file"]) == os.path.realpath(source)]
if not entries:
    sys.exit(f"compile_cost: {source} is not in {db} (is the game built? target rewind_compile_cost)")
e = entries[0]
args = e.get("arguments") or shlex.split(e["command"])
if os.path.basename(args[0]) in ("ccache", "sccache"):
    args = args[1:]
out, skip = [], False
for a in args:
    if skip:
        skip = False
        continue
    if a in ("-o", "-MF", "-MT", "-MQ"):
        skip = True
        continue
    if a in ("-MD", "-MMD"):
        continue
    # What a game pays is a plain -O2 build: a sanitizer or debug build's instrumentation and debug info are
    # that build's cost, not the library's (they make the same probe 3-5 times slower).
    if a.startswith(("-fsanitize", "-fno-sanitize")) or a == "-fno-omit-frame-pointer" or a.startswith("-g"):
        continue
    if a.startswith("-O"):  # any level (-O3, -Ofast, -Og): the probe sets -O2 itself
        continue
    out.append(a)
out[1:1] = ["-O2"] + ([] if "-DNDEBUG" in out else ["-DNDEBUG"])  # a release build's asserts
print("cd " + shlex.quote(e["directory"]) + " && " + shlex.join(out))
PY
cmd="$(cat "$tmp/cmd")"

# Preprocessed size: what the compiler has to parse (line markers included, as `-E` prints them).
lines="$(bash -c "${cmd/ -c / -E } -o -" | wc -l)"

/usr/bin/time -f "%e %U %S %M" -o "$tmp/time" bash -c "$cmd -o $tmp/probe.o"
read -r seconds user_s sys_s max_kb <"$tmp/time"
cpu="$(awk -v u="$user_s" -v s="$sys_s" 'BEGIN { printf "%.2f", u + s }')"
mb="$(awk -v k="$max_kb" 'BEGIN { printf "%.0f", k / 1024 }')"
klines="$(awk -v l="$lines" 'BEGIN { printf "%.1f", l / 1000 }')"
load="$(cut -d' ' -f1 /proc/loadavg 2>/dev/null || echo '?')"

echo "compile_cost: tests/compile_cost/arena_sessions.cpp at -O2: ${seconds} s wall (${cpu} s CPU), ${mb} MB peak, ${klines} k preprocessed lines (load ${load})"
if [ -n "$max_seconds" ] && awk -v s="$seconds" -v m="$max_seconds" 'BEGIN { exit !(s > m) }'; then
  echo "compile_cost: FAILED: ${seconds} s is over the ${max_seconds} s bound" >&2
  exit 1
fi
