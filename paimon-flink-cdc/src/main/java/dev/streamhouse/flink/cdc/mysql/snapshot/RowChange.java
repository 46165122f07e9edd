package dev.streamhouse.flink.cdc.mysql.snapshot;

import dev.streamhouse.flink.cdc.event.CdcRecord;

/**
 * One row change of a table read from the binlog: an insert has only {@code after}, a delete only
 * {@code before}, an update both (it may change the key). Values as {@code MySqlType} documents.
 */
record RowChange(CdcRecord.Op op, Object[] before, Object[] after) {}
