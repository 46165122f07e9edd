package dev.streamhouse.flink.cdc.event;

import java.io.Serializable;

/**
 * What a CDC source emits, in binlog order: changed rows ({@link CdcRecord}) and changed table
 * definitions ({@link CdcSchemaChange}). Both name their table, so one stream can carry many
 * tables (a database sync); a table's schema change comes before the first row that needs it.
 * The types hold plain Java values and know neither Debezium nor Flink.
 */
public sealed interface CdcEvent extends Serializable permits CdcRecord, CdcSchemaChange {

    CdcTableId table();

    /** The schema of the table after this event. */
    CdcSchema schema();
}
