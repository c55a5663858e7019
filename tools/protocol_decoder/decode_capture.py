#!/usr/bin/env python3
# Decodes captured rewind traffic with this independent decoder and checks it against what the real client saw.
"""decode_capture.py: decode network recordings of rewind-server / rewind-client from docs/PROTOCOL.md alone.

    decode_capture.py --model-table game/src/snapshot_model_table.cpp [--recording FILE ...]
                      [--client-view FILE] [--min-snapshots N]

Every message of every recording must decode completely (every field, then only zero padding, or the
range coder's exact ending); with --client-view (the client's own decoded worlds, tests/protocol/), every
world the client reconstructed must equal the one decoded here. Exit 0 when all holds, 1 otherwise. The
document's own examples (golden bytes, the range-coded worked example) are decoded first.
"""
import argparse
import json
import os
import sys

sys.dont_write_bytecode = True  # the source tree stays as checked out
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from connection import Connection  # noqa: E402
from errors import DecodeError  # noqa: E402
from golden import run_self_test  # noqa: E402
from model_table import load_model_table  # noqa: E402
from netrec import read_net_recording  # noqa: E402

MAX_REPORTED = 20


class Report:
    """Failures and counters of one run."""

    def __init__(self):
        self.failures = []
        self.counts = {}
        self.sections = {}

    def fail(self, text):
        self.failures.append(text)

    def add(self, counts):
        for k, v in counts.items():
            self.counts[k] = self.counts.get(k, 0) + v


def section_mode(info):
    mode = "range-coded trained" if info["trained"] else "range-coded" if info["range_coded"] else "bit-packed"
    return mode + (", predicted" if info["predicted"] else "") + (", vs empty" if info["baseline_age"] == 0 else "")


def decode_recording(path, table, report):
    """Decodes every message of one recording; returns the client-side connections (their views)."""
    app, _config, records = read_net_recording(path)
    if app not in ("rewind-client", "rewind-server"):
        report.fail(f"{path}: recorded by {app!r}, not rewind-client or rewind-server")
        return []
    client = app == "rewind-client"
    connections, finished = {}, []
    for index, r in enumerate(records):
        if r.kind == "event" and r.event == "connected":
            connections[r.peer] = Connection(table)
            finished.append(connections[r.peer])
        if not ((r.kind == "event" and r.event == "message") or r.kind == "send"):
            continue
        c = connections.get(r.peer)
        incoming = r.kind == "event"
        direction = "down" if incoming == client else "up"
        if c is None:
            report.fail(f"{path} record {index}: a message on peer {r.peer}, never connected")
            continue
        try:
            kind, m = c.decode(direction, r.delivery, r.data)
            if client and kind == "input":
                c.check_ack(m)
            if kind == "snapshot":
                mode = section_mode(m["section"])
                report.sections[mode] = report.sections.get(mode, 0) + 1
                report.add({"entities " + op: n for op, n in m["section"]["ops"].items()})
        except DecodeError as e:
            report.fail(f"{os.path.basename(path)} record {index} ({direction}, {r.delivery}, "
                        f"{len(r.data)} bytes {r.data[:24].hex()}...): {e}")
    for c in finished:
        report.add(c.counts)
        report.add({"input acks checked": c.acks_checked, "game messages": len(c.game_messages)})
    return finished if client else []


def compare_views(connections, view_path, min_snapshots, report):
    """Every world the client dumped equals the one decoded for the same server tick."""
    with open(view_path, encoding="utf-8") as f:
        dumped = json.load(f)["snapshots"]
    decoded = {}
    for c in connections:
        for tick, shown, _info in c.views:
            decoded[tick] = shown
    compared = fields = 0
    for snap in dumped:
        tick = snap["tick"]
        ours = decoded.get(tick)
        if ours is None:
            report.fail(f"client view: tick {tick} was not decoded from the capture")
            continue
        theirs = {e["id"]: e for e in snap["entities"]}
        if sorted(theirs) != sorted(ours):
            report.fail(f"tick {tick}: the client holds ids {sorted(theirs)}, decoded {sorted(ours)}")
            continue
        for eid, e in ours.items():
            for name, value in e.items():
                want = theirs[eid][name]
                want = tuple(want) if isinstance(want, list) else want
                fields += 1
                if value != want:
                    report.fail(f"tick {tick} entity {eid}: {name} decoded {value}, the client holds {want}")
        compared += 1
    report.add({"client worlds compared": compared, "entity fields compared": fields})
    if compared < min_snapshots:
        report.fail(f"only {compared} client worlds compared (at least {min_snapshots} wanted)")


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--model-table", required=True, help="the game's trained table (C++ source)")
    p.add_argument("--recording", action="append", default=[], help="a .rwn network recording")
    p.add_argument("--client-view", help="JSON of the worlds the client decoded (tests/protocol/)")
    p.add_argument("--min-snapshots", type=int, default=1, help="fewest client worlds to compare")
    args = p.parse_args()
    table = load_model_table(args.model_table)
    report = Report()
    for failure in run_self_test(table):
        report.fail("document example: " + failure)
    clients = []
    for path in args.recording:
        clients += decode_recording(path, table, report)
    if args.client_view:
        compare_views(clients, args.client_view, args.min_snapshots, report)
    for k in sorted(report.counts):
        print(f"  {k}: {report.counts[k]}")
    for k in sorted(report.sections):
        print(f"  snapshot sections {k}: {report.sections[k]}")
    for text in report.failures[:MAX_REPORTED]:
        print("FAIL " + text)
    if len(report.failures) > MAX_REPORTED:
        print(f"... and {len(report.failures) - MAX_REPORTED} more failures")
    print("protocol decoder: " + ("FAILED" if report.failures else "every message decoded, every world equal"))
    return 1 if report.failures else 0


if __name__ == "__main__":
    sys.exit(main())
