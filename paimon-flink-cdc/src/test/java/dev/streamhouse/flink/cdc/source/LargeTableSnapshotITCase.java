package dev.streamhouse.flink.cdc.source;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.streamhouse.flink.cdc.event.CdcEvent;
import dev.streamhouse.flink.cdc.event.CdcRecord;
import dev.streamhouse.flink.cdc.testing.MariaDbExtension;
import java.time.Duration;
import java.util.BitSet;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.common.functions.MapFunction;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.streaming.api.functions.sink.v2.DiscardingSink;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.flink.util.Collector;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The 1M-row table, with the bench's columns, read by the chunked snapshot with two readers
 * and checkpoints every second, then a binlog change: every row exactly once, with its values.
 */
class LargeTableSnapshotITCase {

    @RegisterExtension static final MariaDbExtension MARIADB = new MariaDbExtension();

    @RegisterExtension
    static final MiniClusterExtension FLINK = new MiniClusterExtension(new MiniClusterResourceConfiguration.Builder()
            .setNumberTaskManagers(1).setNumberSlotsPerTaskManager(2).build());

    private static final int ROWS = 1_000_000;
    private static final long BINLOG_ID = 5_000_000;

    static final BitSet SEEN = new BitSet(ROWS + 1);
    static final AtomicLong SNAPSHOT_ROWS = new AtomicLong();
    static final AtomicLong DUPLICATES = new AtomicLong();
    static final AtomicLong WRONG_VALUES = new AtomicLong();
    static final AtomicLong BINLOG_INSERTS = new AtomicLong();

    @Test
    void aMillionRowsOnceEachThenTheBinlog() throws Exception {
        MARIADB.execute("CREATE DATABASE big", "CREATE TABLE big.t (id BIGINT PRIMARY KEY, i INT, b BIGINT, "
                        + "d DOUBLE, s VARCHAR(20), ts DATETIME(3))",
                "INSERT INTO big.t SELECT seq, seq % 1000, seq * 7, seq / 4, CONCAT('s-', seq), "
                        + "TIMESTAMP'2024-01-01 00:00:00' + INTERVAL seq SECOND FROM big.seq_1_to_" + ROWS);
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        env.setParallelism(2);
        env.enableCheckpointing(1000);
        env.fromSource(MySqlCdcSource.<Long>builder().hostname(MARIADB.host()).port(MARIADB.port())
                                .username(MariaDbExtension.CDC_USER).password(MariaDbExtension.CDC_PASSWORD)
                                .databaseName("big").tableName("t").deserializer(new CheckedIds()).build(),
                        WatermarkStrategy.noWatermarks(), "mysql-cdc")
                .map(new Count()).sinkTo(new DiscardingSink<>());
        JobClient job = env.executeAsync("cdc-1m");
        try {
            await().atMost(Duration.ofMinutes(5)).until(() -> SNAPSHOT_ROWS.get() >= ROWS);
            MARIADB.execute("INSERT INTO big.t VALUES (" + BINLOG_ID + ", 1, 1, 1, 'x', NOW())");
            await().atMost(Duration.ofMinutes(2)).until(() -> BINLOG_INSERTS.get() >= 1);
            assertThat(SNAPSHOT_ROWS.get()).isEqualTo(ROWS);
            assertThat(DUPLICATES.get()).isZero();
            assertThat(WRONG_VALUES.get()).isZero();
            synchronized (SEEN) {
                assertThat(SEEN.cardinality()).isEqualTo(ROWS);
            }
            assertThat(BINLOG_INSERTS.get()).isEqualTo(1);
        } finally {
            job.cancel().get();
        }
    }

    /** Emits each snapshot row's id (negated when a value differs from what the row was filled with). */
    static final class CheckedIds implements CdcDeserializer<Long> {
        private static final long serialVersionUID = 1L;

        @Override
        public void deserialize(CdcEvent event, Collector<Long> out) {
            if (!(event instanceof CdcRecord r)) {
                return;
            }
            if (!r.snapshot()) {
                out.collect(Long.MIN_VALUE);
                return;
            }
            Object[] row = r.after();
            long id = (Long) row[0];
            boolean right = (Long) row[1] == id % 1000 && (Long) row[2] == id * 7 && row[4].equals("s-" + id)
                    && Math.abs((Double) row[3] - id / 4.0) < 1e-3
                    && row[5].equals(java.time.LocalDateTime.of(2024, 1, 1, 0, 0).plusSeconds(id));
            out.collect(right ? id : -id);
        }

        @Override
        public TypeInformation<Long> getProducedType() {
            return Types.LONG;
        }
    }

    static final class Count implements MapFunction<Long, Long> {
        @Override
        public Long map(Long id) {
            if (id == Long.MIN_VALUE) {
                BINLOG_INSERTS.incrementAndGet();
                return id;
            }
            if (id < 0) {
                WRONG_VALUES.incrementAndGet();
            }
            int key = (int) Math.abs(id);
            synchronized (SEEN) {
                if (SEEN.get(key)) {
                    DUPLICATES.incrementAndGet();
                }
                SEEN.set(key);
            }
            SNAPSHOT_ROWS.incrementAndGet();
            return id;
        }
    }
}
