#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
# syncdev.py - a scripted device for tests/host/mttcontrol-serial.t that
# answers commands, written from the protocol texts (Documentation/
# miniprofiler.rst with its "Clock exchanges", mtt.rst "Commands and
# replies" and "Clock exchanges"), not from the project's code: a pty
# pair whose other end (the slave's path, written to PATHFILE) is the
# "port"; what it receives is appended to RECV.  MODE:
#   mprof       a MiniProfiler: METADATA, ACK, STATUS, and TIME_SYNC
#               (response 06: seq, t_rx, t_tx from a microsecond clock)
#   mprof-nack  the same, predating TIME_SYNC: NACK to it
#   mtt         MTT commands: START's reply, TIME_SYNC's (RET | RETV |
#               TS64, type_info 0x07010010, t_rx, t_tx in ns)
#   rv          the same MTT commands received, the replies sent in
#               RISC-V trace encapsulation (the "Unformatted Trace &
#               Diagnostic Data Packet Encapsulation" spec, unframed:
#               srcID 8 bits, timestamp 4 bytes): a sync sequence, then
#               the reply frame on srcID 1 cut into packets of at most 16
#               payload bytes, a packet of srcID 2 (not MTT) between them
# It runs until killed.
import os
import select
import struct
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from ptywriter import open_pty  # noqa: E402


def crc16(b):
    # CRC16-CCITT: polynomial 0x1021, initial value 0xffff, MSB first
    c = 0xffff
    for x in b:
        c ^= x << 8
        for _ in range(8):
            c = ((c << 1) ^ 0x1021) if c & 0x8000 else c << 1
            c &= 0xffff
    return c


def rsp(t, pl=b""):
    h = bytes([0xaa, 0x55, t]) + struct.pack("<H", len(pl)) + pl
    return h + struct.pack("<H", crc16(h)) + b"\x0a"


def us():
    return (time.monotonic_ns() // 1000) & 0xffffffff


def mprof(cmd, nack_sync):
    code, n = cmd[1], cmd[2]
    if code == 0x05:
        return rsp(0x03, struct.pack("<III", 168000000, 1000000, 0x1234)
                   + b"syncdev".ljust(16, b"\0"))
    if code == 0x03:
        return rsp(0x04, bytes([1]) + struct.pack("<II", 0, 0) + b"\0")
    if code in (0x01, 0x02, 0x04, 0x06):
        return rsp(0x01)
    if code == 0x07 and n == 4 and not nack_sync:
        t_rx = us()
        seq = cmd[3:7]
        return rsp(0x06, seq + struct.pack("<II", t_rx, us()))
    return rsp(0x02)


def mtt(f):
    w0, w1, comp, seq, ti = struct.unpack("<5I", f[:20])
    cmd = w1 & 0xffff0000
    head = 0xeee01000 | 0x42
    if cmd == 0x07000000:
        t_rx = time.monotonic_ns()
        t_tx = time.monotonic_ns()
        return struct.pack("<5IQQQ", head, cmd | 0x3002, comp, seq,
                           0x07010010, time.monotonic_ns(), t_rx, t_tx)
    if cmd in (0x01000000, 0x02000000):
        return struct.pack("<5I", head, cmd | 0x2000, comp, seq, 0)
    return struct.pack("<6I", head, cmd | 0xa000, comp, seq, 0x05040004, 7)


RV_SRCID_BYTES = 1
RV_TS_BYTES = 4


def rv_packet(srcid, payload):
    # header: length (4:0, payload bytes when the srcID is whole bytes),
    # flow (6:5) 0, extend (7) 0: no timestamp; then the srcID, the payload
    return bytes([len(payload), srcid]) + payload


def rv_wrap(frame):
    # unframed sync: N = 31 + T + S null.idle bytes (0x00; more allowed),
    # then a null.alignment (0x80: extend set, length 0)
    out = bytes(31 + RV_TS_BYTES + RV_SRCID_BYTES + 4) + b"\x80"
    for i in range(0, len(frame), 16):
        out += rv_packet(1, frame[i:i + 16])
        if i == 0:
            out += rv_packet(2, b"\xde\xad\xbe\xef")
    return out


def main():
    mode, pathfile, recv = sys.argv[1:4]
    master = open_pty(pathfile)
    buf = b""
    while True:
        select.select([master], [], [])
        try:
            got = os.read(master, 4096)
        except OSError:
            time.sleep(0.01)  # no other end yet
            continue
        with open(recv, "ab") as f:
            f.write(got)
        buf += got
        out = b""
        if mode.startswith("mprof"):
            while True:
                i = buf.find(b"\x55")
                if i < 0:
                    buf = b""
                    break
                buf = buf[i:]
                if len(buf) < 12:
                    break
                c = buf[:12]
                if sum(c[:11]) & 0xff != c[11] or c[2] > 8:
                    buf = buf[1:]
                    continue
                buf = buf[12:]
                out += mprof(c, mode == "mprof-nack")
        else:
            while len(buf) >= 20:
                w0, ti = struct.unpack("<I", buf[:4])[0], \
                    struct.unpack("<I", buf[16:20])[0]
                if w0 & 0xfff00000 != 0xeee00000:
                    buf = buf[1:]
                    continue
                n = 20 + (((ti & 0xffff) + 3) & ~3)
                if len(buf) < n:
                    break
                out += rv_wrap(mtt(buf[:n])) if mode == "rv" else \
                    mtt(buf[:n])
                buf = buf[n:]
        if out:
            os.write(master, out)


if __name__ == "__main__":
    sys.exit(main())
