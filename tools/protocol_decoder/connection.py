# One client-server connection decoded message by message, both directions, with the client's snapshot state.
import arena_entity
import arena_predict
from arena_input import read_arena_input
from arena_messages import read_arena_payload
from bit_reader import BitReader
from cs_messages import (decode_payload, read_client_message, read_connect_accept, read_connect_request,
                         read_disconnect, read_input, read_server_message, read_snapshot_header, read_type,
                         read_unreliable_message)
from entity_section import read_entity_section
from errors import DecodeError

CLIENT_WINDOW = 64  # snapshots the client keeps, by sequence
# The delivery class each type travels on, per direction ("up": client to server).
DELIVERY = {
    "up": {"connect_request": "reliable", "input": "unreliable", "client_message": "reliable",
           "unreliable_message": "unreliable", "disconnect": "reliable"},
    "down": {"connect_accept": "reliable", "snapshot": "unreliable", "server_message": "reliable",
             "unreliable_message": "unreliable", "disconnect": "reliable"},
}


class ArenaCodec:
    """The arena's hooks the entity section calls."""

    full = staticmethod(arena_entity.read_entity_full)
    delta = staticmethod(arena_entity.read_entity_delta)
    predict = staticmethod(arena_predict.predict_entity)


def newer(a, b, bits):
    """Wrap-aware a > b for `bits`-bit counters."""
    d = (a - b) % (1 << bits)
    return 0 < d < 1 << (bits - 1)


class Connection:
    """Decodes every message of one connection; `table` is the trained model table."""

    def __init__(self, table):
        self.table = table
        self.counts = {}
        self.held = {}  # sequence -> (entity list, server tick): what the client decoded and accepted
        self.newest = None  # (sequence, tick) of the newest accepted snapshot
        self.shown = {}  # id -> what the client shows (stale entities keep the newest value received)
        self.views = []  # per accepted snapshot: (server tick, {id: entity shown}, section info)
        self.expected_message, self.message_tick = 0, 0
        self.game_messages = []
        self.hello = False
        self.acks_checked = 0

    def count(self, name):
        self.counts[name] = self.counts.get(name, 0) + 1

    def decode(self, direction, delivery, data):
        """Decodes one transport message; raises DecodeError with the reason when it does not decode."""
        s = BitReader(data)
        kind = read_type(s)
        wanted = DELIVERY[direction].get(kind)
        if wanted is None:
            raise DecodeError("malformed", f"{kind} never travels {direction}")
        if wanted != delivery:
            raise DecodeError("malformed", f"{kind} on the {delivery} class")
        if direction == "up" and not self.hello and kind != "connect_request":
            raise DecodeError("malformed", f"{kind} before the hello")
        m = getattr(self, "read_" + kind)(s, direction)
        if kind != "snapshot":
            s.finish_message(kind)
        self.count(f"{direction} {kind}")
        return kind, m

    def read_connect_request(self, s, _direction):
        m = read_connect_request(s)
        if m["protocol_id"] != 0x52574353:
            raise DecodeError("malformed", f"protocol id {m['protocol_id']:#x}")
        self.hello = True
        return m

    def read_connect_accept(self, s, _direction):
        return read_connect_accept(s)

    def read_input(self, s, _direction):
        return read_input(s, read_arena_input)

    def read_disconnect(self, s, _direction):
        return read_disconnect(s)

    def read_client_message(self, s, _direction):
        m = read_client_message(s)
        m["fields"] = decode_payload(m["id"], m["payload"], read_arena_payload)
        return m

    def read_unreliable_message(self, s, _direction):
        m = read_unreliable_message(s)
        m["fields"] = decode_payload(m["id"], m["payload"], read_arena_payload)
        return m

    def read_server_message(self, s, _direction):
        m = read_server_message(s, self.expected_message, self.message_tick)
        if m["sequence"] != self.expected_message:
            raise DecodeError("malformed", f"server_message {m['sequence']}, expected {self.expected_message}")
        self.expected_message = (m["sequence"] + 1) % (1 << 32)
        self.message_tick = m["tick"]
        m["fields"] = decode_payload(m["id"], m["payload"], read_arena_payload)
        self.game_messages.append(m)
        return m

    def read_snapshot(self, s, _direction):
        m = read_snapshot_header(s, self.newest[1] if self.newest else None)
        entities, stale, info = read_entity_section(
            s, m["server_tick"], lambda age: self.held.get((m["sequence"] - age) % 65536), ArenaCodec, self.table)
        m["section"] = info
        if self.newest and not (newer(m["server_tick"], self.newest[1], 32) and
                                newer(m["sequence"], self.newest[0], 16)):
            self.count("snapshots stale")
            return m
        self.newest = (m["sequence"], m["server_tick"])
        self.held[m["sequence"]] = (entities, m["server_tick"])
        for seq in list(self.held):
            if (m["sequence"] - seq) % 65536 >= CLIENT_WINDOW:
                del self.held[seq]
        self.shown = {eid: (self.shown.get(eid, e) if eid in stale else e) for eid, e in entities.items()}
        self.views.append((m["server_tick"], dict(self.shown), info))
        return m

    def check_ack(self, m):
        """An input acknowledges the newest snapshot the client decoded and accepted (client side only)."""
        want = self.newest[1] if self.newest else None
        if m["ack_snapshot_tick"] != want:
            raise DecodeError("malformed", f"input acks {m['ack_snapshot_tick']}, newest decoded {want}")
        self.acks_checked += 1
