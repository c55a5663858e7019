# The range-coded stream of docs/PROTOCOL.md ("Range coder"): bits(n) fields decoded through adaptive models.
from errors import DecodeError

GROUPS, ORDINALS = 16, 64
TREE_BITS = 4
TAIL_BYTES = 3  # zero bytes a complete message reads past its end
TOP = 1 << 24
SHIFTS = (2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 4, 4, 4, 4, 5, 5)  # adaptation shift by use count
MIN_P, MAX_P = 31, 4065


class Model:
    """One binary model: P(bit is 0) in 1/4096 and how often it was used (0..15)."""

    __slots__ = ("p", "count")

    def __init__(self, p=2048, count=0):
        self.p, self.count = p, count

    def adapt(self, bit):
        shift = SHIFTS[self.count]
        self.p = self.p - (self.p >> shift) if bit else self.p + ((4096 - self.p) >> shift)
        self.count = min(self.count + 1, 15)


class RangeReader:
    """Decodes the range-coded tail of a message; `table` maps (group, ordinal, model) to a trained P(0)."""

    range_coded = True

    def __init__(self, data, table=None):
        self.data = bytes(data)
        self.table = table or {}
        self.pos = 0
        self.past_end = 0
        self.slots = {}  # (group, ordinal) -> {model index: Model}, created on first use
        self.group = self.ordinal = 0
        self.range = 0xFFFFFFFF
        self.code = 0
        for _ in range(4):
            self.code = (self.code << 8) | self.next_byte()
        if self.past_end > TAIL_BYTES:
            raise DecodeError("end_of_data", "range-coded list: empty")
        if self.code >= self.range:
            raise DecodeError("malformed", "range-coded list: first word 0xFFFFFFFF")

    def next_byte(self):
        if self.pos < len(self.data):
            self.pos += 1
            return self.data[self.pos - 1]
        self.past_end += 1
        return 0

    def set_context(self, group, ordinal=0):
        self.group, self.ordinal = group % GROUPS, ordinal % ORDINALS

    def model(self, slot, index):
        models = self.slots.setdefault(slot, {})
        if index not in models:
            trained = self.table.get((slot[0], slot[1], index))
            models[index] = Model(min(max(trained, MIN_P), MAX_P), 15) if trained is not None else Model()
        return models[index]

    def decode_bit(self, m):
        bound = (self.range >> 12) * m.p
        if self.code >= bound:
            bit = 1
            self.code -= bound
            self.range -= bound
        else:
            bit = 0
            self.range = bound
        m.adapt(bit)
        if self.range < TOP:
            self.range = (self.range << 8) & 0xFFFFFFFF
            self.code = ((self.code << 8) | self.next_byte()) & 0xFFFFFFFF
        return bit

    def bits(self, n, what="bits"):
        """A value of n bits, MSB first: its top min(n, 4) bits through the slot's bit tree, the rest by index."""
        assert 0 <= n <= 32, n
        slot = (self.group, self.ordinal)
        self.ordinal = (self.ordinal + 1) % ORDINALS
        tree_bits = min(n, TREE_BITS)
        node = 1
        for _ in range(tree_bits):
            node = (node << 1) | self.decode_bit(self.model(slot, node))
        value = node - (1 << tree_bits)
        for i in range(n - tree_bits - 1, -1, -1):
            value = (value << 1) | self.decode_bit(self.model(slot, 16 + i))
        if self.past_end > TAIL_BYTES:
            raise DecodeError("end_of_data", what)
        return value

    def uniform(self, n, what="uniform bits"):
        """n uniform bits (no model, no slot), MSB first: the top n - 16 bits first while n > 16, then 16."""
        assert 0 <= n <= 32, n
        value, left = 0, n
        while left > 0:
            step = left - 16 if left > 16 else left
            left -= step
            self.range >>= step
            part = self.code // self.range
            if part >> step:
                raise DecodeError("malformed", f"{what}: code past every {step}-bit value")
            self.code -= part * self.range
            while self.range < TOP:
                self.range = (self.range << 8) & 0xFFFFFFFF
                self.code = ((self.code << 8) | self.next_byte()) & 0xFFFFFFFF
            value = (value << step) | part
        if self.past_end > TAIL_BYTES:
            raise DecodeError("end_of_data", what)
        return value

    def finish(self, what="range-coded list"):
        """Only the writer's ending: no byte left, exactly three read past the end, code below 2^24."""
        if self.pos != len(self.data) or self.past_end != TAIL_BYTES or self.code >= TOP:
            raise DecodeError(
                "malformed",
                f"{what}: not the writer's ending ({len(self.data) - self.pos} bytes left, "
                f"{self.past_end} read past the end, code {self.code:#x})",
            )


def read_residual(s, group, first, ref, what, modelled=32):
    """residual(g, ref) on a range-coded stream from ordinal `first`: class, (extension), sign, mantissa (its
    top `modelled` bits through the class's slot, the rest uniform)."""
    s.set_context(group, first)
    n = s.bits(4, what + " class")
    if n == 15:
        s.set_context(group, first + 1)
        n = 15 + s.bits(5, what + " class extension")
        if n > 32:
            raise DecodeError("malformed", f"{what}: class {n} > 32")
    d = 0
    if n > 0:
        s.set_context(group, first + 2)
        negative = s.bits(1, what + " sign") == 1
        s.set_context(group, first + 3 + n)
        top = min(max(modelled, 0), n - 1)
        low = n - 1 - top
        d = (1 << (n - 1)) | (s.bits(top, what + " mantissa") << low) | s.uniform(low, what + " mantissa low bits")
        d = -d if negative else d
    v = ref + d
    if not -(1 << 31) <= v < 1 << 31:
        raise DecodeError("value_out_of_range", f"{what}: {v} outside int32")
    return v
