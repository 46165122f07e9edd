package dev.streamhouse.storage.table.sink;

import dev.streamhouse.storage.data.BinaryRow;
import dev.streamhouse.storage.data.BinaryString;
import dev.streamhouse.storage.data.GenericRow;
import dev.streamhouse.storage.data.InternalRow;
import dev.streamhouse.storage.fs.LocalFileIO;
import dev.streamhouse.storage.fs.Path;
import dev.streamhouse.storage.schema.Schema;
import dev.streamhouse.storage.table.FileStoreTable;
import dev.streamhouse.storage.table.source.DataSplit;
import dev.streamhouse.storage.table.source.ReadBuilder;
import dev.streamhouse.storage.testutils.TestTables;
import dev.streamhouse.storage.types.DataTypes;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The extractor names the partition and bucket the writers put each row in. */
class RowKeyExtractorTest {
    @TempDir
    java.nio.file.Path tmp;

    private FileStoreTable table(boolean primaryKey, String... options) throws Exception {
        Schema.Builder b = Schema.newBuilder()
                .column("id", DataTypes.INT().notNull())
                .column("v", DataTypes.BIGINT())
                .column("dt", DataTypes.STRING().notNull())
                .partitionKeys("dt");
        if (primaryKey) {
            b.primaryKey("id", "dt");
        }
        for (int i = 0; i < options.length; i += 2) {
            b.option(options[i], options[i + 1]);
        }
        return TestTables.create(new LocalFileIO(), new Path(tmp.resolve("t").toString()), b.build());
    }

    private static List<InternalRow> rows(int n) {
        List<InternalRow> rows = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            rows.add(GenericRow.of(i * 7919 - 500, (long) i, BinaryString.fromString("day-" + (i % 3))));
        }
        return rows;
    }

    @ParameterizedTest
    @ValueSource(strings = {"pk", "pk-bucket-key-id", "append-id", "append-mod", "append-unaware"})
    void partitionAndBucketAreWhereTheWriterPutTheRow(String variant) throws Exception {
        FileStoreTable table;
        switch (variant) {
            case "pk":
                table = table(true, "bucket", "5");
                break;
            case "pk-bucket-key-id":
                table = table(true, "bucket", "5", "bucket-key", "id");
                break;
            case "append-id":
                table = table(false, "bucket", "5", "bucket-key", "v,id");
                break;
            case "append-mod":
                table = table(false, "bucket", "5", "bucket-key", "id", "bucket-function.type", "mod");
                break;
            default:
                table = table(false);
        }
        TestTables.write(table, rows(200));
        RowKeyExtractor keys = RowKeyExtractor.of(table.schema());
        assertThat(keys.bucketKnownFromRow()).isTrue();
        ReadBuilder rb = table.newReadBuilder();
        int checked = 0;
        java.util.Set<Integer> buckets = new java.util.HashSet<>();
        for (DataSplit split : rb.newScan().plan().splits()) {
            List<InternalRow> read = new ArrayList<>();
            rb.newRead().createReader(split).forEachRemaining(r ->
                    read.add(GenericRow.of(r.intAt(0), r.longAt(1), r.stringAt(2))));
            for (InternalRow row : read) {
                assertThat(keys.partition(row)).isEqualTo(split.partition());
                assertThat(keys.bucket(row)).as("bucket of id %s", row.intAt(0)).isEqualTo(split.bucket());
                buckets.add(split.bucket());
                checked++;
            }
        }
        assertThat(checked).isEqualTo(200);
        assertThat(buckets).hasSize(variant.equals("append-unaware") ? 1 : 5);
    }

    @Test
    void trimmedPrimaryKeyLeavesOutPartitionColumns() throws Exception {
        RowKeyExtractor keys = RowKeyExtractor.of(table(true, "bucket", "-1").schema());
        InternalRow row = rows(2).get(1);
        BinaryRow key = keys.trimmedPrimaryKey(row);
        assertThat(key.arity()).isEqualTo(1);
        assertThat(key.intAt(0)).isEqualTo(row.intAt(0));
        assertThat(keys.trimmedPrimaryKeyHash(row)).isEqualTo(key.formatHash());
        assertThat(keys.partition(row).stringAt(0).toString()).isEqualTo("day-1");
    }

    @Test
    void dynamicBucketsAreNotKnownFromTheRowAndAppendTablesHaveNoKey() throws Exception {
        RowKeyExtractor dynamic = RowKeyExtractor.of(table(true, "bucket", "-1").schema());
        assertThat(dynamic.bucketKnownFromRow()).isFalse();
        assertThatThrownBy(() -> dynamic.bucket(rows(1).get(0)))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("'bucket' = -1")
                .hasMessageContaining("trimmedPrimaryKeyHash");

        java.nio.file.Path other = tmp.resolve("append");
        FileStoreTable append = TestTables.create(new LocalFileIO(), new Path(other.toString()),
                TestTables.simpleSchema());
        RowKeyExtractor appendKeys = RowKeyExtractor.of(append.schema());
        assertThatThrownBy(() -> appendKeys.trimmedPrimaryKey(TestTables.row(1, "a", "d0")))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("no primary key");
    }

    @Test
    void anInvalidBucketFunctionIsRefusedWhenCreated() throws Exception {
        FileStoreTable table = table(false, "bucket", "2", "bucket-key", "id");
        var schema = table.schema();
        var withMod = new dev.streamhouse.storage.schema.TableSchema(schema.version(), schema.id(), schema.fields(),
                schema.highestFieldId(), schema.partitionKeys(), schema.primaryKeys(),
                java.util.Map.of("bucket", "2", "bucket-key", "dt", "bucket-function.type", "mod"), schema.comment(),
                schema.timeMillis());
        assertThatThrownBy(() -> RowKeyExtractor.of(withMod))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("'mod'");
    }
}
