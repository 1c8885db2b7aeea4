import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;

/** zoo-hikari HOST PORT INTERVAL_MS DURATION_S [setting=value ...]: an application on a HikariCP
 *  pool (of one unless maximumPoolSize says more; a fixed-size pool): borrow, query, return. On
 *  Connector/J, or on pgJDBC with -Dzoo.engine=postgres (zoo-hikari-pgjdbc).
 *  Pool settings (keepaliveTime, maxLifetime, connectionTimeout, validationTimeout, idleTimeout,
 *  maximumPoolSize) go to HikariConfig, aliveBypassWindowMs to HikariCP's system property of that
 *  name (a borrow within it of the connection's last use skips the liveness check); anything
 *  else is the driver's property (socketTimeout, ...). The pool evicts a connection that failed. */
public class HikariProbe {
    public static void main(String[] args) throws Exception {
        ZooStdinStop.watch();
        double intervalMs = Double.parseDouble(args[2]), durationS = Double.parseDouble(args[3]);
        boolean postgres = "postgres".equals(System.getProperty("zoo.engine"));
        HikariConfig config = new HikariConfig();
        config.setJdbcUrl(postgres ? "jdbc:postgresql://" + args[0] + ":" + args[1] + "/sbtest"
                                   : "jdbc:mysql://" + args[0] + ":" + args[1] + "/");
        config.setUsername(ZooAccount.user());
        config.setPassword("sbtest");
        config.setMaximumPoolSize(1);
        config.setMinimumIdle(1);
        config.setInitializationFailTimeout(-1);
        if (postgres) {
            config.addDataSourceProperty("sslmode", "disable");
            config.addDataSourceProperty("socketFactory", PgJdbcProbe.PortRecordingSocketFactory.class.getName());
        } else {
            config.addDataSourceProperty("sslMode", "DISABLED");
            config.addDataSourceProperty("socketFactory", "PortRecordingSocketFactory");
        }
        for (int i = 4; i < args.length; i++) {
            String[] kv = args[i].split("=", 2);
            switch (kv[0]) {
                case "keepaliveTime": config.setKeepaliveTime(Long.parseLong(kv[1])); break;
                case "maxLifetime": config.setMaxLifetime(Long.parseLong(kv[1])); break;
                case "connectionTimeout": config.setConnectionTimeout(Long.parseLong(kv[1])); break;
                case "validationTimeout": config.setValidationTimeout(Long.parseLong(kv[1])); break;
                case "idleTimeout": config.setIdleTimeout(Long.parseLong(kv[1])); break;
                case "maximumPoolSize":
                    config.setMaximumPoolSize(Integer.parseInt(kv[1]));
                    config.setMinimumIdle(Integer.parseInt(kv[1]));
                    break;
                case "aliveBypassWindowMs": System.setProperty("com.zaxxer.hikari.aliveBypassWindowMs", kv[1]); break;
                default: config.addDataSourceProperty(kv[0], kv[1]);
            }
        }
        if (!postgres)
            ZooWarmup.linkFailurePath(config.getDataSourceProperties());
        // pgJDBC hides its socket: a pool of one numbers its connection by the factory's count
        String query = postgres ? "SELECT current_setting('lab.server_name')" : "SELECT @@hostname";
        if (postgres)
            Class.forName("org.postgresql.Driver");
        double deadline = ZooGate.await() + durationS;
        try (HikariDataSource pool = new HikariDataSource(config)) {
            do {
                double t0 = ZooLog.now();
                int number = 0;
                try (Connection conn = pool.getConnection()) {
                    number = postgres ? (config.getMaximumPoolSize() == 1 ? ZooSocketFactory.numbered() : 0)
                                      : PortRecordingSocketFactory.numberOf(conn);
                    try (Statement st = conn.createStatement(); ResultSet rs = st.executeQuery(query)) {
                        rs.next();
                        ZooLog.ok(t0, rs.getString(1), number);
                    }
                } catch (Exception e) {
                    ZooLog.failed(t0, e, number);
                }
                ZooLog.pace(t0, intervalMs);
            } while (ZooLog.now() < deadline);
        }
    }
}
