import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketAddress;
import javax.net.SocketFactory;

/** A socket factory for a driver that makes its socket with createSocket() and connects it itself
 *  (pgJDBC, MariaDB Connector/J): before each connect it logs the host and the address the driver's
 *  lookup gave (the JVM's cache), after it the connection's number and local port (measurement finds
 *  the connection's ss samples by it). One driver per JVM: the numbers are the JVM's. */
abstract class ZooSocketFactory extends SocketFactory {
    static int connections = 0;

    /** The driver and its version, as the connection's log line names it. */
    abstract String driver();

    @Override
    public Socket createSocket() {
        return new Socket() {
            @Override
            public void connect(SocketAddress endpoint, int timeout) throws IOException {
                if (endpoint instanceof InetSocketAddress) {
                    InetSocketAddress to = (InetSocketAddress) endpoint;
                    ZooLog.connecting(to.getHostString(), to.getAddress() == null ? "" : to.getAddress().getHostAddress());
                }
                super.connect(endpoint, timeout);
                synchronized (ZooSocketFactory.class) {
                    connections += 1;
                    ZooLog.connected(connections, getLocalPort(), driver());
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

    static synchronized int numbered() {
        return connections;
    }
}
