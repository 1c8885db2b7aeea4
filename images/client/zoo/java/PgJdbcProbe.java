import java.io.IOException;
import java.net.InetAddress;
import java.net.Socket;
import java.net.SocketAddress;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.Properties;
import javax.net.SocketFactory;

/** zoo-pgjdbc HOST PORT INTERVAL_MS DURATION_S [property=value ...]: one pgJDBC connection to
 *  PostgreSQL (pgJDBC's own properties: socketTimeout and connectTimeout in seconds, tcpKeepAlive).
 *  Its socket factory logs each new connection's local port (measurement finds the connection's
 *  ss samples by it). */
public class PgJdbcProbe {
    static int connections = 0;

    /** pgJDBC makes its socket with createSocket() and connects it itself. */
    public static class PortRecordingSocketFactory extends SocketFactory {
        @Override
        public Socket createSocket() {
            return new Socket() {
                @Override
                public void connect(SocketAddress endpoint, int timeout) throws IOException {
                    super.connect(endpoint, timeout);
                    connections += 1;
                    ZooLog.connected(connections, getLocalPort(), "pgjdbc " + org.postgresql.util.DriverInfo.DRIVER_VERSION);
                }
            };
        }

        @Override
        public Socket createSocket(String host, int port) throws IOException { throw new IOException("unused"); }

        @Override
        public Socket createSocket(String host, int port, InetAddress local, int localPort) throws IOException {
            throw new IOException("unused");
        }

        @Override
        public Socket createSocket(InetAddress host, int port) throws IOException { throw new IOException("unused"); }

        @Override
        public Socket createSocket(InetAddress host, int port, InetAddress local, int localPort) throws IOException {
            throw new IOException("unused");
        }
    }

    public static void main(String[] args) throws Exception {
        String url = "jdbc:postgresql://" + args[0] + ":" + args[1] + "/sbtest";
        double intervalMs = Double.parseDouble(args[2]), deadline = ZooLog.now() + Double.parseDouble(args[3]);
        Properties props = new Properties();
        props.setProperty("user", ZooAccount.user());
        props.setProperty("password", "sbtest");
        props.setProperty("sslmode", "disable");
        props.setProperty("socketFactory", PortRecordingSocketFactory.class.getName());
        for (int i = 4; i < args.length; i++) {
            String[] kv = args[i].split("=", 2);
            props.setProperty(kv[0], kv[1]);
        }
        Connection conn = null;
        int number = 0;
        do {
            double t0 = ZooLog.now();
            try {
                if (conn == null) {
                    number = 0;
                    conn = DriverManager.getConnection(url, props);
                    number = connections;
                }
                try (Statement st = conn.createStatement();
                     ResultSet rs = st.executeQuery("SELECT current_setting('lab.server_name')")) {
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
