/*
 * FileChannelPoolBench - Wicket's FileChannelPool benchmark in its own
 * language: Wicket's FileChannelPool as docs/benchmarks.md describes it
 * (every method synchronized on the pool; a miss checks the file, opens
 * it and evicts idle channels from the head of the idle list, closing
 * them, all inside the monitor; channels in use are shared; the pool goes
 * over capacity when every channel is busy; idle entries are removed by a
 * linear scan), and the original benchmark's loop: THREADS threads named
 * worker-N each OPS times pick a file uniformly at random, get its
 * channel, read 10 000 bytes at a random offset in 0..90 000, return the
 * channel. FILES files of 100 000 bytes are made in DIR first (and
 * removed at the end).
 *
 *   java FileChannelPoolBench DIR [FILES [THREADS [OPS [CAPACITY]]]]
 *
 * It prints "ms=N opens=N" (wall time of the threads, channels opened).
 * Not a test harness program: it is what `fctrace run -- java ...` is
 * shown on in docs/jvm.md, beside `fctrace run --workload fcp` at the same
 * settings.
 */
import java.io.File;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.util.HashMap;
import java.util.LinkedList;
import java.util.Map;
import java.util.Random;

public final class FileChannelPoolBench {
    static final int FILE_SIZE = 100_000, CHUNK = 10_000;

    /* The pool: one monitor guards the maps, use counts and idle list. */
    static final class FileChannelPool {
        private final Map<String, FileChannel> byName = new HashMap<>();
        private final Map<FileChannel, String> nameOf = new HashMap<>();
        private final Map<FileChannel, Integer> useCount = new HashMap<>();
        private final LinkedList<FileChannel> idle = new LinkedList<>();
        private final int capacity;
        long opens;

        FileChannelPool(int capacity) {
            this.capacity = capacity;
        }

        synchronized FileChannel getFileChannel(String name) throws IOException {
            FileChannel ch = byName.get(name);

            if (ch == null) {
                if (!new File(name).exists())            /* stat, in the monitor */
                    throw new IOException("no file " + name);
                ch = new RandomAccessFile(name, "rw").getChannel();
                opens++;
                reduceChannels();                         /* closes, in the monitor */
                byName.put(name, ch);
                nameOf.put(ch, name);
                useCount.put(ch, 0);
            }
            int n = useCount.get(ch);
            if (n == 0)
                idle.remove(ch);                          /* linear scan */
            useCount.put(ch, n + 1);
            return ch;
        }

        synchronized void returnFileChannel(FileChannel ch) {
            int n = useCount.get(ch) - 1;

            useCount.put(ch, n);
            if (n == 0)
                idle.addLast(ch);
        }

        /* Over capacity: close idle channels, oldest first; none idle, none closed. */
        private void reduceChannels() throws IOException {
            while (byName.size() >= capacity && !idle.isEmpty()) {
                FileChannel old = idle.removeFirst();
                String name = nameOf.remove(old);

                byName.remove(name);
                useCount.remove(old);
                old.close();
            }
        }

        synchronized void closeAll() throws IOException {
            for (FileChannel ch : nameOf.keySet())
                ch.close();
        }
    }

    public static void main(String[] args) throws Exception {
        String dir = args[0];
        int files = arg(args, 1, 60), threads = arg(args, 2, 8), ops = arg(args, 3, 100_000);
        FileChannelPool pool = new FileChannelPool(arg(args, 4, 50));
        String[] names = makeFiles(dir, files);
        Thread[] ts = new Thread[threads];

        for (int i = 0; i < threads; i++) {
            final long seed = i + 1;
            ts[i] = new Thread(() -> work(pool, names, ops, seed), "worker-" + i);
        }
        long t0 = System.nanoTime();
        for (Thread t : ts)
            t.start();
        for (Thread t : ts)
            t.join();
        long ms = (System.nanoTime() - t0) / 1_000_000;
        pool.closeAll();
        for (String n : names)
            new File(n).delete();
        System.out.println("ms=" + ms + " opens=" + pool.opens);
    }

    private static void work(FileChannelPool pool, String[] names, int ops, long seed) {
        Random rnd = new Random(seed);
        ByteBuffer buf = ByteBuffer.allocate(CHUNK);

        try {
            for (int k = 0; k < ops; k++) {
                FileChannel ch = pool.getFileChannel(names[rnd.nextInt(names.length)]);
                try {
                    buf.clear();
                    ch.read(buf, rnd.nextInt(FILE_SIZE - CHUNK + 1));   /* pread */
                } finally {
                    pool.returnFileChannel(ch);
                }
            }
        } catch (IOException e) {
            throw new RuntimeException(e);
        }
    }

    private static String[] makeFiles(String dir, int n) throws IOException {
        String[] names = new String[n];
        byte[] data = new byte[FILE_SIZE];

        for (int i = 0; i < n; i++) {
            names[i] = dir + "/fcpool" + i;
            try (RandomAccessFile f = new RandomAccessFile(names[i], "rw")) {
                f.write(data);
            }
        }
        return names;
    }

    private static int arg(String[] args, int i, int dflt) {
        return args.length > i ? Integer.parseInt(args[i]) : dflt;
    }
}
