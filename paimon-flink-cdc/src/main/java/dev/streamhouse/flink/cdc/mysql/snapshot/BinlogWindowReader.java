package dev.streamhouse.flink.cdc.mysql.snapshot;

import com.github.shyiko.mysql.binlog.BinaryLogClient;
import com.github.shyiko.mysql.binlog.event.DeleteRowsEventData;
import com.github.shyiko.mysql.binlog.event.Event;
import com.github.shyiko.mysql.binlog.event.EventData;
import com.github.shyiko.mysql.binlog.event.EventHeaderV4;
import com.github.shyiko.mysql.binlog.event.EventType;
import com.github.shyiko.mysql.binlog.event.RotateEventData;
import com.github.shyiko.mysql.binlog.event.TableMapEventData;
import com.github.shyiko.mysql.binlog.event.UpdateRowsEventData;
import com.github.shyiko.mysql.binlog.event.WriteRowsEventData;
import com.github.shyiko.mysql.binlog.event.deserialization.EventDataDeserializer;
import com.github.shyiko.mysql.binlog.event.deserialization.EventDeserializer;
import com.github.shyiko.mysql.binlog.event.deserialization.EventHeaderV4Deserializer;
import com.github.shyiko.mysql.binlog.event.deserialization.NullEventDataDeserializer;
import com.github.shyiko.mysql.binlog.event.deserialization.QueryEventDataDeserializer;
import com.github.shyiko.mysql.binlog.event.deserialization.RotateEventDataDeserializer;
import com.github.shyiko.mysql.binlog.event.deserialization.TableMapEventDataDeserializer;
import dev.streamhouse.flink.cdc.event.CdcRecord;
import dev.streamhouse.flink.cdc.mysql.BinlogPosition;
import dev.streamhouse.flink.cdc.mysql.CapturedTable;
import dev.streamhouse.flink.cdc.source.MySqlSourceConfig;
import io.debezium.config.CommonConnectorConfig.EventProcessingFailureHandlingMode;
import io.debezium.connector.binlog.event.RowDeserializers;
import java.io.IOException;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads the row changes of one table between two binlog positions, [low, high), over a replication
 * connection of its own ({@link BinaryLogClient} in non-blocking mode: the server sends what it has
 * and the connection closes). Row images are decoded by Debezium's row deserializers and turned
 * into {@code MySqlType} values by {@link BinlogValues}. A table map whose column count differs from
 * the schema means the table's definition changed in the window: that fails, naming the table.
 */
final class BinlogWindowReader {

    private final MySqlSourceConfig config;
    private final int serverId;

    BinlogWindowReader(MySqlSourceConfig config, int serverId) {
        this.config = config;
        this.serverId = serverId;
    }

    List<RowChange> read(CapturedTable table, BinlogPosition low, BinlogPosition high) throws IOException {
        Map<Long, TableMapEventData> tableMaps = new HashMap<>();
        BinaryLogClient client = new BinaryLogClient(config.hostname(), config.port(), config.username(),
                config.password());
        client.setServerId(serverId);
        client.setBinlogFilename(low.file());
        client.setBinlogPosition(low.position());
        client.setBlocking(false);
        client.setKeepAlive(false);
        client.setConnectTimeout(config.connectTimeoutMillis());
        client.setEventDeserializer(deserializer(tableMaps));
        Window window = new Window(table, tableMaps, low.file(), high, client);
        client.registerEventListener(window);
        client.registerLifecycleListener(window);
        client.connect();
        if (window.failure != null) {
            throw new IOException("Cannot read the binlog of MySQL server " + config.address() + " from " + low
                    + " to " + high + " for table " + table.id() + ": " + window.failure.getMessage(), window.failure);
        }
        if (!window.reachedHigh && (window.end == null || window.end.isBefore(high))) {
            throw new IOException("The binlog of MySQL server " + config.address() + " ended at " + window.end
                    + " before " + high + " while reading the changes of " + table.id());
        }
        return window.changes;
    }

    private static EventDeserializer deserializer(Map<Long, TableMapEventData> tableMaps) {
        Map<EventType, EventDataDeserializer> deserializers = new IdentityHashMap<>();
        EventDeserializer deserializer = new EventDeserializer(new EventHeaderV4Deserializer(),
                new NullEventDataDeserializer(), deserializers, tableMaps);
        EventProcessingFailureHandlingMode fail = EventProcessingFailureHandlingMode.FAIL;
        deserializer.setEventDataDeserializer(EventType.ROTATE, new RotateEventDataDeserializer());
        deserializer.setEventDataDeserializer(EventType.QUERY, new QueryEventDataDeserializer());
        deserializer.setEventDataDeserializer(EventType.TABLE_MAP, new TableMapEventDataDeserializer());
        deserializer.setEventDataDeserializer(EventType.WRITE_ROWS, new RowDeserializers.WriteRowsDeserializer(tableMaps, fail));
        deserializer.setEventDataDeserializer(EventType.EXT_WRITE_ROWS,
                new RowDeserializers.WriteRowsDeserializer(tableMaps, fail).setMayContainExtraInformation(true));
        deserializer.setEventDataDeserializer(EventType.UPDATE_ROWS, new RowDeserializers.UpdateRowsDeserializer(tableMaps, fail));
        deserializer.setEventDataDeserializer(EventType.EXT_UPDATE_ROWS,
                new RowDeserializers.UpdateRowsDeserializer(tableMaps, fail).setMayContainExtraInformation(true));
        deserializer.setEventDataDeserializer(EventType.DELETE_ROWS, new RowDeserializers.DeleteRowsDeserializer(tableMaps, fail));
        deserializer.setEventDataDeserializer(EventType.EXT_DELETE_ROWS,
                new RowDeserializers.DeleteRowsDeserializer(tableMaps, fail).setMayContainExtraInformation(true));
        return deserializer;
    }

    /** Collects one table's changes before {@code high}, and disconnects when the stream reaches it. */
    private static final class Window implements BinaryLogClient.EventListener, BinaryLogClient.LifecycleListener {
        private final CapturedTable table;
        private final Map<Long, TableMapEventData> tableMaps;
        private final BinlogPosition high;
        private final BinaryLogClient client;
        private final BinlogValues values;
        private final List<RowChange> changes = new ArrayList<>();
        private String file;
        /** Where the last event read ends. */
        private BinlogPosition end;
        private boolean reachedHigh;
        private Exception failure;

        Window(CapturedTable table, Map<Long, TableMapEventData> tableMaps, String file, BinlogPosition high,
                BinaryLogClient client) {
            this.table = table;
            this.tableMaps = tableMaps;
            this.file = file;
            this.high = high;
            this.client = client;
            this.values = new BinlogValues(table);
        }

        @Override
        public void onEvent(Event event) {
            if (reachedHigh || failure != null) {
                return;
            }
            EventHeaderV4 header = event.getHeader();
            EventData data = event.getData();
            if (data instanceof RotateEventData rotate) {
                file = rotate.getBinlogFilename();
                return;
            }
            if (header.getPosition() <= 0) {
                return;
            }
            BinlogPosition position = new BinlogPosition(file, header.getPosition());
            end = new BinlogPosition(file, header.getNextPosition());
            if (!position.isBefore(high)) {
                reachedHigh = true;
                disconnect();
                return;
            }
            try {
                if (data instanceof WriteRowsEventData write && isOurs(write.getTableId())) {
                    for (Serializable[] row : write.getRows()) {
                        changes.add(new RowChange(CdcRecord.Op.INSERT, null, values.row(row)));
                    }
                } else if (data instanceof UpdateRowsEventData update && isOurs(update.getTableId())) {
                    for (Map.Entry<Serializable[], Serializable[]> row : update.getRows()) {
                        changes.add(new RowChange(CdcRecord.Op.UPDATE, values.row(row.getKey()), values.row(row.getValue())));
                    }
                } else if (data instanceof DeleteRowsEventData delete && isOurs(delete.getTableId())) {
                    for (Serializable[] row : delete.getRows()) {
                        changes.add(new RowChange(CdcRecord.Op.DELETE, values.row(row), null));
                    }
                }
            } catch (RuntimeException e) {
                failure = e;
                disconnect();
            }
        }

        private boolean isOurs(long tableId) {
            TableMapEventData map = tableMaps.get(tableId);
            if (map == null || !table.id().database().equals(map.getDatabase())
                    || !table.id().table().equals(map.getTable())) {
                return false;
            }
            int columns = table.schema().columns().size();
            if (map.getColumnTypes().length != columns) {
                throw new IllegalStateException("MySQL table " + table.id() + " changed its definition while its "
                        + "snapshot was read (the binlog has rows of " + map.getColumnTypes().length + " columns, the "
                        + "snapshot's schema " + columns + "): the chunked snapshot cannot follow DDL made during it. "
                        + "Restart the job without its state once the DDL is done");
            }
            return true;
        }

        private void disconnect() {
            try {
                client.disconnect();
            } catch (IOException e) {
                // Closing a connection that is done anyway.
            }
        }

        @Override
        public void onConnect(BinaryLogClient client) {}

        @Override
        public void onCommunicationFailure(BinaryLogClient client, Exception ex) {
            if (!reachedHigh && failure == null) {
                failure = ex;
            }
        }

        @Override
        public void onEventDeserializationFailure(BinaryLogClient client, Exception ex) {
            if (!reachedHigh && failure == null) {
                failure = ex;
            }
        }

        @Override
        public void onDisconnect(BinaryLogClient client) {}
    }
}
