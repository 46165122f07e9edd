package dev.streamhouse.flink.catalog.connector;

import dev.streamhouse.storage.options.ChangelogOptions;
import dev.streamhouse.storage.schema.TableSchema;
import dev.streamhouse.storage.table.MergeBehavior;

import org.apache.flink.table.api.ValidationException;
import org.apache.flink.table.connector.ChangelogMode;

/**
 * The Flink {@link ChangelogMode} of a read of a data table:
 * <ul>
 *   <li>batch reads and streaming reads of append tables: inserts only;</li>
 *   <li>streaming reads of a primary-key table with {@code changelog-producer} = {@code none}: an upsert
 *       stream (+I, +U, -D, no -U), because the changes come from the new data files, which hold the
 *       new version of each key but not the old one; Flink adds its normalize step to derive -U;</li>
 *   <li>streaming reads of a primary-key table with a changelog producer ({@code input},
 *       {@code lookup}, {@code full-compaction}): the full changelog (+I, -U, +U, -D) from the
 *       changelog files, emitted as it is (no normalize step); inserts only for first-row, whose
 *       changelog never updates a key.</li>
 * </ul>
 */
final class StreamingChangelogMode {
    private StreamingChangelogMode() {}

    /**
     * @throws ValidationException for a streaming read the merge engine cannot serve (partial-update,
     *     aggregation and first-row without a changelog producer), naming the table
     */
    static ChangelogMode of(TableSchema schema, boolean streaming, String table) {
        if (!streaming || !schema.hasPrimaryKey()) {
            return ChangelogMode.insertOnly();
        }
        MergeBehavior behavior = MergeBehavior.of(schema);
        behavior.refusesStreamingRead().ifPresent(reason -> {
            throw new ValidationException("Cannot stream-read table " + table + ": " + reason);
        });
        if (behavior.changelogIsInsertOnly()) {
            return ChangelogMode.insertOnly();
        }
        ChangelogOptions.ChangelogProducer producer = schema.tableOptions().get(ChangelogOptions.CHANGELOG_PRODUCER);
        return producer == ChangelogOptions.ChangelogProducer.NONE ? ChangelogMode.upsert() : ChangelogMode.all();
    }
}
