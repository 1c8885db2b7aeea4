import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketAddress;
import java.sql.DriverManager;
import java.util.Properties;
import javax.net.SocketFactory;

/** zoo-mariadb-jdbc HOST[,HOST...] PORT INTERVAL_MS DURATION_S [property=value ...]: one MariaDB
 *  Connector/J connection (its own properties: socketTimeout and connectTimeout in ms, tcpKeepAlive,
 *  retriesAllDown, deniedListTimeout). A host list is a sequential URL (jdbc:mariadb:sequential://a,b/:
 *  the hosts in order, one that failed skipped for deniedListTimeout). Its socket factory logs each new
 *  connection's local port, and before each connect the host and the address the driver's lookup gave. */
public class MariaDbJdbcProbe {
    static int connections = 0;

    /** MariaDB Connector/J makes its socket with createSocket() and connects it itself (ConnectionHelper). */
    public static class PortRecordingSocketFactory extends SocketFactory {
        @Override
        public Socket createSocket() {
            return new Socket() {
                @Override
                public void connect(SocketAddress endpoint, int timeout) throws IOException {
                    if (endpoint instanceof InetSocketAddress) {      // the address the driver's lookup gave (the JVM's cache)
                        InetSocketAddress to = (InetSocketAddress) endpoint;
                        ZooLog.connecting(to.getHostString(), to.getAddress() == null ? "" : to.getAddress().getHostAddress());
                    }
                    super.connect(endpoint, timeout);
                    synchronized (MariaDbJdbcProbe.class) {
                        connections += 1;
                        ZooLog.connected(connections, getLocalPort(), "mariadb-java-client " + VERSION);
                    }
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

    static final String VERSION = org.mariadb.jdbc.util.VersionFactory.getInstance().getVersion();

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
        ZooSingleConnection.run(() -> DriverManager.getConnection(url, props), conn -> connections,
                                "SELECT @@hostname", intervalMs, deadline);
    }
}
