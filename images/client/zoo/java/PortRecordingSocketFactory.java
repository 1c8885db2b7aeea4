import com.mysql.cj.NativeSession;
import com.mysql.cj.conf.PropertySet;
import com.mysql.cj.jdbc.JdbcConnection;
import com.mysql.cj.protocol.StandardSocketFactory;
import java.io.Closeable;
import java.io.IOException;
import java.net.InetAddress;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.HashMap;
import java.util.Map;

/** Connector/J's own socket factory, numbering each new connection and logging its local port
 *  (measurement finds the connection's ss samples by it), and before each connect the address its
 *  host resolves to, as the driver's own lookup gets it (the same JVM cache). Set as the
 *  socketFactory property. */
public class PortRecordingSocketFactory extends StandardSocketFactory {
    static int connections = 0;
    private static final Map<Integer, Integer> numberByLocalPort = new HashMap<>();

    @Override
    public <T extends Closeable> T connect(String host, int port, PropertySet props, int loginTimeout) throws IOException {
        ZooLog.connecting(host, InetAddress.getByName(host).getHostAddress());
        T socket = super.connect(host, port, props, loginTimeout);
        synchronized (PortRecordingSocketFactory.class) {
            connections += 1;
            numberByLocalPort.put(rawSocket.getLocalPort(), connections);
            ZooLog.connected(connections, rawSocket.getLocalPort(), "mysql-connector-j " + com.mysql.cj.Constants.CJ_VERSION);
        }
        return socket;
    }

    /** The number this factory gave the connection (a pool hands them out in its own order). */
    static synchronized int numberOf(Connection conn) throws SQLException, IOException {
        NativeSession session = (NativeSession) conn.unwrap(JdbcConnection.class).getSession();
        int localPort = session.getProtocol().getSocketConnection().getMysqlSocket().getLocalPort();
        return numberByLocalPort.getOrDefault(localPort, 0);
    }
}
