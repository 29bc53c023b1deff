/*
 * CommonsPoolDriver - drives Apache Commons Pool 2 (Debian's
 * libcommons-pool2-java, code nobody here wrote) the way a service does:
 * THREADS threads borrow one of MAX pooled objects, hold it WORK_US
 * microseconds of CPU, look a key up in a shared java.util.Hashtable
 * (the JDK's synchronized map) and return it, for SECONDS seconds.
 * It prints each thread's borrows, and waits for a line on stdin first
 * (so a tool can attach before the load begins) when told "wait".
 *
 * javac -cp /usr/share/java/commons-pool2.jar -d OUT CommonsPoolDriver.java
 * java -cp /usr/share/java/commons-pool2.jar:OUT CommonsPoolDriver [THREADS MAX WORK_US SECONDS [wait]]
 */
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.util.Hashtable;
import org.apache.commons.pool2.BasePooledObjectFactory;
import org.apache.commons.pool2.PooledObject;
import org.apache.commons.pool2.impl.DefaultPooledObject;
import org.apache.commons.pool2.impl.GenericObjectPool;

public final class CommonsPoolDriver {
    static final class Conn {
        long uses;
    }

    static final class ConnFactory extends BasePooledObjectFactory<Conn> {
        @Override public Conn create() { return new Conn(); }
        @Override public PooledObject<Conn> wrap(Conn c) { return new DefaultPooledObject<>(c); }
    }

    static final Hashtable<Integer, Long> registry = new Hashtable<>();

    static void spin(long us) {
        long end = System.nanoTime() + us * 1000;
        while (System.nanoTime() < end)
            Thread.onSpinWait();
    }

    static long lookup(int k) {
        Long v = registry.get(k);
        registry.put(k, v == null ? 1 : v + 1);
        return v == null ? 0 : v;
    }

    public static void main(String[] a) throws Exception {
        int threads = a.length > 0 ? Integer.parseInt(a[0]) : 8;
        int max = a.length > 1 ? Integer.parseInt(a[1]) : 2;
        int workUs = a.length > 2 ? Integer.parseInt(a[2]) : 200;
        int seconds = a.length > 3 ? Integer.parseInt(a[3]) : 10;
        GenericObjectPool<Conn> pool = new GenericObjectPool<>(new ConnFactory());
        pool.setMaxTotal(max);
        pool.setMaxIdle(max);
        if (a.length > 4 && a[4].equals("wait")) {
            System.out.println("ready " + ProcessHandle.current().pid());
            new BufferedReader(new InputStreamReader(System.in)).readLine();
        }
        long end = System.nanoTime() + seconds * 1_000_000_000L;
        Thread[] ts = new Thread[threads];
        long[] borrows = new long[threads];
        for (int i = 0; i < threads; i++) {
            final int me = i;
            ts[i] = new Thread(() -> {
                try {
                    while (System.nanoTime() < end) {
                        Conn c = pool.borrowObject();
                        spin(workUs);
                        c.uses++;
                        pool.returnObject(c);
                        lookup(me % 4);
                        borrows[me]++;
                    }
                } catch (Exception e) {
                    throw new RuntimeException(e);
                }
            }, "pool-user-" + i);
            ts[i].start();
        }
        for (Thread t : ts)
            t.join();
        for (int i = 0; i < threads; i++)
            System.out.println("thread pool-user-" + i + " borrows=" + borrows[i]);
    }
}
