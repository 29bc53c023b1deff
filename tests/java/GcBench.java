/*
 * GcBench - a program whose GC shows: run it with a small heap (-Xmx16m)
 * and it allocates MB megabytes in short-lived 64 KiB arrays on a thread
 * named allocator, keeping a few alive. It prints what the JVM itself
 * counted, per collector:
 *   gc NAME count=N time_ms=N
 *
 * usage: java -Xmx16m GcBench [MB]
 */
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;

public final class GcBench {
    static volatile long sink;

    public static void main(String[] args) throws Exception {
        int mb = Harness.arg(args, 0, 512);

        Harness.awaitGo();
        Thread t = new Thread(() -> allocate(mb), "allocator");
        t.start();
        t.join();
        for (GarbageCollectorMXBean b : ManagementFactory.getGarbageCollectorMXBeans())
            System.out.println("gc " + b.getName().replace(' ', '_') + " count="
                               + b.getCollectionCount() + " time_ms=" + b.getCollectionTime());
    }

    private static void allocate(int mb) {
        byte[][] keep = new byte[16][];
        for (int i = 0; i < mb * 16; i++) {
            byte[] b = new byte[64 * 1024];
            b[i % b.length] = (byte) i;
            keep[i % keep.length] = b;
            sink += b[0];
        }
    }
}
