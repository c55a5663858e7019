#!/usr/bin/env python3
# CTest protocol_independent_decoder: real rewind-servers and rewind-clients play through lossy rewind-relays, both
# record their traffic, and tools/protocol_decoder/ must decode all of it and rebuild the client's worlds.
import argparse
import os
import re
import shutil
import signal
import subprocess
import sys
import time


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


def stop(proc, seconds=15):
    if proc.poll() is None:
        proc.send_signal(signal.SIGTERM)
    try:
        return proc.wait(seconds)
    except subprocess.TimeoutExpired:
        proc.kill()
        return None


class Session:
    """A server with three bots and one client bot through a relay with jitter and loss, all recording."""

    def __init__(self, args, codec):
        self.args, self.codec = args, codec
        self.dir = os.path.join(args.work, codec)
        os.makedirs(self.dir)
        self.procs = []

    def path(self, name):
        return os.path.join(self.dir, name)

    def start(self, argv, name):
        log = open(self.path(name + ".log"), "w")
        self.procs.append(subprocess.Popen(argv, stdout=log, stderr=subprocess.STDOUT))
        return self.procs[-1]

    def port_of(self, name):
        line = wait_for(self.path(name + ".log"), r"event=listening.*port=\d+", 10)
        if line is None:
            raise RuntimeError(f"{name} did not start listening: see {self.path(name + '.log')}")
        return int(re.search(r"port=(\d+)", line).group(1))

    def begin(self):
        a = self.args
        self.start([a.server, "--port", "0", "--bots", "3", "--seed", "11", "--status-interval", "0",
                    "--snapshot-codec", self.codec, "--record-net", self.path("server.rwn")], "server")
        port = self.port_of("server")
        # Jitter reorders, loss drops: the client acks older snapshots and the server codes against them.
        self.start([a.relay, "--listen", "0", "--server", f"127.0.0.1:{port}", "--latency", "20", "--jitter", "10",
                    "--loss", "5", "--seed", "3", "--stats-interval", "0"], "relay")
        relay_port = self.port_of("relay")
        self.client = self.start([a.client, "--connect", f"127.0.0.1:{relay_port}", "--headless", "--bot",
                                  "--duration", str(a.seconds), "--seed", "5", "--record-net",
                                  self.path("client.rwn")], "client")

    def end(self):
        """Waits for the client, stops the relay and the server; an error text, or None."""
        try:
            code = self.client.wait(self.args.seconds + 30)
        except subprocess.TimeoutExpired:
            code = "a timeout"
        for proc in reversed(self.procs):
            stop(proc)
        if code != 0:
            return f"rewind-client exited with {code}: see {self.path('client.log')}"
        if wait_for(self.path("server.log"), "event=net_recording_saved", 5) is None:
            return f"rewind-server saved no recording: see {self.path('server.log')}"
        return None

    def decode(self):
        """The client's own worlds dumped, then the independent decoder over both recordings; True if it passes."""
        a = self.args
        if subprocess.run([a.dump, self.path("client.rwn"), self.path("client_view.json")]).returncode != 0:
            return False
        decoder = os.path.join(a.source, "tools", "protocol_decoder", "decode_capture.py")
        table = os.path.join(a.source, "game", "src", "snapshot_model_table.cpp")
        print(f"--- --snapshot-codec {self.codec}", flush=True)
        return subprocess.run([sys.executable, decoder, "--model-table", table, "--recording",
                               self.path("client.rwn"), "--recording", self.path("server.rwn"), "--client-view",
                               self.path("client_view.json"), "--min-snapshots", str(10 * a.seconds)]).returncode == 0


def main():
    p = argparse.ArgumentParser()
    for name in ("server", "client", "relay", "dump", "source", "work"):
        p.add_argument("--" + name, required=True)
    p.add_argument("--codec", action="append", help="rewind-server --snapshot-codec of one session (default: range)")
    p.add_argument("--seconds", type=int, default=4, help="how long each client plays")
    args = p.parse_args()
    shutil.rmtree(args.work, ignore_errors=True)
    started = time.monotonic()
    sessions = [Session(args, codec) for codec in args.codec or ["range"]]
    errors = []
    for s in sessions:  # side by side: the test takes one session's time
        try:
            s.begin()
        except RuntimeError as e:
            errors.append(str(e))
    errors += [e for e in (s.end() for s in sessions) if e]
    if errors:
        sys.exit("\n".join(errors))
    print(f"sessions recorded in {time.monotonic() - started:.1f} s", flush=True)
    passed = all([s.decode() for s in sessions])
    print(f"total {time.monotonic() - started:.1f} s")
    return 0 if passed else 1


if __name__ == "__main__":
    sys.exit(main())
