package dev.streamhouse.storage.format.parquet;

/** Where a Parquet converter delivers the internal value it assembled (a row slot, a list, a map). */
@FunctionalInterface
interface ValueSink {
    void set(Object value);
}
