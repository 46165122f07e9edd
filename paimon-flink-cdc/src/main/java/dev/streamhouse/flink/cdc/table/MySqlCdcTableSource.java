package dev.streamhouse.flink.cdc.table;

import dev.streamhouse.flink.cdc.source.MySqlCdcSource;
import dev.streamhouse.flink.cdc.source.MySqlCdcSourceBuilder;
import org.apache.flink.table.connector.ChangelogMode;
import org.apache.flink.table.connector.source.DynamicTableSource;
import org.apache.flink.table.connector.source.ScanTableSource;
import org.apache.flink.table.connector.source.SourceProvider;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.types.logical.RowType;

/**
 * A {@code mysql-cdc} table: a full changelog (+I, -U, +U, -D) of the MySQL tables its options
 * match, snapshot first (startup mode {@code initial}) and then the binlog.
 */
final class MySqlCdcTableSource implements ScanTableSource {

    private final MySqlCdcSourceBuilder<RowData> builder;
    private final RowType rowType;

    MySqlCdcTableSource(MySqlCdcSourceBuilder<RowData> builder, RowType rowType) {
        this.builder = builder;
        this.rowType = rowType;
    }

    @Override
    public ChangelogMode getChangelogMode() {
        return ChangelogMode.all();
    }

    @Override
    public ScanRuntimeProvider getScanRuntimeProvider(ScanContext context) {
        MySqlCdcSource<RowData> source = builder.deserializer(new RowDataDeserializer(rowType)).build();
        return SourceProvider.of(source);
    }

    @Override
    public DynamicTableSource copy() {
        return new MySqlCdcTableSource(builder, rowType);
    }

    @Override
    public String asSummaryString() {
        return "mysql-cdc";
    }
}
