import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;

/** What every single-connection Java client does (JdbcProbe, PgJdbcProbe): one connection, `query`
 *  every interval until the deadline; on an error it closes the connection and opens a new one
 *  before the next operation, as an application would. */
final class ZooSingleConnection {
    interface Opener { Connection open() throws Exception; }

    interface Numbering { int of(Connection conn) throws Exception; }

    private ZooSingleConnection() { }

    static void run(Opener opener, Numbering numbering, String query, double intervalMs, double deadline)
            throws InterruptedException {
        Connection conn = null;
        int number = 0;                    // 0: no connection (a connect that failed)
        do {
            double t0 = ZooLog.now();
            try {
                if (conn == null) {
                    number = 0;
                    conn = opener.open();
                    number = numbering.of(conn);
                }
                try (Statement st = conn.createStatement(); ResultSet rs = st.executeQuery(query)) {
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
