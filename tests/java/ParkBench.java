/*
 * ParkBench - java.util.concurrent contention: THREADS threads named
 * lock-worker-N each take one ReentrantLock ITERS times and sleep HOLD_MS
 * holding it, so the others park (LockSupport.park). Each prints its own
 * measured waits, as PoolBench does:
 *   thread NAME acquires=N wait_ns=N held_ns=N
 *
 * usage: java ParkBench [THREADS [ITERS [HOLD_MS]]]
 */
import java.util.concurrent.locks.ReentrantLock;

public final class ParkBench {
    public static void main(String[] args) throws Exception {
        int threads = Harness.arg(args, 0, 4);
        int iters = Harness.arg(args, 1, 20);
        int holdMs = Harness.arg(args, 2, 2);
        ReentrantLock lock = new ReentrantLock();
        Thread[] ts = new Thread[threads];
        long[] waitNs = new long[threads], heldNs = new long[threads];

        Harness.awaitGo();
        for (int i = 0; i < threads; i++) {
            final int me = i;
            ts[i] = new Thread(() -> {
                for (int k = 0; k < iters; k++) {
                    long t0 = System.nanoTime();
                    lock.lock();
                    long t1 = System.nanoTime();
                    try {
                        Thread.sleep(holdMs);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    } finally {
                        heldNs[me] += System.nanoTime() - t1;
                        lock.unlock();
                    }
                    waitNs[me] += t1 - t0;
                }
            }, "lock-worker-" + i);
        }
        Harness.startAll(ts);
        Harness.joinAll(ts);
        for (int i = 0; i < threads; i++)
            System.out.println("thread " + ts[i].getName() + " acquires=" + iters
                               + " wait_ns=" + waitNs[i] + " held_ns=" + heldNs[i]);
    }
}
