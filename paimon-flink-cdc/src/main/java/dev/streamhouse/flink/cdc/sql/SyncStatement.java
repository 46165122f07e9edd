package dev.streamhouse.flink.cdc.sql;

import java.util.List;
import java.util.Map;

/**
 * A statement that starts a MySQL sync, in Alibaba VVR's syntax, as {@link SyncStatementParser}
 * reads it: names as written (one to three parts, unresolved), options as given.
 */
public sealed interface SyncStatement {

    /** Whether the target may exist already (the sync then continues it). */
    boolean ifNotExists();

    /** The source's options from {@code /*+ OPTIONS(...) *&#47;} ({@code mysql-cdc} options). */
    Map<String, String> sourceOptions();

    /** The statement's first words, for messages: {@code CREATE TABLE ... AS TABLE}. */
    String kind();

    /**
     * {@code CREATE TABLE [IF NOT EXISTS] target [(PRIMARY KEY (k, ...) NOT ENFORCED)]
     * [PARTITIONED BY (p, ...)] [WITH (...)] AS TABLE source [/*+ OPTIONS(...) *&#47;]}: a table sync of
     * the source table (its database and table names may be regular expressions, merging shards) into
     * one table.
     *
     * @param primaryKeys the declared key, empty for the source's
     * @param options the target table's options ({@code WITH})
     */
    record CreateTableAsTable(boolean ifNotExists, List<String> target, List<String> primaryKeys,
            List<String> partitionKeys, Map<String, String> options, List<String> source,
            Map<String, String> sourceOptions) implements SyncStatement {
        @Override
        public String kind() {
            return "CREATE TABLE ... AS TABLE";
        }
    }

    /**
     * {@code CREATE DATABASE [IF NOT EXISTS] target [WITH (...)] AS DATABASE source INCLUDING
     * {ALL TABLES | TABLE 'regex'} [EXCLUDING TABLE 'regex'] [/*+ OPTIONS(...) *&#47;]}: a database
     * sync, one target table per source table.
     *
     * @param options the options of every created table ({@code WITH})
     * @param including the regular expression of the tables to sync; null for all tables
     * @param excluding the regular expression of the tables not to sync; null for none
     */
    record CreateDatabaseAsDatabase(boolean ifNotExists, List<String> target, Map<String, String> options,
            List<String> source, String including, String excluding, Map<String, String> sourceOptions)
            implements SyncStatement {
        @Override
        public String kind() {
            return "CREATE DATABASE ... AS DATABASE";
        }
    }
}
