#!/bin/sh
# Builds arena_trace a second time with another compiler at -O0 and compares its per-tick checksum trace with
# the main build's, failing on the first tick that differs.
# usage: cross_compiler_check.sh <source-dir> <reference-arena_trace> <work-dir> <other-c++-compiler> [ticks] [seed]
# Exit codes: 0 identical, 1 traces differ, 2 usage or build failure, 77 the other compiler is not installed.
set -u
SRC=${1:?source dir}
REF=${2:?reference arena_trace}
WORK=${3:?work dir}
OTHER_CXX=${4:?other compiler}
TICKS=${5:-4000}
SEED=${6:-20240601}

if ! command -v "$OTHER_CXX" >/dev/null 2>&1; then
    echo "cross_compiler_check: $OTHER_CXX not installed, skipping"
    exit 77
fi
mkdir -p "$WORK"
GEN=""
if command -v ninja >/dev/null 2>&1; then GEN="-G Ninja"; fi
# Only the layers the game needs are built (tests, apps and benchmarks off), unoptimized and unsanitized.
# shellcheck disable=SC2086
if ! cmake -S "$SRC" -B "$WORK/build" $GEN -DCMAKE_CXX_COMPILER="$OTHER_CXX" -DCMAKE_BUILD_TYPE=Debug \
        -DCMAKE_CXX_FLAGS_DEBUG="-O0" -DREWIND_BUILD_TESTS=OFF -DREWIND_BUILD_APPS=OFF -DREWIND_BUILD_BENCH=OFF \
        -DREWIND_BUILD_FUZZ=OFF -DREWIND_SANITIZE=OFF >"$WORK/configure.log" 2>&1; then
    cat "$WORK/configure.log"
    echo "cross_compiler_check: configuring with $OTHER_CXX failed"
    exit 2
fi
if ! cmake --build "$WORK/build" --target arena_trace -j 2 >"$WORK/build.log" 2>&1; then
    cat "$WORK/build.log"
    echo "cross_compiler_check: building arena_trace with $OTHER_CXX failed"
    exit 2
fi
OTHER="$WORK/build/game/arena_trace"
"$REF" --seed "$SEED" --players 64 --ticks "$TICKS" >"$WORK/reference.trace" || exit 2
"$OTHER" --seed "$SEED" --players 64 --ticks "$TICKS" >"$WORK/other.trace" || exit 2

# Both traces are "tick checksum" lines; report the first tick where they part.
paste -d ' ' "$WORK/reference.trace" "$WORK/other.trace" | awk -v other="$OTHER_CXX" '
    $1 != $3 || $2 != $4 {
        printf "cross_compiler_check: FIRST DIFFERING TICK %s: main build %s, %s -O0 %s\n", $1, $2, other, $4
        bad = 1
        exit 1
    }
    { n++ }
    END { if (!bad) printf "cross_compiler_check: %d ticks identical (main build vs %s -O0)\n", n, other }' || exit 1
REF_LINES=$(wc -l <"$WORK/reference.trace")
OTHER_LINES=$(wc -l <"$WORK/other.trace")
if [ "$REF_LINES" -ne "$TICKS" ] || [ "$OTHER_LINES" -ne "$TICKS" ]; then
    echo "cross_compiler_check: trace lengths differ: $REF_LINES vs $OTHER_LINES (expected $TICKS)"
    exit 1
fi
exit 0
