package dev.streamhouse.storage.table;

import dev.streamhouse.storage.data.BinaryRow;
import dev.streamhouse.storage.data.BinaryString;
import dev.streamhouse.storage.data.Decimal;
import dev.streamhouse.storage.data.GenericRow;
import dev.streamhouse.storage.data.InternalRow;
import dev.streamhouse.storage.data.RowKind;
import dev.streamhouse.storage.data.Timestamp;
import dev.streamhouse.storage.fs.LocalFileIO;
import dev.streamhouse.storage.fs.Path;
import dev.streamhouse.storage.manifest.DataFileMeta;
import dev.streamhouse.storage.predicate.PredicateBuilder;
import dev.streamhouse.storage.schema.Schema;
import dev.streamhouse.storage.schema.SchemaChange;
import dev.streamhouse.storage.schema.SchemaChange.Move;
import dev.streamhouse.storage.schema.SchemaManager;
import dev.streamhouse.storage.table.sink.TableWrite;
import dev.streamhouse.storage.table.source.DataSplit;
import dev.streamhouse.storage.table.source.ReadBuilder;
import dev.streamhouse.storage.testutils.TestTables;
import dev.streamhouse.storage.types.DataTypes;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.math.BigDecimal;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tables whose schema evolves between writes: files of every schema version are read in the latest
 * schema (by field id, widened types converted), filters still prune old files, and compaction
 * rewrites old files into the new schema.
 */
class SchemaEvolutionReadTest {
    @TempDir
    java.nio.file.Path tmp;

    private Path root;

    private FileStoreTable create(Schema schema) throws Exception {
        root = new Path(tmp.resolve("t").toString());
        return TestTables.create(LocalFileIO.INSTANCE, root, schema);
    }

    private void alter(SchemaChange... changes) throws Exception {
        new SchemaManager(LocalFileIO.INSTANCE, root, "default.test").commitChanges(List.of(changes));
    }

    private FileStoreTable reload() {
        return FileStoreTable.load(LocalFileIO.INSTANCE, root, "default.test");
    }

    private static void write(FileStoreTable table, long identifier, InternalRow... rows) throws Exception {
        try (TableWrite w = table.newWrite()) {
            for (InternalRow r : rows) {
                w.write(r);
            }
            table.newStreamCommit("test").commit(identifier, w.prepareCommit());
        }
    }

    private static BinaryString str(String s) {
        return BinaryString.fromString(s);
    }

    private static Decimal dec(String v, int precision, int scale) {
        return Decimal.fromBigDecimal(new BigDecimal(v), precision, scale);
    }

    private static Timestamp ts(long millis, int nanos) {
        return Timestamp.fromEpochMillis(millis, nanos);
    }

    @Test
    void appendTableReadsEveryVersionInTheLatestSchema() throws Exception {
        FileStoreTable v0 = create(Schema.newBuilder()
                .column("id", DataTypes.INT())
                .column("v", DataTypes.INT())
                .column("f", DataTypes.FLOAT())
                .column("d", DataTypes.DECIMAL(10, 2))
                .column("s", DataTypes.VARCHAR(5))
                .column("ts", DataTypes.TIMESTAMP(3))
                .column("gone", DataTypes.STRING())
                .column("r", DataTypes.ROW(DataTypes.FIELD(0, "x", DataTypes.INT())))
                .column("dt", DataTypes.STRING())
                .partitionKeys("dt")
                .build());
        write(v0, 1, GenericRow.of(1, -5, 1.5f, dec("12.34", 10, 2), str("abc"), ts(1000, 0), str("bye"),
                GenericRow.of(7), str("d1")));
        write(v0, 2, GenericRow.of(2, 100, null, dec("-0.01", 10, 2), null, ts(2000, 0), str("bye"),
                null, str("d1")));

        alter(SchemaChange.updateColumnType("v", DataTypes.BIGINT()),
                SchemaChange.updateColumnType("f", DataTypes.DOUBLE()),
                SchemaChange.updateColumnType("d", DataTypes.DECIMAL(20, 2)),
                SchemaChange.updateColumnType("s", DataTypes.STRING()),
                SchemaChange.updateColumnType("ts", DataTypes.TIMESTAMP(9)),
                SchemaChange.updateColumnType("r", DataTypes.ROW(DataTypes.FIELD(0, "x", DataTypes.INT()),
                        DataTypes.FIELD(0, "y", DataTypes.STRING()))),
                SchemaChange.renameColumn("s", "label"),
                SchemaChange.dropColumn("gone"));
        alter(SchemaChange.addColumn("gone", DataTypes.STRING()),
                SchemaChange.addColumn("extra", DataTypes.INT(), null, Move.first()),
                SchemaChange.updateColumnPosition("v", Move.last()));

        FileStoreTable v2 = reload();
        assertThat(v2.schema().id()).isEqualTo(2);
        assertThat(v2.schema().fieldNames())
                .containsExactly("extra", "id", "f", "d", "label", "ts", "r", "dt", "gone", "v");
        write(v2, 3, GenericRow.of(9, 3, 2.25d, dec("123456789012345.67", 20, 2), str("a much longer label"),
                ts(3000, 123_456), GenericRow.of(8, str("why")), str("d2"), str("new"), 10_000_000_000L));

        assertThat(TestTables.readAll(v2)).containsExactly(
                "+I(9, 3, 2.25, 123456789012345.67, a much longer label, 1970-01-01T00:00:03.000123456, +I(8, why), d2, new, 10000000000)",
                "+I(null, 1, 1.5, 12.34, abc, 1970-01-01T00:00:01, +I(7, null), d1, null, -5)",
                "+I(null, 2, null, -0.01, null, 1970-01-01T00:00:02, null, d1, null, 100)");

        // A projection of converted columns only, in another order.
        ReadBuilder projected = v2.newReadBuilder().withProjection(List.of("v", "d", "id"));
        assertThat(TestTables.read(projected)).containsExactly(
                "+I(-5, 12.34, 1)", "+I(100, -0.01, 2)", "+I(10000000000, 123456789012345.67, 3)");
    }

    @Test
    void statisticsOfOldFilesStillPruneAfterATypeChange() throws Exception {
        FileStoreTable v0 = create(Schema.newBuilder()
                .column("id", DataTypes.INT())
                .column("v", DataTypes.INT())
                .column("d", DataTypes.DECIMAL(6, 1))
                .build());
        write(v0, 1, GenericRow.of(1, 1, dec("1.0", 6, 1)), GenericRow.of(2, 10, dec("2.0", 6, 1)));
        write(v0, 2, GenericRow.of(3, 100, dec("300.0", 6, 1)), GenericRow.of(4, 110, dec("400.5", 6, 1)));
        alter(SchemaChange.updateColumnType("v", DataTypes.BIGINT()),
                SchemaChange.updateColumnType("d", DataTypes.DECIMAL(18, 1)));
        FileStoreTable v1 = reload();
        write(v1, 3, GenericRow.of(5, 5_000_000_000L, dec("99999999999999999.9", 18, 1)));

        PredicateBuilder pb = new PredicateBuilder(v1.rowType());
        ReadBuilder large = v1.newReadBuilder().withFilter(pb.greaterOrEqual(1, 100L));
        assertThat(files(large)).hasSize(2);
        assertThat(TestTables.read(large)).containsExactly(
                "+I(3, 100, 300.0)", "+I(4, 110, 400.5)", "+I(5, 5000000000, 99999999999999999.9)");
        ReadBuilder small = v1.newReadBuilder().withFilter(pb.lessThan(2, new BigDecimal("5")));
        assertThat(files(small)).hasSize(1);
        assertThat(TestTables.read(small)).containsExactly("+I(1, 1, 1.0)", "+I(2, 10, 2.0)");
        ReadBuilder none = v1.newReadBuilder().withFilter(pb.greaterThan(1, 6_000_000_000L));
        assertThat(files(none)).isEmpty();
    }

    private static List<DataFileMeta> files(ReadBuilder rb) {
        return rb.newScan().plan().splits().stream().flatMap(s -> s.files().stream()).toList();
    }

    @Test
    void primaryKeyTableMergesOldAndNewVersionsAndCompactsIntoTheLatestSchema() throws Exception {
        FileStoreTable v0 = create(Schema.newBuilder()
                .column("id", DataTypes.INT())
                .column("v", DataTypes.INT())
                .column("d", DataTypes.DECIMAL(5, 1))
                .column("s", DataTypes.STRING())
                .column("ts", DataTypes.TIMESTAMP(3))
                .primaryKey("id")
                .option("bucket", "1")
                .build());
        write(v0, 1, GenericRow.of(1, 10, dec("1.5", 5, 1), str("one"), ts(1000, 0)),
                GenericRow.of(2, 20, dec("2.5", 5, 1), str("two"), ts(2000, 0)),
                GenericRow.of(3, 30, dec("3.5", 5, 1), str("three"), ts(3000, 0)));

        alter(SchemaChange.updateColumnType("v", DataTypes.BIGINT()),
                SchemaChange.updateColumnType("d", DataTypes.DECIMAL(25, 1)),
                SchemaChange.updateColumnType("ts", DataTypes.TIMESTAMP(6)),
                SchemaChange.renameColumn("s", "name"),
                SchemaChange.addColumn("c", DataTypes.DOUBLE(), null, Move.after("id")));
        FileStoreTable v1 = reload();
        write(v1, 2, GenericRow.of(2, 0.5d, 20_000_000_000L, dec("123456789012345678901234.5", 25, 1), str("TWO"),
                ts(2001, 0)),
                GenericRow.of(4, null, 40L, null, str("four"), null),
                GenericRow.ofKind(RowKind.DELETE, 3, null, 0L, null, str("x"), null));

        List<String> expected = List.of(
                "+I(1, null, 10, 1.5, one, 1970-01-01T00:00:01)",
                "+I(2, 0.5, 20000000000, 123456789012345678901234.5, TWO, 1970-01-01T00:00:02.001)",
                "+I(4, null, 40, null, four, null)");
        assertThat(TestTables.readAll(v1)).isEqualTo(expected);
        PredicateBuilder pb = new PredicateBuilder(v1.rowType());
        assertThat(TestTables.read(v1.newReadBuilder().withFilter(pb.lessThan(2, 15L))))
                .containsExactly("+I(1, null, 10, 1.5, one, 1970-01-01T00:00:01)");

        try (TableWrite w = v1.newWrite()) {
            w.compact(BinaryRow.EMPTY_ROW, 0, true);
            v1.newStreamCommit("test").commit(3, w.prepareCommit());
        }
        List<DataSplit> splits = v1.newReadBuilder().newScan().plan().splits();
        assertThat(splits).hasSize(1);
        assertThat(splits.get(0).files()).allMatch(f -> f.schemaId() == 1 && f.level() > 0);
        assertThat(TestTables.readAll(v1)).isEqualTo(expected);

        // Evolve again after the compaction: the compacted files are now the old ones.
        alter(SchemaChange.dropColumn("c"), SchemaChange.updateColumnType("v", DataTypes.DECIMAL(30, 0)));
        FileStoreTable v2 = reload();
        write(v2, 4, GenericRow.of(5, dec("5", 30, 0), null, str("five"), null));
        assertThat(TestTables.readAll(v2)).containsExactly(
                "+I(1, 10, 1.5, one, 1970-01-01T00:00:01)",
                "+I(2, 20000000000, 123456789012345678901234.5, TWO, 1970-01-01T00:00:02.001)",
                "+I(4, 40, null, four, null)",
                "+I(5, 5, null, five, null)");
    }

    @Test
    void aColumnDroppedAndAddedAgainReadsNullFromOldFiles() throws Exception {
        FileStoreTable v0 = create(Schema.newBuilder()
                .column("id", DataTypes.INT())
                .column("c", DataTypes.STRING())
                .primaryKey("id")
                .option("bucket", "1")
                .build());
        write(v0, 1, GenericRow.of(1, str("old")));
        alter(SchemaChange.dropColumn("c"));
        alter(SchemaChange.addColumn("c", DataTypes.STRING()));
        FileStoreTable v2 = reload();
        write(v2, 2, GenericRow.of(2, str("new")));
        assertThat(TestTables.readAll(v2)).containsExactly("+I(1, null)", "+I(2, new)");
        PredicateBuilder pb = new PredicateBuilder(v2.rowType());
        assertThat(TestTables.read(v2.newReadBuilder().withFilter(pb.equal(1, "old")))).isEmpty();
    }
}
