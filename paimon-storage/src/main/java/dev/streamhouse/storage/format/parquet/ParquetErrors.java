package dev.streamhouse.storage.format.parquet;

import dev.streamhouse.storage.fs.Path;

import java.io.IOException;

/** Uniform read failures: "Cannot read Parquet file &lt;path&gt;: &lt;cause&gt;". */
final class ParquetErrors {
    private ParquetErrors() {}

    static IOException readFailure(Path file, Throwable cause) {
        String prefix = "Cannot read Parquet file " + file + ":";
        if (cause instanceof IOException && cause.getMessage() != null && cause.getMessage().startsWith(prefix)) {
            return (IOException) cause;
        }
        String detail = cause.getMessage() == null ? cause.getClass().getSimpleName()
                : cause.getClass().getSimpleName() + ": " + cause.getMessage();
        return new IOException(prefix + " " + detail, cause);
    }
}
