package dev.streamhouse.storage.operation;

/** Which files of a snapshot a {@link FileStoreScan} plans (docs/format.md §5.5). */
public enum ScanMode {
    /** The live data files: the table as of the snapshot. */
    ALL,
    /** The data files the snapshot added (ADD entries of its delta manifests): its new data. */
    DELTA,
    /** The snapshot's changelog files (its changelog manifest list); none when it has no changelog. */
    CHANGELOG
}
