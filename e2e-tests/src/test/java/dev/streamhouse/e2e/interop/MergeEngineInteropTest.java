package dev.streamhouse.e2e.interop;

import static org.assertj.core.api.Assertions.assertThat;

import dev.streamhouse.e2e.oracle.Canon;
import dev.streamhouse.e2e.oracle.CanonicalRow;
import dev.streamhouse.e2e.oracle.CanonicalRow.Kind;
import dev.streamhouse.e2e.oracle.TableSpec;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.stream.Stream;

/**
 * Every merge engine between our store and Apache Paimon 1.3.1, both ways: one side creates and
 * writes a table (several commits, a partial compaction), the other reads it, continues it and
 * compacts it (partially, then fully), and after every step both read the same rows. Partial
 * updates carry NULLs; aggregation input carries retractions of earlier rows.
 */
class MergeEngineInteropTest extends InteropTestBase {
    private static final String DB = "engines";

    MergeEngineInteropTest() {
        super(DB);
    }

    static Stream<Arguments> engines() {
        return Stream.of(
                Arguments.of("partial-update", new String[] {"merge-engine", "partial-update"}),
                Arguments.of("partial-update with a sequence group", new String[] {"merge-engine", "partial-update",
                        "fields.s.sequence-group", "a,b"}),
                Arguments.of("partial-update with an aggregating group", new String[] {"merge-engine",
                        "partial-update", "fields.s.sequence-group", "a,c", "fields.a.aggregate-function", "sum",
                        "fields.c.aggregate-function", "max", "fields.c.ignore-retract", "true"}),
                Arguments.of("aggregation", new String[] {"merge-engine", "aggregation",
                        "fields.a.aggregate-function", "sum", "fields.c.aggregate-function", "max",
                        "fields.c.ignore-retract", "true", "fields.b.aggregate-function", "listagg",
                        "fields.b.ignore-retract", "true", "fields.s.ignore-retract", "true"}),
                Arguments.of("first-row", new String[] {"merge-engine", "first-row"}));
    }

    private static TableSpec spec(String[] options) {
        TableSpec spec = TableSpec.of("dt", "STRING", "id", "INT", "a", "INT", "b", "STRING", "s", "INT",
                "c", "BIGINT").withPartitionKeys("dt").withPrimaryKeys("dt", "id").withOption("bucket", "2");
        for (int i = 0; i < options.length; i += 2) {
            spec = spec.withOption(options[i], options[i + 1]);
        }
        return spec;
    }

    /** Random changes over 2 partitions x 25 keys; -U rows only for keys written before, when asked. */
    private static List<CanonicalRow> batch(Random random, int size, boolean retractions, Set<String> written) {
        List<CanonicalRow> out = new ArrayList<>();
        for (int i = 0; i < size; i++) {
            String dt = random.nextBoolean() ? "2026-12-01" : "2026-12-02";
            int id = random.nextInt(25);
            Integer a = random.nextInt(5) == 0 ? null : random.nextInt(100);
            String b = random.nextInt(4) == 0 ? null : "b" + random.nextInt(50);
            Integer s = random.nextInt(5) == 0 ? null : random.nextInt(20);
            Long c = random.nextInt(5) == 0 ? null : (long) random.nextInt(1000);
            boolean retract = retractions && written.contains(dt + id) && random.nextInt(5) == 0;
            out.add(CanonicalRow.ofKind(retract ? Kind.UPDATE_BEFORE : random.nextBoolean() ? Kind.INSERT
                    : Kind.UPDATE_AFTER, dt, id, a, b, s, c));
            written.add(dt + id);
        }
        return out;
    }

    private void assertBothRead(String step, String table) throws Exception {
        List<CanonicalRow> ourRows = ours.readAll(DB, table);
        Canon.assertSameRowsIgnoringKind(step, paimon.readAll(DB, table), ourRows);
        assertThat(ourRows).as(step + ": rows").isNotEmpty();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("engines")
    void paimonReadsContinuesAndCompactsOurTable(String name, String[] options) throws Exception {
        Random random = new Random(name.hashCode());
        Set<String> written = new HashSet<>();
        boolean retractions = options.length > 2;
        ours.createTable(DB, "ours", spec(options));
        for (int i = 0; i < 3; i++) {
            ours.write(DB, "ours", batch(random, 80, retractions, written));
        }
        assertBothRead(name + ": our writes", "ours");
        ours.compactAll(DB, "ours", false);
        ours.write(DB, "ours", batch(random, 80, retractions, written));
        assertBothRead(name + ": our partial compaction", "ours");
        paimon.write(DB, "ours", batch(random, 80, retractions, written));
        assertBothRead(name + ": Paimon continued", "ours");
        paimon.compactAll(DB, "ours", false);
        assertBothRead(name + ": Paimon compacted", "ours");
        ours.write(DB, "ours", batch(random, 80, retractions, written));
        paimon.compactAll(DB, "ours", true);
        assertBothRead(name + ": Paimon fully compacted", "ours");
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("engines")
    void weReadContinueAndCompactPaimonsTable(String name, String[] options) throws Exception {
        Random random = new Random(~name.hashCode());
        Set<String> written = new HashSet<>();
        boolean retractions = options.length > 2;
        paimon.createTable(DB, "theirs", spec(options));
        for (int i = 0; i < 3; i++) {
            paimon.write(DB, "theirs", batch(random, 80, retractions, written));
        }
        assertBothRead(name + ": Paimon's writes", "theirs");
        paimon.compactAll(DB, "theirs", false);
        paimon.write(DB, "theirs", batch(random, 80, retractions, written));
        assertBothRead(name + ": Paimon's partial compaction", "theirs");
        ours.write(DB, "theirs", batch(random, 80, retractions, written));
        assertBothRead(name + ": we continued", "theirs");
        ours.compactAll(DB, "theirs", false);
        assertBothRead(name + ": we compacted", "theirs");
        paimon.write(DB, "theirs", batch(random, 80, retractions, written));
        ours.compactAll(DB, "theirs", true);
        assertBothRead(name + ": we fully compacted", "theirs");
    }
}
