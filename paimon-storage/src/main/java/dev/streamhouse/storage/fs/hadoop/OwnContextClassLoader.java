package dev.streamhouse.storage.fs.hadoop;

import java.io.IOException;

/**
 * Runs a call into Hadoop with this module's class loader as the thread's context class loader.
 *
 * <p>A Hadoop file system is opened once per JVM and shared by every job ({@link HadoopFileSystems}),
 * and its thread pools (S3A's uploads, its HTTP connections) start their threads lazily, inside
 * whatever call needs one; a new thread takes the context class loader of the thread that starts it.
 * In a Flink task that is the job's class loader, which Flink closes when the job ends: later jobs
 * then fail in those threads with "Trying to access closed classloader" (commons-logging and the AWS
 * SDK look up resources through it). With the loader that loaded Hadoop itself in place during every
 * call, no thread of a shared file system ever holds a job's class loader.
 */
public final class OwnContextClassLoader {
    private static final ClassLoader OWN = OwnContextClassLoader.class.getClassLoader();

    private OwnContextClassLoader() {}

    /** A call that may throw {@link IOException}. */
    public interface IOCall<T> {
        T call() throws IOException;
    }

    /** An action that may throw {@link IOException}. */
    public interface IOAction {
        void run() throws IOException;
    }

    public static <T> T call(IOCall<T> call) throws IOException {
        Thread thread = Thread.currentThread();
        ClassLoader previous = thread.getContextClassLoader();
        if (previous == OWN) {
            return call.call();
        }
        thread.setContextClassLoader(OWN);
        try {
            return call.call();
        } finally {
            thread.setContextClassLoader(previous);
        }
    }

    public static void run(IOAction action) throws IOException {
        call(() -> {
            action.run();
            return null;
        });
    }
}
