# Reads a network recording (docs/REPLAY.md "Network recordings", layout version 1): the captured datagrams.
import struct


class Record:
    """One record: `kind` by name, `now` (app calls), `peer`, `delivery`, `event`, `data`."""

    def __init__(self, kind, **fields):
        self.kind = kind
        self.now = fields.get("now")
        self.peer = fields.get("peer")
        self.delivery = fields.get("delivery")  # "unreliable" or "reliable"
        self.event = fields.get("event")  # "connected", "disconnected" or "message"
        self.data = fields.get("data", b"")


class Cursor:
    def __init__(self, data):
        self.data, self.pos = data, 0

    def take(self, n):
        if self.pos + n > len(self.data):
            raise ValueError(f"recording truncated at byte {self.pos}")
        self.pos += n
        return self.data[self.pos - n:self.pos]

    def u(self, n):
        return int.from_bytes(self.take(n), "little")


DELIVERY = ("unreliable", "reliable")
EVENTS = ("connected", "disconnected", "message")
APP_TIMED = {1: "update", 3: "render", 5: "disconnect"}


def read_record(c, kind):
    if kind in APP_TIMED:
        return Record(APP_TIMED[kind], now=c.u(8))
    if kind == 2:
        return Record("input", data=c.take(c.u(4)))
    if kind == 4:
        now = c.u(8)
        return Record("connect", now=now, data=c.take(c.u(1)))
    if kind == 6:
        now = c.u(8)
        return Record("kick", now=now, data=c.take(c.u(1)))
    if kind == 16:
        event, peer, delivery, _reason, size = c.u(1), c.u(4), c.u(1), c.u(1), c.u(4)
        return Record("event", event=EVENTS[event], peer=peer, delivery=DELIVERY[delivery], data=c.take(size))
    if kind == 17:
        return Record("connect_result", peer=c.u(4))
    if kind == 18:
        peer, delivery, size = c.u(4), c.u(1), c.u(4)
        return Record("send", peer=peer, delivery=DELIVERY[delivery], data=c.take(size))
    if kind == 19:
        peer = c.u(4)
        c.take(24)
        return Record("stats", peer=peer)
    if kind == 32:
        return Record("result", data=c.take(c.u(4)))
    raise ValueError(f"unknown record kind {kind} at byte {c.pos - 1}")


def read_net_recording(path):
    """(app name, config text, [Record]); raises ValueError on anything but a whole version-1 recording."""
    with open(path, "rb") as f:
        c = Cursor(f.read())
    if c.take(4) != b"RWNR" or c.u(2) != 1:
        raise ValueError(f"{path}: not a version-1 network recording")
    c.u(4), c.u(2)  # the transport's max message size and header bytes
    app = c.take(c.u(1)).decode("ascii")
    config = c.take(c.u(2)).decode("utf-8", "replace")
    records = []
    while True:
        kind = c.u(1)
        if kind == 0xFF:
            count, _checksum = struct.unpack("<IQ", c.take(12))
            if count != len(records) or c.pos != len(c.data):
                raise ValueError(f"{path}: end record says {count} records, read {len(records)}")
            return app, config, records
        records.append(read_record(c, kind))
