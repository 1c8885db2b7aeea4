import java.io.PrintStream;
import java.sql.SQLException;
import java.time.Instant;

/** The zoo's JSON lines (images/client/zoo/README.md), shared by the Java clients. */
final class ZooLog {
    private static final PrintStream OUT = System.out;

    static double now() {
        Instant t = Instant.now();
        return t.getEpochSecond() + t.getNano() / 1e9;
    }

    static synchronized void connected(int conn, int localPort, String driver) {
        OUT.printf("{\"connected\": %.6f, \"conn\": %d, \"local_port\": %d, \"driver\": \"%s\"}%n",
                   now(), conn, localPort, quote(driver));
        OUT.flush();
    }

    static synchronized void ok(double t0, String server, int conn) {
        OUT.printf("{\"t0\": %.6f, \"t1\": %.6f, \"ok\": true, \"server\": \"%s\", \"conn\": %d}%n",
                   t0, now(), quote(server), conn);
        OUT.flush();
    }

    /** The application sees the exception's class; its message (and cause) go to detail. */
    static synchronized void failed(double t0, Exception e, int conn) {
        String detail = String.valueOf(e.getMessage()).split("\n")[0];
        if (e instanceof SQLException && ((SQLException) e).getSQLState() != null)
            detail = "SQLState " + ((SQLException) e).getSQLState() + ": " + detail;
        OUT.printf("{\"t0\": %.6f, \"t1\": %.6f, \"ok\": false, \"error\": \"%s\", \"detail\": \"%s\", \"conn\": %d}%n",
                   t0, now(), e.getClass().getSimpleName(), quote(detail.length() > 200 ? detail.substring(0, 200) : detail), conn);
        OUT.flush();
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
