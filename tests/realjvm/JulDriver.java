/*
 * JulDriver - drives java.util.logging (the JDK's own code: nobody here
 * wrote it) from THREADS threads logging RECORDS records each to one
 * FileHandler, whose synchronized publish formats and writes every record
 * (it flushes after each one) while holding the handler's monitor.
 * usage: java JulDriver FILE [THREADS [RECORDS]]
 */
import java.util.logging.FileHandler;
import java.util.logging.Level;
import java.util.logging.Logger;
import java.util.logging.SimpleFormatter;

public final class JulDriver {
    public static void main(String[] a) throws Exception {
        int threads = a.length > 1 ? Integer.parseInt(a[1]) : 8;
        int records = a.length > 2 ? Integer.parseInt(a[2]) : 20000;
        Logger log = Logger.getLogger("driver");
        log.setUseParentHandlers(false);
        FileHandler h = new FileHandler(a[0]);
        h.setFormatter(new SimpleFormatter());
        log.addHandler(h);
        Thread[] th = new Thread[threads];
        for (int i = 0; i < threads; i++) {
            final int id = i;
            th[i] = new Thread(() -> {
                for (int r = 0; r < records; r++)
                    log.log(Level.INFO, "worker {0} record {1}", new Object[] { id, r });
            }, "logger-" + i);
            th[i].start();
        }
        for (Thread t : th)
            t.join();
        h.close();
    }
}
