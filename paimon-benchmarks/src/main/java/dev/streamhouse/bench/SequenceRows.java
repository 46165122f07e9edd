package dev.streamhouse.bench;

import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.api.connector.source.util.ratelimit.RateLimiterStrategy;
import org.apache.flink.connector.datagen.source.DataGeneratorSource;
import org.apache.flink.connector.datagen.source.GeneratorFunction;
import org.apache.flink.types.Row;

/**
 * A temporary view of rows {@code (seq BIGINT, s STRING)}: {@code seq} runs from 1 to {@code rows} at
 * {@code rowsPerSecond} from one source task, {@code s} is 20 characters. Made by Flink's
 * {@code DataGeneratorSource}, whose checkpointed state is its position. (The SQL {@code datagen}
 * connector's {@code sequence} kind checkpoints every number it has not emitted yet: 48 MB at 6,000,000
 * rows, which made each checkpoint of a long streaming run take seconds, whatever the sink.)
 */
final class SequenceRows {
    private SequenceRows() {}

    static void register(SqlSession sql, String name, long rows, long rowsPerSecond) {
        DataGeneratorSource<Row> source = new DataGeneratorSource<>(new Generate(), rows,
                RateLimiterStrategy.perSecond(rowsPerSecond),
                Types.ROW_NAMED(new String[] {"seq", "s"}, Types.LONG, Types.STRING));
        sql.createTemporaryView(name, env -> env.fromSource(source, WatermarkStrategy.noWatermarks(), name)
                .setParallelism(1));
    }

    /** Row {@code index}: sequence number {@code index + 1}. */
    private static final class Generate implements GeneratorFunction<Long, Row> {
        private static final long serialVersionUID = 1L;

        @Override
        public Row map(Long index) {
            long seq = index + 1;
            return Row.of(seq, String.format("%020d", seq));
        }
    }
}
