package dev.streamhouse.storage.mergetree.read;

import static dev.streamhouse.storage.mergetree.io.KvTestTable.kv;
import static dev.streamhouse.storage.types.DataTypes.INT;
import static dev.streamhouse.storage.types.DataTypes.STRING;
import static org.assertj.core.api.Assertions.assertThat;

import dev.streamhouse.storage.data.BinaryRow;
import dev.streamhouse.storage.data.BinaryRowConverter;
import dev.streamhouse.storage.data.BinaryString;
import dev.streamhouse.storage.data.GenericRow;
import dev.streamhouse.storage.data.RowKind;
import dev.streamhouse.storage.manifest.DataFileMeta;
import dev.streamhouse.storage.manifest.FileSource;
import dev.streamhouse.storage.mergetree.io.KvTestTable;
import dev.streamhouse.storage.mergetree.io.RollingKeyValueFileWriter;
import dev.streamhouse.storage.predicate.Predicate;
import dev.streamhouse.storage.predicate.PredicateBuilder;
import dev.streamhouse.storage.schema.Schema;
import dev.streamhouse.storage.stats.SimpleStats;
import dev.streamhouse.storage.types.RowType;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Random;
import java.util.TreeSet;

class KeyFilterPrunerTest {
    /** Includes strings longer than the 128 code points key stats keep, differing only after them. */
    private static final String[] B_VALUES = {"", "a", "abc", "b", "m", "zz", "\u00e9t\u00e9",
            "x".repeat(130) + "a", "x".repeat(130) + "b", "x".repeat(127) + "\uffff\uffff"};

    @TempDir
    java.nio.file.Path tmp;

    private static BinaryString str(String s) {
        return BinaryString.fromString(s);
    }

    private record Key(int a, String b) {
        GenericRow row() {
            return GenericRow.of(a, str(b));
        }
    }

    private static final Comparator<Key> KEY_ORDER =
            Comparator.comparingInt(Key::a).thenComparing(k -> str(k.b()));

    @Test
    void neverDropsAFileHoldingAMatchingKey() throws Exception {
        KvTestTable table = KvTestTable.create(tmp, Schema.newBuilder()
                .column("a", INT()).column("b", STRING()).column("x", INT())
                .primaryKey("a", "b").build());
        RowType keyType = table.layout().keyType();
        Random random = new Random(3);
        List<DataFileMeta> files = new ArrayList<>();
        List<List<Key>> keysPerFile = new ArrayList<>();
        for (int f = 0; f < 30; f++) {
            TreeSet<Key> keys = new TreeSet<>(KEY_ORDER);
            int lo = random.nextInt(40) - 20;
            int span = random.nextInt(4) == 0 ? 0 : random.nextInt(10);
            int count = 1 + random.nextInt(8);
            for (int i = 0; i < count; i++) {
                keys.add(new Key(lo + random.nextInt(span + 1), B_VALUES[random.nextInt(B_VALUES.length)]));
            }
            RollingKeyValueFileWriter writer = table.writerFactory(BinaryRow.EMPTY_ROW, 0, 1 << 30)
                    .newRollingWriter(1, FileSource.APPEND);
            long seq = 0;
            for (Key k : keys) {
                writer.write(kv(k.row(), seq++, RowKind.INSERT, GenericRow.of(k.a(), str(k.b()), 0)));
            }
            files.add(writer.close().get(0));
            keysPerFile.add(new ArrayList<>(keys));
        }

        PredicateBuilder pb = new PredicateBuilder(keyType);
        int dropped = 0;
        for (int p = 0; p < 400; p++) {
            Predicate predicate = randomPredicate(pb, random, 2);
            KeyFilterPruner pruner = new KeyFilterPruner(keyType, predicate);
            for (int f = 0; f < files.size(); f++) {
                boolean hasMatch = keysPerFile.get(f).stream().anyMatch(k -> predicate.test(k.row()));
                boolean kept = pruner.mayContainMatch(files.get(f));
                if (hasMatch) {
                    assertThat(kept).as("%s on %s", predicate, keysPerFile.get(f)).isTrue();
                }
                dropped += kept ? 0 : 1;
            }
            assertThat(pruner.prune(files)).hasSize(
                    (int) files.stream().filter(pruner::mayContainMatch).count());
        }
        assertThat(dropped).isGreaterThan(1000);
    }

    private static Predicate randomPredicate(PredicateBuilder pb, Random random, int depth) {
        if (depth > 0 && random.nextInt(3) == 0) {
            Predicate l = randomPredicate(pb, random, depth - 1);
            Predicate r = randomPredicate(pb, random, depth - 1);
            return random.nextBoolean() ? PredicateBuilder.and(l, r) : PredicateBuilder.or(l, r);
        }
        int field = random.nextInt(2);
        Object lit = field == 0 ? (Object) (random.nextInt(50) - 25) : str(B_VALUES[random.nextInt(B_VALUES.length)]);
        Object lit2 = field == 0 ? (Object) (random.nextInt(50) - 25) : str(B_VALUES[random.nextInt(B_VALUES.length)]);
        switch (random.nextInt(10)) {
            case 0:
                return pb.equal(field, lit);
            case 1:
                return pb.notEqual(field, lit);
            case 2:
                return pb.lessThan(field, lit);
            case 3:
                return pb.lessOrEqual(field, lit);
            case 4:
                return pb.greaterThan(field, lit);
            case 5:
                return pb.greaterOrEqual(field, lit);
            case 6:
                return pb.in(field, List.of(lit, lit2));
            case 7:
                return pb.between(field, lit, lit2);
            case 8:
                return random.nextBoolean() ? pb.isNull(field) : pb.isNotNull(field);
            default:
                return field == 1 ? pb.startsWith(1, str(B_VALUES[random.nextInt(B_VALUES.length)])) : pb.equal(0, lit);
        }
    }

    private static DataFileMeta withoutKeyStats(Key min, Key max) {
        BinaryRowConverter c = new BinaryRowConverter(List.of(INT(), STRING()));
        return new DataFileMeta("f", 1, 10, c.toBinaryRow(min.row()), c.toBinaryRow(max.row()), SimpleStats.EMPTY,
                SimpleStats.EMPTY, 0, 0, 0, 1, List.of(), null, 0L, null, FileSource.APPEND, null, null, null, null);
    }

    @Test
    void keyRangeBoundsTheCommonPrefixAndTheFirstDifferingField() {
        RowType keyType = new RowType(List.of(
                dev.streamhouse.storage.types.DataTypes.FIELD(0, "a", INT().notNull()),
                dev.streamhouse.storage.types.DataTypes.FIELD(1, "b", STRING().notNull())));
        PredicateBuilder pb = new PredicateBuilder(keyType);
        DataFileMeta sameA = withoutKeyStats(new Key(5, "a"), new Key(5, "c"));
        assertThat(new KeyFilterPruner(keyType, pb.equal(1, str("z"))).mayContainMatch(sameA)).isFalse();
        assertThat(new KeyFilterPruner(keyType, pb.equal(1, str("b"))).mayContainMatch(sameA)).isTrue();
        assertThat(new KeyFilterPruner(keyType, pb.equal(0, 6)).mayContainMatch(sameA)).isFalse();
        assertThat(new KeyFilterPruner(keyType, pb.isNull(1)).mayContainMatch(sameA)).isFalse();

        DataFileMeta spread = withoutKeyStats(new Key(1, "z"), new Key(3, "a"));
        assertThat(new KeyFilterPruner(keyType, pb.equal(1, str("q"))).mayContainMatch(spread)).isTrue();
        assertThat(new KeyFilterPruner(keyType, pb.equal(0, 2)).mayContainMatch(spread)).isTrue();
        assertThat(new KeyFilterPruner(keyType, pb.greaterThan(0, 3)).mayContainMatch(spread)).isFalse();
    }

    @Test
    void keyFilterOfKeepsOnlyConjunctsOnKeyColumns() {
        RowType tableType = new RowType(List.of(
                dev.streamhouse.storage.types.DataTypes.FIELD(0, "v", INT()),
                dev.streamhouse.storage.types.DataTypes.FIELD(1, "id", INT().notNull())));
        RowType keyType = new RowType(List.of(dev.streamhouse.storage.types.DataTypes.FIELD(1, "id", INT().notNull())));
        PredicateBuilder pb = new PredicateBuilder(tableType);
        Predicate keyFilter = KeyFilterPruner.keyFilterOf(
                PredicateBuilder.and(pb.equal(0, 1), pb.greaterThan(1, 3)), tableType, keyType);
        assertThat(keyFilter).isEqualTo(new PredicateBuilder(keyType).greaterThan(0, 3));
        assertThat(KeyFilterPruner.keyFilterOf(pb.equal(0, 1), tableType, keyType)).isNull();
        assertThat(KeyFilterPruner.keyFilterOf(null, tableType, keyType)).isNull();
    }
}
