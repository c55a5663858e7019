# The game's trained range-coder table, read from the C++ source the document names ("Trained models").
import re

ENTRY = re.compile(r"\{\s*(\d+)\s*,\s*(\d+)\s*,\s*(\d+)\s*,\s*(\d+)\s*\}")


def load_model_table(path):
    """{(group, ordinal, model): P(0) in 1/4096} from the `{group, ordinal, model, P(0)}` entries of `path`."""
    with open(path, encoding="utf-8") as f:
        text = f.read()
    table = {}
    for g, o, m, p in ENTRY.findall(text):
        g, o, m, p = int(g), int(o), int(m), int(p)
        if not (g < 16 and o < 64 and 1 <= m < 16 + 28):
            raise ValueError(f"{path}: entry {{{g}, {o}, {m}, {p}}} names no model")
        table[(g, o, m)] = p
    if not table:
        raise ValueError(f"{path}: no table entries")
    return table
