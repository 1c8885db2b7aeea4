import java.sql.DriverManager;
import java.util.Properties;

/** zoo-mariadb-jdbc HOST[,HOST...] PORT INTERVAL_MS DURATION_S [property=value ...]: one MariaDB
 *  Connector/J connection (its own properties: socketTimeout and connectTimeout in ms, tcpKeepAlive,
 *  retriesAllDown, deniedListTimeout). A host list is a sequential URL (jdbc:mariadb:sequential://a,b/:
 *  the hosts in order, one that failed skipped for deniedListTimeout). Its socket factory logs each new
 *  connection's local port, and before each connect the host and the address the driver's lookup gave. */
public class MariaDbJdbcProbe {
    /** The driver makes its socket with createSocket() and connects it itself (ZooSocketFactory). */
    public static class PortRecordingSocketFactory extends ZooSocketFactory {
        @Override
        String driver() { return "mariadb-java-client " + org.mariadb.jdbc.util.VersionFactory.getInstance().getVersion(); }
    }

    public static void main(String[] args) throws Exception {
        ZooStdinStop.watch();
        String[] hosts = args[0].split(",");
        String url = "jdbc:mariadb:" + (hosts.length > 1 ? "sequential:" : "") + "//"
                + String.join(",", java.util.Arrays.stream(hosts).map(host -> host + ":" + args[1]).toArray(String[]::new))
                + "/";
        double intervalMs = Double.parseDouble(args[2]), durationS = Double.parseDouble(args[3]);
        Properties props = new Properties();
        props.setProperty("user", ZooAccount.user());
        props.setProperty("password", "sbtest");
        props.setProperty("sslMode", "disable");
        props.setProperty("socketFactory", PortRecordingSocketFactory.class.getName());
        for (int i = 4; i < args.length; i++) {
            String[] kv = args[i].split("=", 2);
            props.setProperty(kv[0], kv[1]);
        }
        Class.forName("org.mariadb.jdbc.Driver");
        double deadline = ZooGate.await() + durationS;
        ZooSingleConnection.run(() -> DriverManager.getConnection(url, props), conn -> ZooSocketFactory.numbered(),
                                "SELECT @@hostname", intervalMs, deadline);
    }
}
