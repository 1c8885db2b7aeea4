import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.Properties;

/** zoo-jdbc HOST PORT INTERVAL_MS DURATION_S [property=value ...]: one JDBC connection
 *  (Connector/J's own properties: socketTimeout, connectTimeout, tcpKeepAlive, ...). */
public class JdbcProbe {
    public static void main(String[] args) throws Exception {
        String url = "jdbc:mysql://" + args[0] + ":" + args[1] + "/";
        double intervalMs = Double.parseDouble(args[2]), deadline = ZooLog.now() + Double.parseDouble(args[3]);
        Properties props = new Properties();
        props.setProperty("user", ZooAccount.user());
        props.setProperty("password", "sbtest");
        props.setProperty("sslMode", "DISABLED");
        props.setProperty("socketFactory", "PortRecordingSocketFactory");
        for (int i = 4; i < args.length; i++) {
            String[] kv = args[i].split("=", 2);
            props.setProperty(kv[0], kv[1]);
        }
        ZooWarmup.linkFailurePath(props);
        Connection conn = null;
        int number = 0;                    // 0: no connection (a connect that failed)
        do {
            double t0 = ZooLog.now();
            try {
                if (conn == null) {
                    number = 0;
                    conn = DriverManager.getConnection(url, props);
                    number = PortRecordingSocketFactory.numberOf(conn);
                }
                try (Statement st = conn.createStatement(); ResultSet rs = st.executeQuery("SELECT @@hostname")) {
                    rs.next();
                    ZooLog.ok(t0, rs.getString(1), number);
                }
            } catch (Exception e) {
                ZooLog.failed(t0, e, number);
                if (conn != null) {
                    try { conn.close(); } catch (Exception ignored) { }
                    conn = null;
                }
            }
            ZooLog.pace(t0, intervalMs);
        } while (ZooLog.now() < deadline);
    }
}
