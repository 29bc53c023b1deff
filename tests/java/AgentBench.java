/*
 * AgentBench - the JVMTI agent's cost: THREADS threads, half entering one
 * synchronized block, half one ReentrantLock, each holding it for a few
 * microseconds of CPU, for SECONDS seconds after the go line. Prints
 * "ops N" (all threads' acquisitions): throughput, compared with and
 * without fctrace's agent loaded.
 *
 * usage: java AgentBench [THREADS [SECONDS [HOLD_US]]]
 */
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.ReentrantLock;

public final class AgentBench {
    static final Object guard = new Object();
    static final ReentrantLock lock = new ReentrantLock();

    static void spin(long us) {
        long end = System.nanoTime() + us * 1000;
        while (System.nanoTime() < end)
            Thread.onSpinWait();
    }

    public static void main(String[] args) throws Exception {
        int threads = Harness.arg(args, 0, 8);
        int seconds = Harness.arg(args, 1, 5);
        int holdUs = Harness.arg(args, 2, 5);
        LongAdder ops = new LongAdder();
        Harness.awaitGo();
        long end = System.nanoTime() + seconds * 1_000_000_000L;
        Thread[] ts = new Thread[threads];
        for (int i = 0; i < threads; i++) {
            final boolean mon = i % 2 == 0;
            ts[i] = new Thread(() -> {
                while (System.nanoTime() < end) {
                    if (mon) {
                        synchronized (guard) {
                            spin(holdUs);
                        }
                    } else {
                        lock.lock();
                        try {
                            spin(holdUs);
                        } finally {
                            lock.unlock();
                        }
                    }
                    ops.increment();
                }
            }, "bench-" + i);
        }
        Harness.startAll(ts);
        Harness.joinAll(ts);
        System.out.println("ops " + ops.sum());
    }
}
