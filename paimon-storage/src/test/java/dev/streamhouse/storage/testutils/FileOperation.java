package dev.streamhouse.storage.testutils;

/** The kinds of {@link dev.streamhouse.storage.fs.FileIO} calls that {@link FailingFileIO} counts and can fail. */
public enum FileOperation {
    /** {@code newInputStream}; also behind {@code readAllBytes} and {@code readUtf8}. */
    OPEN_INPUT,
    /** {@code newOutputStream}. */
    OPEN_OUTPUT,
    /** {@code close()} of a stream from {@code newOutputStream}: the moment a written file is finished. */
    CLOSE_OUTPUT,
    /** {@code status}; also behind {@code size}. */
    STATUS,
    LIST,
    EXISTS,
    /** {@code delete}; also behind {@code deleteQuietly}, which swallows the injected failure. */
    DELETE,
    MKDIRS,
    /** {@code rename}; a path predicate matches if it accepts the source or the target. */
    RENAME,
    CREATE_IF_ABSENT,
    OVERWRITE,
    /**
     * {@code write} to a stream from {@code newOutputStream}. Not counted (a file takes many writes),
     * so no call number ever names it: only a rule that lists {@code WRITE} explicitly
     * ({@link FailingFileIO#armOnce}, {@link FailingFileIO#armMatching}) fails it, before the bytes
     * are written.
     */
    WRITE
}
