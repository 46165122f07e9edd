package org.apache.flink.python.util;

import org.apache.commons.cli.CommandLine;
import org.apache.flink.configuration.Configuration;

/**
 * Stand-in for the class of the same name in flink-python, which bin/flink-sql does not put on the
 * classpath (33 MB, and its declared dependency flink-sql-avro is not on Maven Central).
 *
 * <p>Flink's SQL client looks this class up by name while parsing its command line and fails with
 * "Failed to parse the Python command line options" when it is missing. The runner supports no
 * Python options, so the answer is always an empty configuration.
 *
 * <p>This class lives only in the runner module (it is the one class outside {@code dev.streamhouse}
 * because the SQL client finds it by this exact name); it is never part of the bundle jar.
 */
public final class PythonDependencyUtils {

    private PythonDependencyUtils() {}

    /** Called reflectively by the SQL client; Python dependencies are not supported here. */
    public static Configuration parsePythonDependencyConfiguration(CommandLine commandLine) {
        return new Configuration();
    }
}
