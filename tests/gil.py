"""gil.py - CPython threads taking turns on the GIL: THREADS threads named
reader-N each make OPS os.pread calls of 4 KiB on FILE (default: the
python binary itself) with a little Python work between them. Used by
test_bpf_target (the GIL is a condvar taken in turns) and docs/any-program.md.

    python3 gil.py [THREADS [OPS [FILE]]]
"""
import os
import sys
import threading


def work(path, n):
    fd = os.open(path, os.O_RDONLY)
    size = max(os.fstat(fd).st_size - 4096, 1)
    for i in range(n):
        os.pread(fd, 4096, (i * 4096) % size)
        sum(range(200))
    os.close(fd)


def main():
    threads = int(sys.argv[1]) if len(sys.argv) > 1 else 4
    ops = int(sys.argv[2]) if len(sys.argv) > 2 else 40000
    path = sys.argv[3] if len(sys.argv) > 3 else sys.executable
    ts = [threading.Thread(target=work, args=(path, ops), name="reader-%d" % i)
          for i in range(threads)]
    for t in ts:
        t.start()
    for t in ts:
        t.join()


main()
