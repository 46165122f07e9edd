package dev.streamhouse.storage.mergetree;

/** A sorted run and the level it lives on. */
public record LevelSortedRun(int level, SortedRun run) {}
