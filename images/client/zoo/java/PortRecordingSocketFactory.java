import com.mysql.cj.conf.PropertySet;
import com.mysql.cj.protocol.StandardSocketFactory;
import java.io.Closeable;
import java.io.IOException;

/** Connector/J's own socket factory, numbering each new connection and logging its local port
 *  (measurement finds the connection's ss samples by it). Set as the socketFactory property. */
public class PortRecordingSocketFactory extends StandardSocketFactory {
    static int connections = 0;

    @Override
    public <T extends Closeable> T connect(String host, int port, PropertySet props, int loginTimeout) throws IOException {
        T socket = super.connect(host, port, props, loginTimeout);
        synchronized (PortRecordingSocketFactory.class) {
            connections += 1;
            ZooLog.connected(connections, rawSocket.getLocalPort(), "mysql-connector-j " + com.mysql.cj.Constants.CJ_VERSION);
        }
        return socket;
    }
}
