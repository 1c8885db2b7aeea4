import java.sql.DriverManager;
import java.util.Properties;

/** zoo-aws-jdbc HOST PORT INTERVAL_MS DURATION_S [property=value ...]: one connection through the AWS
 *  Advanced JDBC Wrapper over Connector/J, with the wrapper's host-monitoring plugin (efm2) alone:
 *  its failover plugins read an Aurora cluster's topology, which the lab has not. Properties are
 *  Connector/J's and the plugin's (failureDetectionTime, failureDetectionInterval,
 *  failureDetectionCount, failureDetectionEnabled; monitoring-X: X for the monitor's own
 *  connections). The monitor's connects and verdicts are logged as records of their own
 *  (ZooMonitorLog), never as the application's. */
public class AwsWrapperProbe {
    public static void main(String[] args) throws Exception {
        ZooStdinStop.watch();
        String url = "jdbc:aws-wrapper:mysql://" + args[0] + ":" + args[1] + "/";
        double intervalMs = Double.parseDouble(args[2]), durationS = Double.parseDouble(args[3]);
        Properties props = JdbcProbe.properties(args);
        props.setProperty("wrapperPlugins", "efm2");
        props.setProperty("monitoring-socketFactory", "ZooMonitorLog$SocketFactory");
        ZooMonitorLog.install();
        ZooWarmup.linkFailurePath(props);
        double deadline = ZooGate.await() + durationS;
        ZooSingleConnection.run(() -> DriverManager.getConnection(url, props), PortRecordingSocketFactory::numberOf,
                                "SELECT @@hostname", intervalMs, deadline);
    }
}
