/*
 * ChainBench - a Java lock chain, for the Java holders code's ground
 * truth: THREADS "outer-N" threads each enter Outer's monitor OPS times
 * and, holding it, enter Inner's; one "inner" thread keeps Inner's
 * monitor HOLD_MS at a time (sleeping in it), 0.1 ms apart. So Outer's
 * holders spend most of their hold waiting for Inner: a chain whose
 * other lock is "monitor ChainBench$Inner".
 *
 * usage: java ChainBench [THREADS [OPS [HOLD_MS]]]
 */
import java.util.concurrent.atomic.AtomicInteger;

public final class ChainBench {
    static final class Outer { }
    static final class Inner { }

    static final Outer outer = new Outer();
    static final Inner inner = new Inner();

    public static void main(String[] a) throws Exception {
        int threads = a.length > 0 ? Integer.parseInt(a[0]) : 2;
        int ops = a.length > 1 ? Integer.parseInt(a[1]) : 100;
        int holdMs = a.length > 2 ? Integer.parseInt(a[2]) : 2;
        AtomicInteger left = new AtomicInteger(threads);
        Thread in = new Thread(() -> {
            while (left.get() > 0) {
                synchronized (inner) {
                    try {
                        Thread.sleep(holdMs);
                    } catch (InterruptedException e) {
                        return;
                    }
                }
                long end = System.nanoTime() + 100_000;
                while (System.nanoTime() < end) { }
            }
        }, "inner");
        in.start();
        Thread[] th = new Thread[threads];
        for (int i = 0; i < threads; i++) {
            th[i] = new Thread(() -> {
                for (int k = 0; k < ops; k++) {
                    synchronized (outer) {
                        synchronized (inner) {
                            Thread.onSpinWait();
                        }
                    }
                    try {
                        Thread.sleep(1);
                    } catch (InterruptedException e) {
                        return;
                    }
                }
                left.decrementAndGet();
            }, "outer-" + i);
            th[i].start();
        }
        for (Thread t : th)
            t.join();
        in.join();
    }
}
