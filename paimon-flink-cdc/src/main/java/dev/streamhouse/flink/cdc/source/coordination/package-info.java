/**
 * The source events by which the MySQL CDC source's enumerator and readers coordinate the chunked
 * snapshot and the binlog split (Flink {@code SourceEvent}s). They travel over RPC between the
 * coordinator and the tasks and are never part of a checkpoint. The CDC events the source emits
 * are in {@code dev.streamhouse.flink.cdc.event}.
 */
package dev.streamhouse.flink.cdc.source.coordination;
