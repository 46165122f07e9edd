/**
 * The chunked initial read of MySQL tables (the mysql-cdc source's snapshot phase): splitting a
 * table into primary-key ranges, reading each range over JDBC without locks and catching it up with
 * the binlog between its low and high watermark. Not to be confused with a snapshot of a Paimon
 * table, which is the store's commit.
 */
package dev.streamhouse.flink.cdc.mysql.snapshot;
