/*
 * JPoolBench - a pool of CAPACITY items that THREADS threads queue for,
 * each taking an item TAKES times and holding it HOLD_MS milliseconds
 * (asleep in Thread.sleep), for the pools of N in a JVM (fctrace's
 * join/pools_jvm.c). Two pools whose waiters sleep each on a word of
 * their own:
 *   wait - a free count under the pool's monitor: take() waits in
 *          Object.wait while none is free, give() notifies one waiter;
 *   sem  - a java.util.concurrent.Semaphore of CAPACITY permits (its
 *          acquire parks the thread).
 * It times itself with System.nanoTime and writes to OUT one line,
 *   pool all waits=N wait_ns=N takes=N hold_ns=N wall_ns=N
 * waits: Object.wait calls (wait) or acquires that found no permit
 * (sem); wait_ns: the takes that waited, call to return; hold_ns: every
 * hold, the take's return to the give's call; wall_ns: first thread's
 * start to the last one's end.
 *
 * usage: java JPoolBench MODE THREADS CAPACITY TAKES HOLD_MS OUT
 */
import java.io.PrintWriter;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicLong;

public final class JPoolBench {
    static final class Pool {
        private int free;

        Pool(int capacity) { free = capacity; }

        /* the Object.wait calls it made */
        synchronized int take() throws InterruptedException {
            int waits = 0;
            while (free == 0) {
                wait();
                waits++;
            }
            free--;
            return waits;
        }

        synchronized void give() {
            free++;
            notify();
        }
    }

    static final AtomicLong waits = new AtomicLong(), waitNs = new AtomicLong();
    static final AtomicLong takes = new AtomicLong(), holdNs = new AtomicLong();

    static void work(String mode, Pool pool, Semaphore sem, int n, int holdMs)
            throws InterruptedException {
        for (int i = 0; i < n; i++) {
            long t0 = System.nanoTime();
            int w;
            if (mode.equals("wait")) {
                w = pool.take();
            } else if (sem.tryAcquire()) {
                w = 0;
            } else {
                sem.acquire();
                w = 1;
            }
            long t1 = System.nanoTime();
            if (w > 0) {
                waits.addAndGet(w);
                waitNs.addAndGet(t1 - t0);
            }
            Thread.sleep(holdMs);
            holdNs.addAndGet(System.nanoTime() - t1);
            takes.incrementAndGet();
            if (mode.equals("wait"))
                pool.give();
            else
                sem.release();
        }
    }

    public static void main(String[] a) throws Exception {
        String mode = a[0];
        int threads = Integer.parseInt(a[1]), capacity = Integer.parseInt(a[2]);
        int n = Integer.parseInt(a[3]), holdMs = Integer.parseInt(a[4]);
        Pool pool = new Pool(capacity);
        Semaphore sem = new Semaphore(capacity);
        Thread[] ts = new Thread[threads];
        for (int i = 0; i < threads; i++)
            ts[i] = new Thread(() -> {
                try {
                    work(mode, pool, sem, n, holdMs);
                } catch (InterruptedException e) {
                    throw new RuntimeException(e);
                }
            }, "pool-taker-" + i);
        long start = System.nanoTime();
        Harness.startAll(ts);
        Harness.joinAll(ts);
        long wall = System.nanoTime() - start;
        try (PrintWriter out = new PrintWriter(a[5])) {
            out.printf("pool all waits=%d wait_ns=%d takes=%d hold_ns=%d wall_ns=%d%n",
                       waits.get(), waitNs.get(), takes.get(), holdNs.get(), wall);
        }
    }
}
