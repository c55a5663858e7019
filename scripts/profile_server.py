#!/usr/bin/env python3
# Where a 64-client server tick spends its time (perf samples of bench_server, grouped by phase) and how each
# player-scaled benchmark grows from 8 to 64 players (exponent k in t ~ N^k): the README's "Profiles" table.
import json, math, re, subprocess, sys, tempfile, os

build = sys.argv[1] if len(sys.argv) > 1 else "build"
bench_server = os.path.join(build, "bench", "bench_server")
bench_arena = os.path.join(build, "bench", "bench_arena")

# Self time by symbol, grouped. The first pattern that matches a symbol names its phase.
PHASES = [
    ("plan: interest, priorities, byte estimates", r"MeasureStream|SnapshotPlanner|InterestGrid|PriorityAccumulator|select_within_budget|plan|SnapshotWindow|relevan"),
    ("encode: entity lists (range coder, bit packer)", r"Range|range_|BitWriter|WriteStream|serialize|entity_delta|residual|encode|quantize|write_bits|predict_entity"),
    ("step: the arena's simulation", r"arena::sim::|ArenaGame::step|run_tick|arena::.*(move|movement|combat|projectile|collide|weapon)"),
    ("capture: hitbox history", r"capture_hitboxes|HitboxHistory|RewoundTargets|lag_comp"),
    ("inputs: decode, jitter buffer, replays", r"InputJitterBuffer|InputPacket|decode|ReadStream|BitReader|read_bits|replay|sanitize|input"),
    ("send: messages, sealing, transport", r"FakeTransport|send|SecureChannel|seal|crypto_|chacha|poly1305|Outbox|outbox|Transport"),
    ("memory: allocation, copies", r"malloc|free|operator new|operator delete|memcpy|memmove|memset|_int_malloc|_int_free"),
]

def profile(filter_, seconds):
    with tempfile.TemporaryDirectory() as d:
        data = os.path.join(d, "perf.data")
        subprocess.run(["perf", "record", "-q", "-F", "1999", "-o", data, "--", bench_server,
                        f"--benchmark_filter={filter_}$", f"--benchmark_min_time={seconds}"],
                       check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        out = subprocess.run(["perf", "report", "-i", data, "--no-children", "--sort", "symbol", "-g", "none",
                              "--stdio", "--percent-limit", "0"], check=True, capture_output=True, text=True).stdout
    totals = {name: 0.0 for name, _ in PHASES}
    totals["other"] = 0.0
    top, others = [], []
    for line in out.splitlines():
        m = re.match(r"\s*([\d.]+)%\s+\[[.k]\]\s+(.*\S)", line)
        if not m:
            continue
        pct, sym = float(m.group(1)), m.group(2)
        top.append((pct, sym))
        for name, pattern in PHASES:
            if re.search(pattern, sym):
                totals[name] += pct
                break
        else:
            totals["other"] += pct
            others.append((pct, sym))
    return totals, top[:12], others[:8]

def times(binary, filter_):
    out = subprocess.run([binary, f"--benchmark_filter={filter_}", "--benchmark_format=json",
                          "--benchmark_repetitions=3", "--benchmark_report_aggregates_only=true"],
                         check=True, capture_output=True, text=True).stdout
    res = {}
    for b in json.loads(out)["benchmarks"]:
        if b.get("aggregate_name") == "median":
            res[b["run_name"]] = b["real_time"] * {"ns": 1e-3, "us": 1.0, "ms": 1e3}[b["time_unit"]]
    return res

def exponent(t8, t64):
    return math.log(t64 / t8) / math.log(8)

filter_ = "BM_ServerTickClients/30/64/1/1/0/0/1"
totals, top, others = profile(filter_, 3)
print(f"## Where a 64-client tick goes ({filter_}, perf self time)\n")
print("| phase | share |\n|---|---|")
for name, pct in sorted(totals.items(), key=lambda kv: -kv[1]):
    print(f"| {name} | {pct:.1f} % |")
print("\nTop symbols:")
for pct, sym in top:
    print(f"  {pct:5.1f} %  {sym[:110]}")

print("\nLargest of \"other\":")
for pct, sym in others:
    print(f"  {pct:5.1f} %  {sym[:110]}")

print("\n## Growth from 8 to 64 players (median of 3, t ~ N^k)\n")
print("| benchmark | 8 | 16 | 32 | 64 | k (8 to 64) |\n|---|---|---|---|---|---|")
server = times(bench_server, "BM_ServerTick(Clients|Field)/30/(8|16|32|64)/[01]/1/0/0/1$")
for bench, world in (("BM_ServerTickClients", "the arena (crowded)"), ("BM_ServerTickField", "fixed density")):
    for codec, label in (("1", "range-coded"), ("0", "bit-packed")):
        row = [server.get(f"{bench}/30/{n}/{codec}/1/0/0/1") for n in (8, 16, 32, 64)]
        if None in row:
            continue
        print(f"| server tick, {label}, {world} | " + " | ".join(f"{t:.0f} µs" for t in row) +
              f" | {exponent(row[0], row[3]):.2f} |")
arena = times(bench_arena, "BM_Step/(8|64)$")
if "BM_Step/8" in arena and "BM_Step/64" in arena:
    a8, a64 = arena["BM_Step/8"], arena["BM_Step/64"]
    print(f"| arena step | {a8:.1f} µs | | | {a64:.1f} µs | {exponent(a8, a64):.2f} |")
