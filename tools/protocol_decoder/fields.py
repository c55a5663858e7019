# The primitive encodings of docs/PROTOCOL.md ("Encodings"), on any stream that reads bits(n) fields.
from errors import DecodeError


def bits_required(r):
    """Bit width of r (0 for r = 0)."""
    return r.bit_length()


def read_wide(s, n, what):
    """A field of n bits, wider than 32 when it must be: the low 32 bits, then the remaining high bits."""
    if n <= 32:
        return s.bits(n, what)
    low = s.bits(32, what)
    return low | (s.bits(n - 32, what) << 32)


def read_bool(s, what):
    return s.bits(1, what) == 1


def read_int(s, lo, hi, what):
    """int(min, max): v - min unsigned in bits_required(max - min) bits."""
    offset = read_wide(s, bits_required(hi - lo), what)
    if offset > hi - lo:
        raise DecodeError("value_out_of_range", f"{what}: offset {offset} > {hi - lo}")
    return lo + offset


def read_enum(s, top, what):
    return read_int(s, 0, top, what)


def read_uint64(s, what):
    low = s.bits(32, what)
    return low | (s.bits(32, what) << 32)


def read_int32_bits(s, what):
    """bits(32) read as two's complement."""
    v = s.bits(32, what)
    return v - (1 << 32) if v >= 1 << 31 else v


def read_varint(s, what, width=32):
    """LEB128 in 8-bit groups; uint32: at most 5 groups, uint64: at most 10."""
    max_groups = 5 if width == 32 else 10
    value = 0
    for g in range(max_groups):
        group = s.bits(8, what)
        if g > 0 and group == 0:
            raise DecodeError("malformed", f"{what}: over-long varint")
        value |= (group & 0x7F) << (7 * g)
        if group & 0x80 == 0:
            if value >= 1 << width:
                raise DecodeError("value_out_of_range", f"{what}: varint {value} >= 2^{width}")
            return value
    raise DecodeError("malformed", f"{what}: more than {max_groups} varint groups")


def as_int32(v, what):
    if not -(1 << 31) <= v < 1 << 31:
        raise DecodeError("value_out_of_range", f"{what}: {v} outside int32")
    return v


def read_relative(s, ref, what):
    """relative(ref): prefix 0 / 10 / 110 / 111 (stream order), then d + 8, d + 128, d + 32768, or v itself."""
    buckets = ((4, 8), (8, 128), (16, 32768))
    for index, (width, bias) in enumerate(buckets):
        if s.bits(1, what) == 0:
            d = s.bits(width, what) - bias
            if index > 0 and -buckets[index - 1][1] <= d < buckets[index - 1][1]:
                raise DecodeError("malformed", f"{what}: relative value not in its smallest bucket")
            return as_int32(ref + d, what)
    v = read_int32_bits(s, what)
    if -32768 <= v - ref <= 32767:
        raise DecodeError("malformed", f"{what}: relative value not in its smallest bucket")
    return v


def read_bytes(s, max_len, what):
    """bytes(max): the length in bits_required(max) bits, then each byte in 8 bits (not aligned)."""
    n = read_wide(s, bits_required(max_len), what + " length")
    if n > max_len or (hasattr(s, "bits_left") and n > s.bits_left() // 8):
        raise DecodeError("length_too_long", f"{what}: length {n}")
    return bytes(s.bits(8, what) for _ in range(n))
