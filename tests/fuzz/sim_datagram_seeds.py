# Writes the seed corpus of fuzz_sim_datagram (FuzzedDataProvider layout): python3 tests/fuzz/sim_datagram_seeds.py tests/fuzz/corpus/sim_datagram
import os, sys, struct
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
def hdr(t, seq=0, ack=0, bits=0, ackv=False): return bytes([t | (0x80 if ackv else 0)]) + struct.pack('<HHI', seq, ack, bits)
def msg(rel, data, mid=0): return bytes([1 if rel else 0]) + (struct.pack('<H', mid) if rel else b'') + struct.pack('<H', len(data)) + data
def rnd(p, dgs, back=None, wait=20000):
    p.rng(0,4,len(dgs))
    for forged, d in dgs:
        p.b(forged); p.rng(0,1400,len(d)); p.front += d
    if back is None: p.rng(0,3,1)
    else: p.rng(0,3,0); p.rng(0,64,len(back)); p.front += back
    p.rng(1000,50000,wait)
out=sys.argv[1]
def save(n,p): open(os.path.join(out,n),'wb').write(p.data())
p=P(); rnd(p,[]); rnd(p,[(False,hdr(2))]); rnd(p,[(False,hdr(1,1)+msg(False,b'hi')+msg(True,b'rel',0))]); rnd(p,[(False,hdr(5))]); save('stranger_connects_sends_leaves',p)
p=P(); rnd(p,[]); rnd(p,[]); rnd(p,[(True,hdr(1,7,0,0xFFFFFFFF,True)+msg(True,b'\x00\x00\x00\x5a',0)+msg(True,b'x',65535))]); rnd(p,[]); save('forged_reliable',p)
p=P(); rnd(p,[]); rnd(p,[(True,hdr(1,2)+b'\x01\x05'),(False,hdr(1,2)+b'\x00\xff\xff'),(True,hdr(1,3)+b'\x02')]); rnd(p,[]); save('truncated_messages',p)
p=P(); rnd(p,[]); rnd(p,[(True,hdr(1,9)+msg(False,bytes(1300-12)))]); rnd(p,[(False,bytes(8))]); save('oversized_and_short',p)
p=P(); rnd(p,[]); rnd(p,[],back=hdr(4)+bytes([4])); rnd(p,[],back=hdr(5)); rnd(p,[]); save('forged_goodbye_to_client',p)
p=P(); rnd(p,[]); rnd(p,[(True,bytes([0x31])+bytes(8)),(True,bytes([0x0F])+bytes(8)),(True,hdr(3,0,0,0,True))]); rnd(p,[]); save('bad_types',p)
