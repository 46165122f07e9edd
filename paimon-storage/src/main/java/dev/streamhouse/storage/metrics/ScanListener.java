package dev.streamhouse.storage.metrics;

/**
 * Told, in the planning thread, what each planning of a table's files took (an engine's scan metrics).
 * Must be cheap and must not throw.
 */
@FunctionalInterface
public interface ScanListener {
    ScanListener NONE = stats -> { };

    void onScan(ScanStats stats);
}
