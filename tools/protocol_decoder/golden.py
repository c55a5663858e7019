# The document's own examples (golden bytes, the range-coded worked example) decoded: the decoder's self-test.
from arena_entity import blank_entity
from arena_input import read_arena_input
from arena_messages import read_arena_payload
from bit_reader import BitReader
from connection import ArenaCodec, Connection
from cs_messages import decode_payload
from entity_section import read_entity_section
from fields import read_bool, read_bytes, read_int, read_relative, read_uint64, read_varint


def hexbytes(text):
    return bytes.fromhex(text.replace(" ", ""))


def primitive_cases():
    """(name, bytes, reader, expected) from "Golden encodings" and the "Bit order" example."""
    return [
        ("bit order", "BD 0A", lambda s: (s.bits(3), s.bits(1), s.bits(8)), (5, 1, 0xAB)),
        ("int(-10, 10)", "07", lambda s: read_int(s, -10, 10, "v"), -3),
        ("uint64", "08 07 06 05 04 03 02 01", lambda s: read_uint64(s, "v"), 0x0102030405060708),
        ("varint 0", "00", lambda s: read_varint(s, "v"), 0),
        ("varint 127", "7F", lambda s: read_varint(s, "v"), 127),
        ("varint 300", "AC 02", lambda s: read_varint(s, "v"), 300),
        ("varint 2^64-1", "FF FF FF FF FF FF FF FF FF 01", lambda s: read_varint(s, "v", 64), (1 << 64) - 1),
        ("relative 103", "16", lambda s: read_relative(s, 100, "v"), 103),
        ("relative 50", "39 01", lambda s: read_relative(s, 100, "v"), 50),
        ("relative 1100", "43 1F 04", lambda s: read_relative(s, 100, "v"), 1100),
        ("relative 2e9", "07 A0 AC B9 03", lambda s: read_relative(s, 100, "v"), 2000000000),
        ("string(15)", "82 96 06", lambda s: read_bytes(s, 15, "v"), b"hi"),
        ("bool align bits", "01 5A", lambda s: (read_bool(s, "b"), s.align(), s.bits(8))[::2], (True, 0x5A)),
    ]


def message_cases():
    """(name, direction, delivery, bytes, expected fields) from the client-server golden bytes."""
    arena_in = {"move_x": 127, "move_y": -64, "buttons": 1, "aim": 0x4000, "view_delay": 6,
                "view_fraction": 0x8000, "has_origin": False, "origin_x": 0, "origin_y": 0}
    secret = bytes(range(16))
    return [
        ("input", "up", "unreliable", "2B 00 40 1F 00 00 88 FF 4F 00 00 19 00 80 7A 0F 00 00 10 0C 08 04 90 01",
         {"sequence": 5, "newest_tick": 1000, "count": 1, "inputs": [arena_in], "ack_snapshot_tick": 990,
          "ping_time": 0x01020304, "interpolation_delay_ms": 100}),
        ("input (ping)", "up", "unreliable", "03 00 00 00 00 00 00 48 E8 01 00 00 00",
         {"sequence": 0, "newest_tick": 0, "count": 0, "inputs": [], "ack_snapshot_tick": None,
          "ping_time": 250000, "interpolation_delay_ms": 0}),
        ("connect_accept", "down", "reliable", "1A C0 12 00 00 D8 A1 43 00 00 00",
         {"slot": 3, "server_tick": 600, "tick_rate_hz": 60, "snapshot_rate_hz": 30, "input_buffer_target": 2,
          "sealed": False, "seat_grace_s": 0, "resumed": False}),
        ("connect_accept (grace)", "down", "reliable",
         "1A C0 12 00 00 D8 A1 43 F0 00 00 08 10 18 20 28 30 38 40 48 50 58 60 68 70 78 00",
         {"slot": 3, "server_tick": 600, "tick_rate_hz": 60, "snapshot_rate_hz": 30, "input_buffer_target": 2,
          "sealed": False, "seat_grace_s": 30, "resume_secret": secret, "resumed": False}),
        ("client_message", "up", "reliable", "17 20 00 80 E0 EC 0C",
         {"id": 2, "payload": hexbytes("00 82 B3 33"), "fields": {"speaker": 0, "text": b"gg"}}),
        ("server_message", "down", "reliable", "85 C3 12 04 10 C0 C0 00",
         {"sequence": 0, "tick": 600, "id": 0, "payload": hexbytes("03 03"), "fields": {"slot": 3, "entity": 3}}),
    ]


def payload_cases():
    """(name, id, bytes, expected) from the library's and the arena's payload tables."""
    return [
        ("spawn", 0, "03 03", {"slot": 3, "entity": 3}),
        ("leave", 1, "03 AC 02", {"slot": 3, "entity": 300}),
        ("chat", 2, "00 82 B3 33", {"speaker": 0, "text": b"gg"}),
        ("away", 3, "03 03 1E 00", {"slot": 3, "entity": 3, "grace_s": 30}),
        ("back", 4, "03 03 01", {"slot": 3, "entity": 3, "resync": True}),
        ("hit", 8, "01 41 01", {"type": "hit", "shooter": 1, "target": 4, "damage": 20}),
        ("death", 9, "44 10", {"type": "death", "victim": 4, "killer": 1, "weapon": 1}),
        ("score", 10, "81 05", {"type": "score", "slot": 1, "score": 3}),
    ]


def range_coded_example():
    """"Worked example: a range-coded section": (bytes, baseline, expected list)."""
    def player(x):
        e = blank_entity()
        e.update(flags=3, hp=100, x=x, y=2000)
        return e
    baseline = {0: player(1000), 1: player(3000)}
    moved = dict(baseline[0], x=1005)
    data = "01 01 B3 1F F8 01 12 A0 67 C5 24 62 4A A8 57 49 3D 14 1D 38 00"
    return data, baseline, {0: moved, 1: baseline[1], 2: player(4000)}


def run_self_test(table):
    """Every example of the document decoded; returns the list of failures (empty: all pass)."""
    failures = []

    def check(name, got, want):
        if got != want:
            failures.append(f"{name}: decoded {got!r}, the document says {want!r}")

    for name, data, reader, want in primitive_cases():
        s = BitReader(hexbytes(data))
        try:
            got = reader(s)
            s.finish_message(name)
        except Exception as e:  # a failure of the example is a failure of the decoder or the document
            got = e
        check(name, got, want)
    for name, direction, delivery, data, want in message_cases():
        c = Connection(table)
        c.hello = True
        try:
            got = c.decode(direction, delivery, hexbytes(data))[1]
        except Exception as e:
            got = e
        check(name, got, want)
    for name, msg_id, data, want in payload_cases():
        try:
            got = decode_payload(msg_id, hexbytes(data), read_arena_payload)
        except Exception as e:
            got = e
        check(name, got, want)
    data, baseline, want = range_coded_example()
    try:
        got = read_entity_section(BitReader(hexbytes(data)), 1, lambda age: (baseline, 0) if age == 1 else None,
                                  ArenaCodec, table)[0]
    except Exception as e:
        got = e
    check("range-coded section", got, want)
    assert read_arena_input  # the input golden above goes through it
    return failures
