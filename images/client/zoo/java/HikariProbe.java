import com.mysql.cj.jdbc.JdbcConnection;
import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.IdentityHashMap;
import java.util.Map;

/** zoo-hikari HOST PORT INTERVAL_MS DURATION_S [setting=value ...]: an application on a HikariCP
 *  pool of one: borrow, query, return. Pool settings (keepaliveTime, maxLifetime,
 *  connectionTimeout, validationTimeout, idleTimeout) go to HikariConfig; anything else is a
 *  Connector/J property (socketTimeout, ...). The pool evicts a connection that failed. */
public class HikariProbe {
    public static void main(String[] args) throws Exception {
        double intervalMs = Double.parseDouble(args[2]), deadline = ZooLog.now() + Double.parseDouble(args[3]);
        HikariConfig config = new HikariConfig();
        config.setJdbcUrl("jdbc:mysql://" + args[0] + ":" + args[1] + "/");
        config.setUsername("sbtest");
        config.setPassword("sbtest");
        config.setMaximumPoolSize(1);
        config.setMinimumIdle(1);
        config.setInitializationFailTimeout(-1);
        config.addDataSourceProperty("sslMode", "DISABLED");
        config.addDataSourceProperty("socketFactory", "PortRecordingSocketFactory");
        for (int i = 4; i < args.length; i++) {
            String[] kv = args[i].split("=", 2);
            switch (kv[0]) {
                case "keepaliveTime": config.setKeepaliveTime(Long.parseLong(kv[1])); break;
                case "maxLifetime": config.setMaxLifetime(Long.parseLong(kv[1])); break;
                case "connectionTimeout": config.setConnectionTimeout(Long.parseLong(kv[1])); break;
                case "validationTimeout": config.setValidationTimeout(Long.parseLong(kv[1])); break;
                case "idleTimeout": config.setIdleTimeout(Long.parseLong(kv[1])); break;
                default: config.addDataSourceProperty(kv[0], kv[1]);
            }
        }
        // Which physical connection a borrow handed out: numbered as the socket factory saw them open.
        Map<JdbcConnection, Integer> numbers = new IdentityHashMap<>();
        try (HikariDataSource pool = new HikariDataSource(config)) {
            while (ZooLog.now() < deadline) {
                double t0 = ZooLog.now();
                int number = 0;
                try (Connection conn = pool.getConnection()) {
                    number = numbers.computeIfAbsent(conn.unwrap(JdbcConnection.class),
                                                     c -> PortRecordingSocketFactory.connections);
                    try (Statement st = conn.createStatement(); ResultSet rs = st.executeQuery("SELECT @@hostname")) {
                        rs.next();
                        ZooLog.ok(t0, rs.getString(1), number);
                    }
                } catch (Exception e) {
                    ZooLog.failed(t0, e, number);
                }
                ZooLog.pace(t0, intervalMs);
            }
        }
    }
}
