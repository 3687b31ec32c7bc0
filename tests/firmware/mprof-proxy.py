#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""mprof-proxy.py - a damaging line between a MiniProfiler device's pty
(QEMU's USART1) and the host (tests/firmware/wire-errors.t).

  mprof-proxy.py DEVICE LINK RECORDS DAMAGE... 

Opens DEVICE, makes a pty pair and links LINK to its slave (the host
opens LINK).  Host-to-device bytes pass unchanged.  Device-to-host bytes
are cut into responses as Documentation/miniprofiler.rst defines them
(AA 55, type, 16-bit little-endian payload length, payload, CRC16, 0A)
and passed on whole, except that each DAMAGE, N:OFF, XORs with 0xff the
byte at offset OFF (negative: from the packet's end) of the first
PROFILE_DATA packet from the Nth on (1-based) whose bytes, damaged,
hold no AA 55 after the header (so a host that searches for the next
header in a damaged packet finds none there).  Lines on stdout:
"damaged N BYTES RECORDS" for each packet damaged (BYTES its length,
RECORDS its record count), "forwarded RECORDS" once the PROFILE_DATA
packets passed on hold RECORDS records in all.  Every byte passed to the
host is also appended to LINK.sent.  Runs until killed.
"""
import os
import select
import sys
import tty

SYNC = b"\xaa\x55"
PROFILE_DATA = 0x05


def main():
    device, link, want = sys.argv[1], sys.argv[2], int(sys.argv[3])
    damage = []
    for d in sys.argv[4:]:
        n, off = d.split(":")
        damage.append([int(n), int(off)])

    dev = os.open(device, os.O_RDWR | os.O_NOCTTY)
    tty.setraw(dev)
    master, slave = os.openpty()
    tty.setraw(slave)
    if os.path.lexists(link):
        os.unlink(link)
    os.symlink(os.ttyname(slave), link)
    sent = open(link + ".sent", "wb", buffering=0)

    buf = bytearray()
    nprof = 0
    records = 0
    told = False

    def out(b):
        os.write(master, b)
        sent.write(b)

    while True:
        r, _, _ = select.select([dev, master], [], [])
        if master in r:
            try:
                os.write(dev, os.read(master, 4096))
            except OSError:
                pass    # the host closed the line: wait for the next
        if dev not in r:
            continue
        buf += os.read(dev, 4096)
        while True:
            if len(buf) >= 2 and buf[:2] != SYNC:
                out(bytes(buf[:1]))     # not a packet: passed on as it is
                del buf[:1]
                continue
            if len(buf) < 5:
                break
            size = 5 + (buf[3] | buf[4] << 8) + 3
            if len(buf) < size:
                break
            pkt = bytearray(buf[:size])
            del buf[:size]
            if pkt[2] == PROFILE_DATA:
                nprof += 1
                count = pkt[6] | pkt[7] << 8
                records += count
                for d in damage:
                    if d[0] is None or nprof < d[0]:
                        continue
                    bad = bytearray(pkt)
                    bad[d[1]] ^= 0xff
                    if SYNC in bad[1:]:
                        continue
                    pkt = bad
                    print("damaged %d %d %d" % (nprof, size, count),
                          flush=True)
                    d[0] = None
                    break
            out(bytes(pkt))
            if records >= want and not told:
                print("forwarded %d" % records, flush=True)
                told = True


if __name__ == "__main__":
    main()
