/*
 * SiteBench - waits the JVMTI agent names by call site, in a JVM started
 * with no flag. Before the go line a thread named "early-bird" starts
 * (it exists before fctrace attaches) and idles until the end. After go:
 *   - THREADS threads "mon-worker-N" each enter a synchronized block on a
 *     plain Object field ITERS times in Store.touch and sleep HOLD_MS
 *     inside it: contended monitor enters at Store.touch;
 *   - THREADS threads "rl-worker-N" each lock a ReentrantLock ITERS times
 *     in Store.guarded and sleep HOLD_MS holding it: parks whose blocker
 *     is the ReentrantLock's sync, called from Store.guarded.
 * Each prints "thread NAME acquires=N wait_ns=N" as the other benches do.
 *
 * With a 4th argument "wait", a second line on stdin is awaited before
 * the exit (the test detaches meanwhile).
 *
 * usage: java SiteBench [THREADS [ITERS [HOLD_MS [wait]]]]
 */
import java.util.concurrent.locks.ReentrantLock;

public final class SiteBench {
    static final class Store {
        private final Object guard = new Object();
        private final ReentrantLock lock = new ReentrantLock();

        long touch(int holdMs) throws InterruptedException {
            long t0 = System.nanoTime();
            synchronized (guard) {
                long waited = System.nanoTime() - t0;
                Thread.sleep(holdMs);
                return waited;
            }
        }

        long guarded(int holdMs) throws InterruptedException {
            long t0 = System.nanoTime();
            lock.lock();
            try {
                long waited = System.nanoTime() - t0;
                Thread.sleep(holdMs);
                return waited;
            } finally {
                lock.unlock();
            }
        }
    }

    public static void main(String[] args) throws Exception {
        int threads = Harness.arg(args, 0, 3);
        int iters = Harness.arg(args, 1, 20);
        int holdMs = Harness.arg(args, 2, 5);
        Store store = new Store();
        Object done = new Object();
        Thread early = new Thread(() -> {
            synchronized (done) {
                try {
                    done.wait();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
        }, "early-bird");
        early.setDaemon(true);
        early.start();

        Harness.awaitGo();
        Thread[] ts = new Thread[2 * threads];
        long[] waitNs = new long[2 * threads];
        for (int i = 0; i < 2 * threads; i++) {
            final int me = i;
            final boolean mon = i < threads;
            ts[i] = new Thread(() -> {
                try {
                    for (int k = 0; k < iters; k++)
                        waitNs[me] += mon ? store.touch(holdMs) : store.guarded(holdMs);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }, (mon ? "mon-worker-" : "rl-worker-") + (mon ? i : i - threads));
        }
        Harness.startAll(ts);
        Harness.joinAll(ts);
        for (int i = 0; i < 2 * threads; i++)
            System.out.println("thread " + ts[i].getName() + " acquires=" + iters
                               + " wait_ns=" + waitNs[i]);
        System.out.flush();
        if (args.length > 3 && args[3].equals("wait"))
            Harness.awaitGo();
    }
}
