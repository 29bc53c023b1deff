/*
 * PoolBench - a synchronized pool with known contention: THREADS threads
 * named pool-worker-N each take the pool's monitor ITERS times and sleep
 * HOLD_MS inside it, so every other thread waits on a monitor of class
 * PoolBench$Pool. Each thread measures its own waits (the time from just
 * before the synchronized block to its first statement) and prints them:
 *   thread NAME acquires=N wait_ns=N held_ns=N
 * With a WAITS argument > 0, a thread named signal-waiter also does WAITS
 * Object.wait()s on a PoolBench$SignalWith...Tail, each notified after
 * HOLD_MS; that class's name is longer than fctrace keeps (63 bytes).
 *
 * usage: java PoolBench [THREADS [ITERS [HOLD_MS [WAITS]]]]
 */
public final class PoolBench {
    static final class Pool {
        private int taken;

        synchronized long take(long holdMs) throws InterruptedException {
            taken++;
            Thread.sleep(holdMs);
            return taken;
        }
    }

    static final class SignalWithAClassNameLongerThanFctraceKeepsSoOnlyItsTail {
        boolean ready;
    }

    public static void main(String[] args) throws Exception {
        int threads = Harness.arg(args, 0, 4);
        int iters = Harness.arg(args, 1, 20);
        int holdMs = Harness.arg(args, 2, 2);
        int waits = Harness.arg(args, 3, 0);
        Pool pool = new Pool();
        Thread[] ts = new Thread[threads];
        long[] waitNs = new long[threads], heldNs = new long[threads];

        Harness.awaitGo();
        for (int i = 0; i < threads; i++) {
            final int me = i;
            ts[i] = new Thread(() -> work(pool, iters, holdMs, me, waitNs, heldNs),
                               "pool-worker-" + i);
        }
        Harness.startAll(ts);
        if (waits > 0)
            signals(waits, holdMs);
        Harness.joinAll(ts);
        for (int i = 0; i < threads; i++)
            System.out.println("thread " + ts[i].getName() + " acquires=" + iters
                               + " wait_ns=" + waitNs[i] + " held_ns=" + heldNs[i]);
    }

    private static void work(Pool pool, int iters, int holdMs, int me,
                             long[] waitNs, long[] heldNs) {
        try {
            for (int k = 0; k < iters; k++) {
                long t0 = System.nanoTime(), t1, t2;
                synchronized (pool) {
                    t1 = System.nanoTime();
                    pool.take(holdMs);
                    t2 = System.nanoTime();
                }
                waitNs[me] += t1 - t0;
                heldNs[me] += t2 - t1;
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /* signal-waiter waits n times on a Signal; this thread notifies it */
    private static void signals(int n, int holdMs) throws InterruptedException {
        SignalWithAClassNameLongerThanFctraceKeepsSoOnlyItsTail sig =
            new SignalWithAClassNameLongerThanFctraceKeepsSoOnlyItsTail();
        Thread w = new Thread(() -> {
            try {
                for (int k = 0; k < n; k++) {
                    synchronized (sig) {
                        while (!sig.ready)
                            sig.wait();
                        sig.ready = false;
                        sig.notifyAll();
                    }
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }, "signal-waiter");
        w.start();
        for (int k = 0; k < n; k++) {
            Thread.sleep(holdMs);
            synchronized (sig) {
                sig.ready = true;
                sig.notifyAll();
                while (sig.ready)
                    sig.wait();
            }
        }
        w.join();
    }
}
