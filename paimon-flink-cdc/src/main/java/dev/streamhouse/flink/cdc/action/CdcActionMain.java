package dev.streamhouse.flink.cdc.action;

import dev.streamhouse.flink.cdc.RootCause;
import org.apache.flink.configuration.CheckpointingOptions;
import org.apache.flink.configuration.DeploymentOptions;
import org.apache.flink.configuration.ReadableConfig;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.core.execution.SavepointFormatType;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;

import java.io.PrintStream;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

/**
 * Entry point of the sync actions, for {@code bin/cdc} (an embedded local Flink) and for
 * {@code flink run} on a cluster: {@code <action> [--flag value ...] [-D key=value ...]}, e.g.
 * {@code mysql_sync_database --warehouse file:///wh --database ods --mysql_conf hostname=...}.
 *
 * <p>It submits the job and waits for it. The job runs until it fails or is stopped. On SIGTERM (or
 * Ctrl-C) it stops the job with a savepoint when {@code state.savepoints.dir} is set, and says how to
 * resume from it ({@code -D execution.state-recovery.path=...}); otherwise it cancels the job (committed
 * data stays; files of the last, uncommitted checkpoint are left to {@code remove_orphan_files}).
 *
 * <p>On a cluster it is the entry point of {@code flink run [-d] <cdc bundle jar> <action> ...} (the
 * bundle's manifest names this class), with the cluster's configuration from Flink's CLI. With
 * {@code -d} it returns once the job is submitted; otherwise it waits for the job and stops it on
 * SIGTERM as above.
 *
 * <p>Exit status: 0 when the job was stopped or finished (or submitted detached), 1 when it failed (its
 * error printed), 2 for wrong arguments.
 */
public final class CdcActionMain {
    private CdcActionMain() {}

    public static void main(String[] args) throws Exception {
        Outcome outcome = run(args, System.out, System.err);
        if (outcome != Outcome.SUBMITTED_DETACHED) {
            System.exit(outcome.status);
        }
        // `flink run -d`: return to Flink's CLI, which ends once the job is submitted.
    }

    /** How {@link #run} ended, with the process's exit status. */
    enum Outcome {
        ENDED(0), SUBMITTED_DETACHED(0), FAILED(1), WRONG_ARGUMENTS(2), HELP(0);

        final int status;

        Outcome(int status) {
            this.status = status;
        }
    }

    static Outcome run(String[] args, PrintStream out, PrintStream err) throws Exception {
        if (args.length == 0 || args[0].equals("--help") || args[0].equals("-h")) {
            out.println(usage());
            return args.length == 0 ? Outcome.WRONG_ARGUMENTS : Outcome.HELP;
        }
        String action = CdcActions.normalize(args[0]);
        if (action == null) {
            err.println("Unknown action '" + args[0] + "'; the actions are " + String.join(", ", CdcActions.ACTIONS));
            return Outcome.WRONG_ARGUMENTS;
        }
        CdcActions.Parsed job;
        StreamExecutionEnvironment env;
        try {
            job = CdcActions.parse(action, args, 1);
            // Under `flink run` the environment comes from the CLI's context: the cluster's configuration
            // (config.yaml, the CLI's -D and -d), which the action's -D options complete. Alone (bin/cdc) it
            // is a local one.
            ReadableConfig context = StreamExecutionEnvironment.getExecutionEnvironment().getConfiguration();
            env = StreamExecutionEnvironment.getExecutionEnvironment(job.configuration(context));
            job.job().addTo(env);
        } catch (IllegalArgumentException | IllegalStateException e) {
            err.println(e.getMessage());
            return Outcome.WRONG_ARGUMENTS;
        }
        ReadableConfig conf = env.getConfiguration();
        JobClient client = env.executeAsync(job.job().name());
        out.println("Submitted " + job.job().name() + " as job " + client.getJobID());
        if (submittedDetached(conf)) {
            return Outcome.SUBMITTED_DETACHED;
        }
        CountDownLatch ended = new CountDownLatch(1);
        Thread stopper = new Thread(() -> stop(client, conf, out, err, ended), "cdc-action-stop");
        Runtime.getRuntime().addShutdownHook(stopper);
        try {
            client.getJobExecutionResult().get();
            out.println("Job " + client.getJobID() + " finished");
            return Outcome.ENDED;
        } catch (ExecutionException e) {
            if (stopping) {
                return Outcome.ENDED;
            }
            err.println("Job " + client.getJobID() + " failed: " + RootCause.message(e));
            return Outcome.FAILED;
        } finally {
            ended.countDown();
            try {
                Runtime.getRuntime().removeShutdownHook(stopper);
            } catch (IllegalStateException shuttingDown) {
                // the hook is running
            }
        }
    }

    /** {@code flink run -d}: the job runs on its cluster without this process, which neither waits nor stops it. */
    static boolean submittedDetached(ReadableConfig conf) {
        return !conf.get(DeploymentOptions.ATTACHED) && !"local".equals(conf.get(DeploymentOptions.TARGET));
    }

    private static volatile boolean stopping;

    private static void stop(JobClient client, ReadableConfig conf, PrintStream out, PrintStream err,
            CountDownLatch ended) {
        stopping = true;
        try {
            String dir = conf.get(CheckpointingOptions.SAVEPOINT_DIRECTORY);
            if (dir != null) {
                String path = client.stopWithSavepoint(false, dir, SavepointFormatType.CANONICAL)
                        .get(5, TimeUnit.MINUTES);
                out.println("Stopped job " + client.getJobID() + " with savepoint " + path
                        + "; resume with -D execution.state-recovery.path=" + path);
            } else {
                client.cancel().get(1, TimeUnit.MINUTES);
                out.println("Cancelled job " + client.getJobID() + " (no state.savepoints.dir for a savepoint)");
            }
            ended.await(1, TimeUnit.MINUTES);
        } catch (Exception e) {
            err.println("Cannot stop job " + client.getJobID() + " cleanly: " + RootCause.message(e));
        }
    }

    static String usage() {
        return String.join("\n",
                "Sync MySQL/MariaDB tables, or CDC records in Kafka topics, into Paimon-format tables, as Apache",
                "Paimon's actions do.",
                "",
                "  mysql_sync_table    --warehouse W --database D --table T --mysql_conf k=v ... [--primary_keys a,b]",
                "                      [--partition_keys p] [--table_conf k=v ...] [--catalog_conf k=v ...]",
                "                      [--type_mapping m1,m2] [--computed_column c=f(..) ...] [--metadata_column m,..]",
                "  mysql_sync_database --warehouse W --database D --mysql_conf k=v ... [--including_tables REGEX]",
                "                      [--excluding_tables REGEX] [--table_prefix P] [--table_suffix S]",
                "                      [--merge_shards true|false] [--ignore_incompatible true|false]",
                "                      [--mode divided|combined] [--table_conf k=v ...] [--catalog_conf k=v ...]",
                "                      [--type_mapping m1,m2] [--primary_keys a,b] [--partition_keys p]",
                "                      [--computed_column c=f(..) ...] [--metadata_column m,..]",
                "  kafka_sync_table    --warehouse W --database D --table T --kafka_conf k=v ... (other arguments",
                "                      as mysql_sync_table)",
                "  kafka_sync_database --warehouse W --database D --kafka_conf k=v ... [--table_mapping src=dst ...]",
                "                      [--multiple_table_partition_keys t=c1,c2 ...] (other arguments as",
                "                      mysql_sync_database)",
                "",
                "  --kafka_conf: properties.bootstrap.servers, topic (a;b) or topic-pattern, properties.group.id,",
                "    value.format (debezium-json, canal-json, maxwell-json, ogg-json, aws-dms-json, json),",
                "    scan.startup.mode (group-offsets, earliest-offset,",
                "    latest-offset, timestamp, specific-offsets), <format>.ignore-parse-errors, properties.*",
                "  --mysql_conf: hostname, port, username, password, database-name (regex), table-name (regex),",
                "    server-id, server-time-zone, scan.startup.mode (initial, latest-offset, earliest-offset,",
                "    specific-offset, timestamp), debezium.*, jdbc.properties.*",
                "  --type_mapping: tinyint1-not-bool, to-nullable, to-string, char-to-string, longtext-to-bytes,",
                "    decimal-no-change, bigint-unsigned-to-bigint, allow-non-string-to-string",
                "  --computed_column name=function(args), e.g. 'dt=date_format(ts, yyyy-MM-dd)': year, month, day, hour,",
                "    minute, second, date_format(col, format[, precision]), now(), substring(col, begin[, end]),",
                "    truncate(col, width), cast(value[, type]), upper, lower, trim",
                "  --metadata_column: table_name, database_name, op_ts (comma-separated)",
                "  Flags take dashes or underscores. -D key=value sets a Flink option (default: checkpoints every 3 min).");
    }
}
