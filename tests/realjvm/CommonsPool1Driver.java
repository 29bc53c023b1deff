/*
 * CommonsPool1Driver - drives Apache Commons Pool 1 (Debian's
 * libcommons-pool-java, code nobody here wrote) as issue 41 did: THREADS
 * threads borrow one of MAX objects of a GenericObjectPool (waiting in
 * Object.wait on its Latch when none is free), hold it WORK_US
 * microseconds of CPU (or asleep in Thread.sleep, a connection's wait for
 * its server, with "sleep") and return it, for SECONDS seconds; prints
 * "ops N", the borrows of all threads.
 *
 * javac -cp /usr/share/java/commons-pool.jar -d OUT CommonsPool1Driver.java
 * java -cp /usr/share/java/commons-pool.jar:OUT CommonsPool1Driver THREADS MAX WORK_US SECONDS [sleep]
 */
import org.apache.commons.pool.BasePoolableObjectFactory;
import org.apache.commons.pool.impl.GenericObjectPool;

public final class CommonsPool1Driver {
    static final class Factory extends BasePoolableObjectFactory {
        @Override public Object makeObject() { return new Object(); }
    }

    static void spin(long us) {
        long end = System.nanoTime() + us * 1000;
        while (System.nanoTime() < end)
            Thread.onSpinWait();
    }

    public static void main(String[] a) throws Exception {
        int threads = Integer.parseInt(a[0]), max = Integer.parseInt(a[1]);
        int workUs = Integer.parseInt(a[2]), seconds = Integer.parseInt(a[3]);
        boolean sleep = a.length > 4 && a[4].equals("sleep");
        GenericObjectPool pool = new GenericObjectPool(new Factory());
        pool.setMaxActive(max);
        pool.setMaxIdle(max);
        long end = System.nanoTime() + seconds * 1_000_000_000L;
        long[] ops = new long[threads];
        Thread[] ts = new Thread[threads];
        for (int i = 0; i < threads; i++) {
            final int k = i;
            ts[i] = new Thread(() -> {
                try {
                    while (System.nanoTime() < end) {
                        Object o = pool.borrowObject();
                        if (sleep)
                            Thread.sleep(workUs / 1000, (workUs % 1000) * 1000);
                        else
                            spin(workUs);
                        pool.returnObject(o);
                        ops[k]++;
                    }
                } catch (Exception e) {
                    throw new RuntimeException(e);
                }
            }, "pool-user-" + i);
            ts[i].start();
        }
        long total = 0;
        for (int i = 0; i < threads; i++) {
            ts[i].join();
            total += ops[i];
        }
        System.out.println("ops " + total);
    }
}
