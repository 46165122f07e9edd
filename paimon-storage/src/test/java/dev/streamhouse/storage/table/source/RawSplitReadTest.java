package dev.streamhouse.storage.table.source;

import static dev.streamhouse.storage.mergetree.io.KvTestTable.kv;
import static dev.streamhouse.storage.types.DataTypes.INT;
import static dev.streamhouse.storage.types.DataTypes.STRING;
import static org.assertj.core.api.Assertions.assertThat;

import dev.streamhouse.storage.data.BinaryRow;
import dev.streamhouse.storage.data.BinaryString;
import dev.streamhouse.storage.data.GenericRow;
import dev.streamhouse.storage.data.InternalRow;
import dev.streamhouse.storage.data.RowKind;
import dev.streamhouse.storage.manifest.DataFileMeta;
import dev.streamhouse.storage.manifest.FileSource;
import dev.streamhouse.storage.mergetree.KeyValue;
import dev.streamhouse.storage.mergetree.io.KeyValueFileReaderFactory;
import dev.streamhouse.storage.mergetree.io.KvTestTable;
import dev.streamhouse.storage.mergetree.io.RollingKeyValueFileWriter;
import dev.streamhouse.storage.mergetree.engine.MergeEngines;
import dev.streamhouse.storage.mergetree.read.MergeTreeReaders;
import dev.streamhouse.storage.mergetree.read.RawReadRule;
import dev.streamhouse.storage.mergetree.read.VersionOrder;
import dev.streamhouse.storage.read.DataFileReaders;
import dev.streamhouse.storage.read.DeletionVector;
import dev.streamhouse.storage.reader.ColumnarRowIterator;
import dev.streamhouse.storage.reader.RecordIterator;
import dev.streamhouse.storage.reader.RecordReader;
import dev.streamhouse.storage.schema.Schema;
import dev.streamhouse.storage.types.DataField;
import dev.streamhouse.storage.types.RowType;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.util.List;

/**
 * The raw read of primary-key files (moved here from MergeTreeReadersTest when raw reads left the
 * merge-tree readers), its batches, and the deletion-vector seam of raw and merge reads.
 */
class RawSplitReadTest {
    private static final BinaryRow PARTITION = BinaryRow.EMPTY_ROW;

    @TempDir
    java.nio.file.Path tmp;

    private static BinaryString str(String s) {
        return BinaryString.fromString(s);
    }

    private KvTestTable table() throws IOException {
        return KvTestTable.create(tmp, Schema.newBuilder()
                .column("id", INT())
                .column("v", STRING())
                .column("sf", INT())
                .primaryKey("id")
                .build());
    }

    private static KeyValue version(int id, long seq, RowKind kind, String v, Integer sf) {
        return kv(GenericRow.of(id), seq, kind, GenericRow.of(id, str(v), sf));
    }

    private static DataFileMeta writeFile(KvTestTable table, int level, List<KeyValue> sortedVersions)
            throws IOException {
        RollingKeyValueFileWriter writer = table.writerFactory(PARTITION, 0, 1 << 30)
                .newRollingWriter(level, FileSource.APPEND);
        for (KeyValue kv : sortedVersions) {
            writer.write(kv);
        }
        List<DataFileMeta> files = writer.close();
        assertThat(files).hasSize(1);
        return files.get(0);
    }

    private static RawSplitRead rawRead(KvTestTable table) {
        DataFileReaders files = new DataFileReaders(KvTestTable.FILE_IO, table.paths(), table.schemas);
        List<DataField> wanted = List.of(table.schema.rowType().field(1), table.schema.rowType().field(0));
        return new RawSplitRead(files, wanted, null, null, 2, true, true);
    }

    @Test
    void rawReadConcatenatesValuesOfRawConvertibleFiles() throws Exception {
        KvTestTable table = table();
        DataFileMeta first = writeFile(table, 2, List.of(
                version(1, 0, RowKind.INSERT, "a", null),
                version(3, 1, RowKind.UPDATE_AFTER, "b", 1)));
        DataFileMeta second = writeFile(table, 2, List.of(version(7, 2, RowKind.INSERT, "c", 2)));
        List<DataFileMeta> files = List.of(first, second);
        assertThat(RawReadRule.rawConvertible(files, false, MergeEngines.deduplicate(false))).isTrue();

        RowType outType = table.schema.rowType().project(new int[] {1, 0});
        DataSplit split = new DataSplit(1, PARTITION, 0, 1, files, true);
        assertThat(KvTestTable.readRows(rawRead(table).createReader(split, DeletionVector.Source.NONE), outType))
                .containsExactly(
                        GenericRow.of(str("a"), 1),
                        GenericRow.ofKind(RowKind.UPDATE_AFTER, str("b"), 3),
                        GenericRow.of(str("c"), 7));
    }

    @Test
    void rawBatchesAreColumnarViewsOfTheOutputColumns() throws Exception {
        KvTestTable table = table();
        DataFileMeta file = writeFile(table, 2, List.of(
                version(1, 0, RowKind.INSERT, "a", null),
                version(3, 1, RowKind.UPDATE_AFTER, "b", 1)));
        DataSplit split = new DataSplit(1, PARTITION, 0, 1, List.of(file), true);
        try (RecordReader<InternalRow> reader = rawRead(table).createReader(split, DeletionVector.Source.NONE)) {
            RecordIterator<InternalRow> batch = reader.readBatch();
            assertThat(batch).isInstanceOf(ColumnarRowIterator.class);
            ColumnarRowIterator columnar = (ColumnarRowIterator) batch;
            assertThat(columnar.batch().arity()).isEqualTo(2);
            assertThat(columnar.batch().numRows()).isEqualTo(2);
            assertThat(columnar.batch().vector(1).getInt(1)).isEqualTo(3);
            InternalRow first = batch.next();
            assertThat(first.stringAt(0)).isEqualTo(str("a"));
            assertThat(first.rowKind()).isEqualTo(RowKind.INSERT);
            assertThat(batch.next().rowKind()).isEqualTo(RowKind.UPDATE_AFTER);
            assertThat(batch.next()).isNull();
            batch.releaseBatch();
            assertThat(reader.readBatch()).isNull();
        }
    }

    @Test
    void deletionVectorsHideRowsInRawAndMergeReads() throws Exception {
        KvTestTable table = table();
        DataFileMeta older = writeFile(table, 1, List.of(
                version(1, 0, RowKind.INSERT, "a", null),
                version(3, 1, RowKind.INSERT, "b", 1),
                version(5, 2, RowKind.INSERT, "c", 1)));
        DataFileMeta newer = writeFile(table, 0, List.of(version(5, 3, RowKind.UPDATE_AFTER, "c2", 2)));
        // the second row (key 3) of the older file and the only row of the newer one are deleted
        DeletionVector.Source deletions = (partition, bucket, file) -> file.fileName().equals(older.fileName())
                ? position -> position == 1
                : file.fileName().equals(newer.fileName()) ? position -> position == 0 : null;
        RowType outType = table.schema.rowType().project(new int[] {1, 0});

        DataSplit raw = new DataSplit(1, PARTITION, 0, 1, List.of(older), true);
        assertThat(KvTestTable.readRows(rawRead(table).createReader(raw, deletions), outType))
                .containsExactly(GenericRow.of(str("a"), 1), GenericRow.of(str("c"), 5));

        KeyValueFileReaderFactory factory = new KeyValueFileReaderFactory(
                new DataFileReaders(KvTestTable.FILE_IO, table.paths(), table.schemas), table.layout(),
                new int[] {1, 0}, null, deletions);
        MergeTreeReaders readers = new MergeTreeReaders(factory, MergeEngines.create(table.schema),
                VersionOrder.bySequenceNumber());
        assertThat(KvTestTable.readRows(readers.readRows(PARTITION, 0, List.of(older, newer)), outType))
                .containsExactly(GenericRow.of(str("a"), 1), GenericRow.of(str("c"), 5));
    }

    /**
     * Thousands of rows in many pages and batches: deleted positions (a bitmap vector, walked per
     * batch, and a vector answering per position), retractions and a row filter together, with a file
     * filter whose page skipping leaves batches of rows that are consecutive in the file and batches
     * that are not.
     */
    @Test
    void deletedPositionsRetractionsAndFiltersCombineAcrossPagesAndBatches() throws Exception {
        KvTestTable table = KvTestTable.create(tmp, Schema.newBuilder()
                .column("id", INT())
                .column("v", STRING())
                .column("sf", INT())
                .primaryKey("id")
                .option("parquet.page.row.count.limit", "100")
                .build());
        int n = 3000;
        List<KeyValue> versions = new java.util.ArrayList<>();
        for (int id = 0; id < n; id++) {
            RowKind kind = id % 7 == 0 ? RowKind.DELETE : id % 11 == 0 ? RowKind.UPDATE_BEFORE : RowKind.INSERT;
            versions.add(version(id, id, kind, "v" + id, id));
        }
        DataFileMeta file = writeFile(table, 3, versions);
        dev.streamhouse.storage.deletionvectors.BitmapDeletionVector.Builder deletes =
                dev.streamhouse.storage.deletionvectors.BitmapDeletionVector.builder();
        for (int p = 0; p < n; p += 3) {
            deletes.delete(p);
        }
        DeletionVector bitmap = deletes.build();
        DeletionVector perPosition = position -> position % 3 == 0;
        DataSplit split = new DataSplit(1, PARTITION, 0, 1, List.of(file), true);
        RowType outType = table.schema.rowType().project(new int[] {1, 0});
        dev.streamhouse.storage.predicate.PredicateBuilder pb = new dev.streamhouse.storage.predicate.PredicateBuilder(
                new RowType(List.of(table.schema.rowType().field(1), table.schema.rowType().field(0))));
        // positions [0, 500) and [2500, 3000): the pages between are skipped, so one batch ends 499, 2500
        dev.streamhouse.storage.predicate.Predicate ids = dev.streamhouse.storage.predicate.PredicateBuilder.or(
                pb.lessThan(1, 500), pb.greaterOrEqual(1, 2500));
        DataFileReaders files = new DataFileReaders(KvTestTable.FILE_IO, table.paths(), table.schemas);
        List<DataField> wanted = List.of(table.schema.rowType().field(1), table.schema.rowType().field(0));

        List<GenericRow> expectedAll = new java.util.ArrayList<>();
        List<GenericRow> expectedFiltered = new java.util.ArrayList<>();
        for (int id = 0; id < n; id++) {
            if (id % 3 != 0 && id % 7 != 0 && id % 11 != 0) {
                GenericRow row = GenericRow.of(str("v" + id), id);
                expectedAll.add(row);
                if (id < 500 || id >= 2500) {
                    expectedFiltered.add(row);
                }
            }
        }
        for (DeletionVector vector : List.of(bitmap, perPosition)) {
            DeletionVector.Source source = (partition, bucket, f) -> vector;
            assertThat(KvTestTable.readRows(new RawSplitRead(files, wanted, null, null, 2, true, true)
                    .createReader(split, source), outType)).isEqualTo(expectedAll);
            assertThat(KvTestTable.readRows(new RawSplitRead(files, wanted, ids, ids, 2, true, true)
                    .createReader(split, source), outType)).isEqualTo(expectedFiltered);
            // without the row filter, the rows of the pages read (and only those) are returned
            List<GenericRow> paged = KvTestTable.readRows(new RawSplitRead(files, wanted, ids, null, 2, true, true)
                    .createReader(split, source), outType);
            assertThat(paged).containsAll(expectedFiltered).hasSizeLessThan(expectedAll.size());
        }
    }
}
