package dev.streamhouse.flink.source.lookup;

import org.apache.flink.api.common.functions.RuntimeContext;
import org.apache.flink.streaming.api.operators.StreamingRuntimeContext;
import org.apache.flink.table.functions.FunctionContext;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.reflect.Field;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;

/**
 * Where a join task keeps its lookup cache: a new directory {@code streamhouse-lookup-*} in one of the
 * TaskManager's temporary directories ({@code io.tmp.dirs}, chosen by subtask), or, when the function
 * runs outside a task, in the job parameter {@code io.tmp.dirs} or {@code java.io.tmpdir}.
 */
final class LocalCacheDirectory {
    private LocalCacheDirectory() {}

    static Path create(FunctionContext context, String tableName) {
        Path parent = Paths.get(taskTmpDirectory(context));
        try {
            Files.createDirectories(parent);
            return Files.createTempDirectory(parent, "streamhouse-lookup-" + tableName.replaceAll("[^A-Za-z0-9_.-]", "_") + "-");
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot create a directory for the lookup cache of table " + tableName
                    + " in " + parent + " (set 'io.tmp.dirs' to a writable local directory)", e);
        }
    }

    private static String taskTmpDirectory(FunctionContext context) {
        RuntimeContext runtime = runtimeContext(context);
        if (runtime instanceof StreamingRuntimeContext) {
            String[] dirs = ((StreamingRuntimeContext) runtime).getTaskManagerRuntimeInfo().getTmpDirectories();
            if (dirs != null && dirs.length > 0) {
                return dirs[runtime.getTaskInfo().getIndexOfThisSubtask() % dirs.length];
            }
        }
        String configured = context.getJobParameter("io.tmp.dirs", System.getProperty("java.io.tmpdir"));
        return configured.split("[,;" + java.io.File.pathSeparator + "]")[0];
    }

    /** FunctionContext does not expose its RuntimeContext; read it, or null where that fails. */
    private static RuntimeContext runtimeContext(FunctionContext context) {
        try {
            Field field = FunctionContext.class.getDeclaredField("context");
            field.setAccessible(true);
            return (RuntimeContext) field.get(context);
        } catch (ReflectiveOperationException | RuntimeException e) {
            return null;
        }
    }
}
