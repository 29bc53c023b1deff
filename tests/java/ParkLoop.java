/*
 * ParkLoop - N parks that never block: a thread named park-loop gives
 * itself the permit (unpark) and takes it back (park) N times, so each
 * park returns at once, without a syscall. Exactly N park waits, each
 * two USDT hits (thread__park__begin/end): what one hit costs shows in
 * the loop's own time, which it prints:
 *   thread park-loop parks=N loop_ns=N
 *
 * usage: java ParkLoop [N]
 */
import java.util.concurrent.locks.LockSupport;

public final class ParkLoop {
    public static void main(String[] args) throws Exception {
        int n = Harness.arg(args, 0, 100000);
        long[] loopNs = new long[1];

        Harness.awaitGo();
        Thread t = new Thread(() -> {
            Thread me = Thread.currentThread();
            long t0 = System.nanoTime();
            for (int i = 0; i < n; i++) {
                LockSupport.unpark(me);
                LockSupport.park();
            }
            loopNs[0] = System.nanoTime() - t0;
        }, "park-loop");
        t.start();
        t.join();
        System.out.println("thread park-loop parks=" + n + " loop_ns=" + loopNs[0]);
    }
}
