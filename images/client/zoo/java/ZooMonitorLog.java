import com.mysql.cj.conf.PropertySet;
import com.mysql.cj.protocol.StandardSocketFactory;
import java.io.Closeable;
import java.io.IOException;
import java.net.InetAddress;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;

/** What the AWS wrapper's host monitor did, as zoo records of their own (images/client/zoo/README.md):
 *  {"monitor_connecting": t, "host", "address"} before each connect of the monitor's own,
 *  {"monitor_connected": t} after one, and {"monitor": t, "message": ...} for each line its efm2
 *  monitor logs (a check the host did not answer, the host declared dead). */
final class ZooMonitorLog {
    static final String MONITOR_LOGGER = "software.amazon.jdbc.plugin.efm.v2";
    // the logger must stay referenced, or java.util.logging may drop it and its level with it
    private static final Logger LOGGER = Logger.getLogger(MONITOR_LOGGER);

    /** The monitor's connections' socket factory (the wrapper's monitoring-socketFactory). */
    public static class SocketFactory extends StandardSocketFactory {
        @Override
        public <T extends Closeable> T connect(String host, int port, PropertySet props, int loginTimeout)
                throws IOException {
            ZooLog.emitRecord(String.format("{\"monitor_connecting\": %.6f, \"host\": \"%s\", \"address\": \"%s\"}",
                                            ZooLog.now(), ZooLog.quote(host),
                                            InetAddress.getByName(host).getHostAddress()));
            T socket = super.connect(host, port, props, loginTimeout);
            ZooLog.emitRecord(String.format("{\"monitor_connected\": %.6f, \"local_port\": %d}", ZooLog.now(),
                                            rawSocket.getLocalPort()));
            return socket;
        }
    }

    static void install() {
        LOGGER.setLevel(Level.FINEST);
        LOGGER.addHandler(new Handler() {
            @Override
            public void publish(LogRecord record) {
                String message = record.getMessage();
                Object[] parameters = record.getParameters();
                if (parameters != null)
                    message = message + " " + java.util.Arrays.toString(parameters);
                ZooLog.emitRecord(String.format("{\"monitor\": %.6f, \"message\": \"%s\"}", ZooLog.now(),
                                                ZooLog.quote(String.valueOf(message))));
            }

            @Override
            public void flush() { }

            @Override
            public void close() { }
        });
    }

    private ZooMonitorLog() { }
}
