package dev.streamhouse.storage.mergetree.lookup;

import dev.streamhouse.storage.manifest.DataFileMeta;
import dev.streamhouse.storage.mergetree.KeyValue;

/**
 * The newest stored version of a key and where it lives.
 *
 * @param keyValue the version, a new object; its level is the level of {@code file}
 * @param file the data file holding it, or null if the lookup does not know it
 * @param rowPosition its 0-based row position in that file (what a deletion vector marks), or -1
 */
public record LookupResult(KeyValue keyValue, DataFileMeta file, long rowPosition) {

    public String fileName() {
        return file == null ? null : file.fileName();
    }
}
