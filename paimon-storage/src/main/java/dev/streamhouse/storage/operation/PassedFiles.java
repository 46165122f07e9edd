package dev.streamhouse.storage.operation;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

/**
 * The names of the last {@value #REMEMBERED} immutable metadata files that passed a check, so a check
 * reads each such file once rather than at every access. Thread-safe.
 */
final class PassedFiles {
    static final int REMEMBERED = 64;

    private final Set<String> names = Collections.synchronizedSet(Collections.newSetFromMap(
            new LinkedHashMap<String, Boolean>() {
                @Override
                protected boolean removeEldestEntry(Map.Entry<String, Boolean> eldest) {
                    return size() > REMEMBERED;
                }
            }));

    boolean contains(String name) {
        return names.contains(name);
    }

    void add(String name) {
        names.add(name);
    }
}
