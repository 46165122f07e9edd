package dev.streamhouse.flink.catalog.connector;

import dev.streamhouse.storage.options.ChangelogOptions;
import dev.streamhouse.storage.schema.TableSchema;

import org.apache.flink.table.connector.ChangelogMode;

/**
 * The Flink {@link ChangelogMode} of a read of a data table:
 * <ul>
 *   <li>batch reads and streaming reads of append tables: inserts only;</li>
 *   <li>streaming reads of a primary-key table with {@code changelog-producer} = {@code none}: an upsert
 *       stream (+I, +U, -D, no -U), because the changes come from the new data files, which hold the
 *       new version of each key but not the old one; Flink adds its normalize step to derive -U;</li>
 *   <li>streaming reads of a primary-key table with a changelog producer ({@code input}, and
 *       {@code lookup} / {@code full-compaction} tables written by Apache Paimon): the full changelog
 *       (+I, -U, +U, -D) from the changelog files.</li>
 * </ul>
 */
final class StreamingChangelogMode {
    private StreamingChangelogMode() {}

    static ChangelogMode of(TableSchema schema, boolean streaming) {
        if (!streaming || !schema.hasPrimaryKey()) {
            return ChangelogMode.insertOnly();
        }
        ChangelogOptions.ChangelogProducer producer = schema.tableOptions().get(ChangelogOptions.CHANGELOG_PRODUCER);
        return producer == ChangelogOptions.ChangelogProducer.NONE ? ChangelogMode.upsert() : ChangelogMode.all();
    }
}
