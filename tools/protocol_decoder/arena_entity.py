# The arena's EntitySnapshot, full and delta (docs/PROTOCOL.md "Arena encodings"), bit-packed or range-coded.
from errors import DecodeError
from fields import read_bool, read_int, read_int32_bits, read_relative, read_uint64
from range_reader import read_residual

PLAYER, PROJECTILE = 0, 1
# The seven player fields of the full form and the delta, in stream order, with their range-coder group.
PLAYER_FIELDS = (("flags", 5), ("aim", 6), ("hp", 7), ("dash_timer", 8), ("respawn_timer", 9),
                 ("score", 10), ("deaths", 11))
# The owner-only fields (owner part), in stream order.
OWNER_FIELDS = ("ammo", "fire_cooldown", "alt_cooldown", "reload_timer", "dash_cooldown", "shots", "rng")
OWNER_GROUP, PROJECTILE_GROUP, FULL_GROUP, DELTA_GROUP, GENERATOR_GROUP = 12, 13, 14, 2, 15
FULL_ORDINAL = 48  # where a player field's full form sits in its group
FULL_COUNT_ORDINAL = 28  # range-coded: where score and deaths in full start (a residual from 0)
POSITION_MODELLED = 4  # range-coded: the modelled mantissa bits of a position residual


def blank_entity():
    """Every field 0: what a field that the entity's kind does not use holds."""
    e = {name: 0 for name, _ in PLAYER_FIELDS}
    e.update({name: 0 for name in OWNER_FIELDS})
    e.update(kind=PLAYER, x=0, y=0, vx=0, vy=0, owner=0, ttl=0, rng=(0, 0))
    return e


def read_count(s, name, group, base):
    """score or deaths: bit-packed 32 bits; range-coded a residual, from 0 in full, from the base's in a delta."""
    if not s.range_coded:
        return read_int32_bits(s, name)
    if base is None:
        return read_residual(s, group, FULL_COUNT_ORDINAL, 0, name)
    return read_residual(s, group, 1, base[name], name)


def read_generator(s):
    """rng: bit-packed two uint64; range-coded the state as 64 uniform bits, the increment's low half as a
    residual from 0 (group 15), then "high half non-zero" at (15, 36) and the high half as 32 uniform bits."""
    if not s.range_coded:
        return (read_uint64(s, "rng[0]"), read_uint64(s, "rng[1]"))
    state = s.uniform(32, "rng[0] low") | (s.uniform(32, "rng[0] high") << 32)
    inc = read_residual(s, GENERATOR_GROUP, 0, 0, "rng[1] low") & 0xFFFFFFFF
    s.set_context(GENERATOR_GROUP, 36)
    if read_bool(s, "rng[1] high non-zero"):
        high = s.uniform(32, "rng[1] high")
        if high == 0:
            raise DecodeError("malformed", "rng[1] high half flagged non-zero but 0")
        inc |= high << 32
    return (state, inc)


def read_player_field(s, name):
    """A player field as the full form sends it."""
    if name == "flags":
        return read_int(s, 0, 3, name)
    if name == "aim":
        return read_int(s, 0, 65535, name)
    if name == "hp":
        return read_int(s, 0, 100, name)
    if name == "dash_timer":
        return read_int(s, 0, 8, name)
    if name == "respawn_timer":
        return read_int(s, 0, 120, name)
    return read_count(s, name, dict(PLAYER_FIELDS)[name], None)  # score, deaths


def read_owner_field(s, name):
    """An owner-only field as the full form sends it."""
    ranges = {"ammo": 12, "fire_cooldown": 6, "alt_cooldown": 45, "reload_timer": 90, "dash_cooldown": 90,
              "shots": 65535}
    if name == "rng":
        return read_generator(s)
    return read_int(s, 0, ranges[name], name)


def read_entity_full(s):
    """`serialize`: kind, x, y, vx, vy, then the kind's own fields."""
    e = blank_entity()
    s.set_context(FULL_GROUP, 0)
    e["kind"] = read_int(s, 0, 1, "kind")
    e["x"] = read_int(s, 0, 65536, "x")
    e["y"] = read_int(s, 0, 65536, "y")
    e["vx"] = read_int(s, -256, 256, "vx")
    e["vy"] = read_int(s, -256, 256, "vy")
    if e["kind"] == PROJECTILE:
        s.set_context(PROJECTILE_GROUP, 0)
        e["owner"] = read_int(s, 0, 63, "owner")
        e["ttl"] = read_int(s, 0, 90, "ttl")
        return e
    for name, group in PLAYER_FIELDS:
        s.set_context(group, FULL_ORDINAL)
        e[name] = read_player_field(s, name)
    s.set_context(OWNER_GROUP, 0)
    if read_bool(s, "owner part"):
        for k, name in enumerate(OWNER_FIELDS):
            s.set_context(OWNER_GROUP, 6 + 9 * k)
            e[name] = read_owner_field(s, name)
        if all(e[name] in (0, (0, 0)) for name in OWNER_FIELDS):
            raise DecodeError("malformed", "owner part 1 with every owner field 0")
    return e


def read_changed(s, base, name, read_value):
    """A changed bit, then the value if 1; a value equal to the base's is `malformed`."""
    if not read_bool(s, name + " changed"):
        return base[name]
    v = read_value()
    if v == base[name]:
        raise DecodeError("malformed", f"{name} changed to the base value")
    return v


def read_motion(s, base, e):
    """moved = 1: x, y, vx, vy as residuals (bit-packed: relative) of the base's."""
    for axis, group, lo, hi in (("x", 3, 0, 65536), ("y", 3, 0, 65536), ("vx", 4, -256, 256),
                                ("vy", 4, -256, 256)):
        if s.range_coded:
            v = read_residual(s, group, 0, base[axis], axis, POSITION_MODELLED if group == 3 else 32)
        else:
            v = read_relative(s, base[axis], axis)
        if not lo <= v <= hi:
            raise DecodeError("value_out_of_range", f"{axis} = {v}")
        e[axis] = v
    if all(e[a] == base[a] for a in ("x", "y", "vx", "vy")):
        raise DecodeError("malformed", "moved with all four equal to the base")


def read_aim_delta(s, base):
    if not s.range_coded:
        return read_int(s, 0, 65535, "aim")
    turn = read_residual(s, 6, 1, 0, "aim")
    if not -32768 <= turn <= 32767:
        raise DecodeError("value_out_of_range", f"aim turn {turn}")
    return (base["aim"] + turn) % 65536


def read_entity_delta(s, base):
    """`serialize_delta(value, base)`: same_kind, moved, then the kind's changed fields."""
    s.set_context(DELTA_GROUP, 0)
    if not read_bool(s, "same_kind"):
        return read_entity_full(s)
    e = dict(base)
    if read_bool(s, "moved"):
        read_motion(s, base, e)
    if base["kind"] == PROJECTILE:
        s.set_context(PROJECTILE_GROUP, 0)
        e["owner"] = read_changed(s, base, "owner", lambda: read_int(s, 0, 63, "owner"))
        e["ttl"] = read_changed(s, base, "ttl", lambda: read_int(s, 0, 90, "ttl"))
        return e
    for name, group in PLAYER_FIELDS:
        s.set_context(group, 0)
        if name == "aim":
            e[name] = read_changed(s, base, name, lambda: read_aim_delta(s, base))
        elif name in ("score", "deaths"):
            e[name] = read_changed(s, base, name, lambda n=name, g=group: read_count(s, n, g, base))
        else:
            e[name] = read_changed(s, base, name, lambda n=name: read_player_field(s, n))
    s.set_context(OWNER_GROUP, 0)
    if read_bool(s, "owner part"):
        for k, name in enumerate(OWNER_FIELDS):
            s.set_context(OWNER_GROUP, 1 + 9 * k)
            e[name] = read_changed(s, base, name, lambda n=name: read_owner_field(s, n))
        if all(e[name] == base[name] for name in OWNER_FIELDS):
            raise DecodeError("malformed", "owner part 1 with no owner field changed")
    return e
