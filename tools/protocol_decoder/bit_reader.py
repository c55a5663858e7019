# The bit-packed stream of docs/PROTOCOL.md "Bit order": fields LSB first, bit i of the stream in byte i // 8.
from errors import DecodeError


class BitReader:
    """Reads `bits(n)` fields from bytes; reading past the end is `end_of_data`."""

    range_coded = False

    def __init__(self, data):
        self.data = bytes(data)
        self.pos = 0  # in bits

    def bits_left(self):
        return 8 * len(self.data) - self.pos

    def bits(self, n, what="bits"):
        assert 0 <= n <= 32, n
        if n > self.bits_left():
            raise DecodeError("end_of_data", what)
        value = 0
        for k in range(n):
            byte = self.data[(self.pos + k) // 8]
            value |= ((byte >> ((self.pos + k) % 8)) & 1) << k
        self.pos += n
        return value

    def set_context(self, group, ordinal=0):
        """Model slots exist only on a range-coded stream."""

    def align(self, what="align"):
        """Zero bits up to the next byte boundary; a non-zero pad bit is `malformed`."""
        pad = (8 - self.pos % 8) % 8
        if self.bits(pad, what) != 0:
            raise DecodeError("malformed", what + ": non-zero pad bit")

    def finish_message(self, what="message"):
        """A whole message ends within its final byte, and the padding there is zero."""
        if self.bits_left() >= 8:
            raise DecodeError("malformed", what + f": {self.bits_left() // 8} byte(s) after the message")
        self.align(what + " padding")
