# Writes the seed corpus of fuzz_websocket_server (first byte < 0x80: frames after a valid upgrade; else raw HTTP): python3 tests/fuzz/websocket_server_seeds.py tests/fuzz/corpus/websocket_server
import os, struct, sys
def frame(op, payload, mask=True, fin=True, rsv=0):
    b = bytes([(0x80 if fin else 0) | rsv | op])
    n = len(payload); m = 0x80 if mask else 0
    if n < 126: b += bytes([m | n])
    elif n <= 0xFFFF: b += bytes([m | 126]) + struct.pack('>H', n)
    else: b += bytes([m | 127]) + struct.pack('>Q', n)
    key = b'\x12\x34\x56\x78'
    if mask: b += key + bytes(p ^ key[i % 4] for i, p in enumerate(payload))
    else: b += payload
    return b
seeds = {
 'reliable_and_unreliable': b'\x00' + frame(2, b'\x01hello') + frame(2, b'\x00snap'),
 'text': b'\x00' + frame(1, b'hi'),
 'unknown_class': b'\x00' + frame(2, b'\x07x'),
 'oversize_unreliable': b'\x00' + frame(2, b'\x00' + b'a' * 70),
 'oversize_reliable': b'\x00' + frame(2, b'\x01' + b'a' * 1100),
 'unmasked': b'\x00' + frame(2, b'\x01x', mask=False),
 'fragments': b'\x00' + frame(2, b'\x01ab', fin=False) + frame(0, b'cd'),
 'ping_close': b'\x00' + frame(9, b'p') + frame(8, b'\x03\xe8bye'),
 'reserved_bits': b'\x00' + frame(2, b'\x01x', rsv=0x40),
 'control_from_client': b'\x00' + frame(2, b'\x02\x01'),
 'wrong_path': b'\x80GET /other HTTP/1.1\r\nHost: x\r\n\r\n',
 'no_protocol': b'\x80GET /rewind HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n'
                b'Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n',
 'garbage': b'\x80\x16\x03\x01 not http',
}
out = sys.argv[1]
os.makedirs(out, exist_ok=True)
for k, v in seeds.items():
    with open(os.path.join(out, k), 'wb') as f: f.write(v)
