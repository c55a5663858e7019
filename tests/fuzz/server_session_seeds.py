# Writes the seed corpus of fuzz_server_session (op programs in FuzzedDataProvider layout: integers are read from the back): python3 tests/fuzz/server_session_seeds.py tests/fuzz/corpus/server_session
import os, sys
class P:
    def __init__(s): s.back=[]; s.front=b''
    def rng(s, lo, hi, v, bits=64):
        r = hi - lo; v -= lo; n = 0; off = 0
        bs = []
        while off < bits and (r >> off) > 0:
            n += 1; off += 8
        # result = (result<<8)|byte, bytes consumed from the back in order -> big-endian in consumption order
        for i in range(n): bs.append((v >> (8*(n-1-i))) & 0xFF)
        s.back += bs
    def b(s, v): s.rng(0,255,1 if v else 0)
    def u8(s,v): s.rng(0,255,v)
    def u16(s,v): s.rng(0,65535,v)
    def u32(s,v): s.rng(0,2**32-1,v)
    def data(s): return s.front + bytes(reversed(s.back))
def ctor(p, seed=1, impaired=False, violations=True, cap=8):
    p.u16(seed); p.b(impaired); p.b(not violations); p.rng(1,32,cap)
def op(p, fake, code): p.rng(0,5,fake); p.rng(0,15,code)
def advance(p, fake, us): op(p,fake,15); p.rng(1000,100000,us)
def jump(p, fake, us): op(p,fake,10); p.rng(4000,800000,us)
def hello(p, fake): op(p,fake,1); p.rng(0,7,1); p.rng(0,7,1); p.rng(0,7,1)
def inp(p, mx=0,my=0,btn=0,aim=0,vd=2,fr=0):
    p.rng(-127,127,mx); p.rng(-127,127,my); p.rng(0,15,btn); p.u16(aim); p.rng(0,63,vd); p.u16(fr)
def input_packet(p, fake, near=2, count=4, flood=0, **kw):
    if flood: op(p,fake,4); p.rng(1,64,flood); reps=flood
    else: op(p,fake,2); reps=1
    for _ in range(reps):
        p.rng(0,3,1); p.rng(-200,200,near); p.rng(0,4,count)
        for i in range(count): inp(p, **kw)
        p.b(True); p.u8(3); p.u32(12345)
def connect_all(p, n):
    for f in range(n): op(p,f,0)
    advance(p,0,50000)
    for f in range(n): hello(p,f)
    advance(p,0,50000)
out = sys.argv[1]
def save(name, p): open(os.path.join(out,name),'wb').write(p.data())
# four clients seated, each sends a few seconds of inputs, some fire
p=P(); ctor(p); connect_all(p,4)
for t in range(30):
    for f in range(4): input_packet(p,f,near=2+t%3,mx=100,my=-50,btn=1 if f%2 else 0,aim=t*500)
    advance(p,0,16000)
save('seated_play', p)
# six clients for four seats: two refused
p=P(); ctor(p, seed=7); connect_all(p,6); advance(p,0,100000); save('server_full', p)
# flood: bursts of 64 packets
p=P(); ctor(p, cap=4); connect_all(p,2)
for t in range(5): input_packet(p,0,flood=64,btn=1); advance(p,0,16000)
save('flood', p)
# inputs stamped far in the future and in the past
p=P(); ctor(p); connect_all(p,2)
for t in range(10): input_packet(p,0,near=200); input_packet(p,1,near=-200); advance(p,0,16000)
save('future_past', p)
# garbage after connecting, then silence until timeouts
p=P(); ctor(p); connect_all(p,3)
for t in range(25):
    op(p,0,5); p.b(False); p.rng(0,96,8); p.front += bytes([0x7F,0xFF,0x13,0x37,0xFF,0xFF,0xFF,0x01])
    advance(p,0,5000)
jump(p,1,700000); jump(p,1,700000)
save('garbage_then_silence', p)
# connect, play, transport disconnect, reconnect, hello again
p=P(); ctor(p, impaired=True); connect_all(p,2)
input_packet(p,0); advance(p,0,100000); op(p,0,8); advance(p,0,100000); op(p,0,0); advance(p,0,100000); hello(p,0); advance(p,0,200000)
save('reconnect_impaired', p)
# the real client joins and plays while a fake floods
p=P(); ctor(p); op(p,0,12); p.rng(0,0,0)
for t in range(30): advance(p,0,50000)
op(p,0,12); inp(p,mx=90,btn=1); connect_all(p,1)
for t in range(20): input_packet(p,0,flood=8); advance(p,0,20000)
save('real_client', p)
