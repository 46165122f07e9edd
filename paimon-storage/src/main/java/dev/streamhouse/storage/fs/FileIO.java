package dev.streamhouse.storage.fs;

import java.io.ByteArrayOutputStream;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.Serializable;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * The file system seam: every byte the table store reads or writes goes through this interface.
 *
 * <p>Contract: paths are absolute. Methods throw {@link IOException} on I/O failure and
 * {@link FileNotFoundException} when a file that must exist does not. Implementations are
 * thread-safe and serializable (they travel to Flink tasks).
 *
 * <p>Commit atomicity rests on {@link #createIfAbsent(Path, byte[])}: exactly one of several
 * concurrent callers for the same path may succeed, and readers never observe a partial file.
 */
public interface FileIO extends Serializable {

    /** Opens a file for reading. */
    SeekableInputStream newInputStream(Path path) throws IOException;

    /**
     * Creates a file for writing; parent directories are created as needed. With {@code overwrite}
     * false an existing file is an error. The content may be visible before close on some file
     * systems, so never use this for files that must appear atomically.
     */
    PositionOutputStream newOutputStream(Path path, boolean overwrite) throws IOException;

    /** Status of a file or directory; {@link FileNotFoundException} if absent. */
    FileStatus status(Path path) throws IOException;

    /** Direct children of a directory; empty if the directory does not exist. */
    List<FileStatus> list(Path directory) throws IOException;

    boolean exists(Path path) throws IOException;

    /** Deletes a file, or a directory (recursively if asked). Returns false if nothing was there. */
    boolean delete(Path path, boolean recursive) throws IOException;

    /** Creates a directory and its parents; succeeds if it already exists. */
    void mkdirs(Path path) throws IOException;

    /** Renames {@code src} to {@code dst}; returns false (and changes nothing) if {@code dst} exists. */
    boolean rename(Path src, Path dst) throws IOException;

    /**
     * Atomically creates {@code path} with {@code content} if no file exists there. Returns false if
     * the file already existed (another writer won). Readers see either no file or the whole content.
     */
    boolean createIfAbsent(Path path, byte[] content) throws IOException;

    /**
     * {@link #createIfAbsent} for a caller that holds a commit lock every writer of this file takes (a
     * catalog's {@code lock.enabled}): a store without an atomic create may then check and write in two
     * steps. The default is {@link #createIfAbsent} itself.
     */
    default boolean createIfAbsentUnderLock(Path path, byte[] content) throws IOException {
        return createIfAbsent(path, content);
    }

    /** Replaces the content of a small file (hints, tags, consumers); not atomic against readers. */
    default void overwrite(Path path, byte[] content) throws IOException {
        try (PositionOutputStream out = newOutputStream(path, true)) {
            out.write(content);
        }
    }

    /** Reads a whole (small) file. */
    default byte[] readAllBytes(Path path) throws IOException {
        try (SeekableInputStream in = newInputStream(path)) {
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            in.transferTo(out);
            return out.toByteArray();
        }
    }

    default String readUtf8(Path path) throws IOException {
        return new String(readAllBytes(path), StandardCharsets.UTF_8);
    }

    default long size(Path path) throws IOException {
        return status(path).length();
    }

    /** Deletes a file, swallowing failures; for cleanup paths that must not mask the first error. */
    default void deleteQuietly(Path path) {
        try {
            delete(path, false);
        } catch (IOException | RuntimeException ignored) {
            // best effort
        }
    }
}
