package dev.streamhouse.storage.read;

import dev.streamhouse.storage.fs.CorruptFileException;
import dev.streamhouse.storage.fs.FileIO;
import dev.streamhouse.storage.fs.Path;

import java.io.EOFException;
import java.io.IOException;

/**
 * Turns a failure to read one data file into an error naming the table, the file, its partition and
 * bucket and what is wrong: a {@link CorruptDataFileException} when the file's bytes are damaged, an
 * {@link IOException} otherwise (the file system failed, which a retry may cure). The original
 * failure is always the cause.
 *
 * <p>Damaged means: the file's size differs from the size recorded in its manifest entry, or the
 * failure is the decoder's: a premature end of the data, or an error that is neither an I/O error nor
 * one that points at a defect of the reader (null pointer, class cast, unsupported operation). A read
 * that was interrupted (a cancelled job) is never reported as damage.
 */
final class DataFileFailures {
    private final FileIO fileIO;
    private final Path path;
    private final long recordedSize;
    private final String tableName;
    /** "partition dt=2026-12-01, bucket 0", or "bucket 0" for an unpartitioned table. */
    private final String where;

    DataFileFailures(FileIO fileIO, Path path, long recordedSize, String tableName, String where) {
        this.fileIO = fileIO;
        this.path = path;
        this.recordedSize = recordedSize;
        this.tableName = tableName;
        this.where = where;
    }

    /** The error to throw for {@code failure}: a {@link CorruptDataFileException} or an {@link IOException}. */
    Exception translate(Throwable failure) {
        if (failure instanceof CorruptDataFileException named) {
            return named;
        }
        String prefix = "Cannot read data file " + path + " of table " + tableName + " (" + where + "): ";
        String damage = damage(failure);
        if (damage != null) {
            return new CorruptDataFileException(path, prefix + damage + ". The file is damaged and the read "
                    + "cannot go on without its rows: restore the file (same name, same bytes) from a backup, or "
                    + "roll back the table to a snapshot that does not use it (CALL sys.rollback_to); see "
                    + "'Damaged files' in docs/troubleshooting.md", failure);
        }
        return new IOException(prefix + describe(failure), failure);
    }

    /**
     * The error for a data file whose deletion vector cannot be read because the deletion-vector file is
     * damaged: {@code cause}'s file and message, with this data file, its partition and bucket.
     */
    CorruptFileException deletionVectorDamaged(CorruptFileException cause) {
        return new CorruptFileException(cause.file(), "Cannot read data file " + path + " of table " + tableName
                + " (" + where + "): its deletion vector cannot be read: " + cause.getMessage(), cause);
    }

    /** Throws {@code e} (an {@link IOException} or a runtime exception, as {@link #translate} returns). */
    static IOException rethrow(Exception e) throws IOException {
        if (e instanceof RuntimeException r) {
            throw r;
        }
        throw (IOException) e;
    }

    /** What is wrong with the bytes, or null when the failure does not say they are damaged. */
    private String damage(Throwable failure) {
        if (interrupted(failure)) {
            return null; // a cancelled read, whatever the decoder made of it
        }
        long actual = sizeOrUnknown();
        if (actual >= 0 && actual != recordedSize) {
            return "it has " + actual + " bytes but " + recordedSize + " were written ("
                    + (actual < recordedSize ? "truncated" : "overwritten or appended to") + "); the reader failed with "
                    + describe(innermost(failure));
        }
        for (Throwable t = failure; t != null; t = t.getCause()) {
            if (t instanceof EOFException) {
                return "its content ends before the data it describes (" + describe(t) + ")";
            }
            if (!(t instanceof IOException) && !(t instanceof java.io.UncheckedIOException) && !isDefect(t)) {
                return "its content cannot be decoded (" + describe(t) + ")";
            }
            if (t.getCause() == t) {
                break;
            }
        }
        return null;
    }

    private static boolean interrupted(Throwable failure) {
        for (Throwable t = failure; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof InterruptedException || t instanceof java.io.InterruptedIOException
                    || t instanceof java.nio.channels.ClosedByInterruptException) {
                return true;
            }
        }
        return Thread.currentThread().isInterrupted();
    }

    /** Failures that point at this code or an unsupported feature, not at the file's bytes. */
    private static boolean isDefect(Throwable t) {
        return t instanceof NullPointerException || t instanceof ClassCastException
                || t instanceof UnsupportedOperationException;
    }

    private long sizeOrUnknown() {
        try {
            return fileIO.size(path);
        } catch (IOException | RuntimeException e) {
            return -1;
        }
    }

    private static Throwable innermost(Throwable t) {
        while (t.getCause() != null && t.getCause() != t) {
            t = t.getCause();
        }
        return t;
    }

    private static String describe(Throwable t) {
        return t.getMessage() == null ? t.getClass().getSimpleName() : t.getClass().getSimpleName() + ": " + t.getMessage();
    }
}
