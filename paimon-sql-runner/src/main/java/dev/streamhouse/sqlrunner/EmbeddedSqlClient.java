package dev.streamhouse.sqlrunner;

import dev.streamhouse.sqlrunner.compat.SqlClientShim;

import org.apache.flink.configuration.Configuration;
import org.apache.flink.table.client.SqlClient;
import org.apache.flink.table.client.SqlClientException;
import org.apache.flink.table.client.cli.CliClient;
import org.apache.flink.table.client.cli.CliOptions;
import org.apache.flink.table.client.gateway.DefaultContextUtils;
import org.apache.flink.table.client.gateway.Executor;
import org.apache.flink.table.client.gateway.SingleSessionManager;
import org.apache.flink.table.gateway.SqlGateway;
import org.apache.flink.table.gateway.api.endpoint.SqlGatewayEndpointFactoryUtils;
import org.apache.flink.table.gateway.rest.util.SqlGatewayRestOptions;
import org.apache.flink.table.gateway.service.context.DefaultContext;
import org.apache.flink.util.NetUtils;
import org.jline.terminal.Terminal;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.io.PrintStream;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Supplier;

/**
 * Flink's SQL client in embedded mode, as {@code SqlClient} starts it (an in-process SQL gateway on a
 * free localhost port, one session, the client's {@link CliClient} on a terminal, the init script,
 * then the prompt or the script), with two differences: a statement that fails on a damaged file
 * shows the error naming the file ({@link DamagedFileRevealingExecutor}), and the client's executor is a
 * {@link SyncStatementExecutor}, which runs {@code CREATE TABLE ... AS TABLE} and
 * {@code CREATE DATABASE ... AS DATABASE}. The sync jobs these start on this JVM's MiniClusters
 * ({@link SyncJobs}) outlive their statement: after a script's last statement the client waits for
 * them; leaving the prompt stops them; so does a shutdown (Ctrl-C, SIGTERM), before the session
 * closes.
 */
final class EmbeddedSqlClient {
    private static final Logger LOG = LoggerFactory.getLogger(EmbeddedSqlClient.class);
    /** Where the client's fatal errors go, as in Flink's client: the log file, not the console. */
    private static final Logger CLIENT_LOG = LoggerFactory.getLogger(SqlClient.class);
    private static final String GATEWAY_ADDRESS = "localhost";

    private EmbeddedSqlClient() {}

    /**
     * Runs the client with embedded-mode {@code options}.
     *
     * @param script the statements of {@code -f} / {@code -u} (Flink 1.20), or null for the prompt
     * @throws SqlClientException when the client must stop (logged, as Flink's client does)
     */
    static void run(CliOptions.EmbeddedCliOptions options, Supplier<Terminal> terminalFactory, String script) {
        try {
            start(options, terminalFactory, script);
        } catch (SqlClientException e) {
            System.out.println();
            System.out.println();
            CLIENT_LOG.error("SQL Client must stop.", e);
            throw e;
        } catch (Throwable t) {
            System.out.println();
            System.out.println();
            CLIENT_LOG.error("SQL Client must stop. Unexpected exception. This is a bug. Please consider filing an issue.", t);
            throw new SqlClientException("Unexpected exception. This is a bug. Please consider filing an issue.", t);
        }
    }

    private static void start(CliOptions.EmbeddedCliOptions options, Supplier<Terminal> terminalFactory, String script)
            throws Exception {
        DefaultContext context = DefaultContextUtils.buildDefaultContext(options);
        NetUtils.Port port = NetUtils.getAvailablePort();
        SqlGateway gateway = startGateway(context, port);
        SyncJobs jobs = new SyncJobs();
        Executor executor = new DamagedFileRevealingExecutor(new SyncStatementExecutor(Executor.create(context,
                InetSocketAddress.createUnresolved(GATEWAY_ADDRESS, port.getPort()), options.getSessionId()), jobs));
        AtomicBoolean closed = new AtomicBoolean();
        Runnable closeSession = () -> {
            if (closed.compareAndSet(false, true)) {
                close(executor, gateway, port);
            }
        };
        Thread shutdown = new Thread(() -> {
            jobs.stopAll(System.out);
            System.out.println("\nShutting down the session...");
            closeSession.run();
            System.out.println("done.");
        }, "sql-client-shutdown");
        Runtime.getRuntime().addShutdownHook(shutdown);
        try {
            openCli(options, terminalFactory, script, executor, jobs, System.out);
        } finally {
            closeSession.run();
        }
    }

    private static SqlGateway startGateway(DefaultContext context, NetUtils.Port port) {
        Configuration flinkConfig = context.getFlinkConfig();
        Configuration rest = new Configuration();
        rest.set(SqlGatewayRestOptions.ADDRESS, GATEWAY_ADDRESS);
        rest.set(SqlGatewayRestOptions.PORT, port.getPort());
        flinkConfig.addAll(rest, SqlGatewayEndpointFactoryUtils.getSqlGatewayOptionPrefix("rest"));
        SqlGateway gateway = new SqlGateway(flinkConfig, new SingleSessionManager(context));
        try {
            gateway.start();
            LOG.info("Started the embedded SQL gateway on port {}", port.getPort());
            return gateway;
        } catch (Throwable t) {
            closePort(port);
            throw new SqlClientException("Failed to start the embedded sql-gateway.", t);
        }
    }

    private static void openCli(CliOptions options, Supplier<Terminal> terminalFactory, String script,
            Executor executor, SyncJobs jobs, PrintStream out) throws IOException {
        if (options.getSqlFile() != null && SqlClientShim.updateStatement(options) != null) {
            throw new IllegalArgumentException("Cannot run both -f and -u: give the statements with -f (-u is "
                    + "deprecated)");
        }
        Path history = FlinkSqlLauncher.historyFile(options);
        try (CliClient cli = new CliClient(terminalFactory, executor, history)) {
            // A URL on Flink 1.20, a URI on 2.x.
            Object init = options.getInitFile();
            if (init != null) {
                if (!SqlClientShim.initialize(cli, SqlClientShim.read(options.getInitFile()))) {
                    out.printf("Failed to initialize from sql script: %s. Please refer to the LOG for detailed error "
                            + "messages.%n", init);
                    jobs.stopAll(out);
                    return;
                }
                out.printf("Successfully initialized from sql script: %s%n", init);
            }
            if (script == null) {
                cli.executeInInteractiveMode();
            } else {
                SqlClientShim.runScript(cli, script);
            }
        }
        List<String> running = jobs.running();
        if (running.isEmpty()) {
            return;
        }
        if (script == null) {
            jobs.stopAll(out);
        } else {
            out.println("[INFO] The script's sync jobs keep running in this process until they end or it is "
                    + "stopped (Ctrl-C or SIGTERM stops them): " + String.join(", ", running));
            out.flush();
            jobs.awaitAll(out);
        }
    }

    private static void close(Executor executor, SqlGateway gateway, NetUtils.Port port) {
        try {
            executor.close();
        } catch (Exception e) {
            LOG.warn("Cannot close the session: {}", e.toString());
        }
        gateway.stop();
        closePort(port);
    }

    private static void closePort(NetUtils.Port port) {
        try {
            port.close();
        } catch (Exception e) {
            LOG.warn("Cannot release port {}: {}", port.getPort(), e.toString());
        }
    }
}
