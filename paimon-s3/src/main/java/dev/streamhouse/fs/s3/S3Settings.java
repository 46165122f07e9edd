package dev.streamhouse.fs.s3;

import dev.streamhouse.storage.fs.hadoop.HadoopSettings;
import dev.streamhouse.storage.options.FileSystemOptions;
import dev.streamhouse.storage.options.Options;

import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The S3A settings of a warehouse from catalog options, spelled as Paimon users write them:
 * {@code s3.<key>}, {@code s3a.<key>} and {@code fs.s3a.<key>} all set {@code fs.s3a.<key>}, and the
 * dashed spellings {@code access-key}, {@code secret-key} and {@code path-style-access} also set
 * S3A's dotted keys ({@code s3.access-key} is {@code fs.s3a.access.key}). Hadoop settings
 * ({@link HadoopSettings}: conf dir, {@code hadoop.*}, {@code fs.*}) come first; these win.
 */
public final class S3Settings {
    private S3Settings() {}

    private static final Map<String, String> MIRRORED = Map.of(
            "access-key", "access.key",
            "secret-key", "secret.key",
            "path-style-access", "path.style.access");
    private static final String S3A_FILE_SYSTEM = "org.apache.hadoop.fs.s3a.S3AFileSystem";

    public static HadoopSettings fromOptions(Options options) {
        Map<String, String> s3a = new TreeMap<>();
        // Both schemes are S3A.
        s3a.put("fs.s3.impl", S3A_FILE_SYSTEM);
        s3a.put("fs.s3a.impl", S3A_FILE_SYSTEM);
        s3a.putAll(s3aEntries(options.toMap()));
        return HadoopSettings.fromOptions(options).with(s3a);
    }

    /** The {@code fs.s3a.*} entries that {@code options} set. */
    static Map<String, String> s3aEntries(Map<String, String> options) {
        Map<String, String> out = new TreeMap<>();
        // Apply the shortest spelling first so that an explicit fs.s3a.<key> wins.
        List<String> prefixes = FileSystemOptions.S3_PREFIXES;
        for (int i = prefixes.size() - 1; i >= 0; i--) {
            String prefix = prefixes.get(i);
            for (Map.Entry<String, String> e : options.entrySet()) {
                if (e.getKey().startsWith(prefix) && e.getKey().length() > prefix.length()) {
                    String rest = e.getKey().substring(prefix.length());
                    out.put("fs.s3a." + rest, e.getValue());
                    String mirrored = MIRRORED.get(rest);
                    if (mirrored != null) {
                        out.put("fs.s3a." + mirrored, e.getValue());
                    }
                }
            }
        }
        return out;
    }
}
