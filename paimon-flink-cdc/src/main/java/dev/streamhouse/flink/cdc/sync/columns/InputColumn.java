package dev.streamhouse.flink.cdc.sync.columns;

import dev.streamhouse.storage.types.DataType;

/**
 * The column a computed column reads: its name, its type in the target table (a source column's
 * mapped type, or another computed column's result type) and how many fractional digits its
 * date-time values show as text ({@link SourceText}).
 */
record InputColumn(String name, DataType type, int timestampDigits) {}
