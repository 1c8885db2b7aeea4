import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.sql.SQLException;
import java.time.Instant;

/** The zoo's JSON lines (images/client/zoo/README.md), shared by the Java clients. Each record
 *  goes out in one write(2): System.out.printf may push a line out in pieces, and the lines the
 *  preloaded libsockopts writes to the same pipe (stderr, from the pool's own threads) landed in
 *  between and tore one (a failure the measurement then never saw). */
final class ZooLog {
    private static final FileOutputStream OUT = new FileOutputStream(FileDescriptor.out);

    /** A record of a kind only one client writes (ZooMonitorLog), already formatted. */
    static void emitRecord(String line) {
        emit(line);
    }

    private static synchronized void emit(String line) {
        try {
            OUT.write((line + "\n").getBytes(StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new RuntimeException(e);
        }
    }

    static double now() {
        Instant t = Instant.now();
        return t.getEpochSecond() + t.getNano() / 1e9;
    }

    static void connected(int conn, int localPort, String driver) {
        emit(String.format("{\"connected\": %.6f, \"conn\": %d, \"local_port\": %d, \"driver\": \"%s\"}",
                           now(), conn, localPort, quote(driver)));
    }

    /** A connect about to begin, and the address the JVM's resolver (and its cache) gave its host. */
    static void connecting(String host, String address) {
        emit(String.format("{\"connecting\": %.6f, \"host\": \"%s\", \"address\": \"%s\"}", now(), quote(host),
                           quote(address)));
    }

    static void ok(double t0, String server, int conn) {
        emit(String.format("{\"t0\": %.6f, \"t1\": %.6f, \"ok\": true, \"server\": \"%s\", \"conn\": %d}",
                           t0, now(), quote(server), conn));
    }

    /** The application sees the exception's class; its message (and cause) go to detail. */
    static void failed(double t0, Exception e, int conn) {
        String detail = describe(e);
        emit(String.format("{\"t0\": %.6f, \"t1\": %.6f, \"ok\": false, \"error\": \"%s\", \"detail\": \"%s\", \"conn\": %d}",
                           t0, now(), e.getClass().getSimpleName(),
                           quote(detail.length() > 200 ? detail.substring(0, 200) : detail), conn));
    }

    static String describe(Exception e) {
        String detail = String.valueOf(e.getMessage()).split("\n")[0];
        if (e instanceof SQLException && ((SQLException) e).getSQLState() != null)
            detail = "SQLState " + ((SQLException) e).getSQLState() + ": " + detail;
        return detail;
    }

    static String quote(String s) {
        StringBuilder b = new StringBuilder();
        for (char c : s.toCharArray()) {
            if (c == '"' || c == '\\') b.append('\\').append(c);
            else if (c < 0x20) b.append(' ');
            else b.append(c);
        }
        return b.toString();
    }

    /** Sleeps what is left of the interval after an operation that started at t0. */
    static void pace(double t0, double intervalMs) throws InterruptedException {
        long left = (long) (intervalMs - (now() - t0) * 1000);
        if (left > 0) Thread.sleep(left);
    }

    private ZooLog() {}
}
