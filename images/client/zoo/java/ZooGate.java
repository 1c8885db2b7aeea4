import java.nio.file.Files;
import java.nio.file.Path;

/** A JVM started ahead of the database servers (the run's clients start while the lab comes up)
 *  waits here, its classes loaded, until the run opens its gate: the file ZOO_GATE names, made once
 *  the servers answer and the cells' accounts exist. It gives up after ZOO_GATE_LIMIT_S with exit 3.
 *  Without ZOO_GATE it returns at once. Returns when it went on (the time the duration counts from). */
final class ZooGate {
    static final long POLL_MS = 20;

    static double await() throws InterruptedException {
        String gate = System.getenv("ZOO_GATE");
        if (gate == null || gate.isEmpty())
            return ZooLog.now();
        double limit = ZooLog.now() + Double.parseDouble(System.getenv("ZOO_GATE_LIMIT_S"));
        Path path = Path.of(gate);
        while (!Files.exists(path)) {
            if (ZooLog.now() > limit) {
                System.err.println("zoo: not told to start within the run's limit (" + gate + ")");
                System.exit(3);
            }
            Thread.sleep(POLL_MS);
        }
        return ZooLog.now();
    }

    private ZooGate() { }
}
