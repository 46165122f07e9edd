package dev.streamhouse.storage.fs;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * Lists files named {@code <prefix><decimal id>} in a directory (schema-N, snapshot-N), ignoring
 * directories, hints, hidden temp files and anything else.
 */
public final class VersionedFiles {
    private VersionedFiles() {}

    /** The ids found, ascending; empty if the directory is missing. */
    public static List<Long> listIds(FileIO fileIO, Path directory, String prefix) throws IOException {
        List<Long> ids = new ArrayList<>();
        for (FileStatus status : fileIO.list(directory)) {
            Long id = parseId(status.path().name(), prefix);
            if (id != null && !status.isDirectory()) {
                ids.add(id);
            }
        }
        Collections.sort(ids);
        return ids;
    }

    /** The id in {@code <prefix><digits>}, or null if the name has another form. */
    public static Long parseId(String name, String prefix) {
        if (!name.startsWith(prefix) || name.length() == prefix.length()) {
            return null;
        }
        String digits = name.substring(prefix.length());
        for (int i = 0; i < digits.length(); i++) {
            if (digits.charAt(i) < '0' || digits.charAt(i) > '9') {
                return null;
            }
        }
        try {
            return Long.parseLong(digits);
        } catch (NumberFormatException tooLarge) {
            return null;
        }
    }
}
