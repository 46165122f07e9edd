package dev.streamhouse.storage.options;

import java.util.Map;
import java.util.TreeMap;

/**
 * Options that configure a file system rather than a table: {@code s3.*}, {@code s3a.*}, {@code fs.*},
 * {@code hadoop.*}, {@code oss.*} and {@code hadoop-conf-dir}. A catalog's file IO reads them from the
 * catalog options; a table used by its path (no catalog) from the table's options, which then never
 * store them (they may hold credentials).
 */
public final class FileSystemOptions {
    private FileSystemOptions() {}

    private static final String[] PREFIXES = {"s3.", "s3a.", "fs.", "hadoop.", "oss."};

    /**
     * The spellings of S3 settings, as Paimon (and Flink's S3 file systems) accept them: each sets S3A's
     * {@code fs.s3a.<key>}; the longest wins when several name the same key.
     */
    public static final java.util.List<String> S3_PREFIXES = java.util.List.of("fs.s3a.", "s3a.", "s3.");

    /** Whether {@code key} is an S3 setting in one of {@link #S3_PREFIXES}. */
    public static boolean isS3Key(String key) {
        for (String prefix : S3_PREFIXES) {
            if (key.startsWith(prefix) && key.length() > prefix.length()) {
                return true;
            }
        }
        return false;
    }
    private static final String CONF_DIR = "hadoop-conf-dir";

    public static boolean isFileSystemKey(String key) {
        if (key.equals(CONF_DIR)) {
            return true;
        }
        for (String prefix : PREFIXES) {
            if (key.startsWith(prefix)) {
                return true;
            }
        }
        return false;
    }

    /** {@code options} without the file system settings. */
    public static Map<String, String> without(Map<String, String> options) {
        Map<String, String> out = new TreeMap<>(options);
        out.keySet().removeIf(FileSystemOptions::isFileSystemKey);
        return out;
    }
}
