package dev.streamhouse.storage.mergetree.read;

import static dev.streamhouse.storage.mergetree.io.KvTestTable.kv;
import static dev.streamhouse.storage.types.DataTypes.INT;
import static dev.streamhouse.storage.types.DataTypes.STRING;
import static org.assertj.core.api.Assertions.assertThat;

import dev.streamhouse.storage.mergetree.engine.MergeEngines;
import dev.streamhouse.storage.data.BinaryRow;
import dev.streamhouse.storage.data.BinaryString;
import dev.streamhouse.storage.data.GenericRow;
import dev.streamhouse.storage.data.RowKind;
import dev.streamhouse.storage.manifest.DataFileMeta;
import dev.streamhouse.storage.manifest.FileSource;
import dev.streamhouse.storage.mergetree.IntervalPartition;
import dev.streamhouse.storage.mergetree.KeyComparator;
import dev.streamhouse.storage.mergetree.KeyValue;
import dev.streamhouse.storage.mergetree.SortedRun;
import dev.streamhouse.storage.mergetree.io.KeyValueFileReaderFactory;
import dev.streamhouse.storage.mergetree.io.KvTestTable;
import dev.streamhouse.storage.mergetree.io.KvTestTable.Kv;
import dev.streamhouse.storage.mergetree.io.RollingKeyValueFileWriter;
import dev.streamhouse.storage.schema.Schema;
import dev.streamhouse.storage.types.RowType;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;

class MergeTreeReadersTest {
    private static final BinaryRow PARTITION = BinaryRow.EMPTY_ROW;

    @TempDir
    java.nio.file.Path tmp;

    private static BinaryString str(String s) {
        return BinaryString.fromString(s);
    }

    private static KvTestTable table(java.nio.file.Path dir, String... options) throws IOException {
        Schema.Builder b = Schema.newBuilder()
                .column("id", INT())
                .column("v", STRING())
                .column("sf", INT())
                .primaryKey("id");
        for (int i = 0; i < options.length; i += 2) {
            b.option(options[i], options[i + 1]);
        }
        return KvTestTable.create(dir, b.build());
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

    @Test
    void mergesRandomFilesAcrossSectionsLikeTheModel() throws Exception {
        KvTestTable table = table(tmp);
        RowType keyType = table.layout().keyType();
        RowType valueType = table.layout().valueType();
        KeyValueFileReaderFactory factory = table.readerFactory(table.allColumns(), null);
        MergeTreeReaders readers = new MergeTreeReaders(factory, MergeEngines.create(table.schema),
                VersionOrder.bySequenceNumber());
        Random random = new Random(5);
        long seq = 0;
        int multiSectionRounds = 0;
        for (int round = 0; round < 20; round++) {
            List<DataFileMeta> files = new ArrayList<>();
            Map<Integer, Kv> model = new TreeMap<>();
            int fileCount = 1 + random.nextInt(8);
            for (int f = 0; f < fileCount; f++) {
                int lo = random.nextInt(150);
                int len = random.nextInt(30);
                int level = random.nextInt(4);
                List<KeyValue> versions = new ArrayList<>();
                for (int id = lo; id <= lo + len; id++) {
                    if (random.nextInt(3) == 0 && !(versions.isEmpty() && id == lo + len)) {
                        continue;
                    }
                    RowKind kind = RowKind.values()[random.nextInt(4)];
                    // sequence numbers grow with every file, so later files win, as after real flushes
                    KeyValue kv = version(id, seq++, kind, "r" + round + "f" + f, random.nextInt(10));
                    versions.add(kv);
                    Kv copy = KvTestTable.copy(kv, keyType, valueType);
                    model.put(id, new Kv(copy.key(), copy.seq(), copy.kind(), copy.value(), level));
                }
                files.add(writeFile(table, level, versions));
            }
            Collections.shuffle(files, random);
            if (new IntervalPartition(files, new KeyComparator(keyType)).partition().size() > 1) {
                multiSectionRounds++;
            }

            List<Kv> merged = KvTestTable.readAll(readers.readMerged(PARTITION, 0, files), keyType, valueType);
            assertThat(merged).isEqualTo(new ArrayList<>(model.values()));

            List<GenericRow> rows = KvTestTable.readRows(readers.readRows(PARTITION, 0, files), valueType);
            List<GenericRow> expectedRows = new ArrayList<>();
            for (Kv kv : model.values()) {
                if (!kv.kind().isRetract()) {
                    GenericRow r = GenericRow.ofKind(kv.kind(), kv.value().field(0), kv.value().field(1),
                            kv.value().field(2));
                    expectedRows.add(r);
                }
            }
            assertThat(rows).isEqualTo(expectedRows);
        }
        assertThat(multiSectionRounds).isGreaterThan(5);
    }

    @Test
    void sequenceFieldIsReadForOrderingEvenWhenNotProjected() throws Exception {
        assertThat(readWithSequenceField(tmp.resolve("asc"), "ascending")).containsExactly("high-sf", "with-sf");
        assertThat(readWithSequenceField(tmp.resolve("desc"), "descending")).containsExactly("low-sf", "null-sf");
    }

    /** The v column of the winners of keys 1 and 2 under sequence.field=sf. */
    private static List<String> readWithSequenceField(java.nio.file.Path dir, String order) throws Exception {
        KvTestTable table = table(dir, "sequence.field", "sf", "sequence.field.sort-order", order);
        DataFileMeta older = writeFile(table, 0, List.of(
                version(1, 0, RowKind.INSERT, "high-sf", 5),
                version(2, 1, RowKind.INSERT, "null-sf", null)));
        DataFileMeta newer = writeFile(table, 0, List.of(
                version(1, 2, RowKind.UPDATE_AFTER, "low-sf", 3),
                version(2, 3, RowKind.INSERT, "with-sf", 1)));

        MergeReadProjection projection = MergeReadProjection.of(table.schema, new int[] {1});
        assertThat(projection.readProjection()).containsExactly(1, 2);
        assertThat(projection.widened()).isTrue();
        KeyValueFileReaderFactory factory = table.readerFactory(projection.readProjection(), null);
        MergeTreeReaders readers = new MergeTreeReaders(factory, MergeEngines.create(table.schema),
                projection.versionOrder());
        List<GenericRow> rows = KvTestTable.readRows(
                projection.cutBack(readers.readRows(PARTITION, 0, List.of(newer, older))),
                table.schema.rowType().project(new int[] {1}));
        List<String> out = new ArrayList<>();
        for (GenericRow r : rows) {
            assertThat(r.arity()).isEqualTo(1);
            out.add(r.field(0).toString());
        }
        return out;
    }

    @Test
    void sectionReadMergesGivenRunsForCompaction() throws Exception {
        KvTestTable table = table(tmp);
        RowType keyType = table.layout().keyType();
        RowType valueType = table.layout().valueType();
        // one run of two files on level 1, one level-0 file overlapping both
        DataFileMeta l1a = writeFile(table, 1, List.of(version(1, 0, RowKind.INSERT, "a1", null),
                version(2, 1, RowKind.INSERT, "a2", null)));
        DataFileMeta l1b = writeFile(table, 1, List.of(version(5, 2, RowKind.INSERT, "b5", null)));
        DataFileMeta l0 = writeFile(table, 0, List.of(version(2, 3, RowKind.DELETE, "x2", null),
                version(5, 4, RowKind.UPDATE_AFTER, "x5", null), version(9, 5, RowKind.INSERT, "x9", null)));
        MergeTreeReaders readers = new MergeTreeReaders(table.readerFactory(table.allColumns(), null),
                MergeEngines.create(table.schema), VersionOrder.bySequenceNumber());
        List<Kv> merged = KvTestTable.readAll(readers.readSection(PARTITION, 0,
                List.of(new SortedRun(List.of(l1a, l1b)), SortedRun.of(l0))), keyType, valueType);
        assertThat(merged).extracting(Kv::toString).containsExactly(
                "+I(1)#0+I+I(1, a1, null)@1",
                "+I(2)#3-D+I(2, x2, null)@0",
                "+I(5)#4+U+I(5, x5, null)@0",
                "+I(9)#5+I+I(9, x9, null)@0");
    }
}
