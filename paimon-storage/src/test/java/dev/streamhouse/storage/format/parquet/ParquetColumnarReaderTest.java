package dev.streamhouse.storage.format.parquet;

import static dev.streamhouse.storage.types.DataTypes.ARRAY;
import static dev.streamhouse.storage.types.DataTypes.BIGINT;
import static dev.streamhouse.storage.types.DataTypes.BINARY;
import static dev.streamhouse.storage.types.DataTypes.BOOLEAN;
import static dev.streamhouse.storage.types.DataTypes.BYTES;
import static dev.streamhouse.storage.types.DataTypes.CHAR;
import static dev.streamhouse.storage.types.DataTypes.DATE;
import static dev.streamhouse.storage.types.DataTypes.DECIMAL;
import static dev.streamhouse.storage.types.DataTypes.DOUBLE;
import static dev.streamhouse.storage.types.DataTypes.FIELD;
import static dev.streamhouse.storage.types.DataTypes.FLOAT;
import static dev.streamhouse.storage.types.DataTypes.INT;
import static dev.streamhouse.storage.types.DataTypes.MAP;
import static dev.streamhouse.storage.types.DataTypes.MULTISET;
import static dev.streamhouse.storage.types.DataTypes.ROW;
import static dev.streamhouse.storage.types.DataTypes.SMALLINT;
import static dev.streamhouse.storage.types.DataTypes.STRING;
import static dev.streamhouse.storage.types.DataTypes.TIME;
import static dev.streamhouse.storage.types.DataTypes.TIMESTAMP;
import static dev.streamhouse.storage.types.DataTypes.TIMESTAMP_LTZ;
import static dev.streamhouse.storage.types.DataTypes.TINYINT;
import static dev.streamhouse.storage.types.DataTypes.VARBINARY;
import static dev.streamhouse.storage.types.DataTypes.VARCHAR;
import static dev.streamhouse.storage.types.DataTypes.VARIANT;
import static org.assertj.core.api.Assertions.assertThat;

import dev.streamhouse.storage.data.BinaryString;
import dev.streamhouse.storage.data.Decimal;
import dev.streamhouse.storage.data.GenericArray;
import dev.streamhouse.storage.data.GenericMap;
import dev.streamhouse.storage.data.GenericRow;
import dev.streamhouse.storage.data.InternalRow;
import dev.streamhouse.storage.data.InternalRowUtils;
import dev.streamhouse.storage.data.Timestamp;
import dev.streamhouse.storage.data.columnar.ColumnarBatch;
import dev.streamhouse.storage.fs.LocalFileIO;
import dev.streamhouse.storage.fs.Path;
import dev.streamhouse.storage.options.Options;
import dev.streamhouse.storage.predicate.Predicate;
import dev.streamhouse.storage.predicate.PredicateBuilder;
import dev.streamhouse.storage.reader.ColumnarRecordReader;
import dev.streamhouse.storage.reader.ColumnarRowIterator;
import dev.streamhouse.storage.reader.RecordIterator;
import dev.streamhouse.storage.reader.RecordReader;
import dev.streamhouse.storage.types.ArrayType;
import dev.streamhouse.storage.types.DataType;
import dev.streamhouse.storage.types.DataTypeRoot;
import dev.streamhouse.storage.types.DecimalType;
import dev.streamhouse.storage.types.MapType;
import dev.streamhouse.storage.types.RowType;
import dev.streamhouse.storage.types.TimestampType;

import org.apache.hadoop.conf.Configuration;
import org.apache.parquet.HadoopReadOptions;
import org.apache.parquet.column.Encoding;
import org.apache.parquet.filter2.predicate.FilterPredicate;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.hadoop.metadata.BlockMetaData;
import org.apache.parquet.hadoop.metadata.ColumnChunkMetaData;
import org.apache.parquet.schema.MessageType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.io.IOException;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.stream.Stream;

/**
 * The columnar reader ({@link ParquetColumnarReader}) against the row-assembly reader it replaced
 * ({@link ParquetRowReader}, kept in test scope): the same files, read types and filters must give the
 * same rows in the same order, for every type with and without nulls, dictionary and plain pages (and
 * a dictionary that falls back to plain mid-chunk), v1 and v2 pages (v2 brings delta and RLE
 * encodings, which the columnar reader decodes through parquet-mr's value readers), many pages and
 * row groups, projections, missing and renamed columns, and filters that skip row groups and pages.
 */
class ParquetColumnarReaderTest {
    private static final RowType ALL_TYPES = new RowType(List.of(
            FIELD(0, "bool", BOOLEAN()),
            FIELD(1, "tiny", TINYINT()),
            FIELD(2, "small", SMALLINT()),
            FIELD(3, "i", INT()),
            FIELD(4, "big", BIGINT()),
            FIELD(5, "f", FLOAT()),
            FIELD(6, "d", DOUBLE()),
            FIELD(7, "date", DATE()),
            FIELD(8, "time", TIME(3)),
            FIELD(9, "ch", CHAR(5)),
            FIELD(10, "vc", VARCHAR(20)),
            FIELD(11, "s", STRING()),
            FIELD(12, "bin", BINARY(4)),
            FIELD(13, "vb", VARBINARY(10)),
            FIELD(14, "bytes", BYTES()),
            FIELD(15, "dec9", DECIMAL(9, 2)),
            FIELD(16, "dec18", DECIMAL(18, 4)),
            FIELD(17, "dec38", DECIMAL(38, 10)),
            FIELD(18, "dec19", DECIMAL(19, 0)),
            FIELD(19, "ts3", TIMESTAMP(3)),
            FIELD(20, "ts6", TIMESTAMP(6)),
            FIELD(21, "ts9", TIMESTAMP(9)),
            FIELD(22, "ltz3", TIMESTAMP_LTZ(3)),
            FIELD(23, "ltz6", TIMESTAMP_LTZ(6)),
            FIELD(24, "ltz9", TIMESTAMP_LTZ(9)),
            FIELD(25, "arr_row", ARRAY(ROW(FIELD(40, "x", INT()), FIELD(41, "y", STRING())))),
            FIELD(26, "map_arr", MAP(STRING().notNull(), ARRAY(INT()))),
            FIELD(27, "mset", MULTISET(STRING().notNull())),
            FIELD(28, "row_row", ROW(FIELD(42, "a", INT()),
                    FIELD(43, "inner", ROW(FIELD(44, "b", STRING()), FIELD(45, "c", ARRAY(BIGINT())))))),
            FIELD(29, "variant", VARIANT()),
            FIELD(30, "req", INT().notNull()),
            FIELD(31, "req_s", STRING().notNull()),
            FIELD(32, "req_d", DOUBLE().notNull()),
            FIELD(33, "req_ts", TIMESTAMP(6).notNull())));

    private static final ParquetFileFormat FORMAT = new ParquetFileFormat();

    @TempDir
    java.nio.file.Path tmp;

    private Path file(String name) {
        return new Path(tmp.resolve(name).toString());
    }

    /** Writer settings that produce the page and encoding layouts the reader must handle. */
    static Stream<Arguments> layouts() {
        return Stream.of(
                Arguments.of("dictionary", Options.of()),
                Arguments.of("plain", Options.of("parquet.enable.dictionary", "false")),
                Arguments.of("dictionary-fallback", Options.of("parquet.dictionary.page.size", "4096",
                        "parquet.page.row.count.limit", "100")),
                Arguments.of("many-pages", Options.of("parquet.page.row.count.limit", "97", "parquet.page.size", "4096")),
                Arguments.of("many-row-groups", Options.of("parquet.block.size", "32768",
                        "parquet.page.row.count.limit", "300")),
                Arguments.of("v2-pages", Options.of("parquet.writer.version", "v2", "parquet.page.row.count.limit", "500")),
                Arguments.of("v2-plain", Options.of("parquet.writer.version", "v2", "parquet.enable.dictionary", "false",
                        "parquet.page.row.count.limit", "700")));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("layouts")
    void everyTypeReadsAsTheRowReaderReadsIt(String layout, Options options) throws Exception {
        Path path = file(layout + ".parquet");
        List<GenericRow> rows = randomRows(ALL_TYPES, 3_000, new Random(layout.hashCode()), 40);
        ParquetTestFiles.write(path, ALL_TYPES, options, rows);

        List<GenericRow> columnar = readColumnar(path, ALL_TYPES, null);
        assertThat(columnar).hasSize(rows.size());
        for (int i = 0; i < rows.size(); i++) {
            assertThat(columnar.get(i)).as("row %s", i).isEqualTo(rows.get(i));
        }
        assertThat(columnar).isEqualTo(readReference(path, ALL_TYPES, null));
    }

    @Test
    void layoutsReallyDifferInPagesEncodingsAndRowGroups() throws Exception {
        Map<String, Set<Encoding>> encodings = new LinkedHashMap<>();
        Map<String, Integer> rowGroups = new LinkedHashMap<>();
        for (Arguments layout : layouts().toList()) {
            String name = (String) layout.get()[0];
            Path path = file("probe-" + name + ".parquet");
            // the rows everyTypeReadsAsTheRowReaderReadsIt writes with this layout
            ParquetTestFiles.write(path, ALL_TYPES, (Options) layout.get()[1],
                    randomRows(ALL_TYPES, 3_000, new Random(name.hashCode()), 40));
            Set<Encoding> seen = new HashSet<>();
            for (BlockMetaData block : ParquetTestFiles.footer(path).getBlocks()) {
                for (ColumnChunkMetaData chunk : block.getColumns()) {
                    seen.addAll(chunk.getEncodings());
                }
            }
            encodings.put(name, seen);
            rowGroups.put(name, ParquetTestFiles.footer(path).getBlocks().size());
        }
        assertThat(encodings.get("dictionary")).contains(Encoding.PLAIN_DICTIONARY);
        assertThat(encodings.get("plain")).doesNotContain(Encoding.PLAIN_DICTIONARY, Encoding.RLE_DICTIONARY);
        assertThat(encodings.get("dictionary-fallback")).contains(Encoding.PLAIN_DICTIONARY, Encoding.PLAIN);
        assertThat(encodings.get("v2-pages")).contains(Encoding.RLE_DICTIONARY);
        assertThat(encodings.get("v2-plain")).contains(Encoding.DELTA_BINARY_PACKED);
        assertThat(rowGroups.get("many-row-groups")).isGreaterThan(1);
        assertThat(rowGroups.get("dictionary")).isEqualTo(1);
    }

    @Test
    void batchesNeverSpanRowGroupsAndHoldAtMostTheBatchSize() throws Exception {
        RowType type = new RowType(List.of(FIELD(0, "id", BIGINT().notNull()), FIELD(1, "s", STRING())));
        List<GenericRow> rows = new ArrayList<>();
        for (int i = 0; i < 20_000; i++) {
            rows.add(GenericRow.of((long) i, BinaryString.fromString("value " + i)));
        }
        Path path = file("groups.parquet");
        ParquetTestFiles.write(path, type, Options.of("parquet.block.size", "65536"), rows);
        List<BlockMetaData> blocks = ParquetTestFiles.footer(path).getBlocks();
        assertThat(blocks).hasSizeGreaterThan(2);

        List<Integer> sizes = new ArrayList<>();
        long expectedPosition = 0;
        try (ColumnarRecordReader reader = FORMAT.readerFactory(type, null)
                .createReader(LocalFileIO.INSTANCE, path, LocalFileIO.INSTANCE.size(path))) {
            ColumnarRowIterator batch;
            while ((batch = reader.readBatch()) != null) {
                ColumnarBatch b = batch.batch();
                sizes.add(b.numRows());
                for (int r = 0; r < b.numRows(); r++) {
                    assertThat(b.rowPosition(r)).isEqualTo(expectedPosition);
                    assertThat(b.vector(0).getLong(r)).isEqualTo(expectedPosition);
                    expectedPosition++;
                }
                batch.releaseBatch();
            }
        }
        assertThat(expectedPosition).isEqualTo(rows.size());
        assertThat(sizes).allSatisfy(n -> assertThat(n).isBetween(1, ParquetReaderFactory.BATCH_SIZE));
        List<Integer> expected = new ArrayList<>();
        for (BlockMetaData block : blocks) {
            long left = block.getRowCount();
            while (left > 0) {
                int n = (int) Math.min(left, ParquetReaderFactory.BATCH_SIZE);
                expected.add(n);
                left -= n;
            }
        }
        assertThat(sizes).isEqualTo(expected);
    }

    @Test
    void projectionsReorderSubsetAndMissingColumnsAsTheRowReaderDoes() throws Exception {
        Path path = file("projection.parquet");
        List<GenericRow> rows = randomRows(ALL_TYPES, 2_000, new Random(7), 10);
        ParquetTestFiles.write(path, ALL_TYPES, Options.of("parquet.page.row.count.limit", "250"), rows);

        List<RowType> readTypes = List.of(
                ALL_TYPES.project(new int[] {11, 4, 0}),
                ALL_TYPES.project(new int[] {28, 3}),
                ALL_TYPES.project(new int[] {25}),
                ALL_TYPES.project(new int[] {31, 30, 29, 21, 17}),
                // a renamed column (not in the file by this name) reads as null, next to real ones
                new RowType(List.of(FIELD(3, "i", INT()), FIELD(99, "renamed_away", STRING()),
                        FIELD(4, "big", BIGINT()))),
                // only absent columns: every row, all null
                new RowType(List.of(FIELD(98, "nope", INT()), FIELD(99, "nada", STRING()))),
                // a nested ROW read with a field the file lacks and without one it has
                new RowType(List.of(FIELD(28, "row_row", ROW(FIELD(43, "inner",
                        ROW(FIELD(45, "c", ARRAY(BIGINT())), FIELD(46, "added", INT()))))))));
        for (RowType readType : readTypes) {
            List<GenericRow> columnar = readColumnar(path, readType, null);
            assertThat(columnar).as("read type %s", readType).hasSize(rows.size())
                    .isEqualTo(readReference(path, readType, null));
        }
        // spot check against the written values
        List<GenericRow> some = readColumnar(path, ALL_TYPES.project(new int[] {11, 4, 0}), null);
        for (int i = 0; i < rows.size(); i++) {
            GenericRow w = rows.get(i);
            assertThat(some.get(i)).isEqualTo(GenericRow.of(w.field(11), w.field(4), w.field(0)));
        }
    }

    @Test
    void filtersSkipTheSameRowGroupsAndPagesAsTheRowReader() throws Exception {
        RowType type = new RowType(List.of(
                FIELD(0, "id", BIGINT().notNull()),
                FIELD(1, "name", STRING()),
                FIELD(2, "bucket", INT()),
                FIELD(3, "d", DOUBLE()),
                FIELD(4, "tags", ARRAY(STRING())),
                FIELD(5, "flag", BOOLEAN())));
        List<GenericRow> rows = new ArrayList<>();
        Random random = new Random(3);
        for (int i = 0; i < 30_000; i++) {
            rows.add(GenericRow.of((long) i,
                    i % 13 == 0 ? null : BinaryString.fromString(String.format("n%06d", i)),
                    i < 800 ? null : i / 4_000,
                    random.nextDouble(),
                    i % 5 == 0 ? null : new GenericArray(new Object[] {BinaryString.fromString("t" + (i % 3))}),
                    i % 3 == 0 ? null : i % 2 == 0));
        }
        Path path = file("filtered.parquet");
        // pages of 333 rows in each column; two row groups at most 3 pages apart in size
        ParquetTestFiles.write(path, type, Options.of("parquet.page.row.count.limit", "333",
                "parquet.block.size", "262144"), rows);
        assertThat(ParquetTestFiles.footer(path).getBlocks()).hasSizeGreaterThan(1);
        PredicateBuilder pb = new PredicateBuilder(type);
        List<Predicate> filters = List.of(
                pb.equal(0, 12_345L),
                pb.between(0, 4_000L, 4_700L),
                PredicateBuilder.or(pb.lessThan(0, 100L), pb.greaterOrEqual(0, 29_950L)),
                pb.in(0, List.of(5L, 6_000L, 17_777L, 29_999L)),
                pb.equal(1, BinaryString.fromString("n020000")),
                pb.isNull(2),
                pb.equal(2, 3),
                PredicateBuilder.and(pb.greaterThan(0, 1_000L), pb.equal(2, 1)),
                pb.greaterThan(3, 2.0), // no page index for doubles: reads everything
                pb.equal(0, -1L));
        for (Predicate filter : filters) {
            List<GenericRow> columnar = readColumnar(path, type, filter);
            assertThat(columnar).as("filter %s", filter).isEqualTo(readReference(path, type, filter));
            // only whole pages are skipped: every matching row is still there
            long matching = rows.stream().filter(filter::test).count();
            assertThat(columnar.stream().filter(filter::test).count()).as("matches of %s", filter).isEqualTo(matching);
        }
        // page skipping really happened, and with different page boundaries per column
        assertThat(readColumnar(path, type, pb.equal(0, 12_345L)).size()).isLessThan(2_000);
        // a projection that reads the filter column and a nested one, with page skipping
        RowType projected = type.project(new int[] {4, 0});
        Predicate onProjected = new PredicateBuilder(projected).between(1, 9_000L, 9_100L);
        assertThat(readColumnar(path, projected, onProjected)).isEqualTo(readReference(path, projected, onProjected))
                .isNotEmpty().hasSizeLessThan(2_000);
    }

    @Test
    void batchesOfSkippedPagesCarryTheFilePositionsOfTheirRows() throws Exception {
        RowType type = new RowType(List.of(FIELD(0, "id", BIGINT().notNull())));
        List<GenericRow> rows = new ArrayList<>();
        for (int i = 0; i < 10_000; i++) {
            rows.add(GenericRow.of((long) i));
        }
        Path path = file("positions.parquet");
        ParquetTestFiles.write(path, type, Options.of("parquet.page.row.count.limit", "100"), rows);
        Predicate filter = PredicateBuilder.or(new PredicateBuilder(type).between(0, 150L, 160L),
                new PredicateBuilder(type).between(0, 7_050L, 7_060L));
        List<Long> positions = new ArrayList<>();
        try (ColumnarRecordReader reader = FORMAT.readerFactory(type, filter)
                .createReader(LocalFileIO.INSTANCE, path, LocalFileIO.INSTANCE.size(path))) {
            ColumnarRowIterator batch;
            while ((batch = reader.readBatch()) != null) {
                ColumnarBatch b = batch.batch();
                for (int r = 0; r < b.numRows(); r++) {
                    assertThat(b.rowPosition(r)).isEqualTo(b.vector(0).getLong(r));
                    positions.add(b.rowPosition(r));
                }
                batch.releaseBatch();
            }
        }
        List<Long> expected = new ArrayList<>();
        for (long p = 100; p < 200; p++) {
            expected.add(p);
        }
        for (long p = 7_000; p < 7_100; p++) {
            expected.add(p);
        }
        assertThat(positions).isEqualTo(expected);
    }

    @Test
    void heldBatchesKeepTheirValuesWhenTheNextIsRead() throws Exception {
        RowType type = new RowType(List.of(FIELD(0, "id", BIGINT().notNull()), FIELD(1, "s", STRING())));
        List<GenericRow> rows = new ArrayList<>();
        for (int i = 0; i < 5_000; i++) {
            rows.add(GenericRow.of((long) i, BinaryString.fromString("s" + i)));
        }
        Path path = file("held.parquet");
        ParquetTestFiles.write(path, type, Options.of(), rows);
        List<ColumnarRowIterator> held = new ArrayList<>();
        try (ColumnarRecordReader reader = FORMAT.readerFactory(type, null)
                .createReader(LocalFileIO.INSTANCE, path, LocalFileIO.INSTANCE.size(path))) {
            ColumnarRowIterator batch;
            while ((batch = reader.readBatch()) != null) {
                held.add(batch); // never released
            }
        }
        List<GenericRow> read = new ArrayList<>();
        for (ColumnarRowIterator batch : held) {
            InternalRow row;
            while ((row = batch.next()) != null) {
                read.add(InternalRowUtils.copyToGeneric(row, type));
            }
        }
        assertThat(read).isEqualTo(rows);
    }

    // ---- reading ----

    private static List<GenericRow> readColumnar(Path path, RowType readType, Predicate filter) throws IOException {
        try (RecordReader<InternalRow> reader = FORMAT.readerFactory(readType, filter)
                .createReader(LocalFileIO.INSTANCE, path, LocalFileIO.INSTANCE.size(path))) {
            return drain(reader, readType);
        }
    }

    /** The rows parquet-mr's record assembly with our converters gives, with the same row group and page filters. */
    private static List<GenericRow> readReference(Path path, RowType readType, Predicate filter) throws IOException {
        ParquetFileReader reader = new ParquetFileReader(
                new ParquetInputFile(LocalFileIO.INSTANCE, path, LocalFileIO.INSTANCE.size(path)),
                HadoopReadOptions.builder(new Configuration(false)).useStatsFilter(false).useDictionaryFilter(false)
                        .useRecordFilter(false).useColumnIndexFilter(false).useBloomFilter(false).build());
        MessageType fileSchema = reader.getFileMetaData().getSchema();
        MessageType requested = ParquetReadSchema.requestedSchema(readType, fileSchema, path);
        reader.setRequestedSchema(requested);
        RowGroupFilter rowGroups = filter == null ? null : new RowGroupFilter(readType, filter, fileSchema);
        FilterPredicate pages = ParquetFilters.of(filter, readType, fileSchema).orElse(null);
        try (RecordReader<InternalRow> rows = new ParquetRowReader(reader, path, requested,
                new RowMaterializer(readType, requested), readType.fieldCount(), rowGroups, pages)) {
            return drain(rows, readType);
        }
    }

    private static List<GenericRow> drain(RecordReader<InternalRow> reader, RowType type) throws IOException {
        List<GenericRow> out = new ArrayList<>();
        RecordIterator<InternalRow> batch;
        while ((batch = reader.readBatch()) != null) {
            InternalRow row;
            while ((row = batch.next()) != null) {
                out.add(InternalRowUtils.copyToGeneric(row, type));
            }
            batch.releaseBatch();
        }
        return out;
    }

    // ---- random data ----

    /**
     * Random rows; about one value in ten of a nullable type is null. Values of the first third of the
     * rows, and of every other row after that, are drawn from {@code distinct} seeds per column
     * (dictionary friendly); the others are drawn freely, which makes dictionaries overflow midway with
     * small dictionary pages.
     */
    static List<GenericRow> randomRows(RowType type, int n, Random random, int distinct) {
        List<GenericRow> rows = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            Object[] values = new Object[type.fieldCount()];
            for (int f = 0; f < values.length; f++) {
                Random source = i < n / 3 || i % 2 == 0 ? new Random(f * 1_000L + random.nextInt(distinct)) : random;
                values[f] = value(type.typeAt(f), source, random, 0);
            }
            rows.add(GenericRow.of(values));
        }
        return rows;
    }

    private static Object value(DataType type, Random r, Random nulls, int depth) {
        if (type.isNullable() && nulls.nextInt(10) == 0) {
            return null;
        }
        switch (type.root()) {
            case BOOLEAN:
                return r.nextBoolean();
            case TINYINT:
                return (byte) r.nextInt();
            case SMALLINT:
                return (short) r.nextInt();
            case INTEGER:
                return r.nextInt();
            case DATE:
                return r.nextInt(200_000) - 100_000;
            case TIME_WITHOUT_TIME_ZONE:
                return r.nextInt(86_400_000);
            case BIGINT:
                return r.nextLong();
            case FLOAT:
                return r.nextFloat() * 1e6f - 5e5f;
            case DOUBLE:
                return r.nextGaussian() * 1e9;
            case CHAR:
            case VARCHAR: {
                int max = type.root() == DataTypeRoot.CHAR ? 5 : 20;
                return BinaryString.fromString(text(r, r.nextInt(max + 1)));
            }
            case BINARY: {
                byte[] b = new byte[4];
                r.nextBytes(b);
                return b;
            }
            case VARBINARY: {
                byte[] b = new byte[r.nextInt(11)];
                r.nextBytes(b);
                return b;
            }
            case DECIMAL: {
                DecimalType d = (DecimalType) type;
                BigInteger unscaled = new BigInteger(d.precision() * 3, r).mod(BigInteger.TEN.pow(d.precision()));
                if (r.nextBoolean()) {
                    unscaled = unscaled.negate();
                }
                return Decimal.fromBigDecimal(new BigDecimal(unscaled, d.scale()), d.precision(), d.scale());
            }
            case TIMESTAMP_WITHOUT_TIME_ZONE:
            case TIMESTAMP_WITH_LOCAL_TIME_ZONE: {
                int precision = ((TimestampType) type).precision();
                long millis = r.nextLong() % 8_000_000_000_000L;
                int nanos = precision <= 3 ? 0 : precision <= 6 ? r.nextInt(1_000) * 1_000 : r.nextInt(1_000_000);
                return Timestamp.fromEpochMillis(millis, nanos);
            }
            case ARRAY: {
                DataType element = ((ArrayType) type).elementType();
                Object[] elements = new Object[depth > 2 ? 0 : r.nextInt(4)];
                for (int i = 0; i < elements.length; i++) {
                    elements[i] = value(element, r, nulls, depth + 1);
                }
                return new GenericArray(elements);
            }
            case MULTISET: {
                DataType element = ((ArrayType) type).elementType();
                Map<Object, Object> counts = new LinkedHashMap<>();
                for (int i = r.nextInt(3); i > 0; i--) {
                    counts.put(value(element, r, nulls, depth + 1), 1 + r.nextInt(5));
                }
                return new GenericMap(counts);
            }
            case MAP: {
                MapType m = (MapType) type;
                Map<Object, Object> entries = new LinkedHashMap<>();
                for (int i = r.nextInt(3); i > 0; i--) {
                    entries.put(value(m.keyType(), r, nulls, depth + 1), value(m.valueType(), r, nulls, depth + 1));
                }
                return new GenericMap(entries);
            }
            case ROW: {
                RowType row = (RowType) type;
                Object[] fields = new Object[row.fieldCount()];
                for (int i = 0; i < fields.length; i++) {
                    fields[i] = value(row.typeAt(i), r, nulls, depth + 1);
                }
                return GenericRow.of(fields);
            }
            case VARIANT:
                return VariantBytes.pack(new byte[] {0x0C, (byte) r.nextInt()}, new byte[] {1, 0, 0});
            default:
                throw new IllegalArgumentException("no random values of " + type);
        }
    }

    private static String text(Random r, int length) {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < length; i++) {
            int kind = r.nextInt(10);
            sb.append(kind == 0 ? 'é' : kind == 1 ? '字' : (char) ('a' + r.nextInt(26)));
        }
        return sb.toString();
    }
}
