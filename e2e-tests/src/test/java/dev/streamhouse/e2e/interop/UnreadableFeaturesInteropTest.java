package dev.streamhouse.e2e.interop;

import dev.streamhouse.e2e.oracle.CanonicalRow;
import dev.streamhouse.e2e.oracle.TableSpec;
import dev.streamhouse.storage.UnsupportedTableFeatureException;
import dev.streamhouse.storage.table.Table;
import org.apache.paimon.catalog.Identifier;
import org.apache.paimon.schema.SchemaChange;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Tables Apache Paimon 1.3.1 writes with features this store does not have are refused with a clear
 * error naming the table and the feature, never read with rows Paimon would not return.
 */
class UnreadableFeaturesInteropTest extends InteropTestBase {
    private static final String DB = "f";
    private static final TableSpec PK = TableSpec.of("id", "INT", "v", "STRING", "n", "BIGINT")
            .withPrimaryKeys("id").withOption("bucket", "1");

    UnreadableFeaturesInteropTest() {
        super(DB);
    }

    private static CanonicalRow row(int id, String v, long n) {
        return CanonicalRow.of(id, v, n);
    }

    private Table ourTable(String name) {
        return ours.table(DB, name);
    }

    @Test
    void deletionVectorsAreUsedButRefusedOnceTheOptionWasTurnedOff() throws Exception {
        paimon.createTable(DB, "dv", PK.withOption("deletion-vectors.enabled", "true"));
        paimon.write(DB, "dv", List.of(row(1, "a", 1), row(2, "b", 2)));
        paimon.compactAll(DB, "dv", true);
        paimon.write(DB, "dv", List.of(row(1, "a2", 10)));
        paimon.compactAll(DB, "dv", false);
        assertThat(paimon.readAll(DB, "dv")).containsExactlyInAnyOrder(row(1, "a2", 10), row(2, "b", 2));
        assertThat(ours.readAll(DB, "dv")).containsExactlyInAnyOrder(row(1, "a2", 10), row(2, "b", 2));
        ours.write(DB, "dv", List.of(row(3, "c", 3)));
        assertThat(paimon.readAll(DB, "dv")).containsExactlyInAnyOrder(row(1, "a2", 10), row(2, "b", 2), row(3, "c", 3));

        // Paimon lets the option be turned off, but the snapshot keeps its deletion vectors, which Paimon
        // then ignores: a merge of the files without them is not exact for every merge engine.
        paimon.catalog().alterTable(Identifier.create(DB, "dv"),
                SchemaChange.setOption("deletion-vectors.enabled", "false"), false);
        assertThatThrownBy(() -> ours.readAll(DB, "dv"))
                .isInstanceOf(UnsupportedTableFeatureException.class)
                .hasMessageContaining("Cannot read table f.dv: it has deletion vectors (index file")
                .hasMessageContaining("but option 'deletion-vectors.enabled' is not 'true'");
        assertThatThrownBy(() -> ours.write(DB, "dv", List.of(row(3, "c", 3))))
                .isInstanceOf(UnsupportedTableFeatureException.class)
                .hasMessageContaining("Cannot write to table f.dv: it has deletion vectors")
                .hasMessageContaining("turn the option back on (with Paimon) to write the table");
    }

    @Test
    void dataFilesInOtherFormatsAreRefusedNamingTheFile() {
        for (String format : List.of("orc", "avro")) {
            String name = "t_" + format;
            paimon.createTable(DB, name, PK.withOption("file.format", format));
            paimon.write(DB, name, List.of(row(1, "a", 1)));
            assertThatThrownBy(() -> ours.readAll(DB, name))
                    .as(format).isInstanceOf(UnsupportedTableFeatureException.class)
                    .hasMessageContaining("Cannot read table f." + name + ": data file ")
                    .hasMessageContaining("." + format + " is in format '" + format + "'");
        }
    }

    @Test
    void aSnapshotWithMembersOfANewerPaimonIsRefused() throws Exception {
        paimon.createTable(DB, "newer", PK);
        paimon.write(DB, "newer", List.of(row(1, "a", 1)));
        Path snapshot = paimon.tablePath(DB, "newer").resolve("snapshot").resolve("snapshot-1");
        String json = Files.readString(snapshot);
        Files.writeString(snapshot, json.replaceFirst("\\{", "{\n  \"rowLineage\" : true,"));
        assertThatThrownBy(() -> ours.readAll(DB, "newer"))
                .isInstanceOf(UnsupportedTableFeatureException.class)
                .hasMessageContaining("Cannot read snapshot file")
                .hasMessageContaining("snapshot-1")
                .hasMessageContaining("[rowLineage]");
    }
}
