import java.sql.DriverManager;
import java.util.Properties;

/** zoo-pgjdbc HOST[,HOST...] PORT INTERVAL_MS DURATION_S [property=value ...]: one pgJDBC connection to
 *  PostgreSQL (pgJDBC's own properties: socketTimeout and connectTimeout in seconds, tcpKeepAlive).
 *  Its socket factory logs each new connection's local port (measurement finds the connection's
 *  ss samples by it), and before each connect the host and the address pgJDBC's lookup gave it. */
public class PgJdbcProbe {
    /** The driver makes its socket with createSocket() and connects it itself (ZooSocketFactory). */
    public static class PortRecordingSocketFactory extends ZooSocketFactory {
        @Override
        String driver() { return "pgjdbc " + org.postgresql.util.DriverInfo.DRIVER_VERSION; }
    }

    public static void main(String[] args) throws Exception {
        ZooStdinStop.watch();
        // HOST may be a list, a,b: a multi-host URL (pgJDBC tries them in order)
        String url = "jdbc:postgresql://" + String.join(",", java.util.Arrays.stream(args[0].split(","))
                .map(host -> host + ":" + args[1]).toArray(String[]::new)) + "/sbtest";
        double intervalMs = Double.parseDouble(args[2]), durationS = Double.parseDouble(args[3]);
        Properties props = new Properties();
        props.setProperty("user", ZooAccount.user());
        props.setProperty("password", "sbtest");
        props.setProperty("sslmode", "disable");
        props.setProperty("socketFactory", PortRecordingSocketFactory.class.getName());
        for (int i = 4; i < args.length; i++) {
            String[] kv = args[i].split("=", 2);
            props.setProperty(kv[0], kv[1]);
        }
        Class.forName("org.postgresql.Driver");
        double deadline = ZooGate.await() + durationS;
        ZooSingleConnection.run(() -> DriverManager.getConnection(url, props), conn -> ZooSocketFactory.numbered(),
                                "SELECT current_setting('lab.server_name')", intervalMs, deadline);
    }
}
