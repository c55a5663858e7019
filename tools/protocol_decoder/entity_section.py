# The snapshot's entity section (docs/PROTOCOL.md "snapshot" > "Entity section"): ops, entering ids, the game's codec.
from bit_reader import BitReader
from errors import DecodeError
from fields import read_bool, read_int, read_varint
from range_reader import RangeReader

OP_GROUP, ENTERING_GROUP = 0, 1
MAX_ENTITIES = 1023


def read_op(s):
    """`0` unchanged · `10` changed · `110` removed · `111` stale, each list op from slot (0, 0)."""
    s.set_context(OP_GROUP, 0)
    if s.bits(1, "op") == 0:
        return "unchanged"
    if s.bits(1, "op") == 0:
        return "changed"
    return "removed" if s.bits(1, "op") == 0 else "stale"


def read_entering_id(s, first, previous):
    """The first id is a varint; a later one the gap to the previous: `1` + bits(4) (gap - 1), or `0` + varint."""
    s.set_context(ENTERING_GROUP, 0)
    if first:
        return read_varint(s, "entering id")
    if s.bits(1, "gap form") == 1:
        gap = s.bits(4, "gap") + 1
    else:
        gap = read_varint(s, "gap")
        if gap <= 16:
            raise DecodeError("malformed", f"gap {gap} sent long")
    if previous + gap > 0xFFFFFFFF:
        raise DecodeError("malformed", "gap past 2^32 - 1")
    return previous + gap


def read_entity_section(bits, server_tick, baseline_of, game, table):
    """The list the client holds after this snapshot: {id: entity}, the ids left stale, and what was sent.

    `bits` is the message's BitReader at the section; `baseline_of(age)` the (list, server tick) the client
    holds for that baseline_age, or None; `game` gives full(s), delta(s, ref), predict(e, ticks); `table` the
    trained model table.
    """
    age = read_int(bits, 0, 64, "baseline_age")
    predicted = read_bool(bits, "predicted") if age != 0 else False
    baseline = baseline_of(age) if age != 0 else ({}, 0)
    if baseline is None:
        raise DecodeError("unknown_baseline", f"baseline_age {age}")
    base_list, base_tick = baseline
    if predicted and not base_list:
        raise DecodeError("malformed", "predicted against an empty baseline list")
    info = {"baseline_age": age, "predicted": predicted, "range_coded": read_bool(bits, "range_coded"),
            "trained": False}
    s = bits
    if info["range_coded"]:
        info["trained"] = read_bool(bits, "trained")
        bits.align("entity section")
        s = RangeReader(bits.data[bits.pos // 8:], table if info["trained"] else None)
    ticks = (server_tick - base_tick) % (1 << 32)
    ticks = min(ticks if ticks < 1 << 31 else 0, 65535)
    result, stale, ops = {}, [], {"unchanged": 0, "changed": 0, "removed": 0, "stale": 0, "entering": 0}
    for eid in sorted(base_list):
        value = base_list[eid]
        ref = game.predict(value, ticks) if predicted else value
        op = read_op(s)
        ops[op] += 1
        if op == "unchanged":
            result[eid] = ref
        elif op == "changed":
            result[eid] = game.delta(s, ref)
            if result[eid] == ref:
                raise DecodeError("malformed", f"entity {eid} changed to its reference")
        elif op == "stale":
            result[eid] = value
            stale.append(eid)
    s.set_context(ENTERING_GROUP, 0)
    entering = read_int(s, 0, MAX_ENTITIES - 1, "entering count") + 1 if read_bool(s, "entering") else 0
    if len(result) + entering > MAX_ENTITIES:
        raise DecodeError("malformed", f"{entering} entering: more than {MAX_ENTITIES} entities")
    previous = None
    for n in range(entering):
        eid = read_entering_id(s, n == 0, previous)
        if eid in base_list:
            raise DecodeError("malformed", f"entering id {eid} is in the baseline")
        result[eid] = game.full(s)
        previous = eid
    ops["entering"] = entering
    if isinstance(s, RangeReader):
        s.finish()
    else:
        assert isinstance(s, BitReader)
        s.finish_message("snapshot")
    info["ops"] = ops
    return result, stale, info
