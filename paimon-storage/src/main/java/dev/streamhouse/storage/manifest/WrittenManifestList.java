package dev.streamhouse.storage.manifest;

/**
 * A manifest list just written: its name in {@code manifest/} and exact byte size, as recorded in the
 * snapshot ({@code baseManifestList}/{@code baseManifestListSize} etc.).
 */
public record WrittenManifestList(String fileName, long fileSize) {}
