package dev.streamhouse.storage.maintenance.tag;

import dev.streamhouse.storage.fs.FileIO;
import dev.streamhouse.storage.fs.Path;

import java.io.IOException;
import java.nio.charset.StandardCharsets;

/**
 * {@code tag.create-success-file}: {@code <table>/tag-success-file/<tag>_SUCCESS}, JSON
 * {@code {"creationTime": millis, "modificationTime": millis}} (as Paimon 1.3.1 writes it), written
 * when a tag is created and deleted with the tag.
 */
public final class TagSuccessFiles {
    private final FileIO fileIO;
    private final Path directory;

    public TagSuccessFiles(FileIO fileIO, Path tableRoot) {
        this.fileIO = fileIO;
        this.directory = new Path(tableRoot, "tag-success-file");
    }

    public Path path(String tag) {
        return new Path(directory, tag + "_SUCCESS");
    }

    /** Writes (or refreshes the modification time of) the success file of {@code tag}. */
    public void created(String tag, long nowMillis) throws IOException {
        Path path = path(tag);
        long creation = nowMillis;
        if (fileIO.exists(path)) {
            try {
                var node = new com.fasterxml.jackson.databind.ObjectMapper().readTree(fileIO.readUtf8(path));
                if (node != null && node.has("creationTime")) {
                    creation = node.get("creationTime").asLong();
                }
            } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
                // An unreadable old file is replaced.
            }
        }
        fileIO.mkdirs(directory);
        String json = "{\n  \"creationTime\" : " + creation + ",\n  \"modificationTime\" : " + nowMillis + "\n}";
        fileIO.overwrite(path, json.getBytes(StandardCharsets.UTF_8));
    }

    public void deleted(String tag) {
        fileIO.deleteQuietly(path(tag));
    }
}
