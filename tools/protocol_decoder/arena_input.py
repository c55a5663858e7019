# The arena's Input, docs/PROTOCOL.md "Arena encodings" > "Input": kept alone so a new field is one edit.
from fields import read_int


def read_arena_input(s):
    """One arena Input (58 bits; 59 with fire, 91 with fire and a shot origin) as a dict."""
    out = {
        "move_x": read_int(s, -127, 127, "input move_x"),
        "move_y": read_int(s, -127, 127, "input move_y"),
        "buttons": s.bits(4, "input buttons"),
        "aim": s.bits(16, "input aim"),
        "view_delay": read_int(s, 0, 63, "input view_delay"),
        "view_fraction": s.bits(16, "input view_fraction"),
        "has_origin": False,
        "origin_x": 0,
        "origin_y": 0,
    }
    if out["buttons"] & 1:  # fire: one bit says whether the shot's origin follows
        out["has_origin"] = s.bits(1, "input has_origin") == 1
        if out["has_origin"]:
            out["origin_x"] = s.bits(16, "input origin_x")
            out["origin_y"] = s.bits(16, "input origin_y")
    return out
