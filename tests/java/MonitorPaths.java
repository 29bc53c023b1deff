/*
 * MonitorPaths - two Java call paths into one synchronized monitor, for
 * the wait flame graph's Java frames. After the go line, THREADS threads
 * "path-worker-N" each call Store.touch ITERS times, three calls in four
 * through Handler.get and one through Handler.put; touch enters a
 * synchronized block on a plain Object field and sleeps HOLD_MS inside
 * it, so nearly every enter is contended. Prints, per path, the time its
 * enters waited: "path get wait_ns=N", "path put wait_ns=N".
 *
 * usage: java MonitorPaths [THREADS [ITERS [HOLD_MS]]]
 */
import java.util.concurrent.atomic.AtomicLong;

public final class MonitorPaths {
    static final class Store {
        private final Object guard = new Object();

        long touch(int holdMs) throws InterruptedException {
            long t0 = System.nanoTime();
            synchronized (guard) {
                long waited = System.nanoTime() - t0;
                Thread.sleep(holdMs);
                return waited;
            }
        }
    }

    static final class Handler {
        static final AtomicLong getNs = new AtomicLong(), putNs = new AtomicLong();
        private final Store store;

        Handler(Store store) {
            this.store = store;
        }

        void get(int holdMs) throws InterruptedException {
            getNs.addAndGet(store.touch(holdMs));
        }

        void put(int holdMs) throws InterruptedException {
            putNs.addAndGet(store.touch(holdMs));
        }
    }

    public static void main(String[] args) throws Exception {
        int threads = Harness.arg(args, 0, 4);
        int iters = Harness.arg(args, 1, 40);
        int holdMs = Harness.arg(args, 2, 2);
        Handler h = new Handler(new Store());

        Harness.awaitGo();
        Thread[] ts = new Thread[threads];
        for (int i = 0; i < threads; i++) {
            final int me = i;
            ts[i] = new Thread(() -> {
                try {
                    for (int k = 0; k < iters; k++) {
                        if ((k + me) % 4 == 3)
                            h.put(holdMs);
                        else
                            h.get(holdMs);
                    }
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }, "path-worker-" + i);
        }
        Harness.startAll(ts);
        Harness.joinAll(ts);
        System.out.println("path get wait_ns=" + Handler.getNs.get());
        System.out.println("path put wait_ns=" + Handler.putNs.get());
        System.out.flush();
    }
}
