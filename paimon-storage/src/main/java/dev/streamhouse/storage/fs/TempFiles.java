package dev.streamhouse.storage.fs;

import java.io.IOException;
import java.util.UUID;

/**
 * Hidden temp files next to a target ({@code .<name>.<uuid>.tmp}), which file IOs publish by a rename or
 * move; listings of metadata ({@link VersionedFiles}) and orphan removal's age check pass them over.
 */
public final class TempFiles {
    private TempFiles() {}

    /** Writes {@code content} to a new hidden temp file next to {@code target} (deleted again on failure). */
    public static Path writeNextTo(FileIO fileIO, Path target, byte[] content) throws IOException {
        Path tmp = new Path(target.parent(), "." + target.name() + "." + UUID.randomUUID() + ".tmp");
        try (PositionOutputStream out = fileIO.newOutputStream(tmp, false)) {
            out.write(content);
        } catch (IOException | RuntimeException e) {
            fileIO.deleteQuietly(tmp);
            throw e;
        }
        return tmp;
    }
}
