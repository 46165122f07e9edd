package dev.streamhouse.flink.cdc.table;

import static dev.streamhouse.flink.cdc.table.MySqlCdcOptions.*;

import dev.streamhouse.flink.cdc.mysql.CapturedTable;
import dev.streamhouse.flink.cdc.mysql.MySqlConnections;
import dev.streamhouse.flink.cdc.mysql.ServerChecks;
import dev.streamhouse.flink.cdc.mysql.TableDiscovery;
import dev.streamhouse.flink.cdc.mysql.snapshot.KeyOrder;
import dev.streamhouse.flink.cdc.source.MySqlCdcSourceBuilder;
import dev.streamhouse.flink.cdc.source.MySqlSourceConfig;
import dev.streamhouse.flink.cdc.source.StartupMode;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;
import java.util.Set;
import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.ReadableConfig;
import org.apache.flink.table.catalog.ResolvedSchema;
import org.apache.flink.table.catalog.UniqueConstraint;
import org.apache.flink.table.connector.source.DynamicTableSource;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.factories.DynamicTableSourceFactory;
import org.apache.flink.table.factories.FactoryUtil;
import org.apache.flink.table.types.logical.RowType;

/**
 * {@code 'connector' = 'mysql-cdc'}: reads MySQL or MariaDB tables as a changelog, with Flink CDC's
 * option names. Creating the table source connects to the server once: it checks the connection,
 * the binlog settings and privileges, and the declared schema against the matched tables (primary
 * key, columns, types), so mistakes surface when the query is planned, naming the option or column.
 */
public final class MySqlCdcTableFactory implements DynamicTableSourceFactory {

    public static final String IDENTIFIER = "mysql-cdc";

    @Override
    public String factoryIdentifier() {
        return IDENTIFIER;
    }

    @Override
    public Set<ConfigOption<?>> requiredOptions() {
        return Set.of(HOSTNAME, USERNAME, PASSWORD, DATABASE_NAME, TABLE_NAME);
    }

    @Override
    public Set<ConfigOption<?>> optionalOptions() {
        return Set.of(PORT, SERVER_ID, SERVER_TIME_ZONE, SCAN_STARTUP_MODE, SCAN_STARTUP_SPECIFIC_OFFSET_FILE,
                SCAN_STARTUP_SPECIFIC_OFFSET_POS, SCAN_STARTUP_SPECIFIC_OFFSET_GTID_SET, SCAN_STARTUP_TIMESTAMP_MILLIS,
                CONNECT_TIMEOUT, SCAN_INCREMENTAL_SNAPSHOT_ENABLED, SCAN_INCREMENTAL_SNAPSHOT_CHUNK_SIZE);
    }

    @Override
    public DynamicTableSource createDynamicTableSource(Context context) {
        FactoryUtil.TableFactoryHelper helper = FactoryUtil.createTableFactoryHelper(this, context);
        helper.validateExcept(DEBEZIUM_PREFIX, JDBC_PREFIX);
        ReadableConfig options = helper.getOptions();
        String tableName = context.getObjectIdentifier().asSummaryString();
        ResolvedSchema schema = context.getCatalogTable().getResolvedSchema();
        List<String> key = schema.getPrimaryKey().map(UniqueConstraint::getColumns).orElse(List.of());
        if (key.isEmpty()) {
            throw new IllegalArgumentException("Table '" + tableName + "' ('connector' = 'mysql-cdc') needs a "
                    + "PRIMARY KEY (...) NOT ENFORCED: the MySQL table's key, by which updates and deletes apply");
        }
        RowType rowType = (RowType) schema.toPhysicalRowDataType().getLogicalType();

        MySqlCdcSourceBuilder<RowData> builder =
                MySqlSourceConfigs.builder(options, context.getCatalogTable().getOptions());
        checkAgainstServer(tableName, rowType, key,
                builder.deserializer(new RowDataDeserializer(rowType)).build().config());
        return new MySqlCdcTableSource(builder, rowType);
    }

    private static void checkAgainstServer(String tableName, RowType rowType, List<String> key,
            MySqlSourceConfig config) {
        List<CapturedTable> tables;
        try (Connection connection = MySqlConnections.open(config)) {
            ServerChecks.check(connection, config);
            tables = TableDiscovery.capturedTableDetails(connection, config);
        } catch (SQLException e) {
            throw new IllegalStateException("Cannot read the schema of '" + tableName + "' from MySQL server "
                    + config.address() + ": " + e.getMessage(), e);
        }
        if (tables.isEmpty()) {
            throw new IllegalArgumentException("Table '" + tableName + "': no table on MySQL server " + config.address()
                    + " matches 'database-name' = '" + config.databaseRegex() + "' and 'table-name' = '"
                    + config.tableRegex() + "' (or user '" + config.username() + "' may not SELECT from it)");
        }
        for (CapturedTable table : tables) {
            DeclaredSchemaCheck.check(tableName, rowType, key, table.schema());
            if (config.startup().mode() == StartupMode.INITIAL && config.chunkedSnapshot()) {
                KeyOrder.of(table);
            }
        }
    }

}
