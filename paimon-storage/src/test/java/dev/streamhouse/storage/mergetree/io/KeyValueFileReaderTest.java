package dev.streamhouse.storage.mergetree.io;

import static dev.streamhouse.storage.mergetree.io.KvTestTable.kv;
import static dev.streamhouse.storage.types.DataTypes.BIGINT;
import static dev.streamhouse.storage.types.DataTypes.INT;
import static dev.streamhouse.storage.types.DataTypes.STRING;
import static dev.streamhouse.storage.types.DataTypes.TINYINT;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.streamhouse.storage.data.BinaryRow;
import dev.streamhouse.storage.data.BinaryString;
import dev.streamhouse.storage.data.GenericRow;
import dev.streamhouse.storage.data.RowKind;
import dev.streamhouse.storage.format.FormatWriter;
import dev.streamhouse.storage.format.parquet.ParquetFileFormat;
import dev.streamhouse.storage.fs.Path;
import dev.streamhouse.storage.manifest.DataFileMeta;
import dev.streamhouse.storage.manifest.FileSource;
import dev.streamhouse.storage.mergetree.KeyValueLayout;
import dev.streamhouse.storage.mergetree.io.KvTestTable.Kv;
import dev.streamhouse.storage.options.Options;
import dev.streamhouse.storage.predicate.PredicateBuilder;
import dev.streamhouse.storage.schema.Schema;
import dev.streamhouse.storage.schema.TableSchema;
import dev.streamhouse.storage.stats.SimpleStats;
import dev.streamhouse.storage.types.DataField;
import dev.streamhouse.storage.types.RowType;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

class KeyValueFileReaderTest {
    @TempDir
    java.nio.file.Path tmp;

    private static BinaryString str(String s) {
        return BinaryString.fromString(s);
    }

    private static GenericRow key(int id) {
        return GenericRow.of(id);
    }

    @Test
    void readsFilesOfAnOlderSchemaByFieldId() throws Exception {
        KvTestTable table = KvTestTable.create(tmp, Schema.newBuilder()
                .column("id", INT())
                .column("name", STRING())
                .column("price", INT())
                .column("gone", STRING())
                .primaryKey("id")
                .build());
        DataFileMeta oldFile = write(table, 2, List.of(
                kv(key(1), 10, RowKind.INSERT, GenericRow.of(1, str("one"), 100, str("x"))),
                kv(key(2), 11, RowKind.DELETE, GenericRow.of(2, str("two"), null, str("y")))));

        // schema 1: key column and name renamed, 'gone' dropped, 'extra' added
        TableSchema s0 = table.schema;
        List<DataField> fields = List.of(
                s0.fields().get(0).withName("pk"),
                s0.fields().get(1).withName("full_name"),
                s0.fields().get(2),
                new DataField(4, "extra", STRING()));
        table.evolve(new TableSchema(s0.version(), 1, fields, 4, List.of(), List.of("pk"), s0.options(), null,
                s0.timeMillis()));
        DataFileMeta newFile = write(table, 0, List.of(
                kv(key(3), 12, RowKind.INSERT, GenericRow.of(3, str("three"), 300, str("e")))));

        // projection: extra, full_name, pk
        KeyValueFileReaderFactory factory = table.readerFactory(new int[] {3, 1, 0}, null);
        RowType keyType = table.layout().keyType();
        RowType valueType = factory.valueReadType();
        assertThat(valueType.fieldNames()).containsExactly("extra", "full_name", "pk");
        assertThat(KvTestTable.readAll(factory.createReader(BinaryRow.EMPTY_ROW, 0, oldFile), keyType, valueType))
                .containsExactly(
                        new Kv(key(1), 10, RowKind.INSERT, GenericRow.of(null, str("one"), 1), 2),
                        new Kv(key(2), 11, RowKind.DELETE, GenericRow.of(null, str("two"), 2), 2));
        assertThat(KvTestTable.readAll(factory.createReader(BinaryRow.EMPTY_ROW, 0, newFile), keyType, valueType))
                .containsExactly(new Kv(key(3), 12, RowKind.INSERT, GenericRow.of(str("e"), str("three"), 3), 0));
    }

    private static DataFileMeta write(KvTestTable table, int level, List<dev.streamhouse.storage.mergetree.KeyValue> kvs)
            throws IOException {
        RollingKeyValueFileWriter writer = table.writerFactory(BinaryRow.EMPTY_ROW, 0, 1 << 30)
                .newRollingWriter(level, FileSource.APPEND);
        for (dev.streamhouse.storage.mergetree.KeyValue kv : kvs) {
            writer.write(kv);
        }
        return writer.close().get(0);
    }

    /** A file without _KEY_* columns, as Paimon writes with data-file.thin-mode: seq, kind, values. */
    private static DataFileMeta writeThinFile(KvTestTable table, int level) throws IOException {
        KeyValueLayout layout = table.layout();
        List<DataField> fields = new java.util.ArrayList<>();
        fields.add(layout.fileType().field(layout.sequencePosition()));
        fields.add(layout.fileType().field(layout.valueKindPosition()));
        fields.addAll(layout.valueType().fields());
        RowType thinType = new RowType(fields);
        assertThat(thinType.typeAt(1).root()).isEqualTo(TINYINT().root());
        Path path = table.paths().dataFile(BinaryRow.EMPTY_ROW, 0, "data-thin-0.parquet");
        FormatWriter w = new ParquetFileFormat().writerFactory(thinType, new Options())
                .create(KvTestTable.FILE_IO.newOutputStream(path, false));
        w.add(GenericRow.of(7L, (byte) 0, 1, str("a"), 10L));
        w.add(GenericRow.of(3L, (byte) 3, 2, str("b"), null));
        w.add(GenericRow.of(9L, (byte) 2, 5, null, 50L));
        w.close();
        return new DataFileMeta(path.name(), KvTestTable.FILE_IO.size(path), 3, BinaryRow.EMPTY_ROW,
                BinaryRow.EMPTY_ROW, SimpleStats.EMPTY, SimpleStats.EMPTY, 3, 9, table.schema.id(), level, List.of(),
                null, 1L, null, FileSource.APPEND, null, null, null, null);
    }

    private static Schema thinSchema(boolean thin) {
        Schema.Builder b = Schema.newBuilder()
                .column("id", INT())
                .column("s", STRING())
                .column("n", BIGINT())
                .primaryKey("id");
        if (thin) {
            b.option("data-file.thin-mode", "true");
        }
        return b.build();
    }

    @Test
    void takesKeysFromValueColumnsInThinModeFiles() throws Exception {
        KvTestTable table = KvTestTable.create(tmp, thinSchema(true));
        DataFileMeta file = writeThinFile(table, 4);
        RowType keyType = table.layout().keyType();

        // key column not projected: it is still read, for the key only
        KeyValueFileReaderFactory onlyN = table.readerFactory(new int[] {2}, null);
        assertThat(KvTestTable.readAll(onlyN.createReader(BinaryRow.EMPTY_ROW, 0, file), keyType, onlyN.valueReadType()))
                .containsExactly(
                        new Kv(key(1), 7, RowKind.INSERT, GenericRow.of(10L), 4),
                        new Kv(key(2), 3, RowKind.DELETE, GenericRow.of((Object) null), 4),
                        new Kv(key(5), 9, RowKind.UPDATE_AFTER, GenericRow.of(50L), 4));

        KeyValueFileReaderFactory all = table.readerFactory(new int[] {1, 0}, null);
        assertThat(KvTestTable.readAll(all.createReader(BinaryRow.EMPTY_ROW, 0, file), keyType, all.valueReadType()))
                .extracting(Kv::key, Kv::value)
                .containsExactly(
                        org.assertj.core.groups.Tuple.tuple(key(1), GenericRow.of(str("a"), 1)),
                        org.assertj.core.groups.Tuple.tuple(key(2), GenericRow.of(str("b"), 2)),
                        org.assertj.core.groups.Tuple.tuple(key(5), GenericRow.of(null, 5)));
    }

    @Test
    void fileWithoutKeyColumnsButNoThinModeFailsNamingFileAndTable() throws Exception {
        KvTestTable table = KvTestTable.create(tmp, thinSchema(false));
        DataFileMeta file = writeThinFile(table, 1);
        KeyValueFileReaderFactory factory = table.readerFactory(table.allColumns(), null);
        assertThatThrownBy(() -> KvTestTable.readAll(factory.createReader(BinaryRow.EMPTY_ROW, 0, file),
                table.layout().keyType(), factory.valueReadType()))
                .isInstanceOf(IOException.class)
                .hasMessageContaining("Cannot read data file")
                .hasMessageContaining(file.fileName())
                .hasMessageContaining(table.root.toString())
                .hasMessageContaining("_KEY_id");
    }

    @Test
    void missingFileFailsNamingFileAndTable() throws Exception {
        KvTestTable table = KvTestTable.create(tmp, thinSchema(false));
        DataFileMeta real = write(table, 0, List.of(kv(key(1), 0, RowKind.INSERT, GenericRow.of(1, str("a"), 1L))));
        DataFileMeta missing = new DataFileMeta("data-missing.parquet", real.fileSize(), 1, real.minKey(),
                real.maxKey(), real.keyStats(), real.valueStats(), 0, 0, 0, 0, List.of(), null, 0L, null,
                FileSource.APPEND, null, null, null, null);
        KeyValueFileReaderFactory factory = table.readerFactory(table.allColumns(), null);
        assertThatThrownBy(() -> factory.createReader(BinaryRow.EMPTY_ROW, 0, missing).readBatch())
                .isInstanceOf(IOException.class)
                .hasMessageContaining("data-missing.parquet")
                .hasMessageContaining(table.root.toString());
    }

    @Test
    void changedColumnTypeIsRefusedNamingColumnAndFile() throws Exception {
        KvTestTable table = KvTestTable.create(tmp, thinSchema(false));
        DataFileMeta file = write(table, 0, List.of(kv(key(1), 0, RowKind.INSERT, GenericRow.of(1, str("a"), 1L))));
        TableSchema s0 = table.schema;
        List<DataField> fields = List.of(s0.fields().get(0), s0.fields().get(1), s0.fields().get(2).withType(INT()));
        Map<String, String> options = new HashMap<>(s0.options());
        table.evolve(new TableSchema(s0.version(), 1, fields, s0.highestFieldId(), List.of(), s0.primaryKeys(),
                options, null, s0.timeMillis()));
        KeyValueFileReaderFactory factory = table.readerFactory(table.allColumns(), null);
        assertThatThrownBy(() -> factory.createReader(BinaryRow.EMPTY_ROW, 0, file))
                .isInstanceOf(UnsupportedOperationException.class)
                .hasMessageContaining("'n'")
                .hasMessageContaining(file.fileName());
    }

    @Test
    void keyFilterSkipsRowGroupsButNeverFiltersRows() throws Exception {
        KvTestTable table = KvTestTable.create(tmp, thinSchema(false));
        DataFileMeta file = write(table, 0, List.of(
                kv(key(1), 0, RowKind.INSERT, GenericRow.of(1, str("a"), 1L)),
                kv(key(2), 1, RowKind.INSERT, GenericRow.of(2, str("b"), 2L))));
        RowType keyType = table.layout().keyType();
        PredicateBuilder pb = new PredicateBuilder(keyType);
        // one row group: the filter can rule it out only as a whole
        KeyValueFileReaderFactory none = table.readerFactory(table.allColumns(), pb.greaterThan(0, 5));
        assertThat(KvTestTable.readAll(none.createReader(BinaryRow.EMPTY_ROW, 0, file), keyType, none.valueReadType()))
                .isEmpty();
        KeyValueFileReaderFactory some = table.readerFactory(table.allColumns(), pb.equal(0, 2));
        assertThat(KvTestTable.readAll(some.createReader(BinaryRow.EMPTY_ROW, 0, file), keyType, some.valueReadType()))
                .extracting(Kv::key).containsExactly(key(1), key(2));
    }
}
