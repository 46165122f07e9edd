package dev.streamhouse.flink.sink.multitable;

import dev.streamhouse.flink.sink.testutils.Jobs;
import dev.streamhouse.storage.catalog.Catalog;
import dev.streamhouse.storage.catalog.CatalogFactory;
import dev.streamhouse.storage.catalog.Identifier;
import dev.streamhouse.storage.data.GenericRow;
import dev.streamhouse.storage.data.RowKind;
import dev.streamhouse.storage.options.Options;
import dev.streamhouse.storage.schema.Schema;
import dev.streamhouse.storage.schema.SchemaChange;
import dev.streamhouse.storage.table.Table;
import dev.streamhouse.storage.testutils.TestTables;
import dev.streamhouse.storage.types.DataTypes;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.common.functions.RichMapFunction;
import org.apache.flink.api.common.state.CheckpointListener;
import org.apache.flink.api.connector.source.util.ratelimit.RateLimiterStrategy;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.connector.datagen.source.DataGeneratorSource;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The multi-table sink in a streaming job with injected failures: events go to four tables (fixed
 * buckets, dynamic buckets, a bucket-unaware append table, and one created while the job runs); one
 * table gains a column half way, while its writers still hold files not committed yet. Every table
 * ends exactly as its events say: each key's last value, the new column where the event had it,
 * deletes applied, every appended row once, nothing lost or applied twice.
 */
class MultiTableSinkITCase {
    @RegisterExtension
    static final MiniClusterExtension MINI_CLUSTER = Jobs.miniCluster();

    private static final long EVENTS = 6000;
    private static final int KEYS = 150;
    private static final AtomicInteger FAILURES_LEFT = new AtomicInteger();

    @TempDir
    java.nio.file.Path tmp;

    /**
     * Event i: table by i % 3 (the append table before EVENTS / 3, the late one from then on), key
     * (i / 3) % KEYS, value i, every 7th a delete (an insert in the append table).
     */
    private static String table(long i) {
        int t = (int) (i % 3);
        return t == 0 ? "db.fixed" : t == 1 ? "db.dynamic" : i < EVENTS / 3 ? "db.log" : "db.late";
    }

    private static int key(long i) {
        return (int) ((i / 3) % KEYS);
    }

    private static boolean delete(long i) {
        return i % 7 == 6;
    }

    /** Whether event i of table fixed carries the column added half way. */
    private static boolean evolved(long i) {
        return i >= EVENTS / 2;
    }

    /**
     * Turns events into table rows (parallelism 1, the order of the events): creates table late and adds
     * column c to table fixed before their first row needs it, as a CDC sync would; fails after a
     * completed checkpoint while failures are left.
     */
    static final class Encode extends RichMapFunction<Long, TableRow> implements CheckpointListener {
        private final Map<String, String> catalogOptions;
        private transient Catalog catalog;
        private transient Map<String, TableRowEncoder> encoders;
        private transient boolean checkpointed;

        Encode(Map<String, String> catalogOptions) {
            this.catalogOptions = catalogOptions;
        }

        @Override
        public void open(org.apache.flink.api.common.functions.OpenContext context) {
            catalog = CatalogFactory.createCatalog(new Options(catalogOptions));
            encoders = new TreeMap<>();
        }

        @Override
        public TableRow map(Long i) throws Exception {
            if (FAILURES_LEFT.get() > 0) {
                Thread.sleep(1);
                if (checkpointed && i % 50 == 0 && FAILURES_LEFT.getAndDecrement() > 0) {
                    throw new IllegalStateException("Injected failure after a completed checkpoint");
                }
            }
            String name = table(i);
            Identifier id = Identifier.fromString(name);
            if (name.equals("db.late") && !catalog.tableExists(id)) {
                catalog.createTable(id, schema("bucket", "1"), true);
            }
            Table table = catalog.getTable(id);
            long schema = 0;
            if (name.equals("db.fixed") && evolved(i)) {
                if (table.schema().id() == 0) {
                    catalog.alterTable(id, List.of(SchemaChange.addColumn("c", DataTypes.BIGINT())), false);
                    table = catalog.getTable(id);
                }
                schema = 1;
            }
            String encoderKey = name + "@" + schema;
            TableRowEncoder encoder = encoders.get(encoderKey);
            if (encoder == null) {
                encoder = new TableRowEncoder(table.atSchema(schema));
                encoders.put(encoderKey, encoder);
            }
            GenericRow row = schema == 1 ? GenericRow.of(key(i), i, i * 10) : GenericRow.of(key(i), i);
            if (delete(i) && !name.equals("db.log")) {
                row.setRowKind(RowKind.DELETE);
            }
            return encoder.encode(row);
        }

        @Override
        public void notifyCheckpointComplete(long checkpointId) {
            checkpointed = true;
        }

        @Override
        public void close() {
            if (catalog != null) {
                catalog.close();
            }
        }
    }

    private static Schema schema(String... options) {
        return schema(true, options);
    }

    private static Schema schema(boolean primaryKey, String... options) {
        Schema.Builder b = Schema.newBuilder().column("id", DataTypes.INT().notNull()).column("v", DataTypes.BIGINT());
        if (primaryKey) {
            b.primaryKey("id");
        }
        for (int i = 0; i < options.length; i += 2) {
            b.option(options[i], options[i + 1]);
        }
        return b.build();
    }

    @Test
    @Timeout(240)
    void everyTableEndsAsItsEventsSayAcrossFailuresSchemaChangesAndNewTables() throws Exception {
        Map<String, String> catalogOptions = Map.of("warehouse", tmp.toUri().toString());
        try (Catalog catalog = CatalogFactory.createCatalog(new Options(catalogOptions))) {
            catalog.createDatabase("db", true);
            catalog.createTable(Identifier.of("db", "fixed"), schema("bucket", "2"), false);
            catalog.createTable(Identifier.of("db", "dynamic"), schema("bucket", "-1",
                    "dynamic-bucket.target-row-num", "40"), false);
            catalog.createTable(Identifier.of("db", "log"), schema(false, "bucket", "-1"), false);
        }
        FAILURES_LEFT.set(3);
        Configuration conf = Jobs.streamingConfig(2, 150L);
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(conf);
        DataGeneratorSource<Long> source = new DataGeneratorSource<>(i -> i, EVENTS,
                RateLimiterStrategy.perSecond(4000), Types.LONG);
        MultiTableSinkBuilder.forCatalog(catalogOptions).name("db").parallelism(2).build(
                env.fromSource(source, WatermarkStrategy.noWatermarks(), "events").setParallelism(1)
                        .map(new Encode(catalogOptions)).returns(TableRowTypeInfo.INSTANCE).setParallelism(1));
        env.execute("multi-table sink");

        assertThat(FAILURES_LEFT.get()).as("every injected failure fired").isLessThanOrEqualTo(0);
        try (Catalog catalog = CatalogFactory.createCatalog(new Options(catalogOptions))) {
            for (String name : List.of("db.fixed", "db.dynamic", "db.log", "db.late")) {
                Table table = catalog.getTable(Identifier.fromString(name));
                assertThat(sorted(TestTables.readAll(table))).as(name).isEqualTo(expected(name));
            }
        }
    }

    /** Row i of job {@code phase} into table db.dynamic: job 0 inserts 0..199; job 1 deletes 0..49, updates 50..199, inserts 200..299. */
    static final class EncodeDynamic extends RichMapFunction<Long, TableRow> {
        private final Map<String, String> catalogOptions;
        private final int phase;
        private transient TableRowEncoder encoder;

        EncodeDynamic(Map<String, String> catalogOptions, int phase) {
            this.catalogOptions = catalogOptions;
            this.phase = phase;
        }

        @Override
        public void open(org.apache.flink.api.common.functions.OpenContext context) throws Exception {
            try (Catalog catalog = CatalogFactory.createCatalog(new Options(catalogOptions))) {
                encoder = new TableRowEncoder(catalog.getTable(Identifier.of("db", "dynamic")));
            }
        }

        @Override
        public TableRow map(Long i) {
            return encoder.encode(dynamicRow(phase, i.intValue()));
        }
    }

    static GenericRow dynamicRow(int phase, int i) {
        if (phase == 0) {
            return GenericRow.of(i, (long) i);
        }
        GenericRow row = GenericRow.of(i, 1000L + i);
        if (i < 50) {
            row.setRowKind(RowKind.DELETE);
        }
        return row;
    }

    /** A dynamic-bucket table written by a multi-table job at parallelism 1, then by one at 3. */
    @Test
    @Timeout(240)
    void aDynamicBucketTableContinuesAtAnotherParallelism() throws Exception {
        Map<String, String> catalogOptions = Map.of("warehouse", tmp.toUri().toString());
        try (Catalog catalog = CatalogFactory.createCatalog(new Options(catalogOptions))) {
            catalog.createDatabase("db", true);
            catalog.createTable(Identifier.of("db", "dynamic"), schema("bucket", "-1",
                    "dynamic-bucket.target-row-num", "20"), false);
        }
        int[] parallelism = {1, 3};
        int[] events = {200, 300};
        Map<Integer, String> expected = new TreeMap<>();
        for (int phase = 0; phase < 2; phase++) {
            StreamExecutionEnvironment env = Jobs.batch(parallelism[phase]);
            DataGeneratorSource<Long> source = new DataGeneratorSource<>(i -> i, events[phase], Types.LONG);
            MultiTableSinkBuilder.forCatalog(catalogOptions).name("db").parallelism(parallelism[phase]).build(
                    env.fromSource(source, WatermarkStrategy.noWatermarks(), "events").setParallelism(1)
                            .map(new EncodeDynamic(catalogOptions, phase)).returns(TableRowTypeInfo.INSTANCE)
                            .setParallelism(1));
            env.execute("multi-table sink, parallelism " + parallelism[phase]);
            for (int i = 0; i < events[phase]; i++) {
                GenericRow r = dynamicRow(phase, i);
                if (r.rowKind() == RowKind.DELETE) {
                    expected.remove(i);
                } else {
                    expected.put(i, "(" + i + ", " + r.longAt(1) + ")");
                }
            }
            try (Catalog catalog = CatalogFactory.createCatalog(new Options(catalogOptions))) {
                Table table = catalog.getTable(Identifier.of("db", "dynamic"));
                List<String> values = new ArrayList<>();
                for (String row : TestTables.readAll(table)) {
                    values.add(row.substring(row.indexOf('(')));
                }
                assertThat(sorted(values)).as("after the job at parallelism %s", parallelism[phase])
                        .isEqualTo(sorted(new ArrayList<>(expected.values())));
            }
        }
    }

    private static List<String> expected(String name) {
        Map<Long, String> rows = new TreeMap<>();
        for (long i = 0; i < EVENTS; i++) {
            if (!table(i).equals(name)) {
                continue;
            }
            if (name.equals("db.log")) {
                rows.put(i, "+I(" + key(i) + ", " + i + ")");
            } else if (delete(i)) {
                rows.remove((long) key(i));
            } else if (name.equals("db.fixed")) {
                rows.put((long) key(i), "+I(" + key(i) + ", " + i + ", " + (evolved(i) ? String.valueOf(i * 10) : "null") + ")");
            } else {
                rows.put((long) key(i), "+I(" + key(i) + ", " + i + ")");
            }
        }
        return sorted(new ArrayList<>(rows.values()));
    }

    private static List<String> sorted(List<String> rows) {
        List<String> out = new ArrayList<>(rows);
        out.sort(null);
        return out;
    }
}
