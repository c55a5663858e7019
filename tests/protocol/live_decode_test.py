#!/usr/bin/env python3
# CTest protocol_independent_decoder: a real rewind-server and rewind-client play through a lossy rewind-relay,
# both record their traffic, and tools/protocol_decoder/ must decode all of it and rebuild the client's worlds.
import argparse
import os
import re
import shutil
import signal
import subprocess
import sys
import time


def start(argv, log_path):
    log = open(log_path, "w")
    return subprocess.Popen(argv, stdout=log, stderr=subprocess.STDOUT), log_path


def wait_for(log_path, pattern, seconds):
    """The first log line matching `pattern`, or None after `seconds`."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        with open(log_path, encoding="utf-8", errors="replace") as f:
            for line in f:
                if re.search(pattern, line):
                    return line
        time.sleep(0.05)
    return None


def port_of(log_path, what):
    line = wait_for(log_path, r"event=listening.*port=\d+", 10)
    if line is None:
        sys.exit(f"{what} did not start listening: see {log_path}")
    return int(re.search(r"port=(\d+)", line).group(1))


def stop(proc, seconds=15):
    if proc.poll() is None:
        proc.send_signal(signal.SIGTERM)
    try:
        return proc.wait(seconds)
    except subprocess.TimeoutExpired:
        proc.kill()
        return None


def main():
    p = argparse.ArgumentParser()
    for name in ("server", "client", "relay", "dump", "source", "work"):
        p.add_argument("--" + name, required=True)
    p.add_argument("--seconds", type=int, default=4, help="how long the client plays")
    args = p.parse_args()
    shutil.rmtree(args.work, ignore_errors=True)
    os.makedirs(args.work)
    w = lambda name: os.path.join(args.work, name)  # noqa: E731
    started = time.monotonic()

    server, server_log = start([args.server, "--port", "0", "--bots", "3", "--seed", "11", "--status-interval",
                                "0", "--record-net", w("server.rwn")], w("server.log"))
    relay = None
    try:
        port = port_of(server_log, "rewind-server")
        # Jitter reorders, loss drops: the client acks older snapshots and the server codes against them.
        relay, relay_log = start([args.relay, "--listen", "0", "--server", f"127.0.0.1:{port}", "--latency", "20",
                                  "--jitter", "10", "--loss", "5", "--seed", "3", "--stats-interval", "0"],
                                 w("relay.log"))
        relay_port = port_of(relay_log, "rewind-relay")
        client, client_log = start([args.client, "--connect", f"127.0.0.1:{relay_port}", "--headless", "--bot",
                                    "--duration", str(args.seconds), "--seed", "5", "--record-net",
                                    w("client.rwn")], w("client.log"))
        code = client.wait(args.seconds + 30)
        if code != 0:
            sys.exit(f"rewind-client exited with {code}: see {client_log}")
    finally:
        if relay is not None:
            stop(relay)
        stop(server)
    if wait_for(server_log, "event=net_recording_saved", 5) is None:
        sys.exit(f"rewind-server saved no recording: see {server_log}")
    print(f"session recorded in {time.monotonic() - started:.1f} s")

    dump = subprocess.run([args.dump, w("client.rwn"), w("client_view.json")])
    if dump.returncode != 0:
        sys.exit("client_view_dump failed")
    decoder = os.path.join(args.source, "tools", "protocol_decoder", "decode_capture.py")
    table = os.path.join(args.source, "game", "src", "snapshot_model_table.cpp")
    result = subprocess.run([sys.executable, decoder, "--model-table", table, "--recording", w("client.rwn"),
                             "--recording", w("server.rwn"), "--client-view", w("client_view.json"),
                             "--min-snapshots", str(10 * args.seconds)])
    print(f"total {time.monotonic() - started:.1f} s")
    return result.returncode


if __name__ == "__main__":
    sys.exit(main())
