package dev.streamhouse.storage.mergetree.read;

import dev.streamhouse.storage.mergetree.engine.MergeEngines;
import dev.streamhouse.storage.mergetree.KeyRowComparator;
import static dev.streamhouse.storage.types.DataTypes.BIGINT;
import static dev.streamhouse.storage.types.DataTypes.FIELD;
import static dev.streamhouse.storage.types.DataTypes.INT;
import static dev.streamhouse.storage.types.DataTypes.STRING;
import static org.assertj.core.api.Assertions.assertThat;

import dev.streamhouse.storage.data.BinaryString;
import dev.streamhouse.storage.data.GenericRow;
import dev.streamhouse.storage.data.RowKind;
import dev.streamhouse.storage.mergetree.KeyValue;
import dev.streamhouse.storage.mergetree.io.KvTestTable;
import dev.streamhouse.storage.mergetree.io.KvTestTable.Kv;
import dev.streamhouse.storage.types.RowType;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;

/**
 * Merges random overlapping runs and compares with a brute-force model: per key, all versions sorted
 * by (sequence field with NULL smallest, in the configured direction; then sequence number), and the
 * last one (ignoring retractions under ignore-delete, unless it is the key's only version) wins.
 */
class SortMergeReaderTest {
    private static final RowType KEY = new RowType(List.of(FIELD(0, "a", INT().notNull()), FIELD(1, "b", STRING().notNull())));
    /** a, b, sf (sequence field, nullable), payload. */
    private static final RowType VALUE = new RowType(List.of(FIELD(0, "a", INT()), FIELD(1, "b", STRING()),
            FIELD(2, "sf", INT()), FIELD(3, "payload", BIGINT())));
    private static final String[] B_VALUES = {"", "a", "ab", "b", "long-string-value", "\u00e9", "zz"};

    /** One version in the model. */
    private record Version(int a, String b, long seq, RowKind kind, Integer sf, long payload) {
        GenericRow key() {
            return GenericRow.of(a, BinaryString.fromString(b));
        }

        GenericRow value() {
            return GenericRow.of(a, BinaryString.fromString(b), sf, payload);
        }

        Kv toKv() {
            return new Kv(key(), seq, kind, value(), KeyValue.UNKNOWN_LEVEL);
        }
    }

    private static Comparator<Version> keyOrder() {
        return Comparator.comparingInt(Version::a).thenComparing(v -> BinaryString.fromString(v.b()));
    }

    @ParameterizedTest(name = "sequenceField={0}, ascending={1}, ignoreDelete={2}")
    @CsvSource({"false,true,false", "false,true,true", "true,true,false", "true,false,false", "true,false,true"})
    void matchesTheModelOnRandomRuns(boolean sequenceField, boolean ascending, boolean ignoreDelete) throws Exception {
        Random random = new Random(sequenceField ? (ascending ? 11 : 13) : (ignoreDelete ? 17 : 19));
        for (int round = 0; round < 300; round++) {
            runRound(random, sequenceField, ascending, ignoreDelete);
        }
    }

    private void runRound(Random random, boolean sequenceField, boolean ascending, boolean ignoreDelete)
            throws Exception {
        int runCount = 1 + random.nextInt(6);
        int keyDomain = 1 + random.nextInt(25);
        List<Long> seqs = new ArrayList<>();
        for (long s = 0; s < runCount * keyDomain * B_VALUES.length; s++) {
            seqs.add(s);
        }
        Collections.shuffle(seqs, random);
        int nextSeq = 0;
        List<List<Version>> runs = new ArrayList<>();
        List<Version> all = new ArrayList<>();
        for (int r = 0; r < runCount; r++) {
            List<Version> run = new ArrayList<>();
            for (int a = 0; a < keyDomain; a++) {
                for (String b : B_VALUES) {
                    if (random.nextInt(3) == 0) {
                        RowKind kind = RowKind.values()[random.nextInt(4)];
                        Integer sf = random.nextInt(4) == 0 ? null : random.nextInt(3);
                        run.add(new Version(a - keyDomain / 2, b, seqs.get(nextSeq++), kind, sf, random.nextLong()));
                    }
                }
            }
            run.sort(keyOrder());
            runs.add(run);
            all.addAll(run);
        }

        List<ReusingKvReader> readers = new ArrayList<>();
        for (List<Version> run : runs) {
            List<GenericRow[]> records = new ArrayList<>();
            List<long[]> seqKinds = new ArrayList<>();
            for (Version v : run) {
                records.add(new GenericRow[] {v.key(), v.value()});
                seqKinds.add(new long[] {v.seq(), v.kind().toByteValue()});
            }
            readers.add(new ReusingKvReader(records, seqKinds, 2, 4, random));
        }
        VersionOrder order = sequenceField
                ? VersionOrder.bySequenceFields(VALUE, new int[] {2}, ascending)
                : VersionOrder.bySequenceNumber();
        SortMergeReader reader = new SortMergeReader(readers, new KeyRowComparator(KEY), order,
                MergeEngines.deduplicate(ignoreDelete).create());
        List<Kv> actual = KvTestTable.readAll(reader, KEY, VALUE);

        assertThat(actual).isEqualTo(model(all, sequenceField, ascending, ignoreDelete));
        assertThat(readers).allMatch(r -> r.closed);
    }

    private static List<Kv> model(List<Version> all, boolean sequenceField, boolean ascending, boolean ignoreDelete) {
        Comparator<Integer> sfOrder = Comparator.nullsFirst(Comparator.<Integer>naturalOrder());
        if (!ascending) {
            sfOrder = sfOrder.reversed();
        }
        Comparator<Version> versionOrder = sequenceField
                ? Comparator.comparing(Version::sf, sfOrder).thenComparingLong(Version::seq)
                : Comparator.comparingLong(Version::seq);
        Map<Version, List<Version>> byKey = new TreeMap<>(keyOrder());
        for (Version v : all) {
            byKey.computeIfAbsent(v, k -> new ArrayList<>()).add(v);
        }
        List<Kv> out = new ArrayList<>();
        for (List<Version> versions : byKey.values()) {
            versions.sort(versionOrder);
            // A lone version passes through unmerged, even a retraction under ignore-delete (as in Paimon).
            Version winner = versions.size() == 1 ? versions.get(0) : null;
            for (Version v : versions) {
                if (!(ignoreDelete && v.kind().isRetract())) {
                    winner = v;
                }
            }
            if (winner != null) {
                out.add(winner.toKv());
            }
        }
        return out;
    }

    /**
     * Keys of one integral field are compared as cached longs ({@link KeyRowComparator#integralKey()});
     * the merge must equal the one through the row comparator, NULL keys (first) included.
     */
    @ParameterizedTest(name = "keyType={0}")
    @CsvSource({"BIGINT", "INT", "SMALLINT"})
    void integralKeysMergeLikeTheRowComparator(String keyType) throws Exception {
        RowType key = new RowType(List.of(FIELD(0, "k", switch (keyType) {
            case "BIGINT" -> BIGINT();
            case "INT" -> INT();
            default -> dev.streamhouse.storage.types.DataTypes.SMALLINT();
        })));
        RowType value = new RowType(List.of(FIELD(0, "k", key.typeAt(0)), FIELD(1, "payload", BIGINT())));
        KeyRowComparator rows = new KeyRowComparator(key);
        assertThat(rows.integralKey()).as("the cached-long path is taken").isNotNull();
        Comparator<dev.streamhouse.storage.data.InternalRow> generic = rows::compare;
        Random random = new Random(23);
        for (int round = 0; round < 300; round++) {
            int runCount = 1 + random.nextInt(6);
            List<List<Object[]>> runs = new ArrayList<>();
            long seq = 0;
            for (int r = 0; r < runCount; r++) {
                java.util.TreeSet<Long> keys = new java.util.TreeSet<>();
                int n = random.nextInt(30);
                for (int i = 0; i < n; i++) {
                    // wide values where the type allows them, so that widening to a long is exercised
                    long k = keyType.equals("BIGINT") && random.nextBoolean()
                            ? random.nextLong() % 1000 * 1_000_000_000_000L
                            : random.nextInt(40) - 20;
                    keys.add(k);
                }
                List<Object[]> run = new ArrayList<>();
                if (random.nextInt(3) == 0) {
                    run.add(new Object[] {null, seq++});
                }
                for (long k : keys) {
                    run.add(new Object[] {k, seq++});
                }
                runs.add(run);
            }
            List<Kv> fast = KvTestTable.readAll(new SortMergeReader(readers(runs, keyType, random), rows,
                    VersionOrder.bySequenceNumber(), MergeEngines.deduplicate(false).create()), key, value);
            List<Kv> slow = KvTestTable.readAll(new SortMergeReader(readers(runs, keyType, random), generic,
                    VersionOrder.bySequenceNumber(), MergeEngines.deduplicate(false).create()), key, value);
            assertThat(fast).isEqualTo(slow);
            long distinct = runs.stream().flatMap(List::stream).map(v -> v[0] == null ? "null" : v[0]).distinct().count();
            assertThat(fast).hasSize((int) distinct);
        }
    }

    private static List<ReusingKvReader> readers(List<List<Object[]>> runs, String keyType, Random random) {
        List<ReusingKvReader> readers = new ArrayList<>();
        for (List<Object[]> run : runs) {
            List<GenericRow[]> records = new ArrayList<>();
            List<long[]> seqKinds = new ArrayList<>();
            for (Object[] v : run) {
                Object k = v[0] == null ? null : switch (keyType) {
                    case "BIGINT" -> (Object) (Long) v[0];
                    case "INT" -> (Object) (int) (long) (Long) v[0];
                    default -> (Object) (short) (long) (Long) v[0];
                };
                records.add(new GenericRow[] {GenericRow.of(k), GenericRow.of(k, v[1])});
                seqKinds.add(new long[] {(Long) v[1], RowKind.INSERT.toByteValue()});
            }
            readers.add(new ReusingKvReader(records, seqKinds, 1, 2, random));
        }
        return readers;
    }
}
