import java.sql.DriverManager;
import java.util.Properties;

/** zoo-jdbc HOST[,HOST...] PORT INTERVAL_MS DURATION_S [property=value ...]: one JDBC connection
 *  (Connector/J's own properties: socketTimeout, connectTimeout, tcpKeepAlive, ...). */
public class JdbcProbe {
    public static void main(String[] args) throws Exception {
        ZooStdinStop.watch();
        // HOST may be a list, a,b: a multi-host URL (Connector/J tries them in order)
        String url = "jdbc:mysql://" + String.join(",", java.util.Arrays.stream(args[0].split(","))
                .map(host -> host + ":" + args[1]).toArray(String[]::new)) + "/";
        double intervalMs = Double.parseDouble(args[2]), durationS = Double.parseDouble(args[3]);
        Properties props = properties(args);
        ZooWarmup.linkFailurePath(props);
        double deadline = ZooGate.await() + durationS;
        ZooSingleConnection.run(() -> DriverManager.getConnection(url, props), PortRecordingSocketFactory::numberOf,
                                "SELECT @@hostname", intervalMs, deadline);
    }

    /** Connector/J's properties for the zoo's account, its connections numbered by their local port,
     *  then the cell's own (args[4...], property=value; a cell's setting wins). */
    static Properties properties(String[] args) {
        Properties props = new Properties();
        props.setProperty("user", ZooAccount.user());
        props.setProperty("password", "sbtest");
        props.setProperty("sslMode", "DISABLED");
        props.setProperty("socketFactory", "PortRecordingSocketFactory");
        for (int i = 4; i < args.length; i++) {
            String[] kv = args[i].split("=", 2);
            props.setProperty(kv[0], kv[1]);
        }
        return props;
    }
}
