package dev.streamhouse.flink.cdc.sync;

import dev.streamhouse.flink.cdc.event.CdcEvent;
import dev.streamhouse.flink.cdc.event.CdcRecord;
import dev.streamhouse.flink.cdc.event.CdcSchema;
import dev.streamhouse.flink.cdc.event.CdcSchemaChange;
import dev.streamhouse.flink.cdc.event.CdcTableId;
import dev.streamhouse.flink.sink.multitable.TableRow;
import dev.streamhouse.flink.sink.multitable.TableRowEncoder;
import dev.streamhouse.storage.catalog.Catalog;
import dev.streamhouse.storage.catalog.CatalogFactory;
import dev.streamhouse.storage.catalog.Identifier;
import dev.streamhouse.storage.data.GenericRow;
import dev.streamhouse.storage.data.RowKind;
import dev.streamhouse.storage.options.Options;
import dev.streamhouse.storage.schema.Schema;
import dev.streamhouse.storage.schema.SchemaChange;
import dev.streamhouse.storage.table.Table;
import dev.streamhouse.storage.types.DataField;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.runtime.execution.SuppressRestartsException;
import org.apache.flink.streaming.api.functions.ProcessFunction;
import org.apache.flink.util.Collector;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The heart of a sync (parallelism 1, in the order of the source's events): creates the target table
 * of each source table on its first event, makes the table follow the source's schema before the first
 * row that needs it ({@link SchemaEvolutionRules}), and turns each changed row into {@link TableRow}s of
 * the table's current schema for the multi-table sink: an insert as +I, a delete as -D, an update as -U
 * of the row before and +U of the row after (a changed primary key so deletes the old key). Columns
 * are matched by name; a table column the source lacks gets NULL. The sync's computed and metadata
 * columns ({@link TargetColumns}) follow the source's columns and are computed for each row image, so
 * the -U of an update computes them from the row before (e.g. the partition it leaves).
 *
 * <p>It keeps no state of its own: tables and their schemas are in the catalog, and every event carries
 * its source schema, so after a restore (the source replays events from its checkpoint) the same
 * tables are found and rows of an older source schema are written with NULL in columns added later.
 *
 * <p>A source table without primary key (and no {@code --primary_keys}) fails a table sync and is
 * skipped, with a warning, by a database sync, as Paimon's MySQL syncs do; with
 * {@link SyncSettings#keylessAsAppend()} (the Kafka syncs) it goes into an append table instead, as
 * Paimon's Kafka syncs make it: inserts and the rows after updates are appended, deletes (and the rows
 * before updates) are not written, and a warning names the table. A table whose schema cannot follow its
 * source fails the job for good (no restart can help) with an {@link IncompatibleSchemaException}, or
 * with {@code --ignore_incompatible} is skipped from then on.
 */
public final class CdcToTableRows extends ProcessFunction<CdcEvent, TableRow> {
    private static final long serialVersionUID = 1L;
    private static final Logger LOG = LoggerFactory.getLogger(CdcToTableRows.class);

    private final SyncSettings settings;

    private transient Catalog catalog;
    private transient Map<Identifier, Target> targets;
    private transient Map<CdcTableId, Source> sources;

    /** A target table: its current schema and encoder; skipped when its source cannot be followed. */
    private static final class Target {
        final Identifier id;
        Table table;
        TableRowEncoder encoder;
        String skipped;
        boolean warnedDeletes;

        Target(Identifier id) {
            this.id = id;
        }
    }

    /** A source table: its schema and where its columns go in its target's current schema. */
    private static final class Source {
        CdcSchema schema;
        TargetColumns columns;
        Target target;
        String skipped;
        long mappedSchemaId = -1;
        int[] positions;

        boolean skippedNow() {
            return skipped != null || (target != null && target.skipped != null);
        }
    }

    public CdcToTableRows(SyncSettings settings) {
        this.settings = settings;
    }

    @Override
    public void open(OpenContext context) {
        catalog = CatalogFactory.createCatalog(new Options(settings.catalogOptions()));
        catalog.createDatabase(settings.database(), true);
        targets = new HashMap<>();
        sources = new HashMap<>();
    }

    @Override
    public void processElement(CdcEvent event, Context context, Collector<TableRow> out) {
        CdcTableId id = event.table();
        if (!settings.includes(id)) {
            return;
        }
        Source source = sources.get(id);
        if (source == null || event instanceof CdcSchemaChange || !source.schema.sameStructure(event.schema())) {
            source = follow(id, event.schema(), source);
            sources.put(id, source);
        }
        if (source.skippedNow() || !(event instanceof CdcRecord record)) {
            return;
        }
        Target target = source.target;
        if (source.mappedSchemaId != target.table.schema().id()) {
            map(source);
        }
        if (!target.table.schema().hasPrimaryKey()) {
            append(source, record, out);
            return;
        }
        switch (record.op()) {
            case INSERT:
                out.collect(target.encoder.encode(row(source, record, record.after(), RowKind.INSERT)));
                break;
            case DELETE:
                out.collect(target.encoder.encode(row(source, record, record.before(), RowKind.DELETE)));
                break;
            default:
                out.collect(target.encoder.encode(row(source, record, record.before(), RowKind.UPDATE_BEFORE)));
                out.collect(target.encoder.encode(row(source, record, record.after(), RowKind.UPDATE_AFTER)));
        }
    }

    /** A record into an append table: the row inserted or the row after an update; a delete writes nothing. */
    private void append(Source source, CdcRecord record, Collector<TableRow> out) {
        Target target = source.target;
        if (record.op() == CdcRecord.Op.DELETE) {
            if (!target.warnedDeletes) {
                LOG.warn("Not applying deletes of source table {} to table {}: it is an append table (no primary "
                        + "key); give --primary_keys to apply them", record.table(), target.id.fullName());
                target.warnedDeletes = true;
            }
            return;
        }
        out.collect(target.encoder.encode(row(source, record, record.after(), RowKind.INSERT)));
    }

    private GenericRow row(Source source, CdcRecord record, Object[] image, RowKind kind) {
        Object[] values;
        try {
            values = source.columns.values(image, record);
        } catch (IllegalArgumentException e) {
            // The same row fails the same way after a restart.
            throw new SuppressRestartsException(e);
        }
        List<DataField> fields = source.target.table.rowType().fields();
        String table = source.target.id.fullName();
        GenericRow row = new GenericRow(fields.size());
        for (int i = 0; i < fields.size(); i++) {
            int from = source.positions[i];
            if (from >= 0) {
                DataField f = fields.get(i);
                try {
                    row.setField(i, TableValues.convert(values[from], f.type(), table, f.name()));
                } catch (IllegalArgumentException e) {
                    // A value that does not fit its column does not fit after a restart either.
                    throw new SuppressRestartsException(e);
                }
            }
        }
        row.setRowKind(kind);
        return row;
    }

    /** Creates or evolves the target of {@code id} for {@code schema}; the source's new state. */
    private Source follow(CdcTableId id, CdcSchema schema, Source previous) {
        Source source = previous != null ? previous : new Source();
        source.schema = schema;
        Identifier targetId = settings.target(id);
        Target target = targets.computeIfAbsent(targetId, Target::new);
        source.target = target;
        if (target.skipped != null) {
            return source;
        }
        List<String> primaryKeys = settings.primaryKeys().isEmpty() ? schema.primaryKeys() : settings.primaryKeys();
        if (primaryKeys.isEmpty() && !settings.keylessAsAppend()) {
            String why = "source table " + id + " has no primary key";
            if (settings.singleTable()) {
                throw new SuppressRestartsException(new IllegalArgumentException("Cannot sync " + why
                        + " into table " + targetId.fullName() + ": give the table's primary key with --primary_keys"));
            }
            if (source.skipped == null) {
                LOG.warn("Not syncing {}: a database sync takes only tables with a primary key", why);
            }
            source.skipped = why;
            return source;
        }
        source.skipped = null;
        try {
            if (target.table == null && catalog.tableExists(targetId)) {
                target.table = catalog.getTable(targetId);
            }
            source.columns = TargetColumns.of(settings, schema, primaryKeys,
                    target.table == null ? null : target.table.rowType());
            for (String key : primaryKeys) {
                if (source.columns.indexOf(key) < 0) {
                    throw new IllegalArgumentException("Cannot sync source table " + id + " into table "
                            + targetId.fullName() + ": primary key column '" + key + "' is not a column of the source "
                            + "or a computed or metadata column (" + source.columns.names() + ")");
                }
            }
            List<SchemaEvolutionRules.Column> columns = source.columns.columns();
            if (target.table == null) {
                target.table = create(targetId, columns, primaryKeys, id);
                if (primaryKeys.isEmpty()) {
                    LOG.warn("Created table {} as an append table: source table {} has no primary key (none in its "
                            + "records, no --primary_keys); inserts and the rows after updates are appended, deletes "
                            + "are not applied", targetId.fullName(), id);
                }
            }
            if (!target.table.primaryKeys().equals(primaryKeys)) {
                throw new IncompatibleSchemaException("Cannot sync source table " + id + " into table "
                        + targetId.fullName() + ": its primary key is " + target.table.primaryKeys()
                        + ", the source's " + primaryKeys);
            }
            Set<String> fixed = new LinkedHashSet<>(primaryKeys);
            fixed.addAll(target.table.partitionKeys());
            List<SchemaChange> changes = SchemaEvolutionRules.changes(targetId.fullName(), target.table.rowType(),
                    columns, fixed, settings.typeMapping());
            if (!changes.isEmpty()) {
                LOG.info("Table {} follows source table {}: {}", targetId.fullName(), id, changes);
                catalog.alterTable(targetId, changes, false);
                target.table = catalog.getTable(targetId);
            }
        } catch (IncompatibleSchemaException e) {
            if (!settings.ignoreIncompatible() || settings.singleTable()) {
                // Restarting cannot help: the job fails for good, with this message.
                throw new SuppressRestartsException(e);
            }
            LOG.warn("Not syncing table {} any more (--ignore_incompatible): {}", targetId.fullName(), e.getMessage());
            target.skipped = e.getMessage();
            return source;
        }
        if (target.encoder == null || target.encoder.schemaId() != target.table.schema().id()) {
            target.encoder = new TableRowEncoder(target.table);
        }
        map(source);
        return source;
    }

    private Table create(Identifier targetId, List<SchemaEvolutionRules.Column> columns, List<String> primaryKeys,
            CdcTableId source) {
        Schema.Builder b = Schema.newBuilder();
        List<String> names = new ArrayList<>();
        for (SchemaEvolutionRules.Column c : columns) {
            b.column(c.name(), c.type(), c.comment());
            names.add(c.name());
        }
        List<String> partitions = new ArrayList<>();
        for (String p : settings.partitionKeys(source)) {
            if (names.contains(p)) {
                partitions.add(p);
            }
        }
        b.primaryKey(primaryKeys).partitionKeys(partitions).options(settings.tableOptions());
        catalog.createTable(targetId, b.build(), true);
        LOG.info("Created table {} for source table {}", targetId.fullName(), source);
        return catalog.getTable(targetId);
    }

    /** Where each column of the target's current schema comes from in the source's (extended) values. */
    private static void map(Source source) {
        List<DataField> fields = source.target.table.rowType().fields();
        int[] positions = new int[fields.size()];
        for (int i = 0; i < positions.length; i++) {
            positions[i] = source.columns.indexOf(fields.get(i).name());
        }
        source.positions = positions;
        source.mappedSchemaId = source.target.table.schema().id();
    }

    @Override
    public void close() {
        if (catalog != null) {
            catalog.close();
        }
    }
}
