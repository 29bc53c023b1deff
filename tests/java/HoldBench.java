/*
 * HoldBench - a Java program fctrace did not write, for the Java holders
 * code's ground truth (tests/holdprog.c's twin): THREADS threads share
 * one handle table (file -> open RandomAccessFile, LRU, capacity CAP)
 * guarded by `synchronized (table)`. A hit only touches the table; a
 * miss stats the file (File.length), opens it (RandomAccessFile: openat
 * and fstat), reads its first READ bytes into a direct buffer (one
 * pread64: the kernel's copy outweighs the Java library's own work
 * around the calls, which the program's clock cannot tell from the
 * calls) and closes the evicted one - inside the monitor, or with
 * --fixed outside it (the open and read before, the close after, the
 * table only inside: one hold per get either way). Outside the monitor each op reads 4 KiB from the thread's
 * own file (a positional FileChannel read) and spins a little.
 *
 * The program times itself with System.nanoTime (the vDSO: no syscall):
 * every hold, from the first statement inside the block to the last,
 * and each stat/open/read/close call made inside it alone (the path, the
 * File and FileChannel objects and the eviction outside those windows;
 * the JDK's own work inside a call - its objects, JNI, the Cleaner - is
 * still in them: the windows are an upper bound on the calls). At exit it writes one
 * JSON object to OUT:
 *   wall_ns, holds, held_ns, misses, syscall_ns_in_lock,
 *   syscalls_in_lock {newfstatat, openat, pread64, close},
 *   oncpu_ns_in_lock (with --preempt: the holders' own CPU time inside
 *   the monitor, from their CPU clocks; null otherwise)
 * The calls as OpenJDK 17 makes them on Linux (checked with strace -f):
 * File.length is one newfstatat; opening a RandomAccessFile is an openat
 * and an fstat (glibc's fstat is newfstatat); a FileChannel's positional
 * read into a direct buffer is one pread64; close is one close.
 *
 * --hold-ns: every hold also spins HOLD_NS nanoseconds (user work in
 * the monitor beside its calls).
 *
 * --preempt: every hold also spins HOLD_US microseconds, and two more
 * threads burn CPU the whole run: more runnable threads than CPUs, so
 * holders are preempted inside the monitor.
 *
 * usage: java HoldBench OUT DIR [--threads N] [--ops N] [--files N]
 *        [--cap N] [--fixed] [--hold-ns N] [--preempt] [--hold-us N]
 */
import java.io.File;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.io.RandomAccessFile;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.atomic.AtomicBoolean;

public final class HoldBench {
    static final int READ = 1024 * 1024;
    static int threads = 8, ops = 20000, files = 60, cap = 50, holdUs = 200, holdNs;
    static boolean fixed, preempt;
    static String dir;
    /* --preempt: the thread's own CPU time across each hold (a
     * clock_gettime of its CPU clock at each end), the ground truth of
     * the time the holder was off CPU inside the monitor */
    static final ThreadMXBean CPU = ManagementFactory.getThreadMXBean();

    /* the lock under study: this object's monitor */
    static final class Table extends LinkedHashMap<Integer, RandomAccessFile> {
        Table() { super(64, 0.75f, true); }
    }

    static final Table table = new Table();
    /* --fixed: the files in the table, readable without the monitor */
    static final Set<Integer> present = ConcurrentHashMap.newKeySet();

    static final class Stats {
        long holds, heldNs, misses, scNs, stats, opens, reads, closes, cpuNs;
        final ByteBuffer head = ByteBuffer.allocateDirect(READ);
    }

    static String path(int f) { return dir + "/f" + f; }

    static void spinNs(long ns) {
        long end = System.nanoTime() + ns;
        while (System.nanoTime() < end) { }
    }

    /* one get, the miss's calls inside the monitor */
    static void getLocked(Stats st, int f) throws IOException {
        synchronized (table) {
            long t0 = System.nanoTime();
            long cpu0 = preempt ? CPU.getCurrentThreadCpuTime() : 0;
            RandomAccessFile h = table.get(f);
            if (h == null) {
                st.misses++;
                /* each call timed alone: the path, the channel object
                 * and the eviction are Java's work, not the calls' */
                String p = path(f);
                File file = new File(p);
                long s0 = System.nanoTime();
                file.length();
                long s1 = System.nanoTime();
                RandomAccessFile n = new RandomAccessFile(p, "r");
                long s2 = System.nanoTime();
                st.scNs += (s1 - s0) + (s2 - s1) + readHead(st, n);
                st.stats++;
                st.opens++;
                RandomAccessFile old = evict();
                if (old != null) {
                    long c0 = System.nanoTime();
                    old.close();
                    st.scNs += System.nanoTime() - c0;
                    st.closes++;
                }
                table.put(f, n);
            }
            spinNs(preempt ? holdUs * 1000L : holdNs);
            if (preempt)
                st.cpuNs += CPU.getCurrentThreadCpuTime() - cpu0;
            st.heldNs += System.nanoTime() - t0;
            st.holds++;
        }
    }

    /* the same, the calls outside: one hold per get as in getLocked,
     * the open and read before it (the files in the table are known
     * without the monitor, from a concurrent set), the close after */
    static void getFixed(Stats st, int f) throws IOException {
        RandomAccessFile fresh = null, old = null;
        for (;;) {
            if (fresh == null && !present.contains(f)) {
                new File(path(f)).length();
                fresh = new RandomAccessFile(path(f), "r");
                readHead(st, fresh);
            }
            boolean done = true;
            synchronized (table) {
                long t0 = System.nanoTime();
                if (table.get(f) == null) {
                    if (fresh != null) {
                        st.misses++;
                        old = evict();
                        table.put(f, fresh);
                        present.add(f);
                        fresh = null;
                    } else {
                        done = false;	/* evicted since the look: open outside, again */
                    }
                }
                spinNs(holdNs);
                st.heldNs += System.nanoTime() - t0;
                st.holds++;
            }
            if (done)
                break;
        }
        if (fresh != null)
            fresh.close();	/* another thread put it first */
        if (old != null)
            old.close();
    }

    /* the file's first READ bytes: one pread64 */
    /* the positional read, its time in ns (the channel made before) */
    static long readHead(Stats st, RandomAccessFile r) throws IOException {
        FileChannel ch = r.getChannel();
        st.head.clear();
        long t0 = System.nanoTime();
        ch.read(st.head, 0);
        long ns = System.nanoTime() - t0;
        st.reads++;
        return ns;
    }

    /* the least recently used handle, out of the table if it is full */
    static RandomAccessFile evict() {
        if (table.size() < cap)
            return null;
        Iterator<Map.Entry<Integer, RandomAccessFile>> it = table.entrySet().iterator();
        Map.Entry<Integer, RandomAccessFile> e = it.next();
        present.remove(e.getKey());
        it.remove();
        return e.getValue();
    }

    static void worker(int id, Stats st, CyclicBarrier gate) throws Exception {
        ByteBuffer buf = ByteBuffer.allocate(4096);
        long seed = 0x9E3779B97F4A7C15L * (id + 1);
        try (FileChannel own = FileChannel.open(new File(path(files + id)).toPath())) {
            gate.await();
            for (int i = 0; i < ops; i++) {
                seed ^= seed << 13; seed ^= seed >>> 7; seed ^= seed << 17;
                int f = (int) Long.remainderUnsigned(seed, files);
                if (fixed)
                    getFixed(st, f);
                else
                    getLocked(st, f);
                buf.clear();
                own.read(buf, 0);
                spinNs(2000);
            }
        }
    }

    static void makeFiles() throws IOException {
        new File(dir).mkdirs();
        byte[] page = new byte[READ];
        for (int f = 0; f < files + threads; f++)
            try (FileOutputStream o = new FileOutputStream(path(f))) {
                o.write(page);
            }
    }

    static void parse(String[] a) {
        for (int i = 2; i < a.length; i++) {
            switch (a[i]) {
            case "--threads": threads = Integer.parseInt(a[++i]); break;
            case "--ops": ops = Integer.parseInt(a[++i]); break;
            case "--files": files = Integer.parseInt(a[++i]); break;
            case "--cap": cap = Integer.parseInt(a[++i]); break;
            case "--hold-us": holdUs = Integer.parseInt(a[++i]); break;
            case "--hold-ns": holdNs = Integer.parseInt(a[++i]); break;
            case "--fixed": fixed = true; break;
            case "--preempt": preempt = true; break;
            default: throw new IllegalArgumentException("unknown option " + a[i]);
            }
        }
    }

    public static void main(String[] a) throws Exception {
        dir = a[1];
        parse(a);
        makeFiles();
        Stats[] st = new Stats[threads];
        Thread[] th = new Thread[threads];
        CyclicBarrier gate = new CyclicBarrier(threads);
        AtomicBoolean stop = new AtomicBoolean();
        Thread[] spin = new Thread[preempt ? 2 : 0];
        for (int i = 0; i < spin.length; i++) {
            spin[i] = new Thread(() -> { while (!stop.get()) spinNs(100000); }, "spinner-" + i);
            spin[i].start();
        }
        long t0 = System.nanoTime();
        for (int i = 0; i < threads; i++) {
            final int id = i;
            st[i] = new Stats();
            th[i] = new Thread(() -> {
                try {
                    worker(id, st[id], gate);
                } catch (Exception e) {
                    throw new RuntimeException(e);
                }
            }, "holder-" + i);
            th[i].start();
        }
        for (Thread t : th)
            t.join();
        long wall = System.nanoTime() - t0;
        stop.set(true);
        for (Thread t : spin)
            t.join();
        Stats sum = new Stats();
        for (Stats s : st) {
            sum.holds += s.holds; sum.heldNs += s.heldNs; sum.misses += s.misses;
            sum.scNs += s.scNs; sum.stats += s.stats; sum.opens += s.opens;
            sum.reads += s.reads;
            sum.closes += s.closes;
            sum.cpuNs += s.cpuNs;
        }
        try (PrintStream o = new PrintStream(new FileOutputStream(a[0]))) {
            o.printf("{\"wall_ns\": %d, \"holds\": %d, \"held_ns\": %d, \"misses\": %d, "
                     + "\"syscall_ns_in_lock\": %d, \"syscalls_in_lock\": {\"newfstatat\": %d, "
                     + "\"openat\": %d, \"pread64\": %d, \"close\": %d}, "
                     + "\"oncpu_ns_in_lock\": %s}%n", wall, sum.holds,
                     sum.heldNs, sum.misses, sum.scNs, sum.stats + sum.opens, sum.opens,
                     fixed ? 0 : sum.reads, sum.closes,
                     preempt ? Long.toString(sum.cpuNs) : "null");
        }
        for (RandomAccessFile r : table.values())
            r.close();
    }
}
