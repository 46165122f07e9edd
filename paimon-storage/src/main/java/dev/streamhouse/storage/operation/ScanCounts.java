package dev.streamhouse.storage.operation;

/** What one planning read: manifests and the entries of interest they held. Not thread-safe. */
final class ScanCounts {
    long manifests;
    long entries;
}
