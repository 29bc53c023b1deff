/*
 * Harness - what every fctrace JVM test program shares: tell the test
 * that the JVM is up, then wait for its go (a line on stdin), so that the
 * probes are attached before any thread of interest starts.
 */
import java.io.BufferedReader;
import java.io.InputStreamReader;

final class Harness {
    private Harness() {}

    /* "ready PID" on stdout, then block until a line arrives on stdin. */
    static void awaitGo() throws Exception {
        System.out.println("ready " + ProcessHandle.current().pid());
        System.out.flush();
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in));
        if (in.readLine() == null)
            throw new IllegalStateException("stdin closed before go");
    }

    static int arg(String[] args, int i, int dflt) {
        return args.length > i ? Integer.parseInt(args[i]) : dflt;
    }

    static void startAll(Thread[] ts) {
        for (Thread t : ts)
            t.start();
    }

    static void joinAll(Thread[] ts) throws InterruptedException {
        for (Thread t : ts)
            t.join();
    }
}
