package dev.streamhouse.storage.mergetree.write;

/**
 * When a bucket writer's commits move every level-0 file up: for tables whose compactions look up
 * older versions of keys (first-row, {@code changelog-producer} = lookup, {@code force-lookup}), so
 * that what was written becomes visible (first-row reads skip level 0) and its changelog is produced.
 *
 * @param waits whether the commit waits until level 0 is empty ({@code lookup-wait}); otherwise it
 *     starts the compaction and a later commit hands out its result
 * @param everyCommits every how many commits ({@code lookup-compact} = RADICAL: 1; GENTLE:
 *     {@code lookup-compact.max-interval}); between them only the ordinary compaction runs
 */
public record LevelZeroAtCommit(boolean waits, int everyCommits) {
    public LevelZeroAtCommit {
        if (everyCommits < 1) {
            throw new IllegalArgumentException("Cannot move level 0 up every " + everyCommits + " commits: at least 1");
        }
    }
}
