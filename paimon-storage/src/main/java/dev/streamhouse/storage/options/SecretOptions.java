package dev.streamhouse.storage.options;

import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * Options whose values are credentials: keys naming a secret, password, access key, token or
 * credential. Their values never appear in logs, error messages, system tables or files this store
 * writes; {@link #redacted} shows them as {@value #MASK}.
 */
public final class SecretOptions {
    /** What a secret value is shown as. */
    public static final String MASK = "******";

    private static final String[] MARKERS = {"secret", "password", "access-key", "access.key", "accesskey",
        "access_key", "token", "credential"};

    private SecretOptions() {}

    /** Whether the value of {@code key} is a credential. */
    public static boolean isSecret(String key) {
        String k = key.toLowerCase(Locale.ROOT);
        for (String marker : MARKERS) {
            if (k.contains(marker)) {
                return true;
            }
        }
        return false;
    }

    /** A key-sorted copy of {@code options} with every secret value masked. */
    public static Map<String, String> redacted(Map<String, String> options) {
        Map<String, String> out = new TreeMap<>();
        options.forEach((k, v) -> out.put(k, isSecret(k) ? MASK : v));
        return out;
    }
}
