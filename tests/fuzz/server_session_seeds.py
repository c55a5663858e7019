# Writes the named seeds of fuzz_server_session: python3 tests/fuzz/server_session_seeds.py tests/fuzz/corpus/server_session
# Each seed is an op program in the target's input layout (FuzzedDataProvider: integers and bools are taken from
# the back, byte strings from the front); the functions below follow fuzz_server_session.cpp draw by draw.
import os
import sys

INPUTS_PER_PACKET = 4  # client_server::kInputsPerPacket
ALL_BUTTONS = 15  # arena::kAllButtons
MAX_VIEW_DELAY = 63  # arena::kMaxViewDelay
CAP_MIN = 8 + 4  # input_buffer_tuning.max_ticks + 4


class Program:
    def __init__(self):
        self.back = []  # in the order the target takes them
        self.front = b''

    def rng(self, lo, hi, v):
        """ConsumeIntegralInRange(lo, hi) == v: big-endian bytes of v - lo, as many as the range needs."""
        assert lo <= v <= hi, (lo, v, hi)
        r, v, n = hi - lo, v - lo, 0
        while n < 8 and (r >> (8 * n)) > 0:
            n += 1
        self.back += [(v >> (8 * (n - 1 - i))) & 0xFF for i in range(n)]

    def bool(self, v): self.rng(0, 255, 1 if v else 0)
    def u8(self, v): self.rng(0, 255, v)
    def u16(self, v): self.rng(0, 65535, v)
    def u32(self, v): self.rng(0, 2**32 - 1, v)
    def data(self): return self.front + bytes(reversed(self.back))


def driver(p, seed=1, impaired=False, frame_ms=4, grace=False, resume_log=16, violations=True, cap=16,
           range_coded=False):
    p.u16(seed); p.bool(impaired); p.rng(1, 4, frame_ms // 4); p.bool(grace); p.rng(1, 64, resume_log)
    p.bool(not violations); p.rng(CAP_MIN, 32, cap); p.bool(range_coded)


def op(p, fake, code): p.rng(0, 5, fake); p.rng(0, 15, code)
def advance(p, us, fake=0): op(p, fake, 15); p.rng(1000, 100000, us)
def stall(p, us, fake=0): op(p, fake, 10); p.rng(4000, 800000, us)
def connect(p, fake): op(p, fake, 0)
def disconnect(p, fake): op(p, fake, 8)


def hello(p, fake):
    op(p, fake, 1)
    p.rng(0, 3, 1)  # not a comeback
    p.rng(0, 7, 1); p.rng(0, 7, 1); p.rng(0, 7, 1)  # version, game id and no token as they are


def inp(p, mx=0, my=0, buttons=0, aim=0, view_delay=2, fraction=0):
    p.rng(-127, 127, mx); p.rng(-127, 127, my); p.rng(0, ALL_BUTTONS, buttons); p.u16(aim)
    p.rng(0, MAX_VIEW_DELAY, view_delay); p.u16(fraction)


def packet(p, near=2, count=INPUTS_PER_PACKET, **kw):
    p.rng(0, 3, 1)  # stamped near the server's tick
    p.rng(-200, 200, near); p.rng(0, INPUTS_PER_PACKET, count)
    for _ in range(count):
        inp(p, **kw)
    p.bool(True); p.u8(3); p.u32(12345)  # acks the snapshot 3 ticks back


def inputs(p, fake, flood=0, **kw):
    if flood:
        op(p, fake, 4); p.rng(1, 64, flood)
    else:
        op(p, fake, 2)
    for _ in range(max(flood, 1)):
        packet(p, **kw)


def seat(p, n):
    for f in range(n):
        connect(p, f)
    advance(p, 50000)
    for f in range(n):
        hello(p, f)
    advance(p, 50000)


def seeds():
    out = {}
    p = Program(); driver(p); seat(p, 4)  # four clients seated, each sends inputs, some fire
    for t in range(30):
        for f in range(4):
            inputs(p, f, near=2 + t % 3, mx=100, my=-50, buttons=1 if f % 2 else 0, aim=t * 500)
        advance(p, 16000)
    out['seated_play'] = p
    p = Program(); driver(p, seed=7); seat(p, 6); advance(p, 100000)  # six clients for four seats
    out['server_full'] = p
    p = Program(); driver(p, cap=CAP_MIN); seat(p, 2)  # bursts of 64 packets
    for _ in range(5):
        inputs(p, 0, flood=64, buttons=1); advance(p, 16000)
    out['flood'] = p
    p = Program(); driver(p, range_coded=True); seat(p, 2)  # inputs stamped far ahead and far behind
    for _ in range(10):
        inputs(p, 0, near=200); inputs(p, 1, near=-200); advance(p, 16000)
    out['future_past'] = p
    p = Program(); driver(p, frame_ms=16); seat(p, 3)  # garbage after connecting, then silence past the timeouts
    for _ in range(25):
        op(p, 0, 5); p.bool(False); p.rng(0, 96, 8); p.front += bytes([0x7F, 0xFF, 0x13, 0x37, 0xFF, 0xFF, 0xFF, 0x01])
        advance(p, 5000)
    stall(p, 700000, fake=1); stall(p, 700000, fake=1)
    out['garbage_then_silence'] = p
    p = Program(); driver(p, impaired=True, grace=True); seat(p, 2)  # transport lost, reconnect, hello again
    inputs(p, 0); advance(p, 100000); disconnect(p, 0); advance(p, 100000); connect(p, 0); advance(p, 100000)
    hello(p, 0); advance(p, 100000); advance(p, 100000)
    out['reconnect_impaired'] = p
    p = Program(); driver(p)  # the real client joins and plays while a fake floods
    op(p, 0, 12)  # (re)connects the real client: draws nothing more
    for _ in range(10):
        advance(p, 50000)
    op(p, 0, 12); inp(p, mx=90, buttons=1)  # now playing: the next op is its input
    seat(p, 1)
    for _ in range(20):
        inputs(p, 0, flood=8); advance(p, 20000)
    out['real_client'] = p
    return {name: prog.data() for name, prog in out.items()}


if __name__ == '__main__':
    for name, data in seeds().items():
        with open(os.path.join(sys.argv[1], name), 'wb') as f:
            f.write(data)
