package dev.streamhouse.e2e.interop;

import dev.streamhouse.e2e.oracle.CanonicalRow;
import dev.streamhouse.e2e.oracle.TableSpec;
import dev.streamhouse.storage.data.BinaryString;
import dev.streamhouse.storage.data.GenericRow;
import dev.streamhouse.storage.data.InternalRow;
import dev.streamhouse.storage.data.InternalRowUtils;
import dev.streamhouse.storage.lookup.LookupTable;
import dev.streamhouse.storage.table.Table;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Our lookup cache over tables Apache Paimon 1.3.1 writes: it loads Paimon's files and follows
 * Paimon's commits (upserts, deletes, compactions, an overwrite) as Paimon's own reads see them.
 */
class LookupTableInteropTest extends InteropTestBase {
    private static final String DB = "lookup";

    LookupTableInteropTest() {
        super(DB);
    }

    private static List<String> find(LookupTable cache, Object... key) {
        List<String> out = new ArrayList<>();
        for (InternalRow r : cache.lookup(GenericRow.of(key))) {
            out.add(InternalRowUtils.copyToGeneric(r, cache.outputType()).toString());
        }
        out.sort(null);
        return out;
    }

    private LookupTable open(Table table, int[] output, int[] keys) throws Exception {
        LookupTable cache = LookupTable.create(table, output, keys, null, new LookupTable.Settings(LookupTable.Store.DISK,
                Files.createTempDirectory(warehouse, "cache"), 16L << 20, Long.MAX_VALUE, 2));
        cache.open();
        return cache;
    }

    @Test
    void followsPaimonsUpsertsDeletesCompactionsAndOverwrites() throws Exception {
        paimon.createTable(DB, "dim", TableSpec.of("id", "INT NOT NULL", "name", "STRING", "region", "STRING")
                .withPrimaryKeys("id").withOption("bucket", "2"));
        paimon.write(DB, "dim", List.of(CanonicalRow.of(1, "a", "eu"), CanonicalRow.of(2, "b", "us"),
                CanonicalRow.of(3, "c", "eu")));
        Table dim = ours.table(DB, "dim");
        try (LookupTable byKey = open(dim, new int[] {0, 1}, new int[] {0});
                LookupTable byRegion = open(dim, new int[] {0}, new int[] {2})) {
            assertThat(find(byKey, 2)).containsExactly("+I(2, b)");
            assertThat(find(byRegion, BinaryString.fromString("eu"))).containsExactly("+I(1)", "+I(3)");

            paimon.write(DB, "dim", List.of(CanonicalRow.of(1, "a2", "us"),
                    CanonicalRow.ofKind(CanonicalRow.Kind.DELETE, 3, "c", "eu"), CanonicalRow.of(4, "d", "eu")));
            paimon.compactAll(DB, "dim", true);
            byKey.refresh();
            byRegion.refresh();
            assertThat(byKey.loads()).as("upserts, deletes and compactions are followed, not reloaded").isEqualTo(1);
            assertThat(find(byKey, 1)).containsExactly("+I(1, a2)");
            assertThat(find(byKey, 3)).isEmpty();
            assertThat(find(byRegion, BinaryString.fromString("eu"))).containsExactly("+I(4)");
            assertThat(find(byRegion, BinaryString.fromString("us"))).containsExactly("+I(1)", "+I(2)");

            paimon.overwrite(DB, "dim", Map.of(), List.of(CanonicalRow.of(9, "z", "eu")));
            byKey.refresh();
            assertThat(byKey.loads()).isEqualTo(2);
            assertThat(find(byKey, 1)).isEmpty();
            assertThat(find(byKey, 9)).containsExactly("+I(9, z)");
        }
    }

    @Test
    void loadsAndFollowsAPaimonAppendTable() throws Exception {
        paimon.createTable(DB, "events", TableSpec.of("id", "INT", "what", "STRING"));
        paimon.write(DB, "events", List.of(CanonicalRow.of(1, "one"), CanonicalRow.of(1, "uno")));
        try (LookupTable cache = open(ours.table(DB, "events"), new int[] {1}, new int[] {0})) {
            assertThat(find(cache, 1)).containsExactly("+I(one)", "+I(uno)");
            paimon.write(DB, "events", List.of(CanonicalRow.of(1, "eins"), CanonicalRow.of(2, "two")));
            cache.refresh();
            assertThat(find(cache, 1)).containsExactly("+I(eins)", "+I(one)", "+I(uno)");
            assertThat(find(cache, 2)).containsExactly("+I(two)");
        }
    }
}
