package dev.streamhouse.flink.cdc.event;

import java.util.Objects;

/**
 * A table definition changed (or was first seen): the table's new schema and the DDL statement that
 * changed it ({@code null} when the source learnt the schema without a statement, e.g. from a row).
 */
public final class CdcSchemaChange implements CdcEvent {
    private static final long serialVersionUID = 1L;

    private final CdcSchema schema;
    private final String ddl;

    public CdcSchemaChange(CdcSchema schema, String ddl) {
        this.schema = Objects.requireNonNull(schema, "schema");
        this.ddl = ddl;
    }

    @Override
    public CdcTableId table() {
        return schema.table();
    }

    @Override
    public CdcSchema schema() {
        return schema;
    }

    public String ddl() {
        return ddl;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof CdcSchemaChange other && schema.equals(other.schema) && Objects.equals(ddl, other.ddl);
    }

    @Override
    public int hashCode() {
        return Objects.hash(schema, ddl);
    }

    @Override
    public String toString() {
        return "SchemaChange{" + schema + (ddl == null ? "" : ", ddl=" + ddl) + "}";
    }
}
