package dev.streamhouse.sqlrunner;

import dev.streamhouse.flink.cdc.RootCause;
import org.apache.flink.api.common.JobID;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.core.execution.SavepointFormatType;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import sun.misc.Signal;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The sync jobs a session started on its own embedded MiniClusters, which live only as long as the
 * runner's JVM: a script waits for them after its last statement, and quitting the prompt or SIGTERM
 * stops them, with a savepoint when {@code state.savepoints.dir} is set (else they are cancelled: what
 * they committed stays, files of their last, uncommitted checkpoint are left to
 * {@code remove_orphan_files}). Once a job is added, SIGTERM first stops the jobs and then exits (with
 * 143): the JVM's own shutdown would run the MiniClusters' shutdown hooks alongside, which tear the
 * jobs down before a savepoint can be taken. Jobs sent to a cluster are not tracked: they outlive the
 * session.
 */
final class SyncJobs {
    private static final Logger LOG = LoggerFactory.getLogger(SyncJobs.class);

    /** A started sync job and where a stop puts its savepoint (null: cancel it). */
    private record Started(String name, JobClient client, String savepointDir) {
        JobID id() {
            return client.getJobID();
        }
    }

    private final List<Started> jobs = new CopyOnWriteArrayList<>();
    private final AtomicBoolean sigtermHandled = new AtomicBoolean();
    private volatile boolean stopping;

    void add(String name, JobClient client, String savepointDir) {
        jobs.add(new Started(name, client, savepointDir));
        if (sigtermHandled.compareAndSet(false, true)) {
            handleSigterm();
        }
    }

    private void handleSigterm() {
        try {
            Signal.handle(new Signal("TERM"), signal -> new Thread(() -> {
                System.out.println();
                stopAll(System.out);
                System.exit(128 + signal.getNumber());
            }, "sync-jobs-sigterm").start());
        } catch (IllegalArgumentException e) {
            LOG.warn("SIGTERM will not stop the sync jobs before the JVM shuts down: {}", e.getMessage());
        }
    }

    /** The jobs not ended yet, as "name (job id)". */
    List<String> running() {
        List<String> running = new ArrayList<>();
        for (Started job : jobs) {
            if (!job.client().getJobExecutionResult().isDone()) {
                running.add(job.name() + " (job " + job.id() + ")");
            }
        }
        return running;
    }

    /** Waits until every job has ended, saying how each ended unless {@link #stopAll} stopped it. */
    void awaitAll(PrintStream out) {
        for (Started job : jobs) {
            try {
                job.client().getJobExecutionResult().get();
                if (!stopping) {
                    out.println("[INFO] Sync job " + job.id() + " finished.");
                }
            } catch (ExecutionException e) {
                LOG.info("Sync job {} ({}) ended", job.id(), job.name(), e);
                if (!stopping) {
                    out.println("[ERROR] Sync job " + job.id() + " (" + job.name() + ") failed: " + RootCause.message(e)
                            + "; details in the log");
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
            out.flush();
        }
    }

    /** Stops every job still running: with a savepoint where one is configured, else cancelled. */
    void stopAll(PrintStream out) {
        stopping = true;
        for (Started job : jobs) {
            if (job.client().getJobExecutionResult().isDone()) {
                continue;
            }
            try {
                if (job.savepointDir() != null) {
                    String path = job.client().stopWithSavepoint(false, job.savepointDir(), SavepointFormatType.CANONICAL)
                            .get(5, TimeUnit.MINUTES);
                    out.println("[INFO] Stopped sync job " + job.id() + " with savepoint " + path + "; to resume it, "
                            + "SET 'execution.state-recovery.path' = '" + path + "' and run its statement again.");
                } else {
                    job.client().cancel().get(1, TimeUnit.MINUTES);
                    out.println("[INFO] Cancelled sync job " + job.id() + " (" + job.name()
                            + "); set 'state.savepoints.dir' to stop with a savepoint instead.");
                }
                job.client().getJobExecutionResult().handle((result, failure) -> null).get(1, TimeUnit.MINUTES);
            } catch (Exception e) {
                LOG.info("Cannot stop sync job {} ({})", job.id(), job.name(), e);
                out.println("[WARNING] Cannot stop sync job " + job.id() + " cleanly: " + RootCause.message(e));
            }
        }
        out.flush();
    }

}
