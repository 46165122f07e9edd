package dev.streamhouse.flink.cdc.source.reader;

import dev.streamhouse.flink.cdc.event.CdcSchema;
import dev.streamhouse.flink.cdc.mysql.CapturedTable;
import dev.streamhouse.flink.cdc.mysql.MySqlConnections;
import dev.streamhouse.flink.cdc.mysql.TableDiscovery;
import dev.streamhouse.flink.cdc.source.MySqlSourceConfig;
import dev.streamhouse.flink.cdc.source.split.SnapshotWindow;
import java.io.IOException;
import java.sql.Connection;
import java.sql.SQLException;

/**
 * DDL during a chunked snapshot is refused. The binlog after the snapshot is read from the lowest
 * high watermark, but Debezium's connector learns the tables' schemas when it starts, later: had a
 * captured table changed in between, it would decode the older changes with the newer schema. So
 * once the connector has started (it delivered a record), the tables' schemas are read again and
 * must equal the snapshot's; DDL after this check is read from the binlog as usual.
 */
final class SnapshotSchemaCheck {

    private SnapshotSchemaCheck() {}

    static void check(MySqlSourceConfig config, SnapshotWindow window) throws IOException {
        try (Connection connection = MySqlConnections.open(config)) {
            for (CapturedTable table : window.tables()) {
                CdcSchema now = TableDiscovery.tableOf(connection, table.id()).schema();
                if (!now.sameStructure(table.schema())) {
                    throw new IOException("Cannot read the binlog of MySQL server " + config.address() + " after the "
                            + "chunked snapshot: table " + table.id() + " changed its definition while the snapshot "
                            + "ran (it was " + table.schema().columns() + " PRIMARY KEY " + table.schema().primaryKeys()
                            + ", it is " + now.columns() + " PRIMARY KEY " + now.primaryKeys() + "). A chunked "
                            + "snapshot cannot follow DDL made during it: restart the job without its state once the "
                            + "DDL is done, or read with Debezium's snapshot ('scan.incremental.snapshot.enabled' = "
                            + "'false')");
                }
            }
        } catch (SQLException e) {
            throw new IOException("Cannot check the schemas of the captured tables on " + config.address() + ": "
                    + e.getMessage(), e);
        }
    }
}
