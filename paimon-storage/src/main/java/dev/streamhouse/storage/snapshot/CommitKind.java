package dev.streamhouse.storage.snapshot;

/** What kind of change a snapshot made (docs/format.md §4.2). */
public enum CommitKind {
    /** New files only. */
    APPEND,
    /** Compaction: deletes old files, adds rewritten or upgraded ones. */
    COMPACT,
    /** Replaces files (INSERT OVERWRITE, truncate, drop partition, row-level deletes). */
    OVERWRITE,
    /** Only sets statistics. */
    ANALYZE
}
