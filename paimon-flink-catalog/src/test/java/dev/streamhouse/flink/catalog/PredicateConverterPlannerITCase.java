package dev.streamhouse.flink.catalog;

import dev.streamhouse.flink.common.FlinkTypes;
import static org.assertj.core.api.Assertions.assertThat;

import dev.streamhouse.flink.catalog.testutils.FilterCaptureTableFactory;
import dev.streamhouse.storage.data.BinaryString;
import dev.streamhouse.storage.data.Decimal;
import dev.streamhouse.storage.data.GenericRow;
import dev.streamhouse.storage.data.InternalRow;
import dev.streamhouse.storage.data.Timestamp;
import dev.streamhouse.storage.predicate.Predicate;
import dev.streamhouse.storage.predicate.PredicateBuilder;
import dev.streamhouse.storage.types.DataField;
import dev.streamhouse.storage.types.RowType;

import org.apache.flink.table.api.EnvironmentSettings;
import org.apache.flink.table.api.TableEnvironment;
import org.apache.flink.table.catalog.Column;
import org.apache.flink.table.catalog.ResolvedSchema;
import org.apache.flink.table.expressions.ResolvedExpression;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.math.BigDecimal;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * Converts the filters Flink's planner really pushes into a source (captured by the
 * {@code filter-capture} test connector while planning) and checks the predicates keep exactly the
 * rows the SQL condition keeps. Planning only: no job runs.
 */
class PredicateConverterPlannerITCase {
    private static TableEnvironment tEnv;
    private static RowType rowType;

    /** Rows the predicates are checked on: two full rows and one of NULLs. */
    private static final List<InternalRow> ROWS = List.of(
            GenericRow.of(1, BinaryString.fromString("abc"), dec("1.50"), ts("2024-01-01T10:00"),
                    Timestamp.fromEpochMillis(1000), day("2024-01-01"), true, 5L, BinaryString.fromString("2024-01-01")),
            GenericRow.of(5, BinaryString.fromString("xyz"), dec("2.00"), ts("2023-12-31T10:00"),
                    Timestamp.fromEpochMillis(0), day("2024-01-02"), false, 6L, BinaryString.fromString("2024-01-02")),
            GenericRow.of(null, null, null, null, null, null, null, null, null));

    @BeforeAll
    static void createSource() {
        tEnv = TableEnvironment.create(EnvironmentSettings.inBatchMode());
        tEnv.executeSql("CREATE TEMPORARY TABLE src (id INT, name STRING, price DECIMAL(10, 2), ts TIMESTAMP(3), "
                + "ltz TIMESTAMP_LTZ(3), d DATE, flag BOOLEAN, big BIGINT, dt STRING) "
                + "WITH ('connector' = 'filter-capture')");
        ResolvedSchema schema = tEnv.from("src").getResolvedSchema();
        List<DataField> fields = new ArrayList<>();
        for (Column c : schema.getColumns()) {
            fields.add(new DataField(fields.size(), c.getName(),
                    FlinkTypes.toStorageType(c.getDataType().getLogicalType(), c.getName())));
        }
        rowType = new RowType(fields);
    }

    static Stream<Arguments> convertibleConditions() {
        return Stream.of(
                Arguments.of("id = 5", List.of(false, true, false)),
                Arguments.of("1 < id", List.of(false, true, false)),
                Arguments.of("id <> 1", List.of(false, true, false)),
                Arguments.of("NOT (id = 1)", List.of(false, true, false)),
                Arguments.of("id IN (1, 2, 3)", List.of(true, false, false)),
                Arguments.of("id NOT IN (1, 2, 3)", List.of(false, true, false)),
                Arguments.of("id BETWEEN 1 AND 3", List.of(true, false, false)),
                Arguments.of("big = 5", List.of(true, false, false)),
                Arguments.of("price > 1.5", List.of(false, true, false)),
                Arguments.of("price >= 1.5", List.of(true, true, false)),
                Arguments.of("name LIKE 'ab%'", List.of(true, false, false)),
                Arguments.of("name = 'xyz'", List.of(false, true, false)),
                Arguments.of("name IS NULL", List.of(false, false, true)),
                Arguments.of("name IS NOT NULL", List.of(true, true, false)),
                Arguments.of("flag", List.of(true, false, false)),
                Arguments.of("NOT flag", List.of(false, true, false)),
                Arguments.of("d = DATE '2024-01-01'", List.of(true, false, false)),
                Arguments.of("ts > TIMESTAMP '2024-01-01 00:00:00'", List.of(true, false, false)),
                Arguments.of("ltz > TO_TIMESTAMP_LTZ(500, 3)", List.of(true, false, false)),
                Arguments.of("dt = '2024-01-01' OR id = 5", List.of(true, true, false)));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("convertibleConditions")
    void plannerFiltersConvertExactly(String condition, List<Boolean> expected) {
        List<ResolvedExpression> filters = plan(condition);
        assertThat(filters).as("filters offered for " + condition).isNotEmpty();
        List<Predicate> predicates = new ArrayList<>();
        PredicateConverter converter = new PredicateConverter(rowType);
        for (ResolvedExpression filter : filters) {
            Optional<Predicate> p = converter.convert(filter);
            assertThat(p).as("conversion of " + filter.asSummaryString()).isPresent();
            predicates.add(p.get());
        }
        Predicate all = PredicateBuilder.and(predicates);
        List<Boolean> actual = new ArrayList<>();
        for (InternalRow row : ROWS) {
            actual.add(all.test(row));
        }
        assertThat(actual).as(condition + " as " + all).isEqualTo(expected);
    }

    static Stream<String> nonConvertibleConditions() {
        return Stream.of("UPPER(name) = 'ABC'", "id + 1 = 2", "name LIKE '%c'", "name LIKE 'a_c'",
                "id = 5000000000", "CAST(price AS DOUBLE) > 1.5");
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("nonConvertibleConditions")
    void otherPlannerFiltersStayWithFlink(String condition) {
        List<ResolvedExpression> filters = plan(condition);
        assertThat(filters).isNotEmpty();
        PushedFilters pushed = PredicateConverter.pushDown(rowType, List.of("dt"), filters, false);
        assertThat(pushed.predicate()).as(filters.toString()).isEmpty();
        assertThat(pushed.remainingFilters()).containsExactlyElementsOf(filters);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("partitionConditions")
    void partitionOnlyFiltersAreConsumedInBatch(String condition, boolean consumed) {
        List<ResolvedExpression> filters = plan(condition);
        PushedFilters pushed = PredicateConverter.pushDown(rowType, List.of("dt"), filters, false);
        assertThat(pushed.consumedFilters().isEmpty()).isEqualTo(!consumed);
        assertThat(pushed.consumedFilters().size() + pushed.remainingFilters().size()).isEqualTo(filters.size());
    }

    static Stream<Arguments> partitionConditions() {
        return Stream.of(
                Arguments.of("dt = '2024-01-01'", true),
                Arguments.of("dt IN ('2024-01-01', '2024-01-02')", true),
                Arguments.of("dt = '2024-01-01' OR id = 1", false),
                Arguments.of("id = 1", false));
    }

    private static List<ResolvedExpression> plan(String condition) {
        FilterCaptureTableFactory.CAPTURED.clear();
        tEnv.explainSql("SELECT * FROM src WHERE " + condition);
        return new ArrayList<>(FilterCaptureTableFactory.CAPTURED);
    }

    private static Decimal dec(String value) {
        return Decimal.fromBigDecimal(new BigDecimal(value), 10, 2);
    }

    private static Timestamp ts(String value) {
        return Timestamp.fromLocalDateTime(LocalDateTime.parse(value));
    }

    private static int day(String value) {
        return (int) LocalDate.parse(value).toEpochDay();
    }
}
