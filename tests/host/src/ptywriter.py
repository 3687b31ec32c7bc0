#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
# ptywriter.py - a serial target for tests/host/mttcontrol-serial.t: a
# pty pair whose other end (the slave's path, written to PATHFILE) is the
# "port".  Once the file GO exists it writes STREAM to the master; once
# CLOSE exists it closes the master (the port vanishes: a hangup); with
# CLOSE "-" it keeps it open until killed, appending what the other end
# sends (commands to the device) to the file RECV.  The wait for GO is a
# hang guard (60 s), never a timing a test depends on.
import errno
import os
import select
import sys
import time


def wait_for(path):
    for _ in range(6000):
        if os.path.exists(path):
            return True
        time.sleep(0.01)
    return False


def open_pty(pathfile):
    """a pty pair: its master; the slave's path written to pathfile"""
    master, slave = os.openpty()
    name = os.ttyname(slave)
    os.close(slave)
    with open(pathfile + ".tmp", "w") as f:
        f.write(name + "\n")
    os.rename(pathfile + ".tmp", pathfile)
    return master


def main():
    pathfile, stream, go, close, recv = sys.argv[1:6]
    master = open_pty(pathfile)
    if not wait_for(go):
        return 1
    with open(stream, "rb") as f:
        data = f.read()
    off = 0
    while off < len(data):  # in pieces: many reads on the other side
        off += os.write(master, data[off:off + 100])
    if close == "-":
        while True:
            select.select([master], [], [])
            try:
                got = os.read(master, 4096)
            except OSError as e:  # EIO: no one has the port open now
                if e.errno != errno.EIO:
                    raise
                time.sleep(0.01)  # until it is opened again, or killed
                continue
            with open(recv, "ab") as f:
                f.write(got)
    if wait_for(close):
        os.close(master)
    return 0


if __name__ == "__main__":
    sys.exit(main())
