package dev.streamhouse.sqlrunner;

import dev.streamhouse.storage.fs.CorruptFileException;
import org.apache.flink.table.client.gateway.SqlExecutionException;

import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Finds the error that names a damaged file in a statement's failure, so that the SQL client shows it.
 *
 * <p>Why: the client prints the innermost cause of a failure, and for a job that failed on the
 * gateway only the last {@code Caused by:} line of the job's stack trace. For a damaged file that is
 * the decoder's error (a bare {@code java.io.EOFException}, say), while the {@link CorruptFileException}
 * that wraps it names the table, the file, the partition and bucket and what to do. The failure is
 * searched as objects (a local failure) and as text (a failure reported by the gateway, whose
 * {@code Caused by:} lines name exception classes that are resolved on this class path).
 */
final class DamagedFileErrors {
    private static final Pattern CAUSE_LINE =
            Pattern.compile("^(?:Caused by: )?([A-Za-z_$][\\w$]*(?:\\.[A-Za-z_$][\\w$]*)+): (.+)$", Pattern.MULTILINE);

    private DamagedFileErrors() {}

    /**
     * The failure to report instead of {@code failure}: a {@link SqlExecutionException} whose message is
     * the outermost {@link CorruptFileException}'s ({@code <class>: <message>}) with {@code failure}
     * attached as suppressed (the client logs it in full), or {@code failure} itself when no damaged file
     * is named in it.
     */
    static RuntimeException reveal(RuntimeException failure) {
        Optional<String> named = find(failure);
        if (named.isEmpty()) {
            return failure;
        }
        SqlExecutionException revealed = new SqlExecutionException(named.get());
        revealed.addSuppressed(failure);
        return revealed;
    }

    /** {@code <class name>: <message>} of the outermost damaged-file error in {@code failure}, if any. */
    static Optional<String> find(Throwable failure) {
        for (Throwable t = failure; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof CorruptFileException) {
                return Optional.of(t.getClass().getName() + ": " + t.getMessage());
            }
            Optional<String> inText = findInText(t.getMessage());
            if (inText.isPresent()) {
                return inText;
            }
        }
        return Optional.empty();
    }

    private static Optional<String> findInText(String text) {
        if (text == null || !text.contains("Exception")) {
            return Optional.empty();
        }
        Matcher m = CAUSE_LINE.matcher(text);
        while (m.find()) {
            if (isCorruptFile(m.group(1))) {
                return Optional.of(m.group(1) + ": " + m.group(2).trim());
            }
        }
        return Optional.empty();
    }

    private static boolean isCorruptFile(String className) {
        if (!className.startsWith("dev.streamhouse.")) {
            return false;
        }
        try {
            return CorruptFileException.class.isAssignableFrom(
                    Class.forName(className, false, DamagedFileErrors.class.getClassLoader()));
        } catch (ClassNotFoundException | LinkageError e) {
            return false;
        }
    }
}
