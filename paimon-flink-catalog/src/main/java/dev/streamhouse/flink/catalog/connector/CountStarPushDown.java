package dev.streamhouse.flink.catalog.connector;

import dev.streamhouse.flink.source.PaimonSource;
import dev.streamhouse.storage.table.source.DataSplit;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.datastream.DataStreamSource;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.connector.ProviderContext;
import org.apache.flink.table.connector.source.DataStreamScanProvider;
import org.apache.flink.table.connector.source.ScanTableSource.ScanRuntimeProvider;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.expressions.AggregateExpression;
import org.apache.flink.table.runtime.typeutils.InternalTypeInfo;
import org.apache.flink.table.types.DataType;
import org.apache.flink.table.types.logical.RowType;

import java.util.List;
import java.util.OptionalLong;

/**
 * {@code COUNT(*)} answered from metadata, as Apache Paimon 1.3.1's Flink source answers it. In a batch
 * query, Flink's planner offers the source the local phase of {@code COUNT(*)} (or {@code COUNT(1)})
 * without {@code GROUP BY} over a scan whose filters the source applies exactly (partition filters);
 * when every planned split knows how many rows it holds ({@link DataSplit#mergedRowCount()}: append
 * tables, and primary-key buckets read without merging, less the rows deletion vectors delete), the
 * source emits one row with their sum and no data file is opened. Otherwise it declines and Flink
 * counts the rows the source reads, so the answer is the same either way.
 */
final class CountStarPushDown {
    /** Flink's aggregate function for {@code COUNT(*)} and {@code COUNT(1)} (a planner class, named only). */
    private static final String COUNT_STAR = "org.apache.flink.table.planner.functions.aggfunctions.Count1AggFunction";

    private CountStarPushDown() {}

    /** Whether the pushed aggregates are exactly one {@code COUNT(*)} without grouping, filter or DISTINCT. */
    static boolean isCountStar(List<int[]> groupingSets, List<AggregateExpression> aggregates) {
        if (groupingSets.size() != 1 || groupingSets.get(0).length != 0 || aggregates.size() != 1) {
            return false;
        }
        AggregateExpression agg = aggregates.get(0);
        return COUNT_STAR.equals(agg.getFunctionDefinition().getClass().getName())
                && !agg.isDistinct()
                && agg.getFilterExpression().isEmpty();
    }

    /** The number of rows a read of {@code source} returns, if every split of its plan knows it. */
    static OptionalLong fromMetadata(PaimonSource source) {
        long total = 0;
        for (DataSplit split : source.plan().splits()) {
            OptionalLong rows = split.mergedRowCount();
            if (rows.isEmpty()) {
                return OptionalLong.empty();
            }
            total += rows.getAsLong();
        }
        return OptionalLong.of(total);
    }

    /** A bounded scan of one row, the count, of type {@code producedType} (one BIGINT). */
    static ScanRuntimeProvider provider(long count, DataType producedType, String tableName) {
        RowType rowType = (RowType) producedType.getLogicalType();
        return new DataStreamScanProvider() {
            @Override
            public DataStream<RowData> produceDataStream(ProviderContext providerContext,
                    StreamExecutionEnvironment env) {
                DataStreamSource<RowData> stream =
                        env.fromData(List.<RowData>of(GenericRowData.of(count)), InternalTypeInfo.of(rowType));
                stream.name("paimon: COUNT(*) of " + tableName + " from metadata").setParallelism(1);
                providerContext.generateUid("count-star").ifPresent(stream::uid);
                return stream;
            }

            @Override
            public boolean isBounded() {
                return true;
            }
        };
    }
}
