package dev.streamhouse.flink.cdc.mysql.snapshot;

import dev.streamhouse.flink.cdc.event.CdcColumn;
import dev.streamhouse.flink.cdc.event.CdcSchema;
import dev.streamhouse.flink.cdc.event.CdcTableId;
import dev.streamhouse.flink.cdc.event.MySqlType;
import dev.streamhouse.flink.cdc.mysql.CapturedTable;
import java.util.ArrayList;
import java.util.List;

/** Captured tables for unit tests, without a server. */
public final class TestTables {

    private TestTables() {}

    /** {@code db.name (id BIGINT, v VARCHAR(20) utf8mb4) PRIMARY KEY (id)}. */
    public static CapturedTable keyValue(String name) {
        return builder(name).column("id", new MySqlType("BIGINT", false, 20, -1)).key("id")
                .column("v", new MySqlType("VARCHAR", false, 20, -1), "utf8mb4", "utf8mb4_general_ci").build();
    }

    public static Builder builder(String name) {
        return new Builder(new CdcTableId("db", name));
    }

    /** Columns with types and encodings, and the key columns in key order. */
    public static final class Builder {
        private final CdcTableId id;
        private final List<CdcColumn> columns = new ArrayList<>();
        private final List<CapturedTable.ColumnEncoding> encodings = new ArrayList<>();
        private final List<String> keys = new ArrayList<>();

        private Builder(CdcTableId id) {
            this.id = id;
        }

        public Builder column(String name, MySqlType type) {
            return column(name, type, null, null);
        }

        public Builder column(String name, MySqlType type, String charset, String collation) {
            columns.add(new CdcColumn(name, type, true, null));
            encodings.add(new CapturedTable.ColumnEncoding(charset, collation, List.of()));
            return this;
        }

        public Builder enumColumn(String name, List<String> members) {
            columns.add(new CdcColumn(name, new MySqlType("ENUM", false, -1, -1), true, null));
            encodings.add(new CapturedTable.ColumnEncoding("utf8mb4", "utf8mb4_general_ci", members));
            return this;
        }

        public Builder key(String... names) {
            keys.addAll(List.of(names));
            return this;
        }

        public CapturedTable build() {
            return new CapturedTable(new CdcSchema(id, columns, keys, 1), encodings);
        }
    }
}
