# 4 threads: pure-Python work (the GIL passed round) and a shared
# threading.Lock taken from two call paths, 3 times in 4 from lookup()
import threading
lock = threading.Lock()
table = {}

def crunch(n):
    s = 0
    for i in range(n):
        s += i * i
    return s

def lookup(k):
    with lock:
        table[k] = crunch(2000)

def store(k):
    with lock:
        table[k] = crunch(2000)

def worker(t):
    for i in range(400):
        if i % 4 == 3:
            store(i)
        else:
            lookup(i)
        crunch(3000)

ts = [threading.Thread(target=worker, args=(t,), name="worker-%d" % t) for t in range(4)]
for t in ts: t.start()
for t in ts: t.join()
