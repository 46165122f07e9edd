package dev.streamhouse.bench;

import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.ReadableConfig;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Starts a sync action ({@code kafka_sync_database ...}, arguments as a user gives them) of the
 * implementation on the classpath, in this JVM, and returns its running job. The driver compiles
 * against neither implementation, so it reaches their action classes by reflection, by the way their
 * own entry points build the job:
 *
 * <ul>
 *   <li>ours: {@code CdcActions.parse} (what {@code CdcActionMain} runs) gives the {@code SyncJob},
 *       whose Flink configuration goes on top of the benchmark's and which adds itself to the
 *       environment;
 *   <li>Apache Paimon's: {@code ActionFactory.createAction(args)}, then {@code
 *       withStreamExecutionEnvironment} and {@code build()} (what its {@code run()} does before it
 *       executes the job).
 * </ul>
 *
 * Either way the job is submitted with {@code executeAsync} on a local environment of {@code conf},
 * so the caller holds the {@link JobClient} and cancels the job when it has measured.
 */
final class SyncActions {
    private static final String OURS = "dev.streamhouse.flink.cdc.action.CdcActions";
    private static final String PAIMON = "org.apache.paimon.flink.action.ActionFactory";

    private SyncActions() {}

    /** The class whose presence tells which implementation's actions are on the classpath. */
    static String entryClass(String impl) {
        return "ours".equals(impl) ? OURS : PAIMON;
    }

    static JobClient start(String impl, String action, List<String> arguments, Configuration conf)
            throws Exception {
        List<String> argv = new ArrayList<>();
        argv.add(action);
        argv.addAll(arguments);
        String[] args = argv.toArray(new String[0]);
        try {
            return "ours".equals(impl) ? startOurs(args, conf) : startPaimon(args, conf);
        } catch (InvocationTargetException e) {
            // The action's own error (wrong arguments, a catalog it cannot open), not reflection's.
            throw e.getCause() instanceof Exception ? (Exception) e.getCause() : e;
        }
    }

    private static JobClient startOurs(String[] args, Configuration conf) throws Exception {
        Method parse = Class.forName(OURS).getDeclaredMethod("parse", String.class, String[].class, int.class);
        parse.setAccessible(true);
        Object parsed = parse.invoke(null, args[0], args, 1);
        Method jobOf = parsed.getClass().getDeclaredMethod("job");
        jobOf.setAccessible(true);
        Object job = jobOf.invoke(parsed);
        Configuration jobConf = (Configuration) job.getClass()
                .getMethod("configuration", ReadableConfig.class, Map.class)
                .invoke(job, conf, Map.of());
        Configuration all = new Configuration(conf);
        all.addAll(jobConf);
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(all);
        job.getClass().getMethod("addTo", StreamExecutionEnvironment.class).invoke(job, env);
        return env.executeAsync((String) job.getClass().getMethod("name").invoke(job));
    }

    private static JobClient startPaimon(String[] args, Configuration conf) throws Exception {
        Optional<?> created = (Optional<?>) Class.forName(PAIMON)
                .getMethod("createAction", String[].class)
                .invoke(null, (Object) args);
        Object action = created.orElseThrow(() -> new IllegalArgumentException(
                "Cannot start Apache Paimon's " + args[0] + ": ActionFactory made no action of " + List.of(args)));
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(conf);
        action.getClass().getMethod("withStreamExecutionEnvironment", StreamExecutionEnvironment.class)
                .invoke(action, env);
        action.getClass().getMethod("build").invoke(action);
        return env.executeAsync("Kafka-Paimon Database Sync: " + argumentOf(args, "--database"));
    }

    private static String argumentOf(String[] args, String flag) {
        for (int i = 0; i + 1 < args.length; i++) {
            if (args[i].equals(flag)) {
                return args[i + 1];
            }
        }
        return "?";
    }
}
