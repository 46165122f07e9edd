package dev.streamhouse.storage.mergetree;

import java.util.List;

/**
 * The rule that lookup compactions establish and everything reading their tables relies on (Apache
 * Paimon 1.3's): each compaction that moves a key out of level 0 merges the key's older value into what
 * it writes, so among a key's versions above level 0 the one on the smallest level is its whole merged
 * value, and deeper ones must not be merged again.
 */
public final class LookupVersions {
    private LookupVersions() {}

    /** The version on the smallest level above 0 (the first one on a tie), or null if none is above 0. */
    public static KeyValue newestAboveLevelZero(List<KeyValue> versions) {
        KeyValue newest = null;
        for (KeyValue kv : versions) {
            if (kv.level() > 0 && (newest == null || kv.level() < newest.level())) {
                newest = kv;
            }
        }
        return newest;
    }
}
