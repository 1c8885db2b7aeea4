import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketAddress;
import java.sql.DriverManager;
import java.util.Properties;
import javax.net.SocketFactory;

/** zoo-pgjdbc HOST[,HOST...] PORT INTERVAL_MS DURATION_S [property=value ...]: one pgJDBC connection to
 *  PostgreSQL (pgJDBC's own properties: socketTimeout and connectTimeout in seconds, tcpKeepAlive).
 *  Its socket factory logs each new connection's local port (measurement finds the connection's
 *  ss samples by it), and before each connect the host and the address pgJDBC's lookup gave it. */
public class PgJdbcProbe {
    static int connections = 0;

    /** pgJDBC makes its socket with createSocket() and connects it itself. */
    public static class PortRecordingSocketFactory extends SocketFactory {
        @Override
        public Socket createSocket() {
            return new Socket() {
                @Override
                public void connect(SocketAddress endpoint, int timeout) throws IOException {
                    if (endpoint instanceof InetSocketAddress) {      // the address pgJDBC's lookup gave (the JVM's cache)
                        InetSocketAddress to = (InetSocketAddress) endpoint;
                        ZooLog.connecting(to.getHostString(), to.getAddress() == null ? "" : to.getAddress().getHostAddress());
                    }
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
        ZooSingleConnection.run(() -> DriverManager.getConnection(url, props), conn -> connections,
                                "SELECT current_setting('lab.server_name')", intervalMs, deadline);
    }
}
