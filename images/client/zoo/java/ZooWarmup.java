import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.Properties;

/** Runs Connector/J's link-failure path once before the probe connects: a connect to a closed
 *  port on loopback, refused at once, raises the CommunicationsException a dead server's read
 *  timeout or reset raises later. In an emulated guest the first time that path ran (its classes
 *  and message bundle loaded) took up to a second, added to the first error the cure was timed
 *  by; later errors on the same JVM came on time. Nothing is logged: no record is an operation. */
final class ZooWarmup {
    static final String CLOSED = "jdbc:mysql://127.0.0.1:1/";

    static void linkFailurePath(Properties props) {
        Properties once = new Properties();
        once.putAll(props);
        once.setProperty("connectTimeout", "1000");
        try {
            DriverManager.getConnection(CLOSED, once).close();
        } catch (SQLException e) {
            ZooLog.describe(e);
        }
    }

    private ZooWarmup() {}
}
