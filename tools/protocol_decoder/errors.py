# The decode errors of docs/PROTOCOL.md ("Readers treat all data as untrusted"), as one exception type.


class DecodeError(Exception):
    """A message that does not decode: `kind` is the document's error name, `where` says which field."""

    KINDS = ("end_of_data", "malformed", "value_out_of_range", "length_too_long", "unknown_baseline")

    def __init__(self, kind, where):
        assert kind in self.KINDS, kind
        super().__init__(f"{kind}: {where}")
        self.kind = kind
        self.where = where
