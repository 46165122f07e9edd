package dev.streamhouse.storage.stats;

import dev.streamhouse.storage.data.BinaryString;
import dev.streamhouse.storage.format.FieldStats;
import dev.streamhouse.storage.options.Options;
import dev.streamhouse.storage.types.DataField;
import dev.streamhouse.storage.types.DataTypes;
import dev.streamhouse.storage.types.RowType;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class FileStatsBuilderTest {
    private static final RowType TYPE = new RowType(List.of(
            new DataField(0, "id", DataTypes.INT()),
            new DataField(1, "name", DataTypes.STRING()),
            new DataField(2, "tags", DataTypes.ARRAY(DataTypes.INT())),
            new DataField(3, "bin", DataTypes.BYTES())));

    private static FieldStats[] raw(String minName, String maxName) {
        return new FieldStats[] {
            new FieldStats(1, 9, 0L),
            new FieldStats(BinaryString.fromString(minName), BinaryString.fromString(maxName), 2L),
            FieldStats.UNKNOWN,
            new FieldStats(null, null, 1L)
        };
    }

    @Test
    void truncatesLongStringsAndRoundsTheMaximumUp() {
        FileStatsBuilder b = FileStatsBuilder.fromOptions(TYPE, new Options());
        FileStatsBuilder.Result r = b.build(raw("a-much-longer-name-than-sixteen-chars", "a-much-longer-name-than-sixteen-chars"));
        assertThat(r.stats().minValues().stringAt(1).toString()).isEqualTo("a-much-longer-na");
        assertThat(r.stats().maxValues().stringAt(1).toString()).isEqualTo("a-much-longer-nb");
    }

    @Test
    void denseModeLeavesOutColumnsWithoutStatistics() {
        FileStatsBuilder.Result r = FileStatsBuilder.fromOptions(TYPE, new Options()).build(raw("a", "b"));
        assertThat(r.columns()).containsExactly("id", "name", "bin");
        assertThat(r.stats().minValues().arity()).isEqualTo(3);
        assertThat(r.stats().minValues().isNullAt(2)).isTrue();
        assertThat(r.stats().nullCounts()).containsExactly(0L, 2L, 1L);
    }

    @Test
    void allColumnsKeptGivesNullColumnList() {
        RowType flat = TYPE.project(new int[] {0, 1});
        FileStatsBuilder.Result r = FileStatsBuilder.fromOptions(flat, new Options())
                .build(new FieldStats[] {new FieldStats(1, 2, 0L), new FieldStats(null, null, 3L)});
        assertThat(r.columns()).isNull();
    }

    @Test
    void perColumnModesAndKeepFirstN() {
        Options o = Options.of("fields.name.stats-mode", "counts", "metadata.stats-keep-first-n-columns", "2");
        FileStatsBuilder.Result r = FileStatsBuilder.fromOptions(TYPE, o).build(raw("a", "b"));
        assertThat(r.columns()).containsExactly("id", "name");
        assertThat(r.stats().minValues().isNullAt(1)).isTrue();
        assertThat(r.stats().nullCounts()).containsExactly(0L, 2L);
    }

    @Test
    void sparseModeKeepsEveryColumn() {
        Options o = Options.of("metadata.stats-dense-store", "false", "metadata.stats-mode", "full");
        FileStatsBuilder.Result r = FileStatsBuilder.fromOptions(TYPE, o).build(raw("abc", "abd"));
        assertThat(r.columns()).isNull();
        assertThat(r.stats().minValues().arity()).isEqualTo(4);
        assertThat(r.stats().nullCounts()[2]).isNull();
    }

    @Test
    void badModeNamesTheOption() {
        assertThatThrownBy(() -> FileStatsBuilder.fromOptions(TYPE, Options.of("fields.id.stats-mode", "most")))
                .hasMessageContaining("fields.id.stats-mode").hasMessageContaining("most");
    }

    @Test
    void maxThatCannotBeRoundedUpBecomesUnknown() {
        String max = new StringBuilder().appendCodePoint(Character.MAX_CODE_POINT).append("zzzzzzzzzzzzzzzzzz").toString();
        assertThat(StringTruncation.truncateMax(BinaryString.fromString(max), 1)).isNull();
        assertThat(StringTruncation.truncateMax(BinaryString.fromString("ab\uFFFFc"), 3).toString()).isEqualTo("ab" + new String(Character.toChars(0x10000)));
    }
}
