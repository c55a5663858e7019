#!/usr/bin/env python3
# The figures `make bench` is read for, from the JSON it just wrote: the wire streams against the raw bit packer
# and memcpy, the server tick at 8 to 64 clients with its fitted exponent k (t ~ N^k) in both worlds, and the
# lab's wall time per pass.
import json, math, os, sys

results = os.path.join(sys.argv[1] if len(sys.argv) > 1 else "build", "bench-results")


def load(name):
    path = os.path.join(results, name + ".json")
    if not os.path.exists(path):
        return []
    with open(path) as f:
        return json.load(f).get("benchmarks", [])


def micros(b):
    return b["cpu_time"] * {"ns": 1e-3, "us": 1.0, "ms": 1e3, "s": 1e6}[b["time_unit"]]


def fit(points):
    """Least-squares slope of log t over log N."""
    xs = [math.log(n) for n, _ in points]
    ys = [math.log(t) for _, t in points]
    mx, my = sum(xs) / len(xs), sum(ys) / len(ys)
    return sum((x - mx) * (y - my) for x, y in zip(xs, ys)) / sum((x - mx) ** 2 for x in xs)


print("\n== summary")
for b in load("bench_wire_streams"):
    c = {k: v for k, v in b.items() if isinstance(v, float)}
    if "stream_over_raw" in c:
        print(f"{b['name']:<22} stream {c['stream_ns_per_entity']:.2f} ns/entity, raw packer "
              f"{c['raw_ns_per_entity']:.2f} ({c['stream_over_raw']:.2f}x), memcpy "
              f"{c['memcpy_ns_per_entity']:.3f} ({c['stream_over_memcpy']:.0f}x)")

ticks = {b["name"]: micros(b) for b in load("bench_server") if b.get("run_type", "iteration") == "iteration"}
print("\nserver tick, CPU per tick (30 Hz snapshots, acknowledged 100 ms late)")
print(f"{'':<44}{'8':>9}{'16':>9}{'32':>9}{'64':>9}   k (fit)")
for bench, world in (("BM_ServerTickClients", "arena, crowded"), ("BM_ServerTickField", "fixed density")):
    for codec, label in (("1", "range-coded"), ("0", "bit-packed")):
        row = [(n, ticks.get(f"{bench}/30/{n}/{codec}/1/0/0/1")) for n in (8, 16, 32, 64)]
        if any(t is None for _, t in row):
            continue
        cells = "".join(f"{t:>7.1f}us" for _, t in row)
        print(f"{world + ', ' + label:<44}{cells}   {fit(row):.2f}")

snap = {b["name"]: b for b in load("bench_snapshot")}
codecs = (("0", "previous codec"), ("1", "predicted, bit-packed"), ("2", "predicted, range-coded (default)"))
rows = [(label, snap.get(f"BM_EncodeAllClients64/aoi_m:16/budget_B:0/ack_lag:7/codec:{c}"),
         snap.get(f"BM_DecodeOneClient64/codec:{c}")) for c, label in codecs]
if all(e and d for _, e, d in rows):
    print("\none client's snapshot at 64 players, 16 m area of interest, acknowledged 7 snapshots late")
    for label, e, d in rows:
        print(f"{label:<36} encode {e['us_per_client'] * 1e6:.2f} us, {e['delta_bytes']:.0f} B; "
              f"decode {d['us_per_snapshot'] * 1e6:.2f} us")  # the counters are in seconds

lab = []
for players in (63, 8):
    path = os.path.join(results, f"lab_{players}.json")
    if os.path.exists(path):
        with open(path) as f:
            lab.append((players, json.load(f)["figures"]["passes"]))
if lab:
    print("\nrewind-lab, checklist, seed 1: wall seconds per pass (the passes run at once, one per core)")
    for players, passes in lab:
        main = passes["main"]
        others = ", ".join(f"{name} {p['wall_s']:.1f}" for name, p in passes.items()
                           if name != "main" and isinstance(p, dict) and "wall_s" in p)
        print(f"{players:>2} players: main {main['wall_s']:.1f} s for {main['simulated_s']:.0f} simulated s "
              f"({main['simulated_s'] / main['wall_s']:.1f}x real time); {others}")
