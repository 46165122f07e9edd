package dev.streamhouse.flink.catalog.connector;

import dev.streamhouse.storage.schema.TableSchema;
import dev.streamhouse.storage.types.DataField;
import dev.streamhouse.storage.types.DataTypes;

import org.apache.flink.table.api.ValidationException;
import org.apache.flink.table.connector.ChangelogMode;
import org.junit.jupiter.api.Test;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The changelog mode a read declares to Flink decides whether Flink adds its normalize step: only the
 * changes of 'none' tables need it; a changelog producer's changelog is emitted as it is.
 */
class StreamingChangelogModeTest {

    /** A primary-key table (id INT, v STRING) as Apache Paimon could have stored it, with {@code options}. */
    private static TableSchema primaryKeyTable(String... options) {
        Map<String, String> map = new HashMap<>();
        for (int i = 0; i < options.length; i += 2) {
            map.put(options[i], options[i + 1]);
        }
        return new TableSchema(TableSchema.CURRENT_VERSION, 0, List.of(new DataField(0, "id", DataTypes.INT().notNull()),
                new DataField(1, "v", DataTypes.STRING())), 1, List.of(), List.of("id"), map, null, 0L);
    }

    private static ChangelogMode streaming(TableSchema schema) {
        return StreamingChangelogMode.of(schema, true, "db.t");
    }

    @Test
    void changelogProducersAreEmittedAsTheyAreAndNoneTablesAsUpserts() {
        assertThat(streaming(primaryKeyTable())).isEqualTo(ChangelogMode.upsert());
        for (String producer : new String[] {"input", "lookup"}) {
            assertThat(streaming(primaryKeyTable("changelog-producer", producer))).as(producer)
                    .isEqualTo(ChangelogMode.all());
            for (String engine : new String[] {"partial-update", "aggregation"}) {
                assertThat(streaming(primaryKeyTable("changelog-producer", producer, "merge-engine", engine)))
                        .as(producer + ", " + engine).isEqualTo(ChangelogMode.all());
            }
        }
        assertThat(streaming(primaryKeyTable("changelog-producer", "lookup", "deletion-vectors.enabled", "true")))
                .as("lookup with deletion vectors").isEqualTo(ChangelogMode.all());
        assertThat(StreamingChangelogMode.of(primaryKeyTable("changelog-producer", "lookup"), false, "db.t"))
                .as("batch").isEqualTo(ChangelogMode.insertOnly());
    }

    @Test
    void firstRowWithTheLookupProducerOnlyInserts() {
        assertThat(streaming(primaryKeyTable("merge-engine", "first-row", "changelog-producer", "lookup")))
                .isEqualTo(ChangelogMode.insertOnly());
    }

    @Test
    void enginesThatNeedAProducerAreRefusedWithoutOne() {
        assertThatThrownBy(() -> streaming(primaryKeyTable("merge-engine", "aggregation")))
                .isInstanceOf(ValidationException.class)
                .hasMessageStartingWith("Cannot stream-read table db.t: a streaming read of merge engine "
                        + "'aggregation' with 'changelog-producer' = 'none' cannot tell what changed")
                .hasMessageContaining("use 'changelog-producer' = 'lookup' or 'full-compaction'");
    }
}
