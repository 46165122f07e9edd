package dev.streamhouse.storage.table.system;

import static dev.streamhouse.storage.types.DataTypes.BIGINT;
import static dev.streamhouse.storage.types.DataTypes.STRING;
import static dev.streamhouse.storage.types.DataTypes.TIMESTAMP;

import dev.streamhouse.storage.data.BinaryString;
import dev.streamhouse.storage.data.GenericRow;
import dev.streamhouse.storage.data.InternalRow;
import dev.streamhouse.storage.data.Timestamp;
import dev.streamhouse.storage.maintenance.tag.Tag;
import dev.streamhouse.storage.maintenance.tag.TagManager;
import dev.streamhouse.storage.table.FileStoreTable;
import dev.streamhouse.storage.types.RowType;

import java.io.IOException;
import java.util.Iterator;
import java.util.List;

/**
 * {@code t$tags}: one row per tag, by snapshot id and then name, with Apache Paimon 1.3.1's columns.
 * {@code commit_time} is the tagged snapshot's commit time in the JVM's time zone; {@code create_time}
 * and {@code time_retained} (an ISO-8601 duration such as {@code PT1H}) are null for a tag without a
 * retention time.
 */
final class TagsTable extends MetadataTable {
    static final String NAME = "tags";

    private static final RowType ROW_TYPE = columns(
            "tag_name", STRING().notNull(),
            "snapshot_id", BIGINT().notNull(),
            "schema_id", BIGINT().notNull(),
            "commit_time", TIMESTAMP(3).notNull(),
            "record_count", BIGINT(),
            "create_time", TIMESTAMP(3),
            "time_retained", STRING());

    TagsTable(FileStoreTable table) {
        super(table);
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public RowType rowType() {
        return ROW_TYPE;
    }

    @Override
    Iterator<InternalRow> rows() throws IOException {
        List<TagManager.NamedTag> tags = table.tagManager().tags();
        return tags.stream().map(TagsTable::toRow).iterator();
    }

    private static InternalRow toRow(TagManager.NamedTag named) {
        Tag tag = named.tag();
        return GenericRow.of(
                BinaryString.fromString(named.name()),
                tag.snapshot().id(),
                tag.snapshot().schemaId(),
                MetadataStrings.localTime(tag.snapshot().timeMillis()),
                tag.snapshot().totalRecordCount(),
                tag.createTime() == null ? null : Timestamp.fromLocalDateTime(tag.createTime()),
                tag.timeRetained() == null ? null : BinaryString.fromString(tag.timeRetained().toString()));
    }
}
