# The arena's Input, docs/PROTOCOL.md "Arena encodings" > "Input": kept alone so a new field is one edit.
from fields import read_int


def read_arena_input(s):
    """One arena Input (58 bits) as a dict."""
    return {
        "move_x": read_int(s, -127, 127, "input move_x"),
        "move_y": read_int(s, -127, 127, "input move_y"),
        "buttons": s.bits(4, "input buttons"),
        "aim": s.bits(16, "input aim"),
        "view_delay": read_int(s, 0, 63, "input view_delay"),
        "view_fraction": s.bits(16, "input view_fraction"),
    }
