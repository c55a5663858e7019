# The client-server messages of docs/PROTOCOL.md ("Client-server messages"): framing and each type's fields.
from bit_reader import BitReader
from errors import DecodeError
from fields import read_bool, read_bytes, read_enum, read_int, read_relative, read_varint

TYPES = ("unreliable_message", "connect_request", "connect_accept", "input", "snapshot", "server_message",
         "disconnect", "client_message")
PROTOCOL_ID, VERSION = 0x52574353, 12
MAX_MESSAGE_BYTES = 1024


def read_type(s):
    if s.bits_left() == 0:
        raise DecodeError("malformed", "empty message")
    return TYPES[read_enum(s, 7, "type")]


def read_connect_request(s):
    m = {"protocol_id": s.bits(32, "protocol_id"), "version": read_int(s, 0, 65535, "version"),
         "game_id": s.bits(32, "game_id"), "token": read_bytes(s, 580, "token"), "resume": read_bool(s, "resume")}
    if m["resume"]:
        m["resume_slot"] = read_int(s, 0, 255, "resume_slot")
        m["resume_secret"] = bytes(s.bits(8, "resume_secret") for _ in range(16))
        if read_bool(s, "resume_has_messages"):
            m["resume_next_message"] = s.bits(32, "resume_next_message")
    return m


def read_connect_accept(s):
    m = {"slot": read_int(s, 0, 255, "slot"), "server_tick": s.bits(32, "server_tick"),
         "tick_rate_hz": read_int(s, 1, 1000, "tick_rate_hz"),
         "snapshot_rate_hz": read_int(s, 1, 255, "snapshot_rate_hz"),
         "input_buffer_target": read_int(s, 0, 16, "input_buffer_target"), "sealed": read_bool(s, "sealed")}
    if m["sealed"]:
        m["salt"] = bytes(s.bits(8, "salt") for _ in range(16))
    m["seat_grace_s"] = read_int(s, 0, 65535, "seat_grace_s")
    if m["seat_grace_s"] > 0 and not m["sealed"]:
        m["resume_secret"] = bytes(s.bits(8, "resume_secret") for _ in range(16))
    m["resumed"] = read_bool(s, "resumed")
    if m["resumed"]:
        m["next_message"] = s.bits(32, "next_message")
        m["message_tick"] = s.bits(32, "message_tick")
        m["client_messages_taken"] = s.bits(32, "client_messages_taken")
    return m


def read_input(s, read_game_input):
    m = {"sequence": read_int(s, 0, 65535, "sequence"), "newest_tick": s.bits(32, "newest_tick"),
         "count": read_int(s, 0, 4, "count")}
    m["inputs"] = [read_game_input(s) for _ in range(m["count"])]
    m["ack_snapshot_tick"] = s.bits(32, "ack_snapshot_tick") if read_bool(s, "has_ack") else None
    m["ping_time"] = s.bits(32, "ping_time")
    m["interpolation_delay_ms"] = read_int(s, 0, 1000, "interpolation_delay_ms")
    return m


def nearest_tick(low12, reference):
    """The tick with these low 12 bits nearest (within -2048..2047) the reference tick."""
    d = (low12 - reference) % 4096
    if d >= 2048:
        d -= 4096
    return (reference + d) % (1 << 32)


def read_snapshot_header(s, newest_tick):
    """The snapshot's fields before its entity section; `newest_tick` is the newest tick held (None: none)."""
    m = {"sequence": read_int(s, 0, 65535, "sequence"), "short_tick": read_bool(s, "short_tick")}
    if m["short_tick"]:
        low = s.bits(12, "server_tick")
        if newest_tick is None:
            raise DecodeError("malformed", "short tick with no snapshot held")
        m["server_tick"] = nearest_tick(low, newest_tick)
    else:
        m["server_tick"] = s.bits(32, "server_tick")
    m["has_input"] = read_bool(s, "has_input")
    if m["has_input"]:
        m["last_input_tick"] = (m["server_tick"] + read_relative(s, 0, "last_input_tick")) % (1 << 32)
        m["provisional"] = read_bool(s, "provisional")
    m["arrival_offset_us"] = read_int(s, -1000000, 1000000, "arrival_offset_us")
    m["input_buffer_target"] = read_int(s, 0, 16, "input_buffer_target")
    m["input_buffer_depth"] = read_relative(s, m["input_buffer_target"], "input_buffer_depth")
    if not 0 <= m["input_buffer_depth"] <= 255:
        raise DecodeError("value_out_of_range", f"input_buffer_depth {m['input_buffer_depth']}")
    if read_bool(s, "has_pong"):
        m["pong_time"] = s.bits(22, "pong_time")
        m["pong_hold_us"] = s.bits(18, "pong_hold_us")
    return m


def as_int32(v):
    v %= 1 << 32
    return v - (1 << 32) if v >= 1 << 31 else v


def read_server_message(s, expected_sequence, previous_tick):
    return {"sequence": (expected_sequence + read_relative(s, 0, "sequence")) % (1 << 32),
            "tick": (previous_tick + read_relative(s, 0, "tick")) % (1 << 32), "id": read_int(s, 0, 255, "id"),
            "payload": read_bytes(s, MAX_MESSAGE_BYTES, "payload")}


def read_client_message(s):
    return {"id": read_int(s, 0, 255, "id"), "payload": read_bytes(s, MAX_MESSAGE_BYTES, "payload")}


def read_unreliable_message(s):
    return {"tick": s.bits(32, "tick"), "sequence": read_int(s, 0, 65535, "sequence"),
            "id": read_int(s, 0, 255, "id"), "payload": read_bytes(s, MAX_MESSAGE_BYTES, "payload")}


def read_disconnect(s):
    m = {"code": read_enum(s, 9, "code")}
    if m["code"] == 9:
        m["token_error"] = read_enum(s, 11, "token_error")
    return m


def read_library_payload(msg_id, s):
    """spawn, leave, chat, away, back (ids 0..4); None for an id the library does not own."""
    if msg_id in (0, 1):
        return {"slot": read_int(s, 0, 255, "slot"), "entity": read_varint(s, "entity")}
    if msg_id == 2:
        return {"speaker": read_int(s, 0, 255, "speaker"), "text": read_bytes(s, 120, "text")}
    if msg_id == 3:
        return {"slot": read_int(s, 0, 255, "slot"), "entity": read_varint(s, "entity"),
                "grace_s": read_int(s, 0, 65535, "grace_s")}
    if msg_id == 4:
        return {"slot": read_int(s, 0, 255, "slot"), "entity": read_varint(s, "entity"),
                "resync": read_bool(s, "resync")}
    return None


def decode_payload(msg_id, payload, read_game_payload):
    """A message payload read as a whole message: every field, then only zero padding."""
    s = BitReader(payload)
    fields = read_library_payload(msg_id, s)
    if fields is None:
        fields = read_game_payload(msg_id, s)
    if fields is None:
        raise DecodeError("malformed", f"message id {msg_id}: no such type")
    s.finish_message(f"message id {msg_id}")
    return fields
