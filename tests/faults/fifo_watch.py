"""Report every open of a FIFO for reading: ``python -m tests.faults.fifo_watch PATH``.

Runs as its own process so it never needs the GIL of the app under test (a Qt call that
blocks opening the FIFO would otherwise hold the GIL and deadlock an in-process watcher).
Each time it manages to open the FIFO for writing, somebody had it open for reading: it
prints ``open`` and closes, so that reader sees end of file and goes on.
"""

from __future__ import annotations

import os
import sys
import time


def main(path: str) -> int:
    while True:
        try:
            fd = os.open(path, os.O_WRONLY | os.O_NONBLOCK)
        except OSError:
            time.sleep(0.002)
            continue
        print("open", flush=True)
        os.close(fd)
        time.sleep(0.002)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
