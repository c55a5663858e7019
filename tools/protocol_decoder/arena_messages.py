# The arena's message payloads, ids 8..10 (docs/PROTOCOL.md "Game and library messages": hit, death, score).
from fields import read_enum, read_int, read_relative


def read_arena_payload(msg_id, s):
    """hit, death or score as a dict; None for an id the arena does not have."""
    if msg_id == 8:
        return {"type": "hit", "shooter": read_int(s, 0, 63, "shooter"), "target": read_int(s, 0, 63, "target"),
                "damage": read_int(s, 0, 100, "damage")}
    if msg_id == 9:
        return {"type": "death", "victim": read_int(s, 0, 63, "victim"), "killer": read_int(s, 0, 63, "killer"),
                "weapon": read_enum(s, 1, "weapon")}
    if msg_id == 10:
        return {"type": "score", "slot": read_int(s, 0, 63, "slot"), "score": read_relative(s, 0, "score")}
    return None
