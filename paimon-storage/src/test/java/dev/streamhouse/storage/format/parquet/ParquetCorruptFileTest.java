package dev.streamhouse.storage.format.parquet;

import static dev.streamhouse.storage.types.DataTypes.BIGINT;
import static dev.streamhouse.storage.types.DataTypes.FIELD;
import static dev.streamhouse.storage.types.DataTypes.STRING;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.streamhouse.storage.data.BinaryString;
import dev.streamhouse.storage.data.GenericRow;
import dev.streamhouse.storage.fs.LocalFileIO;
import dev.streamhouse.storage.fs.Path;
import dev.streamhouse.storage.options.Options;
import dev.streamhouse.storage.types.RowType;

import org.apache.parquet.hadoop.metadata.ColumnChunkMetaData;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

class ParquetCorruptFileTest {
    private static final RowType TYPE = new RowType(List.of(FIELD(0, "id", BIGINT()), FIELD(1, "s", STRING())));

    @TempDir
    java.nio.file.Path tmp;

    private Path good;
    private byte[] bytes;

    @BeforeEach
    void writeFile() throws Exception {
        List<GenericRow> rows = new ArrayList<>();
        for (int i = 0; i < 1_000; i++) {
            rows.add(GenericRow.of((long) i * 7919, BinaryString.fromString("row " + i)));
        }
        good = new Path(tmp.resolve("good.parquet").toString());
        ParquetTestFiles.write(good, TYPE, new Options(), rows);
        bytes = Files.readAllBytes(tmp.resolve("good.parquet"));
        assertThat(ParquetTestFiles.read(good, TYPE, null)).hasSize(1_000);
    }

    private Path copyWith(String name, byte[] content) throws IOException {
        Files.write(tmp.resolve(name), content);
        return new Path(tmp.resolve(name).toString());
    }

    private static void assertReadFailsNaming(Path file, long size) {
        assertThatThrownBy(() -> new ParquetFileFormat().readerFactory(TYPE, null)
                .createReader(LocalFileIO.INSTANCE, file, size)
                .forEachRemaining(r -> { }))
                .isInstanceOf(IOException.class)
                .hasMessageStartingWith("Cannot read Parquet file " + file + ": ");
    }

    @Test
    void truncatedFileFailsNamingTheFile() throws Exception {
        Path truncated = copyWith("truncated.parquet", Arrays.copyOf(bytes, bytes.length - 10));
        assertReadFailsNaming(truncated, bytes.length - 10);
    }

    @Test
    void fileShorterThanTheManifestSaysFailsNamingTheFile() throws Exception {
        Path truncated = copyWith("short.parquet", Arrays.copyOf(bytes, bytes.length / 2));
        assertReadFailsNaming(truncated, bytes.length);
    }

    @Test
    void notAParquetFileFailsNamingTheFile() throws Exception {
        Path garbage = copyWith("garbage.parquet", "definitely not parquet".getBytes());
        assertReadFailsNaming(garbage, 22);
        Path empty = copyWith("empty.parquet", new byte[0]);
        assertReadFailsNaming(empty, 0);
    }

    @Test
    void corruptPageFailsInsteadOfReturningGarbage() throws Exception {
        ColumnChunkMetaData chunk = ParquetTestFiles.footer(good).getBlocks().get(0).getColumns().get(0);
        // flip a byte in the middle of the first column chunk (page data, checked by the page CRC)
        for (long offset : new long[] {chunk.getStartingPos() + chunk.getTotalSize() / 2,
                chunk.getStartingPos() + chunk.getTotalSize() - 3}) {
            byte[] corrupt = bytes.clone();
            corrupt[(int) offset] ^= 0x5A;
            Path file = copyWith("corrupt-" + offset + ".parquet", corrupt);
            assertReadFailsNaming(file, corrupt.length);
        }
    }

    @Test
    void missingFileFailsNamingTheFile() {
        Path missing = new Path(tmp.resolve("missing.parquet").toString());
        assertReadFailsNaming(missing, 100);
    }
}
