package dev.streamhouse.flink.cdc.source.split;

import org.apache.flink.api.connector.source.SourceSplit;

/**
 * A split of the MySQL CDC source: a chunk of a table's snapshot ({@link MySqlChunkSplit}), read by
 * any reader over JDBC, or the server's binlog ({@link MySqlBinlogSplit}), read by one reader.
 */
public sealed interface MySqlSplit extends SourceSplit permits MySqlChunkSplit, MySqlBinlogSplit {}
