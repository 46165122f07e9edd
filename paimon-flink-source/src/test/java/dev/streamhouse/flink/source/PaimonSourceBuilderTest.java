package dev.streamhouse.flink.source;

import dev.streamhouse.flink.source.testutils.SourceTestTables;
import dev.streamhouse.storage.fs.LocalFileIO;
import dev.streamhouse.storage.fs.Path;
import dev.streamhouse.storage.predicate.PredicateBuilder;
import dev.streamhouse.storage.schema.Schema;
import dev.streamhouse.storage.table.FileStoreTable;
import dev.streamhouse.storage.testutils.TestTables;
import dev.streamhouse.storage.types.DataTypes;
import dev.streamhouse.storage.types.RowType;
import org.apache.flink.api.connector.source.Boundedness;
import org.apache.flink.table.runtime.typeutils.InternalTypeInfo;
import org.apache.flink.util.InstantiationUtil;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

class PaimonSourceBuilderTest {
    @TempDir
    java.nio.file.Path tmp;

    @Test
    void defaultsToAllColumnsOfABoundedRead() throws Exception {
        FileStoreTable table = SourceTestTables.appendTable(tmp, 10, 2);
        PaimonSource source = PaimonSourceBuilder.forTable(table).build();
        assertThat(source.getBoundedness()).isEqualTo(Boundedness.BOUNDED);
        assertThat(source.readType()).isEqualTo(table.rowType());
        assertThat(source.producedType().getFieldNames()).containsExactly("id", "name", "dt");
        assertThat(source.getProducedType()).isEqualTo(InternalTypeInfo.of(source.producedType()));
        assertThat(source.limit()).isNull();
    }

    @Test
    void unboundedReadsAreContinuousAndCheckTheirOptions() throws Exception {
        FileStoreTable table = SourceTestTables.appendTable(tmp, 10, 2);
        PaimonSource source = PaimonSourceBuilder.forTable(table).unbounded().build();
        assertThat(source.getBoundedness()).isEqualTo(Boundedness.CONTINUOUS_UNBOUNDED);
        assertThat(source.isUnbounded()).isTrue();
        assertThat(PaimonSourceBuilder.forTable(table).unbounded().bounded().build().isUnbounded()).isFalse();
        assertThat(InstantiationUtil.clone(source).isUnbounded()).isTrue();

        assertThatThrownBy(() -> PaimonSourceBuilder.forTable(table.copy(Map.of("consumer-id", "a/b"))).unbounded().build())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("Invalid value 'a/b'").hasMessageContaining("'consumer-id'");
        assertThatThrownBy(() -> PaimonSourceBuilder.forTable(table.copy(Map.of("incremental-between", "1,2"))).unbounded()
                .build())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining(table.fullName()).hasMessageContaining("'incremental-between'");
        assertThatThrownBy(() -> PaimonSourceBuilder.forTable(table.copy(Map.of("scan.mode", "incremental",
                "incremental-between-timestamp", "1,2"))).unbounded().build())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining(table.fullName()).hasMessageContaining("'scan.mode' = 'incremental'")
                .hasMessageContaining("batch");
        // Out-of-range values never reach the source: the table refuses them as dynamic options.
        assertThatThrownBy(() -> table.copy(Map.of("continuous.discovery-interval", "0 s")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("Invalid value '0 s' for option 'continuous.discovery-interval': it must be a "
                        + "positive duration");
        assertThatThrownBy(() -> table.copy(Map.of("scan.max-splits-per-task", "0")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("'scan.max-splits-per-task': it must be at least 1");
    }

    @Test
    void survivesJavaSerializationAsFlinkShipsIt() throws Exception {
        FileStoreTable table = SourceTestTables.appendTable(tmp, 10, 2);
        PredicateBuilder pb = new PredicateBuilder(table.rowType());
        PaimonSource source = PaimonSourceBuilder.forTable(table).projection(new int[] {1}).filter(pb.equal(0, 3))
                .limit(5L).build();
        PaimonSource copy = InstantiationUtil.clone(source);
        assertThat(copy.readType()).isEqualTo(source.readType());
        assertThat(copy.limit()).isEqualTo(5L);
        assertThat(copy.plan().splits()).isEqualTo(source.plan().splits());
    }

    @Test
    void refusesColumnsTheTableDoesNotHave() throws Exception {
        FileStoreTable table = SourceTestTables.appendTable(tmp, 10, 2);
        assertThatThrownBy(() -> PaimonSourceBuilder.forTable(table).projection(new int[] {0, 3}).build())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("Cannot read column 3 of table default.test: it has columns 0 to 2");
        assertThatThrownBy(() -> PaimonSourceBuilder.forTable(table).projection(new int[] {1, 1}).build())
                .hasMessageContaining("twice");
        PredicateBuilder wider = new PredicateBuilder(RowType.of(DataTypes.INT(), DataTypes.INT(), DataTypes.INT(),
                DataTypes.INT()));
        assertThatThrownBy(() -> PaimonSourceBuilder.forTable(table).filter(wider.isNull(3)).build())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("Cannot filter on column 3");
    }

    @Test
    void refusesNegativeLimitsAndSnapshotIds() throws Exception {
        FileStoreTable table = SourceTestTables.appendTable(tmp, 10, 2);
        assertThatThrownBy(() -> PaimonSourceBuilder.forTable(table).limit(-1L).build())
                .hasMessageContaining("the limit is negative");
        assertThatThrownBy(() -> PaimonSourceBuilder.forTable(table).snapshotId(0).build())
                .hasMessageContaining("snapshot ids start at 1");
    }

    @Test
    void variantColumnsMustBeProjectedAway() throws Exception {
        FileStoreTable table = TestTables.create(LocalFileIO.INSTANCE, new Path(tmp.resolve("v").toString()),
                Schema.newBuilder().column("id", DataTypes.INT()).column("v", DataTypes.VARIANT()).build());
        assertThatThrownBy(() -> PaimonSourceBuilder.forTable(table).build())
                .isInstanceOf(org.apache.flink.table.api.ValidationException.class)
                .hasMessageContaining("column 'v'")
                .hasMessageContaining("VARIANT")
                .hasMessageContaining("leave the column out of the projection");
        assertThat(PaimonSourceBuilder.forTable(table).projection(new int[] {0}).build().producedType().getFieldCount())
                .isEqualTo(1);
    }
}
