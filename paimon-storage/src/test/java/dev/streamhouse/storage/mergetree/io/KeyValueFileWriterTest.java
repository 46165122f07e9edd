package dev.streamhouse.storage.mergetree.io;

import static dev.streamhouse.storage.mergetree.io.KvTestTable.kv;
import static dev.streamhouse.storage.types.DataTypes.ARRAY;
import static dev.streamhouse.storage.types.DataTypes.BIGINT;
import static dev.streamhouse.storage.types.DataTypes.BOOLEAN;
import static dev.streamhouse.storage.types.DataTypes.BYTES;
import static dev.streamhouse.storage.types.DataTypes.DATE;
import static dev.streamhouse.storage.types.DataTypes.DECIMAL;
import static dev.streamhouse.storage.types.DataTypes.DOUBLE;
import static dev.streamhouse.storage.types.DataTypes.FLOAT;
import static dev.streamhouse.storage.types.DataTypes.INT;
import static dev.streamhouse.storage.types.DataTypes.MAP;
import static dev.streamhouse.storage.types.DataTypes.SMALLINT;
import static dev.streamhouse.storage.types.DataTypes.STRING;
import static dev.streamhouse.storage.types.DataTypes.TIME;
import static dev.streamhouse.storage.types.DataTypes.TIMESTAMP;
import static dev.streamhouse.storage.types.DataTypes.TIMESTAMP_LTZ;
import static dev.streamhouse.storage.types.DataTypes.TINYINT;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.streamhouse.storage.data.BinaryRow;
import dev.streamhouse.storage.data.BinaryRowConverter;
import dev.streamhouse.storage.data.BinaryString;
import dev.streamhouse.storage.data.Decimal;
import dev.streamhouse.storage.data.GenericArray;
import dev.streamhouse.storage.data.GenericMap;
import dev.streamhouse.storage.data.GenericRow;
import dev.streamhouse.storage.data.RowKind;
import dev.streamhouse.storage.data.Timestamp;
import dev.streamhouse.storage.manifest.DataFileMeta;
import dev.streamhouse.storage.manifest.FileSource;
import dev.streamhouse.storage.mergetree.KeyValue;
import dev.streamhouse.storage.mergetree.KeyValueLayout;
import dev.streamhouse.storage.mergetree.io.KvTestTable.Kv;
import dev.streamhouse.storage.schema.Schema;
import dev.streamhouse.storage.testutils.FailingFileIO;
import dev.streamhouse.storage.testutils.Hex;
import dev.streamhouse.storage.types.RowType;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.math.BigDecimal;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Random;

class KeyValueFileWriterTest {
    private static final BinaryRow PARTITION = new BinaryRowConverter(List.of(STRING()))
            .toBinaryRow(new Object[] {BinaryString.fromString("2024-01-01")});

    @TempDir
    java.nio.file.Path tmp;

    private static BinaryString str(String s) {
        return BinaryString.fromString(s);
    }

    private static Schema manyTypes() {
        return Schema.newBuilder()
                .column("dt", STRING())
                .column("id", INT())
                .column("k", STRING())
                .column("b", BOOLEAN())
                .column("t", TINYINT())
                .column("s", SMALLINT())
                .column("l", BIGINT())
                .column("f", FLOAT())
                .column("d", DOUBLE())
                .column("day", DATE())
                .column("tm", TIME())
                .column("dec", DECIMAL(10, 2))
                .column("dec38", DECIMAL(38, 10))
                .column("ts", TIMESTAMP(3))
                .column("ts6", TIMESTAMP_LTZ(6))
                .column("ts9", TIMESTAMP(9))
                .column("bin", BYTES())
                .column("arr", ARRAY(INT()))
                .column("m", MAP(STRING(), INT()))
                .partitionKeys("dt")
                .primaryKey("dt", "id", "k")
                .build();
    }

    /** Version i of a many-types table: key (i / 2, "k" + i % 2), some NULLs, some retractions. */
    private static KeyValue manyTypesVersion(int i, long seq, Random random) {
        GenericRow key = GenericRow.of(i / 2, str("k" + (i % 2)));
        boolean nulls = i % 4 == 1;
        GenericRow value = GenericRow.of(str("2024-01-01"), i / 2, str("k" + (i % 2)),
                nulls ? null : i % 3 == 0,
                nulls ? null : (byte) (i - 20),
                (short) (i * 7 - 100),
                nulls ? null : random.nextLong(),
                (float) i / 3,
                nulls ? null : -i * 1.5,
                19000 + i,
                nulls ? null : i * 1000,
                Decimal.fromBigDecimal(new BigDecimal(i + ".25"), 10, 2),
                nulls ? null : Decimal.fromBigDecimal(new BigDecimal("-12345678901234567890." + i), 38, 10),
                Timestamp.fromEpochMillis(1_700_000_000_000L + i),
                nulls ? null : Timestamp.fromEpochMillis(1_700_000_000_000L - i, 123_000),
                Timestamp.fromEpochMillis(1_600_000_000_000L + i, 999_999),
                nulls ? null : new byte[] {(byte) i, 0, (byte) 0xff},
                nulls ? null : new GenericArray(new Object[] {i, null, -i}),
                nulls ? null : new GenericMap(Map.of(str("a" + i), i)));
        RowKind kind = i % 7 == 3 ? RowKind.DELETE : i % 11 == 5 ? RowKind.UPDATE_BEFORE
                : i % 5 == 0 ? RowKind.UPDATE_AFTER : RowKind.INSERT;
        return kv(key, seq, kind, value);
    }

    @Test
    void roundTripsManyTypesAndDescribesTheFileExactly() throws Exception {
        KvTestTable table = KvTestTable.create(tmp, manyTypes());
        KeyValueLayout layout = table.layout();
        int n = 60;
        List<Long> seqs = new ArrayList<>();
        for (long s = 1000; s < 1000 + n; s++) {
            seqs.add(s);
        }
        Collections.shuffle(seqs, new Random(7));
        Random random = new Random(42);
        List<Kv> written = new ArrayList<>();
        long retractions = 0;
        long before = LocalDateTime.now().toInstant(ZoneOffset.UTC).toEpochMilli();
        RollingKeyValueFileWriter writer = table.writerFactory(PARTITION, 0, 1 << 30).newRollingWriter(3, FileSource.COMPACT);
        for (int i = 0; i < n; i++) {
            KeyValue kv = manyTypesVersion(i, seqs.get(i), random);
            written.add(KvTestTable.copy(kv, layout.keyType(), layout.valueType()));
            retractions += kv.isRetract() ? 1 : 0;
            writer.write(kv);
        }
        List<DataFileMeta> files = writer.close();
        long after = LocalDateTime.now().toInstant(ZoneOffset.UTC).toEpochMilli();

        assertThat(files).hasSize(1);
        DataFileMeta meta = files.get(0);
        assertThat(meta.rowCount()).isEqualTo(n);
        assertThat(meta.level()).isEqualTo(3);
        assertThat(meta.fileSource()).isEqualTo(FileSource.COMPACT);
        assertThat(meta.schemaId()).isEqualTo(0);
        assertThat(meta.extraFiles()).isEmpty();
        assertThat(meta.deleteRowCount()).isEqualTo(retractions).isGreaterThan(0);
        assertThat(meta.minSequenceNumber()).isEqualTo(1000);
        assertThat(meta.maxSequenceNumber()).isEqualTo(1000 + n - 1);
        assertThat(meta.creationTimeMillis()).isBetween(before, after);
        assertThat(meta.fileName()).startsWith("data-").endsWith(".parquet");
        assertThat(meta.fileSize()).isEqualTo(KvTestTable.FILE_IO.size(table.paths().dataFile(PARTITION, 0, meta.fileName())));
        assertThat(meta.embeddedIndex()).isNull();
        assertThat(meta.externalPath()).isNull();

        // min/max key: BinaryRows of the trimmed key (id INT, k STRING): header, two slots, 'k0' inline
        assertThat(Hex.grouped(meta.minKey().toSerializedBytes()))
                .isEqualTo(Hex.regroup("00000002 0000000000000000 0000000000000000 6b30000000000082"));
        assertThat(meta.maxKey()).isEqualTo(keyRow((n - 1) / 2, "k1"));

        // key stats: all key columns, full values, no null
        assertThat(meta.keyStats().minValues()).isEqualTo(keyRow(0, "k0"));
        assertThat(meta.keyStats().maxValues()).isEqualTo(keyRow((n - 1) / 2, "k1"));
        assertThat(meta.keyStats().nullCounts()).containsExactly(0L, 0L);

        // dense value stats: nested columns have none and are left out
        RowType valueType = layout.valueType();
        List<String> expectedCols = new ArrayList<>(valueType.fieldNames());
        expectedCols.removeAll(List.of("arr", "m"));
        assertThat(meta.valueStatsCols()).isEqualTo(expectedCols);
        assertThat(meta.valueStats().minValues().arity()).isEqualTo(expectedCols.size());
        int idPos = expectedCols.indexOf("id");
        int lPos = expectedCols.indexOf("l");
        int binPos = expectedCols.indexOf("bin");
        int ts9Pos = expectedCols.indexOf("ts9");
        assertThat(meta.valueStats().minValues().intAt(idPos)).isEqualTo(0);
        assertThat(meta.valueStats().maxValues().intAt(idPos)).isEqualTo((n - 1) / 2);
        assertThat(meta.valueStats().nullCounts()[lPos]).isEqualTo(n / 4);
        assertThat(meta.valueStats().nullCounts()[binPos]).isEqualTo(n / 4);
        assertThat(meta.valueStats().minValues().isNullAt(binPos)).isTrue();
        assertThat(meta.valueStats().minValues().isNullAt(ts9Pos)).isTrue();
        assertThat(meta.valueStats().nullCounts()[ts9Pos]).isEqualTo(0L);

        List<Kv> read = KvTestTable.readAll(
                table.readerFactory(table.allColumns(), null).createReader(PARTITION, 0, meta),
                layout.keyType(), valueType);
        List<Kv> expected = new ArrayList<>();
        for (Kv w : written) {
            expected.add(new Kv(w.key(), w.seq(), w.kind(), w.value(), 3));
        }
        assertThat(read).isEqualTo(expected);
    }

    private static BinaryRow keyRow(int id, String k) {
        return new BinaryRowConverter(List.of(INT(), STRING())).toBinaryRow(new Object[] {id, str(k)});
    }

    /** docs/format.md §13.3: the value stats of a Paimon-written file of the PK table (dt, id, name, price, ts). */
    @Test
    void valueStatsMatchPaimonBytes() throws Exception {
        KvTestTable table = KvTestTable.create(tmp, Schema.newBuilder()
                .column("dt", STRING())
                .column("id", INT())
                .column("name", STRING())
                .column("price", DECIMAL(10, 2))
                .column("ts", TIMESTAMP(3))
                .partitionKeys("dt")
                .primaryKey("dt", "id")
                .build());
        long ts = Long.parseLong("18cc820db2e", 16);
        RollingKeyValueFileWriter writer = table.writerFactory(PARTITION, 0, 1 << 30).newRollingWriter(0, FileSource.APPEND);
        writer.write(kv(GenericRow.of(1), 0, RowKind.INSERT, GenericRow.of(str("2024-01-01"), 1, str("alice"),
                Decimal.fromUnscaledLong(150, 10, 2), Timestamp.fromEpochMillis(ts))));
        writer.write(kv(GenericRow.of(2), 1, RowKind.INSERT, GenericRow.of(str("2024-01-01"), 2, str("bob"),
                Decimal.fromUnscaledLong(999, 10, 2), Timestamp.fromEpochMillis(ts + 5000))));
        DataFileMeta meta = writer.close().get(0);

        assertThat(Hex.grouped(meta.valueStats().minValues().toSerializedBytes())).isEqualTo(Hex.regroup(
                "0000000500000000 000000000a000000 3000000001000000 00000000616c6963 6500008596000000 "
                        + "000000002edb20c8 8c01000032303234 2d30312d30310000 00000000"));
        assertThat(meta.valueStats().nullCounts()).containsExactly(0L, 0L, 0L, 0L, 0L);
        assertThat(meta.valueStatsCols()).isNull();
        assertThat(Hex.grouped(meta.minKey().toSerializedBytes()))
                .isEqualTo(Hex.regroup("00000001 0000000000000000 0100000000000000"));
        assertThat(meta.keyStats().maxValues()).isEqualTo(meta.maxKey());
        assertThat(meta.deleteRowCount()).isEqualTo(0L);
        assertThat(meta.fileSource()).isEqualTo(FileSource.APPEND);
        assertThat(meta.level()).isEqualTo(0);

        // the Parquet schema Paimon 1.3.1 writes for this table (docs/format.md §8.1 example footer)
        java.nio.file.Path file = java.nio.file.Path.of(
                table.paths().dataFile(PARTITION, 0, meta.fileName()).toString());
        try (org.apache.parquet.hadoop.ParquetFileReader reader = org.apache.parquet.hadoop.ParquetFileReader.open(
                new org.apache.parquet.io.LocalInputFile(file))) {
            assertThat(reader.getFooter().getFileMetaData().getSchema().toString().replaceAll("\\s+", " ").trim())
                    .isEqualTo("message paimon_schema { "
                            + "required int32 _KEY_id = 1073741824; "
                            + "required int64 _SEQUENCE_NUMBER = 2147483646; "
                            + "required int32 _VALUE_KIND (INTEGER(8,true)) = 2147483645; "
                            + "required binary dt (STRING) = 0; "
                            + "required int32 id = 1; "
                            + "optional binary name (STRING) = 2; "
                            + "optional int64 price (DECIMAL(10,2)) = 3; "
                            + "optional int64 ts (TIMESTAMP(MILLIS,false)) = 4; }");
            assertThat(reader.getFooter().getFileMetaData().getKeyValueMetaData()).isEmpty();
        }
    }

    @Test
    void keyStatsTruncateStringsTo128CodePointsButMinMaxKeysAreFull() throws Exception {
        KvTestTable table = KvTestTable.create(tmp, Schema.newBuilder()
                .column("k", STRING())
                .column("v", INT())
                .primaryKey("k")
                .build());
        String low = "a".repeat(200);
        String high = "z".repeat(150);
        RollingKeyValueFileWriter writer = table.writerFactory(BinaryRow.EMPTY_ROW, 0, 1 << 30)
                .newRollingWriter(0, FileSource.APPEND);
        writer.write(kv(GenericRow.of(str(low)), 5, RowKind.INSERT, GenericRow.of(str(low), 1)));
        writer.write(kv(GenericRow.of(str(high)), 4, RowKind.DELETE, GenericRow.of(str(high), null)));
        DataFileMeta meta = writer.close().get(0);

        assertThat(meta.keyStats().minValues().stringAt(0).toString()).isEqualTo("a".repeat(128));
        assertThat(meta.keyStats().maxValues().stringAt(0).toString()).isEqualTo("z".repeat(127) + "{");
        assertThat(meta.minKey().stringAt(0).toString()).isEqualTo(low);
        assertThat(meta.maxKey().stringAt(0).toString()).isEqualTo(high);
        // value stats use the table's default truncate(16)
        assertThat(meta.valueStats().minValues().stringAt(0).toString()).isEqualTo("a".repeat(16));
        assertThat(meta.valueStats().maxValues().stringAt(0).toString()).isEqualTo("z".repeat(15) + "{");
        assertThat(meta.valueStats().nullCounts()).containsExactly(0L, 1L);
        assertThat(meta.minSequenceNumber()).isEqualTo(4);
        assertThat(meta.maxSequenceNumber()).isEqualTo(5);
        assertThat(meta.deleteRowCount()).isEqualTo(1L);
    }

    private static KvTestTable simpleTable(java.nio.file.Path dir, String... options) throws Exception {
        Schema.Builder b = Schema.newBuilder().column("id", INT()).column("v", STRING()).primaryKey("id");
        for (int i = 0; i < options.length; i += 2) {
            b.option(options[i], options[i + 1]);
        }
        return KvTestTable.create(dir, b.build());
    }

    private static KeyValue simple(int id, long seq) {
        return kv(GenericRow.of(id), seq, RowKind.INSERT, GenericRow.of(id, str("value-" + id)));
    }

    @Test
    void rollsAtTheTargetSizeIntoOneSortedRun() throws Exception {
        KvTestTable table = simpleTable(tmp);
        RollingKeyValueFileWriter writer = table.writerFactory(BinaryRow.EMPTY_ROW, 0, 1)
                .newRollingWriter(1, FileSource.APPEND);
        int n = 2500;
        List<Kv> written = new ArrayList<>();
        KeyValue reused = new KeyValue();
        for (int i = 0; i < n; i++) {
            // one reused KeyValue: the writer must not keep references to it
            reused.replace(GenericRow.of(i * 2), n - i, RowKind.INSERT, GenericRow.of(i * 2, str("value-" + i)));
            written.add(KvTestTable.copy(reused, table.layout().keyType(), table.layout().valueType()));
            writer.write(reused);
        }
        List<DataFileMeta> files = writer.close();

        assertThat(files).extracting(DataFileMeta::rowCount).containsExactly(1000L, 1000L, 500L);
        assertThat(files).extracting(f -> f.minKey().intAt(0)).containsExactly(0, 2000, 4000);
        assertThat(files).extracting(f -> f.maxKey().intAt(0)).containsExactly(1998, 3998, 4998);
        assertThat(files).extracting(DataFileMeta::minSequenceNumber).containsExactly(1501L, 501L, 1L);
        assertThat(files).extracting(DataFileMeta::maxSequenceNumber).containsExactly(2500L, 1500L, 500L);
        assertThat(files).extracting(DataFileMeta::fileName).doesNotHaveDuplicates();
        List<Kv> read = new ArrayList<>();
        for (DataFileMeta f : files) {
            read.addAll(KvTestTable.readAll(table.readerFactory(table.allColumns(), null)
                    .createReader(BinaryRow.EMPTY_ROW, 0, f), table.layout().keyType(), table.layout().valueType()));
        }
        assertThat(read).extracting(Kv::withoutLevel).isEqualTo(written);
    }

    @Test
    void refusesKeysOutOfOrderOrRepeated() throws Exception {
        KvTestTable table = simpleTable(tmp);
        KeyValueFileWriterFactory factory = table.writerFactory(BinaryRow.EMPTY_ROW, 0, 1 << 30);

        RollingKeyValueFileWriter descending = factory.newRollingWriter(0, FileSource.APPEND);
        descending.write(simple(5, 0));
        assertThatThrownBy(() -> descending.write(simple(4, 1)))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("Cannot write key")
                .hasMessageContaining("ascending order");
        descending.abort();

        RollingKeyValueFileWriter repeated = factory.newRollingWriter(0, FileSource.APPEND);
        repeated.write(simple(5, 0));
        assertThatThrownBy(() -> repeated.write(simple(5, 1))).isInstanceOf(IllegalStateException.class);
        // the refused record was not written
        List<DataFileMeta> files = repeated.close();
        assertThat(files).hasSize(1);
        assertThat(files.get(0).rowCount()).isEqualTo(1);
    }

    private static KeyValue change(int id, long seq, RowKind kind) {
        return kv(GenericRow.of(id), seq, kind, GenericRow.of(id, str("value-" + id + "-" + seq)));
    }

    @Test
    void changelogFilesHoldSeveralVersionsPerKeyInKeyThenSequenceOrder() throws Exception {
        KvTestTable table = simpleTable(tmp);
        // Target size 1: rolls every 1000 records, so one key's versions may span two files.
        KeyValueFileWriterFactory factory = table.writerFactory(BinaryRow.EMPTY_ROW, 0, 1);
        RollingKeyValueFileWriter writer = factory.newRollingChangelogWriter(0);
        List<Kv> written = new ArrayList<>();
        long seq = 0;
        for (int id = 0; id < 700; id++) {
            // +I, -U, +U per key, then -D for every 7th key: 2200 records over 700 keys.
            for (RowKind kind : id % 7 == 0
                    ? List.of(RowKind.INSERT, RowKind.UPDATE_BEFORE, RowKind.UPDATE_AFTER, RowKind.DELETE)
                    : List.of(RowKind.INSERT, RowKind.UPDATE_BEFORE, RowKind.UPDATE_AFTER)) {
                KeyValue kv = change(id, seq++, kind);
                written.add(KvTestTable.copy(kv, table.layout().keyType(), table.layout().valueType()));
                writer.write(kv);
            }
        }
        List<DataFileMeta> files = writer.close();

        assertThat(files).hasSize(3);
        assertThat(files).allSatisfy(f -> {
            assertThat(f.fileName()).startsWith("changelog-").endsWith(".parquet");
            assertThat(f.level()).isZero();
            assertThat(f.fileSource()).isEqualTo(FileSource.APPEND);
        });
        assertThat(files).extracting(DataFileMeta::rowCount).containsExactly(1000L, 1000L, 200L);
        assertThat(files.stream().mapToLong(DataFileMeta::deleteRowCountOrZero).sum())
                .as("-U and -D rows count as deletes").isEqualTo(700 + 100);
        assertThat(files.get(0).minKey().intAt(0)).isZero();
        assertThat(files.get(2).maxKey().intAt(0)).isEqualTo(699);
        assertThat(files).extracting(DataFileMeta::minSequenceNumber).containsExactly(0L, 1000L, 2000L);
        assertThat(files).extracting(DataFileMeta::maxSequenceNumber).containsExactly(999L, 1999L, 2199L);
        List<Kv> read = new ArrayList<>();
        for (DataFileMeta f : files) {
            read.addAll(KvTestTable.readAll(table.readerFactory(table.allColumns(), null)
                    .createReader(BinaryRow.EMPTY_ROW, 0, f), table.layout().keyType(), table.layout().valueType()));
        }
        assertThat(read).extracting(Kv::withoutLevel).isEqualTo(written);
    }

    @Test
    void changelogWriterRefusesSmallerKeysAndRepeatedSequenceNumbers() throws Exception {
        KvTestTable table = simpleTable(tmp);
        KeyValueFileWriterFactory factory = table.writerFactory(BinaryRow.EMPTY_ROW, 0, 1 << 30);
        RollingKeyValueFileWriter writer = factory.newRollingChangelogWriter(0);
        writer.write(change(5, 10, RowKind.INSERT));
        writer.write(change(5, 11, RowKind.UPDATE_BEFORE));
        assertThatThrownBy(() -> writer.write(change(5, 11, RowKind.UPDATE_AFTER)))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("changelog file")
                .hasMessageContaining("ascending (key, sequence number) order");
        assertThatThrownBy(() -> writer.write(change(4, 12, RowKind.INSERT))).isInstanceOf(IllegalStateException.class);
        writer.write(change(6, 3, RowKind.INSERT));
        List<DataFileMeta> files = writer.close();
        assertThat(files).hasSize(1);
        assertThat(files.get(0).rowCount()).as("refused records were not written").isEqualTo(3);

        // The data-file writer of the same factory still refuses a repeated key.
        RollingKeyValueFileWriter data = factory.newRollingWriter(0, FileSource.APPEND);
        data.write(change(5, 10, RowKind.INSERT));
        assertThatThrownBy(() -> data.write(change(5, 11, RowKind.INSERT))).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("data file");
        data.abort();
    }

    @Test
    void changelogAndDataFilesShareOneNameCounter() throws Exception {
        KvTestTable table = simpleTable(tmp);
        KeyValueFileWriterFactory factory = table.writerFactory(BinaryRow.EMPTY_ROW, 0, 1 << 30);
        RollingKeyValueFileWriter changelog = factory.newRollingChangelogWriter(0);
        changelog.write(change(1, 0, RowKind.INSERT));
        RollingKeyValueFileWriter data = factory.newRollingWriter(0, FileSource.APPEND);
        data.write(change(1, 0, RowKind.INSERT));
        String c = changelog.close().get(0).fileName();
        String d = data.close().get(0).fileName();
        assertThat(c).startsWith("changelog-").endsWith("-0.parquet");
        assertThat(d).startsWith("data-").endsWith("-1.parquet");
        assertThat(c.substring("changelog-".length(), c.length() - "-0.parquet".length()))
                .as("same uuid").isEqualTo(d.substring("data-".length(), d.length() - "-1.parquet".length()));
    }

    @Test
    void abortDeletesEveryCreatedFile() throws Exception {
        KvTestTable table = simpleTable(tmp);
        RollingKeyValueFileWriter writer = table.writerFactory(BinaryRow.EMPTY_ROW, 0, 1)
                .newRollingWriter(0, FileSource.APPEND);
        for (int i = 0; i < 2100; i++) {
            writer.write(simple(i, i));
        }
        dev.streamhouse.storage.fs.Path bucketDir = table.paths().bucketDir(BinaryRow.EMPTY_ROW, 0);
        assertThat(KvTestTable.FILE_IO.list(bucketDir)).hasSize(3); // two finished, one open
        writer.abort();
        assertThat(KvTestTable.FILE_IO.list(bucketDir)).isEmpty();
        assertThatThrownBy(() -> writer.write(simple(9999, 0))).isInstanceOf(IllegalStateException.class);
    }

    @Test
    void everyIoFailureIsReportedWithTheFileAndAbortLeavesNothing() throws Exception {
        KvTestTable table = simpleTable(tmp);
        dev.streamhouse.storage.fs.Path bucketDir = table.paths().bucketDir(BinaryRow.EMPTY_ROW, 0);
        FailingFileIO io = FailingFileIO.wrap(KvTestTable.FILE_IO);
        try {
            int points = io.failEachCallInTurn(() -> {
                RollingKeyValueFileWriter writer = table.writerFactory(io, BinaryRow.EMPTY_ROW, 0, 1)
                        .newRollingWriter(0, FileSource.APPEND);
                try {
                    for (int i = 0; i < 2100; i++) {
                        writer.write(simple(i, i));
                    }
                    for (DataFileMeta f : writer.close()) {
                        // uncounted clean-up, so each attempt starts empty
                        KvTestTable.FILE_IO.delete(new dev.streamhouse.storage.fs.Path(bucketDir, f.fileName()), false);
                    }
                } catch (Exception e) {
                    assertThatThrownBy(() -> writer.write(simple(99999, 0))).isInstanceOf(IllegalStateException.class);
                    writer.abort();
                    throw e;
                }
            }, (call, thrown) -> {
                assertThat(thrown).isInstanceOf(java.io.IOException.class)
                        .hasMessageContaining("data file " + bucketDir);
                assertThat(KvTestTable.FILE_IO.exists(bucketDir) ? KvTestTable.FILE_IO.list(bucketDir) : List.of())
                        .isEmpty();
            });
            assertThat(points).isGreaterThanOrEqualTo(9); // 3 files: open, close, size each
        } finally {
            io.release();
        }
    }

    @Test
    void closingAnUnusedWriterCreatesNothing() throws Exception {
        KvTestTable table = simpleTable(tmp);
        RollingKeyValueFileWriter writer = table.writerFactory(BinaryRow.EMPTY_ROW, 0, 1 << 30)
                .newRollingWriter(0, FileSource.APPEND);
        assertThat(writer.close()).isEmpty();
        assertThat(writer.close()).isEmpty();
        assertThat(KvTestTable.FILE_IO.exists(table.paths().bucketDir(BinaryRow.EMPTY_ROW, 0))).isFalse();
    }

    @Test
    void statsModeOptionsApplyToValueStatsOnly() throws Exception {
        KvTestTable table = simpleTable(tmp, "metadata.stats-mode", "none", "fields.id.stats-mode", "full");
        RollingKeyValueFileWriter writer = table.writerFactory(BinaryRow.EMPTY_ROW, 0, 1 << 30)
                .newRollingWriter(0, FileSource.APPEND);
        writer.write(simple(1, 0));
        writer.write(simple(7, 1));
        DataFileMeta meta = writer.close().get(0);
        assertThat(meta.valueStatsCols()).containsExactly("id");
        assertThat(meta.valueStats().minValues().intAt(0)).isEqualTo(1);
        assertThat(meta.valueStats().maxValues().intAt(0)).isEqualTo(7);
        // key stats ignore the table's stats modes
        assertThat(meta.keyStats().minValues().intAt(0)).isEqualTo(1);
        assertThat(meta.keyStats().maxValues().intAt(0)).isEqualTo(7);
    }
}
