package dev.streamhouse.storage.format.parquet;

import static dev.streamhouse.storage.types.DataTypes.ARRAY;
import static dev.streamhouse.storage.types.DataTypes.BIGINT;
import static dev.streamhouse.storage.types.DataTypes.DECIMAL;
import static dev.streamhouse.storage.types.DataTypes.FIELD;
import static dev.streamhouse.storage.types.DataTypes.INT;
import static dev.streamhouse.storage.types.DataTypes.MAP;
import static dev.streamhouse.storage.types.DataTypes.ROW;
import static dev.streamhouse.storage.types.DataTypes.STRING;
import static dev.streamhouse.storage.types.DataTypes.TIMESTAMP;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.streamhouse.storage.data.BinaryString;
import dev.streamhouse.storage.data.Decimal;
import dev.streamhouse.storage.data.GenericArray;
import dev.streamhouse.storage.data.GenericMap;
import dev.streamhouse.storage.data.GenericRow;
import dev.streamhouse.storage.data.Timestamp;
import dev.streamhouse.storage.fs.Path;
import dev.streamhouse.storage.options.Options;
import dev.streamhouse.storage.types.DataType;
import dev.streamhouse.storage.types.RowType;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.math.BigDecimal;
import java.util.List;
import java.util.Map;

class ParquetProjectionTest {
    private static final RowType FILE_TYPE = new RowType(List.of(
            FIELD(0, "a", INT()),
            FIELD(1, "b", STRING()),
            FIELD(2, "r", ROW(FIELD(3, "x", INT()), FIELD(4, "y", STRING()))),
            FIELD(5, "m", MAP(STRING(), ARRAY(INT()))),
            FIELD(6, "dec", DECIMAL(20, 2)),
            FIELD(7, "ts", TIMESTAMP(6))));

    @TempDir
    java.nio.file.Path tmp;

    private Path path;

    private static BinaryString str(String s) {
        return BinaryString.fromString(s);
    }

    @BeforeEach
    void writeFile() throws Exception {
        path = new Path(tmp.resolve("wide.parquet").toString());
        ParquetTestFiles.write(path, FILE_TYPE, new Options(), List.of(
                GenericRow.of(1, str("one"), GenericRow.of(10, str("ten")),
                        new GenericMap(Map.of(str("k"), new GenericArray(new Object[] {1, 2}))),
                        Decimal.fromBigDecimal(new BigDecimal("12.34"), 20, 2), Timestamp.fromMicros(1_000_001)),
                GenericRow.of(2, null, null, null, null, null)));
    }

    @Test
    void projectsReordersAndFillsMissingColumnsWithNull() throws Exception {
        RowType readType = new RowType(List.of(
                FIELD(1, "b", STRING()),
                FIELD(20, "added", BIGINT()),
                FIELD(0, "a", INT())));

        assertThat(ParquetTestFiles.read(path, readType, null)).containsExactly(
                GenericRow.of(str("one"), null, 1),
                GenericRow.of(null, null, 2));
    }

    @Test
    void nestedRowFieldsAreMatchedByNameToo() throws Exception {
        RowType readType = new RowType(List.of(FIELD(2, "r",
                ROW(FIELD(4, "y", STRING()), FIELD(21, "z", INT())))));

        assertThat(ParquetTestFiles.read(path, readType, null)).containsExactly(
                GenericRow.of(GenericRow.of(str("ten"), null)),
                GenericRow.of((Object) null));
    }

    @Test
    void nestedRowWithoutAnyKnownFieldStillKnowsWhenItIsNull() throws Exception {
        RowType readType = new RowType(List.of(FIELD(2, "r", ROW(FIELD(22, "new", INT())))));

        assertThat(ParquetTestFiles.read(path, readType, null)).containsExactly(
                GenericRow.of(GenericRow.of((Object) null)),
                GenericRow.of((Object) null));
    }

    @Test
    void readTypeWithoutAnyFileColumnYieldsNullRows() throws Exception {
        RowType readType = new RowType(List.of(FIELD(30, "ghost", INT())));
        assertThat(ParquetTestFiles.read(path, readType, null))
                .containsExactly(GenericRow.of((Object) null), GenericRow.of((Object) null));
        assertThat(ParquetTestFiles.read(path, new RowType(List.of()), null))
                .containsExactly(GenericRow.of(), GenericRow.of());
    }

    @Test
    void physicalTypeMismatchFailsNamingFileAndColumn() {
        assertMismatch(BIGINT(), "a");
        assertMismatch(DECIMAL(20, 3), "dec");
        assertMismatch(ARRAY(INT()), "b");
    }

    @Test
    void nestedMismatchNamesTheNestedColumn() {
        RowType readType = new RowType(List.of(FIELD(2, "r", ROW(FIELD(3, "x", STRING())))));
        assertThatThrownBy(() -> ParquetTestFiles.read(path, readType, null))
                .isInstanceOf(IOException.class)
                .hasMessageStartingWith("Cannot read Parquet file " + path + ": column 'r.x'");
    }

    private void assertMismatch(DataType readAs, String column) {
        RowType readType = new RowType(List.of(FIELD(0, column, readAs)));
        assertThatThrownBy(() -> ParquetTestFiles.read(path, readType, null))
                .isInstanceOf(IOException.class)
                .hasMessageStartingWith("Cannot read Parquet file " + path + ": column '" + column + "'")
                .hasMessageContaining(readAs.asSQLString());
    }
}
