package dev.streamhouse.e2e.oracle;

import org.apache.paimon.types.DataType;
import org.apache.paimon.types.RowType;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Self-tests of the oracle harness: Apache Paimon writes and reads the generated tables exactly,
 * pushes filters, and our canonical converters round-trip.
 */
class PaimonOracleTest {
    private static final String DB = "db";

    @TempDir
    Path warehouse;

    private PaimonOracle oracle;

    @BeforeEach
    void open() {
        oracle = new PaimonOracle(warehouse);
    }

    @AfterEach
    void close() throws Exception {
        oracle.close();
    }

    private List<CanonicalRow> writeAllTypesInThreeCommits() {
        oracle.createTable(DB, "all_types", TestData.allTypesTable());
        List<CanonicalRow> expected = new ArrayList<>();
        for (int commit = 0; commit < 3; commit++) {
            List<CanonicalRow> rows = TestData.allTypesRows(commit * 40, 40);
            assertThat(oracle.write(DB, "all_types", rows)).isEqualTo(commit + 1);
            expected.addAll(rows);
        }
        return expected;
    }

    @Test
    void allTypesRoundTripThroughPaimon() throws Exception {
        List<CanonicalRow> expected = writeAllTypesInThreeCommits();

        Canon.assertSameRows("all types", expected, oracle.readAll(DB, "all_types"));

        // 5 p_str x 4 p_date values, each combination reached by the id cycle.
        List<PaimonOracle.PartitionInfo> partitions = oracle.listPartitions(DB, "all_types");
        assertThat(partitions).hasSize(20);
        assertThat(partitions.stream().mapToLong(PaimonOracle.PartitionInfo::recordCount).sum()).isEqualTo(120);
        // Specs are rendered strings: DATE as its day count; '' and NULL both as __DEFAULT_PARTITION__,
        // so the 4 ('', d) and 4 (NULL, d) partitions collapse into 4 distinct specs.
        assertThat(partitions.stream().map(PaimonOracle.PartitionInfo::spec).distinct()).hasSize(16);
        assertThat(partitions).anyMatch(p -> p.spec().equals(Map.of("p_str", "a/b=c d%", "p_date", "19724")));
        // Directory names per docs/format.md §1.3 (legacy names: DATE as day count; '' and NULL share a dir).
        Path table = oracle.tablePath(DB, "all_types");
        assertThat(table.resolve("p_str=a%2Fb%3Dc d%25/p_date=19724/bucket-0")).isDirectory();
        assertThat(table.resolve("p_str=__DEFAULT_PARTITION__/p_date=__DEFAULT_PARTITION__/bucket-0")).isDirectory();
        assertThat(table.resolve("p_str=naïve%3A%23%3F/p_date=-1/bucket-0")).isDirectory();
        try (var dirs = Files.list(table)) {
            assertThat(dirs.map(p -> p.getFileName().toString()).filter(n -> n.startsWith("p_str=")))
                    .containsExactlyInAnyOrder("p_str=a%2Fb%3Dc d%25", "p_str=__DEFAULT_PARTITION__", "p_str=plain",
                            "p_str=naïve%3A%23%3F");
        }
    }

    @Test
    void partitionAndValueFiltersPruneAndReturnTheRightRows() {
        List<CanonicalRow> all = writeAllTypesInThreeCommits();
        TableSpec spec = TestData.allTypesTable();
        PaimonOracle.ScanResult full = oracle.scan(DB, "all_types", PaimonOracle.Query.all());
        assertThat(full.files()).isEqualTo(3 * 20); // one file per partition per commit

        // Partition filter as a spec map.
        PaimonOracle.ScanResult plain = oracle.scan(DB, "all_types",
                PaimonOracle.Query.all().partition(Map.of("p_str", "plain", "p_date", "2024-01-02")));
        Canon.assertSameRows("p_str='plain' AND p_date=2024-01-02",
                Filter.and(Filter.eq("p_str", "plain"), Filter.eq("p_date", LocalDate.of(2024, 1, 2))).apply(all, spec),
                plain.rows());
        assertThat(plain.files()).isEqualTo(3);

        // NULL partition through the default partition name; '' is a different partition.
        PaimonOracle.ScanResult nullStr = oracle.scan(DB, "all_types",
                PaimonOracle.Query.all().partition(Map.of("p_str", "__DEFAULT_PARTITION__")));
        Canon.assertSameRows("p_str IS NULL", Filter.isNull("p_str").apply(all, spec), nullStr.rows());
        assertThat(nullStr.files()).isEqualTo(3 * 4);
        // '' is reachable through a predicate (it shares NULL's directory but not its BinaryRow).
        PaimonOracle.ScanResult emptyStr = oracle.scan(DB, "all_types", PaimonOracle.Query.all().filter(Filter.eq("p_str", "")));
        Canon.assertSameRows("p_str = ''", Filter.eq("p_str", "").apply(all, spec), emptyStr.rows());
        assertThat(emptyStr.files()).isEqualTo(3 * 4);

        // Partition predicate plus value predicate through Filter: ids >= 80 were all written by commit 3,
        // so value stats prune the files of commits 1 and 2.
        Filter f = Filter.and(Filter.in("p_str", "a/b=c d%", ""), Filter.ge("id", 80), Filter.isNotNull("c_string"));
        PaimonOracle.ScanResult filtered = oracle.scan(DB, "all_types", PaimonOracle.Query.all().filter(f));
        List<CanonicalRow> expected = f.apply(all, spec);
        assertThat(expected).isNotEmpty();
        Canon.assertSameRows(f.toString(), expected, filtered.rows());
        assertThat(filtered.files()).isEqualTo(2 * 4);
        assertThat(filtered.splits()).isLessThan(full.splits());

        // Projection with a filter on a column that is not projected.
        Filter onDate = Filter.and(Filter.eq("p_date", LocalDate.of(1969, 12, 31)), Filter.lt("c_int", 0));
        PaimonOracle.ScanResult projected = oracle.scan(DB, "all_types",
                PaimonOracle.Query.all().project("c_dec38", "id", "c_ts9").filter(onDate));
        assertThat(projected.columns()).containsExactly("c_dec38", "id", "c_ts9");
        Canon.assertSameRows(onDate.toString(),
                onDate.apply(all, spec).stream().map(r -> r.project(spec, List.of("c_dec38", "id", "c_ts9")))
                        .collect(Collectors.toList()),
                projected.rows());
        assertThat(projected.files()).isLessThanOrEqualTo(3 * 5); // p_date partitions; c_int stats may prune more
    }

    @Test
    void nestedTypesRoundTripThroughPaimon() {
        oracle.createTable(DB, "nested", TestData.nestedTable());
        List<CanonicalRow> expected = new ArrayList<>(TestData.nestedRows(0, 25));
        oracle.write(DB, "nested", expected);
        expected.addAll(TestData.nestedRows(25, 25));
        oracle.write(DB, "nested", TestData.nestedRows(25, 25));

        Canon.assertSameRows("nested", expected, oracle.readAll(DB, "nested"));
        List<CanonicalRow> projected = oracle.read(DB, "nested", List.of("r", "id"), Filter.isNull("a_int"));
        Canon.assertSameRows("projected nested",
                expected.stream().filter(r -> r.get(1) == null).map(r -> r.project(5, 0)).collect(Collectors.toList()),
                projected);
    }

    @Test
    void primaryKeyTableMergesUpdatesAndDeletes() {
        TableSpec spec = TableSpec.of("k", "INT", "v", "STRING", "n", "DECIMAL(10, 2)")
                .withPrimaryKeys("k").withOption("bucket", "2");
        oracle.createTable(DB, "pk", spec);
        oracle.write(DB, "pk", List.of(
                CanonicalRow.of(1, "a", new BigDecimal("1.00")),
                CanonicalRow.of(2, "b", null),
                CanonicalRow.of(3, "c", new BigDecimal("3.50"))));
        oracle.write(DB, "pk", List.of(
                CanonicalRow.ofKind(CanonicalRow.Kind.UPDATE_AFTER, 1, "a2", new BigDecimal("1.10")),
                CanonicalRow.ofKind(CanonicalRow.Kind.DELETE, 2, "b", null),
                CanonicalRow.of(4, "d", new BigDecimal("-4.00"))));

        List<CanonicalRow> rows = oracle.readAll(DB, "pk");
        // Paimon returns the kind of the surviving record: the +U of key 1 stays +U.
        Canon.assertSameRows("pk", List.of(
                CanonicalRow.ofKind(CanonicalRow.Kind.UPDATE_AFTER, 1, "a2", new BigDecimal("1.10")),
                CanonicalRow.of(3, "c", new BigDecimal("3.50")),
                CanonicalRow.of(4, "d", new BigDecimal("-4.00"))), rows);
        assertThat(oracle.rowType(DB, "pk").getTypeAt(0).isNullable()).isFalse();
    }

    @Test
    void dynamicBucketPrimaryKeyTableKeepsKeysInTheirBucket() throws Exception {
        // No 'bucket' option: a PK table defaults to dynamic bucket (-1) with a HASH index.
        TableSpec spec = TableSpec.of("dt", "STRING", "id", "INT", "v", "BIGINT")
                .withPrimaryKeys("dt", "id").withPartitionKeys("dt").withOption("dynamic-bucket.target-row-num", "3");
        oracle.createTable(DB, "dyn", spec);
        List<CanonicalRow> first = new ArrayList<>();
        for (int i = 0; i < 10; i++) {
            first.add(CanonicalRow.of("2024-01-01", i, (long) i));
        }
        oracle.write(DB, "dyn", first);
        oracle.write(DB, "dyn", List.of(CanonicalRow.of("2024-01-01", 3, 300L), CanonicalRow.of("2024-01-01", 10, 10L)));

        List<CanonicalRow> expected = new ArrayList<>(first);
        expected.set(3, CanonicalRow.of("2024-01-01", 3, 300L));
        expected.add(CanonicalRow.of("2024-01-01", 10, 10L));
        Canon.assertSameRows("dynamic bucket", expected, oracle.readAll(DB, "dyn"));
        try (var files = Files.list(oracle.tablePath(DB, "dyn").resolve("index"))) {
            assertThat(files.map(p -> p.getFileName().toString())).anyMatch(n -> n.startsWith("index-"));
        }
        try (var buckets = Files.list(oracle.tablePath(DB, "dyn").resolve("dt=2024-01-01"))) {
            assertThat(buckets.count()).isGreaterThan(1); // 10 keys at 3 rows per bucket
        }
    }

    @Test
    void ourRowTypeMatchesTheOnePaimonCreates() {
        for (TableSpec spec : List.of(TestData.allTypesTable(), TestData.nestedTable(),
                TableSpec.of("k", "BIGINT", "r", "ROW<a ROW<b INT, c ARRAY<ROW<d INT>>>, e STRING>", "v", "INT")
                        .withPrimaryKeys("k"))) {
            String name = "t" + Integer.toHexString(spec.hashCode());
            oracle.createTable(DB, name, spec);
            RowType paimon = oracle.rowType(DB, name);
            assertThat(OurRows.rowType(spec)).isEqualTo(OurRows.toOurType(paimon));
            // The neutral type strings mean the same to our type system and Paimon's.
            for (int i = 0; i < spec.columns().size(); i++) {
                DataType parsed = TypeStrings.parse(spec.columns().get(i).type());
                assertThat(paimon.getTypeAt(i).copy(true).asSQLString()).isEqualTo(parsed.copy(true).asSQLString());
            }
        }
    }

    @Test
    void canonicalRowsRoundTripThroughOurRowsAndPaimonRows() {
        check(TestData.allTypesTable(), TestData.allTypesRows(0, 200));
        check(TestData.nestedTable(), TestData.nestedRows(0, 50));
    }

    private static void check(TableSpec spec, List<CanonicalRow> rows) {
        dev.streamhouse.storage.types.RowType ours = OurRows.rowType(spec);
        RowType paimon = spec.paimonRowType();
        List<CanonicalRow> viaOurs = new ArrayList<>();
        List<CanonicalRow> viaPaimon = new ArrayList<>();
        for (CanonicalRow r : rows) {
            viaOurs.add(OurRows.toCanonical(OurRows.toOurs(r, ours), ours));
            // Also through our deep copy, which reads with InternalRowUtils' getters.
            viaOurs.add(OurRows.toCanonical(
                    dev.streamhouse.storage.data.InternalRowUtils.copyToGeneric(OurRows.toOurs(r, ours), ours), ours));
            viaPaimon.add(PaimonRows.toCanonical(PaimonRows.toPaimon(r, paimon), paimon));
        }
        List<CanonicalRow> twice = new ArrayList<>(rows);
        twice.addAll(rows);
        Canon.assertSameRows("via our rows", twice, viaOurs);
        Canon.assertSameRows("via Paimon rows", rows, viaPaimon);
    }

    @Test
    void generatedDataCoversNullsAndPartitionEdgeCases() {
        List<CanonicalRow> rows = TestData.allTypesRows(0, 120);
        int arity = TestData.allTypesColumns().size();
        Set<Integer> columnsWithNull = new HashSet<>();
        for (CanonicalRow r : rows) {
            for (int c = 0; c < arity; c++) {
                if (r.get(c) == null) {
                    columnsWithNull.add(c);
                }
            }
        }
        assertThat(columnsWithNull).hasSize(arity - 1); // all but id
        assertThat(rows.stream().map(r -> r.get(arity - 2)).collect(Collectors.toSet()))
                .containsExactlyInAnyOrderElementsOf(TestData.P_STR_VALUES);
        assertThat(TestData.allTypesRows(7, 3)).isEqualTo(rows.subList(7, 10));
    }

    @Test
    void diffIsReadable() {
        List<CanonicalRow> a = List.of(CanonicalRow.of(1, "x", 2L), CanonicalRow.of(1, "x", 2L));
        List<CanonicalRow> b = List.of(CanonicalRow.of(1, "x", 2L), CanonicalRow.of(1, "x", 2));
        assertThatThrownBy(() -> Canon.assertSameRows("t", a, b))
                .hasMessageContaining("1 missing (expected, not returned):\n  +I[1, 'x', 2L]")
                .hasMessageContaining("1 unexpected (returned, not expected):\n  +I[1, 'x', 2]");
        assertThatThrownBy(() -> CanonicalRow.of(new byte[] {1})).hasMessageContaining("hex strings");
    }
}
